//! [`HttpService`]: the guarded endpoint as a tower service, what an
//! application mounts and what the server's own listener serves.

use super::answer::{self, Answering, Body, json_response, refusal};
use super::headers::{
    Hosts, MCP_SESSION_ID, Stateless, in_session, repeated, stateless, unread_of,
};
use super::sessions::Sessions;
use super::{Gate, MCP_PATH};
use crate::mcp::shortcut::{Asked, Shortcut};
use crate::transport::connections::Place;
use crate::transport::error::ServeError;
use crate::transport::guard::{self, Passed, Refused, RequestId, Unread};
use crate::transport::limits::Limits;
use bytes::Bytes;
use http::{Method, Request, Response, StatusCode};
use http_body_util::{BodyExt, Full, Limited};
use rmcp::ServerHandler;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

/// How long answers of requests cut off at the end of the grace period
/// get to be written.
const LAST_WORDS: std::time::Duration = std::time::Duration::from_secs(1);

/// The guarded streamable-HTTP endpoint as a tower
/// [`Service`](tower_service::Service), to mount in an application's
/// router: every request gets what [`Server::http`] gives it (the `Origin`
/// and `Host` checks, bearer tokens and their challenges, the body's size
/// limit and deadline, the JSON-RPC guard, the session limit, the baked
/// listing path), and the same answers.
///
/// Made by [`Server::http_service`]. The limits on connections belong to
/// whoever owns the listener, so a mounted service leaves them to the
/// application: how long a connection may take to send its headers, and
/// how many may be open. Shutting down is the application's too: call
/// [`HttpService::shutdown`] when it stops.
///
/// ```ignore
/// // In an application with axum (a dependency of the application's).
/// let mcp = server.http_service()?;
/// let app = axum::Router::new()
///     .route("/healthz", axum::routing::get(|| async { "ok" }))
///     .nest_service("/mcp", mcp.clone());
/// axum::serve(listener, app).await?;
/// mcp.shutdown().await;
/// ```
///
/// [`Server::http`]: crate::server::Server::http
/// [`Server::http_service`]: crate::server::Server::http_service
pub struct HttpService<H: ServerHandler> {
    shared: Arc<Shared<H>>,
}

impl<H: ServerHandler> Clone for HttpService<H> {
    fn clone(&self) -> Self {
        HttpService {
            shared: self.shared.clone(),
        }
    }
}

/// Where the service is reached from, which decides what it checks of a
/// request's path and which `Host` and `Origin` values it allows.
#[derive(Clone, Copy)]
pub(crate) enum Mount {
    /// The server's own listener, bound to this address: MCP is at
    /// [`MCP_PATH`], and the address's loopback origins are allowed.
    Listener(SocketAddr),
    /// An application's router, which chose the path.
    App,
}

/// What every request shares.
struct Shared<H: ServerHandler> {
    service: StreamableHttpService<H, LocalSessionManager>,
    sessions: Arc<LocalSessionManager>,
    /// Held from an `initialize`'s check against the limit until rmcp
    /// answered it.
    admitting: tokio::sync::Mutex<()>,
    /// rmcp's sessions as the transport sees them.
    open: Arc<Sessions>,
    limits: Limits,
    shortcut: Option<Arc<dyn Shortcut>>,
    /// The `Host` values rmcp accepts, for the requests answered here.
    hosts: Hosts,
    gate: Gate,
    mount: Mount,
    /// Requests read whole and not yet answered: what shutdown waits on.
    requests: Arc<InProgress>,
    /// Cancelled when shutdown began: new requests are refused.
    closing: CancellationToken,
    /// Cancelled when the grace period ended: requests still in progress
    /// are answered with an error.
    stopped: CancellationToken,
    /// Stops rmcp's sessions, once every answer was written: its own stop
    /// answers a request in progress with a plain-text 500.
    rmcp_stop: CancellationToken,
}

/// A count of requests in progress that can be waited on to reach zero.
#[derive(Default)]
struct InProgress {
    count: AtomicUsize,
    done: Notify,
}

/// A request in progress, counted until dropped.
struct Counted(Arc<InProgress>);

