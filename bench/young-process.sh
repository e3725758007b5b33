#!/usr/bin/env bash
# Does a young runner process measure like an old one? (issue 15)
# For each setting: a fresh dashboard (its runner a fresh child process), then at once two identical HTTP runs
# against nginx's 4 KB file on 127.0.0.1 (3,000 requests at c = 1 after 300 warm-up, seed 015's A/A), then,
# in the same now older process, two more. Prints each pair's median ratio (second ÷ first − 1) and the first
# run's median: a young process whose first run is slower shows a large first-pair ratio and a slow first median.
#   usage: bash bench/young-process.sh [trials per setting] [setting …]
#   settings: default, no-pgo (DOTNET_TieredPGO=0), no-tiering (DOTNET_TieredCompilation=0),
#             self-warmup (Runner:SelfWarmupRequests=5000: the runner's own loopback warm-up at start),
#             ready-to-run (the dashboard published with PublishReadyToRun: its own code precompiled)
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
trials=${1:-4}; shift || true
settings=("${@:-default no-pgo no-tiering}")
read -r -a settings <<< "${settings[*]}"
nginx_port=8091 web_port=5095

start_nginx $nginx_port
url="http://127.0.0.1:$nginx_port/4k.bin"
body="{\"kind\":\"http\",\"url\":\"$url\",\"requests\":3000,\"warmupRequests\":300}"

median_ms() { curl -sf "$dashboard/api/runs/$1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["stats"]["p50Ms"])'; }

printf "%-12s %5s %10s %10s %10s %10s %10s %10s\n" setting trial "1st p50" "2nd p50" "young A/A" "3rd p50" "4th p50" "old A/A"
for setting in "${settings[@]}"; do
  case $setting in
    default) extra=() ;;
    no-pgo) extra=(DOTNET_TieredPGO=0) ;;
    no-tiering) extra=(DOTNET_TieredCompilation=0) ;;
    self-warmup) extra=(Runner__SelfWarmupRequests=5000) ;;
    ready-to-run) extra=()
      dotnet publish src/Web -c Release -r linux-x64 --self-contained false -p:PublishReadyToRun=true -nologo -v quiet -o "$work/r2r" >/dev/null
      export DASHBOARD_DLL="$work/r2r/BenchDashboard.Web.dll" ;;
    *) echo "unknown setting $setting"; exit 2 ;;
  esac
  [ "$setting" = ready-to-run ] || unset DASHBOARD_DLL
  for trial in $(seq "$trials"); do
    rm -f "$work/bench.db"*
    start_dashboard $web_port "${extra[@]}"
    a=$(median_ms "$(run_and_wait "$body")"); b=$(median_ms "$(run_and_wait "$body")")
    c=$(median_ms "$(run_and_wait "$body")"); d=$(median_ms "$(run_and_wait "$body")")
    python3 -c 'import sys; a,b,c,d = map(float, sys.argv[3:]); print("%-12s %5s %10.4f %10.4f %+9.1f%% %10.4f %10.4f %+9.1f%%" % (sys.argv[1], sys.argv[2], a, b, 100*(b/a-1), c, d, 100*(d/c-1)))' \
      "$setting" "$trial" "$a" "$b" "$c" "$d"
    kill "$dashboard_pid"; wait "$dashboard_pid" 2>/dev/null || true
  done
done
