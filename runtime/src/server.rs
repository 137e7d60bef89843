//! [`Server`]: a registry (or an rmcp handler composed around one) served
//! on stdio or streamable HTTP, guarded.
//!
//! This is the entry point a server's `main` calls. It owns the transports
//! and every guard on them (message size and nesting limits, JSON-RPC
//! errors for malformed input with the request's id where it can be read,
//! an answer to every request) and shuts down cleanly on SIGINT, SIGTERM,
//! and (on stdio) the input closing. Settings are checked before serving
//! starts, and a bad one is refused with a sentence naming it.

use crate::mcp::adapter::McpServer;
use crate::mcp::caller::CallerSource;
use crate::mcp::compose::Composed;
use crate::mcp::settings::Settings;
use crate::mcp::shortcut::Shortcut;
use crate::registry::policy::Caller;
use crate::registry::registry::Registry;
use crate::transport::erased::Erased;
use rmcp::ServerHandler;
use rmcp::model::Implementation;
use rmcp::service::{RequestContext, RoleServer};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

/// The largest message accepted by default, on either transport (4 MiB).
pub(crate) const DEFAULT_MAX_REQUEST_BYTES: usize = 4 * 1024 * 1024;
/// The deepest nesting of arrays and objects accepted by default.
pub(crate) const DEFAULT_MAX_DEPTH: usize = 64;
/// The most tools a page of `tools/list` may hold.
pub(crate) const MAX_PAGE_SIZE: usize = 10_000;
/// The smallest message limit: room for any ordinary request.
pub(crate) const MIN_REQUEST_BYTES: usize = 1024;
/// The deepest nesting a server may allow: serde_json's own recursion limit.
pub(crate) const MAX_DEPTH_LIMIT: usize = 128;

use crate::transport::error::ServeError;
use crate::transport::limits::Limits;

/// The most requests of one stdio session in flight at once, by default.
pub(crate) const DEFAULT_MAX_IN_FLIGHT: usize = 256;
/// The most a server may allow.
const MAX_IN_FLIGHT_LIMIT: usize = 65_536;
/// How long requests in flight get to finish at shutdown, by default.
pub(crate) const DEFAULT_SHUTDOWN_GRACE: std::time::Duration = std::time::Duration::from_secs(30);

type ShutdownFuture = Pin<Box<dyn Future<Output = ()> + Send>>;

type MakeShortcut<H> = fn(&H, bool) -> Arc<dyn Shortcut>;

/// A server whose settings passed, about to serve.
struct Prepared<H> {
    handler: H,
    limits: Limits,
    shortcut: Option<MakeShortcut<H>>,
    #[cfg(feature = "http")]
    gate: crate::transport::http::Gate,
    shutdown: CancellationToken,
}

/// An MCP server handler, ready to serve with every guard: a registry
/// through [`McpServer`] ([`Server::new`]), or any rmcp `ServerHandler`
/// that composes one with prompts and resources ([`Server::from_handler`]).
///
/// Settings are checked as they are given; serving refuses to start with
/// the first one that is out of range, in a sentence naming it.
///
/// ```no_run
/// # async fn run(registry: tooltable_runtime::Registry<()>) -> Result<(), tooltable_runtime::serve::ServeError> {
/// use tooltable_runtime::serve::Server;
/// Server::new(registry, ()).stdio().await
/// # }
/// ```
pub struct Server<H> {
    handler: H,
    limits: Limits,
    /// Makes what answers listings and simple calls before rmcp (for a
    /// stateless transport or not); only a registry served through
    /// [`McpServer`] has one.
    shortcut: Option<MakeShortcut<H>>,
    #[cfg(feature = "http")]
    gate: crate::transport::http::Gate,
    signals: bool,
    shutdown: Option<ShutdownFuture>,
    refused: Option<String>,
    /// The settings given that only some ways of serving apply.
    given: Vec<Scoped>,
}

