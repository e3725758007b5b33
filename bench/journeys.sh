#!/usr/bin/env bash
# Issue 45: what a journey's machinery costs. A 3-step journey (sign-in POST, extract the token → list GET with it,
# extract the first id → detail GET at that id; a status check on each) at c = 16 against nginx on 127.0.0.1 (one
# worker; every answer a `return 200 '<JSON>'`: no file I/O), beside one-request runs on the same nginx, every
# sample stored in SQLite. CPU µs per request in each dashboard's runner child (user + system from /proc) over the
# run, warm-up runs not counted. Journeys always use SocketsHttpHandler and a one-request run the lean engine, so
# two dashboards: "lean" (the settings a user gets) and "sockets" (Runner__HttpEngine=Sockets: a one-request run on
# SocketsHttpHandler, asynchronous, as a journey's steps are sent); each runs both, taking turns in one sitting.
# Then wrk with bench/journeys.lua (the same three steps, bodies parsed) and wrk on the one request, same nginx.
# Not part of the suite.   usage: bash bench/journeys.sh [seconds per run] [trials]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-4} trials=${2:-3}
nginx_port=8297
command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
command -v nginx >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light >/dev/null; }
source bench/lib.sh

# nginx: the journey's three answers, as TargetServer's /journey endpoints give them (a fixed token here).
mkdir -p "$work/logs" && chmod 755 "$work"
cat > "$work/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $work/nginx.pid;
error_log $work/logs/error.log;
events { worker_connections 1024; }
http {
  access_log off;
  keepalive_requests 10000000;
  keepalive_timeout 120s;
  default_type application/json;
  server {
    listen 127.0.0.1:$nginx_port;
    location = /signin { return 200 '{"token":"4f1c2a9e8b7d4c3a9f0e1d2c3b4a5968","next":"/orders"}'; }
    location = /orders { return 200 '{"user":"u","items":[{"id":17,"total":12.5},{"id":23,"total":40.0}]}'; }
    location = /orders/17 { return 200 '{"id":17,"status":"shipped"}'; }
  }
}
CONF
nginx -c "$work/nginx.conf" -p "$work" & pids+=($!)
base="http://127.0.0.1:$nginx_port"
for _ in $(seq 50); do curl -sf "$base/orders" -o /dev/null && break; sleep 0.1; done

declare -A runner
# Each its own database: on one, either runner would claim the other's runs.
start_dashboard 5297 Database__Path="$work/lean.db"; lean=$dashboard; runner[$lean]=$(runner_child_pid)
start_dashboard 5298 Runner__HttpEngine=Sockets Database__Path="$work/sockets.db"; sockets=$dashboard; runner[$sockets]=$(runner_child_pid)
tick=$(getconf CLK_TCK)
cpu_of() { awk '{print $14 + $15}' "/proc/$1/stat"; }

steps=$(python3 -c '
import json, sys
b = sys.argv[1]
print(json.dumps([
  {"name": "signin", "method": "POST", "url": b + "/signin", "headers": {"Content-Type": "application/json"},
   "body": "{\"user\":\"u{{connection}}\",\"password\":\"secret\"}", "extract": [{"name": "token", "json": "$.token"}], "checks": [{"status": 200}]},
  {"name": "orders", "url": b + "/orders", "headers": {"Authorization": "Bearer {{token}}"},
   "extract": [{"name": "first", "json": "$.items[0].id"}], "checks": [{"status": 200}]},
  {"name": "detail", "url": b + "/orders/{{first}}", "headers": {"Authorization": "Bearer {{token}}"}, "checks": [{"status": 200}]}]))' "$base")
journey() { echo "{\"kind\":\"http\",\"concurrency\":16,\"durationSeconds\":$1,\"steps\":$steps}"; }
single() { echo "{\"kind\":\"http\",\"concurrency\":16,\"durationSeconds\":$1,\"url\":\"$base/orders\"}"; }

# measure DASHBOARD JSON → "requests/s cpu_µs_per_request requests iterations errors": requests are the steps' samples
# (or the one request's), iterations the journey's 'iteration' samples (0 for one request).
measure() {
  local before after id
  before=$(cpu_of "${runner[$1]}")
  id=$(dashboard=$1 run_and_wait "$2")
  after=$(cpu_of "${runner[$1]}")
  curl -sf "$1/api/runs/$id" | python3 -c "
import json, sys
run = json.load(sys.stdin); series = run.get('series') or []
assert run['status'] == 'completed', run['status']
steps = [s for s in series if s['name'] != 'iteration'] or [{'stats': run['stats']}]
requests = sum(s['stats']['count'] for s in steps); errors = sum(s['stats']['errors'] for s in steps)
iterations = sum(s['stats']['count'] for s in series if s['name'] == 'iteration')
print('%.0f %.2f %d %d %d' % (requests / (run['stats']['elapsedMs'] / 1e3), ($after - $before) / $tick * 1e6 / requests, requests, iterations, errors))"
}

for d in "$lean" "$sockets"; do # warm-up runs: JIT and tiering in each runner child, not counted
  dashboard=$d run_and_wait "$(single 2)" >/dev/null; dashboard=$d run_and_wait "$(journey 2)" >/dev/null
done

wrk_cpu() { # wrk arguments… → "requests/s cpu_µs_per_request requests"
  /usr/bin/time -f "__time %U %S" wrk -t1 -c16 -d"${seconds}s" "$@" 2>&1 | python3 -c '
import re, sys
out = sys.stdin.read()
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)); n = int(re.search(r"(\d+) requests in", out).group(1))
u, s = map(float, re.search(r"__time ([\d.]+) ([\d.]+)", out).groups())
bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
print("%.0f %.2f %d - %s" % (rps, (u + s) * 1e6 / n, n, bad.group(1) if bad else 0))'
}
wrk -t1 -c16 -d1s "$base/orders" >/dev/null

printf "%-5s %-34s %9s %10s %9s %10s %6s\n" trial how "req/s" "CPU µs/req" requests iterations errors
for t in $(seq "$trials"); do
  for how in "lean one request" "lean journey (3 steps)" "sockets one request" "sockets journey (3 steps)" wrk-one wrk-journey; do
    case $how in
      "lean one request") r=$(measure "$lean" "$(single "$seconds")") ;;
      "lean journey (3 steps)") r=$(measure "$lean" "$(journey "$seconds")") ;;
      "sockets one request") r=$(measure "$sockets" "$(single "$seconds")") ;;
      "sockets journey (3 steps)") r=$(measure "$sockets" "$(journey "$seconds")") ;;
      wrk-one) how="wrk one request"; r=$(wrk_cpu "$base/orders") ;;
      wrk-journey) how="wrk journeys.lua (3 steps)"; r=$(wrk_cpu -s bench/journeys.lua "$base") ;;
    esac
    read -r rps cpu n iters errs <<<"$r"
    printf "%-5s %-34s %9s %10s %9s %10s %6s\n" "$t" "$how" "$rps" "$cpu" "$n" "$iters" "$errs"
  done
done
