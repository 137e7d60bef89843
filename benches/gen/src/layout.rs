//! The realistic layout for the edit-compile-test loop: one server, written
//! once with tooltable and once with rmcp, laid out as a user's crate is.
//!
//! Each crate has a lib (`layout`: the store and the shared types, with two
//! integration test files of its own), a bin that serves stdio or HTTP,
//! ten tools over three modules of the bin (`src/tools/`), and two more
//! integration test files that run the bin. The generated benchmark crates
//! (`tooltable_crate`, `rmcp_crate`) are one lib of many small modules;
//! this is the shape the incremental-build rows of docs/benchmarks.md
//! measure as "the realistic layout". Everything both sides share (the
//! lib, the tests, the tools' types, docs and bodies) is written here once;
//! the writers only spell the tools in each side's dialect.
//!
//! benches/loop.sh edits three places of `src/tools/items.rs` through
//! `tooltable-bench edit` ([`edited`]): a handler body's literal, a tool's
//! doc comment and a parameter's type, one at a time.

use std::fmt::Write as _;

/// The two sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// `#[tool]` free functions, the build script, `include_table!()`.
    Tooltable,
    /// rmcp 3.11's `#[tool_router]` and `#[tool_handler]`.
    Rmcp,
}

impl Side {
    /// The side named `word` (`tooltable` or `rmcp`).
    pub fn parse(word: &str) -> Option<Side> {
        match word {
            "tooltable" => Some(Side::Tooltable),
            "rmcp" => Some(Side::Rmcp),
            _ => None,
        }
    }

    /// The package's name (its bin is named the same).
    pub fn package(self) -> &'static str {
        match self {
            Side::Tooltable => "loop_tooltable",
            Side::Rmcp => "loop_rmcp",
        }
    }
}

/// A string literal of `items_create`'s body, which the body edit rewrites.
const BODY_MARKER: &str = "\"created\"";
/// `items_get`'s doc comment, which the doc-comment edit rewrites.
const DOC_MARKER: &str = "/// Reads one item by its id.";
/// A field of `items_list`'s parameters, whose type the parameter edit changes.
const FIELD_MARKER: &str = "pub limit: Option<u32>,";

/// The file every edit is made in.
pub const EDITED_FILE: &str = "src/tools/items.rs";

/// What an author changes between two builds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edit {
    /// A string literal in a handler body: no declaration changes.
    Body,
    /// A tool's doc comment: its description changes.
    Doc,
    /// A parameter's type (`u32` to `u16` or `u64`): its schema changes.
    Parameter,
}

impl Edit {
    /// Every edit, in the order `tooltable-bench edit` takes their versions.
    pub const ALL: [Edit; 3] = [Edit::Body, Edit::Doc, Edit::Parameter];

    /// The edit's name on the command line (`body`, `doc`, `parameter`).
    pub fn word(self) -> &'static str {
        match self {
            Edit::Body => "body",
            Edit::Doc => "doc",
            Edit::Parameter => "parameter",
        }
    }

    fn apply(self, text: &str, version: usize) -> String {
        if version == 0 {
            return text.to_owned();
        }
        let (marker, replacement) = match self {
            Edit::Body => (BODY_MARKER, format!("\"created (version {version})\"")),
            Edit::Doc => (
                DOC_MARKER,
                format!("/// Reads one item by its id (version {version})."),
            ),
            Edit::Parameter => (
                FIELD_MARKER,
                FIELD_MARKER.replace(
                    "u32",
                    if version.is_multiple_of(2) {
                        "u16"
                    } else {
                        "u64"
                    },
                ),
            ),
        };
        text.replacen(marker, &replacement, 1)
    }
}

/// [`EDITED_FILE`] of `side` with each edit at a version (`versions[i]`
/// for `Edit::ALL[i]`; 0 is the text as generated). Raising one version
/// makes one edit of one kind and nothing else, and every version's text
/// differs from the one before it.
pub fn edited(side: Side, repo: &str, versions: [usize; 3]) -> String {
    let original = files(side, repo)
        .into_iter()
        .find(|(path, _)| path == EDITED_FILE)
        .map(|(_, text)| text)
        .unwrap_or_default();
    Edit::ALL
        .iter()
        .zip(versions)
        .fold(original, |text, (edit, version)| edit.apply(&text, version))
}

