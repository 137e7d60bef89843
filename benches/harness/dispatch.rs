//! `tools/call` in process: from a request to a result, no transport.
//!
//! Both servers get the same `CallToolRequestParams` and a fresh
//! `RequestContext` per call, as rmcp's service gives them, and answer
//! through `ServerHandler::call_tool`: tooltable's adapter (registry lookup,
//! policy, argument deserialisation, handler, conversion to rmcp's result)
//! against rmcp's router (hash lookup, argument deserialisation, handler),
//! stored or rebuilt per request. `Registry::call` alone shows tooltable's
//! own share, and `tooltable::testing::TestClient` what a user's test pays
//! for a call made as a client makes it (JSON-RPC text through the guard,
//! the adapter and back, in process). Two tools: the trivial echo with one
//! small string, and a regular tool whose arguments use every kind of
//! field.

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
use std::time::Instant;
use tooltable::serve::{McpServer, Server};
use tooltable::testing::TestClient;
use tooltable::{Caller, Registry, Tier};

/// Measures dispatch for each size.
pub struct Dispatch<'r> {
    /// How long to measure.
    pub settings: Settings,
    /// Where the numbers go.
    pub results: &'r mut Results,
    /// The runtime the calls run on.
    pub runtime: &'r tokio::runtime::Runtime,
    /// A current-thread runtime, as `#[tokio::test]` gives a test: the
    /// test client's calls are measured on it too.
    pub current: &'r tokio::runtime::Runtime,
}

impl Visit for Dispatch<'_> {
    fn visit<C, S, R>(&mut self, crates: &Crates<C, S, R>)
    where
        C: Send + Sync + 'static,
        S: ServerHandler + Clone + Send + Sync + 'static,
        R: ServerHandler + Clone + Send + Sync + 'static,
    {
        let registry = Registry::builder(crates.table)
            .max_tier(Tier::Destructive)
            .build();
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
        let test_client = |rt: &tokio::runtime::Runtime| {
            let served =
                Server::new(registry.clone(), context.clone()).fixed_caller(caller.clone());
            rt.block_on(TestClient::connect(served))
        };
        let mut client = test_client(rt);
        let current = self.current;
        let mut current_client = test_client(current);
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
                match client.call(tool, Value::Object(arguments.clone())).await {
                    Ok(called) if !called.is_error() => {}
                    other => {
                        eprintln!("the test client's call of {tool} did not succeed: {other:?}");
                        std::process::exit(2);
                    }
                }
            });
            current.block_on(async {
                if let Err(error) = current_client
                    .call(tool, Value::Object(arguments.clone()))
                    .await
                {
                    eprintln!("the test client's call of {tool} did not succeed: {error:?}");
                    std::process::exit(2);
                }
            });
            let on_workers = &mut client;
            let on_current = &mut current_client;
            let mut candidates = vec![
                batch_on(rt, || {
                    registry.call(&context, &caller, tool, arguments.clone())
                }),
                batch_on(rt, || adapter.call_tool(params.clone(), request())),
                batch_on(rt, || stored.call_tool(params.clone(), request())),
                batch_on(rt, || rebuild.call_tool(params.clone(), request())),
                // The client is borrowed for the whole batch, so it is
                // driven here rather than through `batch_on`'s closure.
                client_batch(rt, on_workers, tool, &arguments),
                client_batch(current, on_current, tool, &arguments),
            ];
            let times = compare(self.settings, &mut candidates);
            let names = [
                "tooltable-registry",
                "tooltable",
                "rmcp-stored",
                "rmcp-rebuild",
                "tooltable-test-client",
                "tooltable-test-client-current-thread",
            ];
            for (name, time) in names.iter().zip(times) {
                self.results
                    .record(&format!("{kind}/{}/{name}", crates.n), time);
            }
        }
        drop(connection);
        for (rt, client) in [(rt, client), (current, current_client)] {
            if let Err(error) = rt.block_on(client.close()) {
                eprintln!("the test client's server did not stop cleanly: {error}");
                std::process::exit(2);
            }
        }
    }
}

/// Calls through the test client, on `runtime`.
fn client_batch<'a>(
    runtime: &'a tokio::runtime::Runtime,
    client: &'a mut TestClient,
    tool: &'a str,
    arguments: &'a Map<String, Value>,
) -> crate::measure::Batch<'a> {
    Box::new(move |iterations| {
        runtime.block_on(async {
            let start = Instant::now();
            for _ in 0..iterations {
                let arguments = Value::Object(arguments.clone());
                std::hint::black_box(client.call(tool, arguments).await).ok();
            }
            start.elapsed()
        })
    })
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
