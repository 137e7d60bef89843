#!/usr/bin/env bash
# tooltable among the Rust MCP frameworks: the same generated servers on
# tooltable, rmcp, tower-mcp, turbomcp (3.6 and 4.0's alpha) and pmcp
# (benches/gen writes a twin per framework beside the rmcp ones), measured
# side by side in one run.
#
#   benches/peers.sh [--quick] [--sizes N,…] [--rounds K] [--load SECONDS] [--soak SECONDS]
#                    [--results DIR] [--report FILE]
#
# Each round runs harness_peers (benches/harness, linked with every twin):
# `tools/list` and `tools/call` in process, start-up with the first
# listing, and the server CPU per served request, every side in turn.
# Outside --quick, each round then times, per side, a debug build after
# editing one handler body of the N = 10 crate, and the first round a cold
# build of that crate as a stdio server from an empty target directory
# (crates counted), and loads each side's N = 10 server over HTTP with wrk
# (each side's server a binary of its own, from the generated `servers`
# crate, as its users would build it; the trivial call at 1, 16 and 64
# connections; requests per second, p99
# and errors, where an error is a failed or non-2xx request or an answer
# that is not a successful result; tooltable's server is also asked the
# call statelessly, at revision 2026-07-28, which its own shortcut
# answers without rmcp's session) and, in the first round, soaks every
# server at once (16 connections each, calls and listings in turn),
# reading its resident memory (VmRSS) before the load and after the soak,
# and after it the part of that the server allocated (RssAnon: its heap
# and its threads' stacks, the rest being its binary's pages), its threads
# and the size of its binary's code. Last in each round, notes-server and
# its twin on every framework (benches/twin: its read tools, the same
# handlers over the same SQLite store) are started on copies of one seeded
# database, checked against notes-server's answers, and loaded the same way
# with notes_get (1, 16 and 64 connections) and the listing (16). wrk
# (Debian package) is installed if it is missing.
#
# --load: seconds per level of the load (default 5); --soak: the soak's
# length (default 60; 0 leaves it out).
# --quick: N = 10, one short round, no builds and no load (the notes
# twins are started and checked, not loaded); what .ci/run runs (through
# `benches/run.sh --quick`), so that a twin that no longer builds or no
# longer answers as tooltable does fails CI. The measurements are appended
# to DIR/runR.tsv (default target/bench-crates/results/peers, or
# peers-quick with --quick, emptied first); --report FILE then rewrites the
# peers section of FILE (docs/benchmarks.md) from DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
invocation="benches/peers.sh${*:+ $*}"

quick=0; sizes=10,100,1000; rounds=""; results=""; report=""; load_seconds=5; soak=60
usage="usage: benches/peers.sh [--quick] [--sizes N,…] [--rounds K] [--load SECONDS] [--soak SECONDS] [--results DIR] [--report FILE]"
while [[ $# -gt 0 ]]; do
    case $1 in
        --quick) quick=1; shift ;;
        --sizes) sizes=$2; shift 2 ;;
        --rounds) rounds=$2; shift 2 ;;
        --load) load_seconds=$2; shift 2 ;;
        --soak) soak=$2; shift 2 ;;
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
sides=(tooltable rmcp tower-mcp turbomcp turbomcp-4 pmcp)

# The package of a side's generated crate with N tools.
package() {
    case $1 in
        tooltable) echo "tt_n$2" ;;
        rmcp) echo "rmcp_stored_n$2" ;;
        tower-mcp) echo "towermcp_n$2" ;;
        turbomcp-4) echo "turbomcp4_n$2" ;;
        *) echo "${1}_n$2" ;;
    esac
}
record() { printf '%s\t%s\n' "$1" "$2" | tee -a "$results/run$round.tsv"; }

echo "== generating the crates and every framework's twin for N = $sizes"
cargo build --release -q -p tooltable-bench
"$release/tooltable-bench" generate --repo "$repo" --out "$bench" --sizes "$sizes"
echo "== building harness_peers and the servers (release)"
(cd "$bench" && cargo build --release -q -p harness_peers $([[ $quick == 0 ]] && echo -p servers))
# Apart: cargo unifies features over one build, and notes-server turns on
# tooltable's `auth`, `redis` and `validate`, which the servers above and
# the harness must not link.
echo "== building notes-server and its twins (release)"
(cd "$bench" && cargo build --release -q -p notes-server -p notes_twin -p notes_twin_towermcp \
    -p notes_twin_turbomcp -p notes_twin_turbomcp4 -p notes_twin_pmcp)

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

