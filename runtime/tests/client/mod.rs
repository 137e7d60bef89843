//! A client for the runtime's serving tests: rmcp's own client answering
//! every question, and a raw 2026-07-28 client for what rmcp's would never
//! send.

// Each test file uses its own part of this module.
#![allow(dead_code)]
// Sampling and roots are deprecated in rmcp (SEP-2577) but still part of
// both protocol eras tooltable serves.
#![allow(deprecated)]

use rmcp::model::{
    ClientCapabilities, ClientConfig, CreateMessageRequestParams, CreateMessageResult,
    ElicitRequestParams, ElicitResult, ElicitationAction, ElicitationCapability,
    FormElicitationCapability, Implementation, ProgressNotificationParam, ProtocolVersion,
    RootsCapabilities, SamplingCapability, SamplingMessage, UrlElicitationCapability,
};
use rmcp::service::{
    ClientLifecycleMode, ClientServiceExt, NotificationContext, RequestContext, RoleClient,
    RunningService,
};
use rmcp::{ClientHandler, ErrorData};
use serde_json::{Value, json};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tooltable_fixture::{Shelf, TOOLS};
use tooltable_runtime::Registry;
use tooltable_runtime::registry::{MemoryStore, Pins};
use tooltable_runtime::serve::McpServer;
use tooltable_runtime::serve::Server;
use tooltable_runtime::{Caller, Tier};

/// A client that answers every question, and records what it was told.
#[derive(Clone, Default)]
pub struct Client {
    /// Whether it declares elicitation, sampling and roots.
    pub capable: bool,
    /// Whether its elicitation includes URL mode (with `capable`).
    pub url: bool,
    /// What it answers a question whether to allow a call (default: accept `true`).
    pub consent: Option<ElicitResult>,
    pub progress: Arc<Mutex<Vec<ProgressNotificationParam>>>,
    /// The messages of the questions it was asked.
    pub questions: Arc<Mutex<Vec<String>>>,
    pub list_changes: Arc<std::sync::atomic::AtomicUsize>,
}

impl ClientHandler for Client {
    fn get_info(&self) -> ClientConfig {
        let mut capabilities = ClientCapabilities::default();
        if self.capable {
            capabilities.elicitation = Some(if self.url {
                ElicitationCapability::new()
                    .with_form(FormElicitationCapability::default())
                    .with_url(UrlElicitationCapability::new())
            } else {
                ElicitationCapability::new()
            });
            capabilities.sampling = Some(SamplingCapability::default());
            capabilities.roots = Some(RootsCapabilities::default());
        }
        ClientConfig::new(capabilities, Implementation::new("talk-tests", "0"))
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let message = match &request {
            ElicitRequestParams::FormElicitationParams { message, .. } => message.clone(),
            ElicitRequestParams::UrlElicitationParams {
                message,
                url,
                elicitation_id,
                ..
            } => {
                // Agreeing to open a page carries no content.
                self.questions
                    .lock()
                    .unwrap()
                    .push(format!("{message} <{url}> [{elicitation_id}]"));
                return Ok(ElicitResult::new(ElicitationAction::Accept));
            }
            other => format!("{other:?}"),
        };
        self.questions.lock().unwrap().push(message.clone());
        if message.starts_with("Allow ") {
            return Ok(self.consent.clone().unwrap_or_else(|| {
                ElicitResult::new(ElicitationAction::Accept).with_content(json!({"confirm": true}))
            }));
        }
        let name = if message.contains("item") {
            "lamp"
        } else {
            "Alice"
        };
        Ok(ElicitResult::new(ElicitationAction::Accept).with_content(json!({"name": name})))
    }

    async fn create_message(
        &self,
        _: CreateMessageRequestParams,
        _: RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, ErrorData> {
        Ok(CreateMessageResult::new(
            SamplingMessage::assistant_text("Hello there!"),
            "test-model".into(),
        ))
    }

    async fn list_roots(
        &self,
        _: RequestContext<RoleClient>,
    ) -> Result<rmcp::model::ListRootsResult, ErrorData> {
        Ok(rmcp::model::ListRootsResult::new(vec![
            rmcp::model::Root::new("file:///work"),
        ]))
    }

    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _: NotificationContext<RoleClient>,
    ) {
        self.progress.lock().unwrap().push(params);
    }

    async fn on_tool_list_changed(&self, _: NotificationContext<RoleClient>) {
        self.list_changes.fetch_add(1, Ordering::SeqCst);
    }
}

