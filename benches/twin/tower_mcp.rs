//! notes-twin-tower-mcp: notes-server's read tools served by tower-mcp 0.25,
//! for the peers' load test (benches/peers.sh).
//!
//! `tooltable-bench generate` copies this file into the generated
//! workspace. Like the rmcp twin (twin.rs), it serves the read tools with
//! the very functions notes-server's tools are (`notes_server::notes::*`)
//! over the same SQLite `Store`, written as tower-mcp's documentation writes
//! a server with shared state: a `ToolBuilder` per tool, its handler an
//! `extractor_handler` taking `State<Arc<Store>>` and `Json<Params>`, the
//! output schema from `output_schema_for`, the description the one
//! notes-server's build baked; HTTP is `HttpTransport` as an axum router at
//! `/mcp`.
//!
//! Not expressed: the schemas' `format` and range keywords come from
//! schemars as tower-mcp derives them, not from tooltable's lowering, and
//! notes_search's icon and the tools' `toolset` metadata are not set.

mod cli;

use notes_server::notes::{
    self, ExportParams, GetParams, Note, SearchParams, SearchResults, Stats, WatchParams, Watched,
};
use notes_server::{Store, TOOLS};
use serde::Serialize;
use std::sync::Arc;
use tooltable::{Call, ToolError};
use tower_mcp::extract::{Json, State};
use tower_mcp::{CallToolResult, HttpTransport, McpRouter, ToolAnnotations, ToolBuilder};

const USAGE: &str = "usage: notes-twin-tower-mcp serve --db FILE --http ADDR";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (store, address) = cli::serve(&args, USAGE);
    cli::run(async move {
        let listener = cli::listen(address).await;
        let app = HttpTransport::new(router(Arc::new(store))).into_router_at("/mcp");
        eprintln!("notes-twin-tower-mcp: serving MCP over streamable HTTP at http://{address}/mcp");
        if let Err(e) = axum::serve(listener, app).await {
            cli::fail(&format!("the HTTP server stopped: {e}"));
        }
    });
}

/// A tool's builder with the description and the hints notes-server gives it.
fn read_tool(name: &str) -> ToolBuilder {
    let description = TOOLS
        .get(name)
        .and_then(|tool| tool.descriptor()["description"].as_str().map(str::to_owned))
        .unwrap_or_else(|| cli::fail(&format!("notes-server has no tool {name}")));
    ToolBuilder::new(name)
        .description(description)
        .annotations(ToolAnnotations {
            title: None,
            read_only_hint: true,
            destructive_hint: false,
            idempotent_hint: true,
            open_world_hint: false,
        })
}

/// A handler's outcome as tower-mcp's documentation returns one: the value
/// serialised as structured content, a tool error as an error result.
fn answer<T: Serialize>(outcome: Result<T, ToolError>) -> tower_mcp::Result<CallToolResult> {
    match outcome {
        Ok(value) => CallToolResult::from_serialize(&value),
        Err(error) => Ok(CallToolResult::error(error.to_string())),
    }
}

/// The server: notes-server's five read tools on one router.
fn router(store: Arc<Store>) -> McpRouter {
    let get = read_tool("notes_get")
        .output_schema_for::<Note>()
        .extractor_handler(
            store.clone(),
            |State(store): State<Arc<Store>>, Json(params): Json<GetParams>| async move {
                answer(notes::notes_get(&store, params))
            },
        )
        .build();
    let search = read_tool("notes_search")
        .output_schema_for::<SearchResults>()
        .extractor_handler(
            store.clone(),
            |State(store): State<Arc<Store>>, Json(params): Json<SearchParams>| async move {
                answer(notes::notes_search(&store, params))
            },
        )
        .build();
    let export = read_tool("notes_export")
        .extractor_handler(
            store.clone(),
            |State(store): State<Arc<Store>>, Json(params): Json<ExportParams>| async move {
                match notes::notes_export(&store, params, &Call::detached()).await {
                    Ok(text) => Ok(CallToolResult::text(text)),
                    Err(error) => Ok(CallToolResult::error(error.to_string())),
                }
            },
        )
        .build();
    let watch = read_tool("notes_watch")
        .output_schema_for::<Watched>()
        .extractor_handler(
            store.clone(),
            |State(store): State<Arc<Store>>, Json(params): Json<WatchParams>| async move {
                answer(notes::notes_watch(&store, params, &Call::detached()).await)
            },
        )
        .build();
    let stats = read_tool("notes_stats")
        .output_schema_for::<Stats>()
        .extractor_handler(store, |State(store): State<Arc<Store>>| async move {
            answer(notes::notes_stats(&store))
        })
        .build();
    McpRouter::new()
        .server_info("notes-twin-tower-mcp", "0.1.0")
        .tool(get)
        .tool(search)
        .tool(export)
        .tool(watch)
        .tool(stats)
}
