#!/usr/bin/env bash
# Reruns every benchmark of docs/benchmarks.md: tooltable against rmcp's own
# macros on generated servers with 10, 100 and 1000 tools, in the same run on
# the same machine, reported as tooltable/rmcp ratios; and every framework
# side by side on the same servers (benches/peers.sh).
#
#   benches/run.sh           full mode: 3 rounds of everything (run-time
#                            benchmarks in process and served by separate
#                            processes, clean and incremental builds,
#                            `tooltable check`, the example's build script,
#                            cold builds from an empty target directory
#                            (benches/cold.sh),
#                            the load test of benches/load.sh, with its
#                            five-minute soak in round 1; tool search over
#                            300 tools, benches/discovery.sh, once; every
#                            framework, benches/peers.sh), then regenerates
#                            docs/benchmarks.md. Takes long (the generated
#                            crates alone are minutes of compilation on 2
#                            cores); not part of .ci/run.
#   benches/run.sh --quick   N = 10, one short round, the build measurements
#                            on N = 10 only, every framework's twin in one
#                            short round (benches/peers.sh --quick, so a
#                            broken twin fails CI), no load test (building
#                            notes-server and its twin optimised would take
#                            CI minutes; `benches/load.sh --quick` runs it
#                            alone); writes its report under
#                            target/bench-crates/results/quick/ and leaves
#                            docs/ alone. .ci/run calls it so the benchmarks
#                            never rot.
#
# Everything generated (crates, harness, results) lives under
# target/bench-crates, with its own target directory, so it never waits on
# (or invalidates) the workspace's own builds.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

mode=full
case "${1:-}" in
    "") ;;
    --quick) mode=quick ;;
    *) echo "usage: benches/run.sh [--quick]" >&2; exit 2 ;;
esac
if [[ $mode == quick ]]; then
    sizes=(10); build_sizes=(10); check_size=10; rounds=1; harness_flags=(--quick)
else
    sizes=(10 100 1000); build_sizes=(100 1000); check_size=1000; rounds=3; harness_flags=()
fi

bench=$repo/target/bench-crates
results=$bench/results/$mode
export CARGO_TARGET_DIR=$bench/target
# The incremental builds are measured as a developer's are, whatever CI sets.
unset CARGO_INCREMENTAL
# The generated crates are scratch: let their build scripts write tools.json
# and docs even in CI, so `tooltable check` has committed files to compare.
export TOOLTABLE_WRITE=always
release=$CARGO_TARGET_DIR/release

now_ns() { date +%s%N; }
record() { printf '%s\t%s\n' "$1" "$2" | tee -a "$results/run$round.tsv"; }
# Times a command (its output kept in $log) and records it under a metric.
timed() {
    local metric=$1; shift
    local start; start=$(now_ns)
    "$@" > "$log" 2>&1 || { cat "$log" >&2; echo "benches/run.sh: \`$*\` failed" >&2; exit 1; }
    record "$metric" $(( $(now_ns) - start ))
}
# The build script's own time, from the warning TOOLTABLE_TIMING=1 makes it print.
script_time() {
    local ms
    ms=$(grep -o 'tooltable build script: [0-9.]* ms' "$log" | grep -o '[0-9.]*' | head -1)
    [[ -n $ms ]] || { cat "$log" >&2; echo "benches/run.sh: the build printed no build-script time" >&2; exit 1; }
    record "$1" "$(awk -v ms="$ms" 'BEGIN { printf "%.0f", ms * 1000000 }')"
}

echo "== tooltable-bench and the tooltable command (release)"
cargo build --release -q -p tooltable-bench -p tooltable-cli --bin tooltable-bench --bin tooltable
tooltable_bench=$release/tooltable-bench
tooltable=$release/tooltable

generate() {
    "$tooltable_bench" generate --repo "$repo" --out "$bench" --sizes "$(IFS=,; echo "${sizes[*]}")"
}
echo "== generating crates for N = ${sizes[*]} into $bench"
generate
rm -rf "$results"
mkdir -p "$results"
log=$results/last-command.log