impl InProgress {
    fn enter(self: &Arc<Self>) -> Counted {
        self.count.fetch_add(1, Ordering::AcqRel);
        Counted(self.clone())
    }

    async fn idle(&self) {
        loop {
            let done = self.done.notified();
            if self.count.load(Ordering::Acquire) == 0 {
                return;
            }
            done.await;
        }
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        self.0.count.fetch_sub(1, Ordering::AcqRel);
        self.0.done.notify_waiters();
    }
}

/// The connection a request came on, which the server's own listener puts
/// in its extensions: while the request is served, the connection does not
/// give way to a new one.
#[derive(Clone)]
pub(crate) struct OnConnection(pub Arc<Place>);

/// The origins a browser on this machine would send for `address`.
fn loopback_origins(address: SocketAddr) -> Vec<String> {
    let port = address.port();
    vec![
        format!("http://127.0.0.1:{port}"),
        format!("http://localhost:{port}"),
        format!("http://[::1]:{port}"),
    ]
}

impl<H: ServerHandler + Clone + Send + Sync + 'static> HttpService<H> {
    pub(crate) fn new(
        handler: H,
        limits: Limits,
        shortcut: Option<Arc<dyn Shortcut>>,
        gate: Gate,
        mount: Mount,
    ) -> HttpService<H> {
        let mut origins = Vec::new();
        let mut hosts = StreamableHttpServerConfig::default().allowed_hosts;
        if let Mount::Listener(address) = mount {
            origins.extend(loopback_origins(address));
            if !address.ip().is_loopback() {
                hosts.push(address.ip().to_string());
                hosts.push(address.to_string());
            }
        }
        origins.extend(gate.origins.iter().cloned());
        hosts.extend(gate.hosts.iter().cloned());
        #[cfg(feature = "auth")]
        if let Some(auth) = &gate.auth {
            hosts.extend(auth.audience_authority().map(str::to_owned));
            origins.extend(auth.audience_origin());
        }
        let rmcp_stop = CancellationToken::new();
        let config = StreamableHttpServerConfig::default()
            .with_cancellation_token(rmcp_stop.clone())
            .with_max_request_body_bytes(limits.max_request_bytes)
            .with_sse_keep_alive(None)
            .with_json_response(true)
            .with_allowed_hosts(hosts.iter().cloned())
            .with_allowed_origins(origins)
            // Without an allowed origin (a mounted service nobody gave
            // one), every browser's request is refused, not every one let in.
            .enforce_origin_validation();
        // The transport ends unused sessions itself (`super::sessions`):
        // rmcp would end those whose requests were all answered here.
        let mut sessions = LocalSessionManager::default();
        sessions.session_config.keep_alive = None;
        let sessions = Arc::new(sessions);
        HttpService {
            shared: Arc::new(Shared {
                service: StreamableHttpService::new(
                    move || Ok(handler.clone()),
                    sessions.clone(),
                    config,
                ),
                sessions,
                admitting: tokio::sync::Mutex::new(()),
                open: Arc::default(),
                limits,
                shortcut,
                hosts: Hosts::new(&hosts),
                gate,
                mount,
                requests: Arc::default(),
                closing: CancellationToken::new(),
                stopped: CancellationToken::new(),
                rmcp_stop,
            }),
        }
    }

    /// The Protected Resource Metadata as a service of its own, to mount at
    /// [`MetadataService::path`] when the service authenticates (`None`
    /// when it does not).
    #[cfg(feature = "auth")]
    pub fn metadata(&self) -> Option<MetadataService> {
        let auth = self.shared.gate.auth.clone()?;
        Some(MetadataService {
            path: auth.metadata_paths()[0].clone().into(),
            auth,
            tools: self.shared.gate.tools.clone(),
        })
    }
}

