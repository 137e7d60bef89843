//! The notes-server command: serve the tools over MCP, or inspect the table.

use clap::{Parser, Subcommand};
use notes_server::TOOLS;
use notes_server::serve::{AuthOptions, Options};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use tooltable::serve::DEFAULT_MAX_REQUEST_BYTES;

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
    Serve {
        /// The SQLite database file (created if missing).
        #[arg(long, default_value = "notes.db")]
        db: PathBuf,
        /// Serve streamable HTTP at this address (such as 127.0.0.1:8080) instead of stdio.
        #[arg(long, value_name = "ADDR")]
        http: Option<SocketAddr>,
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
        /// The largest request accepted, in bytes.
        #[arg(long, default_value_t = DEFAULT_MAX_REQUEST_BYTES)]
        max_request_bytes: usize,
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
    },
    /// Print the tool table baked at build time.
    Tools {
        /// Print the manifest JSON, rendered from the baked table.
        #[arg(long)]
        json: bool,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Tools { json: true } => print!("{}", TOOLS.manifest().render()),
        Command::Tools { json: false } => print_table(),
        Command::Serve {
            db,
            http,
            allow_write,
            allow_destructive,
            confirm_by_argument,
            max_request_bytes,
            page_size,
            auth_issuer,
            auth_audience,
            auth_jwks,
            allowed_origin,
            insecure_no_auth,
        } => {
            tracing_subscriber::fmt()
                .with_writer(std::io::stderr)
                .with_ansi(false)
                .init();
            let options = Options {
                db,
                http,
                allow_write,
                allow_destructive,
                confirm_by_argument,
                max_request_bytes,
                page_size,
                auth: match (auth_issuer, auth_audience, auth_jwks) {
                    (Some(issuer), Some(audience), Some(jwks)) => Some(AuthOptions {
                        issuer,
                        audience,
                        jwks,
                    }),
                    _ => None,
                },
                allowed_origins: allowed_origin,
                insecure_no_auth,
            };
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
