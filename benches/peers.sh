#!/usr/bin/env bash
# tooltable among the Rust MCP frameworks: the same generated servers on
# tooltable, rmcp, tower-mcp, turbomcp and pmcp (benches/gen writes a twin
# per framework beside the rmcp ones), measured side by side in one run.
#
#   benches/peers.sh [--quick] [--sizes N,…] [--rounds K] [--results DIR] [--report FILE]
#
# Each round runs harness_peers (benches/harness, linked with every twin):
# `tools/list` and `tools/call` in process, start-up with the first
# listing, and the server CPU per served request, every side in turn.
# Outside --quick, each round then times, per side, a debug build after
# editing one handler body of the N = 10 crate, and the first round a cold
# build of that crate as a stdio server from an empty target directory
# (crates counted).
#
# --quick: N = 10, one short round, no builds; what .ci/run runs (through
# `benches/run.sh --quick`), so that a twin that no longer builds or no
# longer answers as tooltable does fails CI. The measurements are appended
# to DIR/runR.tsv (default target/bench-crates/results/peers, or
# peers-quick with --quick, emptied first); --report FILE then rewrites the
# peers section of FILE (docs/benchmarks.md) from DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
invocation="benches/peers.sh${*:+ $*}"

quick=0; sizes=10,100,1000; rounds=""; results=""; report=""
usage="usage: benches/peers.sh [--quick] [--sizes N,…] [--rounds K] [--results DIR] [--report FILE]"
while [[ $# -gt 0 ]]; do
    case $1 in
        --quick) quick=1; shift ;;
        --sizes) sizes=$2; shift 2 ;;
        --rounds) rounds=$2; shift 2 ;;
        --results) results=$2; shift 2 ;;
        --report) report=$2; shift 2 ;;
        *) echo "$usage" >&2; exit 2 ;;
    esac
done
harness_flags=()
if [[ $quick == 1 ]]; then
    sizes=10; rounds=${rounds:-1}; harness_flags=(--quick)
fi
rounds=${rounds:-3}

bench=$repo/target/bench-crates
export CARGO_TARGET_DIR=$bench/target
unset CARGO_INCREMENTAL
export TOOLTABLE_WRITE=always
release=$CARGO_TARGET_DIR/release
if [[ -z $results ]]; then
    # A quick round never empties the last full run's measurements.
    results=$bench/results/peers; [[ $quick == 1 ]] && results=$bench/results/peers-quick
    rm -rf "$results"
fi
mkdir -p "$results"
results=$(cd "$results" && pwd)
sides=(tooltable rmcp tower-mcp turbomcp pmcp)

# The package of a side's generated crate with N tools.
package() {
    case $1 in
        tooltable) echo "tt_n$2" ;;
        rmcp) echo "rmcp_stored_n$2" ;;
        tower-mcp) echo "towermcp_n$2" ;;
        *) echo "${1}_n$2" ;;
    esac
}
record() { printf '%s\t%s\n' "$1" "$2" | tee -a "$results/run$round.tsv"; }

echo "== generating the crates and every framework's twin for N = $sizes"
cargo build --release -q -p tooltable-bench
"$release/tooltable-bench" generate --repo "$repo" --out "$bench" --sizes "$sizes"
echo "== building harness_peers (release)"
(cd "$bench" && cargo build --release -q -p harness_peers)