impl<C: Send + Sync + 'static> Server<McpServer<C>> {
    /// Serves `registry`, handing `context` to every handler. The server
    /// names itself after the crate that declared the tools.
    pub fn new(registry: Registry<C>, context: impl Into<Arc<C>>) -> Server<McpServer<C>> {
        #[cfg_attr(not(feature = "auth"), allow(unused_mut))]
        let mut server = Server::from_handler(McpServer::new(registry.clone(), context.into()));
        server.shortcut = Some(McpServer::shortcut);
        #[cfg(feature = "auth")]
        {
            server.gate.tools = Some(Arc::new(registry));
        }
        server
    }

    /// Changes the adapter's settings.
    fn adapt(mut self, change: impl FnOnce(&mut Settings)) -> Server<McpServer<C>> {
        self.handler = self.handler.configure(change);
        self
    }

    /// Whether `tools/list` is answered from the descriptors' JSON text
    /// before rmcp sees it (default: yes). Off, every listing goes through
    /// rmcp's typed path: the same answer, at the cost of parsing and
    /// serialising every tool again; for comparing the two.
    pub fn shortcut_lists(self, enabled: bool) -> Server<McpServer<C>> {
        self.adapt(|s| s.shortcut_lists = enabled)
    }

    /// Whether the transports answer a `tools/call` of a tool that cannot
    /// talk back (its handler takes no [`Call`](crate::Call), it confirms
    /// nothing, it never runs as a task) themselves, through the same call
    /// path, before rmcp's service sees it (default: yes). Off, every call
    /// goes through rmcp's service: the same answer, at the cost of a task,
    /// a request context and, over HTTP, a session per stateless request;
    /// for comparing the two.
    pub fn shortcut_calls(self, enabled: bool) -> Server<McpServer<C>> {
        self.adapt(|s| s.shortcut_calls = enabled)
    }

    /// Serves in discovery mode: `tools/list` answers the tools `discovery`
    /// lists (to the callers that may see them) and two tools of its own, a
    /// search over every tool the caller may see and a call tool that calls
    /// one by name through exactly the path `tools/call` takes. For
    /// servers of many tools, whose whole listing would cost a model's
    /// context more than it needs; see [`Discovery`](crate::serve::Discovery).
    /// Refused at serve time when a listed tool or toolset is not in the
    /// registry or one of the registry's tools has the name of discovery's
    /// own.
    pub fn discovery(self, discovery: crate::mcp::discovery::Discovery) -> Server<McpServer<C>> {
        if let Some(refusal) = discovery.refusal(self.handler.registry()) {
            return self.refuse(refusal);
        }
        let discovery = discovery.resolved(self.handler.registry());
        self.adapt(|s| s.discovery = Some(discovery))
    }

    /// Instructions sent to clients when they connect.
    pub fn instructions(self, text: impl Into<String>) -> Server<McpServer<C>> {
        self.adapt(|s| s.instructions = Some(text.into()))
    }

    /// The name and version the server gives clients (default: the crate
    /// that declared the tools, and its version).
    pub fn implementation(
        self,
        name: impl Into<String>,
        version: impl Into<String>,
    ) -> Server<McpServer<C>> {
        let (name, version) = (name.into(), version.into());
        if name.trim().is_empty() {
            return self.refuse("the server's name must not be empty".to_owned());
        }
        self.adapt(|s| s.implementation = Implementation::new(name, version))
    }

    /// How long, in milliseconds, a 2026-07-28 client may treat a listing
    /// as fresh (`ttlMs`; default 60 000, a minute; zero tells it not to
    /// keep one).
    pub fn ttl_ms(self, ttl_ms: u64) -> Server<McpServer<C>> {
        self.adapt(|s| s.ttl_ms = ttl_ms)
    }

    /// How long to wait for a client's answer to a question a handler asks
    /// on the `initialize` era (default 10 minutes); past it the question
    /// fails and the handler hears why.
    pub fn ask_timeout(self, limit: std::time::Duration) -> Server<McpServer<C>> {
        if limit.is_zero() {
            return self
                .refuse("the time limit on a client's answer must be more than zero".to_owned());
        }
        self.adapt(|s| s.ask_timeout = limit)
    }

    /// How each request's caller is determined (the default:
    /// [`transport_caller`](crate::serve::transport_caller): the
    /// token's holder when HTTP authenticates, otherwise the operator).
    pub fn caller(
        self,
        f: impl Fn(&RequestContext<RoleServer>) -> Caller + Send + Sync + 'static,
    ) -> Server<McpServer<C>> {
        self.adapt(|s| s.caller = CallerSource::Custom(Arc::new(f)))
    }

    /// The same caller for every request, whatever the transport established.
    pub fn fixed_caller(self, caller: Caller) -> Server<McpServer<C>> {
        self.adapt(|s| s.caller = CallerSource::Fixed(caller))
    }

    /// Stops a call that runs longer than `limit` (default 15 minutes): its
    /// handle is cancelled and the caller told it took too long.
    pub fn call_timeout(self, limit: std::time::Duration) -> Server<McpServer<C>> {
        if limit.is_zero() {
            return self.refuse("the call time limit must be more than zero".to_owned());
        }
        self.adapt(|s| s.call_timeout = limit)
    }

    /// The bounds each call is admitted against: calls in progress in all
    /// and per caller, and the rate per caller (default
    /// [`CallLimits::default`](crate::serve::CallLimits)).
    pub fn call_limits(self, limits: crate::mcp::admission::CallLimits) -> Server<McpServer<C>> {
        if let Err(why) = limits.check() {
            return self.refuse(why);
        }
        self.adapt(|s| s.call_limits = limits)
    }

    /// The bounds on the tasks the server keeps for calls that run as tasks
    /// (default [`TaskLimits::default`](crate::serve::TaskLimits)).
    pub fn task_limits(self, limits: crate::serve::TaskLimits) -> Server<McpServer<C>> {
        if let Err(why) = limits.check() {
            return self.refuse(why);
        }
        self.adapt(|s| s.task_limits = limits)
    }

    /// Keeps tasks in the Redis the replicas share their flags through
    /// ([`RedisStore::tasks`](crate::registry::RedisStore::tasks)), so a task
    /// started on one replica is polled, answered and cancelled from any
    /// (the default: in this process's memory).
    #[cfg(feature = "redis")]
    pub fn tasks_in(self, tasks: crate::registry::RedisTasks) -> Server<McpServer<C>> {
        self.adapt(|s| s.task_home = crate::registry::tasks::TaskHome::Redis(Box::new(tasks)))
    }

    /// The largest result sent, in bytes of text and data (default 16 MiB,
    /// at least 1024); a larger one is replaced by an error
    /// saying so.
    pub fn max_result_bytes(self, bytes: usize) -> Server<McpServer<C>> {
        if bytes < MIN_REQUEST_BYTES {
            return self.refuse(format!(
                "the result size limit must be at least {MIN_REQUEST_BYTES} bytes; got {bytes}"
            ));
        }
        self.adapt(|s| s.max_result_bytes = bytes)
    }

    /// The key that seals 2026-07-28 `requestState` (at least 32 random
    /// bytes). Replicas given the same key can resume each other's
    /// multi-round calls; by default each process draws its own.
    pub fn state_key(mut self, key: impl Into<Vec<u8>>) -> Server<McpServer<C>> {
        match self.handler.clone().state_key(key) {
            Ok(handler) => {
                self.handler = handler;
                self
            }
            Err(error) => self.refuse(error.to_string()),
        }
    }

    /// Serves the table's tools beside `handler`, an rmcp handler of your
    /// own that serves prompts, resources, completions or instructions: the
    /// table answers the tools methods (through the baked listing path
    /// too), the handler the rest, and the capabilities are both's. Give
    /// the table's settings before this call. A handler that declares the
    /// tools capability itself is refused when serving starts.
    pub fn beside<U>(self, handler: U) -> Server<Composed<C, U>>
    where
        U: ServerHandler + Clone,
    {
        let composed = Composed::new(self.handler, handler);
        let refused = self.refused.or_else(|| composed.check().err());
        Server {
            handler: composed,
            limits: self.limits,
            shortcut: self
                .shortcut
                .is_some()
                .then_some(composed_shortcut as MakeShortcut<Composed<C, U>>),
            #[cfg(feature = "http")]
            gate: self.gate,
            signals: self.signals,
            shutdown: self.shutdown,
            refused,
            given: self.given,
        }
    }

    /// Lists at most `size` tools per page of `tools/list` (default: all in
    /// one page; 1 to 10 000).
    pub fn page_size(self, size: usize) -> Server<McpServer<C>> {
        if !(1..=MAX_PAGE_SIZE).contains(&size) {
            return self.refuse(format!(
                "the page size must be between 1 and {MAX_PAGE_SIZE} tools; got {size}"
            ));
        }
        self.adapt(|s| s.page_size = Some(size))
    }
}

