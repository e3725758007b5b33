# Shared by the bench scripts (source it after `cd` to the repository root): a scratch folder cleaned up on
# exit with every process started here, the Release dashboard with its embedded runner on a fresh SQLite file,
# an nginx serving a 4 KB file, and a run through the API waited for to its end.

work=$(mktemp -d)
pids=()
bench_cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap bench_cleanup EXIT

# start_dashboard PORT [NAME=VALUE …]: extra settings as environment variables (ConnectionStrings__bench=…).
# DASHBOARD_DLL: another build of the dashboard to start (bench/young-process.sh's ReadyToRun publish).
start_dashboard() {
  local port=$1; shift
  dotnet build src/Web -c Release -nologo -v quiet >/dev/null
  # With TLS=1 the runner trusts start_nginx's certificate: OpenSSL, under .NET's certificate checks, reads SSL_CERT_FILE.
  env ASPNETCORE_URLS="http://127.0.0.1:$port" Urls="http://127.0.0.1:$port" ASPNETCORE_ENVIRONMENT=Development \
    Database__Path="$work/bench.db" Demo__Seed=false Logging__LogLevel__Default=Warning ${tls_cert:+SSL_CERT_FILE=$tls_cert} "$@" \
    dotnet "${DASHBOARD_DLL:-src/Web/bin/Release/net10.0/BenchDashboard.Web.dll}" --contentRoot "$PWD/src/Web" >"$work/web.log" 2>&1 &
  pids+=($!)
  dashboard_pid=$!
  dashboard="http://127.0.0.1:$port"
  for _ in $(seq 100); do curl -sf "$dashboard/api/runs" >/dev/null && return; sleep 0.2; done
  echo "The dashboard did not start:"; cat "$work/web.log"; exit 1
}

# start_dashboards PORT SETTINGS NAME…: a dashboard per name, from PORT on, each on its own database with the
# settings SETTINGS[NAME] (words, NAME=VALUE; SETTINGS is the name of an associative array); sets the variable
# NAME to that dashboard's address.
start_dashboards() {
  local port=$1 name; local -n wanted=$2; shift 2
  for name in "$@"; do
    # shellcheck disable=SC2086 # the settings are words
    start_dashboard "$port" ${wanted[$name]} Database__Path="$work/$name.db"
    declare -g "$name=$dashboard"
    port=$((port + 1))
  done
}

# runner_child_pid: the runner process of the dashboard start_dashboard started (not another dashboard's on the
# machine); empty when it runs the runner in its own process (Runner__Process=inProcess).
runner_child_pid() {
  local pid
  for _ in $(seq 100); do
    pid=$(pgrep -P "$dashboard_pid" -f -- "--runner-child" | head -1 || true)
    [ -n "$pid" ] && { echo "$pid"; return; }
    sleep 0.1
  done
}

# start_nginx PORT [DELAY_MS …]: one worker serving $work/www (4k.bin: 4,096 random bytes) on 127.0.0.1:PORT, and
# for each delay a server on the next port answering "ok" that late (the echo module's echo_sleep: nginx's
# millisecond timer); installs nginx and the module if missing. Sets nginx_pid (the master) and scheme (http or
# https). With TLS=1 every server speaks TLS with a certificate made here for 127.0.0.1 (tls_cert: its file).
start_nginx() {
  local port=$1 delay_port=$1 delays="" module="" ms ssl="" tls_conf=""; shift
  scheme=http
  if [ "${TLS:-}" = 1 ]; then
    scheme=https ssl=" ssl" tls_cert="$work/tls.crt"
    openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 \
      -keyout "$work/tls.key" -out "$tls_cert" 2>/dev/null
    tls_conf="ssl_certificate $tls_cert; ssl_certificate_key $work/tls.key;"
  fi
  command -v nginx >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light >/dev/null; }
  if [ $# -gt 0 ]; then
    [ -f /usr/lib/nginx/modules/ngx_http_echo_module.so ] || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libnginx-mod-http-echo >/dev/null; }
    module="load_module /usr/lib/nginx/modules/ngx_http_echo_module.so;"
    for ms in "$@"; do
      delay_port=$((delay_port + 1))
      delays+="  server { listen 127.0.0.1:$delay_port$ssl; location / { echo_sleep $(python3 -c "print($ms / 1000)"); echo ok; } }"$'\n'
    done
  fi
  mkdir -p "$work/www" "$work/logs"
  head -c 4096 /dev/urandom > "$work/www/4k.bin"
  chmod 755 "$work" "$work/www" && chmod 644 "$work/www/4k.bin" # nginx workers run unprivileged
  cat > "$work/nginx.conf" <<CONF
$module
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
  $tls_conf
  server { listen 127.0.0.1:$port$ssl; root $work/www; location / { } }
$delays}
CONF
  nginx -c "$work/nginx.conf" -p "$work" & pids+=($!)
  nginx_pid=$!
  for _ in $(seq 50); do
    curl -sfk "$scheme://127.0.0.1:$port/4k.bin" -o /dev/null && { [ "$delay_port" = "$port" ] || curl -sfk "$scheme://127.0.0.1:$delay_port/" -o /dev/null; } && return
    sleep 0.1
  done
  echo "nginx is not serving on $port-$delay_port:"; cat "$work/logs/error.log"; exit 1
}

