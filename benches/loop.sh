#!/usr/bin/env bash
# The edit-compile-test loop in a user's layout, tooltable against rmcp: the
# two sides of benches/gen/src/layout.rs (a lib with the store and the
# types, ten tools over three modules of a bin that serves stdio and HTTP,
# four integration test files), built in debug as a developer builds.
# Each round, for each side in turn (the order alternates between rounds)
# and each edit of src/tools/items.rs (a handler body's literal, a doc
# comment, a parameter's type), one edit is made and `cargo build` timed,
# then another of the same kind and `cargo test --no-run` timed. For each it
# records the wall time, the units cargo ran (compilations and build-script
# runs, from `-v`) and, from `--timings`, the build script's run, the lib's
# and the bin's own compiles and the test targets' compiles together.
# Then the loop section of docs/benchmarks.md is rewritten from them.
#
#   benches/loop.sh [--rounds K] [--report FILE]
#
# Defaults: 5 rounds, no report (the figures are left in
# target/bench-crates/results/loop/run*.tsv).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

rounds=5; report=""
while (($#)); do
    case $1 in
        --rounds) rounds=$2; shift ;;
        --report) report=$2; shift ;;
        *) echo "usage: benches/loop.sh [--rounds K] [--report FILE]" >&2; exit 2 ;;
    esac
    shift
done

bench=$repo/target/bench-crates
results=$bench/results/loop
export CARGO_TARGET_DIR=$bench/target
# As a developer builds, whatever CI sets.
unset CARGO_INCREMENTAL
export TOOLTABLE_WRITE=always
release=$CARGO_TARGET_DIR/release
timings=$CARGO_TARGET_DIR/cargo-timings/cargo-timing.html
sides=(tooltable rmcp)
edits=(body doc parameter)

echo "== tooltable-bench (release), the generated workspace"
cargo build --release -q -p tooltable-bench --bin tooltable-bench
# The layout needs no generated size; the smallest keeps the workspace whole.
"$release/tooltable-bench" generate --repo "$repo" --out "$bench" --sizes 10

package() { echo "loop_$1"; }
declare -A version
for side in "${sides[@]}"; do
    for edit in "${edits[@]}"; do version[$side/$edit]=0; done
done
# Rewrites one side's edited file with every edit at its current version.
write_edits() {
    "$release/tooltable-bench" edit --repo "$repo" --out "$bench" --side "$1" \
        --body "${version[$1/body]}" --doc "${version[$1/doc]}" --parameter "${version[$1/parameter]}"
}

echo "== building both sides and their tests (debug)"
for side in "${sides[@]}"; do
    write_edits "$side"
    (cd "$bench" && cargo test -q --no-run -p "$(package "$side")" 2>/dev/null)
done

rm -rf "$results"
mkdir -p "$results"
log=$results/last-command.log
now_ns() { date +%s%N; }
record() { printf '%s\t%s\n' "$1" "$2" | tee -a "$results/run$round.tsv"; }

# One measured cargo command: its wall time, the units it ran and, from the
# timings page, how long the bin's own compile and the build script's run took.
measure() {
    local what=$1 side=$2 edit=$3; shift 3
    local start; start=$(now_ns)
    (cd "$bench" && cargo "$@" -v --timings -p "$(package "$side")") > "$log" 2>&1 \
        || { cat "$log" >&2; echo "benches/loop.sh: cargo $* failed" >&2; exit 1; }
    record "loop-$what/$edit/$side" $(( $(now_ns) - start ))
    record "loop-$what/$edit/$side/units" "$(grep -cE '^ +Running `(/[^ ]*build-script-build|[^ ]*rustc )' "$log")"
    python3 - "$timings" "$(package "$side")" <<'PY' | while IFS=$'\t' read -r kind ns; do record "loop-$what-$kind/$edit/$side" "$ns"; done
import json, re, sys
html = open(sys.argv[1], encoding="utf-8").read()
units = json.loads(re.search(r"const UNIT_DATA = (\[.*?\]);\n", html, re.S).group(1))
tests = 0.0
for unit in units:
    if not unit["name"] == sys.argv[2]:
        continue
    target = unit["target"].strip()
    if target == "build-script (run)":
        print(f"script\t{unit['duration'] * 1e9:.0f}")
    elif target.endswith('"bin"'):
        print(f"bin\t{unit['duration'] * 1e9:.0f}")
    elif target == "":
        print(f"lib\t{unit['duration'] * 1e9:.0f}")
    elif target.endswith("(test)"):
        tests += unit["duration"]
print(f"tests\t{tests * 1e9:.0f}")
PY
}

for round in $(seq 1 "$rounds"); do
    order=("${sides[@]}")
    if (( round % 2 == 0 )); then order=(rmcp tooltable); fi
    for side in "${order[@]}"; do
        echo "== round $round of $rounds: $side"
        for edit in "${edits[@]}"; do
            version[$side/$edit]=$(( ${version[$side/$edit]} + 1 ))
            write_edits "$side"
            measure build "$side" "$edit" build
            # Settle the test targets the build left stale, then edit again.
            (cd "$bench" && cargo test -q --no-run -p "$(package "$side")" 2>/dev/null)
            version[$side/$edit]=$(( ${version[$side/$edit]} + 1 ))
            write_edits "$side"
            measure test "$side" "$edit" test --no-run
        done
    done
done

# Put the edited files back as generated.
"$release/tooltable-bench" generate --repo "$repo" --out "$bench" --sizes 10

if [[ -n $report ]]; then
    "$release/tooltable-bench" report --results "$results" --machine /dev/null \
        --command "benches/loop.sh --rounds $rounds --report docs/benchmarks.md" \
        --out "$report" --section loop
    echo "== rewrote the loop section of $report"
fi
