#!/usr/bin/env bash
# False calls before and after issue 15, on A/A pairs whose truth is "no difference" (nginx's 4 KB file on
# 127.0.0.1, c = 1, every sample stored through the API). "Before" is the interval that resamples requests as
# if independent (the API's requestsOnly, which every verdict used to be); "after" is the verdict's call.
#   A. interleaved: N runs with two identical variants, each compared /A vs /B (block bootstrap);
#   B. separate: 2N identical runs compared in consecutive pairs, one run a side; each pair is judged against the
#      history of the other identical runs (at most 20), as the compare page does.
#   C. truth: 5 runs with a 20 ms and a 21 ms target as two variants (nginx echo_sleep), each compared /A vs /B:
#      the slower should be called slower.
#   usage: [C=concurrency] [PARTS="A B C"] bash bench/verdicts.sh [N runs] [requests per run or variant]
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
n=${1:-20} requests=${2:-1000} c=${C:-1} parts=${PARTS:-A B}
nginx_port=8092 web_port=5096
if [[ $parts == *C* ]]; then start_nginx $nginx_port 20 21 # and 20 ms and 21 ms targets on the next two ports
else start_nginx $nginx_port; fi
start_dashboard $web_port
url="http://127.0.0.1:$nginx_port/4k.bin"
run_and_wait "{\"kind\":\"http\",\"url\":\"$url\",\"durationSeconds\":3,\"concurrency\":4}" >/dev/null # the runner's JIT settles

count() { # compare query → "before after text"
  curl -sf "$dashboard/api/compare?$1" | python3 -c '
import json, sys
v = [v for v in json.load(sys.stdin)["verdicts"] if v["metric"] == "median"][0]
r = v["requestsOnly"]; before = int(r["lower"] > 0 or r["upper"] < 0); after = int(v["call"] in ("faster", "slower"))
print(before, after, v["noise"], v["text"])'
}

summarise() { python3 -c '
import sys
rows = [l.split(" ", 3) for l in sys.stdin.read().splitlines()]
print("%s: %d pairs; called different: before %d, after %d" % (sys.argv[1], len(rows), sum(int(r[0]) for r in rows), sum(int(r[1]) for r in rows)))
for r in rows: print("   ", r[2], "|", r[3])' "$1"; }

if [[ $parts == *A* ]]; then
for _ in $(seq "$n"); do
  id=$(run_and_wait "{\"kind\":\"http\",\"url\":\"$url\",\"requests\":$requests,\"warmupRequests\":100,\"concurrency\":$c,\"variants\":[{},{}]}")
  count "items=$id/A,$id/B"
done | summarise "A. interleaved A/A ($requests requests a variant, c = $c)"
fi

if [[ $parts == *C* ]]; then
for _ in $(seq 5); do
  id=$(run_and_wait "{\"kind\":\"http\",\"url\":\"http://127.0.0.1:$((nginx_port + 1))/\",\"requests\":500,\"warmupRequests\":20,\"concurrency\":$c,\"variants\":[{\"name\":\"A\"},{\"name\":\"B\",\"url\":\"http://127.0.0.1:$((nginx_port + 2))/\"}]}")
  count "items=$id/A,$id/B"
done | summarise "C. 20 ms (A) against 21 ms (B), 500 requests a variant, c = $c: B should be called slower"
fi

[[ $parts == *B* ]] || exit 0
ids=()
for _ in $(seq $((2 * n))); do ids+=("$(run_and_wait "{\"kind\":\"http\",\"url\":\"$url\",\"requests\":$requests,\"warmupRequests\":100}")"); done
for i in $(seq 0 2 $((2 * n - 1))); do count "items=${ids[$i]},${ids[$((i + 1))]}"; done | summarise "B. separate A/A, one run a side, history of the other identical runs"
