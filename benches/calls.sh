#!/usr/bin/env bash
# Served calls, measured on their own: the served-CPU suite (`harness --only
# served`: tools/list, tools/call of the trivial tool and of the six-field
# tool, N = 10, 100 and 1000, stdio and HTTP, tooltable against rmcp's
# stored router and against the floor) and the load test of benches/load.sh
# (notes_get, notes_stats and tools/list, 1, 16 and 64 connections, the
# soak in round 1), in K rounds; then the calls section of
# docs/benchmarks.md is rewritten from them. benches/run.sh measures the
# same figures among everything else; this is the short way to rerun the
# section after a change to the serving path.
#
#   benches/calls.sh [--rounds K] [--soak SECONDS] [--report FILE]
#
# Defaults: 3 rounds, a 300 s soak, no report (the figures are left in
# target/bench-crates/results/calls/run*.tsv).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

rounds=3; soak=300; report=""
while (($#)); do
    case $1 in
        --rounds) rounds=$2; shift ;;
        --soak) soak=$2; shift ;;
        --report) report=$2; shift ;;
        *) echo "usage: benches/calls.sh [--rounds K] [--soak SECONDS] [--report FILE]" >&2; exit 2 ;;
    esac
    shift
done

bench=$repo/target/bench-crates
results=$bench/results/calls
export CARGO_TARGET_DIR=$bench/target
export TOOLTABLE_WRITE=always
release=$CARGO_TARGET_DIR/release

echo "== tooltable-bench (release), the generated crates for N = 10, 100, 1000"
cargo build --release -q -p tooltable-bench --bin tooltable-bench
"$release/tooltable-bench" generate --repo "$repo" --out "$bench" --sizes 10,100,1000
echo "== building the harness, notes-server and its rmcp twin (release)"
(cd "$bench" && cargo build --release -q -p harness -p notes-server -p notes_twin)

rm -rf "$results"
mkdir -p "$results"
for round in $(seq 1 "$rounds"); do
    echo "== round $round of $rounds: served listings and calls"
    "$release/harness" --only served --out "$results/run$round.tsv"
    echo "== round $round of $rounds: load over HTTP"
    round_soak=0; [[ $round == 1 ]] && round_soak=$soak
    benches/load.sh --out "$results/run$round.tsv" --duration 8 --soak "$round_soak"
done

if [[ -n $report ]]; then
    "$release/tooltable-bench" report --results "$results" --machine /dev/null \
        --command "benches/calls.sh --rounds $rounds --report docs/benchmarks.md" \
        --out "$report" --section calls
    echo "== rewrote the calls section of $report"
fi
