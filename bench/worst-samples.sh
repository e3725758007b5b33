#!/usr/bin/env bash
# When a run's slowest 1 % happened: a run through the API against an nginx echo_sleep target (c = C, default 4),
# its samples read back as CSV, and the slowest 1 % listed by when they started (offset in the run, and the offset
# within its second and its 100 ms: the runner closes a second of live figures once a second and stores samples
# every 100 ms). Samples of several connections that started within a millisecond of each other are one stall that
# held them all. Not part of the suite.   usage: [C=4] bash bench/worst-samples.sh [target ms, default 10] [seconds, default 10] [runs, default 2]
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:-10} seconds=${2:-10} runs=${3:-2}
source bench/lib.sh
start_nginx 8597 "$target"
start_dashboard 5597
url=http://127.0.0.1:8598/
run_and_wait "{\"kind\":\"http\",\"url\":\"$url\",\"durationSeconds\":1,\"concurrency\":${C:-4}}" >/dev/null
for _ in $(seq "$runs"); do
  id=$(run_and_wait "{\"kind\":\"http\",\"url\":\"$url\",\"durationSeconds\":$seconds,\"concurrency\":${C:-4}}")
  curl -sf "$dashboard/api/runs/$id/samples?format=csv" | python3 -c '
import csv, sys
rows = [(int(r["latency_ns"]), int(r["offset_ns"])) for r in csv.DictReader(sys.stdin) if r["warmup"].lower() in ("false", "0")]
rows.sort()
n = len(rows); worst = sorted(rows[int(n * 0.99):], key=lambda r: r[1])
groups = []
for latency, offset in worst:
    if groups and offset - groups[-1][-1][1] < 1_000_000: groups[-1].append((latency, offset))
    else: groups.append([(latency, offset)])
print("run %s: %d samples, p50 %.3f ms, p99 %.3f ms; the slowest %d in %d stalls:" % (sys.argv[1], n, rows[n // 2][0] / 1e6, rows[int(n * 0.99)][0] / 1e6, len(worst), len(groups)))
for g in groups:
    at = g[0][1] / 1e6
    print("  at %8.1f ms (%5.0f into its second, %4.0f into its 100 ms): %d samples, up to %.3f ms" % (at, at % 1000, at % 100, len(g), max(l for l, _ in g) / 1e6))' "$id"
done
