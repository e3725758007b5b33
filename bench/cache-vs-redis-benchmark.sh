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

run_redis_benchmark() { # concurrency n → "set_rps set_p50 get_rps get_p50"
  redis-benchmark -h 127.0.0.1 -p $redis_port -t set,get -n "$2" -c "$1" -P 1 -d 3 --csv | python3 -c '
import csv, sys
rows = {r["test"]: r for r in csv.DictReader(sys.stdin)}
print(rows["SET"]["rps"], rows["SET"]["p50_latency_ms"], rows["GET"]["rps"], rows["GET"]["p50_latency_ms"])'
}

run_runner() { # concurrency n → "set_rps set_p50 get_rps get_p50"
  local id
  id=$(run_and_wait "{\"kind\":\"cache\",\"backend\":\"redis\",\"connection\":\"bench\",\"phases\":[\"write\",\"read-same\"],\"requests\":$2,\"concurrency\":$1,\"keyCount\":1,\"valueBytes\":3}")
  curl -sf "$dashboard/api/runs/$id" | python3 -c '
import json, sys
r = json.load(sys.stdin)
assert r["status"] == "completed" and r["stats"]["errors"] == 0, (r["status"], r["error"], r["stats"]["errors"])
s = {x["name"]: x["stats"] for x in r["series"]}
print(s["write"]["requestsPerSecond"], s["write"]["p50Ms"], s["read-same"]["requestsPerSecond"], s["read-same"]["p50Ms"])
for name in ("write", "read-same"): print(name, "mean %.3f p99 %.3f p99.9 %.3f max %.3f elapsed %.0f ms" % (s[name]["meanMs"], s[name]["p99Ms"], s[name]["p999Ms"], s[name]["maxMs"], s[name]["elapsedMs"]), file=sys.stderr)'
}

printf "%-22s %12s %9s %12s %9s\n" "tool, c" "SET ops/s" "p50 ms" "GET ops/s" "p50 ms"
for c in 1 16; do
  n=$([ "$c" -eq 1 ] && echo "$n1" || echo "$n16")
  read -r b_set b_setp b_get b_getp < <(run_redis_benchmark "$c" "$n")
  read -r r_set r_setp r_get r_getp < <(run_runner "$c" "$n")
  printf "%-22s %12.0f %9.3f %12.0f %9.3f\n" "redis-benchmark, $c" "$b_set" "$b_setp" "$b_get" "$b_getp"
  printf "%-22s %12.0f %9.3f %12.0f %9.3f\n" "runner, $c" "$r_set" "$r_setp" "$r_get" "$r_getp"
  python3 -c "print('ratio, $c               SET runner/rb = %.2f   GET runner/rb = %.2f   p50 runner-rb: SET %+.0f us, GET %+.0f us' % ($r_set/$b_set, $r_get/$b_get, ($r_setp-$b_setp)*1000, ($r_getp-$b_getp)*1000))"
done
