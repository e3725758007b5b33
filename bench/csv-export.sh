#!/usr/bin/env bash
# Issue 44, reading goal: the CSV export of a 1 M-sample run over HTTP, as a user downloads it. The Release dashboard
# (its runner in a child process, a fresh SQLite file) stores an in-process cache run of SAMPLES writes, every sample
# kept in blocks; then `GET /api/runs/{id}/samples?format=csv` is downloaded TIMES with curl (to /dev/null) and each
# download's samples/s is its data lines ÷ curl's total time (connect to last byte).
#   usage: bash bench/csv-export.sh [SAMPLES=1000000] [TIMES=5]
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/lib.sh
source bench/lib.sh
samples=${1:-1000000}
times=${2:-5}
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
start_dashboard "$port" RunLimits__MaxSamplesPerRun=$((samples * 2)) RunLimits__MaxRequests=$((samples * 2))
id=$(run_and_wait "{\"kind\":\"cache\",\"phases\":[\"write\"],\"requests\":$samples,\"keyCount\":10}")
lines=$(curl -sf "$dashboard/api/runs/$id/samples?format=csv" | wc -l)
echo "run $id: $((lines - 1)) samples in the CSV (a header line and one a sample); load: $(cut -d' ' -f1-3 /proc/loadavg)"
for n in $(seq "$times"); do
  read -r total size < <(curl -sf -o /dev/null -w '%{time_total} %{size_download}\n' "$dashboard/api/runs/$id/samples?format=csv")
  python3 -c "import sys; t, b, n = float(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]); print(f'download {sys.argv[4]}: {t:.2f} s, {b / 1e6:.1f} MB, {n / t / 1e6:.2f} M samples/s')" "$total" "$size" "$((lines - 1))" "$n"
done
