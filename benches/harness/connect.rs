//! An rmcp client talking to a server over an in-process duplex pipe.
//!
//! The end-to-end benchmarks need a real rmcp session (framing, JSON-RPC,
//! the handshake) without a socket or a subprocess, and the in-process
//! dispatch benchmark needs a server-side `Peer` to build request contexts
//! with, which rmcp only hands out from a running service.

use rmcp::model::{ClientCapabilities, ClientConfig, Implementation};
use rmcp::service::{Peer, RoleClient, RoleServer, RunningService};
use rmcp::{ClientHandler, ServerHandler, ServiceExt};

/// The benchmark's client: it asks for nothing beyond tools.
#[derive(Clone)]
pub struct Client;

impl ClientHandler for Client {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(
            ClientCapabilities::default(),
            Implementation::new("tooltable-bench", "0"),
        )
    }
}

/// A connected pair: the client's session and the server's peer.
pub struct Connection {
    /// The client side, ready for requests.
    pub client: RunningService<RoleClient, Client>,
    /// The server side's peer (for building request contexts by hand).
    pub server: Peer<RoleServer>,
}

/// Serves `handler` on one end of a duplex pipe (as a task on the current
/// runtime) and connects a client to the other, in the `initialize` era:
/// no caching hints, so every `tools/list` reaches the server.
pub async fn connect<H: ServerHandler>(handler: H) -> Connection {
    let (server_side, client_side) = tokio::io::duplex(16 << 20);
    let (peer_tx, peer_rx) = tokio::sync::oneshot::channel();
    tokio::spawn(async move {
        let running = match handler.serve(server_side).await {
            Ok(running) => running,
            Err(e) => {
                eprintln!("the benchmark server did not start: {e}");
                std::process::exit(2);
            }
        };
        let _ = peer_tx.send(running.peer().clone());
        let _ = running.waiting().await;
    });
    let client = match Client.serve(client_side).await {
        Ok(client) => client,
        Err(e) => {
            eprintln!("the benchmark client did not connect: {e}");
            std::process::exit(2);
        }
    };
    let Ok(server) = peer_rx.await else {
        eprintln!("the benchmark server stopped before handing out its peer");
        std::process::exit(2);
    };
    Connection { client, server }
}
