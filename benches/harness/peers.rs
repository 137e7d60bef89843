//! tooltable among its peers: every Rust MCP framework authors pick, side
//! by side, in process.
//!
//! rmcp is measured against tooltable everywhere else in the harness; this
//! suite adds the other frameworks. `tooltable-bench generate` writes, for
//! each size, one twin per framework (`towermcp_nN`, `turbomcp_nN`,
//! `turbomcp4_nN`, `pmcp_nN`), written as that framework's documentation
//! shows, and `crates.rs` implements [`PeerServer`] for each twin's `Peer`. Each
//! comparison here measures tooltable, rmcp (its stored router) and every
//! twin in one interleaved set of samples, so that the ratios of the
//! report's opening table are taken within one run:
//!
//! - `peers-list/N/SIDE`: the listing as JSON text, ready to send
//!   (tooltable's baked bytes copied out; rmcp's `list_all()` serialised;
//!   each twin's own `tools/list` handling, serialised);
//! - `peers-call/N/SIDE` and `peers-call-regular/N/SIDE`: a call of the
//!   trivial tool and of the tool with every kind of field, from parsed
//!   arguments to the framework's own result value (tooltable's and rmcp's
//!   through `ServerHandler::call_tool`);
//! - `peers-startup/N/SIDE`: making the server and answering its first
//!   `tools/list`, on a thread where nothing is warm yet.
//!
//! Before anything is timed, every twin's listing and answers are compared
//! with tooltable's ([`Check`]): the same tools with the same descriptions,
//! hints and schemas (as they mean, not as they are written: see
//! [`schema`]), and the same structured answer to the same call.

use crate::connect::connect;
use crate::crates::Framework;
use crate::crates::{REGULAR_ARGUMENTS, REGULAR_TOOL, TRIVIAL_ARGUMENTS, TRIVIAL_TOOL};
use crate::measure::{Batch, Settings, batch, batch_on, compare, median};
use crate::results::Results;
use crate::suite::{Crates, Visit};
use rmcp::ServerHandler;
use rmcp::model::{CallToolRequestParams, NumberOrString};
use rmcp::service::{RequestContext, RoleServer};
use serde_json::{Map, Value};
use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tooltable::serve::McpServer;
use tooltable::{Caller, Registry, Tier};

/// What the harness needs of a twin: `crates.rs` implements it for each
/// twin's `Peer` by calling the twin's own items of the same names.
pub trait PeerServer: Clone + Send + Sync + 'static {
    /// The framework's own result of a call.
    type Output: serde::Serialize;
    /// Makes the server, as the framework's documentation does.
    fn make() -> Self;
    /// `tools/list` answered in process, as JSON text.
    fn list(&self) -> impl Future<Output = String>;
    /// `tools/call` answered in process.
    fn call(
        &self,
        name: &str,
        arguments: Map<String, Value>,
    ) -> impl Future<Output = Result<Self::Output, String>>;
    /// Serves stdio until its input closes.
    fn serve_stdio() -> impl Future<Output = ()>;
    /// Serves Streamable HTTP at `/mcp` on `listener`.
    fn serve_http(listener: std::net::TcpListener) -> impl Future<Output = ()>;
}

/// What is done with each twin of one size; `crates::each_peer` hands them over.
pub trait VisitPeers {
    /// One twin.
    fn peer<P: PeerServer>(&mut self, framework: Framework);
}

/// Measures every framework for each size.
pub struct Peers<'r> {
    /// How long to measure.
    pub settings: Settings,
    /// Where the numbers go.
    pub results: &'r mut Results,
    /// The runtime the calls run on (multi-threaded, as servers run).
    pub runtime: &'r tokio::runtime::Runtime,
}

/// Which comparison a twin's candidate is made for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Row {
    List,
    Call(&'static str, &'static str),
}

/// Collects one candidate per twin. Twins are leaked so that their
/// candidates may borrow them for the rest of the run: a handful of
/// servers per size, made once.
struct Candidates<'a> {
    row: Row,
    runtime: &'a tokio::runtime::Runtime,
    sides: Vec<&'static str>,
    batches: Vec<Batch<'a>>,
}

impl<'a> VisitPeers for Candidates<'a> {
    fn peer<P: PeerServer>(&mut self, framework: Framework) {
        let peer: &'static P = Box::leak(Box::new(P::make()));
        let batch = match self.row {
            Row::List => batch_on(self.runtime, move || peer.list()),
            Row::Call(tool, text) => {
                let arguments = arguments(text);
                batch_on(self.runtime, move || peer.call(tool, arguments.clone()))
            }
        };
        self.sides.push(framework.word());
        self.batches.push(batch);
    }
}

