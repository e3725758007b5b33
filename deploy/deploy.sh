#!/usr/bin/env bash
# Publishes BenchDashboard, zip-deploys it to an App Service slot (default "staging"), waits until the slot's
# /healthz answers 200, and with --swap swaps the slot into production (App Service then warms the slot on
# /healthz again before switching, WEBSITE_SWAP_WARMUP_PING_PATH).
#   usage: deploy/deploy.sh <resource-group> <app-name> [--slot NAME] [--swap]
#          deploy/deploy.sh <resource-group> <app-name> --configurations <deployment-name>
# --configurations deploys the same package to production and to every configuration slot that the named
# deployment of deploy/main.bicep made (its output configurationSlots); those slots are never swapped.
# Needs the Azure CLI, signed in (az login, or azure/login in CI), and the resources from deploy/main.bicep.
set -euo pipefail
cd "$(dirname "$0")/.."

[ $# -ge 2 ] || { sed -n '2,9p' "$0"; exit 2; }
group=$1 app=$2; shift 2
slot=staging swap=false deployment=
while [ $# -gt 0 ]; do
  case $1 in
    --slot) [ $# -ge 2 ] || { echo "--slot needs a name" >&2; exit 2; }; slot=$2; shift 2 ;;
    --swap) swap=true; shift ;;
    --configurations) [ $# -ge 2 ] || { echo "--configurations needs the deployment's name" >&2; exit 2; }; deployment=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
if [ -n "$deployment" ] && $swap; then
  echo "Configuration slots are not swapped: --configurations and --swap exclude each other" >&2; exit 2
fi

# production is the site itself, addressed without --slot.
slot_args() { [ "$1" = production ] || printf '%s\n' --slot "$1"; }

if [ -n "$deployment" ]; then
  configurations=$(az deployment group show --resource-group "$group" --name "$deployment" \
    --query "properties.outputs.configurationSlots.value" -o tsv)
  [ -n "$configurations" ] || { echo "Deployment $deployment made no configuration slots (its parameters had no configurations)" >&2; exit 1; }
  # The dashboard first: each configuration's agent links to it.
  mapfile -t targets < <(echo production; echo "$configurations")
else
  targets=("$slot")
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "Publishing (Release)"
dotnet publish src/Web -c Release -o "$work/site" -nologo -v quiet
(cd "$work/site" && zip -qr "$work/site.zip" .)

for target in "${targets[@]}"; do
  mapfile -t on < <(slot_args "$target")
  echo "Deploying to $app, slot $target"
  az webapp deploy --resource-group "$group" --name "$app" "${on[@]}" --src-path "$work/site.zip" --type zip

  host=$(az webapp show --resource-group "$group" --name "$app" "${on[@]}" --query defaultHostName -o tsv)
  echo "Waiting for https://$host/healthz"
  code=
  for _ in $(seq 60); do
    code=$(curl -s -o "$work/health.json" -w '%{http_code}' "https://$host/healthz" || true)
    [ "$code" = 200 ] && { cat "$work/health.json"; echo; break; }
    sleep 5
  done
  [ "$code" = 200 ] || { echo "Slot $target did not become healthy (last status ${code:-none})"; cat "$work/health.json" 2>/dev/null; exit 1; }
done

if $swap; then
  echo "Swapping $slot into production"
  az webapp deployment slot swap --resource-group "$group" --name "$app" --slot "$slot" --target-slot production
fi
