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

use crate::serve::guard::{self, Refused};
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
use std::convert::Infallible;
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

/// Serves until `shutdown` is cancelled; connections in progress finish.
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
    let config = StreamableHttpServerConfig::default()
        .with_cancellation_token(shutdown.child_token())
        .with_max_request_body_bytes(limits.max_request_bytes)
        .with_sse_keep_alive(None)
        .with_json_response(true)
        .with_allowed_hosts(hosts)
        .with_allowed_origins(origins);
    let sessions = Arc::new(LocalSessionManager::default());
    let connections = Arc::new(tokio::sync::Semaphore::new(gate.max_connections));
    let header_read_timeout = gate.header_read_timeout;
    let shared = Arc::new(Shared {
        service: StreamableHttpService::new(move || Ok(handler.clone()), sessions.clone(), config),
        sessions,
        limits,
        lister,
        hosts: hosts_allowed,
        gate,
    });
    tracing::info!(%address, "serving MCP over streamable HTTP at http://{address}/mcp");
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
        let Ok(place) = connections.clone().try_acquire_owned() else {
            tracing::warn!(%peer, max_connections = shared.gate.max_connections, "a connection over the limit was refused");
            tokio::spawn(refuse_connection(stream));
            continue;
        };
        let shared = shared.clone();
        let shutdown = shutdown.clone();
        tokio::spawn(async move {
            let _place = place;
            let io = hyper_util::rt::TokioIo::new(stream);
            let handler = hyper::service::service_fn(move |request| route(shared.clone(), request));
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
                    let _ = connection.await;
                }
            }
        });
    }
    Ok(())
}

/// What every connection's route shares.
struct Shared<H: ServerHandler> {
    service: Service<H>,
    sessions: Arc<LocalSessionManager>,
    limits: Limits,
    lister: Option<Arc<dyn Lister>>,
    /// The `Host` values rmcp accepts, for the listings answered here.
    hosts: Vec<String>,
    gate: Gate,
}

/// Answers a connection over the limit with `503` and closes it.
async fn refuse_connection(mut stream: tokio::net::TcpStream) {
    use tokio::io::AsyncWriteExt;
    let body = r#"{"error":"too_many_connections","error_description":"this server holds its limit of connections; try again shortly"}"#;
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

/// The refusal of an `initialize` that would open a session beyond the
/// limit; `None` for anything else.
async fn over_session_limit<H: ServerHandler>(shared: &Shared<H>, bytes: &[u8]) -> Option<Refused> {
    // Most bodies cannot be an initialize; only those that might are read.
    if !bytes.windows(12).any(|w| w == b"\"initialize\"") {
        return None;
    }
    #[derive(serde::Deserialize)]
    struct Peek {
        method: Option<String>,
        id: Option<serde_json::Value>,
    }
    let peek: Peek = serde_json::from_slice(bytes).ok()?;
    if peek.method.as_deref() != Some("initialize") {
        return None;
    }
    let held = shared.sessions.sessions.read().await.len();
    if held < shared.gate.max_sessions {
        return None;
    }
    tracing::warn!(
        max_sessions = shared.gate.max_sessions,
        "an initialize over the session limit was refused"
    );
    Some(guard::over_session_limit(
        peek.id.unwrap_or(serde_json::Value::Null),
        shared.gate.max_sessions,
    ))
}

fn refusal(status: StatusCode, refused: &Refused) -> Response<Body> {
    let mut response = Response::new(Full::new(Bytes::from(refused.response())).boxed());
    *response.status_mut() = status;
    response.headers_mut().insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static("application/json"),
    );
    response
}

/// A JSON response with `status`.
#[cfg(feature = "auth")]
fn json_response(status: StatusCode, body: String) -> Response<Body> {
    let mut response = Response::new(Full::new(Bytes::from(body)).boxed());
    *response.status_mut() = status;
    response.headers_mut().insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static("application/json"),
    );
    response
}

/// Answers one HTTP request.
async fn route<H: ServerHandler>(
    shared: Arc<Shared<H>>,
    request: Request<Incoming>,
) -> Result<Response<Body>, Infallible> {
    let limits = shared.limits;
    #[cfg(feature = "auth")]
    let (request, caller) = match authenticate(&shared.gate, request) {
        Ok(authenticated) => authenticated,
        Err(response) => return Ok(response),
    };
    if request.method() != Method::POST {
        return Ok(shared.service.handle(request).await);
    }
    let (parts, body) = request.into_parts();
    let bytes = match Limited::new(body, limits.max_request_bytes).collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(error)
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
            ));
        }
        Err(error) => {
            tracing::debug!(%error, "cannot read a request body");
            return Ok(refusal(StatusCode::BAD_REQUEST, &guard::unreadable(&error)));
        }
    };
    let passed = match guard::inspect(&bytes, limits.max_depth) {
        Ok(passed) => passed,
        Err(refused) => return Ok(refusal(StatusCode::BAD_REQUEST, &refused)),
    };
    if passed.lists_tools
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
            let mut response = Response::new(Full::new(Bytes::from(answer.into_string())).boxed());
            response.headers_mut().insert(
                http::header::CONTENT_TYPE,
                http::HeaderValue::from_static("application/json"),
            );
            return Ok(response);
        }
    }
    #[cfg(feature = "auth")]
    if let (Some(auth), Some(caller)) = (&shared.gate.auth, &caller)
        && let Some(response) = insufficient_scope(auth, &shared.gate, caller, &bytes)
    {
        return Ok(response);
    }
    if !parts.headers.contains_key("mcp-session-id")
        && let Some(refused) = over_session_limit(&shared, &bytes).await
    {
        return Ok(refusal(StatusCode::SERVICE_UNAVAILABLE, &refused));
    }
    Ok(shared
        .service
        .handle(Request::from_parts(parts, Full::new(bytes)))
        .await)
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

/// The `403` a `tools/call` gets when the token does not grant the
/// permission the tool needs, so the client can ask for that scope.
#[cfg(feature = "auth")]
fn insufficient_scope(
    auth: &crate::serve::auth::Auth,
    gate: &Gate,
    caller: &crate::serve::policy::Caller,
    bytes: &[u8],
) -> Option<Response<Body>> {
    #[derive(serde::Deserialize)]
    struct Call {
        method: String,
        params: Option<Params>,
    }
    #[derive(serde::Deserialize)]
    struct Params {
        name: Option<String>,
    }
    let call: Call = serde_json::from_slice(bytes).ok()?;
    if call.method != "tools/call" {
        return None;
    }
    let name = call.params?.name?;
    let permission = gate.tools.as_ref()?.permission(&name)?;
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
