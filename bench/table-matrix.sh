#!/usr/bin/env bash
# Seed 003's matrix against Azurite on 127.0.0.1, driven through the dashboard's own API (Release build,
# embedded runner, every sample stored in SQLite):
#   A. the full matrix (single and batch of 10, Expect on/off, Nagle on/off), interleaved, 200 requests per
#      variant: 200 entities per single variant, 2,000 per batch variant;
#   B. single inserts only, 2,000 requests per variant: 2,000 entities per variant;
#   C. the wire: a few batches with Expect off, Nagle on and off, captured with tcpdump on loopback, to show
#      where the time goes (the second write of a batch's body waits for the server's delayed ACK).
# Prints entities/s per variant and its ratio to the baseline (both toggles on, as in the seed), the request
# and per-entity medians, and the segments of two batches per connection. Not part of the test suite.
#   usage: bash bench/table-matrix.sh [requests per variant in A] [requests per variant in B]
set -euo pipefail
cd "$(dirname "$0")/.."
na=${1:-200} nb=${2:-2000}
azurite_port=10912 web_port=5092

[ -x node_modules/.bin/azurite-table ] || npm ci --no-audit --no-fund --loglevel=error
command -v tcpdump >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends tcpdump >/dev/null; }

source bench/lib.sh
node_modules/.bin/azurite-table --tableHost 127.0.0.1 --tablePort $azurite_port --inMemoryPersistence --skipApiVersionCheck --disableTelemetry --silent \
  >"$work/azurite.log" 2>&1 & pids+=($!)
key="Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
start_dashboard $web_port \
  ConnectionStrings__bench="DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=$key;TableEndpoint=http://127.0.0.1:$azurite_port/devstoreaccount1;"
run() { run_and_wait "$1"; }

report() { # run id → the table of its variants
  curl -sf "$dashboard/api/runs/$1" | python3 -c '
import json, sys
r = json.load(sys.stdin)
assert r["status"] == "completed" and r["stats"]["errors"] == 0, (r["status"], r["error"], r["stats"]["errors"])
series = {s["name"]: s["stats"] for s in r["series"]}
figures = r["figures"]
base = next((f for f in figures if "expect-on/nagle-on" in f["series"]), figures[0])
print("%-28s %9s %9s %11s %8s %11s %13s" % ("variant", "requests", "entities", "entities/s", "vs base", "p50 ms/req", "p50 ms/entity"))
for f in figures:
    print("%-28s %9d %9d %11.1f %7.1f%% %11.3f %13.4f" % (f["series"], f["requests"], f["entitiesWritten"], f["entitiesPerSecond"],
          100 * f["entitiesPerSecond"] / base["entitiesPerSecond"], series[f["series"]]["p50Ms"], f["p50PerEntityNs"] / 1e6))
print("notes:", *[n for n in r["notes"]["notes"] if "confirmed" in n][:2], sep="\n  ")'
}

# A fresh process runs tier-0 JIT code for its first seconds (bench/README.md): warm it, unreported.
run "{\"kind\":\"table\",\"connection\":\"bench\",\"table\":\"warm\",\"requests\":100}" >/dev/null

echo "== A: full matrix, $na requests per variant, interleaved"
report "$(run "{\"kind\":\"table\",\"connection\":\"bench\",\"table\":\"matrix\",\"requests\":$na,\"warmupRequests\":20}")"
echo
echo "== B: single inserts, $nb requests (entities) per variant, interleaved"
report "$(run "{\"kind\":\"table\",\"connection\":\"bench\",\"table\":\"single\",\"operations\":[\"single\"],\"requests\":$nb,\"warmupRequests\":20}")"
echo
echo "== C: the wire, batches of 10 x 1 KiB: client-to-Azurite segments with a payload, per connection"
tcpdump -i lo -n -tt -U -w "$work/wire.pcap" "tcp dst port $azurite_port" >/dev/null 2>&1 & tcpdump_pid=$!; pids+=($tcpdump_pid)
sleep 1
run "{\"kind\":\"table\",\"connection\":\"bench\",\"table\":\"wire\",\"operations\":[\"batch\"],\"expect100Continue\":[false,true],\"nagle\":[true,false],\"requests\":3,\"cleanup\":false}" >/dev/null
sleep 1; kill $tcpdump_pid; wait $tcpdump_pid 2>/dev/null || true
tcpdump -r "$work/wire.pcap" -n -tt 2>/dev/null | python3 -c '
import re, sys
flows = {}
for line in sys.stdin:
    m = re.match(r"(\d+\.\d+) IP 127\.0\.0\.1\.(\d+) > .*length (\d+)", line)
    if m and int(m.group(3)) > 0: flows.setdefault(m.group(2), []).append((float(m.group(1)), int(m.group(3))))
# Each variant has its own connection and sends in variant order, so flows in order of their first segment
# are the variants in order; the setup connection (create table, count) sends far less.
ordered = sorted((f for f in flows.values() if sum(n for _, n in f) > 20000), key=lambda f: f[0][0])
names = ["batch/expect-off/nagle-on", "batch/expect-off/nagle-off", "batch/expect-on/nagle-on", "batch/expect-on/nagle-off"]
for name, segments in zip(names, ordered):
    print(name)
    start = segments[0][0]; previous = start
    for t, n in segments[:9]:
        print("   +%8.3f ms (gap %7.3f ms)  %6d bytes" % ((t - start) * 1000, (t - previous) * 1000, n)); previous = t'
