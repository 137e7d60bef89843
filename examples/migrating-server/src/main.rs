//! Serves the table's tools and the router's on stdio, every tier.

use migrating_server::{Counter, registry};
use std::process::ExitCode;
use std::sync::Arc;
use tooltable::Tier;
use tooltable::serve::Server;

#[tokio::main]
async fn main() -> ExitCode {
    let counter = Arc::new(Counter::default());
    let registry = match registry(counter.clone(), Tier::Destructive) {
        Ok(registry) => registry,
        Err(error) => {
            eprintln!("migrating-server: {error}");
            return ExitCode::FAILURE;
        }
    };
    match Server::new(registry, counter).stdio().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("migrating-server: {error}");
            ExitCode::FAILURE
        }
    }
}