/// A tool both sides declare.
struct Tool {
    module: &'static str,
    name: &'static str,
    doc: &'static str,
    /// "read", "write" or "destructive".
    tier: &'static str,
    /// The parameter type's fields, one per line; empty for no parameters.
    fields: &'static str,
    output: &'static str,
    /// An expression of type `Result<output, String>`, with `store: &Store`
    /// and `params` in scope.
    body: &'static str,
}

const TOOLS: &[Tool] = &[
    Tool {
        module: "items",
        name: "items_create",
        doc: "/// Creates an item and returns it.",
        tier: "write",
        fields: "/// The title.\npub title: String,\n/// The text, empty when not given.\npub body: Option<String>,\n/// Tags to file it under.\n#[serde(default)]\npub tags: Vec<String>,\n/// How urgent it is.\npub priority: Option<Priority>,",
        output: "Item",
        body: "{\n        let item = store.create(params.title, params.body.unwrap_or_default(), params.tags, params.priority.unwrap_or(Priority::Normal));\n        store.log(\"created\", item.id);\n        Ok(item)\n    }",
    },
    Tool {
        module: "items",
        name: "items_get",
        doc: DOC_MARKER,
        tier: "read",
        fields: "/// The item's id.\npub id: u64,",
        output: "Item",
        body: "store.get(params.id).ok_or_else(|| format!(\"there is no item {}\", params.id))",
    },
    Tool {
        module: "items",
        name: "items_list",
        doc: "/// Lists items, newest first.",
        tier: "read",
        fields: "/// How many to return (default 20).\npub limit: Option<u32>,\n/// Only items of this priority.\npub priority: Option<Priority>,",
        output: "Page",
        body: "Ok(store.list(params.limit.map_or(20, |l| l as usize), params.priority))",
    },
    Tool {
        module: "items",
        name: "items_update",
        doc: "/// Changes an item's title or text.",
        tier: "write",
        fields: "/// The item's id.\npub id: u64,\n/// The new title.\npub title: Option<String>,\n/// The new text.\npub body: Option<String>,",
        output: "Item",
        body: "store.update(params.id, params.title, params.body).ok_or_else(|| format!(\"there is no item {}\", params.id))",
    },
    Tool {
        module: "search",
        name: "items_search",
        doc: "/// Finds items whose title or text contains the query.",
        tier: "read",
        fields: "/// Words to look for.\npub query: String,\n/// Only items with all these tags.\n#[serde(default)]\npub tags: Vec<String>,",
        output: "Page",
        body: "Ok(store.search(&params.query, &params.tags))",
    },
    Tool {
        module: "search",
        name: "items_tags",
        doc: "/// Lists every tag in use with its count.",
        tier: "read",
        fields: "",
        output: "Tags",
        body: "Ok(store.tags())",
    },
    Tool {
        module: "search",
        name: "items_count",
        doc: "/// Counts items by priority.",
        tier: "read",
        fields: "/// Count only items with this tag.\npub tag: Option<String>,",
        output: "Counts",
        body: "Ok(store.counts(params.tag.as_deref()))",
    },
    Tool {
        module: "admin",
        name: "items_delete",
        doc: "/// Deletes an item for good.",
        tier: "destructive",
        fields: "/// The item's id.\npub id: u64,",
        output: "Deleted",
        body: "Ok(Deleted { deleted: store.delete(params.id) })",
    },
    Tool {
        module: "admin",
        name: "store_stats",
        doc: "/// Says how many items and tags the store holds.",
        tier: "read",
        fields: "",
        output: "Stats",
        body: "Ok(store.stats())",
    },
    Tool {
        module: "admin",
        name: "store_clear",
        doc: "/// Deletes every item.",
        tier: "destructive",
        fields: "/// Must be `true`.\npub confirm: bool,",
        output: "Deleted",
        body: "if params.confirm { Ok(Deleted { deleted: store.clear() > 0 }) } else { Err(\"nothing was deleted: pass confirm = true\".to_owned()) }",
    },
];

