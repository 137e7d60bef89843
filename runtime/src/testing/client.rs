//! The test client: a server driven in this process as a client drives it.
//!
//! [`TestClient`] serves a [`Server`] on an in-process pipe through
//! [`Server::serve_io`], which is the stdio transport: the guard, the
//! adapter, the limits and the shutdown of `Server::stdio`. Every request
//! and answer crosses the pipe as a line of JSON-RPC, so what a test reads
//! is what a stdio client reads, byte for byte; nothing is called around
//! the transport. It speaks either protocol era: an `initialize`d session
//! (2025-11-25, 2025-06-18), where the server asks its questions as
//! requests of its own, or stateless 2026-07-28 requests, where a question
//! ends a call's round and the client calls again with the answers.

use crate::server::Server;
use crate::transport::error::ServeError;
use crate::wire::json_text;
use crate::wire::manifest::Manifest;
use rmcp::ServerHandler;
use serde::Serialize;
use serde_json::{Map, Value, json};
use std::collections::VecDeque;
use std::fmt;
use std::path::Path;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, ReadHalf, WriteHalf};
use tokio::task::JoinHandle;

/// How long the client waits for a line from the server before the test
/// fails: far longer than any answer takes, short enough that a wedged
/// server fails its test instead of hanging the suite.
const PATIENCE: Duration = Duration::from_secs(30);

/// How many rounds a 2026-07-28 call may take before the client gives up:
/// a handler that asks again whatever it is answered would loop forever.
const MAX_ROUNDS: usize = 32;

/// The bytes the in-process pipe buffers each way.
const PIPE_BYTES: usize = 1 << 22;

/// The Tasks extension's name among a client's capabilities.
const TASKS: &str = "io.modelcontextprotocol/tasks";

/// How often a task is asked for its status while it works.
const TASK_POLL: Duration = Duration::from_millis(5);

/// The protocol revision a [`TestClient`] speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Revision {
    /// 2026-07-28: no session; each request carries the version, the
    /// client's capabilities and its info in `_meta`.
    R2026_07_28,
    /// 2025-11-25, in an `initialize`d session.
    R2025_11_25,
    /// 2025-06-18, in an `initialize`d session.
    R2025_06_18,
}

impl Revision {
    /// The revision's version string.
    pub const fn as_str(self) -> &'static str {
        match self {
            Revision::R2026_07_28 => "2026-07-28",
            Revision::R2025_11_25 => "2025-11-25",
            Revision::R2025_06_18 => "2025-06-18",
        }
    }

    const fn has_session(self) -> bool {
        !matches!(self, Revision::R2026_07_28)
    }
}

/// How the client answers an elicitation (a question a handler asks the
/// user, consent among them).
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// The user accepted, with this content (an object of the fields asked).
    Accept(Value),
    /// The user declined.
    Decline,
    /// The user dismissed the question.
    Cancel,
}

impl Answer {
    fn result(&self) -> Value {
        match self {
            Answer::Accept(content) => json!({"action": "accept", "content": content}),
            Answer::Decline => json!({"action": "decline"}),
            Answer::Cancel => json!({"action": "cancel"}),
        }
    }
}

/// A JSON-RPC error the server answered with.
#[derive(Clone, Debug, PartialEq)]
pub struct ProtocolError {
    /// The error code (`-32602` for invalid params, …).
    pub code: i64,
    /// The message.
    pub message: String,
    /// The error's `data`, if any.
    pub data: Option<Value>,
}

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "JSON-RPC error {}: {}", self.code, self.message)
    }
}

impl std::error::Error for ProtocolError {}

/// The result of a `tools/call`, after every round it took.
#[derive(Clone, Debug, PartialEq)]
pub struct Called {
    result: Value,
    task: Option<String>,
}

/// A `tools/call` sent and not answered yet, from [`TestClient::start`].
#[derive(Debug)]
#[must_use = "a started call is finished or cancelled"]
pub struct Pending {
    id: u64,
    params: Value,
}

impl Called {
    /// The id of the task the call ran as, when the server made it one
    /// (the client followed it to its end).
    pub fn task_id(&self) -> Option<&str> {
        self.task.as_deref()
    }