impl Visit for Peers<'_> {
    fn visit<C, S, R>(&mut self, crates: &Crates<C, S, R>)
    where
        C: Send + Sync + 'static,
        S: ServerHandler + Clone + Send + Sync + 'static,
        R: ServerHandler + Clone + Send + Sync + 'static,
    {
        if crate::crates::PEERS.is_empty() {
            eprintln!("this harness links no twins of other frameworks; the peers suite is harness_peers's");
            std::process::exit(2);
        }
        let n = crates.n;
        let rt = self.runtime;
        let mut checks = Check {
            n,
            runtime: rt,
            expected: expected(crates, rt),
            difference: None,
        };
        crate::crates::each_peer(n, &mut checks);
        if let Some(difference) = checks.difference {
            eprintln!("a twin does not serve what tooltable serves, so nothing was measured: {difference}");
            std::process::exit(1);
        }

        let caller = Caller::operator();
        let registry = Registry::builder(crates.table)
            .max_tier(Tier::Destructive)
            .build();
        let context = Arc::new((crates.context)());
        let adapter = McpServer::new(registry.clone(), context);
        let stored = (crates.stored)();
        let router = (crates.stored_router)();
        // Only rmcp can make a server-side peer; any running session's will do.
        let connection = rt.block_on(connect(adapter.clone()));
        let session = connection.server.clone();
        let request =
            move || RequestContext::<RoleServer>::new(NumberOrString::Number(1), session.clone());

        for (metric, row) in [
            ("peers-list", Row::List),
            ("peers-call", Row::Call(TRIVIAL_TOOL, TRIVIAL_ARGUMENTS)),
            ("peers-call-regular", Row::Call(REGULAR_TOOL, REGULAR_ARGUMENTS)),
        ] {
            let mut twins = Candidates {
                row,
                runtime: rt,
                sides: vec!["tooltable", "rmcp"],
                batches: Vec::new(),
            };
            match row {
                Row::List => {
                    twins
                        .batches
                        .push(batch(|| registry.list(&caller).json.into_owned()));
                    twins.batches.push(batch(|| {
                        serde_json::to_string(&router.list_all()).unwrap_or_default()
                    }));
                }
                Row::Call(tool, text) => {
                    let mut params = CallToolRequestParams::new(tool);
                    params.arguments = Some(arguments(text));
                    let (ours, theirs) = (params.clone(), params);
                    let (adapter, stored) = (&adapter, &stored);
                    let (first, second) = (request.clone(), request.clone());
                    twins.batches.push(batch_on(rt, move || {
                        adapter.call_tool(ours.clone(), first())
                    }));
                    twins.batches.push(batch_on(rt, move || {
                        stored.call_tool(theirs.clone(), second())
                    }));
                }
            }
            crate::crates::each_peer(n, &mut twins);
            let times = compare(self.settings, &mut twins.batches);
            for (side, time) in twins.sides.iter().zip(times) {
                self.results.record(&format!("{metric}/{n}/{side}"), time);
            }
        }
        let mut startup = Startup {
            samples: self.settings.samples,
            times: Vec::new(),
        };
        let (table, context, stored) = (crates.table, crates.context, crates.stored);
        let session = connection.server.clone();
        startup.side("tooltable", move |runtime| {
            let server = McpServer::new(
                Registry::builder(table).max_tier(Tier::Destructive).build(),
                Arc::new(context()),
            );
            let listed = runtime.block_on(listed(&server, &session));
            (listed, Box::new(server))
        });
        let session = connection.server.clone();
        startup.side("rmcp", move |runtime| {
            let server = stored();
            let listed = runtime.block_on(listed(&server, &session));
            (listed, Box::new(server))
        });
        crate::crates::each_peer(n, &mut startup);
        drop(connection);
        for (side, samples) in startup.times {
            if let Some(count) = samples.1.iter().find(|c| **c != n) {
                eprintln!("{side} listed {count} tools at start-up, not {n}");
                std::process::exit(2);
            }
            let nanos = median(samples.0.iter().map(|d| d.as_nanos() as f64).collect());
            self.results
                .record(&format!("peers-startup/{n}/{side}"), nanos);
        }
    }
}

