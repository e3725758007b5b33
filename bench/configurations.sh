#!/usr/bin/env bash
# Runs on each App Service configuration (issue 43), on this one machine: scripts/configurations.sh starts a
# dashboard and three configuration processes that are the same build on the same machine (WEBSITE_DYNAMIC_CACHE
# 0/1/2 changes nothing off App Service), so every difference the answer calls between them is a false call. Per
# workload (self-HTTP: each configuration's own /target/delay over loopback; file system: each one's own disks),
# RUNS on-each runs of 3 rounds; prints per run each configuration's p50 (of each phase) as % of cfg0 and whether
# any difference was called, then the spread between configurations (|p50 difference| of two configurations in one
# run) against the spread between runs of one (cfg0's p50 in consecutive runs), and the false calls (runs in which
# any percentile of cfg1 or cfg2 was called faster or slower).
# A false call is counted per judgment too: each percentile of cfg1 and cfg2 (in each phase) is one.
#   usage: bash bench/configurations.sh [runs per workload] [self-http|file-system|both]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-20} only=${2:-both}
dir="$(mktemp -d "${TMPDIR:-/tmp}/bench-configurations.XXXXXX")"
trap 'scripts/configurations.sh stop "$dir" >/dev/null; rm -rf "$dir"' EXIT
scripts/configurations.sh 3 "$dir" --detach >"$dir/start.log"
dashboard=$(grep -o 'http://127.0.0.1:[0-9]*' "$dir/start.log" | head -1)
key=$(cat "$dir/dashboard/admin-key")

run() {
  local id
  id=$(curl -sf -H 'Content-Type: application/json' -H "X-Api-Key: $key" "$dashboard/api/runs" -d "$1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
  while curl -sf -H "X-Api-Key: $key" "$dashboard/api/runs/$id?includeStats=false" | grep -qE '"status":"(queued|running)"'; do sleep 0.5; done
  echo "$id"
}

judge() { # id: status, cfg1's and cfg2's p50 as % of cfg0 per phase, whether any percentile was called; p50s (ms) appended to $2
  curl -sf -H "X-Api-Key: $key" "$dashboard/api/runs/$1" | python3 -c '
import json, re, sys
r = json.load(sys.stdin)
tables = [t for t in (r.get("answer") or []) if t["title"].startswith("Each configuration")]
calls, judged, called, pcts = 0, 0, 0, []
for t in tables:
    cols = t["columns"]
    for row in t["rows"][1:]:
        cells = [row[cols.index(c)] for c in ("p50", "p90", "p99")]
        calls += any(("faster" in c or "slower" in c) for c in cells)
        judged += sum(("difference" in c or "equivalent" in c or "faster" in c or "slower" in c) and "not judged" not in c for c in cells)
        called += sum(("faster" in c or "slower" in c) for c in cells)
        m = re.search(r"\(([0-9.]+) %", cells[0]); pcts.append(m.group(1) + "%" if m else "-")
# p50 per configuration and phase at full precision (the table shows ms to 3 places, too coarse for a file operation)
by_phase = {}
for series in r.get("series") or []:
    agent, _, phase = series["name"].partition("/")
    by_phase.setdefault(phase or "-", {})[agent] = series["stats"]["p50Ms"]
with open(sys.argv[1], "a") as out:
    for phase, agents in by_phase.items():
        out.write(phase + " " + " ".join(repr(agents[a]) for a in ("cfg0", "cfg1", "cfg2") if a in agents) + "\n")
print(r["status"], ",".join(pcts), "called" if calls else "same", judged, called)' "$2"
}

workloads=(self-http file-system)
[ "$only" = both ] || workloads=("$only")
for workload in "${workloads[@]}"; do
  case $workload in
    self-http) body='{"kind":"http","url":"{{self}}/target/delay?ms=1","requests":300,"concurrency":2,"warmupRequests":50,"onEach":["cfg0","cfg1","cfg2"],"rounds":3}' ;;
    file-system) body='{"kind":"fileSystem","directories":["temp"],"fileCount":200,"fileBytes":4096,"largeFileMiB":0,"onEach":["cfg0","cfg1","cfg2"],"rounds":3}' ;;
  esac
  echo "== $workload: $runs runs on each of cfg0 cfg1 cfg2 (identical), 3 rounds"
  printf "%-4s %-6s %-10s %-22s %s\n" run id status "p50 cfg1 cfg2 (% cfg0)" verdict
  false_calls=0 judgments=0 judgments_called=0
  : >"$dir/$workload.p50"
  for i in $(seq "$runs"); do
    id=$(run "$body")
    read -r status pcts verdict judged called < <(judge "$id" "$dir/$workload.p50")
    [ "$verdict" = called ] && false_calls=$((false_calls + 1))
    judgments=$((judgments + judged)) judgments_called=$((judgments_called + called))
    printf "%-4s %-6s %-10s %-22s %s\n" "$i" "$id" "$status" "$pcts" "$verdict"
  done
  echo "false calls: $false_calls of $runs runs had one; $judgments_called of $judgments judgments (a configuration's percentile)"
  python3 - "$dir/$workload.p50" <<'PY'
import statistics, sys
by_phase = {}
for line in open(sys.argv[1]):
    phase, *values = line.split()
    if len(values) == 3: by_phase.setdefault(phase, []).append([float(v) for v in values])
within = [abs(r[i] - r[j]) / r[0] for rows in by_phase.values() for r in rows for i in range(len(r)) for j in range(i + 1, len(r))]
between = [abs(a[0] - b[0]) / a[0] for rows in by_phase.values() for a, b in zip(rows, rows[1:])]
if within and between:
    print("p50 spread: between configurations in one run %.1f %% (median |difference|), between runs of cfg0 %.1f %%"
          % (100 * statistics.median(within), 100 * statistics.median(between)))
PY
done
