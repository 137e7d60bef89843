//! `notes-server serve`: the operator's choices, then the library serves.
//!
//! The library's registry is read-only unless raised; the operator raises
//! it with `--allow-write` or `--allow-destructive`, and a refusal names
//! those switches. Deleting asks the person through the client; a client
//! that cannot ask is refused unless the operator passes
//! `--confirm-by-argument`. Over HTTP, a non-loopback address needs
//! bearer tokens (`--auth-issuer`, `--auth-audience`, `--auth-jwks`) or the
//! explicit `--insecure-no-auth`. Replicas share enable flags through Redis
//! (`--state`) and the `requestState` key (`--state-key`). Everything else (the transports, their guards, signals,
//! the checks on numeric settings) is `tooltable::serve`.

use crate::{Store, TOOLS};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tooltable::policy::{Consent, MaxTier};
use tooltable::registry::{FlagStore, MemoryStore, RedisStore};
use tooltable::serve::{Auth, CallLimits, McpServer, ServeError, Server};
use tooltable::{Registry, Tier};

/// How to serve.
#[derive(Clone, Debug)]
pub struct Options {
    /// The database file.
    pub db: PathBuf,
    /// Serve streamable HTTP at this address instead of stdio.
    pub http: Option<SocketAddr>,
    /// Serve HTTP mounted in an axum application instead of the library's
    /// own listener.
    pub axum: bool,
    /// Allow write tools.
    pub allow_write: bool,
    /// Allow destructive tools (implies write).
    pub allow_destructive: bool,
    /// Let clients that cannot ask their user confirm with `confirm: true`.
    pub confirm_by_argument: bool,
    /// The largest request accepted, in bytes (the library's default when
    /// absent).
    pub max_request_bytes: Option<usize>,
    /// List at most this many tools per page (all in one page when absent).
    pub page_size: Option<usize>,
    /// Bearer-token authentication over HTTP.
    pub auth: Option<AuthOptions>,
    /// Browser origins allowed besides the server's own loopback ones.
    pub allowed_origins: Vec<String>,
    /// Serve a non-loopback address without tokens (behind a proxy that
    /// authenticates).
    pub insecure_no_auth: bool,
    /// How long a call may run (the library's default when absent).
    pub call_timeout: Option<Duration>,
    /// The bounds each call is admitted against.
    pub call_limits: CallLimits,
    /// The largest result sent, in bytes (the library's default when
    /// absent).
    pub max_result_bytes: Option<usize>,
    /// HTTP connections open at once (the library's default when absent;
    /// with `axum`, the application's listener's).
    pub max_connections: Option<usize>,
    /// How long a connection may take to send a request's headers over
    /// HTTP (the library's default when absent; with `axum`, the
    /// application's listener's).
    pub header_read_timeout: Option<Duration>,
    /// `initialize`-era HTTP sessions held at once (the library's default
    /// when absent).
    pub max_sessions: Option<usize>,
    /// How long a request body may take to arrive over HTTP (the library's
    /// default when absent).
    pub body_read_timeout: Option<Duration>,
    /// The most requests in progress at once on stdio (the library's
    /// default when absent).
    pub max_in_flight: Option<usize>,
    /// How long the requests in progress get to finish at shutdown (the
    /// library's default when absent).
    pub shutdown_grace: Option<Duration>,
    /// The Redis URL of enable flags shared with other replicas (in memory
    /// when absent).
    pub state: Option<String>,
    /// A file holding the key that seals `requestState`, shared by replicas
    /// so a multi-round call may move between them.
    pub state_key: Option<PathBuf>,
}

/// Where tokens come from and whom they must name.
#[derive(Clone, Debug)]
pub struct AuthOptions {
    /// The authorization server's URL, as its tokens' `iss` claim names it.
    pub issuer: String,
    /// This server's canonical URI, as the tokens' `aud` claim names it.
    pub audience: String,
    /// The issuer's public keys (a JWKS file), read again when it changes.
    pub jwks: PathBuf,
}

/// The highest tier the operator allowed, with the switches that raise it.
pub fn max_tier(options: &Options) -> MaxTier {
    let max = if options.allow_destructive {
        Tier::Destructive
    } else if options.allow_write {
        Tier::Write
    } else {
        Tier::Read
    };
    MaxTier::new(max)
        .switch(Tier::Write, "start the server with --allow-write")
        .switch(
            Tier::Destructive,
            "start the server with --allow-destructive",
        )
}

