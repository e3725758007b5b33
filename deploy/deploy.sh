#!/usr/bin/env bash
# Publishes BenchDashboard, zip-deploys it to an App Service slot (default "staging"), waits until the slot's
# /healthz answers 200, and with --swap swaps the slot into production (App Service then warms the slot on
# /healthz again before switching, WEBSITE_SWAP_WARMUP_PING_PATH).
#   usage: deploy/deploy.sh <resource-group> <app-name> [--slot NAME] [--swap]
# Needs the Azure CLI, signed in (az login, or azure/login in CI), and the resources from deploy/main.bicep.
set -euo pipefail
cd "$(dirname "$0")/.."

[ $# -ge 2 ] || { sed -n '2,6p' "$0"; exit 2; }
group=$1 app=$2; shift 2
slot=staging swap=false
while [ $# -gt 0 ]; do
  case $1 in
    --slot) slot=$2; shift 2 ;;
    --swap) swap=true; shift ;;
    *) echo "unknown option $1"; exit 2 ;;
  esac
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "Publishing (Release)"
dotnet publish src/Web -c Release -o "$work/site" -nologo -v quiet
(cd "$work/site" && zip -qr "$work/site.zip" .)

echo "Deploying to $app, slot $slot"
az webapp deploy --resource-group "$group" --name "$app" --slot "$slot" --src-path "$work/site.zip" --type zip

host=$(az webapp show --resource-group "$group" --name "$app" --slot "$slot" --query defaultHostName -o tsv)
echo "Waiting for https://$host/healthz"
for _ in $(seq 60); do
  code=$(curl -s -o "$work/health.json" -w '%{http_code}' "https://$host/healthz" || true)
  [ "$code" = 200 ] && { cat "$work/health.json"; echo; break; }
  sleep 5
done
[ "${code:-}" = 200 ] || { echo "The slot did not become healthy (last status ${code:-none})"; cat "$work/health.json" 2>/dev/null; exit 1; }

if $swap; then
  echo "Swapping $slot into production"
  az webapp deployment slot swap --resource-group "$group" --name "$app" --slot "$slot" --target-slot production
fi
