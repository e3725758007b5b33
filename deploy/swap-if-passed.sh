#!/usr/bin/env bash
# Gates a slot swap on a benchmark: runs it with benchdash (the repository's command-line client) on the
# dashboard, and swaps the slot into production only when it passed (exit 0). A run whose limits failed or
# that confirmed a regression in its benchmark's history (1), or that failed or could not start (2), leaves production as it is,
# and the script exits with benchdash's code so the pipeline step fails.
#   usage: deploy/swap-if-passed.sh <resource-group> <app-name> [--slot NAME] -- <benchdash run arguments>
#   e.g.   deploy/swap-if-passed.sh bench-rg myapp -- "staging latency"
# Needs benchdash on PATH (docs/pipelines.md installs it), BENCHDASH_URL and BENCHDASH_API_KEY, and the
# Azure CLI signed in.
set -uo pipefail

[ $# -ge 3 ] || { sed -n '2,9p' "$0"; exit 2; }
group=$1 app=$2; shift 2
slot=staging
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  case $1 in
    --slot) [ $# -ge 2 ] || { echo "--slot needs a name" >&2; exit 2; }; slot=$2; shift 2 ;;
    *) echo "unknown option $1"; exit 2 ;;
  esac
done
[ "${1:-}" = "--" ] || { echo "give the benchmark after --"; exit 2; }
shift

benchdash run "$@"
verdict=$?
case $verdict in
  0) echo "The benchmark passed: swapping $slot into production"
     az webapp deployment slot swap --resource-group "$group" --name "$app" --slot "$slot" --target-slot production ;;
  1) echo "Not swapping: the benchmark failed its limits or confirmed a regression"; exit 1 ;;
  *) echo "Not swapping: the benchmark run failed or could not start"; exit "$verdict" ;;
esac
