#!/usr/bin/env bash
# What a young runner child compiles, and what it allocates per request (issue 25, causes 1 and 3). dotnet-trace
# attached to the runner's child process (never the dashboard), runs through the API as users start them, nginx
# targets as in bench/where-time-goes.sh; bench/trace-child.cs reads the traces. Steps (STEPS, default both):
#   jit    a fresh dashboard; the runtime's JIT and loader events (keywords 0x18, verbose) from before a 1 s
#          warm-up run (1 ms target, c = 4) to after the measured run (same cell, SECONDS long) that follows it:
#          the methods compiled, their tier and JIT time, in windows: the warm-up run, between the runs (the
#          warm-up's end: digest, summary, storing), the measured run's first 1.5 s, its middle (the window of
#          where-time-goes' step cpu) and its last second plus what follows; then the same for the same run again.
#   alloc  GC AllocationTick events with stacks (keyword 0x1 verbose, plus JIT and loader so frames are named)
#          over the middle of a run (first 1.5 s and last 1 s left out), each cell after a 1 s warm-up run on one
#          dashboard: the 4 KB file at c = 16, then 1 ms at c = 4. Bytes per request by type and by our frame.
#   young  (not in the default steps) what that JIT work costs: ROUNDS (3) rounds of wrk, then for each of
#          YOUNG_SETTINGS ("default DOTNET_TieredPGO=0") a fresh dashboard's first measured run after the 1 s
#          warm-up run (1 ms, c = 4), and the same run again in that child: p50/p90/p99 excess over the round's wrk.
# STEP_ENV: settings (NAME=VALUE …) for the dashboards (the child inherits them), e.g. Runner__SelfWarmupRequests=5000.
# Events carry wall-clock times; windows come from the API's startedUtc/endedUtc, so the session may attach early.
# Counts and bytes, not timings: a shared machine changes them little (the load average is printed). Ports 8287-8288
# (nginx) and 5287-5289 (dashboards). Traces and the parser's full output stay in $OUT (default bench/.trace-out,
# not committed). Not part of the test suite.   usage: [STEPS="jit alloc"] bash bench/trace-child.sh [seconds, default 6]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-6}
steps=${STEPS:-jit alloc}
out=${OUT:-bench/.trace-out}
[ "$seconds" -ge 4 ] || { echo "runs of at least 4 s: the middle leaves out 2.5 s"; exit 1; }
mkdir -p "$out"
source bench/lib.sh
command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
[ -x .tools/dotnet-trace ] || dotnet tool install --tool-path .tools dotnet-trace --version 10.0.750501 >/dev/null
dotnet build bench/trace-child.cs -c Release -nologo -v quiet >/dev/null

start_nginx 8287 1
file_url="http://127.0.0.1:8287/4k.bin" one_ms_url="http://127.0.0.1:8288/"
load() { cut -d' ' -f1-3 /proc/loadavg; }

dashboard() { # PORT: a fresh dashboard (its own database) with STEP_ENV; sets $child
  # shellcheck disable=SC2086 # the settings are words
  start_dashboard "$1" Database__Path="$work/$1.db" ${STEP_ENV:-}
  child=$(runner_child_pid)
  [ -n "$child" ] || { echo "no runner child under $dashboard_pid"; cat "$work/web.log"; exit 1; }
}
run_times() { # id → "started_ms ended_ms requests_per_second"
  curl -sf "$dashboard/api/runs/$1" | python3 -c '
import json, sys
from datetime import datetime
r = json.load(sys.stdin)
ms = lambda s: int(datetime.fromisoformat(s.replace("Z", "+00:00")).timestamp() * 1000)
print(ms(r["startedUtc"]), ms(r["endedUtc"]), r["stats"]["requestsPerSecond"])'
}
trace() { # FILE PROVIDERS SECONDS: a session on the child in the background, sets $tracer; 2 s to attach
  .tools/dotnet-trace collect -p "$child" --providers "$2" -o "$1" --duration "00:00:00:$3" </dev/null >"$1.log" 2>&1 &
  tracer=$!
  sleep 2
}

step_jit() {
  printf "\n== jit: a fresh child, 1 s warm-up run then %s s, 1 ms target, c = 4 (load %s)%s\n" "$seconds" "$(load)" "${STEP_ENV:+ ($STEP_ENV)}"
  dashboard 5287
  trace "$out/jit.nettrace" "Microsoft-Windows-DotNETRuntime:0x18:5" $((2 * seconds + 14))
  local warm run again
  warm=$(start_run "$one_ms_url" 4 1); wait_run "$warm"
  sleep 0.5 # as bench/where-time-goes.sh's warm-up: run_and_wait polls every 0.5 s
  run=$(start_run "$one_ms_url" 4 "$seconds"); wait_run "$run"
  sleep 0.5
  again=$(start_run "$one_ms_url" 4 "$seconds"); wait_run "$again"
  wait "$tracer" || true
  local ws we ms rps as ae arps
  read -r ws we _ < <(run_times "$warm")
  read -r ms _ rps < <(run_times "$run")
  read -r as ae arps < <(run_times "$again")
  local middle_from=$((ms + 1500)) middle_to=$((ms + seconds * 1000 - 1000))
  echo "  measured run: $rps requests/s; its middle: $(python3 -c "print(round($rps * ($middle_to - $middle_from) / 1000))") requests (load $(load))"
  echo "  the same run again: $arps requests/s; its middle: $(python3 -c "print(round($arps * ($seconds - 2.5)))") requests"
  # The windows are kept beside the trace, to read it again: dotnet run … jit TRACE $(cat jit.windows)
  echo "before-warm-up=0..$ws warm-up-run=$ws..$we between-runs=$we..$ms measured-first-1.5s=$ms..$middle_from" \
    "measured-middle=$middle_from..$middle_to measured-last-1s-and-after=$middle_to..$as" \
    "again-first-1.5s=$as..$((as + 1500)) again-middle=$((as + 1500))..$((as + seconds * 1000 - 1000))" \
    "again-last-1s-and-after=$((as + seconds * 1000 - 1000))..$((ae + 60000))" >"$out/jit.windows"
  # shellcheck disable=SC2046 # the windows are words
  dotnet run -c Release --no-build bench/trace-child.cs -- jit "$out/jit.nettrace" $(cat "$out/jit.windows") | tee "$out/jit.txt"
  stop_dashboard
}