impl<H: ServerHandler + Send + 'static> HttpService<H> {
    /// Refuses to serve at `address` when anyone who can reach it could
    /// call the tools: an address other than loopback needs bearer tokens
    /// ([`Server::auth`](crate::server::Server::auth)) or, behind a proxy
    /// that authenticates, [`Server::insecure_no_auth`](crate::server::Server::insecure_no_auth).
    /// The server's own listener checks this before it serves; an
    /// application that mounts the service should check the address it
    /// binds.
    pub fn check_address(&self, address: SocketAddr) -> Result<(), ServeError> {
        let gate = &self.shared.gate;
        if !address.ip().is_loopback() && !gate.authenticates() && !gate.insecure_no_auth {
            return Err(ServeError::Unauthenticated { address });
        }
        Ok(())
    }

    /// Answers one request: what the tower service and the server's own
    /// listener both call.
    pub(crate) async fn answer<B>(&self, request: Request<B>) -> Response<Body>
    where
        B: http_body::Body + Send + 'static,
        B::Data: Send + 'static,
        B::Error: Into<Box<dyn std::error::Error + Send + Sync>> + std::fmt::Display,
    {
        route(&self.shared, request).await
    }

    /// Shuts the service down: requests that arrive from now on are
    /// refused, those in progress get the grace period
    /// ([`Server::shutdown_grace`](crate::server::Server::shutdown_grace)) to
    /// finish, what is still running then is answered with an error saying
    /// the server stopped, and rmcp's sessions end. Returns when every
    /// answer was written, or a second after the grace period ended.
    pub async fn shutdown(&self) {
        let shared = &self.shared;
        shared.closing.cancel();
        if tokio::time::timeout(shared.limits.shutdown_grace, shared.requests.idle())
            .await
            .is_err()
        {
            tracing::warn!(
                grace_ms = shared.limits.shutdown_grace.as_millis() as u64,
                "requests were still in progress when the grace period ended; they are answered with an error and cancelled"
            );
        }
        shared.stopped.cancel();
        let _ = tokio::time::timeout(LAST_WORDS, shared.requests.idle()).await;
        shared.rmcp_stop.cancel();
    }
}

