//! notes-twin: notes-server's read tools served by rmcp alone, for the load
//! test (benches/load.sh).
//!
//! `tooltable-bench generate` copies this file into
//! target/bench-crates/notes_twin. The twin serves what `notes-server serve`
//! serves by default (the `read` tools), with rmcp's own parts only: a
//! `ToolRouter` of `ToolRoute::new_dyn` routes built once and stored in the
//! server, each route's `Tool` parsed from the descriptor notes-server's
//! build baked (so both list the same bytes' worth of tools), and handlers
//! that deserialise their arguments with serde and call the very functions
//! notes-server's tools are (`notes_server::notes::*`) over the same SQLite
//! `Store`. It is served by rmcp's `StreamableHttpService` on hyper with the
//! settings tooltable's HTTP transport gives the same service, so a
//! 2026-07-28 request is served statelessly, as notes-server serves it.
//!
//! - `notes-twin serve --db FILE --http ADDR` serves until killed.
//! - `notes-twin seed --db FILE --notes K` adds K notes with
//!   `Store::create`, the function `notes_create` calls.

mod cli;
mod rmcp_http;

use cli::fail;

use notes_server::notes::{self, ExportParams, GetParams, SearchParams, WatchParams};
use notes_server::{Store, TOOLS};
use rmcp::handler::server::router::tool::{ToolRoute, ToolRouter};
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock, Tool};
use rmcp::{ErrorData, ServerHandler, tool_handler};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::future::Future;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::Arc;
use tooltable::{Call, Tier, ToolError};

/// The server: the store, and the router built once.
#[derive(Clone)]
struct Twin {
    store: Arc<Store>,
    tool_router: ToolRouter<Twin>,
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Twin {}

type Answer<'a> = Pin<Box<dyn Future<Output = Result<CallToolResponse, ErrorData>> + Send + 'a>>;
type Route = for<'a> fn(ToolCallContext<'a, Twin>) -> Answer<'a>;

/// A route per read tool of notes-server's table, with its baked descriptor.
fn router() -> ToolRouter<Twin> {
    let mut router = ToolRouter::new();
    for tool in TOOLS.tools() {
        if tool.info().tier != Tier::Read {
            continue;
        }
        let handler: Route = match tool.name() {
            "notes_get" => get,
            "notes_search" => search,
            "notes_export" => export,
            "notes_watch" => watch,
            "notes_stats" => stats,
            other => fail(&format!(
                "notes-server has a read tool the twin does not know: {other}"
            )),
        };
        let attr: Tool = serde_json::from_str(tool.descriptor_json()).unwrap_or_else(|e| {
            fail(&format!(
                "the descriptor of {} is not an rmcp Tool: {e}",
                tool.name()
            ))
        });
        router.add_route(ToolRoute::new_dyn(attr, handler));
    }
    router
}

/// The arguments, deserialised as rmcp's `Parameters<T>` does.
fn arguments<T: DeserializeOwned>(context: &ToolCallContext<'_, Twin>) -> Result<T, ErrorData> {
    let arguments = context.arguments.clone().unwrap_or_default();
    serde_json::from_value(serde_json::Value::Object(arguments)).map_err(|e| {
        ErrorData::invalid_params(format!("failed to deserialize parameters: {e}"), None)
    })
}

/// A handler's outcome as rmcp's `Json<T>` and `Result<_, String>` make it.
fn structured<T: Serialize>(outcome: Result<T, ToolError>) -> Result<CallToolResponse, ErrorData> {
    match outcome {
        Ok(value) => {
            let value = serde_json::to_value(value)
                .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
            Ok(CallToolResult::structured(value).into())
        }
        Err(error) => Ok(CallToolResult::error(vec![ContentBlock::text(error.to_string())]).into()),
    }
}

fn get(context: ToolCallContext<'_, Twin>) -> Answer<'_> {
    Box::pin(async move {
        let params: GetParams = arguments(&context)?;
        structured(notes::notes_get(&context.service.store, params))
    })
}

fn search(context: ToolCallContext<'_, Twin>) -> Answer<'_> {
    Box::pin(async move {
        let params: SearchParams = arguments(&context)?;
        structured(notes::notes_search(&context.service.store, params))
    })
}

fn export(context: ToolCallContext<'_, Twin>) -> Answer<'_> {
    Box::pin(async move {
        let params: ExportParams = arguments(&context)?;
        let call = Call::detached();
        Ok(
            match notes::notes_export(&context.service.store, params, &call).await {
                Ok(text) => CallToolResult::success(vec![ContentBlock::text(text)]),
                Err(error) => CallToolResult::error(vec![ContentBlock::text(error.to_string())]),
            }
            .into(),
        )
    })
}

fn watch(context: ToolCallContext<'_, Twin>) -> Answer<'_> {
    Box::pin(async move {
        let params: WatchParams = arguments(&context)?;
        let call = Call::detached();
        structured(notes::notes_watch(&context.service.store, params, &call).await)
    })
}

fn stats(context: ToolCallContext<'_, Twin>) -> Answer<'_> {
    Box::pin(async move { structured(notes::notes_stats(&context.service.store)) })
}

const USAGE: &str =
    "usage: notes-twin serve --db FILE --http ADDR\n       notes-twin seed --db FILE --notes K";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("seed") {
        let db = PathBuf::from(cli::option(&args, "--db", USAGE));
        let count: usize = cli::option(&args, "--notes", USAGE)
            .parse()
            .unwrap_or_else(|_| fail("--notes takes a number"));
        seed(&db, count);
        return;
    }
    let (store, address) = cli::serve(&args, USAGE);
    cli::run(serve(Arc::new(store), address));
}

/// Adds `count` notes, a few tagged, through `Store::create`.
fn seed(db: &std::path::Path, count: usize) {
    let store =
        Store::open(db).unwrap_or_else(|e| fail(&format!("cannot open {}: {e}", db.display())));
    for i in 1..=count {
        let tags = if i % 3 == 0 {
            vec!["bench".to_owned(), "third".to_owned()]
        } else {
            vec!["bench".to_owned()]
        };
        let body = format!(
            "Note {i} of the load test. Milk, eggs and bread; call the plumber about the kitchen tap before Friday."
        );
        if let Err(e) = store.create(&format!("Note {i}"), &body, &tags) {
            fail(&format!("cannot add a note: {e}"));
        }
    }
    if let Err(e) = store.checkpoint() {
        fail(&format!("cannot checkpoint {}: {e}", db.display()));
    }
}

/// Serves the twin over streamable HTTP at `address`, as the harness
/// serves rmcp's side ([`rmcp_http`]).
async fn serve(store: Arc<Store>, address: SocketAddr) {
    let listener = cli::listen(address).await;
    let twin = Twin {
        store,
        tool_router: router(),
    };
    eprintln!("notes-twin: serving MCP over streamable HTTP at http://{address}/mcp");
    rmcp_http::serve(listener, twin).await;
}
