#!/usr/bin/env bash
# LiveRunStats.Add per sample, before and after a change: scratch copies of the tree at BASE and of this tree, each
# running bench/live-add.cs (this tree's copy with ITERATIONS defined, so a journey's iterations are told apart),
# alternately, TRIALS times. Prints a Markdown table. Nothing in the tree is changed.
#   usage: bash bench/live-add.sh [TRIALS=3] [SAMPLES=2000000] [ROUNDS=15] [BASE=9936c9f]
set -euo pipefail
cd "$(dirname "$0")/.."
trials=${1:-3} samples=${2:-2000000} rounds=${3:-15} base=${4:-9936c9f}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
files=(src Directory.Build.props Directory.Packages.props global.json .editorconfig)
mkdir -p "$scratch/before" "$scratch/after"
git archive "$base" "${files[@]}" | tar -x -C "$scratch/before"
git ls-files -co --exclude-standard -- "${files[@]}" | tar -cT - | tar -x -C "$scratch/after"
for version in before after; do
  mkdir -p "$scratch/$version/bench"
  cp bench/live-add.cs "$scratch/$version/bench/"
done
sed -i 's/^#:property PublishAot=false$/&\n#:property DefineConstants=$(DefineConstants);ITERATIONS/' "$scratch/after/bench/live-add.cs"
for version in before after; do
  dotnet build "$scratch/$version/bench/live-add.cs" -c Release -v quiet -nologo >/dev/null
done
echo "| version | run | Add, median | Add, best |"
echo "| --- | --- | ---: | ---: |"
for _ in $(seq "$trials"); do
  for version in before after; do
    dotnet run --no-build "$scratch/$version/bench/live-add.cs" -c Release -- "$version" "$samples" "$rounds"
  done
done
