//! The streamable-HTTP transport: rmcp's service behind hyper, guarded.
//!
//! With authentication configured, every request's bearer token is checked
//! first ([`super::auth`]), before its body is read: no valid token is `401`
//! with a challenge naming the Protected Resource Metadata, which is served
//! here too. POST bodies are then read, up to the size limit, and checked by
//! the guard ([`super::guard`]): too large is `413` with JSON-RPC -32600,
//! not JSON is `400` with -32700, not JSON-RPC or nested too deep is `400`
//! with -32600 (carrying the request's id where it can be read). A call to a
//! tool whose permission the token does not grant is `403` naming the scope.
//! A stateless 2026-07-28 `tools/list` that asks nothing unusual is
//! answered here from the descriptors' text ([`super::listing`]). What
//! passes is handed to rmcp, which checks `Host` and `Origin` against the
//! allow-lists given here, with the authenticated caller in the request's
//! extensions. A stateless reply that is one message goes back as
//! `application/json`, written at once, rather than as a one-event stream;
//! a call that sends progress or logs first is streamed.

use crate::serve::connections::{Connections, Place, Serving};
use crate::serve::guard::{self, Refused, RequestId, Unread};
use crate::serve::listing::Lister;
use crate::serve::server::{Limits, ServeError};
use bytes::Bytes;
use http::{Method, Request, Response, StatusCode};
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use rmcp::ServerHandler;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use std::collections::HashSet;
use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

type Service<H> = StreamableHttpService<H, LocalSessionManager>;
type Body = BoxBody<Bytes, Infallible>;

/// The permissions the served tools declare, for the `403` a call gets
/// before it reaches rmcp and for the metadata's `scopes_supported`.
#[cfg(feature = "auth")]
pub(crate) trait ToolPermissions: Send + Sync {
    /// The permission the tool `name` needs, if it exists and needs one.
    fn permission(&self, name: &str) -> Option<String>;
    /// Every permission a tool declares, sorted, each once.
    fn declared(&self) -> Vec<String>;
}

/// Who may reach the service, and how much of it: the settings the accept
/// loop and the route check.
#[derive(Clone)]
pub(crate) struct Gate {
    #[cfg(feature = "auth")]
    pub auth: Option<crate::serve::auth::Auth>,
    /// Origins allowed besides the server's own loopback ones.
    pub origins: Vec<String>,
    #[cfg(feature = "auth")]
    pub tools: Option<Arc<dyn ToolPermissions>>,
    /// The operator chose to serve a non-loopback address without tokens.
    pub insecure_no_auth: bool,
    pub header_read_timeout: std::time::Duration,
    pub body_read_timeout: std::time::Duration,
    pub max_connections: usize,
    pub max_sessions: usize,
}

impl Default for Gate {
    fn default() -> Gate {
        Gate {
            #[cfg(feature = "auth")]
            auth: None,
            origins: Vec::new(),
            #[cfg(feature = "auth")]
            tools: None,
            insecure_no_auth: false,
            header_read_timeout: crate::serve::server::DEFAULT_HEADER_READ_TIMEOUT,
            body_read_timeout: crate::serve::server::DEFAULT_BODY_READ_TIMEOUT,
            max_connections: crate::serve::server::DEFAULT_MAX_CONNECTIONS,
            max_sessions: crate::serve::server::DEFAULT_MAX_SESSIONS,
        }
    }
}

impl Gate {
    fn authenticates(&self) -> bool {
        #[cfg(feature = "auth")]
        return self.auth.is_some();
        #[cfg(not(feature = "auth"))]
        false
    }
}

/// The origins a browser on this machine would send for `address`.
fn loopback_origins(address: std::net::SocketAddr) -> Vec<String> {
    let port = address.port();
    vec![
        format!("http://127.0.0.1:{port}"),
        format!("http://localhost:{port}"),
        format!("http://[::1]:{port}"),
    ]
}

/// The path MCP is served at; every other path but the metadata's is `404`.
pub(crate) const MCP_PATH: &str = "/mcp";

