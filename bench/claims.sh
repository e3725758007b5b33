#!/usr/bin/env bash
# Claims across processes (issue 24): 4 runner processes and 2 dashboards (Runner:Process=None) on one PostgreSQL
# database, a throw-away cluster started here (Debian's postgresql; initdb refuses root, so as root it runs as
# postgres) on a free loopback port. RUNS short in-process cache runs are queued through the two dashboards' API
# in turn, as fast as curl goes, with Runner:MaxParallelRuns=LIMIT on the whole database. Prints:
#   - executed exactly once: every run completed, each with exactly its requests' samples, one "started" line per
#     run over the four runners' logs, and how the runs spread over the runners;
#   - the most runs seen running at once: the Runs table polled every 10 ms through one psql session;
#   - queue -> start (StartedUtcMs - QueuedUtcMs) p50 / p99 / max, nearest rank, and the wall time.
# Queued in one burst, a run's wait is mostly the runs ahead of it: the hand-off (the gap between a run's end
# and the next start while runs wait) is printed too, which is what the claim itself costs.
# PACE_MS > 0 queues one run every PACE_MS instead: the wait is then the claim's own (a runner polls once a second).
#   usage: bash bench/claims.sh [RUNS=200] [LIMIT=2] [REQUESTS=50] [PACE_MS=0]
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
runs=${1:-200} limit=${2:-2} requests=${3:-50} pace_ms=${4:-0}

