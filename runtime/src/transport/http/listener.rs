//! The server's own listener: accepts connections within the connection
//! limit, reads each request's headers within the deadline, and answers
//! every request with the same [`HttpService`] an application mounts.

use super::service::{Mount, OnConnection};
use super::{Gate, HttpService, MCP_PATH};
use crate::mcp::shortcut::Shortcut;
use crate::transport::connections::Connections;
use crate::transport::error::ServeError;
use crate::transport::limits::Limits;
use rmcp::ServerHandler;
use std::sync::Arc;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

/// Serves until `shutdown` is cancelled; the requests being served get the
/// grace period to finish, and what is left is answered with an error.
/// Connections are still taken during the grace period, so that a request
/// sent then is answered that the server is stopping (it ran nothing)
/// instead of waiting unread until the process exits.
pub(crate) async fn serve<H: ServerHandler + Clone + Send + Sync + 'static>(
    handler: H,
    listener: TcpListener,
    limits: Limits,
    shortcut: Option<Arc<dyn Shortcut>>,
    gate: Gate,
    shutdown: CancellationToken,
) -> Result<(), ServeError> {
    let address = listener
        .local_addr()
        .map_err(|e| ServeError::io("cannot read the listening address", e))?;
    let connections = Connections::new(gate.max_connections);
    let header_read_timeout = gate.header_read_timeout;
    let max_connections = gate.max_connections;
    let service = HttpService::new(handler, limits, shortcut, gate, Mount::Listener(address));
    service.check_address(address)?;
    tracing::info!(%address, "serving MCP over streamable HTTP at http://{address}{MCP_PATH}");
    let stopped = {
        let (service, shutdown) = (service.clone(), shutdown.clone());
        async move {
            shutdown.cancelled().await;
            service.shutdown().await;
        }
    };
    tokio::pin!(stopped);
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
            () = &mut stopped => break,
        };
        // rmcp ends a streamed answer with a small write of its own; with
        // Nagle's algorithm that write waits for the client's delayed ACK
        // (about 40 ms on Linux), so every such answer would arrive late.
        if let Err(error) = stream.set_nodelay(true) {
            tracing::debug!(%peer, %error, "cannot set TCP_NODELAY on a connection");
        }
        let Some(place) = connections.admit() else {
            tracing::warn!(%peer, max_connections, "a connection over the limit was refused: every connection has a request in progress");
            tokio::spawn(refuse_connection(stream));
            continue;
        };
        let service = service.clone();
        // A connection taken once shutdown began is not shut down with the
        // others: it has its one request to send, answered that the server
        // is stopping, after which it closes.
        let shutdown = match shutdown.is_cancelled() {
            false => shutdown.clone(),
            true => CancellationToken::new(),
        };
        tokio::spawn(async move {
            let place = Arc::new(place);
            let closed = place.closed().clone();
            let io = hyper_util::rt::TokioIo::new(stream);
            let handler = hyper::service::service_fn(
                move |mut request: http::Request<hyper::body::Incoming>| {
                    request.extensions_mut().insert(OnConnection(place.clone()));
                    let service = service.clone();
                    async move { Ok::<_, std::convert::Infallible>(service.answer(request).await) }
                },
            );
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
    Ok(())
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