/// How long answers of requests cut off at the end of the grace period
/// get to be written.
const LAST_WORDS: std::time::Duration = std::time::Duration::from_secs(1);

/// Serves until `shutdown` is cancelled; the requests being served get the
/// grace period to finish, and what is left is answered with an error.
pub(crate) async fn serve<H: ServerHandler + Clone>(
    handler: H,
    listener: TcpListener,
    limits: Limits,
    lister: Option<Arc<dyn Lister>>,
    gate: Gate,
    shutdown: CancellationToken,
) -> Result<(), ServeError> {
    let address = listener
        .local_addr()
        .map_err(|e| ServeError::io("cannot read the listening address", e))?;
    if !address.ip().is_loopback() && !gate.authenticates() && !gate.insecure_no_auth {
        return Err(ServeError::Unauthenticated { address });
    }
    let mut origins = loopback_origins(address);
    origins.extend(gate.origins.iter().cloned());
    let mut hosts = StreamableHttpServerConfig::default().allowed_hosts;
    if !address.ip().is_loopback() {
        hosts.push(address.ip().to_string());
        hosts.push(address.to_string());
    }
    #[cfg(feature = "auth")]
    if let Some(auth) = &gate.auth {
        hosts.extend(auth.audience_authority().map(str::to_owned));
        origins.extend(auth.audience_origin());
    }
    let hosts_allowed = hosts.clone();
    // rmcp stops last, once every answer was written: its own stop answers
    // a request in progress with a plain-text 500.
    let rmcp_stop = CancellationToken::new();
    let config = StreamableHttpServerConfig::default()
        .with_cancellation_token(rmcp_stop.clone())
        .with_max_request_body_bytes(limits.max_request_bytes)
        .with_sse_keep_alive(None)
        .with_json_response(true)
        .with_allowed_hosts(hosts)
        .with_allowed_origins(origins);
    let sessions = Arc::new(LocalSessionManager::default());
    let connections = Connections::new(gate.max_connections);
    let header_read_timeout = gate.header_read_timeout;
    let shared = Arc::new(Shared {
        service: StreamableHttpService::new(move || Ok(handler.clone()), sessions.clone(), config),
        sessions,
        admitting: tokio::sync::Mutex::new(()),
        session_ids: Arc::new(std::sync::Mutex::new(HashSet::new())),
        limits,
        lister,
        hosts: hosts_allowed,
        gate,
        stopped: CancellationToken::new(),
    });
    tracing::info!(%address, "serving MCP over streamable HTTP at http://{address}{MCP_PATH}");
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    // A failed accept (out of file descriptors, a reset
                    // connection) must not stop the server.
                    tracing::warn!(%error, "cannot accept a connection");
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = shutdown.cancelled() => break,
        };
        // rmcp ends a streamed answer with a small write of its own; with
        // Nagle's algorithm that write waits for the client's delayed ACK
        // (about 40 ms on Linux), so every such answer would arrive late.
        if let Err(error) = stream.set_nodelay(true) {
            tracing::debug!(%peer, %error, "cannot set TCP_NODELAY on a connection");
        }
        let Some(place) = connections.admit() else {
            tracing::warn!(%peer, max_connections = shared.gate.max_connections, "a connection over the limit was refused: every connection has a request in progress");
            tokio::spawn(refuse_connection(stream));
            continue;
        };
        let shared = shared.clone();
        let shutdown = shutdown.clone();
        tokio::spawn(async move {
            let place = Arc::new(place);
            let closed = place.closed().clone();
            let io = hyper_util::rt::TokioIo::new(stream);
            let handler = hyper::service::service_fn(move |request| {
                route(shared.clone(), place.clone(), request)
            });
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(header_read_timeout)
                .serve_connection(io, handler);
            tokio::pin!(connection);
            tokio::select! {
                result = connection.as_mut() => {
                    if let Err(error) = result {
                        tracing::debug!(%peer, %error, "a connection ended with an error");
                    }
                }
                () = shutdown.cancelled() => {
                    connection.as_mut().graceful_shutdown();
                    tokio::select! {
                        _ = connection.as_mut() => {}
                        () = closed.cancelled() => {}
                    }
                }
                () = closed.cancelled() => {
                    tracing::debug!(%peer, "a connection without a request in progress gave its place to a new one");
                }
            }
        });
    }
    // The requests being served get the grace period; then what is left is
    // answered with an error, and rmcp stops.
    if tokio::time::timeout(shared.limits.shutdown_grace, connections.idle())
        .await
        .is_err()
    {
        tracing::warn!(
            grace_ms = shared.limits.shutdown_grace.as_millis() as u64,
            "requests were still in progress when the grace period ended; they are answered with an error and cancelled"
        );
    }
    shared.stopped.cancel();
    let _ = tokio::time::timeout(LAST_WORDS, connections.idle()).await;
    rmcp_stop.cancel();
    Ok(())
}

