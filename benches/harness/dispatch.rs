//! `tools/call` in process: from a request to a result, no transport.
//!
//! Both servers get the same `CallToolRequestParams` and a fresh
//! `RequestContext` per call, as rmcp's service gives them, and answer
//! through `ServerHandler::call_tool`: tooltable's adapter (registry lookup,
//! policy, argument deserialisation, handler, conversion to rmcp's result)
//! against rmcp's router (hash lookup, argument deserialisation, handler),
//! stored or rebuilt per request. `Registry::call` alone shows tooltable's
//! own share. Two tools: the trivial echo with one small string, and a
//! regular tool whose arguments use every kind of field.

use crate::connect::connect;
use crate::crates::{REGULAR_ARGUMENTS, REGULAR_TOOL, TRIVIAL_ARGUMENTS, TRIVIAL_TOOL};
use crate::measure::{Settings, batch_on, compare};
use crate::results::Results;
use crate::suite::{Crates, Visit};
use rmcp::ServerHandler;
use rmcp::model::{CallToolRequestParams, CallToolResponse, NumberOrString};
use rmcp::service::{RequestContext, RoleServer};
use serde_json::{Map, Value};
use std::sync::Arc;
use tooltable::serve::McpServer;
use tooltable::{Caller, Registry, Tier};

/// Measures dispatch for each size.
pub struct Dispatch<'r> {
    /// How long to measure.
    pub settings: Settings,
    /// Where the numbers go.
    pub results: &'r mut Results,
    /// The runtime the calls run on.
    pub runtime: &'r tokio::runtime::Runtime,
}

impl Visit for Dispatch<'_> {
    fn visit<C, S, R>(&mut self, crates: &Crates<C, S, R>)
    where
        C: Send + Sync + 'static,
        S: ServerHandler + Clone + Send + Sync + 'static,
        R: ServerHandler + Clone + Send + Sync + 'static,
    {
        let registry = Registry::builder(crates.table).max_tier(Tier::Destructive).build();
        let context = Arc::new((crates.context)());
        let adapter = McpServer::new(registry.clone(), context.clone());
        let stored = (crates.stored)();
        let rebuild = (crates.rebuild)();
        // Only rmcp can make a server-side peer; any running session's will do.
        let connection = self.runtime.block_on(connect(adapter.clone()));
        let peer = connection.server.clone();
        let request =
            move || RequestContext::<RoleServer>::new(NumberOrString::Number(1), peer.clone());
        let caller = Caller::operator();
        let rt = self.runtime;
        for (kind, tool, text) in [
            ("dispatch", TRIVIAL_TOOL, TRIVIAL_ARGUMENTS),
            ("dispatch-regular", REGULAR_TOOL, REGULAR_ARGUMENTS),
        ] {
            let arguments: Map<String, Value> = serde_json::from_str(text).unwrap_or_default();
            let mut params = CallToolRequestParams::new(tool);
            params.arguments = Some(arguments.clone());
            rt.block_on(async {
                expect_success(
                    "tooltable",
                    adapter.call_tool(params.clone(), request()).await,
                );
                expect_success(
                    "rmcp (stored)",
                    stored.call_tool(params.clone(), request()).await,
                );
                expect_success(
                    "rmcp (rebuild)",
                    rebuild.call_tool(params.clone(), request()).await,
                );
            });
            let mut candidates = vec![
                batch_on(rt, || {
                    registry.call(&context, &caller, tool, arguments.clone())
                }),
                batch_on(rt, || adapter.call_tool(params.clone(), request())),
                batch_on(rt, || stored.call_tool(params.clone(), request())),
                batch_on(rt, || rebuild.call_tool(params.clone(), request())),
            ];
            let times = compare(self.settings, &mut candidates);
            let names = [
                "tooltable-registry",
                "tooltable",
                "rmcp-stored",
                "rmcp-rebuild",
            ];
            for (name, time) in names.iter().zip(times) {
                self.results
                    .record(&format!("{kind}/{}/{name}", crates.n), time);
            }
        }
        drop(connection);
    }
}

fn expect_success(server: &str, response: Result<CallToolResponse, rmcp::ErrorData>) {
    match response {
        Ok(CallToolResponse::Complete(result)) if result.is_error != Some(true) => {}
        other => {
            eprintln!("{server} did not answer the benchmark's call with a result: {other:?}");
            std::process::exit(2);
        }
    }
}
