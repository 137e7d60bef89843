//! `notes-server serve --http ADDR --axum`: the MCP endpoint mounted in an
//! axum application, as a team with an axum service of its own serves it.
//!
//! The application owns the listener, its routes (here a health check) and
//! its middleware; tooltable gives it the guarded endpoint as a tower
//! service, and the Protected Resource Metadata as another when tokens are
//! configured. Shutting down is the application's: on a signal it stops
//! accepting, and the endpoint gets its grace period to answer what is in
//! progress.

use crate::Store;
use axum::Router;
use axum::routing::get;
use std::net::SocketAddr;
use tooltable::serve::{McpServer, ServeError, Server};

/// Serves `server` at `http://ADDRESS/mcp` inside an axum application with
/// a health route at `/healthz`, until SIGINT or SIGTERM.
pub async fn serve(
    server: Server<McpServer<Store>>,
    address: SocketAddr,
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
    let stopping = mcp.clone();
    axum::serve(listener, app)
        .with_graceful_shutdown(async move {
            signal().await;
            // The endpoint's own grace period runs while axum waits for
            // the connections to close: a stream still open when it ends
            // is closed with its last words.
            tokio::spawn(async move { stopping.shutdown().await });
        })
        .await
        .map_err(|source| ServeError::Io {
            doing: "the application stopped serving".to_owned(),
            source,
        })?;
    mcp.shutdown().await;
    Ok(())
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