impl<H, B> tower_service::Service<Request<B>> for HttpService<H>
where
    H: ServerHandler + Clone + Send + Sync + 'static,
    B: http_body::Body + Send + 'static,
    B::Data: Send + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>> + std::fmt::Display,
{
    type Response = Response<Body>;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response<Body>, Infallible>> + Send>>;

    fn poll_ready(
        &mut self,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Result<(), Infallible>> {
        std::task::Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        let service = self.clone();
        Box::pin(async move { Ok(service.answer(request).await) })
    }
}

/// The Protected Resource Metadata (RFC 9728) of an authenticating
/// [`HttpService`], as a tower service: `GET` is the document, anything
/// else `405`.
#[cfg(feature = "auth")]
#[derive(Clone)]
pub struct MetadataService {
    auth: crate::transport::auth::Auth,
    tools: Option<Arc<dyn super::ToolPermissions>>,
    path: Arc<str>,
}

#[cfg(feature = "auth")]
impl MetadataService {
    /// The path the challenges name, where the application mounts this
    /// service: `/.well-known/oauth-protected-resource` followed by the
    /// token audience's path.
    pub fn path(&self) -> &str {
        &self.path
    }
}

#[cfg(feature = "auth")]
impl<B> tower_service::Service<Request<B>> for MetadataService {
    type Response = Response<Body>;
    type Error = Infallible;
    type Future = std::future::Ready<Result<Response<Body>, Infallible>>;

    fn poll_ready(
        &mut self,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Result<(), Infallible>> {
        std::task::Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        let response = if request.method() == Method::GET {
            metadata_response(&self.auth, self.tools.as_ref())
        } else {
            let mut response = json_response(
                StatusCode::METHOD_NOT_ALLOWED,
                r#"{"error":"method_not_allowed","error_description":"the metadata is read with GET"}"#.to_owned(),
            );
            response
                .headers_mut()
                .insert(http::header::ALLOW, http::HeaderValue::from_static("GET"));
            response
        };
        std::future::ready(Ok(response))
    }
}

/// A refusal of a request that is not for this service: a header that
/// decides how it is treated sent twice, or (on the server's own listener)
/// a path other than MCP's and the metadata's.
fn misdirected<H: ServerHandler, B>(
    shared: &Shared<H>,
    request: &Request<B>,
    unread: Unread,
) -> Option<Response<Body>> {
    if let Some(header) = repeated(request.headers()) {
        tracing::info!(%header, "a request with a header sent twice was refused");
        return Some(refusal(
            StatusCode::BAD_REQUEST,
            &guard::header_repeated(header.as_str()),
            unread,
        ));
    }
    if matches!(shared.mount, Mount::Listener(_))
        && request.uri().path() != MCP_PATH
        && !is_metadata(&shared.gate, request)
    {
        return Some(json_response(
            StatusCode::NOT_FOUND,
            format!(
                r#"{{"error":"not_found","error_description":"this server serves MCP at {MCP_PATH} only"}}"#
            ),
        ));
    }
    None
}

/// Answers one HTTP request.
async fn route<H, B>(shared: &Shared<H>, mut request: Request<B>) -> Response<Body>
where
    H: ServerHandler + Send + 'static,
    B: http_body::Body + Send + 'static,
    B::Data: Send + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>> + std::fmt::Display,
{
    let place = request.extensions_mut().remove::<OnConnection>();
    let unread = unread_of(request.headers(), None);
    if let Some(response) = misdirected(shared, &request, unread) {
        return response;
    }
    if shared.closing.is_cancelled() {
        return answer::stopping(unread);
    }
    #[cfg(feature = "auth")]
    let (request, caller) = match authenticate(&shared.gate, request) {
        Ok(authenticated) => authenticated,
        Err(response) => return response,
    };
    #[cfg(not(feature = "auth"))]
    let caller: Option<crate::registry::policy::Caller> = None;
    if request.method() != Method::POST {
        // A stream a client keeps open uses its session until it ends.
        let in_use = session_of(request.headers()).and_then(|id| shared.open.using(id));
        let ending = (request.method() == Method::DELETE)
            .then(|| session_of(request.headers()).map(Box::<str>::from))
            .flatten();
        // rmcp reads no body but a POST's, and one body type for every
        // request compiles its whole service once, not once per type.
        let request = request.map(|_| Full::new(Bytes::new()));
        let response = shared.service.handle(request).await;
        if let Some(session) = ending
            && response.status().is_success()
        {
            shared.open.ended(&session);
        }
        return match in_use {
            None => response,
            Some(in_use) => answer::answered(
                response,
                Answering {
                    stopped: shared.stopped.clone(),
                    last_words: None,
                    held: in_use,
                },
            ),
        };
    }
    let (parts, body) = request.into_parts();
    let bytes = match read_body(shared, body, unread).await {
        Ok(bytes) => bytes,
        Err(response) => return response,
    };
    let passed = match guard::inspect(&bytes, shared.limits.max_depth) {
        Ok(passed) => passed,
        Err(refused) => return refusal(StatusCode::BAD_REQUEST, &refused, unread),
    };
    // From here the request arrived whole: it is being served, and
    // shutdown waits for its answer.
    let held = (shared.requests.enter(), place.map(|on| on.0.serving()));
    let unread = unread_of(&parts.headers, Some(&passed));
    let request = Arrived {
        parts,
        bytes,
        passed,
        unread,
        caller,
    };
    answer_arrived(shared, request, held).await
}

/// A POST whose body arrived whole and passed the guard.
struct Arrived {
    parts: http::request::Parts,
    bytes: Bytes,
    passed: Passed,
    unread: Unread,
    caller: Option<crate::registry::policy::Caller>,
}

/// Reads a POST body within the size limit and the body deadline.
async fn read_body<H: ServerHandler, B>(
    shared: &Shared<H>,
    body: B,
    unread: Unread,
) -> Result<Bytes, Response<Body>>
where
    B: http_body::Body,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let limits = shared.limits;
    let deadline = shared.gate.body_read_timeout;
    let read = tokio::time::timeout(
        deadline,
        Limited::new(body, limits.max_request_bytes).collect(),
    )
    .await;
    match read {
        Ok(Ok(collected)) => Ok(collected.to_bytes()),
        Err(_) => {
            tracing::warn!(
                body_read_timeout_ms = deadline.as_millis() as u64,
                "a request whose body did not arrive in time was refused"
            );
            let mut response = refusal(
                StatusCode::REQUEST_TIMEOUT,
                &guard::too_slow(deadline),
                unread,
            );
            response.headers_mut().insert(
                http::header::CONNECTION,
                http::HeaderValue::from_static("close"),
            );
            Err(response)
        }
        Ok(Err(error))
            if error
                .downcast_ref::<http_body_util::LengthLimitError>()
                .is_some() =>
        {
            tracing::warn!(
                max_request_bytes = limits.max_request_bytes,
                "a message larger than the limit was refused"
            );
            Err(refusal(
                StatusCode::PAYLOAD_TOO_LARGE,
                &guard::too_large(limits.max_request_bytes),
                unread,
            ))
        }
        Ok(Err(error)) => {
            tracing::debug!(%error, "cannot read a request body");
            Err(refusal(
                StatusCode::BAD_REQUEST,
                &guard::unreadable(&error),
                unread,
            ))
        }
    }
}

/// Answers a POST that arrived whole: a stateless listing from the baked
/// text, a refusal of a call the token may not make, a stateless call the
/// shortcut can answer, a refusal of a session beyond the limit or of an
/// id already in use, a listing or a call in a session the shortcut can
/// answer, or else rmcp's answer (recording the session an `initialize`
/// opens).
async fn answer_arrived<H, T>(shared: &Shared<H>, request: Arrived, held: T) -> Response<Body>
where
    H: ServerHandler + Send + 'static,
    T: Send + Sync + Unpin + 'static,
{
    let Arrived {
        parts,
        bytes,
        mut passed,
        unread,
        caller,
    } = request;
    if passed.lists_tools()
        && let Some(shortcut) = &shared.shortcut
        && let Some(version) = stateless(&parts.headers, &shared.hosts, Stateless::Listing)
    {
        let caller = caller
            .clone()
            .unwrap_or_else(crate::registry::policy::Caller::operator);
        if let Some(answer) = shortcut.list(&bytes, &caller, Asked::Stateless(version)) {
            return json_response(StatusCode::OK, answer.into_string());
        }
    }
    #[cfg(feature = "auth")]
    if let (Some(auth), Some(caller), Some(tool)) = (&shared.gate.auth, &caller, &passed.tool)
        && let Some(response) = insufficient_scope(auth, &shared.gate, caller, tool)
    {
        return response;
    }
    if let (Some(shortcut), Some(tool), Some(id)) = (&shared.shortcut, &passed.tool, &passed.id)
        && let Some(version) = stateless(&parts.headers, &shared.hosts, Stateless::Call(tool))
        && let Some(call) = passed.call.take()
    {
        let caller = caller
            .clone()
            .unwrap_or_else(crate::registry::policy::Caller::operator);
        if let Some(pending) = shortcut.call(id.to_rmcp(), call, &caller, Asked::Stateless(version))
        {
            let call = tokio::spawn(pending);
            return run_call(shared, call, OnDisconnect::Cancel, id, unread).await;
        }
    }
    let session = session_of(&parts.headers);
    let in_use = session.and_then(|id| shared.open.using(id));
    if let (Some(session), Some(cancelled)) = (session, &passed.cancels) {
        // rmcp, which hears of it too, never saw a call the shortcut runs.
        shared.open.cancel(session, cancelled);
    }
    let admitting = match (session, passed.method) {
        (None, guard::Method::Initialize) => match open_session(shared, passed.id.as_ref()).await {
            Ok(admitting) => Some(admitting),
            Err(refused) => return refusal(StatusCode::SERVICE_UNAVAILABLE, &refused, unread),
        },
        _ => None,
    };
    let session_id = match (session, &passed.id) {
        (Some(session), Some(id)) => match shared.open.take_id(session, id) {
            Some(taken) => Some(taken),
            None => return refusal(StatusCode::BAD_REQUEST, &guard::id_in_use(id), unread),
        },
        _ => None,
    };
    if let (Some(shortcut), Some(session), Some(id), Some(_)) =
        (&shared.shortcut, session, &passed.id, &session_id)
        && (passed.lists_tools() || passed.call.is_some())
        && let Some(negotiated) = shared.open.revision(session, &shared.sessions).await
        && let Some(revision) = negotiated.get()
        && in_session(&parts.headers, &shared.hosts, revision.as_str())
    {
        let caller = caller
            .clone()
            .unwrap_or_else(crate::registry::policy::Caller::operator);
        let asked = Asked::Session(revision);
        if passed.lists_tools()
            && let Some(answer) = shortcut.list(&bytes, &caller, asked)
        {
            return json_response(StatusCode::OK, answer.into_string());
        }
        if let Some(call) = passed.call.take()
            && let Some(pending) = shortcut.call(id.to_rmcp(), call, &caller, asked)
            && let Some(taken) = session_id
        {
            let call = taken.run(pending, in_use);
            return run_call(shared, call, OnDisconnect::RunOn, id, unread).await;
        }
    }
    let request = Request::from_parts(parts, Full::new(bytes));
    let response = tokio::select! {
        biased;
        () = shared.stopped.cancelled() => return answer::stopped(passed.id.as_ref(), unread),
        response = shared.service.handle(request) => response,
    };
    let response = match admitting {
        Some(admitting) => {
            let response = shared.open.opening(
                response,
                passed.version.as_deref(),
                &shared.sessions,
                &shared.rmcp_stop,
            );
            drop(admitting);
            response
        }
        None => response,
    };
    let response = answer::as_json_rpc(response, passed.id.as_ref(), unread).await;
    answer::answered(
        response,
        Answering {
            stopped: shared.stopped.clone(),
            last_words: passed
                .id
                .as_ref()
                .map(|id| guard::stopped(Some(id)).response(unread)),
            held: (held, session_id, in_use),
        },
    )
}

/// The session a request names.
fn session_of(headers: &http::HeaderMap) -> Option<&str> {
    headers.get(MCP_SESSION_ID).and_then(|v| v.to_str().ok())
}

/// What a client's closing its connection in the middle of a call the
/// shortcut runs means for the call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum OnDisconnect {
    /// It is cancelled: from 2026-07-28 on, closing a request's response
    /// stream is its cancellation, which the server must honour, and a
    /// stateless request has no other.
    Cancel,
    /// It runs on ([`SessionId::run`](super::sessions::SessionId::run)):
    /// in a session, a disconnection is not a cancellation.
    RunOn,
}

