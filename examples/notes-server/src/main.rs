//! The notes-server command: serve the tools over MCP, or inspect the table.

use clap::{Args, Parser, Subcommand};
use notes_server::TOOLS;
use notes_server::serve::{AuthOptions, Options};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;
use tooltable::serve::CallLimits;

#[derive(Parser)]
#[command(
    version,
    about = "An MCP server that keeps notes in SQLite, built with tooltable."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the tools over MCP: stdio by default, or streamable HTTP.
    Serve(Box<ServeArgs>),
    /// Switch a tool on or off for every replica sharing a flag store.
    Admin {
        #[command(subcommand)]
        action: AdminAction,
    },
    /// Print the tool table baked at build time.
    Tools {
        /// Print the manifest JSON, rendered from the baked table.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Subcommand)]
enum AdminAction {
    /// Switch a tool on.
    Enable {
        /// The tool.
        tool: String,
        /// The Redis URL the replicas share (redis://HOST:PORT/DB).
        #[arg(long, value_name = "URL")]
        state: String,
    },
    /// Switch a tool off: replicas stop listing it and refuse calls to it.
    Disable {
        /// The tool.
        tool: String,
        /// The Redis URL the replicas share (redis://HOST:PORT/DB).
        #[arg(long, value_name = "URL")]
        state: String,
    },
}

/// How to serve: the operator's choices.
#[derive(Args)]
struct ServeArgs {
    /// The SQLite database file (created if missing).
    #[arg(long, default_value = "notes.db")]
    db: PathBuf,
    /// Serve streamable HTTP at this address (such as 127.0.0.1:8080) instead of stdio.
    #[arg(long, value_name = "ADDR")]
    http: Option<SocketAddr>,
    /// Over HTTP, serve MCP mounted in an axum application at /mcp, beside
    /// a health route (/healthz), as a team with an axum service would:
    /// the same endpoint through `Server::http_service`.
    #[arg(long, requires = "http")]
    axum: bool,
    /// Allow the tools that write (create, update).
    #[arg(long)]
    allow_write: bool,
    /// Allow the tools that destroy data (delete); implies --allow-write.
    #[arg(long)]
    allow_destructive: bool,
    /// Let clients that cannot ask their user (no elicitation) confirm a
    /// delete with `confirm: true`, which the model sets. Without it
    /// such clients cannot delete; clients that can ask always ask.
    #[arg(long)]
    confirm_by_argument: bool,
    /// The largest request accepted, in bytes (the library's default: 4 MiB).
    #[arg(long, value_name = "BYTES")]
    max_request_bytes: Option<usize>,
    /// List at most this many tools per page (all in one page by default).
    #[arg(long)]
    page_size: Option<usize>,
    /// Over HTTP, accept only bearer tokens issued by this authorization
    /// server (its URL, as the tokens' `iss` claim names it).
    #[arg(long, value_name = "URL", requires_all = ["auth_audience", "auth_jwks"])]
    auth_issuer: Option<String>,
    /// This server's canonical URI, which tokens must name as their `aud`
    /// (such as https://notes.example.com/mcp).
    #[arg(long, value_name = "URL", requires_all = ["auth_issuer", "auth_jwks"])]
    auth_audience: Option<String>,
    /// The issuer's public keys, a JWKS file; read again when it changes.
    #[arg(long, value_name = "FILE", requires_all = ["auth_issuer", "auth_audience"])]
    auth_jwks: Option<PathBuf>,
    /// Also allow requests from this browser origin (repeatable); by
    /// default only the server's own loopback origins are allowed.
    #[arg(long, value_name = "ORIGIN")]
    allowed_origin: Vec<String>,
    /// Serve an address other than loopback without tokens: only behind a
    /// proxy that authenticates every request itself.
    #[arg(long, conflicts_with = "auth_issuer")]
    insecure_no_auth: bool,
    /// Stop a call that runs longer than this many seconds (the library's
    /// default: 15 minutes).
    #[arg(long, value_name = "SECONDS")]
    call_timeout: Option<u64>,
    /// Calls in progress at once, in all (the library's default: 64).
    #[arg(long, value_name = "N")]
    max_calls: Option<usize>,
    /// Calls in progress at once for one authenticated caller (the
    /// library's default: 16).
    #[arg(long, value_name = "N")]
    max_calls_per_caller: Option<usize>,
    /// Calls one authenticated caller may start per second, on average,
    /// with bursts of twice as many (the library's default: 50, bursts of
    /// 100).
    #[arg(long, value_name = "N")]
    calls_per_second: Option<u32>,
    /// The largest result sent, in bytes of text and data (the library's
    /// default: 16 MiB).
    #[arg(long, value_name = "BYTES")]
    max_result_bytes: Option<usize>,
    /// HTTP connections open at once (default: 1024).
    #[arg(long, value_name = "N")]
    max_connections: Option<usize>,
    /// Over HTTP, close a connection that has not sent a request's headers
    /// within this many seconds (default: 10).
    #[arg(long, value_name = "SECONDS")]
    header_read_timeout: Option<u64>,
    /// `initialize`-era HTTP sessions held at once (the library's default:
    /// 1024).
    #[arg(long, value_name = "N")]
    max_sessions: Option<usize>,
    /// Over HTTP, answer 408 and close a connection whose request body has
    /// not arrived this many seconds after its headers (the library's
    /// default: 30).
    #[arg(long, value_name = "SECONDS")]
    body_read_timeout: Option<u64>,
    /// On stdio, the most requests in progress at once; beyond it no more
    /// input is read until an answer is (the library's default: 256).
    #[arg(long, value_name = "N")]
    max_in_flight: Option<usize>,
    /// At shutdown, how many seconds the requests in progress get to
    /// finish before they are answered with an error (the library's
    /// default: 30).
    #[arg(long, value_name = "SECONDS")]
    shutdown_grace: Option<u64>,
    /// Share enable flags with other replicas through Redis
    /// (redis://HOST:PORT/DB); in memory by default.
    #[arg(long, value_name = "URL")]
    state: Option<String>,
    /// A file of at least 32 random bytes sealing 2026-07-28 requestState;
    /// replicas given the same file can resume each other's calls.
    #[arg(long, value_name = "FILE")]
    state_key: Option<PathBuf>,
}

impl ServeArgs {
    /// The library's call limits, with what the flags set.
    fn call_limits(&self) -> CallLimits {
        let mut limits = CallLimits::default();
        if let Some(calls) = self.max_calls {
            limits.max_concurrent = calls;
        }
        if let Some(calls) = self.max_calls_per_caller {
            limits.max_concurrent_per_caller = calls;
        }
        if let Some(rate) = self.calls_per_second {
            limits.per_second = rate;
            limits.burst = rate.saturating_mul(2);
        }
        limits
    }

    fn into_options(self) -> Options {
        let call_limits = self.call_limits();
        Options {
            db: self.db,
            http: self.http,
            axum: self.axum,
            allow_write: self.allow_write,
            allow_destructive: self.allow_destructive,
            confirm_by_argument: self.confirm_by_argument,
            max_request_bytes: self.max_request_bytes,
            page_size: self.page_size,
            auth: match (self.auth_issuer, self.auth_audience, self.auth_jwks) {
                (Some(issuer), Some(audience), Some(jwks)) => Some(AuthOptions {
                    issuer,
                    audience,
                    jwks,
                }),
                _ => None,
            },
            allowed_origins: self.allowed_origin,
            insecure_no_auth: self.insecure_no_auth,
            call_timeout: self.call_timeout.map(Duration::from_secs),
            call_limits,
            max_result_bytes: self.max_result_bytes,
            max_connections: self.max_connections,
            header_read_timeout: self.header_read_timeout.map(Duration::from_secs),
            max_sessions: self.max_sessions,
            body_read_timeout: self.body_read_timeout.map(Duration::from_secs),
            max_in_flight: self.max_in_flight,
            shutdown_grace: self.shutdown_grace.map(Duration::from_secs),
            state: self.state,
            state_key: self.state_key,
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Tools { json: true } => print!("{}", TOOLS.manifest().render()),
        Command::Admin { action } => {
            let (tool, state, enabled) = match action {
                AdminAction::Enable { tool, state } => (tool, state, true),
                AdminAction::Disable { tool, state } => (tool, state, false),
            };
            let runtime = match tokio::runtime::Runtime::new() {
                Ok(runtime) => runtime,
                Err(e) => {
                    eprintln!("notes-server: cannot start the async runtime: {e}");
                    return ExitCode::FAILURE;
                }
            };
            match runtime.block_on(notes_server::admin::set(&state, &tool, enabled)) {
                Ok(sentence) => println!("{sentence}"),
                Err(e) => {
                    eprintln!("notes-server: {e}");
                    return ExitCode::FAILURE;
                }
            }
        }
        Command::Tools { json: false } => print_table(),
        Command::Serve(args) => {
            if let Err(e) = init_logging() {
                eprintln!("notes-server: {e}");
                return ExitCode::FAILURE;
            }
            let options = args.into_options();
            let runtime = match tokio::runtime::Runtime::new() {
                Ok(runtime) => runtime,
                Err(e) => {
                    eprintln!("notes-server: cannot start the async runtime: {e}");
                    return ExitCode::FAILURE;
                }
            };
            if let Err(e) = runtime.block_on(notes_server::serve::run(options)) {
                eprintln!("notes-server: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}

/// Logs to standard error, filtered by `RUST_LOG` (comma-separated
/// `target=level` directives, or a bare level). Without it: the server's own
/// and tooltable's events from `info` up, rmcp's from `warn` up. rmcp logs
/// three lines at `info` for every stateless request (a service started, its
/// input ended, it finished), which under load fills the log and costs more
/// CPU than answering the request.
fn init_logging() -> Result<(), String> {
    use tracing::Level;
    use tracing_subscriber::filter::Targets;
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    let filter: Targets = match std::env::var("RUST_LOG") {
        Ok(directives) if !directives.trim().is_empty() => directives.parse().map_err(|e| {
            format!(
                "RUST_LOG={directives:?} is not a log filter ({e}); write comma-separated `target=level` directives or a bare level, for example `info,rmcp=warn`"
            )
        })?,
        _ => Targets::new()
            .with_default(Level::INFO)
            .with_target("rmcp", Level::WARN),
    };
    tracing_subscriber::fmt()
        // The filter decides, at every level: the builder's own maximum
        // (`info`) would drop the `debug` that RUST_LOG asks for.
        .with_max_level(Level::TRACE)
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .finish()
        .with(filter)
        .try_init()
        .map_err(|e| format!("cannot start logging: {e}"))
}

fn print_table() {
    let yes_no = |b: bool| if b { "yes" } else { "no" };
    println!(
        "{:<14} {:<12} {:<9} {:<12} {:<10} {:<10} FINGERPRINT",
        "NAME", "TIER", "READONLY", "DESTRUCTIVE", "IDEMPOTENT", "OPENWORLD"
    );
    for tool in TOOLS.tools() {
        let hints = tool.info().annotations();
        println!(
            "{:<14} {:<12} {:<9} {:<12} {:<10} {:<10} {}",
            tool.name(),
            tool.info().tier,
            yes_no(hints.read_only),
            yes_no(hints.destructive),
            yes_no(hints.idempotent),
            yes_no(hints.open_world),
            tool.fingerprint().short()
        );
    }
    println!(
        "{} tools, inventory {}",
        TOOLS.len(),
        TOOLS.inventory().short()
    );
}
