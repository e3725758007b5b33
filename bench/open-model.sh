#!/usr/bin/env bash
# The open model's precision and its correction of coordinated omission, side by side with autocannon (npm;
# with -R it paces requests and, unless -C, corrects its latencies too) and wrk (closed model, Debian).
#   A. Precision: nginx serving a 4 KB file on 127.0.0.1; open runs of 10 s at 100, 1,000 and 10,000 /s through
#      the dashboard's API (Release build, embedded runner, every sample stored in SQLite), then autocannon -R at
#      the same rate. Achieved rate = operations started within the schedule's 10 s ÷ 10 s; send lag = actual −
#      intended start; CPU = the dashboard process's user + system time over the run's wall time.
#   B. One stall: tests/TargetServer's /stall answers in ~1 ms but holds every answer due between t = 3 s and
#      4 s until 4 s. 200 /s for 6 s with 8 connections, by the runner (open, then closed), autocannon -R 200
#      (corrected, then -C) and wrk. The tools run one after the other, never at the same time.
#   usage: bash bench/open-model.sh [seconds for A]
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
seconds=${1:-10}
nginx_port=8090 web_port=5094

command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
npm install --no-save --silent --prefix "$work/npm" autocannon@9.0.0 >/dev/null
autocannon="$work/npm/node_modules/.bin/autocannon"
dotnet build tests/TargetServer -c Release -nologo -v quiet >/dev/null

start_nginx $nginx_port
start_dashboard $web_port
url="http://127.0.0.1:$nginx_port/4k.bin"

cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$dashboard_pid/stat"; }

runner_open() { # url rate seconds concurrency → one line of figures
  local before after start end id
  before=$(cpu_ticks); start=$(date +%s.%N)
  id=$(run_and_wait "{\"kind\":\"http\",\"url\":\"$1\",\"model\":\"open\",\"rate\":$2,\"durationSeconds\":$3,\"concurrency\":$4,\"warmupRequests\":200}")
  end=$(date +%s.%N); after=$(cpu_ticks)
  curl -sf "$dashboard/api/runs/$id" | python3 -c '
import json, sys
r = json.load(sys.stdin); s = r["stats"]; rate, seconds = float(sys.argv[1]), int(sys.argv[2])
assert r["status"] == "completed", (r["status"], r["error"])
per = r["load"]["perSecond"]
achieved = sum(p["started"] for p in per[:seconds]) / seconds
worst = max(abs(p["started"] - p["due"]) / p["due"] for p in per[:seconds] if p["due"])
cpu = (float(sys.argv[4]) - float(sys.argv[3])) / float(sys.argv[7]) / (float(sys.argv[6]) - float(sys.argv[5]))
lag, svc = s["lag"], s["serviceTime"]
print("%-10s %8.0f %10.1f %+7.2f%% %7.2f%% %8.3f %8.3f %8.3f %8.3f %8.3f %8.3f %6.0f%% %6d" % ("runner", rate, achieved, 100 * (achieved / rate - 1), 100 * worst,
      lag["p50Ms"], lag["p99Ms"], lag["maxMs"], svc["p50Ms"], svc["p99Ms"], s["p99Ms"], 100 * cpu, s["errors"]))
for w in (r["notes"] or {}).get("warnings", []): print("   warning:", w[:160])
' "$2" "$3" "$before" "$after" "$start" "$end" "$(getconf CLK_TCK)"
}

autocannon_open() { # url rate seconds concurrency [extra flag] → one line of figures
  "$autocannon" -j -R "$2" -c "$4" -d "$3" ${5:-} "$1" 2>/dev/null | python3 -c '
import json, sys
a = json.load(sys.stdin); rate, seconds = float(sys.argv[1]), float(sys.argv[2]); l = a["latency"]
achieved = a["requests"]["total"] / seconds
print("%-10s %8.0f %10.1f %+7.2f%% %8s %8s %8s %8s %8s %8s %8.3f %7s %6d" % ("autocannon", rate, achieved, 100 * (achieved / rate - 1), "", "", "", "", l["p50"], "", l["p99"], "", a["errors"] + a["non2xx"]))
' "$2" "$3"
}

