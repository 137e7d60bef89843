#!/usr/bin/env bash
# Cold builds: what a new user, or CI without a warm cache, pays before the
# first run. Builds a minimal server from an empty target directory,
# dependencies included, on tooltable and on rmcp, in turn, and the
# minimal tooltable server with each feature added, and records for each
# the wall time of `cargo build` and the number of crates compiled.
#
#   benches/cold.sh --results DIR [--rounds K | --round R] [--features] [--report FILE]
#
# Round R appends its measurements to DIR/runR.tsv (benches/run.sh passes
# its own round; alone, --rounds K runs rounds 1 to K). --features adds the
# feature builds to the first round run. --report FILE then rewrites the
# cold-build section of FILE (docs/benchmarks.md) from DIR's rounds.
#
# The servers (written under target/bench-cold/) are the README's kind:
# three read tools over a context, served on stdio (`tooltable::serve::stdio`
# against rmcp's `#[tool_router]` with `Parameters<T>` and schemars on
# `rmcp::transport::stdio()`), and the same over streamable HTTP
# (`Server::http` against rmcp's `StreamableHttpService` on hyper). Both
# sides use the workspace's Cargo.lock, so they compile the same versions;
# sources are fetched before any timing. Metrics:
#   cold/<stdio|http>/<tooltable|rmcp>          wall time, ns
#   cold/<stdio|http>/<tooltable|rmcp>/crates   packages compiled
#   cold/<stdio|http>/<tooltable|rmcp>/twice    libraries compiled more than once
#   cold-feature/<feature>[/crates]             the stdio server with the feature
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

results=""; first=1; last=1; features=0; report=""
while [[ $# -gt 0 ]]; do
    case $1 in
        --results) results=$2; shift 2 ;;
        --rounds) first=1; last=$2; shift 2 ;;
        --round) first=$2; last=$2; shift 2 ;;
        --features) features=1; shift ;;
        --report) report=$2; shift 2 ;;
        *) echo "usage: benches/cold.sh --results DIR [--rounds K | --round R] [--features] [--report FILE]" >&2; exit 2 ;;
    esac
done
[[ -n $results ]] || { echo "benches/cold.sh: --results DIR is required" >&2; exit 2; }
mkdir -p "$results"
results=$(cd "$results" && pwd)

root=$repo/target/bench-cold
rm -rf "$root"
mkdir -p "$root"
# The build scripts of the scratch crates write their tools.json there.
export TOOLTABLE_WRITE=always
unset CARGO_TARGET_DIR CARGO_INCREMENTAL RUSTC_WRAPPER

tools_rs() {
    cat <<'EOF'
use serde::{Deserialize, Serialize};
use tooltable::{ToolError, tool};

/// The notes a server keeps.
pub struct Store;

#[derive(Deserialize)]
pub struct SearchParams {
    /// Text to find in titles and bodies.
    pub query: String,
    /// The most notes to return.
    pub limit: Option<u32>,
}

#[derive(Serialize)]
pub struct Found {
    /// Titles of the matching notes.
    pub titles: Vec<String>,
}

#[derive(Deserialize)]
pub struct GetParams {
    /// The note's id.
    pub id: u64,
}

#[derive(Serialize)]
pub struct Note {
    /// The title.
    pub title: String,
    /// The body.
    pub body: String,
}

#[derive(Serialize)]
pub struct Count {
    /// How many notes there are.
    pub count: u64,
}

/// Search notes by text.
#[tool(tier = read, toolset = "notes", world = closed)]
pub fn notes_search(_store: &Store, params: SearchParams) -> Result<Found, ToolError> {
    let limit = params.limit.unwrap_or(10) as usize;
    Ok(Found { titles: vec![params.query; limit.min(1)] })
}

/// Get one note.
#[tool(tier = read, toolset = "notes", world = closed)]
pub fn notes_get(_store: &Store, params: GetParams) -> Result<Note, ToolError> {
    Ok(Note { title: params.id.to_string(), body: String::new() })
}

/// Count the notes.
#[tool(tier = read, toolset = "notes", world = closed)]
pub fn notes_count(_store: &Store) -> Result<Count, ToolError> {
    Ok(Count { count: 0 })
}
EOF
}

rmcp_tools_rs() {
    cat <<'EOF'
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::{ServerHandler, tool, tool_handler, tool_router};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Deserialize, JsonSchema)]
pub struct SearchParams {
    /// Text to find in titles and bodies.
    pub query: String,
    /// The most notes to return.
    pub limit: Option<u32>,
}