impl<H> Server<H>
where
    H: ServerHandler + Clone + Send + Sync + 'static,
{
    /// Serves any rmcp handler, such as one that forwards the tools methods
    /// to an [`McpServer`] and serves prompts and resources of its own.
    pub fn from_handler(handler: H) -> Server<H> {
        Server {
            handler,
            shortcut: None,
            limits: Limits {
                max_request_bytes: DEFAULT_MAX_REQUEST_BYTES,
                max_depth: DEFAULT_MAX_DEPTH,
                max_in_flight: DEFAULT_MAX_IN_FLIGHT,
                shutdown_grace: DEFAULT_SHUTDOWN_GRACE,
            },
            #[cfg(feature = "http")]
            gate: crate::transport::http::Gate::default(),
            signals: true,
            shutdown: None,
            refused: None,
            given: Vec::new(),
        }
    }

    /// Records the first setting out of range; serving refuses with it.
    fn refuse(mut self, sentence: String) -> Server<H> {
        self.refused.get_or_insert(sentence);
        self
    }

    /// Records a setting only some ways of serving apply.
    fn given(mut self, setting: Scoped) -> Server<H> {
        self.given.push(setting);
        self
    }

    /// The refusal of the first setting given that `entry` does not apply.
    fn unapplied(&self, entry: Entry) -> Result<(), ServeError> {
        match self.given.iter().find_map(|s| s.refused_by(entry)) {
            Some(sentence) => Err(ServeError::Config(sentence)),
            None => Ok(()),
        }
    }

    /// The handler served.
    pub fn handler(&self) -> &H {
        &self.handler
    }

    /// The largest message accepted, in bytes (default 4 MiB; at least
    /// 1024). A larger one is refused with JSON-RPC -32600.
    pub fn max_request_bytes(mut self, bytes: usize) -> Server<H> {
        if bytes < MIN_REQUEST_BYTES {
            return self.refuse(format!(
                "the request size limit must be at least {MIN_REQUEST_BYTES} bytes; got {bytes}"
            ));
        }
        self.limits.max_request_bytes = bytes;
        self
    }

    /// The deepest nesting of arrays and objects accepted (default 64; at
    /// most 128, serde_json's own recursion limit). A deeper message is refused with -32600.
    pub fn max_depth(mut self, depth: usize) -> Server<H> {
        if !(1..=MAX_DEPTH_LIMIT).contains(&depth) {
            return self.refuse(format!(
                "the nesting limit must be between 1 and {MAX_DEPTH_LIMIT} levels; got {depth}"
            ));
        }
        self.limits.max_depth = depth;
        self
    }

    /// The most requests of one stdio session rmcp holds at once, answered
    /// or not (default 256; 1 to 65536). Beyond it the server reads no more
    /// input until an answer is written, so a client that does not read its
    /// answers is held back instead of growing the server.
    pub fn max_in_flight(mut self, requests: usize) -> Server<H> {
        if !(1..=MAX_IN_FLIGHT_LIMIT).contains(&requests) {
            return self.refuse(format!(
                "the limit of requests in flight must be between 1 and {MAX_IN_FLIGHT_LIMIT}; got {requests}"
            ));
        }
        self.limits.max_in_flight = requests;
        self.given(Scoped::MaxInFlight)
    }

    /// How long requests in flight get to finish when the server shuts
    /// down (default 30 s; zero answers them at once). Requests that arrive
    /// meanwhile are refused; what is still running when it ends is
    /// answered with an error saying the server stopped, and cancelled.
    pub fn shutdown_grace(mut self, grace: std::time::Duration) -> Server<H> {
        self.limits.shutdown_grace = grace;
        self
    }

    /// Authenticates every HTTP request with a bearer token (see
    /// [`Auth`](crate::transport::auth::Auth)): the token's holder is the
    /// caller, and its scopes are the caller's permissions.
    #[cfg(feature = "auth")]
    pub fn auth(mut self, auth: crate::transport::auth::Auth) -> Server<H> {
        self.gate.auth = Some(auth);
        self.given(Scoped::Http("auth"))
    }

    /// Also allows requests whose `Origin` is `origin` (such as
    /// `https://app.example.com`, or `null`). By default only the server's
    /// own loopback origins are allowed (and the audience's, with
    /// authentication); a request with any other `Origin` is answered `403`,
    /// and one without `Origin` (not from a browser) is served.
    #[cfg(feature = "http")]
    pub fn allowed_origin(mut self, origin: impl Into<String>) -> Server<H> {
        let origin = origin.into();
        if let Err(why) = check_origin(&origin) {
            return self.refuse(why);
        }
        self.gate.origins.push(origin);
        self.given(Scoped::Http("allowed_origin"))
    }

    /// How long a connection may take to send a request's headers over HTTP
    /// (default 10 s); a slower one is closed. The server's own listener's
    /// setting: a [mounted service](Server::http_service) leaves it to the
    /// application's server.
    #[cfg(feature = "http")]
    pub fn header_read_timeout(mut self, limit: std::time::Duration) -> Server<H> {
        if limit.is_zero() {
            return self.refuse("the header read time limit must be more than zero".to_owned());
        }
        self.gate.header_read_timeout = limit;
        self.given(Scoped::HeaderReadTimeout)
    }

    /// How long a connection may take to send a request's body over HTTP,
    /// from the end of its headers (default 30 s); a slower one is answered
    /// `408` and closed.
    #[cfg(feature = "http")]
    pub fn body_read_timeout(mut self, limit: std::time::Duration) -> Server<H> {
        if limit.is_zero() {
            return self.refuse("the body read time limit must be more than zero".to_owned());
        }
        self.gate.body_read_timeout = limit;
        self.given(Scoped::Http("body_read_timeout"))
    }

    /// The most HTTP connections open at once (default 1024; the server's
    /// own listener's setting, which a [mounted
    /// service](Server::http_service) leaves to the application). At the limit, a new connection takes
    /// the place of the one that has waited longest without a request in
    /// progress (idle, or still sending its request); when every connection
    /// has a request in progress, the new one is answered `503` and closed.
    #[cfg(feature = "http")]
    pub fn max_connections(mut self, connections: usize) -> Server<H> {
        if connections == 0 {
            return self.refuse("the connection limit must be at least 1; got 0".to_owned());
        }
        self.gate.max_connections = connections;
        self.given(Scoped::MaxConnections)
    }

    /// The most `initialize`-era HTTP sessions held at once (default
    /// 1024); an `initialize` beyond it is answered
    /// `503`. Idle sessions end after five minutes.
    #[cfg(feature = "http")]
    pub fn max_sessions(mut self, sessions: usize) -> Server<H> {
        if sessions == 0 {
            return self.refuse("the session limit must be at least 1; got 0".to_owned());
        }
        self.gate.max_sessions = sessions;
        self.given(Scoped::Http("max_sessions"))
    }

    /// Also allows requests whose `Host` is `host` (a name, or `name:port`
    /// for that port only). By default only loopback hosts are allowed,
    /// with the listener's own address and the token audience's; a request
    /// naming any other host is answered `403`, against DNS rebinding. A
    /// [mounted service](Server::http_service) behind a public name needs
    /// that name here.
    #[cfg(feature = "http")]
    pub fn allowed_host(mut self, host: impl Into<String>) -> Server<H> {
        let host = host.into();
        if host.parse::<http::uri::Authority>().is_err() || host.contains('@') {
            return self.refuse(format!(
                "the allowed host `{host}` is not a host name or `host:port`; write it as a client sends it in `Host`, such as mcp.example.com or mcp.example.com:8443"
            ));
        }
        self.gate.hosts.push(host);
        self.given(Scoped::Http("allowed_host"))
    }

    /// Serves HTTP on an address other than loopback without tokens, which
    /// is otherwise refused. Only for a server behind a proxy that
    /// authenticates every request itself.
    #[cfg(feature = "http")]
    pub fn insecure_no_auth(mut self, insecure: bool) -> Server<H> {
        self.gate.insecure_no_auth = insecure;
        match insecure {
            true => self.given(Scoped::Http("insecure_no_auth")),
            false => self,
        }
    }

    /// Whether SIGINT and SIGTERM shut the server down (default: yes). Turn
    /// it off when the program handles signals itself, and use
    /// [`Server::shutdown_on`].
    pub fn handle_signals(mut self, handle: bool) -> Server<H> {
        self.signals = handle;
        self
    }

    /// Shuts the server down when `signal` completes, as well as on the
    /// usual signals.
    pub fn shutdown_on(mut self, signal: impl Future<Output = ()> + Send + 'static) -> Server<H> {
        self.shutdown = Some(Box::pin(signal));
        self.given(Scoped::ShutdownOn)
    }

    /// Refuses a bad setting, or one `entry` does not apply, and starts
    /// watching for shutdown.
    fn prepare(self, entry: Entry) -> Result<Prepared<H>, ServeError> {
        if let Some(sentence) = self.refused {
            return Err(ServeError::Config(sentence));
        }
        self.unapplied(entry)?;
        let shutdown = CancellationToken::new();
        if self.signals {
            tokio::spawn(on_signal(shutdown.clone()));
        }
        if let Some(signal) = self.shutdown {
            let token = shutdown.clone();
            tokio::spawn(async move {
                signal.await;
                token.cancel();
            });
        }
        Ok(Prepared {
            handler: self.handler,
            limits: self.limits,
            shortcut: self.shortcut,
            #[cfg(feature = "http")]
            gate: self.gate,
            shutdown,
        })
    }

    /// Serves on the process's stdin and stdout until stdin closes or the
    /// server is shut down. Log to stderr: stdout carries the protocol.
    pub async fn stdio(self) -> Result<(), ServeError> {
        let prepared = self.prepare(Entry::Stdio)?;
        tracing::info!("serving MCP on stdio");
        let shortcut = prepared.shortcut.map(|make| make(&prepared.handler, false));
        crate::transport::stdio::serve_process(
            Erased::new(prepared.handler),
            prepared.limits,
            shortcut,
            prepared.shutdown,
        )
        .await
    }

    /// Serves newline-delimited JSON-RPC on any reader and writer (a pipe, a
    /// socket) until the reader ends or the server is shut down.
    pub async fn serve_io<R, W>(self, reader: R, writer: W) -> Result<(), ServeError>
    where
        R: tokio::io::AsyncRead + Unpin + Send + 'static,
        W: tokio::io::AsyncWrite + Unpin + Send + 'static,
    {
        let prepared = self.prepare(Entry::Stdio)?;
        let shortcut = prepared.shortcut.map(|make| make(&prepared.handler, false));
        crate::transport::stdio::serve_io(
            Erased::new(prepared.handler),
            Box::pin(reader),
            Box::pin(writer),
            prepared.limits,
            shortcut,
            prepared.shutdown,
        )
        .await
    }

    /// Serves streamable HTTP at `http://ADDRESS/mcp` until the server is
    /// shut down.
    #[cfg(feature = "http")]
    pub async fn http(self, address: std::net::SocketAddr) -> Result<(), ServeError> {
        let listener = tokio::net::TcpListener::bind(address)
            .await
            .map_err(|e| ServeError::io(format!("cannot listen on {address}"), e))?;
        self.http_on(listener).await
    }

    /// Serves streamable HTTP on a listener already bound (for example to
    /// port 0, to let the system choose).
    #[cfg(feature = "http")]
    pub async fn http_on(self, listener: tokio::net::TcpListener) -> Result<(), ServeError> {
        let prepared = self.prepare(Entry::Listener)?;
        let shortcut = prepared.shortcut.map(|make| make(&prepared.handler, true));
        crate::transport::http::listener::serve(
            prepared.handler,
            listener,
            prepared.limits,
            shortcut,
            prepared.gate,
            prepared.shutdown,
        )
        .await
    }
}