echo "A. Precision against nginx, ${seconds} s per rate (figures in ms; CPU = the dashboard process, % of one core)"
printf "%-10s %8s %10s %8s %8s %8s %8s %8s %8s %8s %8s %7s %6s\n" tool target achieved "vs tgt" "worst s" "lag p50" "lag p99" "lag max" "svc p50" "svc p99" "cor p99" CPU errors
# A fresh process runs tier-0 JIT code for its first seconds (bench/README.md): warm both models, unreported.
run_and_wait "{\"kind\":\"http\",\"url\":\"$url\",\"durationSeconds\":3,\"concurrency\":16}" >/dev/null
run_and_wait "{\"kind\":\"http\",\"url\":\"$url\",\"model\":\"open\",\"rate\":2000,\"durationSeconds\":3,\"concurrency\":16}" >/dev/null
for rate in 100 1000 10000; do
  c=$([ "$rate" -ge 10000 ] && echo 32 || echo 16)
  runner_open "$url" "$rate" "$seconds" "$c"
  autocannon_open "$url" "$rate" "$seconds" "$c"
done

echo
echo "B. One 1 s stall at t = 3 s, 200 /s for 6 s, 8 connections (ms)"
mkfifo "$work/target.in"
dotnet tests/TargetServer/bin/Release/net10.0/BenchDashboard.TargetServer.dll <"$work/target.in" >"$work/target.log" 2>&1 & pids+=($!)
exec 3>"$work/target.in" # keeps the target's input open; it exits on the cleanup's SIGTERM
for _ in $(seq 100); do grep -q '^listening ' "$work/target.log" && break; sleep 0.1; done
target=$(sed -n 's/^listening //p' "$work/target.log" | head -1)
stall() { echo "$target/stall?key=$1&ms=1&at=3000&for=1000"; }
run_and_wait "{\"kind\":\"http\",\"url\":\"$(stall warm)\",\"model\":\"open\",\"rate\":500,\"durationSeconds\":2,\"concurrency\":8}" >/dev/null # the target's JIT, unreported
printf "%-28s %8s %9s %9s %9s %9s\n" tool requests "p50" "p99" "max" "svc p99"
summary() { # run id, label
  curl -sf "$dashboard/api/runs/$1" | python3 -c '
import json, sys
s = json.load(sys.stdin)["stats"]; svc = s.get("serviceTime")
print("%-28s %8d %9.3f %9.3f %9.3f %9s" % (sys.argv[1], s["count"], s["p50Ms"], s["p99Ms"], s["maxMs"], "%.3f" % svc["p99Ms"] if svc else "-"))' "$2"
}
summary "$(run_and_wait "{\"kind\":\"http\",\"url\":\"$(stall open)\",\"model\":\"open\",\"rate\":200,\"durationSeconds\":6,\"concurrency\":8}")" "runner open (corrected)"
summary "$(run_and_wait "{\"kind\":\"http\",\"url\":\"$(stall closed)\",\"durationSeconds\":6,\"concurrency\":8}")" "runner closed"
for variant in "corrected:" "ignoring CO:-C"; do
  "$autocannon" -j -R 200 -c 8 -d 6 ${variant#*:} "$(stall "ac${variant#*:}")" 2>/dev/null | python3 -c '
import json, sys
a = json.load(sys.stdin); l = a["latency"]
print("%-28s %8d %9.3f %9.3f %9.3f %9s" % ("autocannon -R 200 " + sys.argv[1], a["requests"]["total"], l["p50"], l["p99"], l["max"], "-"))' "(${variant%%:*})"
done
read -r _ w_p50 w_p99 w_max w_n < <(wrk -t1 -c8 -d6s --latency "$(stall wrk)" | wrk_figures)
printf "%-28s %8d %9.3f %9.3f %9.3f %9s\n" "wrk (closed)" "$w_n" "$w_p50" "$w_p99" "$w_max" "-"
