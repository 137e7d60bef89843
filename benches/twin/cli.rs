//! The command line every notes twin shares, so benches/load.sh and
//! benches/peers.sh start each framework's twin as they start notes-server:
//! `serve --db FILE --http ADDR` serves the store in FILE over streamable
//! HTTP at ADDR until the process is killed.

use notes_server::Store;
use std::net::SocketAddr;

/// Prints `message` as this binary's and leaves with status 2.
pub fn fail(message: &str) -> ! {
    eprintln!("{}: {message}", env!("CARGO_BIN_NAME"));
    std::process::exit(2);
}

/// The value after `name` in `args`, or a failure naming what is missing.
pub fn option(args: &[String], name: &str, usage: &str) -> String {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .cloned()
        .unwrap_or_else(|| fail(&format!("{name} is missing\n{usage}")))
}

/// `serve --db FILE --http ADDR` read from `args` (the subcommand first):
/// the store opened and the address parsed.
pub fn serve(args: &[String], usage: &str) -> (Store, SocketAddr) {
    if args.first().map(String::as_str) != Some("serve") {
        fail(usage);
    }
    let db = std::path::PathBuf::from(option(args, "--db", usage));
    let address: SocketAddr = option(args, "--http", usage)
        .parse()
        .unwrap_or_else(|_| fail("--http takes an address such as 127.0.0.1:8080"));
    let store =
        Store::open(&db).unwrap_or_else(|e| fail(&format!("cannot open {}: {e}", db.display())));
    (store, address)
}

/// Runs `serving` on a multi-threaded tokio runtime, as every framework's
/// documentation starts its server.
pub fn run(serving: impl std::future::Future<Output = ()>) {
    tokio::runtime::Runtime::new()
        .unwrap_or_else(|e| fail(&format!("cannot start a tokio runtime: {e}")))
        .block_on(serving);
}

/// Binds `address`, or fails saying why.
pub async fn listen(address: SocketAddr) -> tokio::net::TcpListener {
    tokio::net::TcpListener::bind(address)
        .await
        .unwrap_or_else(|e| fail(&format!("cannot listen on {address}: {e}")))
}
