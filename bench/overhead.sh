#!/usr/bin/env bash
# What the runner adds to what it measures: wrk and the runner one after another against nginx targets of known
# latency (echo_sleep 1 ms, 10 ms, 50 ms) at c = 1, 4 and 16, in one sitting. The runner once per engine, each from
# a dashboard of its own (runner in its child process, every sample stored in SQLite), driven through the API as
# users drive it. Engines (ENGINES, default "sockets lean blocking"): "pool" (SocketsHttpHandler, continuations on
# the thread pool: Runner:InlineSocketCompletions=false), "sockets" (SocketsHttpHandler, continuations on the socket
# engine's one thread), "lean" (the lean HTTP/1.1 engine, asynchronous), "blocking" (the lean engine, each
# connection's requests sent with blocking calls on a thread of its own: Runner:HttpBlockingUpTo), "default" (the
# settings a user gets), "untiered" (the default without tiered compilation). Prints p50, p90
# and p99 of each and the runner's excess over wrk in µs. Not part of the suite.
# TLS=1: the same over HTTPS (nginx with a certificate made for the run, trusted by the dashboards' runners).
#   usage: [ENGINES="…"] [TLS=1] bash bench/overhead.sh [seconds per cell] [targets ms…]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-5}; shift || true
targets=${*:-1 10 50}
nginx_port=8197
command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
source bench/lib.sh
# shellcheck disable=SC2086 # the targets are words
start_nginx $nginx_port $targets # a server per target from the next port on

engines=${ENGINES:-sockets lean blocking}
# shellcheck disable=SC2034 # read by start_dashboards through its name
declare -A settings=(
  [default]=""                                  # what a user gets: blocking at c = 1, lean and asynchronous above
  [pool]="Runner__InlineSocketCompletions=false Runner__HttpEngine=Sockets"
  [sockets]="Runner__HttpBlockingUpTo=0 Runner__HttpEngine=Sockets"
  [lean]="Runner__HttpBlockingUpTo=0"
  [blocking]="Runner__HttpBlockingUpTo=1024"
  [untiered]="DOTNET_TieredCompilation=0"        # the dashboard and its child without tiered compilation
)
# shellcheck disable=SC2086 # the engines are words
start_dashboards 5197 settings $engines

wrk_ms() { # url c → "p50 p90 p99" in ms
  wrk -t1 -c"$2" -d1s "$1" >/dev/null
  wrk -t1 -c"$2" -d"${seconds}s" --latency "$1" | wrk_percentiles
}
runner_ms() { # dashboard url c → "p50 p90 p99" in ms
  local id
  dashboard=$1 run_and_wait "{\"kind\":\"http\",\"url\":\"$2\",\"durationSeconds\":1,\"concurrency\":$3}" >/dev/null
  id=$(dashboard=$1 run_and_wait "{\"kind\":\"http\",\"url\":\"$2\",\"durationSeconds\":$seconds,\"concurrency\":$3}")
  dashboard=$1 run_percentiles "$id"
}

printf "%-7s %3s  %-9s %-26s %s\n" target c engine "p50/p90/p99 ms" "− wrk µs"
port=$((nginx_port + 1))
for ms in $targets; do
  url="$scheme://127.0.0.1:$port/"
  for c in 1 4 16; do
    read -r w < <(wrk_ms "$url" "$c" | tr ' ' /)
    printf "%-7s %3s  %-9s %-26s\n" "$ms ms" "$c" wrk "$w"
    for engine in $engines; do
      read -r r < <(runner_ms "${!engine}" "$url" "$c" | tr ' ' /)
      python3 -c '
import sys
t, c, e, w, r = sys.argv[1:]
print("%-7s %3s  %-9s %-26s %s" % (t, c, e, r, "/".join("%+.0f" % ((float(a) - float(b)) * 1000) for a, b in zip(r.split("/"), w.split("/")))))' "$ms ms" "$c" "$engine" "$w" "$r"
    done
  done
  port=$((port + 1))
done