/// The ids of requests in progress, by the session they were sent in.
type SessionIds = std::sync::Mutex<HashSet<(Box<str>, RequestId)>>;

/// What every connection's route shares.
struct Shared<H: ServerHandler> {
    service: Service<H>,
    sessions: Arc<LocalSessionManager>,
    /// Held from an `initialize`'s check against the limit until rmcp
    /// answered it.
    admitting: tokio::sync::Mutex<()>,
    /// The ids of requests in progress in each session.
    session_ids: Arc<SessionIds>,
    limits: Limits,
    lister: Option<Arc<dyn Lister>>,
    /// The `Host` values rmcp accepts, for the listings answered here.
    hosts: Vec<String>,
    gate: Gate,
    /// Cancelled when the grace period ended: requests still in progress
    /// are answered with an error.
    stopped: CancellationToken,
}

/// Answers a connection over the limit with `503` and closes it.
async fn refuse_connection(mut stream: tokio::net::TcpStream) {
    use tokio::io::AsyncWriteExt;
    let body = r#"{"error":"too_many_connections","error_description":"this server holds its limit of connections, each with a request in progress; try again shortly"}"#;
    let response = format!(
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nRetry-After: 1\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let _ = tokio::time::timeout(
        std::time::Duration::from_secs(1),
        stream.write_all(response.as_bytes()),
    )
    .await;
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

/// The id of a request in progress in a session, given back when its
/// answer was written.
struct SessionId {
    ids: Arc<SessionIds>,
    key: (Box<str>, RequestId),
}

impl Drop for SessionId {
    fn drop(&mut self) {
        self.ids
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&self.key);
    }
}

fn refusal(status: StatusCode, refused: &Refused, unread: Unread) -> Response<Body> {
    json_response(status, refused.response(unread))
}

/// A JSON response with `status`.
fn json_response(status: StatusCode, body: String) -> Response<Body> {
    let mut response = Response::new(Full::new(Bytes::from(body)).boxed());
    *response.status_mut() = status;
    response.headers_mut().insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static("application/json"),
    );
    response
}

/// How errors answer a request whose id is unknown, by the revision its
/// `MCP-Protocol-Version` header names.
fn unread_of(headers: &http::HeaderMap, passed: Option<&guard::Passed>) -> Unread {
    let header = headers
        .get("mcp-protocol-version")
        .and_then(|v| v.to_str().ok());
    Unread::of_version(header.or(passed.and_then(|p| p.version.as_deref())))
}

