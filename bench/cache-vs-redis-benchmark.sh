#!/usr/bin/env bash
# Runner vs. redis-benchmark against the same redis-server on 127.0.0.1: SET and GET of one key with a
# 3-byte value (redis-benchmark's defaults), at concurrency 1 and 16, no pipelining. The tools run one after
# the other, never at the same time. The runner is driven through the dashboard's own API (Release build,
# embedded runner, samples stored in SQLite): a cache run with phases write + read-same and keyCount 1 is
# the same workload. Prints ops/s and p50 of both and the ratio. Not part of the test suite.
#   usage: bash bench/cache-vs-redis-benchmark.sh [operations at c=1] [operations at c=16]
#   REDIS_OPTIONS=",protocol=resp2" appends options to the runner's connection string (RESP2 against RESP3).
set -euo pipefail
cd "$(dirname "$0")/.."
n1=${1:-50000} n16=${2:-200000}
redis_port=6391 web_port=5091

if ! command -v redis-server >/dev/null || ! command -v redis-benchmark >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends redis-server >/dev/null
fi

source bench/lib.sh
redis-server --port $redis_port --bind 127.0.0.1 --save "" --appendonly no --daemonize no >"$work/redis.log" 2>&1 & pids+=($!)
start_dashboard $web_port ConnectionStrings__bench="127.0.0.1:$redis_port${REDIS_OPTIONS:-}"
redis-cli -p $redis_port ping >/dev/null

run_redis_benchmark() { # concurrency n → "set_rps set_p50 set_p95 set_p99 get_rps get_p50 get_p95 get_p99"
  redis-benchmark -h 127.0.0.1 -p $redis_port -t set,get -n "$2" -c "$1" -P 1 -d 3 --csv | python3 -c '
import csv, sys
rows = {r["test"]: r for r in csv.DictReader(sys.stdin)}
print(*(rows[t][k] for t in ("SET", "GET") for k in ("rps", "p50_latency_ms", "p95_latency_ms", "p99_latency_ms")))'
}

run_runner() { # concurrency n → the same figures as run_redis_benchmark's
  local id
  id=$(run_and_wait "{\"kind\":\"cache\",\"backend\":\"redis\",\"connection\":\"bench\",\"phases\":[\"write\",\"read-same\"],\"requests\":$2,\"concurrency\":$1,\"keyCount\":1,\"valueBytes\":3}")
  curl -sf "$dashboard/api/runs/$id" | python3 -c '
import json, sys
r = json.load(sys.stdin)
assert r["status"] == "completed" and r["stats"]["errors"] == 0, (r["status"], r["error"], r["stats"]["errors"])
s = {x["name"]: x["stats"] for x in r["series"]}
print(*(s[n][k] for n in ("write", "read-same") for k in ("requestsPerSecond", "p50Ms", "p95Ms", "p99Ms")))
for name in ("write", "read-same"): print(name, "mean %.3f p99 %.3f p99.9 %.3f max %.3f elapsed %.0f ms" % (s[name]["meanMs"], s[name]["p99Ms"], s[name]["p999Ms"], s[name]["maxMs"], s[name]["elapsedMs"]), file=sys.stderr)'
}

# redis-benchmark reports p50, p95 and p99 (no p90), in steps of about 8 µs.
printf "%-20s %10s %-21s %10s %-21s\n" "tool, c" "SET ops/s" "p50/p95/p99 ms" "GET ops/s" "p50/p95/p99 ms"
for c in 1 16; do
  n=$([ "$c" -eq 1 ] && echo "$n1" || echo "$n16")
  read -r -a b < <(run_redis_benchmark "$c" "$n")
  read -r -a r < <(run_runner "$c" "$n")
  for row in "redis-benchmark, $c:${b[*]}" "runner, $c:${r[*]}"; do
    python3 -c '
import sys
label, f = sys.argv[1].split(":"); f = [float(x) for x in f.split()]
print("%-20s %10.0f %-21s %10.0f %-21s" % (label, f[0], "%.3f/%.3f/%.3f" % tuple(f[1:4]), f[4], "%.3f/%.3f/%.3f" % tuple(f[5:8])))' "$row"
  done
  python3 -c '
import sys
c, b, r = sys.argv[1], [float(x) for x in sys.argv[2].split()], [float(x) for x in sys.argv[3].split()]
ex = lambda i: "/".join("%+.0f" % ((r[j] - b[j]) * 1000) for j in range(i + 1, i + 4))
print("ratio, %s: SET runner/rb = %.2f, GET %.2f; runner - rb, µs p50/p95/p99: SET %s, GET %s" % (c, r[0] / b[0], r[4] / b[4], ex(0), ex(4)))' "$c" "${b[*]}" "${r[*]}"
done
