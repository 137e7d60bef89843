#!/usr/bin/env bash
# The load test of docs/benchmarks.md: notes-server (examples/notes-server)
# against its rmcp twin (benches/twin: the same read tools, the same
# handlers and SQLite store, served by rmcp's router and its streamable HTTP
# service), both over HTTP on loopback, driven by wrk.
#
#   benches/load.sh [--quick] [--out FILE] [--duration SECONDS] [--soak SECONDS]
#
# For `tools/call` of a read tool (notes_get, a row read from SQLite), of a
# trivial read tool (notes_stats, two counts) and for `tools/list`, at 1, 16
# and 64 connections, each server in turn: requests per second, p50 and p99
# latency, and errors (socket errors, non-2xx answers, and answers that are
# JSON-RPC errors or tool errors), read by the Lua script's `done` hook.
# Then both servers are soaked (16 connections, calls and listings
# alternating) and their resident memory (VmRSS) is read at start, after the
# levels above and after the soak. Requests are 2026-07-28 stateless POSTs.
#
# Defaults: 8 s per level and a 300 s soak; --quick: 1 s and 3 s; --soak 0
# leaves the soak out. Appends
# `metric<TAB>value` lines to FILE (default: standard output only). Builds
# notes-server and the twin (release) in the generated workspace under
# target/bench-crates, generating it first if benches/run.sh has not, and
# installs wrk (Debian package) if it is missing; checks the servers' first
# answers with curl and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

duration=8
soak=300
out=/dev/null
while (($#)); do
    case $1 in
        --quick) duration=1; soak=3 ;;
        --out) out=$2; shift ;;
        --duration) duration=$2; shift ;;
        --soak) soak=$2; shift ;;
        *) echo "usage: benches/load.sh [--quick] [--out FILE] [--duration SECONDS] [--soak SECONDS]" >&2; exit 2 ;;
    esac
    shift
done

source benches/wrk/lib.sh
ensure_wrk benches/load.sh

bench=$repo/target/bench-crates
export CARGO_TARGET_DIR=$bench/target
release=$CARGO_TARGET_DIR/release
if [[ ! -f $bench/notes_twin/Cargo.toml ]]; then
    echo "== generating the benchmark workspace (N = 10) into $bench"
    cargo build --release -q -p tooltable-bench --bin tooltable-bench
    "$release/tooltable-bench" generate --repo "$repo" --out "$bench" --sizes 10
fi
echo "== building notes-server and its rmcp twin (release)"
(cd "$bench" && cargo build --release -q -p notes-server -p notes_twin)

scratch=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$scratch"
}
trap cleanup EXIT

record() { printf '%s\t%s\n' "$1" "$2" | tee -a "$out"; }
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# Two copies of one seeded database, one per server.
"$release/notes-twin" seed --db "$scratch/seed.db" --notes 100
cp "$scratch/seed.db" "$scratch/tooltable.db"
cp "$scratch/seed.db" "$scratch/rmcp.db"

declare -A url pid
port=$(free_port)
"$release/notes-server" serve --db "$scratch/tooltable.db" --http "127.0.0.1:$port" 2> "$scratch/tooltable.log" &
pids+=($!); pid[tooltable]=$!; url[tooltable]=http://127.0.0.1:$port/mcp
port=$(free_port)
"$release/notes-twin" serve --db "$scratch/rmcp.db" --http "127.0.0.1:$port" 2> "$scratch/rmcp.log" &
pids+=($!); pid[rmcp]=$!; url[rmcp]=http://127.0.0.1:$port/mcp
sides=(tooltable rmcp)

meta='"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"tooltable-bench","version":"0"},"io.modelcontextprotocol/clientCapabilities":{}}'
list_body='{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{'$meta'}}'
call_body='{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"notes_get","arguments":{"id":7},'$meta'}}'
stats_body='{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"notes_stats","arguments":{},'$meta'}}'

# One request with curl, its reply checked: a listing of the five read
# tools, notes_get's note, or notes_stats's counts. Fails loudly otherwise.
check() {
    local side=$1 kind=$2 body reply method=tools/call
    [[ $kind == list ]] && method=tools/list
    local headers=(-H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream'
        -H 'MCP-Protocol-Version: 2026-07-28' -H "Mcp-Method: $method")
    case $kind in
        list) body=$list_body ;;
        call) body=$call_body; headers+=(-H 'Mcp-Name: notes_get') ;;
        stats) body=$stats_body; headers+=(-H 'Mcp-Name: notes_stats') ;;
    esac
    reply=$(curl -sS --max-time 10 "${url[$side]}" "${headers[@]}" --data "$body") || { cat "$scratch/$side.log" >&2; echo "benches/load.sh: $side did not answer tools/$kind" >&2; exit 1; }
    KIND=$kind python3 -c '
import json, os, sys
text = sys.stdin.read()
data = [l[5:].strip() for l in text.splitlines() if l.startswith("data:")]
message = json.loads(data[-1] if data else text)
result = message.get("result") or {}
structured = result.get("structuredContent") or {}
if os.environ["KIND"] == "list":
    names = sorted(t["name"] for t in result.get("tools", []))
    ok = names == ["notes_export", "notes_get", "notes_search", "notes_stats", "notes_watch"]
elif os.environ["KIND"] == "stats":
    ok = not result.get("isError") and structured.get("notes") == 100
