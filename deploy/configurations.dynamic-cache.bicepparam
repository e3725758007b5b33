// Seed 000's comparison: App Service's WEBSITE_DYNAMIC_CACHE at 0 (off), 1 (full content) and 2 (directory metadata),
// a slot per value on one plan, each slot a runner agent (cfg0, cfg1, cfg2) of the production dashboard.
// The names match scripts/configurations.sh's local configurations, so one benchmark runs on either.
// Dynamic cache is a feature of App Service on Windows; on this template's Linux plan the three slots differ only in
// the variable they record (docs/deploy.md "App Service configurations").
//   BENCH_APP_NAME=<globally unique> BENCH_API_KEY=<key> BENCH_ADMIN_PASSWORD=<password> \
//     az deployment group create -g bench-rg -p deploy/configurations.dynamic-cache.bicepparam
using 'main.bicep'

param appName = readEnvironmentVariable('BENCH_APP_NAME')
param apiKey = readEnvironmentVariable('BENCH_API_KEY')
param adminPassword = readEnvironmentVariable('BENCH_ADMIN_PASSWORD')

param configurations = [
  { name: 'cfg0', appSettings: { WEBSITE_DYNAMIC_CACHE: '0' } }
  { name: 'cfg1', appSettings: { WEBSITE_DYNAMIC_CACHE: '1' } }
  { name: 'cfg2', appSettings: { WEBSITE_DYNAMIC_CACHE: '2' } }
]