# The load over HTTP, outside --quick: each side's N = 10 server
# (`harness_peers serve`), in one `initialize` session each, driven by wrk.
scratch=$(mktemp -d)
servers=(); holders=()
stop_servers() {
    local fd
    for server in "${servers[@]}"; do kill "$server" 2>/dev/null || true; done
    for server in "${servers[@]}"; do wait "$server" 2>/dev/null || true; done
    for fd in "${holders[@]}"; do exec {fd}>&-; done
    servers=(); holders=()
}
trap 'stop_servers; rm -rf "$scratch"' EXIT
source benches/wrk/lib.sh
if [[ $quick == 0 ]]; then ensure_wrk benches/peers.sh; fi

declare -A url pid session errors
json=(-H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream')
initialize='{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"tooltable-bench","version":"0"}}}'
call_body='{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"tool_0000","arguments":{"text":"hello"}}}'
list_body='{"jsonrpc":"2.0","id":%s,"method":"tools/list"}'
notes_call_body='{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"notes_get","arguments":{"id":7}}}'
# tooltable's own server asked the same call statelessly (revision
# 2026-07-28, no session), which its shortcut answers without rmcp's
# service: the pseudo-side `tooltable-stateless`, shown in the prose only.
meta='"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"tooltable-bench","version":"0"},"io.modelcontextprotocol/clientCapabilities":{}}'
stateless_body='{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"tool_0000","arguments":{"text":"hello"},'$meta'}}'

# Starts a side's server over HTTP, its standard input a pipe this script
# holds (the server leaves when it closes), and opens a session on it.
start_server() {
    local side=$1 fifo=$scratch/$1.in holder
    rm -f "$fifo"; mkfifo "$fifo"
    "$release/serve-$side" < "$fifo" > "$scratch/$side.address" 2> "$scratch/$side.log" &
    pid[$side]=$!; servers+=($!)
    exec {holder}> "$fifo"; holders+=("$holder")
    for _ in $(seq 100); do
        [[ -s $scratch/$side.address ]] && break
        kill -0 "${pid[$side]}" 2>/dev/null || { cat "$scratch/$side.log" >&2; echo "benches/peers.sh: the $side server stopped" >&2; exit 1; }
        sleep 0.1
    done
    url[$side]=http://$(head -n 1 "$scratch/$side.address")/mcp
    open_session "$side"
}

# Opens a session on the server at url[KEY]: `initialize` at revision
# 2025-11-25, then `notifications/initialized`.
open_session() {
    local key=$1 headers status
    headers=$(curl -sS --max-time 10 -D - -o "$scratch/$key.reply" "${url[$key]}" "${json[@]}" --data "$initialize") \
        || { echo "benches/peers.sh: the $key server did not answer initialize" >&2; exit 1; }
    session[$key]=$(awk -F': *' 'tolower($1) == "mcp-session-id" { print $2 }' <<< "$headers" | tr -d '\r')
    [[ -n ${session[$key]} ]] || { echo "benches/peers.sh: the $key server named no session: $headers" >&2; exit 1; }
    status=$(curl -sS --max-time 10 -o /dev/null -w '%{http_code}' "${url[$key]}" "${json[@]}" \
        -H "Mcp-Session-Id: ${session[$key]}" -H 'MCP-Protocol-Version: 2025-11-25' \
        --data '{"jsonrpc":"2.0","method":"notifications/initialized"}')
    [[ $status == 2* ]] || { echo "benches/peers.sh: the $key server answered notifications/initialized with $status" >&2; exit 1; }
    errors[$key]=0
}

# The stateless pseudo-side on tooltable's server, checked with one call.
start_stateless() {
    local reply
    url[tooltable-stateless]=${url[tooltable]}
    reply=$(curl -sS --max-time 10 "${url[tooltable]}" "${json[@]}" -H 'MCP-Protocol-Version: 2026-07-28' \
        -H 'Mcp-Method: tools/call' -H 'Mcp-Name: tool_0000' --data "$(printf "$stateless_body" 1)") \
        || { echo "benches/peers.sh: tooltable did not answer a stateless call" >&2; exit 1; }
    [[ $reply == *'"result":{'* && $reply != *'"isError":true'* ]] \
        || { echo "benches/peers.sh: tooltable answered a stateless call with $reply" >&2; exit 1; }
    errors[tooltable-stateless]=0
}

# A side's server's resident memory (VmRSS) in bytes, the part of it
# neither file nor shared memory (RssAnon), its threads, and the size of
# its binary's code (.text).
rss() { rss_of "${pid[$1]}"; }
anonymous() { awk '/^RssAnon:/ { printf "%.0f\n", $2 * 1024 }' "/proc/${pid[$1]}/status"; }
threads() { awk '/^Threads:/ { print $2 }' "/proc/${pid[$1]}/status"; }
code() { size -A "$release/serve-$1" | awk '$1 == ".text" { print $2 }'; }

# A figure of wrk's, by name, from the output file of a run.
figure() { awk -F'\t' -v name="$1" '$1 == name { print $2 }' "$2"; }

# The wrk script for a server (a side, or a side's notes server): POSTs in
# its session, each with its own id (ids are unique per thread's range, as
# a client's in flight must be), of the trivial call (`call`), of calls and
# listings in turn (`soak`), of notes_get (`notes`) or of the listing
# (`list`); benches/wrk/figures.lua counts the errors and prints the figures.
lua() {
    local key=$1 kind=$2 headers body=$call_body
    case $kind in
        notes) body=$notes_call_body ;;
        list) body=$list_body ;;
    esac
    if [[ $key == tooltable-stateless ]]; then
        body=$stateless_body
        headers='wrk.headers["MCP-Protocol-Version"] = "2026-07-28"