const MODULES: [&str; 3] = ["items", "search", "admin"];

/// Every file of one side's crate, relative to its directory. `repo` is
/// the tooltable checkout.
pub fn files(side: Side, repo: &str) -> Vec<(String, String)> {
    let package = side.package();
    let mut files = vec![
        ("Cargo.toml".to_owned(), manifest(side, repo)),
        ("src/lib.rs".to_owned(), LIB.to_owned()),
        ("src/store.rs".to_owned(), STORE.to_owned()),
        (
            "src/types.rs".to_owned(),
            TYPES.replace(
                "@SCHEMA@",
                match side {
                    Side::Tooltable => "",
                    Side::Rmcp => ", schemars::JsonSchema",
                },
            ),
        ),
        ("src/main.rs".to_owned(), main(side)),
        ("src/tools/mod.rs".to_owned(), tools_mod(side)),
        ("tests/store.rs".to_owned(), TEST_STORE.to_owned()),
        ("tests/types.rs".to_owned(), TEST_TYPES.to_owned()),
        (
            "tests/stdio.rs".to_owned(),
            TEST_STDIO.replace("@BIN@", package),
        ),
        (
            "tests/http.rs".to_owned(),
            TEST_HTTP.replace("@BIN@", package),
        ),
    ];
    if side == Side::Tooltable {
        files.push((
            "build.rs".to_owned(),
            "fn main() {\n    tooltable_codegen::build();\n}\n".to_owned(),
        ));
    }
    for module in MODULES {
        files.push((format!("src/tools/{module}.rs"), tools(side, module)));
    }
    files
}

fn manifest(side: Side, repo: &str) -> String {
    let package = side.package();
    let (metadata, dependencies) = match side {
        Side::Tooltable => (
            "\n[package.metadata.tooltable]\nprefixes = [\"items_\", \"store_\"]\n# rmcp has no confirmation: the two sides serve the same calls.\nallow_unconfirmed_destructive = true\n".to_owned(),
            format!(
                "tooltable = {{ path = \"{repo}\", features = [\"serve\", \"http\"] }}\n"
            ),
        ),
        Side::Rmcp => (
            String::new(),
            "rmcp = { version = \"3.11\", default-features = false, features = [\"server\", \"macros\", \"transport-io\", \"transport-streamable-http-server\"] }\nschemars = { version = \"1\", default-features = false, features = [\"derive\", \"std\"] }\nhyper = { version = \"1\", features = [\"server\", \"http1\"] }\nhyper-util = { version = \"0.1\", features = [\"tokio\", \"service\"] }\n".to_owned(),
        ),
    };
    let build = match side {
        Side::Tooltable => format!(
            "\n[build-dependencies]\ntooltable-codegen = {{ path = \"{repo}/codegen\", default-features = false, features = [\"build\"] }}\n"
        ),
        Side::Rmcp => String::new(),
    };
    format!(
        r#"[package]
name = "{package}"
version = "0.1.0"
edition = "2024"
publish = false

[lib]
name = "layout"
{metadata}
[dependencies]
{dependencies}serde = {{ version = "1", features = ["derive"] }}
serde_json = "1"
tokio = {{ version = "1", features = ["rt-multi-thread", "macros", "net", "io-std"] }}
{build}"#
    )
}

