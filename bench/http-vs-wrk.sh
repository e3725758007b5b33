#!/usr/bin/env bash
# Runner vs. wrk against the same nginx serving a 4 KB file on 127.0.0.1, at concurrency 1 and 16.
# Each tool runs ~10 s per concurrency, one after the other (never at the same time). The runner is driven
# through the dashboard's own API (Release build, embedded runner, samples stored in SQLite), i.e. the
# path a user gets. Prints requests/s, p50 and p99 of both and the ratios. Not part of the test suite.
#   usage: bash bench/http-vs-wrk.sh [seconds]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
nginx_port=8089 web_port=5090

if ! command -v nginx >/dev/null || ! command -v wrk >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light wrk >/dev/null
fi

work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

mkdir -p "$work/www" "$work/logs"
head -c 4096 /dev/urandom > "$work/www/4k.bin"
chmod 755 "$work" "$work/www" && chmod 644 "$work/www/4k.bin" # nginx workers run unprivileged
cat > "$work/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $work/nginx.pid;
error_log $work/logs/error.log;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  keepalive_requests 10000000;
  keepalive_timeout 120s;
  server { listen 127.0.0.1:$nginx_port; root $work/www; location / { } }
}
CONF
nginx -c "$work/nginx.conf" -p "$work" & pids+=($!)

dotnet build src/Web -c Release -nologo -v quiet >/dev/null
ASPNETCORE_URLS=http://127.0.0.1:$web_port Urls=http://127.0.0.1:$web_port ASPNETCORE_ENVIRONMENT=Development Database__Path="$work/bench.db" Demo__Seed=false \
  Logging__LogLevel__Default=Warning dotnet src/Web/bin/Release/net10.0/BenchDashboard.Web.dll --contentRoot "$PWD/src/Web" >"$work/logs/web.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$web_port/api/runs" >/dev/null && break; sleep 0.2; done
url="http://127.0.0.1:$nginx_port/4k.bin"
curl -sf "$url" -o /dev/null || { echo "nginx is not serving $url:"; cat "$work/logs/error.log"; exit 1; }

run_wrk() { # concurrency → "rps p50_ms p99_ms"
  local c=$1 threads=$(( $1 > 1 ? 2 : 1 ))
  wrk -t"$threads" -c"$c" -d"${seconds}s" --latency "$url" | python3 -c '
import re, sys
out = sys.stdin.read()
unit = {"us": 1e-3, "ms": 1.0, "s": 1e3}
def lat(p):
    m = re.search(r"^\s+%s%%\s+([\d.]+)(us|ms|s)\s*$" % p, out, re.M)
    return float(m.group(1)) * unit[m.group(2)]
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
print(rps, lat(50), lat(99))'
}

run_runner() { # concurrency → "rps p50_ms p99_ms"
  local c=$1 id
  id=$(curl -sf -H 'Content-Type: application/json' "http://127.0.0.1:$web_port/api/runs" \
    -d "{\"kind\":\"http\",\"url\":\"$url\",\"durationSeconds\":$seconds,\"concurrency\":$c,\"warmupRequests\":$((c * 200))}" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
  while curl -sf "http://127.0.0.1:$web_port/api/runs/$id?includeStats=false" | grep -qE '"status":"(queued|running)"'; do sleep 0.5; done
  curl -sf "http://127.0.0.1:$web_port/api/runs/$id" | python3 -c '
import json, sys
r = json.load(sys.stdin); s = r["stats"]
assert r["status"] == "completed" and s["errors"] == 0, (r["status"], s["errors"])
print(s["requestsPerSecond"], s["p50Ms"], s["p99Ms"])'
}

printf "%-12s %12s %10s %10s\n" "tool, c" "requests/s" "p50 ms" "p99 ms"
for c in 1 16; do
  read -r w_rps w_p50 w_p99 < <(run_wrk "$c")
  read -r r_rps r_p50 r_p99 < <(run_runner "$c")
  printf "%-12s %12.0f %10.3f %10.3f\n" "wrk, $c" "$w_rps" "$w_p50" "$w_p99"
  printf "%-12s %12.0f %10.3f %10.3f\n" "runner, $c" "$r_rps" "$r_p50" "$r_p99"
  python3 -c "print('ratio, $c     rps runner/wrk = %.2f   p50 runner-wrk = %+.0f us   p99 runner-wrk = %+.0f us' % ($r_rps/$w_rps, ($r_p50-$w_p50)*1000, ($r_p99-$w_p99)*1000))"
done
