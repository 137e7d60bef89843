//! What the example's integration tests share.
#![allow(dead_code)]

use std::future::Future;
use std::path::{Path, PathBuf};
use std::process::Child;
use std::time::{Duration, Instant};

/// Runs a future to completion on a runtime of the test's own: the
/// example's async handlers hand their database work to tokio's blocking
/// pool.
pub fn block_on<F: Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime for the test")
        .block_on(future)
}

/// A loopback port nothing listens on, for a program that cannot be told
/// to pick its own (redis-server).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// The port a server started with `--http 127.0.0.1:0` was given, read
/// from the line it logs to `log` once it listens: a port picked by the
/// test and freed before the server binds it can be taken by another test's
/// server in between.
pub fn listening_port(log: &Path, child: &mut Child) -> u16 {
    const LISTENING: &str = "serving MCP over streamable HTTP at http://127.0.0.1:";
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let text = std::fs::read_to_string(log).unwrap_or_default();
        if let Some(port) = text
            .split(LISTENING)
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .and_then(|port| port.parse().ok())
        {
            return port;
        }
        if let Ok(Some(status)) = child.try_wait() {
            panic!("notes-server exited with {status} before listening:\n{text}");
        }
        assert!(
            Instant::now() < deadline,
            "notes-server did not log its address within 20 s:\n{text}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A directory of the test's own, removed when the test ends.
pub struct TempDir(pub PathBuf);

impl TempDir {
    /// An empty directory for the test `name` of the file `suite`.
    pub fn new(suite: &str, name: &str) -> TempDir {
        let path =
            std::env::temp_dir().join(format!("notes-{suite}-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        TempDir(path)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