# wrk_figures: reads wrk --latency output, prints "requests/s p50_ms p99_ms max_ms requests".
wrk_figures() {
  python3 -c '
import re, sys
out = sys.stdin.read(); unit = {"us": 1e-3, "ms": 1.0, "s": 1e3}
def lat(p):
    m = re.search(r"^\s+%s%%\s+([\d.]+)(us|ms|s)\s*$" % p, out, re.M); return float(m.group(1)) * unit[m.group(2)]
mx = re.search(r"Latency\s+\S+\s+\S+\s+([\d.]+)(us|ms|s)", out)
print(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1), lat(50), lat(99), float(mx.group(1)) * unit[mx.group(2)], re.search(r"(\d+) requests in", out).group(1))'
}

# wrk_percentiles: reads wrk --latency output, prints "p50 p90 p99" in ms.
wrk_percentiles() {
  python3 -c '
import re, sys
out = sys.stdin.read(); unit = {"us": 1e-3, "ms": 1.0, "s": 1e3}
lat = lambda p: (lambda m: float(m.group(1)) * unit[m.group(2)])(re.search(r"^\s+%s%%\s+([\d.]+)(us|ms|s)\s*$" % p, out, re.M))
print("%.3f %.3f %.3f" % (lat(50), lat(90), lat(99)))'
}

# run_percentiles ID: the run's "p50 p90 p99" in ms, from $dashboard's API.
run_percentiles() {
  curl -sf "$dashboard/api/runs/$1" | python3 -c "
import json, sys
s = json.load(sys.stdin)['stats']
print('%.3f %.3f %.3f' % (s['p50Ms'], s['p90Ms'], s['p99Ms']))"
}

# run_and_wait JSON: queues a run through the API and prints its id once it has ended. It asks only a second after
# the run's durationSeconds (the run starts a little after it is queued): polling curls and greps took a CPU for
# 1-5 ms at a time from the run being measured (bench/README.md, "What held the CPU while the slowest requests waited").
run_and_wait() {
  local id
  id=$(curl -sf -H 'Content-Type: application/json' "$dashboard/api/runs" -d "$1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
  sleep "$(python3 -c 'import json,sys; d = json.loads(sys.argv[1]).get("durationSeconds"); print(d + 1 if d else 0)' "$1")"
  while curl -sf "$dashboard/api/runs/$id?includeStats=false" | grep -qE '"status":"(queued|running)"'; do sleep 0.5; done
  echo "$id"
}

# start_run URL C SECONDS: queues an HTTP run on $dashboard, waits until it is running (not just queued), prints its id.
start_run() {
  local id
  id=$(curl -sf -H 'Content-Type: application/json' "$dashboard/api/runs" \
    -d "{\"kind\":\"http\",\"url\":\"$1\",\"durationSeconds\":$3,\"concurrency\":$2}" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
  while curl -sf "$dashboard/api/runs/$id?includeStats=false" | grep -q '"status":"queued"'; do sleep 0.05; done
  echo "$id"
}
# wait_run ID: until the run has ended.
wait_run() { while curl -sf "$dashboard/api/runs/$1?includeStats=false" | grep -qE '"status":"(queued|running)"'; do sleep 0.2; done; }
# stop_dashboard: the one start_dashboard started last.
stop_dashboard() { kill "$dashboard_pid"; wait "$dashboard_pid" 2>/dev/null || true; }

# start_postgres: a throw-away cluster of Debian's postgresql in $work/pg (initdb refuses root: as root it runs as
# postgres), its default durability (fsync on), on a free loopback port; stopped before $work is removed.
# Sets pg_port, pg_bin and pg_connection (database "bench", created by the dashboard's migration).
start_postgres() {
  local bins=(/usr/lib/postgresql/*/bin) as_postgres=()
  pg_bin=${bins[-1]}
  mkdir -p "$work/pg"
  if [ "$(id -u)" -eq 0 ]; then chown postgres:postgres "$work/pg"; chmod 755 "$work"; as_postgres=(runuser -u postgres --); fi
  pg_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  "${as_postgres[@]}" "$pg_bin/initdb" -D "$work/pg/data" -U postgres -A trust >/dev/null
  "${as_postgres[@]}" "$pg_bin/pg_ctl" -D "$work/pg/data" -l "$work/pg/log" -w -o "-p $pg_port -k $work/pg -c listen_addresses=127.0.0.1" start >/dev/null
  pg_stop=("${as_postgres[@]}" "$pg_bin/pg_ctl" -D "$work/pg/data" -m fast stop)
  trap '"${pg_stop[@]}" >/dev/null 2>&1 || true; bench_cleanup' EXIT
  pg_connection="Host=127.0.0.1;Port=$pg_port;Username=postgres;Database=bench"
}

# psql_bench SQL: one query on the cluster's "bench" database, rows as "a|b|c".
psql_bench() { "$pg_bin/psql" -h 127.0.0.1 -p "$pg_port" -U postgres -d bench -At -c "$1"; }
