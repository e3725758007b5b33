#!/usr/bin/env bash
# Issue 13, goal 4: the runner's memory over a long run, and the database's bytes per sample. A 5-minute open
# HTTP run at 3,000 requests/s (900 k samples, inside the default sample budget of 1 M) against nginx (4 KB) at up to
# 16 in flight; the runner's RSS (its own process, the dashboard's child) every 10 s, reported at 1, 3 and
# 5 minutes, then its high-water mark once the digest is built, and the database's size per sample.
# Not part of the test suite.   usage: bash bench/memory.sh [seconds] [rate]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-300} rate=${2:-3000}
nginx_port=8096 web_port=5096
source bench/lib.sh
start_nginx $nginx_port
start_dashboard $web_port Logging__LogLevel__BenchDashboard=Information RunLimits__MaxRequests=2000000 ${EXTRA_ENV:-}
runner_pid=$(runner_child_pid)
mb() { awk -v k="$2" '$1 == k":" {printf "%.0f", $2 / 1024}' "/proc/$1/status"; }

db_before=$(du -b "$work/bench.db" | cut -f1)
echo "runner RSS before the run: $(mb "$runner_pid" VmRSS) MB"
id=$(curl -sf -H 'Content-Type: application/json' "$dashboard/api/runs" \
  -d "{\"kind\":\"http\",\"url\":\"http://127.0.0.1:$nginx_port/4k.bin\",\"model\":\"open\",\"rate\":$rate,\"durationSeconds\":$seconds,\"concurrency\":16}" \
  | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
start=$(date +%s)
while curl -sf "$dashboard/api/runs/$id?includeStats=false" | grep -qE '"status":"(queued|running)"'; do
  t=$(( $(date +%s) - start ))
  [ $((t % 10)) -eq 0 ] && echo "  t=${t}s runner RSS $(mb "$runner_pid" VmRSS) MB" >> "$work/rss.txt"
  sleep 1
done
until grep -q "Run $id: digest of" "$work/web.log"; do sleep 1; done
awk '{print}' "$work/rss.txt" | awk -F'[ =s]+' '$3==60 || $3==180 || $3==300 || $3==61 || $3==181 || $3==301' | head -6
echo "  high-water mark (includes the digest build at the end): $(mb "$runner_pid" VmHWM) MB"
grep -o "Run $id: digest of [0-9]* samples built in [0-9,]* ms" "$work/web.log"
samples=$(curl -sf "$dashboard/api/runs/$id?includeStats=false" | python3 -c 'import json,sys; print(json.load(sys.stdin)["completedRequests"])')
sqlite_wal() { du -b "$work/bench.db"* | awk '{s+=$1} END {print s}'; }
echo "database: $(( ($(sqlite_wal) - db_before) / samples )) bytes per sample for $samples samples (with the WAL and the run's digest)"