/// `tools/list` through `ServerHandler::list_tools`, as rmcp's service
/// answers it, counted. The request context is made per request, as rmcp's
/// service makes it, around a server-side peer of a session opened before
/// the clock started (rmcp hands out such peers only from a running one).
async fn listed<H: ServerHandler>(server: &H, session: &rmcp::service::Peer<RoleServer>) -> usize {
    let request = RequestContext::<RoleServer>::new(NumberOrString::Number(1), session.clone());
    server
        .list_tools(None, request)
        .await
        .map_or(0, |list| list.tools.len())
}

/// Start-up samples: making a server and its first listing, each on a new
/// thread with a runtime of its own made before the clock starts.
struct Startup {
    samples: usize,
    /// Per side: the times, and the number of tools each first listing held.
    times: Vec<(&'static str, (Vec<Duration>, Vec<usize>))>,
}

/// What a start-up leaves: the tools it listed, and the server (dropped
/// after the clock stops).
type Started = (usize, Box<dyn std::any::Any>);

impl Startup {
    fn side(
        &mut self,
        side: &'static str,
        start: impl Fn(&tokio::runtime::Runtime) -> Started + Send + Clone + 'static,
    ) {
        let mut times = Vec::with_capacity(self.samples);
        let mut counts = Vec::with_capacity(self.samples);
        for _ in 0..self.samples {
            let start = start.clone();
            let (time, count) = std::thread::spawn(move || {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .unwrap_or_else(|e| {
                        eprintln!("cannot start a tokio runtime: {e}");
                        std::process::exit(2);
                    });
                let clock = Instant::now();
                let started = std::hint::black_box(start(&runtime));
                let time = clock.elapsed();
                (time, started.0)
            })
            .join()
            .unwrap_or_else(|_| {
                eprintln!("starting the {side} server panicked");
                std::process::exit(2);
            });
            times.push(time);
            counts.push(count);
        }
        self.times.push((side, (times, counts)));
    }
}

impl VisitPeers for Startup {
    fn peer<P: PeerServer>(&mut self, framework: Framework) {
        self.side(framework.word(), |runtime| {
            let server = P::make();
            let listing = runtime.block_on(server.list());
            (tools_in(&listing).map_or(0, |t| t.len()), Box::new(server))
        });
    }
}

/// What every twin must answer, from tooltable's crate: its listing by
/// name, and the structured result of each benchmark call.
struct Expected {
    listing: Vec<Value>,
    answers: Vec<(&'static str, &'static str, Value)>,
}

fn expected<C, S, R>(crates: &Crates<C, S, R>, runtime: &tokio::runtime::Runtime) -> Expected
where
    C: Send + Sync + 'static,
{
    let listing = serde_json::from_str(crates.table.list_json()).unwrap_or_default();
    let registry = Registry::builder(crates.table)
        .max_tier(Tier::Destructive)
        .build();
    let context = (crates.context)();
    let caller = Caller::operator();
    let answers = [
        (TRIVIAL_TOOL, TRIVIAL_ARGUMENTS),
        (REGULAR_TOOL, REGULAR_ARGUMENTS),
    ]
    .into_iter()
    .map(|(tool, text)| {
        let answer = runtime
            .block_on(registry.call(&context, &caller, tool, arguments(text)))
            .ok()
            .and_then(|result| result.to_json().get("structuredContent").cloned())
            .unwrap_or(Value::Null);
        (tool, text, answer)
    })
    .collect();
    Expected { listing, answers }
}

/// Checks each twin against [`Expected`]; remembers the first difference.
struct Check<'a> {
    n: usize,
    runtime: &'a tokio::runtime::Runtime,
    expected: Expected,
    difference: Option<String>,
}

impl VisitPeers for Check<'_> {
    fn peer<P: PeerServer>(&mut self, framework: Framework) {
        if self.difference.is_none() {
            self.difference = self.check::<P>().err().map(|e| {
                format!("the {} twin with {} tools {e}", framework.word(), self.n)
            });
        }
    }
}