pub fn lifecycles() -> [(&'static str, ClientLifecycleMode); 2] {
    [
        ("legacy", ClientLifecycleMode::Initialize),
        (
            "2026-07-28",
            ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            },
        ),
    ]
}

pub async fn connect(
    server: Server<McpServer<Shelf>>,
    client: Client,
    lifecycle: ClientLifecycleMode,
) -> RunningService<RoleClient, Client> {
    let (server_side, client_side) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        let (read, write) = tokio::io::split(server_side);
        server.handle_signals(false).serve_io(read, write).await
    });
    client
        .serve_with_lifecycle(client_side, lifecycle)
        .await
        .expect("the client connects")
}

/// A server of the fixture's read tools.
pub fn server(shelf: Arc<Shelf>) -> Server<McpServer<Shelf>> {
    Server::new(Registry::new(&TOOLS), shelf)
}

pub fn text(result: &rmcp::model::CallToolResult) -> String {
    result
        .content
        .iter()
        .find_map(|c| c.as_text().map(|t| t.text.clone()))
        .unwrap_or_default()
}

/// A raw 2026-07-28 client on a pipe: one request per line, its answer back.
pub struct Raw {
    pub write: tokio::io::WriteHalf<tokio::io::DuplexStream>,
    pub read: tokio::io::BufReader<tokio::io::ReadHalf<tokio::io::DuplexStream>>,
    next: u64,
}

impl Raw {
    /// A raw client of the fixture's read tools.
    pub fn start(shelf: Arc<Shelf>) -> Raw {
        Raw::serving(server(shelf))
    }

    /// A raw client of `server`.
    pub fn serving(server: Server<McpServer<Shelf>>) -> Raw {
        let (client, server_side) = tokio::io::duplex(1 << 22);
        tokio::spawn(async move {
            let (read, write) = tokio::io::split(server_side);
            server.handle_signals(false).serve_io(read, write).await
        });
        let (read, write) = tokio::io::split(client);
        Raw {
            write,
            read: tokio::io::BufReader::new(read),
            next: 1,
        }
    }

    /// Calls `tool` with `extra` params merged in; returns the answer to it
    /// (notifications before it are skipped).
    pub async fn call(&mut self, tool: &str, extra: Value, capabilities: Value) -> Value {
        let mut params = json!({"name": tool, "arguments": {}});
        for (key, value) in extra.as_object().unwrap() {
            params[key] = value.clone();
        }
        self.send("tools/call", params, capabilities).await
    }

    /// Sends any request with `params` and no client capabilities; returns
    /// the answer to it.
    pub async fn request(&mut self, method: &str, params: Value) -> Value {
        self.send(method, params, json!({})).await
    }

    async fn send(&mut self, method: &str, params: Value, capabilities: Value) -> Value {
        self.send_meta(method, params, capabilities, json!({}))
            .await
    }

    /// Sends any request with `params`, the client `capabilities` and the
    /// `_meta` entries of `meta`; returns the answer to it.
    pub async fn send_meta(
        &mut self,
        method: &str,
        mut params: Value,
        capabilities: Value,
        meta: Value,
    ) -> Value {
        use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
        let id = self.next;
        self.next += 1;
        params["_meta"] = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": capabilities,
        });
        for (key, value) in meta.as_object().into_iter().flatten() {
            params["_meta"][key] = value.clone();
        }
        let line = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.write
            .write_all(format!("{line}\n").as_bytes())
            .await
            .unwrap();
        loop {
            let mut answer = String::new();
            tokio::time::timeout(Duration::from_secs(10), self.read.read_line(&mut answer))
                .await
                .expect("an answer")
                .unwrap();
            let answer: Value = serde_json::from_str(&answer).unwrap();
            if answer["id"] == json!(id) {
                return answer;
            }
        }
    }
}

/// An HTTP answer: status, headers (names lowercase) and body.
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Answer {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn json(&self) -> Value {
        let text = self.body.trim();
        // A streamed answer carries its JSON on a `data:` line.
        let text = text
            .lines()
            .filter_map(|line| line.strip_prefix("data:"))
            .map(str::trim)
            .rfind(|line| !line.is_empty())
            .unwrap_or(text);
        serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {}", self.body))
    }
}

