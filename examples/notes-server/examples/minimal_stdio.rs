//! The smallest server: the README's ten lines, compiled by `cargo test` so
//! they stay true. Run it with `cargo run -p notes-server --example minimal_stdio`.

use rmcp::ServiceExt;
use std::sync::Arc;
use tooltable::{Registry, adapter::McpServer};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let server = McpServer::new(
        Registry::new(&notes_server::TOOLS),
        Arc::new(notes_server::Store::open("notes.db".as_ref())?),
    );
    server
        .serve(rmcp::transport::stdio())
        .await?
        .waiting()
        .await?;
    Ok(())
}
