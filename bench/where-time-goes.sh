#!/usr/bin/env bash
# Where the runner's time goes at c >= 4 (issue 25, goal 1). nginx targets of known latency (echo_sleep 1 ms and
# 10 ms, and the 4 KB file for the CPU profile) and dashboards started here, runs driven through the API as users
# drive them (runner in its child process, every sample stored in SQLite). Steps, each optional (STEPS, default all):
#   cpu      CPU time, run-queue wait and times scheduled in, per request and per thread name, of the runner's
#            child, nginx's worker and wrk, read from /proc/<pid>/task/*/schedstat over the middle of a run
#            (the first 1.5 s and the last second left out), c in CS, each target in TARGETS.
#   gc       gen0/1/2 collections, GC pause time and bytes allocated per request over the seconds of a run
#            (dotnet-counters, installed into .tools/).
#   variants p50/p90/p99 excess over wrk of runners that differ in one setting, REPEATS rounds alternating
#            (wrk, then each variant, per round): default; gen0 = DOTNET_GCgen0size=$GEN0SIZE in the child's
#            environment; wks = workstation GC (DOTNET_gcServer=0; the dashboard's runtimeconfig asks for server GC,
#            which the child inherits); notc = no tiered compilation (DOTNET_TieredCompilation=0: methods are
#            compiled once, fully optimised, so no JIT thread re-compiles hot code during a run); held = samples stored every 5 s in batches of 100,000, not every 100 ms;
#            nospin = DOTNET_ThreadPool_UnfairSemaphoreSpinLimit=0 (idle pool workers sleep at once instead of
#            spinning); loops2 = DOTNET_SYSTEM_NET_SOCKETS_THREAD_COUNT=2 (two socket event threads, one per core,
#            connections shared between them, instead of the child's one); nopgo = DOTNET_TieredPGO=0 (hot methods
#            go from tier 0 straight to tier 1, without an instrumented tier in between).
#   sched    perf sched timehist over the middle of a run at c = 4 (10 ms target), then of wrk: per thread, how
#            long each wake-up waited for a CPU (sch delay p50/p99/max) and run-queue time per request.
#   perf     perf record -g of the child at c = 16 on the 4 KB file (DOTNET_PerfMapEnabled=1,
#            DOTNET_EnableWriteXorExecute=0 so JIT frames are named): top frames; then of wrk alone in the same cell.
#   lock     what closing a second of live figures holds LiveRunStats' lock for (bench/live-histogram.cs) at the
#            rates of c = 4 (1 ms target) and c = 16 (4 KB file).
# STEP_ENV: settings (NAME=VALUE …) for the dashboard of the steps cpu, gc, sched and perf (the child inherits them).
# Takes about 20 minutes with the defaults (variants: 2 targets × 2 c × 3 rounds × ~30 s is most of it).
# The machine may be shared: the load average is printed with every step; latency figures move with it, CPU and
# run-queue figures much less. Ports 8297-8299 (nginx) and 5297-5299 (dashboards), or from NGINX_PORT and WEB_PORT. Not part of the test suite.
#   usage: [STEPS="cpu gc sched perf lock variants"] [CS="4 16"] [TARGETS="1 10"] [REPEATS=3] [GEN0SIZE=0x4000000]
#          [VARIANTS="default gen0 held"] (at most 3: ports 5297-5299) bash bench/where-time-goes.sh [seconds per cell, default 6]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-6}
steps=${STEPS:-cpu gc sched perf lock variants}
cs=${CS:-4 16} targets=${TARGETS:-1 10} repeats=${REPEATS:-3} gen0size=${GEN0SIZE:-0x4000000}
variants=${VARIANTS:-default gen0 held}
nginx_port=${NGINX_PORT:-8297} web_port=${WEB_PORT:-5297}
[ "$seconds" -ge 4 ] || { echo "cells of at least 4 s: the measured window leaves out 2.5 s"; exit 1; }
command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
source bench/lib.sh