wrk.headers["Mcp-Method"] = "tools/call"
wrk.headers["Mcp-Name"] = "tool_0000"'
    else
        headers="wrk.headers[\"Mcp-Session-Id\"] = \"${session[$key]}\"
wrk.headers[\"MCP-Protocol-Version\"] = \"2025-11-25\""
    fi
    cat <<EOF
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
$headers
local call = '$body'
local list = '$list_body'
local alternate = $([[ $kind == soak ]] && echo true || echo false)
function init(args)
    rpc_errors = 0
    id = first
end
function request()
    id = id + 1
    local body = call
    if alternate and id % 2 == 0 then body = list end
    return wrk.format(nil, nil, nil, string.format(body, id))
end
dofile("$repo/benches/wrk/figures.lua")
EOF
}

# wrk against a side for SECONDS at CONNECTIONS; its figures in OUT.
drive() {
    local side=$1 kind=$2 connections=$3 seconds=$4 out=$5 threads=2
    ((connections < threads)) && threads=$connections
    lua "$side" "$kind" > "$scratch/$side-$kind.lua"
    wrk -t "$threads" -c "$connections" -d "${seconds}s" --timeout 10s -s "$scratch/$side-$kind.lua" "${url[$side]}" > "$out" 2>&1 \
        || { cat "$out" >&2; echo "benches/peers.sh: wrk failed against $side" >&2; exit 1; }
    grep -q $'^errors\t' "$out" || { cat "$out" >&2; echo "benches/peers.sh: wrk printed no figures for $side" >&2; exit 1; }
    errors[$side]=$(( errors[$side] + $(figure errors "$out") ))
}

# A round of the load: the trivial call at 1, 16 and 64 connections, the
# sides in turn at each level (so load from elsewhere hits them alike);
# in the first round, the soak, every side at once, and its memory after.
load_round() {
    local side connections out=$scratch/wrk.out soakers=()
    for side in "${sides[@]}"; do start_server "$side"; done
    start_stateless
    if [[ $round == 1 ]]; then
        for side in "${sides[@]}"; do record "rss/peers-start/10/$side" "$(rss "$side")"; done
    fi
    for side in "${sides[@]}" tooltable-stateless; do drive "$side" call 16 1 "$out"; done
    for connections in 1 16 64; do
        for side in "${sides[@]}" tooltable-stateless; do
            drive "$side" call "$connections" "$load_seconds" "$out"
            record "peers-load-call-c$connections/10/$side/rps" "$(figure rps "$out")"
            record "peers-load-call-c$connections/10/$side/p99" "$(figure p99 "$out")"
        done
    done
    if [[ $round == 1 ]] && ((soak > 0)); then
        echo "== round $round of $rounds: soak, ${soak} s, every server at once"
        for side in "${sides[@]}"; do
            lua "$side" soak > "$scratch/$side-soak.lua"
            wrk -t 1 -c 16 -d "${soak}s" --timeout 10s -s "$scratch/$side-soak.lua" "${url[$side]}" \
                > "$scratch/$side-soak.out" 2>&1 &
            soakers+=($!)
        done
        for soaker in "${soakers[@]}"; do wait "$soaker"; done
        for side in "${sides[@]}"; do
            out=$scratch/$side-soak.out
            grep -q $'^errors\t' "$out" || { cat "$out" >&2; echo "benches/peers.sh: the soak of $side printed no figures" >&2; exit 1; }
            errors[$side]=$(( errors[$side] + $(figure errors "$out") ))
            record "rss/peers/10/$side" "$(rss "$side")"
            record "rss/peers-anonymous/10/$side" "$(anonymous "$side")"
            record "peers-soak/10/$side/threads" "$(threads "$side")"
            record "code/peers/10/$side" "$(code "$side")"
        done
    fi
    for side in "${sides[@]}" tooltable-stateless; do record "peers-load/10/$side/errors" "${errors[$side]}"; done
    stop_servers
}

