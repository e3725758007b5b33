// BenchDashboard on Azure App Service for Linux: a plan, the web app (production slot) and a "staging"
// slot, both Always On with /healthz as health check and swap warm-up path. Each slot carries a slot-sticky
// BENCHDASHBOARD_SLOT with its own name, which every run records (App Service sets no reliable slot variable).
// With `configurations` (deploy/configurations.dynamic-cache.bicepparam), a slot per configuration instead of
// "staging": each runs the same package as a runner agent named after it, linked to the production dashboard.
// The results database (docs/deploy.md): none (SQLite on each instance's temp disk, lost at restart), create (an Azure
// Database for PostgreSQL flexible server with one database per slot), or existing (connection strings in Key Vault).
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

@description('One App Service configuration under test (docs/deploy.md, "App Service configurations side by side").')
type configuration = {
  @description('The slot\'s and its agent\'s name: lower-case letters and digits, beginning with a letter (slot names are host names, and an app setting\'s name such as Agents__Keys__<name> may not hold "-").')
  @minLength(1)
  name: string

  @description('App settings under test, e.g. WEBSITE_DYNAMIC_CACHE, WEBSITE_LOCAL_CACHE_OPTION, WEBSITE_RUN_FROM_PACKAGE. Each is slot-sticky.')
  appSettings: { *: string }?

  @description('Site settings under test; those not given stay as the production slot\'s.')
  siteSettings: siteSettings?
}

@sealed()
type siteSettings = {
  alwaysOn: bool?
  http20Enabled: bool?
  @description('32-bit worker (Windows plans; a Linux plan has only 64-bit workers).')
  use32BitWorkerProcess: bool?
  @description('ARR affinity cookie: a property of the slot, not of its siteConfig (the template puts it there).')
  clientAffinityEnabled: bool?
  webSocketsEnabled: bool?
  minTlsVersion: ('1.0' | '1.1' | '1.2' | '1.3')?
}

@description('App Service configurations to compare (2 to 8 for an "on each" run): one slot each on the same plan instead of the staging slot. Empty: the staging slot.')
param configurations configuration[] = []

@description('Seed of the agents\' keys (each is a guid of it and the name). Left out, each deployment draws a new one, so the keys rotate on every deployment; give your own (e.g. openssl rand -hex 32) to keep them: whoever knows it can compute every key.')
@secure()
@minLength(16)
param agentKeySeed string = newGuid()

@description('WEBSITE_DYNAMIC_CACHE for the staging slot (seed 000 compared 0, 1 and 2). Empty: leave unset.')
param stagingDynamicCache string = ''

@description('Where results are kept: none (SQLite on the instance\'s temp disk: lost at every restart), create (a new PostgreSQL flexible server), existing (a server whose connection string is a Key Vault secret).')
@allowed([ 'none', 'create', 'existing' ])
param database string = 'none'

@description('create: the server\'s administrator sign-in.')
param postgresAdminLogin string = 'benchadmin'

@description('create: the administrator\'s password (required then).')
@secure()
param postgresAdminPassword string = ''

@description('create: the compute size; Burstable B1ms is the smallest.')
param postgresSkuName string = 'Standard_B1ms'

@allowed([ 'Burstable', 'GeneralPurpose', 'MemoryOptimized' ])
param postgresSkuTier string = 'Burstable'

@description('existing: a Key Vault in this resource group that uses Azure RBAC; both slots\' identities are allowed to read its secrets.')
param keyVaultName string = ''

@description('existing: the secret holding the production slot\'s connection string (Host=...;Database=...;Username=...;Password=...;SSL Mode=Require).')
param connectionSecretName string = 'results-connection'

@description('existing: the staging slot\'s secret. Empty: the same database as production (one history; each slot\'s runner may then claim the other\'s runs).')
param stagingConnectionSecretName string = ''

@description('optional: the thumbprint of a certificate with its private key uploaded to the site (Certificates, "Bring your own"); it encrypts the sign-in key ring in the results database. Empty: the ring is stored unencrypted and /healthz says Degraded.')
param keyRingCertificateThumbprint string = ''

var usesPostgres = database != 'none'
// The value App Service resolves at start; the app never sees the reference, only the connection string.
var vaultSecret = 'https://${keyVaultName}${environment().suffixes.keyvaultDns}/secrets/'