# nginx: the 4 KB file on 8297, echo_sleep 1 ms on 8298 and 10 ms on 8299.
start_nginx "$nginx_port" 1 10
nginx_worker=$(pgrep -P "$nginx_pid" | head -1)
file_url="http://127.0.0.1:$nginx_port/4k.bin"
target_url() { case $1 in 1) echo "http://127.0.0.1:$((nginx_port + 1))/" ;; 10) echo "http://127.0.0.1:$((nginx_port + 2))/" ;; *) echo "targets are 1 and 10 ms" >&2; exit 1 ;; esac; }

load() { cut -d' ' -f1-3 /proc/loadavg; }
section() { printf "\n== %s (load %s)\n" "$1" "$(load)"; }

# dashboard PORT [NAME=VALUE …]: starts one, sets $dashboard and $child (the pid of its runner's child process).
dashboard() {
  start_dashboard "$@" Database__Path="$work/$1.db"
  child=$(runner_child_pid)
  [ -n "$child" ] || { echo "no runner child under $dashboard_pid"; cat "$work/web.log"; exit 1; }
}

run_stats() { # id → "requests/s p50 p90 p99" (ms)
  curl -sf "$dashboard/api/runs/$1" | python3 -c "
import json, sys
s = json.load(sys.stdin)['stats']
print('%.1f %.3f %.3f %.3f' % (s['requestsPerSecond'], s['p50Ms'], s['p90Ms'], s['p99Ms']))"
}
warm() { dashboard=$dashboard run_and_wait "{\"kind\":\"http\",\"url\":\"$1\",\"durationSeconds\":1,\"concurrency\":$2}" >/dev/null; }
wrk_stats() { # wrk --latency output → "requests/s p50 p90 p99" (ms)
  python3 -c '
import re, sys
out = sys.stdin.read(); unit = {"us": 1e-3, "ms": 1.0, "s": 1e3}
lat = lambda p: (lambda m: float(m.group(1)) * unit[m.group(2)])(re.search(r"^\s+%s%%\s+([\d.]+)(us|ms|s)\s*$" % p, out, re.M))
print("%s %.3f %.3f %.3f" % (re.search(r"Requests/sec:\s+([\d.]+)", out).group(1), lat(50), lat(90), lat(99)))'
}

# snap LABEL:PID…: one line per thread: label, tid, comm, ns on CPU, ns runnable but waiting, times scheduled in.
snap() {
  python3 - "$@" <<'PY'
import os, sys
for arg in sys.argv[1:]:
    label, pid = arg.split(":")
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:  # it ended early (a wrk on a busy machine): its rows are missing, not the script
        continue
    for tid in tids:
        try:
            comm = open(f"/proc/{pid}/task/{tid}/comm").read().strip()
            run, wait, slices = open(f"/proc/{pid}/task/{tid}/schedstat").read().split()
        except OSError:
            continue
        print(label, tid, comm, run, wait, slices, sep="\t")
PY
}
# per_request BEFORE AFTER REQUESTS…: the difference per thread name (threads gone in between are missed; new
# ones count from zero), in µs per request; REQUESTS as LABEL=N, one per label.
per_request() {
  python3 - "$@" <<'PY'
import sys
from collections import defaultdict
def read(path):
    return {(l.split("\t")[0], l.split("\t")[1]): l.rstrip("\n").split("\t") for l in open(path)}
before, after = read(sys.argv[1]), read(sys.argv[2])
requests = dict((k, float(v)) for k, v in (a.split("=") for a in sys.argv[3:]))
rows = defaultdict(lambda: [0, 0, 0, 0])
for key, (label, tid, comm, run, wait, slices) in after.items():
    b = before.get(key, [None] * 3 + [0, 0, 0])
    r = rows[(label, comm)]
    r[0] += int(run) - int(b[3]); r[1] += int(wait) - int(b[4]); r[2] += int(slices) - int(b[5]); r[3] += 1
totals = defaultdict(lambda: [0, 0, 0])
for (label, comm), (run, wait, slices, n) in sorted(rows.items(), key=lambda kv: (kv[0][0], -kv[1][0])):
    if run == 0 and slices == 0: continue
    req = requests.get(label, 0) or float("nan")
    print("    %-8s %-18s %3d %10.1f %12.1f %10.3f" % (label, comm, n, run / 1e3 / req, wait / 1e3 / req, slices / req))
    t = totals[label]; t[0] += run; t[1] += wait; t[2] += slices
for label, (run, wait, slices) in totals.items():
    print("    %-8s %-18s %3s %10.1f %12.1f %10.3f" % (label, "(all threads)", "", run / 1e3 / requests[label], wait / 1e3 / requests[label], slices / requests[label]))
PY
}
cpu_header() { printf "    %-8s %-18s %3s %10s %12s %10s\n" process thread n "CPU µs/req" "rq wait µs/req" "in /req"; }