impl Check<'_> {
    fn check<P: PeerServer>(&self) -> Result<(), String> {
        let peer = P::make();
        let listing = self.runtime.block_on(peer.list());
        let tools = tools_in(&listing).ok_or_else(|| {
            format!("lists no `tools` array: {}", &listing[..listing.len().min(200)])
        })?;
        let names = |tools: &[Value]| {
            let mut names: Vec<String> = tools
                .iter()
                .filter_map(|t| t.get("name")?.as_str().map(str::to_owned))
                .collect();
            names.sort();
            names
        };
        if names(&tools) != names(&self.expected.listing) {
            return Err(format!(
                "lists {} tools, not the {} tooltable lists by the same names",
                tools.len(),
                self.expected.listing.len()
            ));
        }
        for ours in &self.expected.listing {
            let name = &ours["name"];
            let theirs = tools
                .iter()
                .find(|t| &t["name"] == name)
                .unwrap_or(&Value::Null);
            if theirs["description"] != ours["description"] {
                return Err(format!(
                    "describes {name} as {}, where tooltable says {}",
                    theirs["description"], ours["description"]
                ));
            }
            if annotations(theirs) != annotations(ours) {
                return Err(format!(
                    "annotates {name} as {}, where tooltable says {}",
                    theirs["annotations"], ours["annotations"]
                ));
            }
            for key in ["inputSchema", "outputSchema"] {
                if schema(&theirs[key]) != schema(&ours[key]) {
                    return Err(format!(
                        "gives {name} the {key} {}, which means other than tooltable's {}",
                        theirs[key], ours[key]
                    ));
                }
            }
        }
        for (tool, text, answer) in &self.expected.answers {
            let result = self
                .runtime
                .block_on(peer.call(tool, arguments(text)))
                .map_err(|e| format!("fails the call of {tool}: {e}"))?;
            let value = serde_json::to_value(&result)
                .map_err(|e| format!("answers {tool} with a result that does not serialize: {e}"))?;
            if structured(&value).as_ref() != Some(answer) {
                return Err(format!(
                    "answers {tool} with {value}, where tooltable's structured answer is {answer}"
                ));
            }
        }
        Ok(())
    }
}

/// A tool's four hints, each as it reads with MCP's defaults filled in
/// (a framework may leave out a hint equal to its default).
fn annotations(tool: &Value) -> [bool; 4] {
    let hint = |key: &str, default: bool| {
        tool.pointer(&format!("/annotations/{key}"))
            .and_then(Value::as_bool)
            .unwrap_or(default)
    };
    [
        hint("readOnlyHint", false),
        hint("destructiveHint", true),
        hint("idempotentHint", false),
        hint("openWorldHint", true),
    ]
}

/// A schema as it means, not as it is written: references into `$defs`
/// written out in place (a property's own keys, such as its description,
/// over the definition's), and the keys that change nothing a client may
/// send or receive left out: `$schema` (2020-12 either way), `$defs` once
/// inlined, the root's `title`, and a root `additionalProperties: false`
/// (one framework adds it; it only refuses what no tool here reads).
fn schema(schema: &Value) -> Value {
    let defs = schema.get("$defs").cloned().unwrap_or(Value::Null);
    let mut out = inline(schema, &defs, 0);
    if let Some(root) = out.as_object_mut() {
        for key in ["$schema", "$defs", "title"] {
            root.remove(key);
        }
        if root.get("additionalProperties") == Some(&Value::Bool(false)) {
            root.remove("additionalProperties");
        }
    }
    out
}

fn inline(value: &Value, defs: &Value, depth: usize) -> Value {
    match value {
        Value::Object(map) if depth < 32 => {
            let mut out = Map::new();
            let target = map
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| r.strip_prefix("#/$defs/"))
                .and_then(|name| defs.get(name))
                .and_then(Value::as_object);
            for (k, v) in target.into_iter().flatten() {
                out.insert(k.clone(), inline(v, defs, depth + 1));
            }
            for (k, v) in map {
                if k == "$ref" && target.is_some() {
                    continue;
                }
                out.insert(k.clone(), inline(v, defs, depth + 1));
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(|v| inline(v, defs, depth + 1)).collect()),
        other => other.clone(),
    }
}

/// The `tools` array of a listing's JSON text.
fn tools_in(listing: &str) -> Option<Vec<Value>> {
    let mut value: Value = serde_json::from_str(listing).ok()?;
    match value.get_mut("tools")?.take() {
        Value::Array(tools) => Some(tools),
        _ => None,
    }
}

/// A call result's structured answer: its `structuredContent`, or else the
/// JSON its first text content holds (for a framework that has only text).
fn structured(result: &Value) -> Option<Value> {
    if let Some(structured) = result.get("structuredContent") {
        return Some(structured.clone());
    }
    let text = result.pointer("/content/0/text")?.as_str()?;
    serde_json::from_str(text).ok()
}

fn arguments(text: &str) -> Map<String, Value> {
    serde_json::from_str(text).unwrap_or_default()
}
