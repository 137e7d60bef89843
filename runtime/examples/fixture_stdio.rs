//! The test fixture's tools served on this process's stdin and stdout, for
//! the tests that need a real process (`runtime/tests/listing.rs`,
//! `process.rs`, `transport_attacks.rs`: signals, memory).
//!
//! `fixture_stdio [--typed] [--calls-through-rmcp] [--page-size N]
//! [--discovery]`: every tool up to the destructive tier; `--typed` sends
//! every listing through rmcp, `--calls-through-rmcp` every call;
//! `--discovery` serves in discovery mode, listing `items_get`, with the
//! tools up to the write tier (so a search never finds `items_destroy`,
//! and the call tool cannot call it).

use tooltable_fixture::{Shelf, TOOLS};
use tooltable_runtime::Registry;
use tooltable_runtime::Tier;
use tooltable_runtime::serve::{Discovery, Server};

fn main() -> std::process::ExitCode {
    let mut args = std::env::args().skip(1);
    let (mut typed, mut through_rmcp, mut page_size) = (false, false, None);
    let mut discovery = false;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--typed" => typed = true,
            "--calls-through-rmcp" => through_rmcp = true,
            "--discovery" => discovery = true,
            "--page-size" if page_size.is_none() => {
                page_size = args.next().and_then(|size| size.parse::<usize>().ok());
                if page_size.is_none() {
                    eprintln!("fixture_stdio: --page-size needs a number of tools");
                    return std::process::ExitCode::FAILURE;
                }
            }
            _ => {
                eprintln!(
                    "usage: fixture_stdio [--typed] [--calls-through-rmcp] [--page-size N] [--discovery]"
                );
                return std::process::ExitCode::FAILURE;
            }
        }
    }
    let max_tier = if discovery {
        Tier::Write
    } else {
        Tier::Destructive
    };
    let registry = Registry::builder(&TOOLS).max_tier(max_tier).build();
    let mut server = Server::new(registry, Shelf::new())
        .shortcut_lists(!typed)
        .shortcut_calls(!through_rmcp);
    if discovery {
        server = server.discovery(Discovery::new().listed(["items_get"]));
    }
    if let Some(size) = page_size {
        server = server.page_size(size);
    }
    let served = tokio::runtime::Runtime::new().map(|runtime| runtime.block_on(server.stdio()));
    match served {
        Ok(Ok(())) => std::process::ExitCode::SUCCESS,
        Ok(Err(e)) => {
            eprintln!("fixture_stdio: {e}");
            std::process::ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("fixture_stdio: cannot start the async runtime: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