# Measures one run's middle on the child: before/after snapshots 1.5 s in and 1 s before its end.
measure_runner() { # url c → prints the table; leaves $window_requests
  local id rps
  warm "$1" "$2"
  id=$(start_run "$1" "$2" "$seconds")
  sleep 1.5; snap "runner:$child" "nginx:$nginx_worker" >"$work/before"
  sleep $((seconds - 3)).5; snap "runner:$child" "nginx:$nginx_worker" >"$work/after"
  wait_run "$id"
  read -r rps _ < <(run_stats "$id")
  window_requests=$(python3 -c "print($rps * ($seconds - 2.5))")
  per_request "$work/before" "$work/after" "runner=$window_requests" "nginx=$window_requests"
}
measure_wrk() { # url c
  local out rps wrk_pid
  wrk -t1 -c"$2" -d1s "$1" >/dev/null
  # A second longer than the window needs: on a busy machine the snapshots themselves take a while.
  wrk -t1 -c"$2" -d"$((seconds + 1))s" --latency "$1" >"$work/wrk.out" & wrk_pid=$!
  sleep 1.5; snap "wrk:$wrk_pid" "nginx:$nginx_worker" >"$work/before"
  sleep $((seconds - 3)).5; snap "wrk:$wrk_pid" "nginx:$nginx_worker" >"$work/after"
  wait "$wrk_pid"
  read -r rps _ < <(wrk_stats <"$work/wrk.out")
  out=$(python3 -c "print($rps * ($seconds - 2.5))")
  per_request "$work/before" "$work/after" "wrk=$out" "nginx=$out"
}

step_cpu() {
  section "cpu: per thread, over the middle of ${seconds} s runs${STEP_ENV:+ ($STEP_ENV)}"
  # shellcheck disable=SC2086 # the settings are words
  dashboard $web_port ${STEP_ENV:-}
  for ms in $targets; do
    for c in $cs; do
      echo "  ${ms} ms target, c = $c (load $(load))"
      cpu_header
      measure_runner "$(target_url "$ms")" "$c"
      measure_wrk "$(target_url "$ms")" "$c"
    done
  done
  echo "  4 KB file, c = 16 (load $(load))"
  cpu_header
  measure_runner "$file_url" 16
  measure_wrk "$file_url" 16
  stop_dashboard
}