echo "== building the harness and every generated crate (release)"
(cd "$bench" && cargo build --release -q -p harness)
if [[ $mode == full ]]; then
    echo "== building notes-server and its rmcp twin for the load test (release)"
    (cd "$bench" && cargo build --release -q -p notes-server -p notes_twin)
fi
echo "== building the generated crates' dependencies (debug)"
for n in "${build_sizes[@]}"; do
    (cd "$bench" && cargo build -q -p "tt_n$n" -p "rmcp_stored_n$n")
done

# One round: the run-time benchmarks, then the build measurements.
for round in $(seq 1 "$rounds"); do
    echo "== round $round of $rounds: run-time benchmarks"
    "$release/harness" "${harness_flags[@]}" --out "$results/run$round.tsv"

    if [[ $mode == full ]]; then
        echo "== round $round of $rounds: load over HTTP"
        soak=0; [[ $round == 1 ]] && soak=300
        benches/load.sh --out "$results/run$round.tsv" --duration 8 --soak "$soak"
    else
        echo "== round $round of $rounds: no load test in quick mode (benches/load.sh --quick runs it)"
    fi

    if [[ $mode == full ]]; then
        echo "== round $round of $rounds: cold builds, tooltable against rmcp"
        cold_features=(); [[ $round == 1 ]] && cold_features=(--features)
        benches/cold.sh --results "$results" --round "$round" "${cold_features[@]}"
    fi

    echo "== round $round of $rounds: builds"
    for n in "${build_sizes[@]}"; do
        for crate in "tt_n$n" "rmcp_stored_n$n"; do
            kind=rmcp; [[ $crate == tt_* ]] && kind=tooltable
            (cd "$bench" && cargo clean -q -p "$crate")
            timed "build-clean/$n/$kind" env -C "$bench" TOOLTABLE_TIMING=1 cargo build -p "$crate"
            if [[ $kind == tooltable ]]; then script_time "build-script/$n/tooltable"; fi
            # Edit one handler body (tool_0001's literal), as a developer would.
            sed -i "0,/let base = [0-9]*u64;/s//let base = $(( 100 + round ))u64;/" "$bench/$crate/src/group_000.rs"
            timed "build-incremental/$n/$kind" env -C "$bench" TOOLTABLE_TIMING=1 cargo build -p "$crate"
            if [[ $kind == tooltable ]]; then script_time "build-incremental-script/$n/tooltable"; fi
        done
    done

    echo "== round $round of $rounds: tooltable check against cargo build (N = $check_size)"
    touched=$bench/tt_n$check_size/src/group_000.rs
    touch "$touched"
    timed "check/$check_size/build" env -C "$bench" cargo build -p "tt_n$check_size"
    touch "$touched"
    timed "check/$check_size/check" "$tooltable" check "$bench/tt_n$check_size"

    if [[ $mode == full ]]; then
        echo "== round $round of $rounds: the example's build script against its compile time"
        cargo build -q -p notes-server
        cargo clean -q -p notes-server
        timed "example/clean" env TOOLTABLE_TIMING=1 cargo build -p notes-server
        script_time "example/script"
        touch examples/notes-server/src/notes.rs
        timed "example/touch-build" cargo build -p notes-server
        touch examples/notes-server/src/notes.rs
        timed "example/check" "$tooltable" check examples/notes-server
    fi
done
# Put the edited handler bodies back.
generate

if [[ $mode == full ]]; then
    echo "== tool search over 300 tools (benches/discovery.sh)"
    benches/discovery.sh --results "$results"
    echo "== every framework side by side (benches/peers.sh)"
    benches/peers.sh --sizes "$(IFS=,; echo "${sizes[*]}")" --rounds "$rounds" --results "$results"
else
    echo "== every framework side by side, one short round (benches/peers.sh --quick)"
    benches/peers.sh --quick --results "$results"
fi

echo "== machine"
benches/machine.sh > "$results/machine.txt"
cat "$results/machine.txt"

if [[ $mode == full ]]; then
    out=docs/benchmarks.md
else
    out=$results/benchmarks.md
fi
"$tooltable_bench" report --results "$results" --machine "$results/machine.txt" \
    --command "benches/run.sh${1:+ $1}" --out "$out"
echo "== wrote $out"