/// One HTTP/1.1 exchange on a fresh connection.
pub async fn exchange(
    address: std::net::SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> Answer {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    let mut request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    stream.write_all(body.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    tokio::time::timeout(Duration::from_secs(20), stream.read_to_end(&mut response))
        .await
        .expect("an answer within 20 s")
        .unwrap();
    let response = String::from_utf8_lossy(&response).into_owned();
    let (head, body) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
    let mut lines = head.lines();
    let status = lines.next().unwrap_or_default()[9..12].parse().unwrap();
    let headers = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    Answer {
        status,
        headers,
        body: body.to_owned(),
    }
}

pub fn capable() -> Value {
    json!({"elicitation": {}, "sampling": {}, "roots": {}})
}

/// A stateless 2026-07-28 `tools/call` of `tool`, as the HTTP/1.1 request
/// text a client sends (the connection kept open).
pub fn stateless_call_request(
    address: std::net::SocketAddr,
    id: u64,
    tool: &str,
    arguments: Value,
) -> String {
    let body = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
        "name": tool,
        "arguments": arguments,
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "0"},
        },
    }})
    .to_string();
    format!(
        "POST /mcp HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: {tool}\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
}

/// The `_meta` a 2026-07-28 request carries.
pub fn current_meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "listing-tests", "version": "0"},
    })
}

/// A stdio session: one line out, the line answering it back.
pub struct Session {
    write: Box<dyn tokio::io::AsyncWrite + Unpin + Send>,
    read: BufReader<Box<dyn tokio::io::AsyncRead + Unpin + Send>>,
    pub next_id: i64,
    /// `None` for 2026-07-28, whose requests carry their version.
    pub legacy: Option<&'static str>,
    /// The server's process, when it has one; killed with the session.
    _process: Option<tokio::process::Child>,
}

impl Session {
    /// A session with `server`, served in this process on an in-process pipe.
    pub async fn open(server: Server<McpServer<Shelf>>, legacy: Option<&'static str>) -> Session {
        let (client, server_side) = tokio::io::duplex(1 << 20);
        let (server_read, server_write) = tokio::io::split(server_side);
        tokio::spawn(server.serve_io(server_read, server_write));
        let (read, write) = tokio::io::split(client);
        Session::start(Box::new(read), Box::new(write), None, legacy).await
    }

