#!/usr/bin/env bash
# Sample ingest with several runner processes at once on one PostgreSQL (issue 24): RUNNERS standalone runners
# (the dashboard's build with --runner, one run at a time each: Runner__ParallelLimit=Runner) on one throw-away
# cluster, each measuring an in-process cache run at a fixed open-model RATE for SECONDS. First each run alone,
# one after another, then RUNNERS at once. Prints per run its runner, requests/s, samples measured and stored, and
# for the runs at once the samples/s stored by all together (stored samples / first start to last end). Stored: the
# samples of the run's blocks and of any rows (the store before blocks).
#   usage: bash bench/ingest-four-runners.sh [RATE=25000] [SECONDS=10] [RUNNERS=4]
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/lib.sh
source bench/lib.sh
rate=${1:-25000}
seconds=${2:-10}
runners=${3:-4}

start_postgres
# The dashboard migrates the database and queues runs; it runs none itself.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
start_dashboard "$port" Database__Provider=postgresql ConnectionStrings__results="$pg_connection" Runner__Process=None
kill -0 "$dashboard_pid" || { echo "The dashboard exited (is port $port taken?):"; cat "$work/web.log"; exit 1; }
for n in $(seq "$runners"); do
  # One folder for all: each runner takes the next free slot lock there, so their names (machine/slot) differ.
  env Database__Provider=postgresql ConnectionStrings__results="$pg_connection" Database__Path="$work/runners/bench.db" \
    Runner__ParallelLimit=Runner Runner__MaxParallelRuns=1 Runner__PollIntervalMs=100 RunLimits__MaxRequests=10000000 \
    Logging__LogLevel__Default=Warning dotnet src/Web/bin/Release/net10.0/BenchDashboard.Web.dll --runner >"$work/runner$n.log" 2>&1 &
  pids+=($!)
done

body="{\"kind\":\"cache\",\"phases\":[\"read-same\"],\"model\":\"open\",\"rate\":$rate,\"durationSeconds\":$seconds,\"concurrency\":4}"
queue() { curl -sf -H 'Content-Type: application/json' "$dashboard/api/runs" -d "$body" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])'; }
wait_all() { for id in "$@"; do while curl -sf "$dashboard/api/runs/$id?includeStats=false" | grep -qE '"status":"(queued|running)"'; do sleep 0.5; done; done; }

alone=()
for _ in $(seq "$runners"); do id=$(queue); wait_all "$id"; alone+=("$id"); done
# A runner still finishing its last run's summary would claim late and not overlap the others: let them settle.
sleep 10
together=()
for _ in $(seq "$runners"); do together+=("$(queue)"); done
wait_all "${together[@]}"

report() {
  local label=$1; shift
  local ids
  ids=$(IFS=,; echo "$*")
  psql_bench "SELECT r.\"Id\", r.\"Status\", r.\"RunnerName\", COALESCE(r.\"MeasuredSamples\", -1), (SELECT COUNT(*) FROM \"Samples\" s WHERE s.\"RunId\" = r.\"Id\") + (SELECT COALESCE(SUM(b.\"Count\"), 0) FROM \"SampleBlocks\" b WHERE b.\"RunId\" = r.\"Id\"), r.\"StartedUtcMs\", r.\"EndedUtcMs\" FROM \"Runs\" r WHERE r.\"Id\" IN ($ids) ORDER BY r.\"Id\"" >"$work/$label.rows"
  for id in "$@"; do curl -sf "$dashboard/api/runs/$id" | python3 -c 'import json,sys; r=json.load(sys.stdin); print(r["id"], round(r["stats"]["requestsPerSecond"]))'; done >"$work/$label.rates"
  python3 - "$label" "$work/$label.rows" "$work/$label.rates" <<'PY'
import sys
label, rows, rates = sys.argv[1], open(sys.argv[2]).read().split(), dict(l.split() for l in open(sys.argv[3]))
stored_total = 0
first = min(int(r.split("|")[5]) for r in rows)
starts, ends = [], []
print(f"{label}:")
for row in rows:
    rid, status, runner, measured, stored, start, end = row.split("|")
    stored_total += int(stored); starts.append(int(start)); ends.append(int(end))
    lost = int(measured) - int(stored)
    print(f"  run {rid:>3} {status:<9} {runner:<10} {int(rates[rid]):>8,} req/s  measured {int(measured):>9,}  stored {int(stored):>9,}  lost {lost}"
          f"  from +{(int(start) - first) / 1000:.1f} s to +{(int(end) - first) / 1000:.1f} s")
print(f"  all {len(rows)}: {stored_total:,} samples stored in {(max(ends) - min(starts)) / 1000:.1f} s = {stored_total / ((max(ends) - min(starts)) / 1000):,.0f} samples/s (first start to last end)")
PY
}
report "alone, one after another" "${alone[@]}"
report "$runners at once" "${together[@]}"
