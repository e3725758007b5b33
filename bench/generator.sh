#!/usr/bin/env bash
# Issue 13, goal 1: the runner's generator beside wrk, ab, hey and the bare .NET client, one after another in
# one run, against the same nginx (1 worker, 4 KB file on 127.0.0.1), each alone for N s after a 2 s warm-up.
# Requests/s and CPU µs per request (user + system of the tool's process; for the runner, its child process,
# which measures every request and stores every sample in SQLite) at c = 1 and c = 16. Then p50 and p90 at
# c = 1 against a slow target (nginx echo_sleep 0.010): wrk, a raw Python socket loop, the runner.
# TLS=1: over HTTPS (the runner trusts the certificate start_nginx made; the bare loop does not, so leave it out).
# Not part of the test suite.   usage: [TLS=1] [TOOLS="wrk ab hey bare runner"] [SKIP_SLOW=1] bash bench/generator.sh [seconds]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-6}
nginx_port=8097 web_port=5097
need() { command -v "$1" >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" >/dev/null; }; }
need wrk wrk; need ab apache2-utils; need hey hey
source bench/lib.sh
start_nginx $nginx_port 10 # and on the next port every response 10 ms late
start_dashboard $web_port ${EXTRA_ENV:-}
url="$scheme://127.0.0.1:$nginx_port/4k.bin" slow="$scheme://127.0.0.1:$((nginx_port + 1))/"
dotnet build bench/bare-loop.cs -c Release -nologo -v quiet >/dev/null 2>&1 || true
runner_pid=$(runner_child_pid); runner_pid=${runner_pid:-$dashboard_pid} # Runner__Process=inProcess: the dashboard itself

cpu_of() { awk '{print $14 + $15}' "/proc/$1/stat"; } # clock ticks
tick=$(getconf CLK_TCK)
timed() { # command… → prints "requests/s cpu_us_per_request" using the tool's own figure for requests
  local out; out=$( { /usr/bin/time -f "__time %U %S" "$@"; } 2>&1 )
  echo "$out"
}
run_runner() { # url concurrency → "rps cpu_us p50 p90"
  local before after id
  run_and_wait "{\"kind\":\"http\",\"url\":\"$1\",\"durationSeconds\":2,\"concurrency\":$2}" >/dev/null # warm-up
  before=$(cpu_of "$runner_pid")
  id=$(run_and_wait "{\"kind\":\"http\",\"url\":\"$1\",\"durationSeconds\":$seconds,\"concurrency\":$2}")
  after=$(cpu_of "$runner_pid")
  curl -sf "$dashboard/api/runs/$id" | python3 -c "
import json, sys
s = json.load(sys.stdin)['stats']
print('%.0f %.1f %.3f %.3f' % (s['requestsPerSecond'], ($after - $before) / $tick * 1e6 / s['count'], s['p50Ms'], s['p90Ms']))"
}
run_wrk() { # url c → "rps cpu_us p50 p90"
  wrk -t1 -c"$2" -d2s "$1" >/dev/null
  timed wrk -t1 -c"$2" -d"${seconds}s" --latency "$1" | python3 -c '
import re, sys
out = sys.stdin.read(); unit = {"us": 1e-3, "ms": 1.0, "s": 1e3}
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)); n = int(re.search(r"(\d+) requests in", out).group(1))
u, s = map(float, re.search(r"__time ([\d.]+) ([\d.]+)", out).groups())
lat = lambda p: (lambda m: float(m.group(1)) * unit[m.group(2)])(re.search(r"^\s+%s%%\s+([\d.]+)(us|ms|s)\s*$" % p, out, re.M))
print("%.0f %.1f %.3f %.3f" % (rps, (u + s) * 1e6 / n, lat(50), lat(90)))'
}
run_ab() { # url c
  ab -q -k -c "$2" -t 2 -n 10000000 "$1" >/dev/null 2>&1 || true
  timed ab -q -k -c "$2" -t "$seconds" -n 100000000 "$1" | python3 -c '
import re, sys
out = sys.stdin.read()
rps = float(re.search(r"Requests per second:\s+([\d.]+)", out).group(1)); n = int(re.search(r"Complete requests:\s+(\d+)", out).group(1))
u, s = map(float, re.search(r"__time ([\d.]+) ([\d.]+)", out).groups())
print("%.0f %.1f - -" % (rps, (u + s) * 1e6 / n))'
}
run_hey() { # url c
  hey -z 2s -c "$2" "$1" >/dev/null
  timed hey -z "${seconds}s" -c "$2" "$1" | python3 -c '
import re, sys
out = sys.stdin.read()
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)); n = sum(int(x) for x in re.findall(r"\[2\d\d\]\s+(\d+) responses", out))
u, s = map(float, re.search(r"__time ([\d.]+) ([\d.]+)", out).groups())
print("%.0f %.1f - -" % (rps, (u + s) * 1e6 / n))'
}
run_bare() { # url c
  timed dotnet run -c Release --no-build bench/bare-loop.cs -- "$1" "$2" "$seconds" async | python3 -c '
import re, sys
out = sys.stdin.read()
m = re.search(r"c=\d+: (\d+) req/s, ([\d.]+) µs CPU per request", out)
print("%s %s - -" % (m.group(1), m.group(2)))'
}

printf "%-22s %10s %10s %12s %12s\n" "tool" "c=1 req/s" "c=1 µs/req" "c=16 req/s" "c=16 µs/req"
for tool in ${TOOLS:-wrk ab hey bare runner}; do
  read -r r1 c1 _ _ < <(run_$tool "$url" 1)
  read -r r16 c16 _ _ < <(run_$tool "$url" 16)
  printf "%-22s %10s %10s %12s %12s\n" "$tool" "$r1" "$c1" "$r16" "$c16"
done

[ "${SKIP_SLOW:-}" = 1 ] && exit 0
echo
echo "c = 1 against a 10 ms target (nginx echo_sleep 0.010), ms:"
printf "%-22s %8s %8s\n" "tool" "p50" "p90"
read -r _ _ p50 p90 < <(run_wrk "$slow" 1); printf "%-22s %8s %8s\n" wrk "$p50" "$p90"
python3 - "$((nginx_port + 1))" "$seconds" <<'PY'
import socket, sys, time
port, seconds = int(sys.argv[1]), float(sys.argv[2])
s = socket.create_connection(("127.0.0.1", port)); s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
req = b"GET / HTTP/1.1\r\nHost: x\r\n\r\n"; lat = []; end = time.monotonic() + seconds + 2
while time.monotonic() < end:
    t = time.perf_counter_ns(); s.sendall(req); buf = b""
    while not buf.endswith(b"0\r\n\r\n"): buf += s.recv(4096)  # echo answers chunked: the last chunk ends it
    lat.append(time.perf_counter_ns() - t)
lat = sorted(lat[len(lat) // 4:]); p = lambda q: lat[-(-len(lat) * q // 100) - 1] / 1e6
print("%-22s %8.3f %8.3f" % ("python socket loop", p(50), p(90)))
PY
read -r _ _ p50 p90 < <(run_runner "$slow" 1); printf "%-22s %8s %8s\n" runner "$p50" "$p90"