/// Answers one HTTP request.
async fn route<H: ServerHandler>(
    shared: Arc<Shared<H>>,
    place: Arc<Place>,
    request: Request<Incoming>,
) -> Result<Response<Body>, Infallible> {
    let limits = shared.limits;
    let unread = unread_of(request.headers(), None);
    if request.headers().get_all(http::header::HOST).iter().count() > 1 {
        return Ok(json_response(
            StatusCode::BAD_REQUEST,
            r#"{"error":"invalid_request","error_description":"the request has more than one Host header; send exactly one"}"#.to_owned(),
        ));
    }
    if request.uri().path() != MCP_PATH && !is_metadata(&shared.gate, &request) {
        return Ok(json_response(
            StatusCode::NOT_FOUND,
            format!(
                r#"{{"error":"not_found","error_description":"this server serves MCP at {MCP_PATH} only"}}"#
            ),
        ));
    }
    #[cfg(feature = "auth")]
    let (request, caller) = match authenticate(&shared.gate, request) {
        Ok(authenticated) => authenticated,
        Err(response) => return Ok(response),
    };
    if request.method() != Method::POST {
        return Ok(shared.service.handle(request).await);
    }
    let (parts, body) = request.into_parts();
    let read = tokio::time::timeout(
        shared.gate.body_read_timeout,
        Limited::new(body, limits.max_request_bytes).collect(),
    )
    .await;
    let bytes = match read {
        Err(_) => {
            tracing::warn!(
                body_read_timeout_ms = shared.gate.body_read_timeout.as_millis() as u64,
                "a request whose body did not arrive in time was refused"
            );
            let mut response = refusal(
                StatusCode::REQUEST_TIMEOUT,
                &guard::too_slow(shared.gate.body_read_timeout),
                unread,
            );
            response.headers_mut().insert(
                http::header::CONNECTION,
                http::HeaderValue::from_static("close"),
            );
            return Ok(response);
        }
        Ok(Ok(collected)) => collected.to_bytes(),
        Ok(Err(error))
            if error
                .downcast_ref::<http_body_util::LengthLimitError>()
                .is_some() =>
        {
            tracing::warn!(
                max_request_bytes = limits.max_request_bytes,
                "a message larger than the limit was refused"
            );
            return Ok(refusal(
                StatusCode::PAYLOAD_TOO_LARGE,
                &guard::too_large(limits.max_request_bytes),
                unread,
            ));
        }
        Ok(Err(error)) => {
            tracing::debug!(%error, "cannot read a request body");
            return Ok(refusal(
                StatusCode::BAD_REQUEST,
                &guard::unreadable(&error),
                unread,
            ));
        }
    };
    let passed = match guard::inspect(&bytes, limits.max_depth) {
        Ok(passed) => passed,
        Err(refused) => return Ok(refusal(StatusCode::BAD_REQUEST, &refused, unread)),
    };
    let unread = unread_of(&parts.headers, Some(&passed));
    // From here the request arrived whole: this connection is serving it,
    // and shutdown waits for its answer.
    let serving = place.serving();
    if passed.lists_tools()
        && let Some(lister) = &shared.lister
        && let Some(version) = stateless_listing(&parts.headers, &shared.hosts)
    {
        #[cfg(feature = "auth")]
        let caller = caller
            .clone()
            .unwrap_or_else(crate::serve::policy::Caller::operator);
        #[cfg(not(feature = "auth"))]
        let caller = crate::serve::policy::Caller::operator();
        if let Some(answer) = lister.answer(&bytes, &caller, Some(version)) {
            return Ok(json_response(StatusCode::OK, answer.into_string()));
        }
    }
    #[cfg(feature = "auth")]
    if let (Some(auth), Some(caller), Some(tool)) = (&shared.gate.auth, &caller, &passed.tool)
        && let Some(response) = insufficient_scope(auth, &shared.gate, caller, tool)
    {
        return Ok(response);
    }
    let session = parts
        .headers
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
        .map(Box::<str>::from);
    let admitting = match (&session, passed.method) {
        (None, guard::Method::Initialize) => {
            match open_session(&shared, passed.id.as_ref()).await {
                Ok(opening) => Some(opening),
                Err(refused) => {
                    return Ok(refusal(StatusCode::SERVICE_UNAVAILABLE, &refused, unread));
                }
            }
        }
        _ => None,
    };
    let session_id = match (session, &passed.id) {
        (Some(session), Some(id)) => {
            let key = (session, id.clone());
            if !shared
                .session_ids
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .insert(key.clone())
            {
                return Ok(refusal(
                    StatusCode::BAD_REQUEST,
                    &guard::id_in_use(id),
                    unread,
                ));
            }
            Some(SessionId {
                ids: shared.session_ids.clone(),
                key,
            })
        }
        _ => None,
    };
    let request = Request::from_parts(parts, Full::new(bytes));
    let response = tokio::select! {
        biased;
        () = shared.stopped.cancelled() => return Ok(stopped(passed.id.as_ref(), unread)),
        response = shared.service.handle(request) => response,
    };
    drop(admitting);
    let response = as_json_rpc(response, passed.id.as_ref(), unread).await;
    Ok(answered(
        response,
        Answering {
            stopped: shared.stopped.clone(),
            last_words: passed
                .id
                .as_ref()
                .map(|id| guard::stopped(id).response(unread)),
            serving,
            session_id,
        },
    ))
}