step_gc() {
  section "gc: collections and pause time during ${seconds} s runs (dotnet-counters)"
  [ -x .tools/dotnet-counters ] || dotnet tool install --tool-path .tools dotnet-counters --version 10.0.750501 >/dev/null
  # shellcheck disable=SC2086 # the settings are words
  dashboard $web_port ${STEP_ENV:-}
  printf "  %-10s %3s %8s %7s %7s %7s %11s %12s %12s\n" target c "req/s" "gen0/s" "gen1/s" "gen2/s" "pause ms/s" "pause µs/GC" "alloc B/req"
  for cell in "1 4" "1 16" "10 4" "10 16" "file 16"; do
    read -r ms c <<<"$cell"
    local url; if [ "$ms" = file ]; then url=$file_url; else url=$(target_url "$ms"); fi
    warm "$url" "$c"
    rm -f "$work/counters.csv"
    # A background job ignores SIGINT, so the session ends by its duration: 2 s to attach, the run, 3 s to spare.
    .tools/dotnet-counters collect -p "$child" --refresh-interval 1 --format csv -o "$work/counters.csv" --duration "00:00:00:$((seconds + 5))" \
      --counters "System.Runtime[dotnet.gc.collections,dotnet.gc.pause.time,dotnet.gc.heap.total_allocated]" >/dev/null 2>&1 &
    local counters=$!
    sleep 2
    local id rps t0; id=$(start_run "$url" "$c" "$seconds"); t0=$(date +%s); wait_run "$id"
    wait "$counters" || true
    read -r rps _ < <(run_stats "$id")
    python3 - "$work/counters.csv" "$ms" "$c" "$rps" "$seconds" "$t0" <<'PY'
import csv, sys, time
from collections import defaultdict
path, ms, c, rps, seconds, t0 = sys.argv[1:]
# Each row is what happened in the second before its timestamp: only the seconds of the run itself (the end of a
# run reads and stores its samples, with gen2 collections that no request waits for).
start, end = int(t0) + 1, int(t0) + int(seconds)
sums, n = defaultdict(float), set()
for row in list(csv.reader(open(path)))[1:]:
    if len(row) < 5: continue
    t = time.mktime(time.strptime(row[0], "%m/%d/%Y %H:%M:%S"))
    if start < t <= end: sums[row[2]] += float(row[4]); n.add(t)
s = max(len(n), 1)
gen = lambda g: next((v for k, v in sums.items() if "collections" in k and "=" + g in k), 0.0)
pauses = sum(v for k, v in sums.items() if "pause" in k)
count = sum(v for k, v in sums.items() if "collections" in k)
alloc = sum(v for k, v in sums.items() if "allocated" in k)
print("  %-10s %3s %8.0f %7.2f %7.2f %7.2f %11.2f %12s %12.0f" % ("4 KB file" if ms == "file" else ms + " ms", c, float(rps), gen("gen0") / s, gen("gen1") / s,
      gen("gen2") / s, pauses * 1e3 / s, "%.0f" % (pauses * 1e6 / count) if count else "-", alloc / s / float(rps)))
PY
  done
  stop_dashboard
}

