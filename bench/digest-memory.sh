#!/usr/bin/env bash
# A 1 M-sample HTTP run's digest, built in a fresh process: peak working set and GC heap above idle, and time
# (bench/digest-memory.cs). The run is stored once into a temporary SQLite file, then digested ROUNDS times, each
# in a new process.   usage: bash bench/digest-memory.sh [SAMPLES=1000000] [ROUNDS=2]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
dotnet run bench/digest-memory.cs -c Release -- store "$dir/digest.db" "${1:-1000000}"
for round in $(seq "${2:-2}"); do
  echo -n "round $round: "
  dotnet run bench/digest-memory.cs -c Release -- digest "$dir/digest.db"
done
