//! The conformance-server command: serve the fixture on stdio, or on
//! streamable HTTP at `/mcp`.

use clap::Parser;
use std::net::SocketAddr;
use std::process::ExitCode;
use tooltable::serve::ServeError;

#[derive(Parser)]
#[command(
    version,
    about = "The fixture server of the official MCP conformance suite, built with tooltable."
)]
struct Cli {
    /// Serve streamable HTTP at this address (such as 127.0.0.1:8080; port 0
    /// picks a free one) instead of stdio.
    #[arg(long, value_name = "ADDR")]
    http: Option<SocketAddr>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .init();
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("conformance-server: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(serve(cli.http)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("conformance-server: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Serves until a signal, or until stdin closes on stdio.
async fn serve(http: Option<SocketAddr>) -> Result<(), ServeError> {
    let server = conformance_server::server();
    let Some(address) = http else {
        return server.stdio().await;
    };
    let listener = tokio::net::TcpListener::bind(address)
        .await
        .map_err(|e| ServeError::Io {
            doing: format!("cannot listen on {address}"),
            source: e,
        })?;
    if let Ok(bound) = listener.local_addr() {
        // Scripts read this line to learn the port when given port 0.
        eprintln!("listening on http://{bound}/mcp");
    }
    server.http_on(listener).await
}