fn main(side: Side) -> String {
    match side {
        Side::Tooltable => {
            r#"//! The server: its tools over stdio, or over HTTP with `--http ADDRESS`.

mod tools;

use layout::Store;
use tooltable::serve::Server;
use tooltable::{Registry, Tier};

tooltable::include_table!();

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let registry = Registry::builder(&TOOLS).max_tier(Tier::Destructive).build();
    let server = Server::new(registry, Store::default());
    let served = match std::env::args().nth(1).as_deref() {
        Some("--http") => {
            let address = std::env::args().nth(2).unwrap_or_else(|| "127.0.0.1:8080".into());
            match address.parse() {
                Ok(address) => server.insecure_no_auth(true).http(address).await,
                Err(e) => {
                    eprintln!("`{address}` is not an address: {e}");
                    return std::process::ExitCode::FAILURE;
                }
            }
        }
        _ => server.stdio().await,
    };
    match served {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            std::process::ExitCode::FAILURE
        }
    }
}
"#
            .to_owned()
        }
        Side::Rmcp => r#"//! The server: its tools over stdio, or over HTTP with `--http ADDRESS`.

mod tools;

use layout::Store;
use rmcp::ServiceExt;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use std::sync::Arc;
use tools::Server;

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let store = Arc::new(Store::default());
    let served = match std::env::args().nth(1).as_deref() {
        Some("--http") => {
            let address = std::env::args().nth(2).unwrap_or_else(|| "127.0.0.1:8080".into());
            serve_http(&address, store).await
        }
        _ => match Server::new(store).serve(rmcp::transport::stdio()).await {
            Ok(running) => running.waiting().await.map(drop).map_err(|e| e.to_string()),
            Err(e) => Err(e.to_string()),
        },
    };
    match served {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            std::process::ExitCode::FAILURE
        }
    }
}

async fn serve_http(address: &str, store: Arc<Store>) -> Result<(), String> {
    let service = StreamableHttpService::new(
        move || Ok(Server::new(store.clone())),
        LocalSessionManager::default().into(),
        StreamableHttpServerConfig::default(),
    );
    let listener = tokio::net::TcpListener::bind(address).await.map_err(|e| e.to_string())?;
    loop {
        let (stream, _) = listener.accept().await.map_err(|e| e.to_string())?;
        let service = hyper_util::service::TowerToHyperService::new(service.clone());
        tokio::spawn(async move {
            let io = hyper_util::rt::TokioIo::new(stream);
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(io, service)
                .await;
        });
    }
}
"#
        .to_owned(),
    }
}

fn tools_mod(side: Side) -> String {
    let mut out = String::from("//! The tools, one module per area.\n\n");
    for module in MODULES {
        let _ = writeln!(out, "pub mod {module};");
    }
    if side == Side::Rmcp {
        let routers = MODULES
            .iter()
            .map(|m| format!("Self::{m}_router()"))
            .collect::<Vec<_>>()
            .join(" + ");
        let _ = write!(
            out,
            r#"
use layout::Store;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::{{ServerHandler, tool_handler}};
use std::sync::Arc;

/// The MCP server over every tool.
#[derive(Clone)]
pub struct Server {{
    pub(crate) store: Arc<Store>,
    tool_router: ToolRouter<Server>,
}}

impl Server {{
    /// The server over `store`.
    pub fn new(store: Arc<Store>) -> Server {{
        Server {{ store, tool_router: {routers} }}
    }}
}}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {{}}
"#
        );
    }
    out
}

fn params_type(tool: &Tool) -> String {
    let mut name = String::new();
    for part in tool.name.split('_') {
        let mut chars = part.chars();
        if let Some(first) = chars.next() {
            name.push(first.to_ascii_uppercase());
            name.extend(chars);
        }
    }
    name.push_str("Params");
    name
}

/// The handler's parameter after its context, `before` and `after` its
/// type; nothing for a tool without parameters.
fn parameter(tool: &Tool, before: &str, after: &str) -> String {
    if tool.fields.is_empty() {
        String::new()
    } else {
        format!(", {before}{}{after}", params_type(tool))
    }
}