/// Who may allow a delete, with the switch that lets the argument do it.
pub fn consent(options: &Options) -> Consent {
    let consent = if options.confirm_by_argument {
        Consent::person_or_argument()
    } else {
        Consent::person()
    };
    consent.switch("start the server with --confirm-by-argument")
}

/// The registry over the notes tools, with the operator's maximum tier and
/// consent setting, and `flags` for enable flags.
pub fn registry(
    max_tier: MaxTier,
    consent: Consent,
    flags: impl FlagStore + 'static,
) -> Registry<Store> {
    Registry::builder(&TOOLS)
        .max_tier(max_tier)
        .consent(consent)
        .store(flags)
        .build()
}

/// The server over the notes database, configured from `options`, with
/// `flags` for enable flags.
pub fn server(
    store: Arc<Store>,
    options: &Options,
    flags: impl FlagStore + 'static,
) -> Result<Server<McpServer<Store>>, Box<dyn std::error::Error>> {
    let mut server = Server::new(registry(max_tier(options), consent(options), flags), store)
        .instructions("Notes kept in SQLite: search, read, create, update and delete notes.")
        .insecure_no_auth(options.insecure_no_auth)
        .call_limits(options.call_limits);
    if let Some(bytes) = options.max_request_bytes {
        server = server.max_request_bytes(bytes);
    }
    if let Some(limit) = options.call_timeout {
        server = server.call_timeout(limit);
    }
    if let Some(bytes) = options.max_result_bytes {
        server = server.max_result_bytes(bytes);
    }
    // A mounted endpoint leaves connections to the application's listener
    // (`app::Listening`), which refuses none of them.
    if !options.axum {
        if let Some(connections) = options.max_connections {
            server = server.max_connections(connections);
        }
        if let Some(limit) = options.header_read_timeout {
            server = server.header_read_timeout(limit);
        }
    }
    if let Some(sessions) = options.max_sessions {
        server = server.max_sessions(sessions);
    }
    if let Some(size) = options.page_size {
        server = server.page_size(size);
    }
    if let Some(limit) = options.body_read_timeout {
        server = server.body_read_timeout(limit);
    }
    if let Some(requests) = options.max_in_flight {
        server = server.max_in_flight(requests);
    }
    if let Some(grace) = options.shutdown_grace {
        server = server.shutdown_grace(grace);
    }
    if let Some(auth) = &options.auth {
        server = server.auth(Auth::new(&auth.issuer, &auth.audience, &auth.jwks)?);
    }
    for origin in &options.allowed_origins {
        server = server.allowed_origin(origin);
    }
    if let Some(path) = &options.state_key {
        let key = std::fs::read(path).map_err(|e| {
            format!(
                "cannot read the requestState key file {}: {e}",
                path.display()
            )
        })?;
        server = server.state_key(key);
    }
    Ok(server)
}

/// The refusal to serve a non-loopback address without tokens, in the
/// terms of this command line.
fn unauthenticated(address: SocketAddr) -> String {
    format!(
        "refusing to serve {address} without authentication: anyone who can reach it could call the tools. Start the server with --auth-issuer URL --auth-audience URL --auth-jwks FILE, serve a loopback address (127.0.0.1), or, behind a proxy that authenticates every request, pass --insecure-no-auth"
    )
}

/// Serves until a signal, or until stdin closes on stdio; then checkpoints
/// the database.
pub async fn run(options: Options) -> Result<(), Box<dyn std::error::Error>> {
    let store = Arc::new(
        Store::open(&options.db)
            .map_err(|e| format!("cannot open the database {}: {e}", options.db.display()))?,
    );
    let server = match &options.state {
        None => server(store.clone(), &options, MemoryStore::new())?,
        Some(url) => {
            let flags = RedisStore::connect(url, TOOLS.crate_name()).await?;
            let tasks = flags.tasks();
            server(store.clone(), &options, flags)?.tasks_in(tasks)
        }
    };
    let outcome: Result<(), ServeError> = match options.http {
        None => server.stdio().await,
        Some(address) if options.axum => {
            let listening = crate::app::Listening {
                max_connections: options.max_connections.unwrap_or(1024),
                header_read_timeout: options
                    .header_read_timeout
                    .unwrap_or(Duration::from_secs(10)),
            };
            crate::app::serve(server, address, listening).await
        }
        Some(address) => server.http(address).await,
    };
    store
        .checkpoint()
        .map_err(|e| format!("cannot checkpoint the database on shutdown: {e}"))?;
    tracing::info!("notes-server stopped");
    match outcome {
        Err(ServeError::Unauthenticated { address }) => Err(unauthenticated(address).into()),
        outcome => Ok(outcome?),
    }
}
