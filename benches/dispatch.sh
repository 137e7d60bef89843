#!/usr/bin/env bash
# In-process dispatch, measured on its own: the dispatch suite (`harness
# --only dispatch`: tools/call through tooltable's adapter, `Registry::call`
# and the test client, against rmcp's stored and rebuilt routers) in K
# rounds; then the test-client section of docs/benchmarks.md is rewritten
# from them. benches/run.sh measures the same figures among everything
# else; this is the short way to rerun them after a change to the call path
# or to `tooltable::testing`.
#
#   benches/dispatch.sh [--rounds K] [--sizes N,…] [--report FILE]
#
# Defaults: 3 rounds, N = 10, 100 and 1000, no report (the figures are left
# in target/bench-crates/results/dispatch/run*.tsv).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

rounds=3; sizes=10,100,1000; report=""
while (($#)); do
    case $1 in
        --rounds) rounds=$2; shift ;;
        --sizes) sizes=$2; shift ;;
        --report) report=$2; shift ;;
        *) echo "usage: benches/dispatch.sh [--rounds K] [--sizes N,…] [--report FILE]" >&2; exit 2 ;;
    esac
    shift
done

bench=$repo/target/bench-crates
results=$bench/results/dispatch
export CARGO_TARGET_DIR=$bench/target
export TOOLTABLE_WRITE=always
release=$CARGO_TARGET_DIR/release

echo "== tooltable-bench (release), the generated crates for N = $sizes"
cargo build --release -q -p tooltable-bench --bin tooltable-bench
"$release/tooltable-bench" generate --repo "$repo" --out "$bench" --sizes "$sizes"
echo "== building the harness (release)"
(cd "$bench" && cargo build --release -q -p harness)

rm -rf "$results"
mkdir -p "$results"
for round in $(seq 1 "$rounds"); do
    echo "== round $round of $rounds: dispatch in process"
    "$release/harness" --only dispatch --out "$results/run$round.tsv"
done

if [[ -n $report ]]; then
    "$release/tooltable-bench" report --results "$results" --machine /dev/null \
        --command "benches/dispatch.sh --rounds $rounds --sizes $sizes --report docs/benchmarks.md" \
        --out "$report" --section test-client
    echo "== rewrote the test-client section of $report"
fi