fn tools(side: Side, module: &str) -> String {
    let mut out = format!("//! The {module} tools.\n\n");
    out.push_str(match side {
        Side::Tooltable => "use layout::*;\nuse serde::Deserialize;\nuse tooltable::{ToolError, tool};\n",
        Side::Rmcp => "use super::Server;\nuse layout::*;\nuse rmcp::handler::server::wrapper::{Json, Parameters};\nuse rmcp::{tool, tool_router};\nuse schemars::JsonSchema;\nuse serde::Deserialize;\n",
    });
    let derive = match side {
        Side::Tooltable => "Deserialize",
        Side::Rmcp => "Deserialize, JsonSchema",
    };
    let module_tools: Vec<&Tool> = TOOLS.iter().filter(|t| t.module == module).collect();
    for tool in &module_tools {
        if tool.fields.is_empty() {
            continue;
        }
        let fields = tool
            .fields
            .lines()
            .map(|line| format!("    {line}\n"))
            .collect::<String>();
        let _ = write!(
            out,
            "\n/// What `{}` takes.\n#[derive(Debug, {derive})]\npub struct {} {{\n{fields}}}\n",
            tool.name,
            params_type(tool)
        );
    }
    match side {
        Side::Tooltable => {
            for tool in &module_tools {
                let params = parameter(tool, "params: ", "");
                let _ = write!(
                    out,
                    "\n{doc}\n#[tool(tier = {tier}, world = closed)]\npub fn {name}(store: &Store{params}) -> Result<{output}, ToolError> {{\n    let result: Result<{output}, String> = {body};\n    result.map_err(ToolError::new)\n}}\n",
                    doc = tool.doc,
                    tier = tool.tier,
                    name = tool.name,
                    output = tool.output,
                    body = tool.body,
                );
            }
        }
        Side::Rmcp => {
            let _ = write!(
                out,
                "\n#[tool_router(router = {module}_router, vis = \"pub(crate)\")]\nimpl Server {{"
            );
            for tool in &module_tools {
                let hints = match tool.tier {
                    "read" => {
                        "read_only_hint = true, destructive_hint = false, idempotent_hint = true, open_world_hint = false"
                    }
                    "write" => {
                        "read_only_hint = false, destructive_hint = false, idempotent_hint = false, open_world_hint = false"
                    }
                    _ => {
                        "read_only_hint = false, destructive_hint = true, idempotent_hint = false, open_world_hint = false"
                    }
                };
                let params = parameter(tool, "Parameters(params): Parameters<", ">");
                let _ = write!(
                    out,
                    "\n    {doc}\n    #[tool(annotations({hints}))]\n    pub fn {name}(&self{params}) -> Result<Json<{output}>, String> {{\n        let store = &*self.store;\n        let result: Result<{output}, String> = {body};\n        result.map(Json)\n    }}\n",
                    doc = tool.doc,
                    name = tool.name,
                    output = tool.output,
                    body = tool.body,
                );
            }
            out.push_str("}\n");
        }
    }
    out
}

const LIB: &str = r#"//! The application: a store of items and the types its tools return.

mod store;
mod types;

pub use store::Store;
pub use types::*;
"#;

const STORE: &str = r#"//! Items in memory, behind a lock.

use crate::types::*;
use std::collections::BTreeMap;
use std::sync::Mutex;

/// Every item, and a log of what changed.
#[derive(Debug, Default)]
pub struct Store {
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    next: u64,
    items: BTreeMap<u64, Item>,
    log: Vec<(String, u64)>,
}

impl Store {
    fn with<T>(&self, f: impl FnOnce(&mut Inner) -> T) -> T {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        f(&mut inner)
    }

    /// Adds an item.
    pub fn create(&self, title: String, body: String, tags: Vec<String>, priority: Priority) -> Item {
        self.with(|inner| {
            inner.next += 1;
            let item = Item { id: inner.next, title, body, tags, priority };
            inner.items.insert(item.id, item.clone());
            item
        })
    }

    /// Records what happened to an item.
    pub fn log(&self, what: &str, id: u64) {
        self.with(|inner| inner.log.push((what.to_owned(), id)));
    }

    /// One item.
    pub fn get(&self, id: u64) -> Option<Item> {
        self.with(|inner| inner.items.get(&id).cloned())
    }