impl<H> Server<H>
where
    H: ServerHandler + Clone + Send + Sync + 'static,
{
    /// The guarded HTTP endpoint as a tower service, to mount in an
    /// application's router (see [`HttpService`](crate::transport::http::HttpService)),
    /// or the first setting out of range. Signals and shutdown are the
    /// application's: call [`HttpService::shutdown`](crate::transport::http::HttpService::shutdown)
    /// when it stops, so that answers in progress get the grace period.
    #[cfg(feature = "http")]
    pub fn http_service(self) -> Result<crate::transport::http::HttpService<H>, ServeError> {
        if let Some(sentence) = self.refused {
            return Err(ServeError::Config(sentence));
        }
        self.unapplied(Entry::Mounted)?;
        let shortcut = self.shortcut.map(|make| make(&self.handler, true));
        Ok(crate::transport::http::HttpService::new(
            self.handler,
            self.limits,
            shortcut,
            self.gate,
            crate::transport::http::Mount::App,
        ))
    }
}

/// The shortcut of a composed server: the table's.
fn composed_shortcut<C: Send + Sync + 'static, U: ServerHandler>(
    composed: &Composed<C, U>,
    stateless: bool,
) -> Arc<dyn Shortcut> {
    composed.tools().shortcut(stateless)
}