step_alloc() {
  printf "\n== alloc: AllocationTick with stacks over the middle of %s s runs (load %s)%s\n" "$seconds" "$(load)" "${STEP_ENV:+ ($STEP_ENV)}"
  dashboard 5288
  local cell url c name run ms rps
  for cell in "file 16" "1 4"; do
    read -r name c <<<"$cell"
    if [ "$name" = file ]; then url=$file_url; else url=$one_ms_url; fi
    run=$(start_run "$url" "$c" 1); wait_run "$run"
    trace "$out/alloc-$c.nettrace" "Microsoft-Windows-DotNETRuntime:0x19:5" $((seconds + 3))
    run=$(start_run "$url" "$c" "$seconds"); wait_run "$run"
    wait "$tracer" || true
    read -r ms _ rps < <(run_times "$run")
    local from=$((ms + 1500)) to=$((ms + seconds * 1000 - 1000))
    if [ "$name" = file ]; then name="4 KB file"; else name="$name ms"; fi
    echo "  -- $name, c = $c: $rps requests/s (load $(load))"
    echo "$from $to $(python3 -c "print($rps * ($to - $from) / 1000)")" >"$out/alloc-$c.window"
    # shellcheck disable=SC2046 # from, to and requests are words
    dotnet run -c Release --no-build bench/trace-child.cs -- alloc "$out/alloc-$c.nettrace" $(cat "$out/alloc-$c.window") \
      | tee "$out/alloc-$c.txt" | sed -n 1,45p
  done
  stop_dashboard
}

# What the young child's JIT costs the first measured run's latency: for each round, wrk, then for each setting a
# fresh dashboard, the 1 s warm-up run and the measured run (1 ms, c = 4); excess over that round's wrk in µs.
percentiles() { curl -sf "$dashboard/api/runs/$1" | python3 -c 'import json,sys; s = json.load(sys.stdin)["stats"]; print(s["p50Ms"], s["p90Ms"], s["p99Ms"])'; }
step_young() {
  printf "\n== young: excess over wrk (µs, p50/p90/p99) of a fresh child's first %s s run, 1 ms target, c = 4 (load %s)\n" "$seconds" "$(load)"
  local round setting w r run line
  for round in $(seq "${ROUNDS:-3}"); do
    wrk -t1 -c4 -d1s "$one_ms_url" >/dev/null
    w=$(wrk -t1 -c4 -d"${seconds}s" --latency "$one_ms_url" | python3 -c '
import re, sys
out = sys.stdin.read(); unit = {"us": 1e-3, "ms": 1.0, "s": 1e3}
lat = lambda p: (lambda m: float(m.group(1)) * unit[m.group(2)])(re.search(r"^\s+%s%%\s+([\d.]+)(us|ms|s)\s*$" % p, out, re.M))
print("%.3f %.3f %.3f" % (lat(50), lat(90), lat(99)))')
    line="  round $round: wrk $(echo "$w" | tr ' ' /) ms"
    for setting in ${YOUNG_SETTINGS:-default DOTNET_TieredPGO=0}; do
      STEP_ENV=$([ "$setting" = default ] || echo "$setting") dashboard 5289
      run=$(start_run "$one_ms_url" 4 1); wait_run "$run"
      sleep 0.5
      run=$(start_run "$one_ms_url" 4 "$seconds"); wait_run "$run"
      r=$(percentiles "$run")
      sleep 0.5 # the same run again in the same child: what is left once it is warm
      run=$(start_run "$one_ms_url" 4 "$seconds"); wait_run "$run"
      line+=$(python3 -c '
import sys
w, r, again = sys.argv[1].split(), sys.argv[2].split(), sys.argv[3].split()
excess = lambda x: "/".join("%+.0f" % ((float(a) - float(b)) * 1000) for a, b in zip(x, w))
print("  %s %s (2nd run %s)" % (sys.argv[4], excess(r), excess(again)))' "$w" "$r" "$(percentiles "$run")" "$setting")
      stop_dashboard
    done
    echo "$line (load $(load))"
  done
}

echo "trace-child: ${seconds} s runs, steps: $steps; $(nproc) cores, load $(load)"
for step in $steps; do "step_$step"; done
