#!/usr/bin/env bash
# How long move-history takes: a dashboard on a fresh SQLite file stores RUNS in-process cache runs of SAMPLES
# samples each, is stopped, and the file is moved into a throw-away PostgreSQL cluster (fsync on) with the
# dashboard's move-history verb; prints its output and the wall time.
#   usage: bash bench/move-history.sh [RUNS=4] [SAMPLES=250000]
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/lib.sh
source bench/lib.sh
runs=${1:-4}
samples=${2:-250000}

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
start_dashboard "$port"
kill -0 "$dashboard_pid" || { echo "The dashboard exited (is port $port taken?):"; cat "$work/web.log"; exit 1; }
for _ in $(seq "$runs"); do run_and_wait "{\"kind\":\"cache\",\"phases\":[\"read-same\"],\"requests\":$samples,\"concurrency\":4}" >/dev/null; done
kill "$dashboard_pid"; wait "$dashboard_pid" 2>/dev/null || true

start_postgres
start=$(date +%s.%N)
dotnet src/Web/bin/Release/net10.0/BenchDashboard.Web.dll move-history --from "$work/bench.db" --to "$pg_connection"
python3 -c "import sys; print(f'move-history: {float(sys.argv[2]) - float(sys.argv[1]):.1f} s wall')" "$start" "$(date +%s.%N)"