/// A way of serving, which applies some settings and not others.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(not(feature = "http"), allow(dead_code))]
enum Entry {
    /// Newline-delimited JSON-RPC: `stdio` and `serve_io`.
    Stdio,
    /// The server's own HTTP listener: `http` and `http_on`.
    Listener,
    /// The HTTP endpoint mounted in an application: `http_service`.
    Mounted,
}

/// A setting, once given, that only some ways of serving apply: each
/// refuses, in a sentence, one it would not apply, rather than serve as if
/// it had not been given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(not(feature = "http"), allow(dead_code))]
enum Scoped {
    /// `max_in_flight`: stdio's.
    MaxInFlight,
    /// `shutdown_on`: whatever runs its own loop (stdio, the listener).
    ShutdownOn,
    /// `max_connections`: the listener's.
    MaxConnections,
    /// `header_read_timeout`: the listener's.
    HeaderReadTimeout,
    /// A setting of every HTTP entry point, by its setter's name.
    Http(&'static str),
}

impl Scoped {
    /// Why `entry` does not apply this setting, if it does not.
    fn refused_by(self, entry: Entry) -> Option<String> {
        let sentence = match (self, entry) {
            (Scoped::MaxInFlight, Entry::Listener | Entry::Mounted) => {
                "`max_in_flight` bounds the requests of one stdio session; over HTTP each request in progress holds a connection, which `max_connections` bounds: leave it out when serving HTTP".to_owned()
            }
            (Scoped::ShutdownOn, Entry::Mounted) => {
                "`shutdown_on` stops the server's own listener; a mounted service is stopped by calling `HttpService::shutdown` when the application stops".to_owned()
            }
            (Scoped::MaxConnections, Entry::Mounted) => {
                "`max_connections` limits the server's own listener; the connections of a mounted service are the application's server's to limit (with hyper, by the connections its accept loop holds at once), so leave it out of `http_service`".to_owned()
            }
            (Scoped::HeaderReadTimeout, Entry::Mounted) => {
                "`header_read_timeout` is the server's own listener's; a mounted service sees a request only once its headers arrived, so set the deadline in the application's server (hyper's `http1::Builder::header_read_timeout`) and leave it out of `http_service`".to_owned()
            }
            (Scoped::MaxConnections, Entry::Stdio) => http_on_stdio("max_connections"),
            (Scoped::HeaderReadTimeout, Entry::Stdio) => http_on_stdio("header_read_timeout"),
            (Scoped::Http(setter), Entry::Stdio) => http_on_stdio(setter),
            _ => return None,
        };
        Some(sentence)
    }
}

/// The refusal of an HTTP setting on stdio.
fn http_on_stdio(setter: &str) -> String {
    format!(
        "`{setter}` is a setting of HTTP, and this server serves stdio (no tokens, origins, hosts or connections there: its caller is whoever started it); leave it out, or serve HTTP"
    )
}

/// Serves `registry` on stdio with `context` and every default: the
/// shortest way from a table to a running server.
pub async fn stdio<C: Send + Sync + 'static>(
    registry: Registry<C>,
    context: impl Into<Arc<C>>,
) -> Result<(), ServeError> {
    Server::new(registry, context).stdio().await
}