/// Stops a call when dropped.
struct CancelOnDrop(tokio::task::AbortHandle);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Answers a call the shortcut took, which runs as a task apart from the
/// connection: the connection must be free to answer when the grace period
/// ends (a synchronous handler run in place would otherwise hold the answer
/// until it returned). A cancelled call's stream ends without an answer, as
/// rmcp's does.
async fn run_call<H: ServerHandler>(
    shared: &Shared<H>,
    mut call: tokio::task::JoinHandle<String>,
    on_disconnect: OnDisconnect,
    id: &RequestId,
    unread: Unread,
) -> Response<Body> {
    // Dropped with this request's future, which hyper drops when the
    // client closes the connection before the answer.
    let _cancel =
        (on_disconnect == OnDisconnect::Cancel).then(|| CancelOnDrop(call.abort_handle()));
    tokio::select! {
        biased;
        () = shared.stopped.cancelled() => {
            call.abort();
            answer::stopped(Some(id), unread)
        }
        text = &mut call => match text {
            Ok(text) => json_response(StatusCode::OK, text),
            Err(error) if error.is_cancelled() => answer::no_answer(),
            Err(error) => {
                tracing::error!(%error, "a call answered without rmcp failed outside its handler");
                json_response(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    guard::error_response(
                        Some(&id.to_json()),
                        unread,
                        guard::INTERNAL_ERROR,
                        "Internal error: the call failed; consult the server log",
                    ),
                )
            }
        },
    }
}

