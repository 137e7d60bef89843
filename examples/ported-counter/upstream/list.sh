#!/usr/bin/env bash
# Builds rmcp's counter server (counter.rs, verbatim) against rmcp 3.11 in a
# scratch crate and writes the tools it lists to tools-list.json.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
scratch="$root/target/ported-counter-upstream"
rm -rf "$scratch"
mkdir -p "$scratch/src"
cat > "$scratch/Cargo.toml" <<'TOML'
[package]
name = "upstream-counter"
version = "0.1.0"
edition = "2024"
publish = false

[workspace]

[dependencies]
rmcp = { version = "=3.11.0", default-features = false, features = ["server", "macros"] }
tokio = { version = "1", features = ["sync", "time"] }
serde = { version = "1", features = ["derive"] }
serde_json = "1"
schemars = "1"
axum = { version = "0.8", default-features = false }
tracing = "0.1"
TOML
cp "$here/counter.rs" "$scratch/src/counter.rs"
# The listing, as the server's `tools/list` gives it: the router's tools.
cat >> "$scratch/src/counter.rs" <<'RS'

pub fn listing() -> Vec<Tool> {
    Counter::tool_router().list_all()
}
RS
cat > "$scratch/src/main.rs" <<'RS'
mod counter;

fn main() {
    let mut tools = counter::listing();
    tools.sort_by(|a, b| a.name.cmp(&b.name));
    println!("{}", serde_json::to_string_pretty(&tools).unwrap());
}
RS
cp "$root/Cargo.lock" "$scratch/Cargo.lock"
cargo run --quiet --offline --manifest-path "$scratch/Cargo.toml" > "$here/tools-list.json"
echo "wrote $here/tools-list.json"
