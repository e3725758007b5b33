#!/usr/bin/env bash
# Each part of a c = 1 exchange against an nginx echo_sleep target, for wrk and for the runner (its default engine at
# c = 1, blocking sends, through the API), one after another, ROUNDS times. perf records the client's and nginx's
# socket calls over the middle of each run and pairs them per request:
#   request hop   the client's send entered → nginx's recvfrom returned the request (loopback, nginx's wake-up);
#   server        nginx's recvfrom returned → its writev of the answer entered;
#   answer hop    nginx's writev entered → the client's receive returned the answer (loopback, the client's wake-up);
#   in the calls  the client's receive returned − its send entered (what a client timing its syscalls would see);
# and prints their p50/p90 in µs beside the tool's own p50/p90 and its excess over "in the calls" (what the tool does
# between its clock and its calls: with a narrow distribution, a difference of percentiles is close to it). Needs root for perf. Not part of the suite.
#   usage: [ROUNDS=3] bash bench/loopback-hops.sh [target ms, default 10] [seconds per run, default 4]
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:-10} seconds=${2:-4} rounds=${ROUNDS:-3}
command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
command -v perf >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq linux-perf >/dev/null; }
source bench/lib.sh
start_nginx 8497 "$target"
worker=$(pgrep -P "$nginx_pid" | head -1)
start_dashboard 5497
child=$(runner_child_pid)
url=http://127.0.0.1:8498/
calls=syscalls:sys_enter_sendto,syscalls:sys_enter_write,syscalls:sys_enter_recvfrom,syscalls:sys_exit_recvfrom
calls+=,syscalls:sys_enter_read,syscalls:sys_exit_read,syscalls:sys_enter_recvmsg,syscalls:sys_exit_recvmsg,syscalls:sys_enter_writev

# hops CLIENT_PID TOOL "p50 p90 [p99]" (ms): pairs the recorded calls per request and prints one row.
hops() {
  perf script -i "$work/hops.data" --ns -F pid,tid,time,event,trace 2>/dev/null | python3 -c '
import re, sys
nginx, client, tool, own = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4].split()
parts = {"request hop": [], "server": [], "answer hop": [], "in the calls": []}
sender = sent = arrived = written = None
for line in sys.stdin:
    m = re.match(r"\s*(\d+)/(\d+)\s+([\d.]+):\s+syscalls:sys_(enter|exit)_(\w+):\s*(.*)", line)
    if not m: continue
    pid, tid, t, phase, call, rest = int(m.group(1)), int(m.group(2)), float(m.group(3)), m.group(4), m.group(5), m.group(6)
    returned = phase == "exit" and 0 < int(rest, 16) < 1 << 63
    if pid == nginx:
        if returned and call == "recvfrom":
            arrived = t
            if sent is not None: parts["request hop"].append(t - sent)
        elif phase == "enter" and call == "writev" and arrived is not None:
            written = t; parts["server"].append(t - arrived); arrived = None
    elif pid == client:
        # The request: the one send of the connection thread (the runner has other threads that write).
        if phase == "enter" and call in ("sendto", "write") and re.search(r"(len|count): 0x0*2[0-9a-f]\b", rest):
            sender, sent = tid, t
        elif returned and tid == sender and call in ("recvfrom", "read", "recvmsg") and written is not None and sent is not None:
            parts["answer hop"].append(t - written); parts["in the calls"].append(t - sent); written = sent = None
q = lambda xs, p: sorted(xs)[min(len(xs) - 1, int(len(xs) * p / 100))] * 1e6
cells = ["%.1f/%.1f" % (q(v, 50), q(v, 90)) if v else "-" for v in parts.values()]
own_us = [float(x) * 1e3 for x in own[:2]]
calls = parts["in the calls"]
beyond = "%+.1f/%+.1f" % (own_us[0] - q(calls, 50), own_us[1] - q(calls, 90)) if calls else "-"
print("%-7s %-14s %-14s %-14s %-16s %-16s %-13s %6d" % (tool, *cells, "%.1f/%.1f" % tuple(own_us), beyond, len(parts["server"])))
' "$worker" "$1" "$2" "$3"
}

printf "%-7s %-14s %-14s %-14s %-16s %-16s %-13s %6s\n" tool "request hop" server "answer hop" "in the calls" "tool's own" "own − calls" answers
for round in $(seq "$rounds"); do
  echo "round $round, $target ms target, load $(cut -d' ' -f1 /proc/loadavg)"
  wrk -t1 -c1 -d"${seconds}s" --latency "$url" > "$work/wrk.out" & wrk_pid=$!
  sleep 1
  perf record -q -o "$work/hops.data" -e "$calls" -p "$worker,$wrk_pid" -- sleep $((seconds - 2)).5 >/dev/null 2>&1 || true
  wait "$wrk_pid"
  hops "$wrk_pid" wrk "$(wrk_percentiles < "$work/wrk.out")"
  # The runner: a 1 s run first (the child's connection thread and code warm), then the measured one.
  run_and_wait "{\"kind\":\"http\",\"url\":\"$url\",\"durationSeconds\":1,\"concurrency\":1}" >/dev/null
  id=$(start_run "$url" 1 "$seconds")
  sleep 1
  perf record -q -o "$work/hops.data" -e "$calls" -p "$worker,$child" -- sleep $((seconds - 2)).5 >/dev/null 2>&1 || true
  wait_run "$id"
  hops "$child" runner "$(run_percentiles "$id")"
done
