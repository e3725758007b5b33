#!/usr/bin/env bash
# Runner vs. wrk against the same nginx serving a 4 KB file on 127.0.0.1, at concurrency 1 and 16.
# Each tool runs ~10 s per concurrency, one after the other (never at the same time). The runner is driven
# through the dashboard's own API (Release build, embedded runner, samples stored in SQLite), i.e. the
# path a user gets. Prints requests/s, p50 and p99 of both and the ratios. Not part of the test suite.
#   usage: bash bench/http-vs-wrk.sh [seconds]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
nginx_port=8089 web_port=5090

command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
source bench/lib.sh
start_nginx $nginx_port
start_dashboard $web_port
url="http://127.0.0.1:$nginx_port/4k.bin"

run_wrk() { # concurrency → "rps p50_ms p99_ms"
  local c=$1 threads=$(( $1 > 1 ? 2 : 1 ))
  wrk -t"$threads" -c"$c" -d"${seconds}s" --latency "$url" | wrk_figures | cut -d' ' -f1-3
}

run_runner() { # concurrency → "rps p50_ms p99_ms"
  local c=$1 id
  id=$(run_and_wait "{\"kind\":\"http\",\"url\":\"$url\",\"durationSeconds\":$seconds,\"concurrency\":$c,\"warmupRequests\":$((c * 200))}")
  curl -sf "$dashboard/api/runs/$id" | python3 -c '
import json, sys
r = json.load(sys.stdin); s = r["stats"]
assert r["status"] == "completed" and s["errors"] == 0, (r["status"], s["errors"])
print(s["requestsPerSecond"], s["p50Ms"], s["p99Ms"])'
}

printf "%-12s %12s %10s %10s\n" "tool, c" "requests/s" "p50 ms" "p99 ms"
for c in 1 16; do
  read -r w_rps w_p50 w_p99 < <(run_wrk "$c")
  read -r r_rps r_p50 r_p99 < <(run_runner "$c")
  printf "%-12s %12.0f %10.3f %10.3f\n" "wrk, $c" "$w_rps" "$w_p50" "$w_p99"
  printf "%-12s %12.0f %10.3f %10.3f\n" "runner, $c" "$r_rps" "$r_p50" "$r_p99"
  python3 -c "print('ratio, $c     rps runner/wrk = %.2f   p50 runner-wrk = %+.0f us   p99 runner-wrk = %+.0f us' % ($r_rps/$w_rps, ($r_p50-$w_p50)*1000, ($r_p99-$w_p99)*1000))"
done