# A stdio server of one side's N = 10 crate, alone in DIR: the crate, a
# main that serves it as the framework's documentation does, and the
# workspace's lock file, so every side compiles the versions measured.
cold_crate() {
    local side=$1 dir=$2 crate
    crate=$(package "$side" 10)
    rm -rf "$dir"
    cp -r "$bench/$crate" "$dir"
    rm -f "$dir/tools.json"
    cp "$bench/Cargo.lock" "$dir/Cargo.lock"
    local main tokio='tokio = { version = "1", features = ["macros", "rt-multi-thread", "net"] }'
    case $side in
        tooltable)
            main="let registry = tooltable::Registry::builder(&$crate::TOOLS).max_tier(tooltable::Tier::Destructive).build();
    tooltable::serve::stdio(registry, $crate::Ctx).await.expect(\"served\");" ;;
        rmcp)
            sed -i 's/features = \["server", "macros"\]/features = ["server", "macros", "transport-io"]/' "$dir/Cargo.toml"
            main="use rmcp::ServiceExt;
    let running = $crate::Server::new().serve(rmcp::transport::stdio()).await.expect(\"started\");
    let _ = running.waiting().await;" ;;
        *)
            main="$crate::serve_stdio().await;" ;;
    esac
    if grep -q '^tokio = ' "$dir/Cargo.toml"; then
        sed -i "s/^tokio = .*/$tokio/" "$dir/Cargo.toml"
    else
        sed -i "/^\[dependencies\]$/a $tokio" "$dir/Cargo.toml"
    fi
    printf '\n[workspace]\n' >> "$dir/Cargo.toml"
    if [[ $side == tooltable ]]; then
        # As benches/cold.sh builds them: tooltable's crates compiled as
        # cargo compiles a dependency from crates.io, not incrementally.
        for member in tooltable tooltable-runtime tooltable-rules tooltable-codegen tooltable-macros; do
            printf '[profile.dev.package.%s]\nincremental = false\n' "$member" >> "$dir/Cargo.toml"
        done
    fi
    printf '#[tokio::main]\nasync fn main() {\n    %s\n}\n' "$main" > "$dir/src/main.rs"
}

# A cargo build of DIR from an empty target directory.
cold() {
    local side=$1 dir=$2 log start end
    log=$dir/build.log
    rm -rf "$dir/target"
    start=$(date +%s%N)
    (cd "$dir" && CARGO_TARGET_DIR=$dir/target cargo build -v 2> "$log") || { cat "$log" >&2; echo "benches/peers.sh: building $dir failed" >&2; exit 1; }
    end=$(date +%s%N)
    record "peers-cold/10/$side" $(( end - start ))
    record "peers-cold/10/$side/crates" "$(grep -c '^ *Compiling ' "$log")"
}

# Edits tool_0001's handler body in a side's N = 10 crate and times the
# debug build that follows (its dependencies are built first, untimed).
incremental() {
    local side=$1 crate start end
    crate=$(package "$side" 10)
    (cd "$bench" && cargo build -q -p "$crate")
    sed -i "0,/let base = [0-9]*u64;/s//let base = $(( 100 + round ))u64;/" "$bench/$crate/src/group_000.rs"
    start=$(date +%s%N)
    (cd "$bench" && cargo build -q -p "$crate")
    end=$(date +%s%N)
    record "peers-build-incremental/10/$side" $(( end - start ))
}

cold_root=$repo/target/bench-cold-peers
for round in $(seq 1 "$rounds"); do
    echo "== round $round of $rounds: every framework in process and served"
    "$release/harness_peers" "${harness_flags[@]}" --out "$results/harness$round.tsv"
    cat "$results/harness$round.tsv" >> "$results/run$round.tsv"
    rm "$results/harness$round.tsv"
    if [[ $quick == 1 ]]; then
        continue
    fi
    echo "== round $round of $rounds: a debug build after editing one handler"
    for side in "${sides[@]}"; do
        incremental "$side"
    done
    if [[ $round == 1 ]]; then
        mkdir -p "$cold_root"
        for side in "${sides[@]}"; do
            cold_crate "$side" "$cold_root/$side"
            (cd "$cold_root/$side" && cargo fetch -q)
        done
        for side in "${sides[@]}"; do
            echo "== round $round of $rounds: cold build, stdio, $side"
            cold "$side" "$cold_root/$side"
        done
    fi
done
# Put the edited handler bodies back.
"$release/tooltable-bench" generate --repo "$repo" --out "$bench" --sizes "$sizes"

if [[ -n $report ]]; then
    "$release/tooltable-bench" report --results "$results" --machine /dev/null \
        --command "$invocation" --out "$report" --section peers
    echo "== rewrote the peers section of $report"
fi
