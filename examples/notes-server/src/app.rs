//! `notes-server serve --http ADDR --axum`: the MCP endpoint mounted in an
//! axum application, as a team with an axum service of its own serves it.
//!
//! The application owns the listener, its routes (here a health check) and
//! its middleware; tooltable gives it the guarded endpoint as a tower
//! service, and the Protected Resource Metadata as another when tokens are
//! configured. What belongs to whoever owns the listener is the
//! application's here: how many connections it holds at once and how long
//! one may take to send its headers, which this accept loop applies with
//! hyper's own settings (`axum::serve` offers neither). Shutting down is
//! the application's too: on a signal it stops accepting, and the endpoint
//! gets its grace period to answer what is in progress.

use crate::Store;
use axum::Router;
use axum::routing::get;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;
use tooltable::serve::{McpServer, ServeError, Server};

/// What the application's listener allows.
#[derive(Clone, Copy, Debug)]
pub struct Listening {
    /// Connections held at once; more wait to be accepted until one closes.
    pub max_connections: usize,
    /// How long a connection may take to send a request's headers.
    pub header_read_timeout: Duration,
}

/// Serves `server` at `http://ADDRESS/mcp` inside an axum application with
/// a health route at `/healthz`, until SIGINT or SIGTERM.
pub async fn serve(
    server: Server<McpServer<Store>>,
    address: SocketAddr,
    listening: Listening,
) -> Result<(), ServeError> {
    let mcp = server.http_service()?;
    mcp.check_address(address)?;
    let mut app = Router::new()
        .route("/healthz", get(|| async { "ok" }))
        .nest_service("/mcp", mcp.clone());
    if let Some(metadata) = mcp.metadata() {
        let path = metadata.path().to_owned();
        app = app.route_service(&path, metadata);
    }
    let listener = tokio::net::TcpListener::bind(address)
        .await
        .map_err(|source| ServeError::Io {
            doing: format!("cannot listen on {address}"),
            source,
        })?;
    let address = listener.local_addr().unwrap_or(address);
    tracing::info!(%address, "serving MCP over streamable HTTP at http://{address}/mcp, mounted in axum beside /healthz");
    let places = Arc::new(Semaphore::new(listening.max_connections));
    let connections = GracefulShutdown::new();
    let stop = signal();
    tokio::pin!(stop);
    // Serving, until a signal.
    while let Some((stream, place)) = next(&listener, &places, &mut stop).await {
        let connection = connections.watch(
            http1(listening)
                .serve_connection(TokioIo::new(stream), TowerToHyperService::new(app.clone())),
        );
        tokio::spawn(async move {
            if let Err(error) = connection.await {
                tracing::debug!(%error, "a connection ended with an error");
            }
            drop(place);
        });
    }
    // The endpoint's own grace period runs while the connections finish: a
    // stream still open when it ends is closed with its last words. New
    // connections are still taken meanwhile, so a request sent then is
    // answered that the server is stopping instead of waiting unread.
    let endpoint = mcp.clone();
    let stopped = tokio::spawn(async move { endpoint.shutdown().await });
    let draining = tokio::spawn(connections.shutdown());
    tokio::pin!(stopped);
    let ended = async { drop(stopped.as_mut().await) };
    tokio::pin!(ended);
    while let Some((stream, place)) = next(&listener, &places, &mut ended).await {
        let connection = http1(listening)
            .serve_connection(TokioIo::new(stream), TowerToHyperService::new(app.clone()));
        tokio::spawn(async move {
            let _ = connection.await;
            drop(place);
        });
    }
    let _ = draining.await;
    Ok(())
}

/// The next connection with a place of its own, or `None` once `until`
/// completes. The place is taken first: beyond the limit, connections wait
/// in the system's queue instead of being read.
async fn next<F: std::future::Future<Output = ()> + Unpin>(
    listener: &tokio::net::TcpListener,
    places: &Arc<Semaphore>,
    until: &mut F,
) -> Option<(tokio::net::TcpStream, tokio::sync::OwnedSemaphorePermit)> {
    loop {
        let place = tokio::select! {
            place = places.clone().acquire_owned() => place.ok()?,
            () = &mut *until => return None,
        };
        tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => return Some((stream, place)),
                // Out of file descriptors, or a connection reset before it
                // was taken: wait a moment and go on.
                Err(error) => {
                    tracing::warn!(%error, "cannot accept a connection");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            },
            () = &mut *until => return None,
        }
    }
}

/// hyper's HTTP/1 connection settings: the header deadline.
fn http1(listening: Listening) -> hyper::server::conn::http1::Builder {
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(listening.header_read_timeout);
    builder
}

/// SIGINT or SIGTERM.
async fn signal() {
    let interrupt = tokio::signal::ctrl_c();
    match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
        Ok(mut terminate) => {
            tokio::select! {
                _ = interrupt => {}
                _ = terminate.recv() => {}
            }
        }
        Err(_) => {
            let _ = interrupt.await;
        }
    }
    tracing::info!("shutting down");
}