    /// The newest items, at most `limit`.
    pub fn list(&self, limit: usize, priority: Option<Priority>) -> Page {
        self.with(|inner| {
            let items: Vec<Item> = inner
                .items
                .values()
                .rev()
                .filter(|item| priority.is_none_or(|p| item.priority == p))
                .take(limit)
                .cloned()
                .collect();
            Page { total: inner.items.len(), items }
        })
    }

    /// Changes an item.
    pub fn update(&self, id: u64, title: Option<String>, body: Option<String>) -> Option<Item> {
        self.with(|inner| {
            let item = inner.items.get_mut(&id)?;
            if let Some(title) = title {
                item.title = title;
            }
            if let Some(body) = body {
                item.body = body;
            }
            Some(item.clone())
        })
    }

    /// Items containing `query` and every tag of `tags`.
    pub fn search(&self, query: &str, tags: &[String]) -> Page {
        self.with(|inner| {
            let items: Vec<Item> = inner
                .items
                .values()
                .filter(|item| item.title.contains(query) || item.body.contains(query))
                .filter(|item| tags.iter().all(|t| item.tags.contains(t)))
                .cloned()
                .collect();
            Page { total: items.len(), items }
        })
    }

    /// Every tag with its count.
    pub fn tags(&self) -> Tags {
        self.with(|inner| {
            let mut tags = BTreeMap::new();
            for tag in inner.items.values().flat_map(|item| &item.tags) {
                *tags.entry(tag.clone()).or_insert(0) += 1;
            }
            Tags { tags }
        })
    }

    /// Items by priority.
    pub fn counts(&self, tag: Option<&str>) -> Counts {
        self.with(|inner| {
            let mut counts = Counts::default();
            for item in inner.items.values() {
                if tag.is_some_and(|t| !item.tags.iter().any(|x| x == t)) {
                    continue;
                }
                match item.priority {
                    Priority::Low => counts.low += 1,
                    Priority::Normal => counts.normal += 1,
                    Priority::High => counts.high += 1,
                }
            }
            counts
        })
    }

    /// Removes an item; whether it was there.
    pub fn delete(&self, id: u64) -> bool {
        self.with(|inner| inner.items.remove(&id).is_some())
    }

    /// Removes every item; how many there were.
    pub fn clear(&self) -> usize {
        self.with(|inner| std::mem::take(&mut inner.items).len())
    }

    /// How much the store holds.
    pub fn stats(&self) -> Stats {
        self.with(|inner| Stats {
            items: inner.items.len(),
            changes: inner.log.len(),
        })
    }
}
"#;

const TYPES: &str = r#"//! What the tools take and return, shared with the tests.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// How urgent an item is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize@SCHEMA@)]
#[serde(rename_all = "snake_case")]
pub enum Priority {
    /// Some day.
    Low,
    /// Soon.
    Normal,
    /// Now.
    High,
}

/// An item.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize@SCHEMA@)]
pub struct Item {
    /// Its id.
    pub id: u64,
    /// Its title.
    pub title: String,
    /// Its text.
    pub body: String,
    /// Its tags.
    pub tags: Vec<String>,
    /// How urgent it is.
    pub priority: Priority,
}

/// Some items, and how many there are in all.
#[derive(Clone, Debug, Serialize, Deserialize@SCHEMA@)]
pub struct Page {
    /// How many items match.
    pub total: usize,
    /// The items returned.
    pub items: Vec<Item>,
}

/// Tags and how many items carry each.
#[derive(Clone, Debug, Serialize, Deserialize@SCHEMA@)]
pub struct Tags {
    /// Tag to count.
    pub tags: BTreeMap<String, u32>,
}

/// Items by priority.
#[derive(Clone, Debug, Default, Serialize, Deserialize@SCHEMA@)]
pub struct Counts {
    /// Low.
    pub low: u32,
    /// Normal.
    pub normal: u32,
    /// High.
    pub high: u32,
}

/// Whether something was deleted.
#[derive(Clone, Debug, Serialize, Deserialize@SCHEMA@)]
pub struct Deleted {
    /// Whether it was.
    pub deleted: bool,
}

