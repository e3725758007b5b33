#!/usr/bin/env bash
# Splits a client's latency into what the target took and what the client added. wrk and the runner (its default
# engine, through the API) one after another against nginx's echo_sleep targets; during each measured run perf
# records the nginx worker's recvfrom and writev calls. Per request: the server's time is from the recvfrom that
# returned the request to the writev of its answer; the client's turnaround is from that writev to the recvfrom of
# the connection's next request (reading the answer, bookkeeping, sending again, both loopback hops); a burst is
# the answers nginx wrote in one go without reading in between (c = 4 connections in lockstep give bursts of 4), and
# a burst's spread the time from the first to the last request nginx read after it (how far apart the client's next
# requests came: echo_sleep's millisecond timer is re-armed by each, so a wider spread delays the whole next burst).
# Prints, per cell and tool, the client's p50/p90/p99, the server's, the client's excess over the server at each
# percentile, the turnaround's p50/p90, the mean burst and spread. Needs root for perf. Not part of the suite.
#   usage: bash bench/server-time.sh [seconds per cell] [targets ms…]   (concurrencies: C="1 4 16")
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-4}; shift || true
targets=${*:-1 10}
nginx_port=8297
command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
command -v perf >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq linux-perf >/dev/null; }
source bench/lib.sh
# shellcheck disable=SC2086 # the targets are words
start_nginx $nginx_port $targets
worker=$(pgrep -P "$nginx_pid" | head -1)
# Runners to compare (RUNNERS, default "default"): each from a dashboard of its own.
runners=${RUNNERS:-default}
# shellcheck disable=SC2034 # read by start_dashboards through its name
declare -A settings=(
  [default]=""
  [sendsfirst]="Runner__HttpReadsBeforeSends=false" # each connection sends again before the next answer is read
  [storingnice0]="Runner__BackgroundNice=0"         # the run's storing and heartbeat threads at the measuring threads' priority
)
# shellcheck disable=SC2086 # the runners are words
start_dashboards 5297 settings $runners

# record COMMAND…: the command's output, with the nginx worker's socket calls recorded into $work/perf.data meanwhile.
record() {
  perf record -q -o "$work/perf.data" -p "$worker" \
    -e syscalls:sys_enter_recvfrom,syscalls:sys_exit_recvfrom,syscalls:sys_enter_writev 2>/dev/null &
  local perf_pid=$!
  sleep 0.3
  "$@"
  kill -INT "$perf_pid"; wait "$perf_pid" || true
}

# server_figures: reads $work/perf.data, prints "server p50 p90 p99 (ms), turnaround p50 p90 (µs), mean burst, answers, mean spread (µs)".
server_figures() {
  perf script -i "$work/perf.data" --ns -F time,event,trace 2>/dev/null | python3 -c '
import re, sys
def pct(xs, p):
    xs = sorted(xs); return xs[min(len(xs) - 1, int(len(xs) * p / 100))]  # the value at rank floor(n·p/100)
arrived, answered, served, turnaround, bursts, spreads = {}, {}, [], [], [], []
fd, burst, first, last = None, 0, None, None
for line in sys.stdin:
    m = re.match(r"\s*([\d.]+):\s+syscalls:sys_(enter|exit)_(\w+):\s*(.*)", line)
    if not m: continue
    t, phase, call, rest = float(m.group(1)), m.group(2), m.group(3), m.group(4)
    if phase == "enter":
        fd = int(re.search(r"fd: (0x[0-9a-f]+)", rest).group(1), 16)
        if call == "writev" and fd in arrived:
            served.append(t - arrived.pop(fd)); answered[fd] = t; burst += 1
    elif int(rest, 16) < 1 << 63 and int(rest, 16) > 0 and fd not in arrived:  # a read that returned bytes
        arrived[fd] = t
        if fd in answered: turnaround.append(t - answered.pop(fd))
        if burst:
            bursts.append(burst); burst = 0
            if first is not None: spreads.append(last - first)
            first = t
        last = t
ms = lambda x: "%.3f" % (x * 1e3)
print(ms(pct(served, 50)), ms(pct(served, 90)), ms(pct(served, 99)),
      "%.0f %.0f" % (pct(turnaround, 50) * 1e6, pct(turnaround, 90) * 1e6), "%.2f" % (sum(bursts) / len(bursts)), len(served),
      "%.0f" % (sum(spreads) / len(spreads) * 1e6))'
}

wrk_run() { wrk -t1 -c"$2" -d"${seconds}s" --latency "$1" > "$work/wrk.out"; }
runner_run() { id=$(dashboard=$3 run_and_wait "{\"kind\":\"http\",\"url\":\"$1\",\"durationSeconds\":$seconds,\"concurrency\":$2}"); }

printf "%-6s %3s %-10s  %-20s %-20s %-16s %-10s %5s %6s %8s\n" target c tool "client p50/p90/p99" "server p50/p90/p99" "client−server µs" "turn µs" burst spread answers
port=$((nginx_port + 1))
for ms in $targets; do
  url="http://127.0.0.1:$port/"
  for c in ${C:-1 4 16}; do
    wrk -t1 -c"$c" -d1s "$url" >/dev/null
    record wrk_run "$url" "$c"
    client=$(wrk_percentiles < "$work/wrk.out")
    rows=("wrk|$client|$(server_figures)")
    for runner in $runners; do
      dashboard=${!runner} run_and_wait "{\"kind\":\"http\",\"url\":\"$url\",\"durationSeconds\":1,\"concurrency\":$c}" >/dev/null
      record runner_run "$url" "$c" "${!runner}"
      client=$(dashboard=${!runner} run_percentiles "$id")
      rows+=("$runner|$client|$(server_figures)")
    done
    for row in "${rows[@]}"; do
      python3 -c '
import sys
t, c, row = sys.argv[1:]
tool, client, server = row.split("|")
cl, sv = [float(x) for x in client.split()], server.split()
excess = "/".join("%+.0f" % ((a - float(b)) * 1000) for a, b in zip(cl, sv[:3]))
print("%-6s %3s %-10s  %-20s %-20s %-16s %-10s %5s %6s %8s" % (t, c, tool, "/".join("%.3f" % x for x in cl), "/".join(sv[:3]), excess, sv[3] + "/" + sv[4], sv[5], sv[7], sv[6]))' "$ms ms" "$c" "$row"
    done
  done
  port=$((port + 1))
done