    /// Whether the tool failed (`isError: true`): a refusal, a bad
    /// argument, or the handler's own error.
    pub fn is_error(&self) -> bool {
        self.result.get("isError") == Some(&Value::Bool(true))
    }

    /// Every text block of the content, joined by new lines.
    pub fn text(&self) -> String {
        self.result
            .get("content")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter(|block| block.get("type").and_then(Value::as_str) == Some("text"))
            .filter_map(|block| block.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The structured content, if the tool returned any.
    pub fn structured(&self) -> Option<&Value> {
        self.result.get("structuredContent")
    }

    /// The structured content read as `T`.
    pub fn structured_as<T: serde::de::DeserializeOwned>(&self) -> Result<T, serde_json::Error> {
        T::deserialize(self.structured().unwrap_or(&Value::Null))
    }

    /// The whole `result` object, as the server wrote it.
    pub fn result(&self) -> &Value {
        &self.result
    }
}

/// The `result` of an answer, or its error.
fn result_of(answer: Value) -> Result<Value, ProtocolError> {
    match answer.get("error") {
        Some(error) => Err(ProtocolError {
            code: error.get("code").and_then(Value::as_i64).unwrap_or(0),
            message: error
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
            data: error.get("data").cloned(),
        }),
        None => Ok(answer.get("result").cloned().unwrap_or(Value::Null)),
    }
}

/// Configures a [`TestClient`]: its revision and the answers it gives.
#[derive(Clone, Debug)]
pub struct TestClientBuilder {
    revision: Revision,
    elicitation: VecDeque<Answer>,
    sampling: Option<Value>,
    roots: Option<Value>,
    progress: bool,
    tasks: bool,
    logs: Option<String>,
    name: String,
}

impl TestClientBuilder {
    /// The protocol revision to speak (2026-07-28 unless set).
    pub fn revision(mut self, revision: Revision) -> TestClientBuilder {
        self.revision = revision;
        self
    }

    /// Declares elicitation and answers the next question with `answer`.
    /// Answers are given in the order they were added; the last one
    /// answers every question after it.
    pub fn elicitation(mut self, answer: Answer) -> TestClientBuilder {
        self.elicitation.push_back(answer);
        self
    }

    /// Declares sampling and answers every `sampling/createMessage` with
    /// `result` (a `CreateMessageResult`, such as `{"role": "assistant",
    /// "content": {"type": "text", "text": "…"}, "model": "m"}`).
    pub fn sampling(mut self, result: Value) -> TestClientBuilder {
        self.sampling = Some(result);
        self
    }

    /// Declares roots and answers every `roots/list` with these roots
    /// (each `{"uri": "file:///…", "name": "…"}`).
    pub fn roots(mut self, roots: Vec<Value>) -> TestClientBuilder {
        self.roots = Some(Value::Array(roots));
        self
    }

    /// Asks for progress on every call (a `progressToken` in its `_meta`),
    /// so the handlers' progress arrives among the
    /// [`notifications`](TestClient::notifications).
    pub fn progress(mut self) -> TestClientBuilder {
        self.progress = true;
        self
    }

    /// Asks for the handlers' logs at `level` and above (`"debug"`,
    /// `"info"`, … `"emergency"`), so they arrive among the
    /// [`notifications`](TestClient::notifications) as
    /// `notifications/message`: with `logging/setLevel` once the session
    /// opens, or on 2026-07-28 in every request's `_meta`.
    pub fn logs(mut self, level: impl Into<String>) -> TestClientBuilder {
        self.logs = Some(level.into());
        self
    }

    /// Declares the Tasks extension (2026-07-28): a call the server makes
    /// a task is followed to its end, `tasks/get` after `tasks/get`, its
    /// questions answered through `tasks/update` as scripted.
    pub fn tasks(mut self) -> TestClientBuilder {
        self.tasks = true;
        self
    }

    /// The name the client gives in its info (`tooltable-test` unless set).
    pub fn name(mut self, name: impl Into<String>) -> TestClientBuilder {
        self.name = name.into();
        self
    }

    /// Serves `server` in this process and connects to it: in a session
    /// era, `initialize` and `notifications/initialized` are sent first.
    ///
    /// # Panics
    ///
    /// When the server refuses to start (a setting out of range) or does
    /// not answer `initialize`: the test cannot go on.
    pub async fn connect<H>(self, server: Server<H>) -> TestClient
    where
        H: ServerHandler + Clone + Send + Sync + 'static,
    {
        let (ours, theirs) = tokio::io::duplex(PIPE_BYTES);
        let (server_read, server_write) = tokio::io::split(theirs);
        let served = tokio::spawn(
            server
                .handle_signals(false)
                .serve_io(server_read, server_write),
        );
        let (read, write) = tokio::io::split(ours);
        let mut client = TestClient {
            read: BufReader::new(read),
            write: Some(write),
            served: Some(served),
            next_id: 1,
            capabilities: self.capabilities(),
            info: json!({"name": self.name, "version": env!("CARGO_PKG_VERSION")}),
            revision: self.revision,
            elicitation: self.elicitation,
            sampling: self.sampling,
            roots: self.roots,
            progress: self.progress,
            logs: self.logs,
            notifications: Vec::new(),
            asked: Vec::new(),
            early: Vec::new(),
            initialized: None,
        };
        if client.revision.has_session() {
            let params = json!({
                "protocolVersion": client.revision.as_str(),
                "capabilities": client.capabilities,
                "clientInfo": client.info,
            });
            match client.request("initialize", params).await {
                Ok(result) => client.initialized = Some(result),
                Err(e) => panic!("the server refused `initialize`: {e}"),
            }
            client.notify("notifications/initialized", json!({})).await;
            if let Some(level) = client.logs.clone()
                && let Err(e) = client
                    .request("logging/setLevel", json!({"level": level}))
                    .await
            {
                panic!("the server refused `logging/setLevel` to {level}: {e}");
            }
        }
        client
    }

    fn capabilities(&self) -> Value {
        let mut capabilities = Map::new();
        if !self.elicitation.is_empty() {
            capabilities.insert("elicitation".into(), json!({}));
        }
        if self.sampling.is_some() {
            capabilities.insert("sampling".into(), json!({}));
        }
        if self.roots.is_some() {
            capabilities.insert("roots".into(), json!({}));
        }
        if self.tasks {
            capabilities.insert("extensions".into(), json!({TASKS: {}}));
        }
        Value::Object(capabilities)
    }
}

/// A client of one server served in this process, for tests: it lists and
/// calls tools, answers the server's questions as scripted, and keeps the
/// notifications and questions it received.
///
/// ```ignore
/// let server = Server::new(Registry::new(&TOOLS), Store::in_memory()?);
/// let mut client = TestClient::connect(server).await;
/// let tools = client.list_tools().await;
/// let found = client.call("notes_search", json!({"query": "milk"})).await?;
/// assert!(!found.is_error(), "{}", found.text());
/// ```
///
/// docs/testing.md walks through the rest: both protocol eras, scripted
/// answers, cancellation, tasks, and the listing against the manifest.
pub struct TestClient {
    read: BufReader<ReadHalf<DuplexStream>>,
    write: Option<WriteHalf<DuplexStream>>,
    served: Option<JoinHandle<Result<(), ServeError>>>,
    next_id: u64,
    revision: Revision,
    capabilities: Value,
    info: Value,
    elicitation: VecDeque<Answer>,
    sampling: Option<Value>,
    roots: Option<Value>,
    progress: bool,
    logs: Option<String>,
    notifications: Vec<Value>,
    asked: Vec<Value>,
    early: Vec<Value>,
    initialized: Option<Value>,
}

impl TestClient {
    /// A builder: the revision, and the answers to give.
    pub fn builder() -> TestClientBuilder {
        TestClientBuilder {
            revision: Revision::R2026_07_28,
            elicitation: VecDeque::new(),
            sampling: None,
            roots: None,
            progress: false,
            tasks: false,
            logs: None,
            name: "tooltable-test".into(),
        }
    }

    /// Serves `server` and connects with the defaults: 2026-07-28, no
    /// capabilities (so a question a handler asks fails its call).
    pub async fn connect<H>(server: Server<H>) -> TestClient
    where
        H: ServerHandler + Clone + Send + Sync + 'static,
    {
        TestClient::builder().connect(server).await
    }

    /// The revision the client speaks.
    pub fn revision(&self) -> Revision {
        self.revision
    }

    /// The server's answer to `initialize` (its version, capabilities,
    /// info and instructions), in a session era; `None` on 2026-07-28,
    /// which has no `initialize`.
    pub fn initialized(&self) -> Option<&Value> {
        self.initialized.as_ref()
    }

    /// Every tool the server lists to this client, following `nextCursor`
    /// to the last page.
    ///
    /// # Panics
    ///
    /// When `tools/list` is answered with an error or without `tools`.
    pub async fn list_tools(&mut self) -> Vec<Value> {
        self.list_all("tools/list", "tools").await
    }

    /// How the tools listed to this client differ from the committed
    /// manifest at `manifest` (the crate's `tools.json`), one sentence a
    /// difference: a tool listed and not in the manifest, one in the
    /// manifest and not listed, one whose served descriptor is not the
    /// manifest's. Empty when what is served is what was committed.
    ///
    /// # Panics
    ///
    /// When the manifest cannot be read or parsed.
    pub async fn listing_differences(&mut self, manifest: impl AsRef<Path>) -> Vec<String> {
        let path = manifest.as_ref();
        let text = std::fs::read_to_string(path)
            .unwrap_or_else(|e| panic!("{} cannot be read: {e}", path.display()));
        let manifest = Manifest::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let listed = self.list_tools().await;
        let mut found = Vec::new();
        for tool in &listed {
            let name = tool.get("name").and_then(Value::as_str).unwrap_or_default();
            match manifest.tools.iter().find(|t| t.name == name) {
                None => found.push(format!("`{name}` is listed and not in the manifest")),
                Some(committed) if committed.descriptor != *tool => found.push(format!(
                    "`{name}` is served {} where the manifest has {}",
                    json_text::to_compact(tool),
                    json_text::to_compact(&committed.descriptor)
                )),
                Some(_) => {}
            }
        }
        for committed in &manifest.tools {
            if !listed
                .iter()
                .any(|t| t.get("name") == Some(&json!(committed.name)))
            {
                found.push(format!(
                    "`{}` is in the manifest and not listed",
                    committed.name
                ));
            }
        }
        found
    }

    /// Panics unless the tools listed to this client are exactly the
    /// committed manifest's at `manifest`, descriptor for descriptor: the
    /// one-line proof that what is served is what was reviewed.
    pub async fn assert_listing_is(&mut self, manifest: impl AsRef<Path>) {
        let differences = self.listing_differences(manifest.as_ref()).await;
        assert!(
            differences.is_empty(),
            "the listing is not {}:\n{}",
            manifest.as_ref().display(),
            differences.join("\n")
        );
    }

    /// Every prompt listed (served beside the table), all pages.
    ///
    /// # Panics
    ///
    /// When `prompts/list` is answered with an error or without `prompts`.
    pub async fn list_prompts(&mut self) -> Vec<Value> {
        self.list_all("prompts/list", "prompts").await
    }

    /// The prompt `name` with `arguments` (an object of strings).
    pub async fn get_prompt(
        &mut self,
        name: &str,
        arguments: Value,
    ) -> Result<Value, ProtocolError> {
        self.request("prompts/get", json!({"name": name, "arguments": arguments}))
            .await
    }

    /// Every resource listed (served beside the table), all pages.
    ///
    /// # Panics
    ///
    /// When `resources/list` is answered with an error or without
    /// `resources`.
    pub async fn list_resources(&mut self) -> Vec<Value> {
        self.list_all("resources/list", "resources").await
    }

    /// The contents of the resource at `uri`.
    pub async fn read_resource(&mut self, uri: &str) -> Result<Value, ProtocolError> {
        self.request("resources/read", json!({"uri": uri})).await
    }

    async fn list_all(&mut self, method: &str, key: &str) -> Vec<Value> {
        let mut items = Vec::new();
        let mut cursor: Option<Value> = None;
        loop {
            let params = match cursor.take() {
                Some(cursor) => json!({"cursor": cursor}),
                None => json!({}),
            };
            let page = self
                .request(method, params)
                .await
                .unwrap_or_else(|e| panic!("{method} failed: {e}"));
            match page.get(key) {
                Some(Value::Array(listed)) => items.extend(listed.iter().cloned()),
                _ => panic!("{method} answered without `{key}`: {page}"),
            }
            match page.get("nextCursor") {
                Some(next) if !next.is_null() => cursor = Some(next.clone()),
                _ => return items,
            }
        }
    }

    /// Calls `tool` with `arguments` (an object), answering every question
    /// its handler asks as scripted (and, for a client that declared
    /// tasks, following a task to its end), and returns its result; a
    /// JSON-RPC error (an unknown tool, a malformed request) is `Err`.
    pub async fn call(&mut self, tool: &str, arguments: Value) -> Result<Called, ProtocolError> {
        let pending = self.start(tool, arguments).await;
        self.finish(pending).await
    }

    /// Sends a `tools/call` of `tool` and returns without its answer, so
    /// that the test can do something meanwhile: [`cancel`](Self::cancel)
    /// it, or [`finish`](Self::finish) it.
    pub async fn start(&mut self, tool: &str, arguments: Value) -> Pending {
        let mut params = json!({"name": tool, "arguments": arguments});
        if self.progress {
            params["_meta"] = json!({"progressToken": format!("progress-{}", self.next_id)});
        }
        let id = self.send_request("tools/call", params.clone()).await;
        Pending { id, params }
    }

    /// Waits for a started call's answer, with every round and task step
    /// it takes, as [`call`](Self::call) does.
    pub async fn finish(&mut self, pending: Pending) -> Result<Called, ProtocolError> {
        let Pending { id, mut params } = pending;
        let tool = params["name"].as_str().unwrap_or_default().to_owned();
        let mut result = result_of(self.answer_to(&json!(id)).await)?;
        for _ in 0..MAX_ROUNDS {
            match result.get("resultType").and_then(Value::as_str) {
                Some("input_required") => {
                    params["inputResponses"] = self.answers_to(&result)?;
                    params["requestState"] =
                        result.get("requestState").cloned().unwrap_or(Value::Null);
                    result = self.request("tools/call", params.clone()).await?;
                }
                Some("task") => return self.follow(&tool, &result).await,
                _ => return Ok(Called { result, task: None }),
            }
        }
        panic!("`{tool}` still asked questions after {MAX_ROUNDS} rounds");
    }

    /// Cancels a started call, as a client does: `notifications/cancelled`
    /// naming it, after which the server does not answer it.
    pub async fn cancel(&mut self, pending: Pending) {
        let mut params = json!({"requestId": pending.id, "reason": "cancelled by the test"});
        self.with_meta(&mut params);
        self.notify("notifications/cancelled", params).await;
    }

    /// Follows the task `started` names until it ends, answering its
    /// questions through `tasks/update`.
    async fn follow(&mut self, tool: &str, started: &Value) -> Result<Called, ProtocolError> {
        let Some(task) = started
            .get("taskId")
            .and_then(Value::as_str)
            .map(str::to_owned)
        else {
            panic!("`{tool}` became a task without a `taskId`: {started}");
        };
        let polls = PATIENCE.as_millis() / TASK_POLL.as_millis();
        for _ in 0..polls {
            let got = self.request("tasks/get", json!({"taskId": task})).await?;
            match got.get("status").and_then(Value::as_str) {
                Some("working") => tokio::time::sleep(TASK_POLL).await,
                Some("input_required") => {
                    let responses = self.answers_to(&got)?;
                    self.request(
                        "tasks/update",
                        json!({"taskId": task, "inputResponses": responses}),
                    )
                    .await?;
                }
                _ => {
                    let result = got.get("result").cloned().unwrap_or(got);
                    return Ok(Called {
                        result,
                        task: Some(task),
                    });
                }
            }
        }
        panic!(
            "the task of `{tool}` did not end within {} s",
            PATIENCE.as_secs()
        );
    }

    /// The scripted answers to the `inputRequests` of `result`, by key.
    fn answers_to(&mut self, result: &Value) -> Result<Value, ProtocolError> {
        let mut responses = Map::new();
        let requests = result.get("inputRequests").and_then(Value::as_object);
        for (key, request) in requests.into_iter().flatten() {
            let method = request.get("method").and_then(Value::as_str).unwrap_or("");
            let question = request.get("params").cloned().unwrap_or(Value::Null);
            responses.insert(key.clone(), self.answer(method, question)?);
        }
        Ok(Value::Object(responses))
    }

    /// Calls `tool` with `arguments` serialized (a struct of the tool's
    /// parameters), as [`call`](TestClient::call) does.
    ///
    /// # Panics
    ///
    /// When `arguments` does not serialize to a JSON object.
    pub async fn call_with(
        &mut self,
        tool: &str,
        arguments: &impl Serialize,
    ) -> Result<Called, ProtocolError> {
        let arguments = serde_json::to_value(arguments)
            .unwrap_or_else(|e| panic!("the arguments of `{tool}` do not serialize: {e}"));
        self.call(tool, arguments).await
    }

    /// Sends a request and returns its `result`, or its error. In the
    /// 2026-07-28 era the request's `_meta` carries the version, the
    /// client's capabilities and its info; questions the server asks on
    /// the way (in a session era) are answered as scripted.
    pub async fn request(&mut self, method: &str, params: Value) -> Result<Value, ProtocolError> {
        let id = self.send_request(method, params).await;
        result_of(self.answer_to(&json!(id)).await)
    }

    /// Writes a request; its id.
    async fn send_request(&mut self, method: &str, mut params: Value) -> u64 {
        self.with_meta(&mut params);
        let id = self.next_id;
        self.next_id += 1;
        let line = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.write_line(&line.to_string()).await;
        id
    }

    /// Adds what a 2026-07-28 message carries in `_meta`: the version, the
    /// client's capabilities and its info. Nothing in a session era.
    fn with_meta(&self, params: &mut Value) {
        if self.revision.has_session() {
            return;
        }
        if !params.is_object() {
            *params = json!({});
        }
        let meta = params
            .as_object_mut()
            .map(|p| p.entry("_meta").or_insert_with(|| json!({})));
        if let Some(Value::Object(meta)) = meta {
            meta.insert(
                "io.modelcontextprotocol/protocolVersion".into(),
                json!(self.revision.as_str()),
            );
            meta.insert(
                "io.modelcontextprotocol/clientCapabilities".into(),
                self.capabilities.clone(),
            );
            meta.insert(
                "io.modelcontextprotocol/clientInfo".into(),
                self.info.clone(),
            );
            if let Some(level) = &self.logs {
                meta.insert("io.modelcontextprotocol/logLevel".into(), json!(level));
            }
        }
    }

    /// Sends a notification.
    pub async fn notify(&mut self, method: &str, params: Value) {
        let line = json!({"jsonrpc": "2.0", "method": method, "params": params});
        self.write_line(&line.to_string()).await;
    }

    /// Writes `line` as it is (a newline is added) and returns the next
    /// line the server writes that is not a notification or a question of
    /// its own, as it wrote it: for what a well-behaved client never sends.
    pub async fn raw(&mut self, line: &str) -> String {
        self.write_line(line).await;
        loop {
            let text = self.read_line().await;
            let message: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
            if !self.took(&message).await {
                return text;
            }
        }
    }

    /// The notifications received so far (progress, logs, list changes),
    /// in order.
    pub fn notifications(&self) -> &[Value] {
        &self.notifications
    }

    /// The notifications received so far, leaving none.
    pub fn take_notifications(&mut self) -> Vec<Value> {
        std::mem::take(&mut self.notifications)
    }

    /// Every question the server asked, `{"method": …, "params": …}`, in
    /// order: elicitations, sampling, roots, in either era.
    pub fn asked(&self) -> &[Value] {
        &self.asked
    }

    /// Answers the server wrote that no request of this client has waited
    /// for yet: the answer to a call started and not finished, or to a
    /// cancelled call, which the server should never write.
    pub fn unclaimed(&self) -> &[Value] {
        &self.early
    }

    /// Ends the session as a stdio client does, by closing the server's
    /// input, and returns how serving ended.
    pub async fn close(mut self) -> Result<(), ServeError> {
        if let Some(mut write) = self.write.take() {
            // The pipe's reading end sees its input end only when the
            // writing half shuts down: the halves share one stream.
            let _ = write.shutdown().await;
        }
        let served = self.served.take().expect("a client is closed once");
        match tokio::time::timeout(PATIENCE, served).await {
            Ok(Ok(ended)) => ended,
            Ok(Err(join)) => panic!("the server's task failed: {join}"),
            Err(_) => panic!(
                "the server did not stop within {} s of its input closing",
                PATIENCE.as_secs()
            ),
        }
    }

    /// Reads until the answer to `id`, taking in what comes before it; an
    /// answer to another request is kept for whoever waits for it.
    async fn answer_to(&mut self, id: &Value) -> Value {
        if let Some(at) = self.early.iter().position(|a| a.get("id") == Some(id)) {
            return self.early.remove(at);
        }
        loop {
            let text = self.read_line().await;
            let message: Value = serde_json::from_str(&text).unwrap_or_else(|e| {
                panic!("the server wrote a line that is not JSON ({e}): {text}")
            });
            if self.took(&message).await {
                continue;
            }
            if message.get("id") == Some(id) {
                return message;
            }
            self.early.push(message);
        }
    }

    /// Takes in a notification or a question of the server's (answering
    /// it); `false` for anything else, such as an answer.
    async fn took(&mut self, message: &Value) -> bool {
        let Some(method) = message.get("method").and_then(Value::as_str) else {
            return false;
        };
        let params = message.get("params").cloned().unwrap_or(Value::Null);
        let Some(id) = message.get("id") else {
            self.notifications.push(message.clone());
            return true;
        };
        let reply = match self.answer(method, params) {
            Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
            Err(error) => json!({"jsonrpc": "2.0", "id": id, "error": {
                "code": error.code, "message": error.message,
            }}),
        };
        self.write_line(&reply.to_string()).await;
        true
    }

    /// The scripted answer to a question, recorded in [`asked`](Self::asked).
    fn answer(&mut self, method: &str, params: Value) -> Result<Value, ProtocolError> {
        self.asked.push(json!({"method": method, "params": params}));
        let scripted = match method {
            "elicitation/create" => {
                let answer = if self.elicitation.len() > 1 {
                    self.elicitation.pop_front()
                } else {
                    self.elicitation.front().cloned()
                };
                answer.map(|a| a.result())
            }
            "sampling/createMessage" => self.sampling.clone(),
            "roots/list" => self.roots.clone().map(|roots| json!({"roots": roots})),
            "ping" => Some(json!({})),
            _ => None,
        };
        scripted.ok_or_else(|| ProtocolError {
            code: -32601,
            message: format!("the test client was given no answer to `{method}`"),
            data: None,
        })
    }

    async fn write_line(&mut self, line: &str) {
        let write = self
            .write
            .as_mut()
            .expect("the client is open until it is closed");
        let sent = write.write_all(format!("{line}\n").as_bytes()).await;
        if let Err(e) = sent {
            panic!("the server stopped reading: {e}");
        }
    }

    async fn read_line(&mut self) -> String {
        let mut text = String::new();
        match tokio::time::timeout(PATIENCE, self.read.read_line(&mut text)).await {
            Ok(Ok(0)) => {
                let ended = match self.served.take() {
                    Some(served) => match tokio::time::timeout(PATIENCE, served).await {
                        Ok(Ok(Err(e))) => format!(": {e}"),
                        Ok(Err(join)) => format!(": its task failed ({join})"),
                        _ => String::new(),
                    },
                    None => String::new(),
                };
                panic!("the server ended its output without answering{ended}")
            }
            Ok(Ok(_)) => text.trim_end_matches(['\r', '\n']).to_owned(),
            Ok(Err(e)) => panic!("the server's output cannot be read: {e}"),
            Err(_) => panic!(
                "the server wrote nothing for {} s while an answer was awaited",
                PATIENCE.as_secs()
            ),
        }
    }
}