/// A place for an `initialize` among the sessions, or the refusal of one
/// that would open a session beyond the limit. The place is the admission
/// lock, held until rmcp has answered the `initialize`: rmcp adds the
/// session to its map before it answers, so the next `initialize` counts it
/// there, once, and no two pass the limit together.
async fn open_session<'s, H: ServerHandler>(
    shared: &'s Shared<H>,
    id: Option<&RequestId>,
) -> Result<tokio::sync::MutexGuard<'s, ()>, Refused> {
    let admitting = shared.admitting.lock().await;
    if shared.sessions.sessions.read().await.len() >= shared.gate.max_sessions {
        tracing::warn!(
            max_sessions = shared.gate.max_sessions,
            "an initialize over the session limit was refused"
        );
        return Err(guard::over_session_limit(id, shared.gate.max_sessions));
    }
    Ok(admitting)
}

/// Whether `request` asks for the Protected Resource Metadata.
#[cfg_attr(not(feature = "auth"), allow(unused_variables))]
fn is_metadata<B>(gate: &Gate, request: &Request<B>) -> bool {
    #[cfg(feature = "auth")]
    if let Some(auth) = &gate.auth {
        let path = request.uri().path();
        return auth.metadata_paths().iter().any(|p| p == path);
    }
    false
}

