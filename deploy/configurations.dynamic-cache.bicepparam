// Seed 000's comparison: App Service's WEBSITE_DYNAMIC_CACHE at 0 (off), 1 (full content) and 2 (directory metadata),
// a slot per value on one plan, each slot a runner agent (cfg0, cfg1, cfg2) of the production dashboard.
// The names match scripts/configurations.sh's local configurations, so one benchmark runs on either.
// Dynamic cache is documented for App Service on Windows only: on this template's Linux plan, expect the three slots to
// differ in the value they record rather than in speed (docs/deploy.md, "App Service configurations side by side").
//   BENCH_APP_NAME=<globally unique> BENCH_API_KEY=<key> BENCH_ADMIN_PASSWORD=<password> \
//     az deployment group create -g bench-rg -n configurations -p deploy/configurations.dynamic-cache.bicepparam
//   bash deploy/deploy.sh bench-rg <name> --configurations configurations
using 'main.bicep'

param appName = readEnvironmentVariable('BENCH_APP_NAME')
param apiKey = readEnvironmentVariable('BENCH_API_KEY')
param adminPassword = readEnvironmentVariable('BENCH_ADMIN_PASSWORD')

param configurations = [
  { name: 'cfg0', appSettings: { WEBSITE_DYNAMIC_CACHE: '0' } }
  { name: 'cfg1', appSettings: { WEBSITE_DYNAMIC_CACHE: '1' } }
  { name: 'cfg2', appSettings: { WEBSITE_DYNAMIC_CACHE: '2' } }
]
