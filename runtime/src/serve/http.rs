//! The streamable-HTTP transport: rmcp's service behind hyper, guarded.
//!
//! POST bodies are read here first, up to the size limit, and checked by
//! the guard ([`super::guard`]): too large is `413` with JSON-RPC -32600,
//! not JSON is `400` with -32700, not JSON-RPC or nested too deep is `400`
//! with -32600 (carrying the request's id where it can be read). What
//! passes is handed to rmcp unchanged, as is every GET and DELETE.

use crate::serve::guard::{self, Refused};
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

/// Serves until `shutdown` is cancelled; connections in progress finish.
pub(crate) async fn serve<H: ServerHandler + Clone>(
    handler: H,
    listener: TcpListener,
    limits: Limits,
    shutdown: CancellationToken,
) -> Result<(), ServeError> {
    let address = listener
        .local_addr()
        .map_err(|e| ServeError::io("cannot read the listening address", e))?;
    let mut config = StreamableHttpServerConfig::default()
        .with_cancellation_token(shutdown.child_token())
        .with_max_request_body_bytes(limits.max_request_bytes)
        .with_sse_keep_alive(None);
    if !address.ip().is_loopback() {
        let mut hosts = config.allowed_hosts.clone();
        hosts.push(address.ip().to_string());
        hosts.push(address.to_string());
        config = config.with_allowed_hosts(hosts);
    }
    let service: Arc<Service<H>> = Arc::new(StreamableHttpService::new(
        move || Ok(handler.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    ));
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
        let service = service.clone();
        let shutdown = shutdown.clone();
        tokio::spawn(async move {
            let io = hyper_util::rt::TokioIo::new(stream);
            let handler =
                hyper::service::service_fn(move |request| route(service.clone(), limits, request));
            let connection =
                hyper::server::conn::http1::Builder::new().serve_connection(io, handler);
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

fn refusal(status: StatusCode, refused: &Refused) -> Response<Body> {
    let mut response = Response::new(Full::new(Bytes::from(refused.response())).boxed());
    *response.status_mut() = status;
    response.headers_mut().insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static("application/json"),
    );
    response
}

/// Answers one HTTP request.
async fn route<H: ServerHandler>(
    service: Arc<Service<H>>,
    limits: Limits,
    request: Request<Incoming>,
) -> Result<Response<Body>, Infallible> {
    if request.method() != Method::POST {
        return Ok(service.handle(request).await);
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
    if let Err(refused) = guard::inspect(&bytes, limits.max_depth) {
        return Ok(refusal(StatusCode::BAD_REQUEST, &refused));
    }
    Ok(service
        .handle(Request::from_parts(parts, Full::new(bytes)))
        .await)
}
