#!/usr/bin/env bash
# What every CPU was doing while a run's slowest requests waited. A run through the API against an nginx echo_sleep
# target (c = C, default 4) with the kernel tracing the whole machine meanwhile: scheduler switches and wake-ups, the
# runner child's sends and nginx's reads and writes. bench/stalls.py aligns the run's samples (read back as CSV) with
# the child's sends, groups the slowest 1 % into stalls as bench/worst-samples.sh does, and prints for each: how late
# nginx wrote the answers, how long after that the client had them, and who held each CPU meanwhile.
# Needs root for tracefs. Not part of the suite.
#   usage: [C=4] [SETTINGS="NAME=VALUE …"] bash bench/stalls.sh [target ms, default 10] [seconds, default 10] [runs, default 2]
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:-10} seconds=${2:-10} runs=${3:-2}
source bench/lib.sh
start_nginx 8697 "$target"
worker=$(pgrep -P "$nginx_pid" | head -1)
# shellcheck disable=SC2086 # SETTINGS: words, NAME=VALUE, for the dashboard (and so its child)
start_dashboard 5697 ${SETTINGS:-}
url=http://127.0.0.1:8698/
run_and_wait "{\"kind\":\"http\",\"url\":\"$url\",\"durationSeconds\":1,\"concurrency\":${C:-4}}" >/dev/null
child=$(runner_child_pid)
# The kernel's own trace buffer (an ftrace instance of tracefs): it records inside the kernel and is read after
# the run, so nothing reads it while the run measures (perf's reader took CPU in the middle of runs).
trace=/sys/kernel/tracing/instances/benchdashboard-stalls
stop_trace() { if [ -d "$trace" ]; then echo 0 > "$trace/tracing_on"; echo 0 > "$trace/events/enable"; rmdir "$trace"; fi; }
trap 'stop_trace; bench_cleanup' EXIT
mkdir "$trace"
echo mono > "$trace/trace_clock" # CLOCK_MONOTONIC: the clock Stopwatch reads, so a sample's offset and an event differ by one constant
echo 1 > "$trace/options/record-tgid"
echo 65536 > "$trace/buffer_size_kb"
for event in sched/sched_switch sched/sched_wakeup syscalls/sys_enter_sendto syscalls/sys_enter_recvfrom syscalls/sys_exit_recvfrom syscalls/sys_enter_writev; do
  echo 1 > "$trace/events/$event/enable"
done
for _ in $(seq "$runs"); do
  echo > "$trace/trace"
  echo 1 > "$trace/tracing_on"
  sleep 0.5
  id=$(run_and_wait "{\"kind\":\"http\",\"url\":\"$url\",\"durationSeconds\":$seconds,\"concurrency\":${C:-4}}")
  echo 0 > "$trace/tracing_on"
  curl -sf "$dashboard/api/runs/$id/samples?format=csv" > "$work/samples.csv"
  cat "$trace/trace" > "$work/events.txt"
  echo "run $id (nginx worker $worker, runner child $child, target $target ms, c = ${C:-4}):"
  python3 bench/stalls.py "$work/samples.csv" "$work/events.txt" "$worker" "$child" "$dashboard_pid" "$target"
  [ -z "${KEEP:-}" ] || cp "$work/samples.csv" "$work/events.txt" "$KEEP"
done