#[derive(Serialize, JsonSchema)]
pub struct Found {
    /// Titles of the matching notes.
    pub titles: Vec<String>,
}

#[derive(Deserialize, JsonSchema)]
pub struct GetParams {
    /// The note's id.
    pub id: u64,
}

#[derive(Serialize, JsonSchema)]
pub struct Note {
    /// The title.
    pub title: String,
    /// The body.
    pub body: String,
}

#[derive(Serialize, JsonSchema)]
pub struct Count {
    /// How many notes there are.
    pub count: u64,
}

/// The notes a server keeps.
#[derive(Clone)]
pub struct Store {
    tool_router: ToolRouter<Store>,
}

impl Default for Store {
    fn default() -> Store {
        Store { tool_router: Store::tool_router() }
    }
}

#[tool_router]
impl Store {
    /// Search notes by text.
    #[tool(annotations(read_only_hint = true, open_world_hint = false))]
    fn notes_search(&self, Parameters(p): Parameters<SearchParams>) -> Result<Json<Found>, String> {
        let limit = p.limit.unwrap_or(10) as usize;
        Ok(Json(Found { titles: vec![p.query; limit.min(1)] }))
    }

    /// Get one note.
    #[tool(annotations(read_only_hint = true, open_world_hint = false))]
    fn notes_get(&self, Parameters(p): Parameters<GetParams>) -> Result<Json<Note>, String> {
        Ok(Json(Note { title: p.id.to_string(), body: String::new() }))
    }

    /// Count the notes.
    #[tool(annotations(read_only_hint = true, open_world_hint = false))]
    fn notes_count(&self) -> Result<Json<Count>, String> {
        Ok(Json(Count { count: 0 }))
    }
}

#[tool_handler]
impl ServerHandler for Store {}
EOF
}

# tooltable_crate DIR TRANSPORT FEATURES
tooltable_crate() {
    local dir=$1 transport=$2 features=$3
    mkdir -p "$dir/src"
    cat > "$dir/Cargo.toml" <<EOF
[package]
name = "cold-tooltable"
version = "0.1.0"
edition = "2024"

[workspace]

[dependencies]
tooltable = { path = "$repo", features = [$features] }
serde = { version = "1", features = ["derive"] }
tokio = { version = "1", features = ["macros", "rt-multi-thread"] }

[build-dependencies]
tooltable-codegen = { path = "$repo/codegen" }

# tooltable's crates are built as cargo builds a dependency from crates.io:
# not incrementally, as it builds every path dependency (which costs a cold
# build more, for caches no later build of a dependency reads).
[profile.dev.package.tooltable]
incremental = false
[profile.dev.package.tooltable-runtime]
incremental = false
[profile.dev.package.tooltable-rules]
incremental = false
[profile.dev.package.tooltable-codegen]
incremental = false
[profile.dev.package.tooltable-macros]
incremental = false
EOF
    printf 'fn main() {\n    tooltable_codegen::build();\n}\n' > "$dir/build.rs"
    printf 'mod notes;\npub use notes::Store;\n\ntooltable::include_table!();\n' > "$dir/src/lib.rs"
    tools_rs > "$dir/src/notes.rs"
    if [[ $transport == stdio ]]; then
        cat > "$dir/src/main.rs" <<'EOF'
use tooltable::Registry;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    tooltable::serve::stdio(Registry::new(&cold_tooltable::TOOLS), cold_tooltable::Store).await?;
    Ok(())
}
EOF
    else
        cat > "$dir/src/main.rs" <<'EOF'
use tooltable::Registry;
use tooltable::serve::Server;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let server = Server::new(Registry::new(&cold_tooltable::TOOLS), cold_tooltable::Store);
    server.http("127.0.0.1:8080".parse()?).await?;
    Ok(())
}
EOF
    fi
    cp "$repo/Cargo.lock" "$dir/Cargo.lock"
}