else:
    ok = not result.get("isError") and structured.get("id") == 7
sys.exit(0 if ok else 1)
' <<< "$reply" || { echo "benches/load.sh: $side answered tools/$kind with something else: ${reply:0:400}" >&2; exit 1; }
}

for side in "${sides[@]}"; do
    for _ in $(seq 100); do
        curl -s -o /dev/null "${url[$side]}" && break
        kill -0 "${pid[$side]}" 2>/dev/null || { cat "$scratch/$side.log" >&2; echo "benches/load.sh: $side stopped" >&2; exit 1; }
        sleep 0.1
    done
    check "$side" list
    check "$side" call
    check "$side" stats
    record "rss/notes-$side/start" "$(rss_of "${pid[$side]}")"
done

# The wrk script: a fixed POST (or calls and listings in turn, for the
# soak); benches/wrk/figures.lua counts the errors and prints the figures.
lua() {
    local kind=$1 name="" method=tools/call
    case $kind in
        list) method=tools/list ;;
        stats) name='wrk.headers["Mcp-Name"] = "notes_stats"' ;;
        *) name='wrk.headers["Mcp-Name"] = "notes_get"' ;;
    esac
    cat <<EOF
local list = [[$list_body]]
local call = [[$call_body]]
local stats = [[$stats_body]]
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
wrk.headers["MCP-Protocol-Version"] = "2026-07-28"
wrk.headers["Mcp-Method"] = "$method"
$name
wrk.body = ${kind/soak/call}
EOF
    if [[ $kind == soak ]]; then
        cat <<'EOF'
local requests = {}
local function headers(method, name)
    return {
        ["Content-Type"] = "application/json",
        ["Accept"] = "application/json, text/event-stream",
        ["MCP-Protocol-Version"] = "2026-07-28",
        ["Mcp-Method"] = method,
        ["Mcp-Name"] = name,
    }
end
function init(args)
    rpc_errors = 0
    requests[1] = wrk.format("POST", nil, headers("tools/call", "notes_get"), call)
    requests[2] = wrk.format("POST", nil, headers("tools/list", nil), list)
    turn = 0
end
function request()
    turn = 3 - (turn == 0 and 2 or turn)
    return requests[turn]
end
EOF
    else
        echo 'function init(args) rpc_errors = 0 end'
    fi
    echo "dofile(\"$repo/benches/wrk/figures.lua\")"
}
for kind in call stats list soak; do lua "$kind" > "$scratch/$kind.lua"; done

# Runs wrk and records its figures under PREFIX/NAME.
load() {
    local prefix=$1 side=$2 kind=$3 connections=$4 seconds=$5 threads=2
    ((connections < threads)) && threads=$connections
    wrk -t "$threads" -c "$connections" -d "${seconds}s" --timeout 10s -s "$scratch/$kind.lua" "${url[$side]}" \
        > "$scratch/wrk.out" 2>&1 || { cat "$scratch/wrk.out" >&2; echo "benches/load.sh: wrk failed against $side" >&2; exit 1; }
    [[ -z $prefix ]] && return
    grep -q '^errors' "$scratch/wrk.out" || { cat "$scratch/wrk.out" >&2; echo "benches/load.sh: wrk printed no figures" >&2; exit 1; }
    while IFS=$'\t' read -r name value; do
        [[ $name == requests ]] && continue
        record "$prefix/$side/$name" "$value"
    done < <(grep -E $'^(rps|p50|p99|errors|requests)\t' "$scratch/wrk.out")
}

echo "== warm-up"
for side in "${sides[@]}"; do load "" "$side" soak 16 "$duration"; done

for kind in call stats list; do
    for connections in 1 16 64; do
        echo "== $kind, $connections connections, ${duration} s each"
        # The servers take turns, so load from other processes hits both.
        for side in "${sides[@]}"; do
            load "load-$kind/$connections" "$side" "$kind" "$connections" "$duration"
        done
    done
done
for side in "${sides[@]}"; do
    record "rss/notes-$side/loaded" "$(rss_of "${pid[$side]}")"
done

if ((soak == 0)); then
    exit 0
fi
echo "== soak: ${soak} s, both servers at once, calls and listings in turn"
soakers=()
for side in "${sides[@]}"; do
    (
        wrk -t 1 -c 16 -d "${soak}s" --timeout 10s -s "$scratch/soak.lua" "${url[$side]}" > "$scratch/soak-$side.out" 2>&1
    ) &
    soakers+=($!)
done
for soaker in "${soakers[@]}"; do wait "$soaker"; done
for side in "${sides[@]}"; do
    grep -q '^errors' "$scratch/soak-$side.out" || { cat "$scratch/soak-$side.out" >&2; echo "benches/load.sh: the soak of $side printed no figures" >&2; exit 1; }
    record "load-soak/16/$side/errors" "$(awk -F'\t' '$1 == "errors" { print $2 }' "$scratch/soak-$side.out")"
    record "load-soak/16/$side/rps" "$(awk -F'\t' '$1 == "rps" { print $2 }' "$scratch/soak-$side.out")"
    record "rss/notes-$side/soak" "$(rss_of "${pid[$side]}")"
    kill -0 "${pid[$side]}" 2>/dev/null || { cat "$scratch/$side.log" >&2; echo "benches/load.sh: $side stopped during the soak" >&2; exit 1; }
done
record "load-soak/seconds" "$soak"
