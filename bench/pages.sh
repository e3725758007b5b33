#!/usr/bin/env bash
# Issue 13, goals 2 and 3: what a view of a run costs as the run grows, and what viewers cost a run under way.
#   A. Runs of 10 k and 1 M samples (in-process cache writes, every sample stored), then each page and API view
#      timed (median of 10 after one unreported) with the dashboard's peak RSS before and after: the run page and
#      its report, GET /api/runs/{id}, the analysis, and the compare of two runs of that size and its report.
#   B. A 30 s HTTP run at concurrency 8 against nginx (4 KB), unobserved, then observed by 50 viewers: 50
#      connections polling the run page, the runs list, the run API and the live API once a second each, and
#      then the same 50 asking as fast as they can (wrk). Requests/s and max latency of the run each time.
# The dashboard as users start it (its runner a child process at normal priority, the dashboard at nice 10);
# EXTRA_ENV="Runner__Process=InProcess" for the runner inside the dashboard's process, SKIP_A=1 for B alone,
# SKIP_B=1 for A alone; PROVIDER=postgresql stores the history in a throw-away PostgreSQL cluster instead of SQLite.
# Not part of the test suite.   usage: bash bench/pages.sh [seconds for B]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
nginx_port=8091 web_port=5093
command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
command -v hey >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq hey >/dev/null; }
source bench/lib.sh
start_nginx $nginx_port
store=()
if [ "${PROVIDER:-sqlite}" = postgresql ]; then start_postgres; store=(Database__Provider=postgresql "ConnectionStrings__results=$pg_connection"); fi
start_dashboard $web_port RunLimits__MaxRequests=1000000 Logging__LogLevel__BenchDashboard=Information "${store[@]}" ${EXTRA_ENV:-}

rss() { awk '/VmRSS/ {print int($2/1024)}' /proc/$dashboard_pid/status; }
hwm() { awk '/VmHWM/ {print int($2/1024)}' /proc/$dashboard_pid/status; }
median_ms() { # url → median of 10 timings in ms, after one unreported
  curl -sf -o /dev/null "$1"
  for _ in $(seq 10); do curl -sf -o /dev/null -w '%{time_total}\n' "$1"; done | sort -n | sed -n 5,6p | awk '{s+=$1} END {printf "%.1f", s/2*1000}'
}

if [ "${SKIP_A:-}" != 1 ]; then
echo "== A: view cost by run size"
printf "%-10s %-28s %10s %12s\n" "samples" "view" "median ms" "peak RSS MB"
for n in 10000 1000000; do
  a=$(run_and_wait "{\"kind\":\"cache\",\"phases\":[\"write\"],\"requests\":$n,\"keyCount\":100}")
  b=$(run_and_wait "{\"kind\":\"cache\",\"phases\":[\"write\"],\"requests\":$n,\"keyCount\":100}")
  until grep -q "Run $b: digest of" "$work/web.log"; do sleep 0.5; done # the runner builds it once the run has ended
  grep -o "Run [0-9]*: digest of [0-9]* samples built in [0-9,]* ms" "$work/web.log" | tail -2 | sed 's/^/   /'
  for view in "/runs/$a" "/runs/$a/report" "/api/runs/$a" "/api/runs/$a/analysis" "/compare?items=$a,$b" "/compare/report?items=$a,$b"; do
    printf "%-10s %-28s %10s %12s\n" "$n" "$view" "$(median_ms "$dashboard$view")" "$(hwm)"
  done
done
[ "${PROVIDER:-sqlite}" = postgresql ] && size=$(psql_bench "SELECT pg_database_size('bench') / 1048576") || size=$(du -m "$work/bench.db" | cut -f1)
echo "   database (${PROVIDER:-sqlite}): $size MB for $(curl -sf "$dashboard/api/runs" | python3 -c 'import json,sys; print(sum(r["completedRequests"] for r in json.load(sys.stdin)))') samples"
fi

[ "${SKIP_B:-}" = 1 ] && exit 0
echo
echo "== B: a ${seconds} s run at c=8 against nginx, unobserved and observed by 50 viewers"
url="http://127.0.0.1:$nginx_port/4k.bin"
measure() { # → "rps max_ms"
  local id; id=$(run_and_wait "{\"kind\":\"http\",\"url\":\"$url\",\"durationSeconds\":$seconds,\"concurrency\":8,\"warmupRequests\":2000}")
  curl -sf "$dashboard/api/runs/$id" | python3 -c 'import json,sys; s=json.load(sys.stdin)["stats"]; print("%.0f %.3f" % (s["requestsPerSecond"], s["maxMs"]))'
}
viewers_polling() { # run id → 50 viewers asking for each of the four views once a second (hey, one process per view)
  for view in "/runs/$1" "/" "/api/runs/$1" "/api/runs/$1/live"; do
    ( sleep 1; hey -z $((seconds + 5))s -c 50 -q 1 "$dashboard$view" > "$work/hey-$(echo "$view" | tr -c 'a-z0-9' _).txt" 2>&1 ) & pids+=($!)
  done
}
read -r quiet_rps quiet_max < <(measure)
printf "%-32s %10s %10s\n" "" "req/s" "max ms"
printf "%-32s %10s %10s\n" "unobserved" "$quiet_rps" "$quiet_max"

next=$(( $(curl -sf "$dashboard/api/runs" | python3 -c 'import json,sys; print(max(r["id"] for r in json.load(sys.stdin)))') + 1 ))
viewer_pids_start=${#pids[@]}
viewers_polling $next
read -r poll_rps poll_max < <(measure)
for p in "${pids[@]:$viewer_pids_start}"; do wait "$p" 2>/dev/null || true; done
for f in "$work"/hey-*.txt; do echo "   $(basename "$f" .txt): $(grep -E 'Requests/sec|Average' "$f" | tr -s ' ' | tr '\n' ' ')"; done
printf "%-32s %10s %10s\n" "50 viewers, every second" "$poll_rps" "$poll_max"

next=$(( next + 1 ))
cat > "$work/views.lua" <<LUA
local paths = { "/runs/$next", "/", "/api/runs/$next", "/api/runs/$next/live" }
local i = 0
request = function() i = i + 1; return wrk.format("GET", paths[(i % #paths) + 1]) end
LUA
( sleep 1; wrk -t2 -c50 -d$((seconds + 5))s -s "$work/views.lua" "$dashboard" > "$work/wrk-views.txt" ) & pids+=($!)
read -r hammer_rps hammer_max < <(measure)
printf "%-32s %10s %10s\n" "50 viewers, as fast as they can" "$hammer_rps" "$hammer_max"
wait "${pids[-1]}" 2>/dev/null || true
grep -E "Requests/sec" "$work/wrk-views.txt" | sed 's/^/   viewers got: /'
python3 -c "print('   ratios: polling %.3f, hammering %.3f of unobserved req/s; max latency %.2fx and %.2fx' % ($poll_rps/$quiet_rps, $hammer_rps/$quiet_rps, $poll_max/$quiet_max, $hammer_max/$quiet_max))"
