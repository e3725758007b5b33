#!/usr/bin/env bash
# What the runner adds to what it measures: wrk and the runner one after another against nginx targets of known
# latency (echo_sleep 1 ms, 10 ms, 50 ms) at c = 1, 4 and 16, in one sitting. The runner twice: with socket
# completions inline on its event thread (Runner:InlineSocketCompletions, the default) and without, each from a
# dashboard of its own (runner in its child process, every sample stored in SQLite), driven through the API as
# users drive it. Prints p50, p90 and p99 of each and the runner's excess over wrk in µs. Not part of the suite.
#   usage: bash bench/overhead.sh [seconds per cell] [targets ms…]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-5}; shift || true
targets=${*:-1 10 50}
nginx_port=8197
command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
[ -f /usr/lib/nginx/modules/ngx_http_echo_module.so ] || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libnginx-mod-http-echo >/dev/null; }
source bench/lib.sh
start_nginx $nginx_port
servers="" port=$((nginx_port + 1))
for ms in $targets; do
  servers+="  server { listen 127.0.0.1:$port; location / { echo_sleep $(python3 -c "print($ms / 1000)"); echo ok; } }\n"
  port=$((port + 1))
done
sed -i "s|^worker_processes 1;|load_module /usr/lib/nginx/modules/ngx_http_echo_module.so;\nworker_processes 1;|; s|^http {|http {\n$servers|" "$work/nginx.conf"
kill "${pids[-1]}"; wait "${pids[-1]}" 2>/dev/null || true; unset 'pids[-1]'
nginx -c "$work/nginx.conf" -p "$work" & pids+=($!)
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$((nginx_port + 1))/" -o /dev/null && break; sleep 0.1; done

start_dashboard 5197 Runner__InlineSocketCompletions=false Database__Path="$work/pool.db"; pool=$dashboard
start_dashboard 5198 Database__Path="$work/inline.db"; inline=$dashboard

wrk_ms() { # url c → "p50 p90 p99" in ms
  wrk -t1 -c"$2" -d1s "$1" >/dev/null
  wrk -t1 -c"$2" -d"${seconds}s" --latency "$1" | python3 -c '
import re, sys
out = sys.stdin.read(); unit = {"us": 1e-3, "ms": 1.0, "s": 1e3}
lat = lambda p: (lambda m: float(m.group(1)) * unit[m.group(2)])(re.search(r"^\s+%s%%\s+([\d.]+)(us|ms|s)\s*$" % p, out, re.M))
print("%.3f %.3f %.3f" % (lat(50), lat(90), lat(99)))'
}
runner_ms() { # dashboard url c → "p50 p90 p99" in ms
  local id
  dashboard=$1 run_and_wait "{\"kind\":\"http\",\"url\":\"$2\",\"durationSeconds\":1,\"concurrency\":$3}" >/dev/null
  id=$(dashboard=$1 run_and_wait "{\"kind\":\"http\",\"url\":\"$2\",\"durationSeconds\":$seconds,\"concurrency\":$3}")
  curl -sf "$1/api/runs/$id" | python3 -c "
import json, sys
s = json.load(sys.stdin)['stats']
print('%.3f %.3f %.3f' % (s['p50Ms'], s['p90Ms'], s['p99Ms']))"
}

printf "%-7s %3s  %-24s %-24s %-24s %-22s %-22s\n" target c "wrk p50/p90/p99 ms" "pool p50/p90/p99 ms" "inline p50/p90/p99 ms" "pool − wrk µs" "inline − wrk µs"
port=$((nginx_port + 1))
for ms in $targets; do
  url="http://127.0.0.1:$port/"
  for c in 1 4 16; do
    read -r w50 w90 w99 < <(wrk_ms "$url" "$c")
    read -r p50 p90 p99 < <(runner_ms "$pool" "$url" "$c")
    read -r i50 i90 i99 < <(runner_ms "$inline" "$url" "$c")
    python3 - "$ms ms" "$c" "$w50" "$w90" "$w99" "$p50" "$p90" "$p99" "$i50" "$i90" "$i99" <<'PY'
import sys
t, c, *v = sys.argv[1:]; w, p, i = [list(map(float, v[k:k + 3])) for k in (0, 3, 6)]
fig = lambda x: "/".join("%.3f" % a for a in x)
diff = lambda x: "/".join("%+.0f" % ((a - b) * 1000) for a, b in zip(x, w))
print("%-7s %3s  %-24s %-24s %-24s %-22s %-22s" % (t, c, fig(w), fig(p), fig(i), diff(p), diff(i)))
PY
  done
  port=$((port + 1))
done
