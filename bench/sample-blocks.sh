#!/usr/bin/env bash
# Samples as rows against packed blocks on both providers (bench/sample-blocks.cs), against a throw-away
# PostgreSQL cluster started here (Debian's postgresql; initdb refuses root, so as root it runs as postgres) with
# its default durability (fsync on), on a free loopback port; stopped and deleted on exit.
#   usage: bash bench/sample-blocks.sh [SAMPLES=1000000] [BATCH=2000] [ROUNDS=2] [MODEL=closed|open]
set -euo pipefail
cd "$(dirname "$0")/.."
bins=(/usr/lib/postgresql/*/bin)
bin=${bins[-1]}
dir=$(mktemp -d)
as_postgres=()
if [ "$(id -u)" -eq 0 ]; then chown postgres:postgres "$dir"; as_postgres=(runuser -u postgres --); fi
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"${as_postgres[@]}" "$bin/initdb" -D "$dir/data" -U postgres -A trust >/dev/null
"${as_postgres[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w -o "-p $port -k $dir -c listen_addresses=127.0.0.1" start >/dev/null
trap '"${as_postgres[@]}" "$bin/pg_ctl" -D "$dir/data" -m fast stop >/dev/null; rm -rf "$dir"' EXIT
dotnet run bench/sample-blocks.cs -c Release -- "Host=127.0.0.1;Port=$port;Username=postgres;Database=ingest" "${1:-1000000}" "${2:-2000}" "${3:-2}" "${4:-closed}"
