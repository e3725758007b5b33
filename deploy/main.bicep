// BenchDashboard on Azure App Service for Linux: a plan, the web app (production slot) and a "staging"
// slot, both Always On with /healthz as health check and swap warm-up path. Each slot carries a slot-sticky
// BENCHDASHBOARD_SLOT with its own name, which every run records (App Service sets no reliable slot variable).
// Deploy: az deployment group create -g <rg> -f deploy/main.bicep -p appName=<name> apiKey=<key> adminPassword=<password>

@description('Globally unique app name: the site is https://<appName>.azurewebsites.net.')
param appName string

param location string = resourceGroup().location

@description('Slots need Standard or above; Premium v3 keeps measurements off shared hardware.')
param planSku string = 'P0v3'

@description('Administrator key for the API (header X-Api-Key). Keep it in a secret store.')
@secure()
param apiKey string

@description('Administrator password for the pages.')
@secure()
param adminPassword string

@description('WEBSITE_DYNAMIC_CACHE for the staging slot (seed 000 compared 0, 1 and 2). Empty: leave unset.')
param stagingDynamicCache string = ''

var sharedSettings = [
  { name: 'ASPNETCORE_ENVIRONMENT', value: 'Production' }
  { name: 'Auth__ApiKey', value: apiKey }
  { name: 'Auth__AdminPassword', value: adminPassword }
  { name: 'Demo__Seed', value: 'false' }
  // Swap only once the new slot answers its health check.
  { name: 'WEBSITE_SWAP_WARMUP_PING_PATH', value: '/healthz' }
  { name: 'WEBSITE_SWAP_WARMUP_PING_STATUSES', value: '200' }
]

var siteConfig = {
  linuxFxVersion: 'DOTNETCORE|10.0'
  alwaysOn: true
  healthCheckPath: '/healthz'
  ftpsState: 'Disabled'
  minTlsVersion: '1.2'
  http20Enabled: true
  // Runner agents on other machines link to the dashboard over a WebSocket (/agents/connect).
  webSocketsEnabled: true
}

resource plan 'Microsoft.Web/serverfarms@2023-12-01' = {
  name: '${appName}-plan'
  location: location
  kind: 'linux'
  sku: { name: planSku }
  properties: { reserved: true } // Linux
}

resource site 'Microsoft.Web/sites@2023-12-01' = {
  name: appName
  location: location
  kind: 'app,linux'
  properties: {
    serverFarmId: plan.id
    httpsOnly: true
    siteConfig: union(siteConfig, {
      appSettings: concat(sharedSettings, [ { name: 'BENCHDASHBOARD_SLOT', value: 'production' } ])
    })
  }
}

resource staging 'Microsoft.Web/sites/slots@2023-12-01' = {
  parent: site
  name: 'staging'
  location: location
  kind: 'app,linux'
  properties: {
    serverFarmId: plan.id
    httpsOnly: true
    siteConfig: union(siteConfig, {
      appSettings: concat(sharedSettings, [ { name: 'BENCHDASHBOARD_SLOT', value: 'staging' } ],
        empty(stagingDynamicCache) ? [] : [ { name: 'WEBSITE_DYNAMIC_CACHE', value: stagingDynamicCache } ])
    })
  }
}

// Settings that stay with their slot when slots swap: the slot's name, and the platform setting under test.
resource stickySettings 'Microsoft.Web/sites/config@2023-12-01' = {
  parent: site
  name: 'slotConfigNames'
  properties: {
    appSettingNames: [ 'BENCHDASHBOARD_SLOT', 'WEBSITE_DYNAMIC_CACHE' ]
  }
}

output productionUrl string = 'https://${site.properties.defaultHostName}'
output stagingUrl string = 'https://${staging.properties.defaultHostName}'
