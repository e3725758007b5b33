#!/usr/bin/env bash
# Runs spread over runner agents (issue 16), on this one machine: the dashboard (its own runner a child
# process) and two agent processes (the same build with --runner, Runner__Mode=agent) against nginx's 4 KB
# file on 127.0.0.1. Prints, per trial: the same closed load (c = 8, 10 s) measured by the dashboard's own
# runner, by one agent and by two agents (4 connections each), with wrk in the same trial as the peer's
# ceiling; then the start skew of each agent over a series of small two-agent runs (median and max).
# Everything shares 2 cores here, so the agents' rows say what one dashboard absorbs while it also generates
# load and stores; on separate machines the agents' CPU is their own.
#   usage: bash bench/agents.sh [trials] [skew runs]
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
trials=${1:-3} skew_runs=${2:-20}
nginx_port=8093 web_port=5097

start_nginx $nginx_port
url="http://127.0.0.1:$nginx_port/4k.bin"
start_dashboard $web_port Agents__Keys__a1=key-one Agents__Keys__a2=key-two
for n in 1 2; do
  key=$([ $n = 1 ] && echo key-one || echo key-two)
  env DOTNET_ENVIRONMENT=Development Runner__Mode=agent Runner__Coordinator="$dashboard" Runner__AgentName=a$n Runner__AgentKey=$key \
    Logging__LogLevel__Default=Warning dotnet src/Web/bin/Release/net10.0/BenchDashboard.Web.dll --runner >"$work/agent$n.log" 2>&1 &
  pids+=($!)
done
for _ in $(seq 100); do
  [ "$(curl -sf "$dashboard/api/agents" | python3 -c 'import json,sys; print(sum(1 for a in json.load(sys.stdin) if a["linked"] and a["clockOffsetMs"] is not None))')" = 2 ] && break
  sleep 0.2
done

figures() { curl -sf "$dashboard/api/runs/$1" | python3 -c '
import json, sys
r = json.load(sys.stdin); s = r["stats"]
rows = r.get("agents") or []
print(r["status"], round(s["requestsPerSecond"]), round(s["p50Ms"], 3), round(s["p99Ms"], 3), s["count"],
      " ".join("%s:%.0f/s,skew %.3f ms" % (a["agent"], a["requestsPerSecond"], a["startSkewMs"]) for a in rows))'; }

load='"url":"'$url'","durationSeconds":10,"warmupRequests":400'
printf "%-6s %-22s %-10s %8s %8s %8s %9s  %s\n" trial how status "req/s" "p50 ms" "p99 ms" samples agents
for trial in $(seq "$trials"); do
  read -r rps p50 p99 max n < <(wrk -t2 -c8 -d10s --latency "$url" | wrk_figures)
  printf "%-6s %-22s %-10s %8.0f %8.3f %8.3f %9s\n" "$trial" "wrk -t2 -c8" "-" "$rps" "$p50" "$p99" "$n"
  for how in local agents:1 agents:2; do
    case $how in
      local) body="{\"kind\":\"http\",$load,\"concurrency\":8}" ;;
      agents:1) body="{\"kind\":\"http\",$load,\"concurrency\":8,\"agents\":1}" ;;
      agents:2) body="{\"kind\":\"http\",$load,\"concurrency\":8,\"agents\":2}" ;;
    esac
    id=$(run_and_wait "$body")
    read -r status rps p50 p99 n rest < <(figures "$id")
    printf "%-6s %-22s %-10s %8s %8s %8s %9s  %s\n" "$trial" "$how" "$status" "$rps" "$p50" "$p99" "$n" "$rest"
  done
done

echo
echo "Start skew over $skew_runs two-agent runs (200 requests each, c = 2):"
skews=()
for _ in $(seq "$skew_runs"); do
  id=$(run_and_wait "{\"kind\":\"http\",\"url\":\"$url\",\"requests\":200,\"concurrency\":2,\"agents\":2}")
  skews+=($(curl -sf "$dashboard/api/runs/$id" | python3 -c 'import json,sys; print(" ".join(str(a["startSkewMs"]) for a in json.load(sys.stdin)["agents"]))'))
done
printf "%s\n" "${skews[@]}" | python3 -c '
import sys, statistics
v = sorted(float(x) for x in sys.stdin.read().split())
print("  %d agent starts: median %.3f ms, p90 %.3f ms, max %.3f ms, min %.3f ms" % (len(v), statistics.median(v), v[int(0.9 * (len(v) - 1))], v[-1], v[0]))'
