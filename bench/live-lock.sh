#!/usr/bin/env bash
# How long LiveRunStats' lock is held, before and after it stopped holding long work: scratch copies of the runner
# at BASE (the commit before the change) and of this tree, each with the lock swapped for a TimedLock
# (bench/live-lock-timer.cs.txt), measured by bench/live-lock.cs alternately, ROUNDS times at 3,500 and 40,000
# samples a second with SERIES series. Prints a Markdown table. Nothing in the tree is changed.
#   usage: bash bench/live-lock.sh [ROUNDS=3] [SECONDS=20] [SERIES=2] [BASE=3575886]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3} seconds=${2:-20} series=${3:-2} base=${4:-3575886}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
files=(src Directory.Build.props Directory.Packages.props global.json .editorconfig)
mkdir -p "$scratch/before" "$scratch/after"
git archive "$base" "${files[@]}" | tar -x -C "$scratch/before"
git ls-files -co --exclude-standard -- "${files[@]}" | tar -cT - | tar -x -C "$scratch/after"
for version in before after; do
  dir=$scratch/$version
  cp bench/live-lock-timer.cs.txt "$dir/src/Runner/Execution/TimedLock.cs"
  sed -i 's/readonly Lock gate = new();/readonly TimedLock gate = new();/; s/lock (gate)/using (gate.EnterScope())/g' "$dir"/src/Runner/Execution/LiveRunStats*.cs
  grep -q 'readonly TimedLock gate' "$dir"/src/Runner/Execution/LiveRunStats*.cs || { echo "$version: the lock could not be swapped"; exit 1; }
  mkdir -p "$dir/bench"
  cp bench/live-lock.cs "$dir/bench/"
  dotnet build "$dir/bench/live-lock.cs" -c Release -v quiet -nologo >/dev/null
done
echo "| version | samples/s | series | closing Add | Snapshot, longest hold | Snapshot, total held | other Adds, p50 / p99.9 | other Adds, longest per second | seconds / snapshots |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for _ in $(seq "$rounds"); do
  for rate in 3500 40000; do
    for version in before after; do
      dotnet run --no-build "$scratch/$version/bench/live-lock.cs" -c Release -- "$version" "$rate" "$seconds" "$series"
    done
  done
done
