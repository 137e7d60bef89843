//! Serves the ported counter on stdio.

use std::process::ExitCode;

#[tokio::main]
async fn main() -> ExitCode {
    let served = match ported_counter::server() {
        Ok(server) => server.stdio().await,
        Err(error) => {
            eprintln!("ported-counter: {error}");
            return ExitCode::FAILURE;
        }
    };
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("ported-counter: {error}");
            ExitCode::FAILURE
        }
    }
}
