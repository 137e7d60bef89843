//! What the example's integration tests share.
#![allow(dead_code)]

use std::future::Future;
use std::path::PathBuf;

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

/// A loopback port nothing listens on.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
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
