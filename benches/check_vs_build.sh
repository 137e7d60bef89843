#!/usr/bin/env bash
# Measures `tooltable check examples/notes-server` against
# `cargo build -p notes-server` after touching one of the example's source
# files. Not part of .ci/run: it takes a minute and its numbers depend on
# the machine. Usage: benches/check_vs_build.sh [ROUNDS]   (default 5)
set -euo pipefail
cd "$(dirname "$0")/.."

rounds="${1:-5}"
source_file=examples/notes-server/src/notes.rs

echo "== building tooltable (release) and warming the example's build"
cargo build --release -q -p tooltable-codegen --bin tooltable
cargo build -q -p notes-server
tooltable=target/release/tooltable

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

builds=()
checks=()
for round in $(seq 1 "$rounds"); do
    touch "$source_file"
    start=$(now_ms)
    cargo build -q -p notes-server
    builds+=($(( $(now_ms) - start )))

    touch "$source_file"
    start=$(now_ms)
    "$tooltable" check examples/notes-server > /dev/null
    checks+=($(( $(now_ms) - start )))
    echo "round $round: cargo build ${builds[-1]} ms, tooltable check ${checks[-1]} ms"
done

build_ms=$(printf '%s\n' "${builds[@]}" | median)
check_ms=$(printf '%s\n' "${checks[@]}" | median)
echo "== median over $rounds rounds"
echo "cargo build -p notes-server (after touching $source_file): $build_ms ms"
echo "tooltable check examples/notes-server:                    $check_ms ms"
awk -v b="$build_ms" -v c="$check_ms" 'BEGIN { if (c < 1) c = 1; printf "check is %.0fx faster\n", b / c }'
