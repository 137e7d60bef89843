//! The test fixture's read tools served over streamable HTTP on a port of
//! loopback the system chooses, for the tests that need a real process
//! (`runtime/tests/transport_attacks.rs`: signals, memory).
//!
//! `fixture_http [--max-connections N]`: prints `http://ADDRESS/mcp` on
//! stdout once it listens, and serves until SIGINT or SIGTERM.

use std::io::Write;
use tooltable_fixture::{Shelf, TOOLS};
use tooltable_runtime::Registry;
use tooltable_runtime::serve::Server;

fn main() -> std::process::ExitCode {
    let mut args = std::env::args().skip(1);
    let mut max_connections = None;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--max-connections" if max_connections.is_none() => {
                max_connections = args.next().and_then(|n| n.parse::<usize>().ok());
                if max_connections.is_none() {
                    eprintln!("fixture_http: --max-connections needs a number of connections");
                    return std::process::ExitCode::FAILURE;
                }
            }
            _ => {
                eprintln!("usage: fixture_http [--max-connections N]");
                return std::process::ExitCode::FAILURE;
            }
        }
    }
    let mut server = Server::new(Registry::new(&TOOLS), Shelf::new());
    if let Some(connections) = max_connections {
        server = server.max_connections(connections);
    }
    let served = tokio::runtime::Runtime::new().map(|runtime| {
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
            let address = listener.local_addr()?;
            let mut stdout = std::io::stdout();
            writeln!(stdout, "http://{address}/mcp")?;
            stdout.flush()?;
            server
                .http_on(listener)
                .await
                .map_err(|e| std::io::Error::other(e.to_string()))
        })
    });
    match served {
        Ok(Ok(())) => std::process::ExitCode::SUCCESS,
        Ok(Err(e)) => {
            eprintln!("fixture_http: {e}");
            std::process::ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("fixture_http: cannot start the async runtime: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
