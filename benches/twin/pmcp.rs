//! notes-twin-pmcp: notes-server's read tools served by pmcp 2.23, for the
//! peers' load test (benches/peers.sh).
//!
//! `tooltable-bench generate` copies this file into the generated
//! workspace. Like the rmcp twin (twin.rs), it serves the read tools with
//! the very functions notes-server's tools are (`notes_server::notes::*`)
//! over the same SQLite `Store`, written as pmcp's README and its
//! `s23_mcp_tool_macro` example write a server: one `#[mcp_server]` impl
//! block whose `#[mcp_tool(annotations(...))]` methods take notes-server's
//! parameter types (their schemas derived by schemars) and whose doc
//! comments are the descriptions, registered with
//! `ServerBuilder::mcp_server`; HTTP is `pmcp::axum::concurrent_router`,
//! the router pmcp's documentation recommends, nested at `/mcp`.
//!
//! Not expressed: notes_search's icon and the tools' `toolset` metadata.
//! The descriptions are notes-server's doc comments, copied.

mod cli;

use notes_server::Store;
use notes_server::notes::{
    self, ExportParams, GetParams, Note, SearchParams, SearchResults, Stats, WatchParams, Watched,
};
use pmcp::{ServerBuilder, ServerCapabilities, mcp_server};
use serde_json::{Value, json};
use std::sync::Arc;
use tooltable::{Call, ToolError};

const USAGE: &str = "usage: notes-twin-pmcp serve --db FILE --http ADDR";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (store, address) = cli::serve(&args, USAGE);
    let server = ServerBuilder::new()
        .name("notes-twin-pmcp")
        .version("0.1.0")
        .capabilities(ServerCapabilities::tools_only())
        .mcp_server(Twin {
            store: Arc::new(store),
        })
        .build()
        .unwrap_or_else(|e| cli::fail(&format!("cannot build the server: {e}")));
    cli::run(async move {
        let listener = cli::listen(address).await;
        let app = axum::Router::new().nest("/mcp", pmcp::axum::concurrent_router(Arc::new(server)));
        eprintln!("notes-twin-pmcp: serving MCP over streamable HTTP at http://{address}/mcp");
        if let Err(e) = axum::serve(listener, app).await {
            cli::fail(&format!("the HTTP server stopped: {e}"));
        }
    });
}

/// The server: the store, shared by every call.
#[derive(Clone)]
struct Twin {
    store: Arc<Store>,
}

/// A tool error as pmcp's documentation reports one the model should see:
/// an `isError` result, not a protocol error.
fn rejected(error: ToolError) -> pmcp::Error {
    pmcp::Error::tool_rejected(error.to_string(), None)
}

#[mcp_server]
impl Twin {
    /// Get a note by its id.
    #[mcp_tool(annotations(
        read_only = true,
        destructive = false,
        idempotent = true,
        open_world = false
    ))]
    fn notes_get(&self, params: GetParams) -> pmcp::Result<Note> {
        notes::notes_get(&self.store, params).map_err(rejected)
    }

    /// Search notes by text.
    ///
    /// Matches titles and bodies, case-insensitively, optionally within one tag;
    /// newest first. Returns at most `limit` notes and the total number of matches.
    #[mcp_tool(annotations(
        read_only = true,
        destructive = false,
        idempotent = true,
        open_world = false
    ))]
    fn notes_search(&self, params: SearchParams) -> pmcp::Result<SearchResults> {
        notes::notes_search(&self.store, params).map_err(rejected)
    }

    /// Export notes as Markdown.
    ///
    /// Every note (or every note with a tag), newest first, as a Markdown
    /// section. Reports progress note by note and logs what it exported; stops
    /// when the call is cancelled. May run as a task.
    #[mcp_tool(annotations(
        read_only = true,
        destructive = false,
        idempotent = true,
        open_world = false
    ))]
    async fn notes_export(&self, params: ExportParams) -> pmcp::Result<Value> {
        let text = notes::notes_export(&self.store, params, &Call::detached())
            .await
            .map_err(rejected)?;
        Ok(json!(text))
    }

    /// Wait for the next note created or changed.
    ///
    /// Returns that note, or none when nothing changed within the time given.
    /// Stops at once when the call is cancelled. May run as a task.
    #[mcp_tool(annotations(
        read_only = true,
        destructive = false,
        idempotent = true,
        open_world = false
    ))]
    async fn notes_watch(&self, params: WatchParams) -> pmcp::Result<Watched> {
        notes::notes_watch(&self.store, params, &Call::detached())
            .await
            .map_err(rejected)
    }

    /// Count the notes, and the calls watching for changes.
    #[mcp_tool(annotations(
        read_only = true,
        destructive = false,
        idempotent = true,
        open_world = false
    ))]
    fn notes_stats(&self) -> pmcp::Result<Stats> {
        notes::notes_stats(&self.store).map_err(rejected)
    }
}