/// rmcp refuses some requests in plain text (a session it requires, a
/// media type it does not accept); a JSON-RPC client is owed a JSON-RPC
/// error, carrying the request's id, with the same status.
async fn as_json_rpc(
    response: Response<Body>,
    id: Option<&RequestId>,
    unread: Unread,
) -> Response<Body> {
    let status = response.status();
    let typed = response
        .headers()
        .get(http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json") || v.starts_with("text/event-stream"));
    if status.is_success() || typed {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let text = body
        .collect()
        .await
        .map(|b| b.to_bytes())
        .unwrap_or_default();
    let text = String::from_utf8_lossy(&text);
    let code = if status.is_client_error() {
        guard::INVALID_REQUEST
    } else {
        guard::INTERNAL_ERROR
    };
    let id = id.map(RequestId::to_json);
    let body = guard::error_response(
        id.as_deref(),
        unread,
        code,
        &crate::rules::quote::text(text.trim()),
    );
    parts.headers.remove(http::header::CONTENT_LENGTH);
    parts.headers.insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static("application/json"),
    );
    Response::from_parts(parts, Full::new(Bytes::from(body)).boxed())
}

/// The answer to a request cut off at the end of the grace period.
fn stopped(id: Option<&RequestId>, unread: Unread) -> Response<Body> {
    let body = match id {
        Some(id) => guard::stopped(id).response(unread),
        None => guard::error_response(
            None,
            unread,
            guard::INTERNAL_ERROR,
            "Server stopped: the server shut down before this request finished",
        ),
    };
    let mut response = json_response(StatusCode::SERVICE_UNAVAILABLE, body);
    response.headers_mut().insert(
        http::header::CONNECTION,
        http::HeaderValue::from_static("close"),
    );
    response
}

/// What a response carries until its body was written.
struct Answering {
    stopped: CancellationToken,
    /// The error a stream cut off at the end of the grace period ends with.
    last_words: Option<String>,
    serving: Serving,
    session_id: Option<SessionId>,
}

/// rmcp's response, counted as being served until its body was written; a
/// stream still open when the grace period ends is closed with the error
/// its request is owed, as its last event.
fn answered(response: Response<Body>, answering: Answering) -> Response<Body> {
    let streams = response
        .headers()
        .get(http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/event-stream"));
    response.map(|body| {
        let Answering {
            stopped,
            last_words,
            serving,
            session_id,
        } = answering;
        GuardedBody {
            inner: body,
            stop: Box::pin(stopped.cancelled_owned()),
            last_words: if streams { last_words } else { None },
            done: false,
            _held: (serving, session_id),
        }
        .boxed()
    })
}

/// A response body that ends, with its last words, when the server stops.
struct GuardedBody {
    inner: Body,
    stop: Pin<Box<tokio_util::sync::WaitForCancellationFutureOwned>>,
    last_words: Option<String>,
    done: bool,
    _held: (Serving, Option<SessionId>),
}

impl http_body::Body for GuardedBody {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<http_body::Frame<Bytes>, Infallible>>> {
        use std::task::Poll;
        if self.done {
            return Poll::Ready(None);
        }
        if let Poll::Ready(frame) = Pin::new(&mut self.inner).poll_frame(cx) {
            if frame.is_none() {
                self.done = true;
            }
            return Poll::Ready(frame);
        }
        if self.stop.as_mut().poll(cx).is_ready() {
            self.done = true;
            return Poll::Ready(self.last_words.take().map(|words| {
                Ok(http_body::Frame::data(Bytes::from(format!(
                    "data: {words}\n\n"
                ))))
            }));
        }
        Poll::Pending
    }

    fn is_end_stream(&self) -> bool {
        self.done || self.inner.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.inner.size_hint()
    }
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

/// The `MCP-Protocol-Version` of a request whose headers ask for nothing
/// but a stateless listing: no session, no `Origin` (a browser's request
/// goes to rmcp, which checks it), an allowed `Host`, JSON in and both
/// media types accepted, and one `Mcp-Method: tools/list`. `None` sends the
/// request on to rmcp, which answers or refuses it as the spec says.
fn stateless_listing<'h>(headers: &'h http::HeaderMap, hosts: &[String]) -> Option<&'h str> {
    use http::header::{ACCEPT, CONTENT_TYPE, HOST, ORIGIN};
    let one = |name: &str| {
        let mut values = headers.get_all(name).iter();
        let value = values.next()?.to_str().ok()?;
        values.next().is_none().then_some(value)
    };
    let essence = |value: &str| {
        value
            .split(';')
            .next()
            .unwrap_or_default()
            .trim()
            .to_ascii_lowercase()
    };
    if headers.contains_key("mcp-session-id") || headers.contains_key(ORIGIN) {
        return None;
    }
    let host: http::uri::Authority = one(HOST.as_str())?.parse().ok()?;
    if !host_allowed(&host, hosts) {
        return None;
    }
    if essence(one(CONTENT_TYPE.as_str())?) != "application/json" {
        return None;
    }
    let accepted: Vec<String> = headers
        .get_all(ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(essence)
        .collect();
    if !["application/json", "text/event-stream"]
        .iter()
        .all(|media| accepted.iter().any(|a| a == media))
    {
        return None;
    }
    (one("mcp-method")? == "tools/list").then_some(())?;
    one("mcp-protocol-version")
}

/// Whether `host` is one of `allowed` (an entry without a port allows
/// every port), compared as rmcp compares them.
fn host_allowed(host: &http::uri::Authority, allowed: &[String]) -> bool {
    let name = |authority: &http::uri::Authority| {
        authority
            .host()
            .trim_matches(['[', ']'])
            .to_ascii_lowercase()
    };
    allowed
        .iter()
        .filter_map(|entry| entry.parse::<http::uri::Authority>().ok())
        .any(|entry| {
            name(&entry) == name(host)
                && entry.port_u16().is_none_or(|p| host.port_u16() == Some(p))
        })
}

/// Checks the request's token when the server authenticates: the metadata
/// is served to anyone, every other request needs a valid token, and the
/// caller it establishes travels in the request's extensions.
#[cfg(feature = "auth")]
#[allow(clippy::result_large_err)]
fn authenticate(
    gate: &Gate,
    mut request: Request<Incoming>,
) -> Result<(Request<Incoming>, Option<crate::serve::policy::Caller>), Response<Body>> {
    use crate::serve::auth::Rejection;
    let Some(auth) = &gate.auth else {
        return Ok((request, None));
    };
    let path = request.uri().path();
    if request.method() == Method::GET && auth.metadata_paths().iter().any(|p| p == path) {
        let scopes = gate
            .tools
            .as_ref()
            .map(|t| t.declared())
            .unwrap_or_default();
        return Err(json_response(StatusCode::OK, auth.metadata(scopes)));
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
    auth: &crate::serve::auth::Auth,
    gate: &Gate,
    caller: &crate::serve::policy::Caller,
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
