//! notes-twin-turbomcp-4: notes-server's read tools served by turbomcp 4.0.0-alpha.5,
//! for the peers' load test (benches/peers.sh).
//!
//! `tooltable-bench generate` copies this file into the generated
//! workspace. Like the rmcp twin (twin.rs), it serves the read tools with
//! the very functions notes-server's tools are (`notes_server::notes::*`)
//! over the same SQLite `Store` (tools.rs, shared with the 3.6 twin). HTTP
//! is `turbomcp::http::router` on the dispatcher `into_server().build()`
//! makes, with the configuration its own runner takes by default, served on
//! the listener.
//!
//! Not expressed: a method parameter carries no schemars attributes, so
//! notes_search's `limit` and notes_watch's `seconds` lose their ranges, and
//! the schemas declare `additionalProperties: false`, which turbomcp adds to
//! every tool. The descriptions are notes-server's doc comments, copied.

mod cli;

mod tools;

use std::sync::Arc;
use tools::Twin;
use turbomcp::http::{HttpConfig, router};

const USAGE: &str = "usage: notes-twin-turbomcp-4 serve --db FILE --http ADDR";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (store, address) = cli::serve(&args, USAGE);
    cli::run(async move {
        let listener = cli::listen(address).await;
        let twin = Twin {
            store: Arc::new(store),
        };
        let app = router(twin.into_server().build(), HttpConfig::new());
        eprintln!("notes-twin-turbomcp-4: serving MCP over streamable HTTP at http://{address}/mcp");
        if let Err(e) = axum::serve(listener, app).await {
            cli::fail(&format!("the HTTP server stopped: {e}"));
        }
    });
}