    /// A session with `runtime/examples/fixture_stdio.rs` started with
    /// `args`: a server on a real process's stdin and stdout.
    pub async fn spawn(args: &[&str], legacy: Option<&'static str>) -> Session {
        let binary = fixture_binary();
        let mut child = tokio::process::Command::new(&binary)
            .args(args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .unwrap_or_else(|e| {
                panic!(
                    "{}: {e}; `cargo test -p tooltable-runtime` builds it",
                    binary.display()
                )
            });
        let write = Box::new(child.stdin.take().unwrap());
        let read = Box::new(child.stdout.take().unwrap());
        Session::start(read, write, Some(child), legacy).await
    }

    async fn start(
        read: Box<dyn tokio::io::AsyncRead + Unpin + Send>,
        write: Box<dyn tokio::io::AsyncWrite + Unpin + Send>,
        process: Option<tokio::process::Child>,
        legacy: Option<&'static str>,
    ) -> Session {
        let mut session = Session {
            write,
            read: BufReader::new(read),
            next_id: 1,
            legacy,
            _process: process,
        };
        if let Some(version) = legacy {
            let (_, answer) = session
                .ask(
                    "initialize",
                    json!({"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}),
                )
                .await;
            assert_eq!(answer["result"]["protocolVersion"], version, "{answer}");
            session
                .send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
                .await;
        }
        session
    }

    pub async fn send(&mut self, message: &Value) {
        let line = format!("{message}\n");
        self.write.write_all(line.as_bytes()).await.unwrap();
    }

    /// Asks and returns the answer, raw and parsed.
    pub async fn ask(&mut self, method: &str, params: Value) -> (String, Value) {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        loop {
            let mut line = String::new();
            tokio::time::timeout(Duration::from_secs(10), self.read.read_line(&mut line))
                .await
                .expect("an answer within 10 s")
                .unwrap();
            let answer: Value = serde_json::from_str(&line).unwrap();
            if answer["id"] == json!(id) {
                return (line, answer);
            }
        }
    }

    /// Lists the tools from `cursor`, as the session's era asks.
    pub async fn list(&mut self, cursor: Option<&str>) -> (String, Value) {
        let mut params = json!({});
        if let Some(cursor) = cursor {
            params["cursor"] = json!(cursor);
        }
        if self.legacy.is_none() {
            params["_meta"] = current_meta();
        }
        self.ask("tools/list", params).await
    }

    /// The next line the server writes, parsed.
    pub async fn next_answer(&mut self) -> Value {
        let mut line = String::new();
        tokio::time::timeout(Duration::from_secs(10), self.read.read_line(&mut line))
            .await
            .expect("an answer within 10 s")
            .unwrap();
        serde_json::from_str(&line).unwrap()
    }
}

/// `runtime/examples/fixture_stdio.rs` as `cargo test` builds it.
pub fn fixture_binary() -> std::path::PathBuf {
    let deps = std::env::current_exe().unwrap();
    deps.parent()
        .and_then(|deps| deps.parent())
        .unwrap()
        .join("examples")
        .join(format!("fixture_stdio{}", std::env::consts::EXE_SUFFIX))
}

/// Serves `server` over HTTP on a port of its own, until the sender is
/// dropped.
pub async fn listen(
    server: Server<McpServer<Shelf>>,
) -> (std::net::SocketAddr, tokio::sync::oneshot::Sender<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = server.shutdown_on(async move {
        let _ = stopped.await;
    });
    tokio::spawn(server.http_on(listener));
    (address, stop)
}

/// Every tool of the fixture, up to the destructive tier.
pub fn everything() -> Registry<Shelf> {
    Registry::builder(&TOOLS)
        .max_tier(Tier::Destructive)
        .build()
}

/// The registry nobody configured: read tools only.
pub fn read_only() -> Registry<Shelf> {
    Registry::new(&TOOLS)
}

/// Every tool, `items_get` disabled.
pub fn one_disabled() -> Registry<Shelf> {
    let registry = Registry::builder(&TOOLS)
        .max_tier(Tier::Destructive)
        .store(MemoryStore::new())
        .build();
    registry.set_enabled("items_get", false).unwrap();
    registry
}

/// A caller holding no permission.
pub fn without_permissions() -> Caller {
    Caller::with_permissions(Vec::<String>::new())
}

/// A caller that pinned `items_get` alone.
pub fn pinned() -> Caller {
    let fingerprint = *TOOLS.get("items_get").unwrap().fingerprint();
    Caller::operator().pinned(Pins::new([("items_get".to_owned(), fingerprint)]).unwrap())
}

/// The fixture's shelf held from a thread of its own, as another process
/// holds a database's lock, until this is dropped: a call that puts an item
/// waits until then.
pub struct Held(
    Option<std::sync::mpsc::Sender<()>>,
    Option<std::thread::JoinHandle<()>>,
);

pub fn hold(shelf: &Arc<Shelf>) -> Held {
    let (release, released) = std::sync::mpsc::channel::<()>();
    let (taken, is_taken) = std::sync::mpsc::channel::<()>();
    let shelf = shelf.clone();
    let holder = std::thread::spawn(move || {
        let _guard = shelf.hold();
        let _ = taken.send(());
        let _ = released.recv();
    });
    is_taken.recv().expect("the shelf is held");
    Held(Some(release), Some(holder))
}

impl Drop for Held {
    fn drop(&mut self) {
        drop(self.0.take());
        if let Some(holder) = self.1.take() {
            let _ = holder.join();
        }
    }
}

/// Counts the calls answered without rmcp's service, by the event the
/// shortcut records for each, on the thread it is installed on (the tests
/// run their servers on the test's own thread).
#[derive(Clone, Default)]
pub struct Direct(pub Arc<AtomicUsize>);

impl tracing::Subscriber for Direct {
    fn enabled(&self, metadata: &tracing::Metadata<'_>) -> bool {
        metadata.target() == "tooltable::shortcut"
    }
    fn new_span(&self, _: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        tracing::span::Id::from_u64(1)
    }
    fn record(&self, _: &tracing::span::Id, _: &tracing::span::Record<'_>) {}
    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
    fn event(&self, event: &tracing::Event<'_>) {
        if event.metadata().target() == "tooltable::shortcut" {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }
    fn enter(&self, _: &tracing::span::Id) {}
    fn exit(&self, _: &tracing::span::Id) {}
}

impl Direct {
    pub fn count(&self) -> usize {
        // A callsite first met on another thread at the moment this
        // thread's subscriber was installed can be left believing no
        // subscriber wants its events; asking again settles it.
        tracing_core::callsite::rebuild_interest_cache();
        self.0.load(Ordering::SeqCst)
    }

    /// Waits until a call is answered directly.
    pub async fn running(&self) {
        let started = async {
            while self.count() == 0 {
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        };
        tokio::time::timeout(Duration::from_secs(10), started)
            .await
            .expect("the call is answered directly");
    }
}

/// Runs `test` on a runtime of the current thread, counting the calls the
/// shortcut answers.
pub fn counting<F: std::future::Future>(test: impl FnOnce(Direct) -> F) -> F::Output {
    let direct = Direct::default();
    let _default = tracing::subscriber::set_default(direct.clone());
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(test(direct))
}
