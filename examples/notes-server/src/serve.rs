//! `notes-server serve`: the MCP server, on stdio or streamable HTTP.
//!
//! The policy is read-only unless the operator raises it (`--allow-write`,
//! `--allow-destructive`), so a freshly started server cannot be made to
//! delete anything. Logs go to stderr, never stdout (stdout carries the
//! protocol on stdio). SIGINT, SIGTERM and stdin closing all shut the server
//! down cleanly; the database is checkpointed before exit.

use crate::{Store, TOOLS};
use rmcp::ServiceExt;
use rmcp::transport::async_rw::AsyncRwTransport;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use tokio_util::sync::CancellationToken;
use tooltable::Tier;
use tooltable::adapter::McpServer;
use tooltable::policy::{Caller, MaxTier};
use tooltable::registry::Registry;
use tooltable::state::MemoryStore;

/// The largest request accepted, on either transport, by default (4 MiB).
pub const DEFAULT_MAX_REQUEST_BYTES: usize = 4 * 1024 * 1024;

/// How to serve.
#[derive(Clone, Debug)]
pub struct Options {
    /// The database file.
    pub db: PathBuf,
    /// Serve streamable HTTP at this address instead of stdio.
    pub http: Option<SocketAddr>,
    /// Allow write tools.
    pub allow_write: bool,
    /// Allow destructive tools (implies write).
    pub allow_destructive: bool,
    /// The largest request accepted, in bytes.
    pub max_request_bytes: usize,
    /// List at most this many tools per page (all in one page when absent).
    pub page_size: Option<usize>,
}

/// The highest tier the operator allowed.
pub fn max_tier(options: &Options) -> Tier {
    if options.allow_destructive {
        Tier::Destructive
    } else if options.allow_write {
        Tier::Write
    } else {
        Tier::Read
    }
}

/// The MCP server over the notes database, with the operator's policy.
pub fn server(store: Arc<Store>, max: Tier) -> McpServer<Store> {
    let policy = MaxTier::new(max)
        .switch(Tier::Write, "start the server with --allow-write")
        .switch(
            Tier::Destructive,
            "start the server with --allow-destructive",
        );
    let registry = Registry::builder(&TOOLS)
        .policy(policy)
        .store(MemoryStore::new())
        .build();
    McpServer::new(registry, store)
        .fixed_caller(Caller::anonymous())
        .instructions("Notes kept in SQLite: search, read, create, update and delete notes.")
}

/// Runs the server until a signal, or until stdin closes on stdio.
pub async fn run(options: Options) -> Result<(), Box<dyn std::error::Error>> {
    let store = Arc::new(
        Store::open(&options.db)
            .map_err(|e| format!("cannot open the database {}: {e}", options.db.display()))?,
    );
    let mut server = server(store.clone(), max_tier(&options));
    if let Some(size) = options.page_size {
        server = server.page_size(size);
    }
    let shutdown = CancellationToken::new();
    tokio::spawn(signals(shutdown.clone()));
    let outcome = match options.http {
        None => serve_stdio(server, options.max_request_bytes, shutdown.clone()).await,
        Some(address) => {
            serve_http(server, address, options.max_request_bytes, shutdown.clone()).await
        }
    };
    store
        .checkpoint()
        .map_err(|e| format!("cannot checkpoint the database on shutdown: {e}"))?;
    tracing::info!("notes-server stopped");
    outcome
}

async fn signals(shutdown: CancellationToken) {
    let interrupt = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut terminate =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(signal) => signal,
                Err(e) => {
                    tracing::warn!(error = %e, "cannot listen for SIGTERM");
                    let _ = interrupt.await;
                    shutdown.cancel();
                    return;
                }
            };
        tokio::select! {
            _ = interrupt => tracing::info!("SIGINT received; shutting down"),
            _ = terminate.recv() => tracing::info!("SIGTERM received; shutting down"),
        }
    }
    #[cfg(not(unix))]
    {
        let _ = interrupt.await;
        tracing::info!("interrupt received; shutting down");
    }
    shutdown.cancel();
}

async fn serve_stdio(
    server: McpServer<Store>,
    max_request_bytes: usize,
    shutdown: CancellationToken,
) -> Result<(), Box<dyn std::error::Error>> {
    let (read, write) = tokio::io::split(crate::stdio::guard(max_request_bytes));
    let transport =
        AsyncRwTransport::new_server(read, write).with_max_line_length(max_request_bytes + 1);
    tracing::info!("serving MCP on stdio");
    let running = server
        .serve_with_ct(transport, shutdown.child_token())
        .await?;
    tokio::select! {
        finished = running.waiting() => { finished?; tracing::info!("stdin closed"); }
        () = shutdown.cancelled() => {}
    }
    Ok(())
}

async fn serve_http(
    server: McpServer<Store>,
    address: SocketAddr,
    max_request_bytes: usize,
    shutdown: CancellationToken,
) -> Result<(), Box<dyn std::error::Error>> {
    let mut config = StreamableHttpServerConfig::default()
        .with_cancellation_token(shutdown.child_token())
        .with_max_request_body_bytes(max_request_bytes)
        .with_sse_keep_alive(None);
    if !address.ip().is_loopback() {
        tracing::warn!(%address, "serving beyond loopback, as asked");
        let host = address.ip().to_string();
        let mut hosts = config.allowed_hosts.clone();
        hosts.push(host.clone());
        hosts.push(address.to_string());
        config = config.with_allowed_hosts(hosts);
    }
    let service = Arc::new(StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    ));
    let listener = tokio::net::TcpListener::bind(address)
        .await
        .map_err(|e| format!("cannot listen on {address}: {e}"))?;
    let bound = listener.local_addr()?;
    tracing::info!(address = %bound, "serving MCP over streamable HTTP at http://{bound}/mcp");
    eprintln!("listening on http://{bound}/mcp");
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => accepted?,
            () = shutdown.cancelled() => break,
        };
        let service = service.clone();
        let shutdown = shutdown.clone();
        tokio::spawn(async move {
            let io = hyper_util::rt::TokioIo::new(stream);
            let handler = hyper::service::service_fn(move |request| {
                crate::http::route(service.clone(), max_request_bytes, request)
            });
            let connection =
                hyper::server::conn::http1::Builder::new().serve_connection(io, handler);
            tokio::pin!(connection);
            tokio::select! {
                result = connection.as_mut() => {
                    if let Err(e) = result {
                        tracing::debug!(%peer, error = %e, "connection ended with an error");
                    }
                }
                () = shutdown.cancelled() => connection.as_mut().graceful_shutdown(),
            }
        });
    }
    Ok(())
}