/// What the store holds.
#[derive(Clone, Debug, Serialize, Deserialize@SCHEMA@)]
pub struct Stats {
    /// Items.
    pub items: usize,
    /// Changes logged.
    pub changes: usize,
}
"#;

const TEST_STORE: &str = r#"use layout::{Priority, Store};

#[test]
fn an_item_created_can_be_read_back() {
    let store = Store::default();
    let item = store.create("milk".into(), "two".into(), vec!["shop".into()], Priority::High);
    assert_eq!(store.get(item.id), Some(item));
}

#[test]
fn search_finds_by_title_and_tags() {
    let store = Store::default();
    store.create("milk".into(), String::new(), vec!["shop".into()], Priority::Low);
    store.create("bread".into(), String::new(), vec![], Priority::Low);
    assert_eq!(store.search("milk", &["shop".into()]).total, 1);
    assert_eq!(store.counts(None).low, 2);
}
"#;

const TEST_TYPES: &str = r#"use layout::{Item, Priority};

#[test]
fn an_item_round_trips_through_json() {
    let item = Item { id: 1, title: "a".into(), body: String::new(), tags: vec![], priority: Priority::Normal };
    let text = serde_json::to_string(&item).unwrap();
    assert!(text.contains("\"priority\":\"normal\""));
    assert_eq!(serde_json::from_str::<Item>(&text).unwrap(), item);
}
"#;

const TEST_STDIO: &str = r##"use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

#[test]
fn the_server_answers_initialize_and_lists_ten_tools_on_stdio() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_@BIN@"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    writeln!(stdin, "{}", r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#).unwrap();
    assert!(lines.next().unwrap().unwrap().contains("\"id\":1"));
    writeln!(stdin, "{}", r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).unwrap();
    writeln!(stdin, "{}", r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#).unwrap();
    let listing: serde_json::Value = serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap();
    assert_eq!(listing["result"]["tools"].as_array().unwrap().len(), 10);
    drop(stdin);
    child.wait().unwrap();
}
"##;

const TEST_HTTP: &str = r##"use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::Duration;

#[test]
fn the_server_answers_initialize_over_http() {
    let port = 20000 + std::process::id() % 20000;
    let address = format!("127.0.0.1:{port}");
    let mut child = Command::new(env!("CARGO_BIN_EXE_@BIN@"))
        .args(["--http", &address])
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
    let mut answer = String::new();
    for _ in 0..100 {
        if let Ok(mut stream) = TcpStream::connect(&address) {
            write!(stream, "POST /mcp HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}", body.len()).unwrap();
            stream.read_to_string(&mut answer).unwrap();
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.kill().unwrap();
    assert!(answer.contains("protocolVersion"), "{answer}");
}
"##;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_edit_changes_its_place_and_nothing_else() {
        for side in [Side::Tooltable, Side::Rmcp] {
            let original = edited(side, "/repo", [0, 0, 0]);
            for (i, edit) in Edit::ALL.iter().enumerate() {
                let mut before = [0, 0, 0];
                for version in 1..=3 {
                    let mut after = before;
                    after[i] = version;
                    let (old, new) = (edited(side, "/repo", before), edited(side, "/repo", after));
                    let changed: Vec<_> = old
                        .lines()
                        .zip(new.lines())
                        .filter(|(a, b)| a != b)
                        .collect();
                    assert_eq!(changed.len(), 1, "{side:?} {edit:?} {version}: {changed:?}");
                    before = after;
                }
            }
            assert_ne!(original, edited(side, "/repo", [1, 1, 1]));
        }
    }

    #[test]
    fn both_sides_declare_the_same_ten_tools() {
        for side in [Side::Tooltable, Side::Rmcp] {
            let text: String = files(side, "/repo")
                .into_iter()
                .filter(|(path, _)| path.starts_with("src/tools/"))
                .map(|(_, text)| text)
                .collect();
            for tool in TOOLS {
                assert!(
                    text.contains(&format!("pub fn {}(", tool.name)),
                    "{side:?} {}",
                    tool.name
                );
            }
            assert_eq!(text.matches("#[tool(").count(), TOOLS.len());
        }
    }
}
