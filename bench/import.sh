#!/usr/bin/env bash
# Benchmark imports of N definitions (HTTP, one variant-free definition each, as the export writes them): a dry run,
# then the import itself, then the same document again (every one unchanged), each timed; meanwhile a run of the
# dashboard's own 1 ms target stores its samples, and its outcome says whether the import ever stopped its writer.
#   usage: bash bench/import.sh [N…=1000 2000]
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
start_dashboard 5099
for n in "${@:-1000 2000}"; do
  python3 - "$n" "127.0.0.1:5099" > "$work/import-$n.json" <<'PY'
import json, sys
n, host = int(sys.argv[1]), sys.argv[2]
print(json.dumps({"benchmarks": [{"name": f"imported {n}-{i:05d}", "kind": "http",
    "parameters": {"url": f"http://{host}/target/delay?ms=1&i={i}", "requests": 10}} for i in range(n)]}))
PY
  run=$(curl -sf -H 'Content-Type: application/json' "$dashboard/api/runs" -d '{"kind":"http","url":"http://127.0.0.1:5099/target/delay?ms=1","durationSeconds":8,"concurrency":2}' |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
  sleep 1
  for pass in "dry run:?dryRun=true" "import:" "again (unchanged):"; do
    label=${pass%%:*} query=${pass#*:}
    seconds=$(curl -s -o "$work/answer.json" -w '%{time_total}' -H 'Content-Type: application/json' --data-binary "@$work/import-$n.json" "$dashboard/api/benchmarks/import$query")
    echo "$n benchmarks, $label: ${seconds} s, $(python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); print({k: len(v) if isinstance(v, list) else v for k, v in a.items()} if "created" in a else a)' "$work/answer.json")"
  done
  wait_run "$run"
  curl -sf "$dashboard/api/runs/$run" | python3 -c 'import json,sys; r=json.load(sys.stdin); print("  the run meanwhile: %s, %d samples stored, error: %s" % (r["status"], r["stats"]["count"], r["error"]))'
done