bins=(/usr/lib/postgresql/*/bin)
bin=${bins[-1]}
as_postgres=()
chmod 755 "$work"
mkdir -p "$work/pg"
if [ "$(id -u)" -eq 0 ]; then chown postgres:postgres "$work/pg"; as_postgres=(runuser -u postgres --); fi
pg_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"${as_postgres[@]}" "$bin/initdb" -D "$work/pg/data" -U postgres -A trust >/dev/null
"${as_postgres[@]}" "$bin/pg_ctl" -D "$work/pg/data" -l "$work/pg/log" -w -o "-p $pg_port -k $work/pg -c listen_addresses=127.0.0.1 -c max_connections=200" start >/dev/null
stop_pg() { "${as_postgres[@]}" "$bin/pg_ctl" -D "$work/pg/data" -m fast stop >/dev/null 2>&1 || true; }
trap 'bench_cleanup_all' EXIT
bench_cleanup_all() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; stop_pg; if [ -n "${KEEP:-}" ]; then echo "kept $work"; else rm -rf "$work"; fi; }
psql_q() { "$bin/psql" -h 127.0.0.1 -p "$pg_port" -U postgres -d claims -At -c "$1"; }

dotnet build src/Web -c Release -nologo -v quiet >/dev/null
dll=src/Web/bin/Release/net10.0/BenchDashboard.Web.dll
shared=(Database__Provider=postgresql "ConnectionStrings__results=Host=127.0.0.1;Port=$pg_port;Username=postgres;Database=claims"
        Runner__MaxParallelRuns="$limit" Runner__ParallelLimit=Database Logging__LogLevel__Default=Warning
        # One folder for this machine's files. (The claimers' names, "{machine}/{slot}", differ whatever it is:
        # on PostgreSQL the slots are locks in the temp folder per server and database; RunnerIdentity.)
        Database__Path="$work/machine/bench.db")

mkdir -p "$work/machine"
dashboards=()
for n in 1 2; do
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  env "${shared[@]}" ASPNETCORE_URLS="http://127.0.0.1:$port" ASPNETCORE_ENVIRONMENT=Development \
    Demo__Seed=false Runner__Process=None dotnet "$dll" --contentRoot "$PWD/src/Web" >"$work/web$n.log" 2>&1 &
  pids+=($!)
  dashboards+=("http://127.0.0.1:$port")
  # The first migrates (and creates the database) alone; the second finds it done.
  for _ in $(seq 150); do curl -sf "http://127.0.0.1:$port/api/runs" >/dev/null && break; sleep 0.2; done
  curl -sf "http://127.0.0.1:$port/api/runs" >/dev/null || { echo "Dashboard $n did not start:"; cat "$work/web$n.log"; exit 1; }
done
for n in 1 2 3 4; do
  env "${shared[@]}" DOTNET_ENVIRONMENT=Development \
    Logging__LogLevel__BenchDashboard.Runner.Execution.RunProcessor=Information dotnet "$dll" --runner >"$work/runner$n.log" 2>&1 &
  pids+=($!)
done

queue_run() { curl -sf -o /dev/null -w '%{time_total}\n' -H 'Content-Type: application/json' "${dashboards[$(($1 % 2))]}/api/runs" -d "$body"; }
until_none_waits() {
  for _ in $(seq 1200); do
    [ "$(psql_q "SELECT count(*) FROM \"Runs\" WHERE \"Status\" IN ('Queued', 'Running')")" = 0 ] && return
    sleep 0.5
  done
  echo "Runs still waiting after 10 minutes"; exit 1
}
body="{\"kind\":\"cache\",\"backend\":\"memory\",\"requests\":$requests,\"keyCount\":5}"
# The most runs seen running at once: one psql session answering a count every 10 ms until told to stop.
( while [ ! -e "$work/stop" ]; do echo "SELECT count(*) FROM \"Runs\" WHERE \"Status\" = 'Running';"; sleep 0.01; done ) |
  "$bin/psql" -h 127.0.0.1 -p "$pg_port" -U postgres -d claims -At >"$work/running.txt" 2>&1 &
pids+=($!)

# Warm-up, not measured: the runners start (on two busy cores a .NET process takes seconds to its first claim)
# and each has claimed and run something before the burst.
warmup=8
for i in $(seq $warmup); do queue_run "$i" >/dev/null; done
until_none_waits

started=$(date +%s.%N)
for i in $(seq "$runs"); do
  queue_run "$i" >>"$work/post-times.txt" || { echo "Queueing run $i failed"; exit 1; }
  if [ "$pace_ms" -gt 0 ]; then sleep "$((pace_ms / 1000)).$(printf %03d $((pace_ms % 1000)))"; fi
done
queued=$(date +%s.%N)
until_none_waits
ended=$(date +%s.%N)
touch "$work/stop"; sleep 0.3

echo "$runs runs (after $warmup not measured) of $requests in-process cache requests, queued through 2 dashboards (pace: ${pace_ms} ms) in $(python3 -c "print('%.1f' % ($queued - $started))") s; all ended after $(python3 -c "print('%.1f' % ($ended - $started))") s; Runner:MaxParallelRuns=$limit on the database, 4 runner processes"
python3 -c '
import sys
v = sorted(float(x) * 1000 for x in open(sys.argv[1]))
print("POST /api/runs: p50 %.0f ms, max %.0f ms" % (v[len(v) // 2], v[-1]))' "$work/post-times.txt"
echo "Status of the runs: $(psql_q "SELECT string_agg(s || ' ' || n, ', ') FROM (SELECT \"Status\" s, count(*) n FROM \"Runs\" GROUP BY 1 ORDER BY 1) x")"
# A run's samples: its blocks' counts and any rows (the store before blocks).
stored_of='(SELECT count(*) FROM "Samples" s WHERE s."RunId" = r."Id") + (SELECT COALESCE(SUM(b."Count"), 0) FROM "SampleBlocks" b WHERE b."RunId" = r."Id")'
echo "Samples: $(psql_q "SELECT COALESCE(SUM($stored_of), 0) FROM \"Runs\" r") stored; runs whose stored samples differ from what their runner measured: $(psql_q "SELECT count(*) FROM \"Runs\" r WHERE r.\"MeasuredSamples\" IS DISTINCT FROM $stored_of")"
cat "$work"/runner?.log | grep -oE 'Run [0-9]+ \(cache\) started' | sort | uniq -c | awk -v runs="$((runs + warmup))" '
  { lines++; if ($1 != 1) twice++ } END { printf "\"started\" lines in the runners'"'"' logs: %d for %d runs, %d run(s) started more than once\n", lines, runs, twice + 0 }'
echo "Runs per runner (warm-up included): $(psql_q "SELECT string_agg(n::text, ' / ' ORDER BY n DESC) FROM (SELECT count(*) n FROM \"Runs\" GROUP BY \"RunnerName\") x")"
echo "Most runs running at once ($(grep -cE '^[0-9]+$' "$work/running.txt") polls of the Runs table, every 10 ms or as often as the machine allowed, from the warm-up to the end): $(grep -E '^[0-9]+$' "$work/running.txt" | sort -n | tail -1) (limit $limit)"
psql_q "SELECT \"Id\", \"QueuedUtcMs\", \"StartedUtcMs\", \"EndedUtcMs\", \"RunnerName\" FROM \"Runs\" ORDER BY \"Id\"" >"$work/runs.txt"
awk -F'|' -v w=$warmup '$1 > w { print $2 "|" $3 "|" $4 }' "$work/runs.txt" | python3 -c '
import sys, math
rows = [tuple(int(v) for v in line.split("|")) for line in sys.stdin if line.strip()]
def rank(values, p):
    v = sorted(values); return v[max(0, math.ceil(p / 100 * len(v)) - 1)]
waits = [s - q for q, s, e in rows]
print("Queue -> start: p50 %d ms, p99 %d ms, max %d ms" % (rank(waits, 50), rank(waits, 99), max(waits)))
runs = [e - s for q, s, e in rows]
print("A run, start -> end: p50 %d ms, p99 %d ms" % (rank(runs, 50), rank(runs, 99)))
# Hand-off: for each start while runs were waiting (queued before it), the time since the latest end before it.
ends = sorted(e for q, s, e in rows)
gaps = []
import bisect
for q, s, e in rows:
    i = bisect.bisect_right(ends, s) - 1
    if i >= 0 and q < ends[i]: gaps.append(s - ends[i])
if gaps: print("Hand-off, a run'"'"'s end -> the next start while runs waited: p50 %d ms, p99 %d ms (%d starts)" % (rank(gaps, 50), rank(gaps, 99), len(gaps)))'