step_variants() {
  section "variants: excess over wrk (µs, p50/p90/p99), ${repeats} rounds of ${seconds} s cells"
  declare -A ports
  local port=$web_port variant
  declare -A settings=(
    [default]=""
    [gen0]="DOTNET_GCgen0size=$gen0size"
    [wks]="DOTNET_gcServer=0"
    [notc]="DOTNET_TieredCompilation=0"
    [held]="Runner__SampleFlushIntervalMs=5000 Runner__SampleBatchSize=100000"
    [nospin]="DOTNET_ThreadPool_UnfairSemaphoreSpinLimit=0"
    [loops2]="DOTNET_SYSTEM_NET_SOCKETS_THREAD_COUNT=2"
    [nopgo]="DOTNET_TieredPGO=0"
  )
  local started=()
  for variant in $variants; do
    # shellcheck disable=SC2086 # the settings are words
    dashboard $port ${settings[$variant]}
    ports[$variant]=$port; started+=("$dashboard_pid")
    port=$((port + 1))
  done
  printf "  %-7s %3s %5s  %-22s" target c round "wrk p50/p90/p99 ms"
  for variant in $variants; do printf " %-18s" "$variant"; done; echo
  for ms in $targets; do
    local url; url=$(target_url "$ms")
    for c in $cs; do
      for round in $(seq "$repeats"); do
        wrk -t1 -c"$c" -d1s "$url" >/dev/null
        local w; w=$(wrk -t1 -c"$c" -d"${seconds}s" --latency "$url" | wrk_stats)
        local line; line=$(printf "  %-7s %3s %5s  %-22s" "$ms ms" "$c" "$round" "$(echo "$w" | cut -d' ' -f2- | tr ' ' /)")
        for variant in $variants; do
          dashboard="http://127.0.0.1:${ports[$variant]}"
          warm "$url" "$c"
          local id r; id=$(start_run "$url" "$c" "$seconds"); wait_run "$id"; r=$(run_stats "$id")
          line+=$(python3 -c '
import sys
w, r = sys.argv[1].split()[1:], sys.argv[2].split()[1:]
print(" %-18s" % "/".join("%+.0f" % ((float(a) - float(b)) * 1000) for a, b in zip(r, w)))' "$w" "$r")
        done
        echo "$line (load $(load))"
      done
    done
  done
  for p in "${started[@]}"; do kill "$p"; wait "$p" 2>/dev/null || true; done
}

# sched_table DATA LABEL:PID… REQUESTS: perf sched timehist of the listed processes' threads.
sched_table() {
  local data=$1 requests=$2; shift 2
  perf sched timehist -i "$data" >"$work/timehist.txt" 2>/dev/null
  python3 - "$work/timehist.txt" "$requests" "$@" <<'PY'
import re, sys
from collections import defaultdict
requests, procs = float(sys.argv[2]), dict(a.split(":")[::-1] for a in sys.argv[3:])
line = re.compile(r"^\s*[\d.]+\s+\[\d+\]\s+(.+?)\[(\d+)/(\d+)\]\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)")
delays = defaultdict(list)
for l in open(sys.argv[1]):
    m = line.match(l)
    if not m or m.group(3) not in procs: continue
    delays[(procs[m.group(3)], m.group(1))].append(float(m.group(5)) * 1e3)  # sch delay, ms → µs
for (label, comm), d in sorted(delays.items(), key=lambda kv: -len(kv[1])):
    d.sort(); n = len(d)
    print("    %-8s %-18s %8d %8.1f %8.1f %8.0f %10.2f" % (label, comm, n, d[n // 2], d[min(n - 1, int(n * 0.99))], d[-1], sum(d) / requests))
PY
}
step_sched() {
  section "sched: wake-up delay (perf sched) over the middle of a ${seconds} s run, 10 ms target, c = 4"
  # shellcheck disable=SC2086 # the settings are words
  dashboard $web_port ${STEP_ENV:-}
  local url id rps wrk_pid; url=$(target_url 10)
  warm "$url" 4
  id=$(start_run "$url" 4 "$seconds"); sleep 1.5
  perf sched record -a -o "$work/sched-runner.data" -- sleep $((seconds - 3)).5 >/dev/null 2>&1
  wait_run "$id"; read -r rps _ < <(run_stats "$id")
  printf "    %-8s %-18s %8s %8s %8s %8s %10s\n" process thread wake-ups "p50 µs" "p99 µs" "max µs" "µs/req"
  sched_table "$work/sched-runner.data" "$(python3 -c "print($rps * ($seconds - 2.5))")" "runner:$child" "nginx:$nginx_worker"
  stop_dashboard
  wrk -t1 -c4 -d1s "$url" >/dev/null
  wrk -t1 -c4 -d"${seconds}s" --latency "$url" >"$work/wrk.out" & wrk_pid=$!
  sleep 1.5
  perf sched record -a -o "$work/sched-wrk.data" -- sleep $((seconds - 3)).5 >/dev/null 2>&1
  wait "$wrk_pid"; read -r rps _ < <(wrk_stats <"$work/wrk.out")
  sched_table "$work/sched-wrk.data" "$(python3 -c "print($rps * ($seconds - 2.5))")" "wrk:$wrk_pid" "nginx:$nginx_worker"
  rm -f "$work"/sched-*.data
}

# samples_per_request REPORT RPS: a `perf report -n` table's rows as CPU µs a request (999 samples a second of CPU over
# the recorded seconds - 3 + 0.5 of the run).
samples_per_request() {
  python3 -c '
import re, sys
window, rps = float(sys.argv[2]) - 2.5, float(sys.argv[3])
for line in open(sys.argv[1]):
    m = re.match(r"\s+([\d.]+)%\s+(\d+)\s+(.*\S)", line)
    if m: print("    %6.2f µs  %5s%%  %s" % (int(m.group(2)) / 999 / (rps * window) * 1e6, m.group(1), m.group(3)))' "$1" "$seconds" "$2"
}

step_perf() {
  section "perf: the child's top frames at c = 16 on the 4 KB file (DOTNET_PerfMapEnabled=1)"
  # Without W^X off, JIT-compiled code shows as "memfd:doublemapper" instead of by method.
  # shellcheck disable=SC2086 # the settings are words
  dashboard $web_port DOTNET_PerfMapEnabled=1 DOTNET_EnableWriteXorExecute=0 ${STEP_ENV:-}
  warm "$file_url" 16
  local id; id=$(start_run "$file_url" 16 "$seconds"); sleep 1.5
  perf record -F 999 -g -p "$child" -o "$work/perf.data" -- sleep $((seconds - 3)).5 >/dev/null 2>&1
  wait_run "$id"
  # Into files first: head closing a pipe would end the script (pipefail).
  perf report -i "$work/perf.data" --no-children --sort comm -n -g none --stdio >"$work/by-thread.txt" 2>/dev/null || true
  perf report -i "$work/perf.data" --no-children --sort comm,dso -g none --stdio >"$work/by-dso.txt" 2>/dev/null || true
  perf report -i "$work/perf.data" --no-children --sort comm,dso,sym -g none --stdio >"$work/by-sym.txt" 2>/dev/null || true
  local rps; rps=$(run_stats "$id" | cut -d' ' -f1)
  echo "  the run: $rps requests/s; CPU µs a request by thread (samples at 999 Hz over $((seconds - 3)).5 s):"
  samples_per_request "$work/by-thread.txt" "$rps" | sed -n 1,8p
  echo "  by thread and library (self):"; grep -E '^\s+[0-9.]+%' "$work/by-dso.txt" | sed -n 1,16p || true
  echo "  by frame (self):"; grep -E '^\s+[0-9.]+%' "$work/by-sym.txt" | sed -n 1,25p | cut -c1-150 || true
  echo "  the event thread's JIT-compiled frames (self):"
  grep -E '^\s+[0-9.]+%\s+\.NET Sockets\s+\[JIT\]' "$work/by-sym.txt" | sed -n 1,15p | sed -E 's/\[JIT\] tid [0-9]+ +\[\.\] //' | cut -c1-170 || true
  echo "  the event thread's kernel frames (self):"
  grep -E '^\s+[0-9.]+%\s+\.NET Sockets\s+\[kernel' "$work/by-sym.txt" | sed -n 1,15p | cut -c1-150 || true
  stop_dashboard
  # wrk alone in the same cell, the same way: what a request costs a client that is only an event loop.
  wrk -t1 -c16 -d"${seconds}s" --latency "$file_url" >"$work/wrk.out" & local wrk_pid=$!
  sleep 1.5
  perf record -F 999 -g -p "$wrk_pid" -o "$work/perf-wrk.data" -- sleep $((seconds - 3)).5 >/dev/null 2>&1
  wait "$wrk_pid"
  perf report -i "$work/perf-wrk.data" --no-children --sort dso -n -g none --stdio >"$work/wrk-dso.txt" 2>/dev/null || true
  perf report -i "$work/perf-wrk.data" --no-children --sort dso,sym -g none --stdio >"$work/wrk-sym.txt" 2>/dev/null || true
  rps=$(wrk_stats <"$work/wrk.out" | cut -d' ' -f1)
  echo "  wrk: $rps requests/s; CPU µs a request by library:"
  samples_per_request "$work/wrk-dso.txt" "$rps" | sed -n 1,6p
  echo "  wrk by frame (self):"; grep -E '^\s+[0-9.]+%' "$work/wrk-sym.txt" | sed -n 1,15p | cut -c1-150 || true
}

step_lock() {
  section "lock: closing a second of live figures under LiveRunStats' lock"
  dotnet build bench/live-histogram.cs -c Release -nologo -v quiet >/dev/null 2>&1 || true
  for samples in 3500 40000; do dotnet run -c Release --no-build bench/live-histogram.cs -- "$samples" 200 | sed 's/^/  /'; done
}

echo "where-time-goes: ${seconds} s cells, steps: $steps; $(nproc) cores, load $(load)"
for step in $steps; do "step_$step"; done
