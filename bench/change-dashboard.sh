#!/usr/bin/env bash
# The change rule on a real dashboard: one saved, unchanged HTTP benchmark (nginx's echo_sleep of DELAY_MS, 10 ms,
# 400 requests over 2 connections) run BEFORE times, then the same address made slower (nginx reloaded with
# SLOW_MS, 12 ms: 20 % slower, as after a deployment; nginx's timer counts whole milliseconds) and run AFTER times. Prints each run's median, p95, p99, what the change rule
# said of it, and what the rule before it (10 % above the median of the previous 10 runs) would have flagged;
# then the webhook notices a local receiver got. BUSY=1 keeps one core busy with a shell loop meanwhile. SELF=1
# measures the dashboard's own /target/delay?ms=2 instead (the process that measures also serves it, as a new
# user's first benchmark does), and nothing is made slower.
#   usage: [BUSY=1] [SELF=1] [DELAY_MS=10 SLOW_MS=12] bash bench/change-dashboard.sh [BEFORE=40] [AFTER=8]
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
before=${1:-40} after=${2:-8} delay=${DELAY_MS:-10} slow=${SLOW_MS:-12}
nginx_port=8096 web_port=5097

start_nginx $nginx_port "$delay" # the target on the next port
url="http://127.0.0.1:$((nginx_port + 1))/"

# The webhook receiver: answers 200 and keeps each body, one a line.
receiver_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 - "$receiver_port" "$work/notices" <<'PY' & pids+=($!)
import http.server, sys
port, out = int(sys.argv[1]), sys.argv[2]
class Hook(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        with open(out, "ab") as f: f.write(body + b"\n")
        self.send_response(200); self.end_headers()
    def log_message(self, *args): pass
http.server.HTTPServer(("127.0.0.1", port), Hook).serve_forever()
PY

start_dashboard $web_port Webhooks__SigningKey=bench-change-dashboard-signing-key Webhooks__PollIntervalMs=200
if [ "${SELF:-}" = 1 ]; then url="$dashboard/target/delay?ms=2" after=0; fi
benchmark=$(curl -sf -H 'Content-Type: application/json' "$dashboard/api/benchmarks" -d "{\"name\":\"echo $delay ms\",\"kind\":\"http\",
  \"parameters\":{\"url\":\"$url\",\"requests\":400,\"concurrency\":2},\"webhooks\":[\"http://127.0.0.1:$receiver_port/hook\"]}" |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')

if [ "${BUSY:-}" = 1 ]; then sh -c 'while :; do :; done' & pids+=($!); fi

run_benchmark() {
  local id
  id=$(curl -sf -X POST "$dashboard/api/benchmarks/$benchmark/runs" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
  wait_run "$id"
}
for _ in $(seq "$before"); do run_benchmark; done
first_slow=$(( $(curl -sf "$dashboard/api/runs?benchmarkId=$benchmark" | python3 -c 'import json,sys; print(max(r["id"] for r in json.load(sys.stdin)))') + 1 ))
[ "$after" -gt 0 ] && sed -i "s/echo_sleep $(python3 -c "print($delay / 1000)");/echo_sleep $(python3 -c "print($slow / 1000)");/" "$work/nginx.conf"
kill -HUP "$nginx_pid"
sleep 1
for _ in $(seq "$after"); do run_benchmark; done
sleep 2 # the webhook loop's next pass

cat > "$work/report.py" <<'PY'
import json, sys
first_slow = int(sys.argv[1])
runs = json.load(sys.stdin)["runs"]
def median(values):
    values = sorted(values)
    return values[(len(values) + 1) // 2 - 1]  # nearest rank, as the old rule took it
print("run  p50 ms  p95 ms  p99 ms  old rule  change rule")
old_flags = new_flags = 0
for i, r in enumerate(runs):
    prev = runs[max(0, i - 10):i]
    old = len(prev) >= 3 and (r["medianMs"] > 1.1 * median([p["medianMs"] for p in prev]) or r["p95Ms"] > 1.1 * median([p["p95Ms"] for p in prev]))
    history = r["regression"] or {}
    if r["runId"] < first_slow:
        old_flags += old
        new_flags += history.get("flagged", False)
    mark = "  <- slower from here" if r["runId"] == first_slow else ""
    print("%3d %7.3f %7.3f %7.3f  %8s  %s%s" % (r["runId"], r["medianMs"], r["p95Ms"], r["p99Ms"], "FLAG" if old else "-", history.get("summary", "not judged"), mark))
print("flags before the change: old rule %d, change rule %d (of %d runs)" % (old_flags, new_flags, sum(r["runId"] < first_slow for r in runs)))
PY
curl -sf "$dashboard/api/benchmarks/$benchmark/trend?take=500" | python3 "$work/report.py" "$first_slow"
notices=0
[ -f "$work/notices" ] && notices=$(wc -l < "$work/notices")
echo "webhook notices received: $notices"
[ "$notices" -gt 0 ] && python3 -c 'import json,sys; [print(" ", n["event"], "run", n["runId"], "-", n["why"]) for n in map(json.loads, open(sys.argv[1]))]' "$work/notices"
exit 0