/// The Protected Resource Metadata, with the scopes the tools declare now
/// (a provider registered since start-up adds its permissions).
#[cfg(feature = "auth")]
fn metadata_response(
    auth: &crate::transport::auth::Auth,
    tools: Option<&Arc<dyn super::ToolPermissions>>,
) -> Response<Body> {
    let scopes = tools.map(|t| t.declared()).unwrap_or_default();
    json_response(StatusCode::OK, auth.metadata(scopes))
}

/// Checks the request's token when the server authenticates: the metadata
/// is served to anyone, every other request needs a valid token, and the
/// caller it establishes travels in the request's extensions.
#[cfg(feature = "auth")]
#[allow(clippy::result_large_err)]
fn authenticate<B>(
    gate: &Gate,
    mut request: Request<B>,
) -> Result<(Request<B>, Option<crate::registry::policy::Caller>), Response<Body>> {
    use crate::transport::auth::Rejection;
    let Some(auth) = &gate.auth else {
        return Ok((request, None));
    };
    let path = request.uri().path();
    if request.method() == Method::GET && auth.metadata_paths().iter().any(|p| p == path) {
        return Err(metadata_response(auth, gate.tools.as_ref()));
    }
    match auth.authenticate(
        request
            .headers()
            .get_all(http::header::AUTHORIZATION)
            .iter(),
    ) {
        Ok(caller) => {
            request.extensions_mut().insert(caller.clone());
            Ok((request, Some(caller)))
        }
        Err(rejection) => {
            let description = match &rejection {
                Rejection::Missing => {
                    "this server needs a bearer token; get one from the authorization server its metadata names".to_owned()
                }
                Rejection::Invalid(why) => {
                    tracing::info!(%why, "a request's token was refused");
                    why.clone()
                }
            };
            let error = match rejection {
                Rejection::Missing => "unauthorized",
                Rejection::Invalid(_) => "invalid_token",
            };
            let mut response = json_response(
                StatusCode::UNAUTHORIZED,
                serde_json::json!({"error": error, "error_description": description}).to_string(),
            );
            response
                .headers_mut()
                .insert(http::header::WWW_AUTHENTICATE, auth.challenge(&rejection));
            Err(response)
        }
    }
}

/// The `403` a `tools/call` of `name` gets when the token does not grant
/// the permission the tool needs, so the client can ask for that scope.
#[cfg(feature = "auth")]
fn insufficient_scope(
    auth: &crate::transport::auth::Auth,
    gate: &Gate,
    caller: &crate::registry::policy::Caller,
    name: &str,
) -> Option<Response<Body>> {
    let permission = gate.tools.as_ref()?.permission(name)?;
    if caller.permissions().grants(&permission) {
        return None;
    }
    let mut response = json_response(
        StatusCode::FORBIDDEN,
        serde_json::json!({
            "error": "insufficient_scope",
            "error_description": format!("{name} needs the permission `{permission}`, which the token does not grant; ask the authorization server for the scope `{permission}`"),
        })
        .to_string(),
    );
    response.headers_mut().insert(
        http::header::WWW_AUTHENTICATE,
        auth.insufficient_scope(&permission),
    );
    Some(response)
}
