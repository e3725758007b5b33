#!/usr/bin/env bash
# Repeats issue 11's storage-fault probe against the Release dashboard (runner as its child, the default) with an in-process
# cache load, the fastest sample source: (1) the results database on a 12 MB tmpfs until it is full, (2) the
# database locked by another process for 40 s, (3) the database files made immutable for 10 s. Prints each
# run's status and reason, how long the run went on after the fault, the runner-loop error lines logged, and
# whether a run queued afterwards completes. The sample budget is lifted: in-process writes would reach it
# before the faults. Needs root (mount, chattr). Not part of the test suite.
#   usage: sudo bash bench/storage-faults.sh
set -euo pipefail
cd "$(dirname "$0")/.."
port=5094
work=$(mktemp -d)
pid=""
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; chattr -i "$work"/full/* "$work"/db/* 2>/dev/null || true; umount "$work/full" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
dotnet build src/Web -c Release -nologo -v quiet >/dev/null

start() { # database path → starts the dashboard
  ASPNETCORE_URLS=http://127.0.0.1:$port ASPNETCORE_ENVIRONMENT=Development Database__Path="$1" Demo__Seed=false Runner__PollIntervalMs=200 RunLimits__MaxSamplesPerRun=1000000000 \
    dotnet src/Web/bin/Release/net10.0/BenchDashboard.Web.dll --contentRoot "$PWD/src/Web" >"$work/web.log" 2>&1 &
  pid=$!
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/api/runs" >/dev/null && return; sleep 0.2; done
  echo "the dashboard did not start"; cat "$work/web.log"; exit 1
}
stop() { kill "$pid"; wait "$pid" 2>/dev/null || true; pid=""; }
queue() { curl -sf -H 'Content-Type: application/json' "http://127.0.0.1:$port/api/runs" -d "$1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])'; }
wait_end() { while curl -sf "http://127.0.0.1:$port/api/runs/$1?includeStats=false" | grep -qE '"status":"(queued|running)"'; do sleep 0.5; done; }
show() { curl -sf "http://127.0.0.1:$port/api/runs/$1?includeStats=false" | python3 -c '
import json, sys
r = json.load(sys.stdin)
from datetime import datetime
s, e = (datetime.fromisoformat(r[k].replace("Z", "+00:00")) for k in ("startedUtc", "endedUtc"))
print("  run %d: %s after %.1f s, %s samples reported; %s" % (r["id"], r["status"], (e - s).total_seconds(), format(r["completedRequests"], ","), r["error"]))'; }
endless='{"kind":"cache","phases":["write"],"durationSeconds":120,"keyCount":10}'
small='{"kind":"cache","phases":["write"],"requests":100,"keyCount":10}'

echo "== 1. a 12 MB tmpfs fills up"
mkdir -p "$work/full" && mount -t tmpfs -o size=12m tmpfs "$work/full"
start "$work/full/bench.db"
t0=$(date +%s.%N); id=$(queue "$endless"); wait_end "$id"; t1=$(date +%s.%N)
show "$id"; echo "  wall time of the run: $(python3 -c "print(round($t1-$t0,1))") s (asked for 120 s)"
id2=$(queue "$small") ; wait_end "$id2"; show "$id2"
echo "  /healthz: $(curl -s http://127.0.0.1:$port/healthz)"
echo "  'Runner loop failed' lines: $(grep -c 'Runner loop failed' "$work/web.log" || true); log size $(wc -c <"$work/web.log") bytes"
stop; umount "$work/full"

echo "== 2. another process holds the write lock for 40 s"
mkdir -p "$work/db"; start "$work/db/bench.db"
id=$(queue "$endless"); id2=$(queue "$small"); sleep 2   # the second waits its turn, and must run once the lock is gone
python3 -c "
import sqlite3, time
c = sqlite3.connect('$work/db/bench.db', isolation_level=None, timeout=60); c.execute('BEGIN IMMEDIATE'); time.sleep(40); c.execute('COMMIT')" &
locker=$!
sleep 1; echo "  a run asked for during the lock: $(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' "http://127.0.0.1:$port/api/runs" -d "$small") (after the busy timeout)"
wait "$locker"; wait_end "$id"; wait_end "$id2"; show "$id"; show "$id2"
echo "  'Runner loop failed' lines: $(grep -c 'Runner loop failed' "$work/web.log" || true); log size $(wc -c <"$work/web.log") bytes"
stop; rm -rf "$work/db"

echo "== 3. the database files made immutable for 10 s"
mkdir -p "$work/db"; start "$work/db/bench.db"
id=$(queue "$endless"); sleep 2
chattr +i "$work"/db/bench.db*; sleep 10; echo "  /healthz while immutable: $(curl -s http://127.0.0.1:$port/healthz)"; chattr -i "$work"/db/bench.db*
wait_end "$id"; show "$id"
id2=$(queue "$small"); wait_end "$id2"; show "$id2"
echo "  process alive: $(kill -0 "$pid" 2>/dev/null && echo yes || echo no); 'Runner loop failed' lines: $(grep -c 'Runner loop failed' "$work/web.log" || true)"
stop
