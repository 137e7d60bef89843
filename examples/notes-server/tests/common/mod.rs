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
///
/// Drawn below the system's ephemeral range (32768 and up on Linux), from a
/// start of this process's own, each port once: a port the system handed
/// out and took back could be handed to another test's server, or to a
/// connection's own end, before the program binds it, and the test would
/// then talk to the wrong server.
pub fn free_port() -> u16 {
    use std::sync::atomic::{AtomicU32, Ordering};
    static NEXT: AtomicU32 = AtomicU32::new(0);
    const FIRST: u32 = 20_000;
    const SPAN: u32 = 12_000;
    loop {
        let offset = (std::process::id() + NEXT.fetch_add(1, Ordering::Relaxed)) % SPAN;
        let port = u16::try_from(FIRST + offset).expect("below 32 000");
        if std::net::TcpListener::bind(("127.0.0.1", port)).is_ok() {
            return port;
        }
    }
}

/// The port a server started with `--http 127.0.0.1:0` was given, read
/// from the line it logs to `log` once it listens: a port picked by the
/// test and freed before the server binds it can be taken by another test's
/// server in between.
pub fn listening_port(log: &Path, child: &mut Child) -> u16 {
    started(log, child).unwrap_or_else(|why| panic!("{why}"))
}

/// [`listening_port`], or why the server did not start: its log.
pub fn started(log: &Path, child: &mut Child) -> Result<u16, String> {
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
            return Ok(port);
        }
        if let Ok(Some(status)) = child.try_wait() {
            return Err(format!(
                "notes-server exited with {status} before listening:\n{text}"
            ));
        }
        if Instant::now() >= deadline {
            return Err(format!(
                "notes-server did not log its address within 20 s:\n{text}"
            ));
        }
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