var sharedSettings = [
  { name: 'ASPNETCORE_ENVIRONMENT', value: 'Production' }
  { name: 'Auth__ApiKey', value: apiKey }
  { name: 'Auth__AdminPassword', value: adminPassword }
  { name: 'Demo__Seed', value: 'false' }
  // Swap only once the new slot answers its health check.
  { name: 'WEBSITE_SWAP_WARMUP_PING_PATH', value: '/healthz' }
  { name: 'WEBSITE_SWAP_WARMUP_PING_STATUSES', value: '200' }
]
// App Service for Linux puts the loaded certificate in /var/ssl/private, where the dashboard finds it by thumbprint.
var keyRingSettings = empty(keyRingCertificateThumbprint) ? [] : [
  { name: 'WEBSITE_LOAD_CERTIFICATES', value: keyRingCertificateThumbprint }
  { name: 'KeyRing__CertificateThumbprint', value: keyRingCertificateThumbprint }
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

// create: one server, a database per slot. Each slot keeps its own history (sticky settings below): a run started on
// a slot is executed by that slot's runner and measures that slot, and a swap moves the code, not the histories.
resource postgres 'Microsoft.DBforPostgreSQL/flexibleServers@2024-08-01' = if (database == 'create') {
  name: '${appName}-db'
  location: location
  sku: { name: postgresSkuName, tier: postgresSkuTier }
  properties: {
    version: '16'
    administratorLogin: postgresAdminLogin
    administratorLoginPassword: postgresAdminPassword
    storage: { storageSizeGB: 32, autoGrow: 'Enabled' }
    backup: { backupRetentionDays: 7, geoRedundantBackup: 'Disabled' }
    highAvailability: { mode: 'Disabled' }
    network: { publicNetworkAccess: 'Enabled' }
  }
}

// The app's outbound addresses are not fixed: this rule (0.0.0.0) admits connections from Azure's services only.
resource postgresFromAzure 'Microsoft.DBforPostgreSQL/flexibleServers/firewallRules@2024-08-01' = if (database == 'create') {
  parent: postgres
  name: 'AllowAzureServices'
  properties: { startIpAddress: '0.0.0.0', endIpAddress: '0.0.0.0' }
}

resource productionDatabase 'Microsoft.DBforPostgreSQL/flexibleServers/databases@2024-08-01' = if (database == 'create') {
  parent: postgres
  name: 'bench'
  properties: { charset: 'UTF8', collation: 'en_US.utf8' }
}

var hasStaging = empty(configurations)

resource stagingDatabase 'Microsoft.DBforPostgreSQL/flexibleServers/databases@2024-08-01' = if (database == 'create' && hasStaging) {
  parent: postgres
  name: 'bench-staging'
  properties: { charset: 'UTF8', collation: 'en_US.utf8' }
}

func createdConnection(host string, db string, user string, password string) string =>
  'Host=${host};Database=${db};Username=${user};Password=${password};SSL Mode=Require'

func vaultReference(vault string, secret string) string => '@Microsoft.KeyVault(SecretUri=${vault}${secret})'

var productionConnection = database == 'create'
  ? createdConnection(postgres!.properties.fullyQualifiedDomainName, productionDatabase.name, postgresAdminLogin, postgresAdminPassword)
  : vaultReference(vaultSecret, connectionSecretName)
var stagingConnection = database == 'create'
  ? createdConnection(postgres!.properties.fullyQualifiedDomainName, stagingDatabase.name, postgresAdminLogin, postgresAdminPassword)
  : vaultReference(vaultSecret, empty(stagingConnectionSecretName) ? connectionSecretName : stagingConnectionSecretName)

func databaseSettings(uses bool, connection string) array => uses
  ? [
      { name: 'Database__Provider', value: 'postgresql' }
      { name: 'ConnectionStrings__results', value: connection }
    ]
  : []

// Configurations: an app setting's name may hold only letters, digits, '.' and '_' (Agents__Keys__<name>), and a
// slot's name is part of its host name; a name that breaks either fails the deployment here rather than leave an agent
// whose key the dashboard cannot see.
func isConfigurationName(name string) bool => contains('abcdefghijklmnopqrstuvwxyz', first(name)) && empty(reduce(map(range(0, 36), i => substring('abcdefghijklmnopqrstuvwxyz0123456789', i, 1)), name, (rest, allowed) => replace(rest, allowed, '')))

func configurationName(name string) string => isConfigurationName(name)
  ? name
  : fail('Configuration "${name}": a configuration\'s name is lower-case letters and digits, beginning with a letter.')

// A guid of the secret seed and the name: 122 bits no one without the seed can compute, the same on both sides.
func agentKey(seed string, name string) string => guid(seed, 'agent-key', name)

var agentKeySettings = [for c in configurations: { name: 'Agents__Keys__${configurationName(c.name)}', value: agentKey(agentKeySeed, c.name) }]

// The agent's side (docs/agents.md): it dials the production dashboard, which holds its key.
var agentSettingNames = [ 'Runner__Mode', 'Runner__Coordinator', 'Runner__AgentName', 'Runner__AgentKey', 'Runner__PublicUrl' ]

resource site 'Microsoft.Web/sites@2023-12-01' = {
  name: appName
  location: location
  kind: 'app,linux'
  // Key Vault references are resolved with the app's own identity.
  identity: { type: 'SystemAssigned' }
  properties: {
    serverFarmId: plan.id
    httpsOnly: true
    keyVaultReferenceIdentity: 'SystemAssigned'
    siteConfig: union(siteConfig, {
      appSettings: concat(sharedSettings, keyRingSettings, [ { name: 'BENCHDASHBOARD_SLOT', value: 'production' } ],
        databaseSettings(usesPostgres, productionConnection), agentKeySettings)
    })
  }
}

resource staging 'Microsoft.Web/sites/slots@2023-12-01' = if (hasStaging) {
  parent: site
  name: 'staging'
  location: location
  kind: 'app,linux'
  identity: { type: 'SystemAssigned' }
  properties: {
    serverFarmId: plan.id
    httpsOnly: true
    keyVaultReferenceIdentity: 'SystemAssigned'
    siteConfig: union(siteConfig, {
      appSettings: concat(sharedSettings, keyRingSettings, [ { name: 'BENCHDASHBOARD_SLOT', value: 'staging' } ],
        empty(stagingDynamicCache) ? [] : [ { name: 'WEBSITE_DYNAMIC_CACHE', value: stagingDynamicCache } ],
        databaseSettings(usesPostgres, stagingConnection))
    })
  }
}

// One slot per configuration on the production slot's plan, so every configuration runs on the same instances.
// Its settings come in the next resource, which can name the slot's own host name once the slot exists.
resource configurationSlots 'Microsoft.Web/sites/slots@2023-12-01' = [for c in configurations: {
  parent: site
  // The name is checked where the production slot's settings name it (agentKeySettings): Bicep 0.49 compiles a
  // user function in a name that a child resource repeats without its namespace, which ARM then refuses.
  name: c.name
  location: location
  kind: 'app,linux'
  properties: {
    serverFarmId: plan.id
    httpsOnly: true
    clientAffinityEnabled: c.?siteSettings.?clientAffinityEnabled
    siteConfig: union(siteConfig, toObject(filter(items(c.?siteSettings ?? {}), s => s.key != 'clientAffinityEnabled'), s => s.key, s => s.value))
  }
}]

// Every setting of a configuration slot, the settings under test first so that none can unmake the agent. No
// administrator's key or password: a configuration serves no dashboard, so it holds nothing that opens one.
resource configurationSettings 'Microsoft.Web/sites/slots/config@2023-12-01' = [for (c, i) in configurations: {
  parent: configurationSlots[i]
  name: 'appsettings'
  properties: union(
    { ASPNETCORE_ENVIRONMENT: 'Production' },
    c.?appSettings ?? {},
    {
      BENCHDASHBOARD_SLOT: c.name
      Runner__Mode: 'agent'
      Runner__Coordinator: 'https://${site.properties.defaultHostName}'
      Runner__AgentName: c.name
      Runner__AgentKey: agentKey(agentKeySeed, c.name)
      Runner__PublicUrl: 'https://${configurationSlots[i].properties.defaultHostName}'
    })
}]

// existing: both slots' identities may read the vault's secrets (the built-in role Key Vault Secrets User).
resource vault 'Microsoft.KeyVault/vaults@2023-07-01' existing = if (database == 'existing') {
  name: keyVaultName
}

var secretsUser = subscriptionResourceId('Microsoft.Authorization/roleDefinitions', '4633458b-17de-408a-b874-0445c86b69e6')

resource productionReadsSecrets 'Microsoft.Authorization/roleAssignments@2022-04-01' = if (database == 'existing') {
  scope: vault
  name: guid(vault.id, site.id, secretsUser)
  properties: { principalId: site.identity.principalId, principalType: 'ServicePrincipal', roleDefinitionId: secretsUser }
}

resource stagingReadsSecrets 'Microsoft.Authorization/roleAssignments@2022-04-01' = if (database == 'existing' && hasStaging) {
  scope: vault
  name: guid(vault.id, staging.id, secretsUser)
  properties: { principalId: staging!.identity.principalId, principalType: 'ServicePrincipal', roleDefinitionId: secretsUser }
}

// Settings that stay with their slot when slots swap: the slot's name, the platform setting under test, and where
// the slot's history is (a swap warms the incoming code on the production slot's database, which it migrates).
// With configurations also every setting under test, the agents' settings and the dashboard's keys for them.
var configurationSettingNames = reduce(configurations, [], (names, c) => union(names, objectKeys(c.?appSettings ?? {})))

resource stickySettings 'Microsoft.Web/sites/config@2023-12-01' = {
  parent: site
  name: 'slotConfigNames'
  properties: {
    appSettingNames: union([ 'BENCHDASHBOARD_SLOT', 'WEBSITE_DYNAMIC_CACHE', 'Database__Provider', 'ConnectionStrings__results' ],
      configurationSettingNames, hasStaging ? [] : agentSettingNames, map(agentKeySettings, s => s.name))
  }
}

output productionUrl string = 'https://${site.properties.defaultHostName}'
output stagingUrl string = hasStaging ? 'https://${staging!.properties.defaultHostName}' : ''
@description('The configuration slots, for deploy/deploy.sh --configurations: names only (their keys are never output).')
output configurationSlots string[] = [for (c, i) in configurations: configurationSlots[i].name]
output postgresHost string = database == 'create' ? postgres!.properties.fullyQualifiedDomainName : ''