/// Cancels `token` on SIGINT or SIGTERM.
async fn on_signal(token: CancellationToken) {
    let interrupt = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut terminate) => tokio::select! {
                _ = interrupt => tracing::info!("SIGINT received; shutting down"),
                _ = terminate.recv() => tracing::info!("SIGTERM received; shutting down"),
                () = token.cancelled() => return,
            },
            Err(error) => {
                tracing::warn!(%error, "cannot listen for SIGTERM; SIGINT still shuts down");
                tokio::select! {
                    _ = interrupt => tracing::info!("SIGINT received; shutting down"),
                    () = token.cancelled() => return,
                }
            }
        }
    }
    #[cfg(not(unix))]
    tokio::select! {
        _ = interrupt => tracing::info!("interrupt received; shutting down"),
        () = token.cancelled() => return,
    }
    token.cancel();
}

/// Whether `origin` is an origin as a browser sends it: `null`, or a scheme
/// and a host with an optional port, and nothing else.
#[cfg(feature = "http")]
fn check_origin(origin: &str) -> Result<(), String> {
    if origin == "null" {
        return Ok(());
    }
    let refuse = |why: &str| {
        format!(
            "the allowed origin `{origin}` {why}; write it as a browser sends it, such as https://app.example.com or http://localhost:3000"
        )
    };
    let uri: http::Uri = origin.parse().map_err(|_| refuse("is not a URL"))?;
    if !matches!(uri.scheme_str(), Some("http" | "https")) {
        return Err(refuse("has no http or https scheme"));
    }
    if uri.authority().is_none() {
        return Err(refuse("has no host"));
    }
    if uri
        .path_and_query()
        .is_some_and(|p| p.as_str() != "/" && !p.as_str().is_empty())
        || origin.ends_with('/')
    {
        return Err(refuse("has a path"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    /// The doc comment above `fn {name}(` in `source`, as one line.
    fn doc_of(source: &str, name: &str) -> String {
        let lines: Vec<&str> = source.lines().collect();
        let at = lines
            .iter()
            .position(|line| line.trim_start().starts_with(&format!("pub fn {name}(")))
            .unwrap_or_else(|| panic!("no `pub fn {name}(`"));
        let mut doc: Vec<&str> = lines[..at]
            .iter()
            .rev()
            .map(|line| line.trim_start())
            .skip_while(|line| line.starts_with("#["))
            .take_while(|line| line.starts_with("///"))
            .map(|line| line.trim_start_matches('/').trim())
            .collect();
        doc.reverse();
        doc.join(" ")
    }

    /// A duration as the docs say it: whole minutes, or seconds.
    fn spoken(duration: Duration) -> String {
        match duration.as_secs() {
            secs if secs >= 60 && secs.is_multiple_of(60) => format!("{} minutes", secs / 60),
            secs => format!("{secs} s"),
        }
    }

    /// A number as the docs write it, in groups of three digits.
    fn grouped(number: usize) -> String {
        let digits = number.to_string();
        if digits.len() <= 4 {
            return digits;
        }
        let mut out = String::new();
        for (at, digit) in digits.chars().enumerate() {
            if at > 0 && (digits.len() - at).is_multiple_of(3) {
                out.push(' ');
            }
            out.push(digit);
        }
        out
    }

    fn assert_documents(source: &str, setter: &str, phrases: &[String]) {
        let doc = doc_of(source, setter);
        for phrase in phrases {
            assert!(
                doc.contains(phrase.as_str()),
                "the docs of `{setter}` do not say `{phrase}`, the number the code uses: {doc}"
            );
        }
    }

    /// The setters' docs state the defaults and bounds as numbers (the
    /// constants are not public): a number that changes must change its
    /// sentence too.
    #[test]
    fn the_defaults_are_the_numbers_the_setters_document() {
        use crate::mcp::settings::{
            DEFAULT_ASK_TIMEOUT, DEFAULT_CALL_TIMEOUT, DEFAULT_MAX_RESULT_BYTES, DEFAULT_TTL_MS,
        };
        let server = include_str!("server.rs");
        let mib = |bytes: usize| format!("default {} MiB", bytes >> 20);
        let ttl = usize::try_from(DEFAULT_TTL_MS).unwrap();
        assert_documents(server, "ttl_ms", &[format!("default {}", grouped(ttl))]);
        let timeouts = [
            ("ask_timeout", DEFAULT_ASK_TIMEOUT),
            ("call_timeout", DEFAULT_CALL_TIMEOUT),
            ("shutdown_grace", super::DEFAULT_SHUTDOWN_GRACE),
        ];
        for (setter, default) in timeouts {
            assert_documents(server, setter, &[format!("default {}", spoken(default))]);
        }
        let at_least = format!("at least {}", super::MIN_REQUEST_BYTES);
        assert_documents(
            server,
            "max_result_bytes",
            &[mib(DEFAULT_MAX_RESULT_BYTES), at_least.clone()],
        );
        assert_documents(
            server,
            "max_request_bytes",
            &[mib(super::DEFAULT_MAX_REQUEST_BYTES), at_least],
        );
        assert_documents(
            server,
            "page_size",
            &[format!("1 to {}", grouped(super::MAX_PAGE_SIZE))],
        );
        assert_documents(
            server,
            "max_depth",
            &[
                format!("default {}", super::DEFAULT_MAX_DEPTH),
                format!("at most {}", super::MAX_DEPTH_LIMIT),
            ],
        );
        assert_documents(
            server,
            "max_in_flight",
            &[format!("default {}", super::DEFAULT_MAX_IN_FLIGHT)],
        );
        let limits = crate::serve::CallLimits::default();
        let admission = include_str!("mcp/admission.rs");
        let admission = &admission[admission.find("pub struct CallLimits").unwrap()..];
        for (field, value) in [
            ("Calls in progress at once, in all", limits.max_concurrent),
            (
                "Calls in progress at once for one caller",
                limits.max_concurrent_per_caller,
            ),
            (
                "Calls one caller may start per second",
                limits.per_second as usize,
            ),
            ("Calls one caller may start at once", limits.burst as usize),
        ] {
            let line = admission
                .lines()
                .find(|line| line.trim_start().starts_with(&format!("/// {field}")))
                .unwrap_or_else(|| panic!("CallLimits documents no `{field}`"));
            assert!(
                line.contains(&format!("(default {value})")),
                "CallLimits's `{field}` is {value} by default, which its docs do not say: {line}"
            );
        }
        #[cfg(feature = "http")]
        {
            use crate::transport::http::{
                DEFAULT_BODY_READ_TIMEOUT, DEFAULT_HEADER_READ_TIMEOUT, DEFAULT_MAX_CONNECTIONS,
                DEFAULT_MAX_SESSIONS,
            };
            assert_documents(
                server,
                "header_read_timeout",
                &[format!("default {}", spoken(DEFAULT_HEADER_READ_TIMEOUT))],
            );
            assert_documents(
                server,
                "body_read_timeout",
                &[format!("default {}", spoken(DEFAULT_BODY_READ_TIMEOUT))],
            );
            assert_documents(
                server,
                "max_connections",
                &[format!("default {DEFAULT_MAX_CONNECTIONS}")],
            );
            assert_documents(
                server,
                "max_sessions",
                &[format!("default {DEFAULT_MAX_SESSIONS}")],
            );
        }
        #[cfg(feature = "auth")]
        assert_documents(
            include_str!("transport/auth/mod.rs"),
            "leeway",
            &[format!(
                "default {} seconds",
                crate::transport::auth::DEFAULT_LEEWAY.as_secs()
            )],
        );
    }
}
