#!/usr/bin/env bash
# bench/engine-alloc.cs against nginx's 4 KB file on 127.0.0.1 at c = 1 and c = 16: bytes the HTTP measuring path
# allocates per request on each engine, storing left out. Not part of the suite.   usage: bash bench/engine-alloc.sh [requests]
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
start_nginx 8397
for c in 1 16; do dotnet run -c Release bench/engine-alloc.cs -- "http://127.0.0.1:8397/4k.bin" "${1:-200000}" "$c"; done
