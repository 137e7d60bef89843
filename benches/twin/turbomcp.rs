//! notes-twin-turbomcp: notes-server's read tools served by turbomcp 3.6,
//! for the peers' load test (benches/peers.sh).
//!
//! `tooltable-bench generate` copies this file into the generated
//! workspace. Like the rmcp twin (twin.rs), it serves the read tools with
//! the very functions notes-server's tools are (`notes_server::notes::*`)
//! over the same SQLite `Store` (tools.rs, shared with the 4.0 twin). HTTP
//! is turbomcp's own axum router, served on the listener.
//!
//! Not expressed: a method parameter carries no schemars attributes, so
//! notes_search's `limit` and notes_watch's `seconds` lose their ranges, and
//! the schemas declare `additionalProperties: false`, which turbomcp adds to
//! every tool. The descriptions are notes-server's doc comments, copied.

mod cli;

mod tools;

use std::sync::Arc;
use tools::Twin;
use turbomcp::McpServerExt;

const USAGE: &str = "usage: notes-twin-turbomcp serve --db FILE --http ADDR";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (store, address) = cli::serve(&args, USAGE);
    cli::run(async move {
        let listener = cli::listen(address).await;
        let twin = Twin {
            store: Arc::new(store),
        };
        // With the peer address turbomcp's own runner supplies: without it
        // the router's origin check refuses a loopback client with 403.
        let app = twin
            .builder()
            .into_axum_router()
            .into_make_service_with_connect_info::<std::net::SocketAddr>();
        eprintln!("notes-twin-turbomcp: serving MCP over streamable HTTP at http://{address}/mcp");
        if let Err(e) = axum::serve(listener, app).await {
            cli::fail(&format!("the HTTP server stopped: {e}"));
        }
    });
}