# The notes server of a side: notes-server itself, or its twin on the
# side's framework (benches/twin), each serving notes-server's read tools
# with the same handlers over the same SQLite store.
notes_binary() {
    case $1 in
        tooltable) echo notes-server ;;
        rmcp) echo notes-twin ;;
        *) echo "notes-twin-$1" ;;
    esac
}
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# One request in KEY's session; the reply on standard output.
ask() {
    curl -sS --max-time 10 "${url[$1]}" "${json[@]}" -H "Mcp-Session-Id: ${session[$1]}" \
        -H 'MCP-Protocol-Version: 2025-11-25' --data "$2" \
        || { echo "benches/peers.sh: the $1 server did not answer $2" >&2; exit 1; }
}

# A round of the notes load: each side's notes server on its own copy of
# one seeded database, in a session each, its listing and its answer to
# notes_get checked against notes-server's (benches/twin/compare.py); then,
# outside --quick, notes_get at 1, 16 and 64 connections and the listing at
# 16, the sides in turn at each level.
notes_round() {
    local side key port connections out=$scratch/wrk.out
    [[ -f $scratch/seed.db ]] || "$release/notes-twin" seed --db "$scratch/seed.db" --notes 100
    for side in "${sides[@]}"; do
        key=notes-$side
        cp "$scratch/seed.db" "$scratch/$key.db"
        port=$(free_port)
        "$release/$(notes_binary "$side")" serve --db "$scratch/$key.db" --http "127.0.0.1:$port" 2> "$scratch/$key.log" &
        pid[$key]=$!; servers+=($!)
        url[$key]=http://127.0.0.1:$port/mcp
        for _ in $(seq 100); do
            curl -s -o /dev/null "${url[$key]}" && break
            kill -0 "${pid[$key]}" 2>/dev/null || { cat "$scratch/$key.log" >&2; echo "benches/peers.sh: the $key server stopped" >&2; exit 1; }
            sleep 0.1
        done
        open_session "$key"
        ask "$key" "$(printf "$list_body" 1)" > "$scratch/$key.list"
        ask "$key" "$(printf "$notes_call_body" 2)" > "$scratch/$key.call"
        if [[ $side != tooltable ]]; then
            python3 benches/twin/compare.py list "$scratch/notes-tooltable.list" "$scratch/$key.list" "$side"
            python3 benches/twin/compare.py call "$scratch/notes-tooltable.call" "$scratch/$key.call" "$side"
        fi
    done
    if [[ $quick == 1 ]]; then
        stop_servers
        return
    fi
    for side in "${sides[@]}"; do drive "notes-$side" notes 16 1 "$out"; done
    for connections in 1 16 64; do
        for side in "${sides[@]}"; do
            drive "notes-$side" notes "$connections" "$load_seconds" "$out"
            record "peers-load-notes-c$connections/notes/$side/rps" "$(figure rps "$out")"
            record "peers-load-notes-c$connections/notes/$side/p99" "$(figure p99 "$out")"
        done
    done
    for side in "${sides[@]}"; do
        drive "notes-$side" list 16 "$load_seconds" "$out"
        record "peers-load-notes-list-c16/notes/$side/rps" "$(figure rps "$out")"
        record "peers-load-notes-list-c16/notes/$side/p99" "$(figure p99 "$out")"
    done
    for side in "${sides[@]}"; do record "peers-load/notes/$side/errors" "${errors[notes-$side]}"; done
    stop_servers
}

cold_root=$repo/target/bench-cold-peers
for round in $(seq 1 "$rounds"); do
    echo "== round $round of $rounds: every framework in process and served"
    "$release/harness_peers" "${harness_flags[@]}" --out "$results/harness$round.tsv"
    cat "$results/harness$round.tsv" >> "$results/run$round.tsv"
    rm "$results/harness$round.tsv"
    if [[ $quick == 1 ]]; then
        echo "== notes-server's twins checked against it"
        notes_round
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
    # Last in the round: pmcp's soak leaves gigabytes freed behind it, and
    # the builds above would read their sources back from disk after it.
    echo "== round $round of $rounds: the trivial call over HTTP under load (${load_seconds} s a level)"
    load_round
    echo "== round $round of $rounds: notes-server and its twins over HTTP under load (${load_seconds} s a level)"
    notes_round
done
# Put the edited handler bodies back.
"$release/tooltable-bench" generate --repo "$repo" --out "$bench" --sizes "$sizes"

if [[ -n $report ]]; then
    benches/machine.sh > "$results/machine.txt"
    "$release/tooltable-bench" report --results "$results" --machine "$results/machine.txt" \
        --command "$invocation" --out "$report" --section peers
    echo "== rewrote the peers section of $report"
fi