# rmcp_crate DIR TRANSPORT
rmcp_crate() {
    local dir=$1 transport=$2 deps
    mkdir -p "$dir/src"
    if [[ $transport == stdio ]]; then
        deps='rmcp = { version = "3.11", features = ["server", "macros", "transport-io"] }'
    else
        deps='rmcp = { version = "3.11", features = ["server", "macros", "transport-streamable-http-server"] }
hyper = { version = "1", features = ["server", "http1"] }
hyper-util = { version = "0.1", features = ["tokio", "service"] }
tokio = { version = "1", features = ["macros", "rt-multi-thread", "net"] }'
    fi
    cat > "$dir/Cargo.toml" <<EOF
[package]
name = "cold-rmcp"
version = "0.1.0"
edition = "2024"

[workspace]

[dependencies]
$deps
serde = { version = "1", features = ["derive"] }
schemars = "1"
EOF
    [[ $transport == stdio ]] && echo 'tokio = { version = "1", features = ["macros", "rt-multi-thread"] }' >> "$dir/Cargo.toml"
    { rmcp_tools_rs; echo; } > "$dir/src/lib.rs"
    if [[ $transport == stdio ]]; then
        cat > "$dir/src/main.rs" <<'EOF'
use rmcp::ServiceExt;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let running = cold_rmcp::Store::default().serve(rmcp::transport::stdio()).await?;
    running.waiting().await?;
    Ok(())
}
EOF
    else
        cat > "$dir/src/main.rs" <<'EOF'
use hyper::server::conn::http1;
use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use std::sync::Arc;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let service = StreamableHttpService::new(
        || Ok(cold_rmcp::Store::default()),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
    loop {
        let (stream, _) = listener.accept().await?;
        let service = TowerToHyperService::new(service.clone());
        tokio::spawn(async move {
            let _ = http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}
EOF
    fi
    cp "$repo/Cargo.lock" "$dir/Cargo.lock"
}

record() { printf '%s\t%s\n' "$1" "$2" | tee -a "$results/run$round.tsv"; }

# cold METRIC DIR: a cargo build from an empty target directory.
cold() {
    local metric=$1 dir=$2 log start end
    log=$dir/build.log
    rm -rf "$dir/target"
    start=$(date +%s%N)
    # Verbose only to see every rustc run: cargo prints one `Compiling`
    # line per package however many times it compiles it.
    (cd "$dir" && cargo build -v 2> "$log") || { cat "$log" >&2; echo "benches/cold.sh: building $dir failed" >&2; exit 1; }
    end=$(date +%s%N)
    record "$metric" $(( end - start ))
    record "$metric/crates" "$(grep -c '^ *Compiling ' "$log")"
    # A library compiled for the build scripts and again for the program
    # (their features differ), or at two major versions, is two rustc runs
    # of the same crate name; the list is kept beside the crate.
    grep -o 'Running `[^`]*' "$log" | grep -- '--crate-type \(lib\|proc-macro\)' \
        | grep -o -- '--crate-name [A-Za-z0-9_]*' | awk '{ print $2 }' | sort | uniq -d > "$dir/twice.txt"
    record "$metric/twice" "$(wc -l < "$dir/twice.txt")"
}

for transport in stdio http; do
    facade='"serve"'; [[ $transport == http ]] && facade='"http"'
    tooltable_crate "$root/$transport-tooltable" "$transport" "$facade"
    rmcp_crate "$root/$transport-rmcp" "$transport"
done
for feature in validate http auth redis anyhow; do
    tooltable_crate "$root/feature-$feature" stdio "\"$feature\""
done
echo "== fetching sources"
for dir in "$root"/*/; do (cd "$dir" && cargo fetch -q); done

for round in $(seq "$first" "$last"); do
    for transport in stdio http; do
        # In turn, so that load from elsewhere hits both sides alike.
        for side in tooltable rmcp; do
            echo "== round $round: cold build, $transport, $side"
            cold "cold/$transport/$side" "$root/$transport-$side"
        done
    done
    if [[ $features == 1 ]]; then
        for feature in validate http auth redis anyhow; do
            echo "== round $round: cold build, stdio with $feature"
            cold "cold-feature/$feature" "$root/feature-$feature"
        done
        features=0
    fi
done
for side in tooltable rmcp; do
    for transport in stdio http; do
        echo "compiled twice, $transport, $side: $(tr '\n' ' ' < "$root/$transport-$side/twice.txt")"
    done
done
if [[ -n $report ]]; then
    cargo run -q --release -p tooltable-bench -- report --results "$results" \
        --machine /dev/null --command "benches/cold.sh --results DIR --rounds $last --features" \
        --out "$report" --section cold
    echo "== rewrote the cold-build section of $report"
fi
