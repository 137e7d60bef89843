//! The twins on the other Rust MCP frameworks: the same tools as the
//! tooltable and rmcp crates (see [`crate::spec`]), each written as its
//! framework's own documentation writes a server, so that docs/benchmarks.md
//! can say where tooltable stands among every framework authors pick, not
//! only against rmcp.
//!
//! Every twin exposes the same few items, which the harness calls through
//! its `PeerServer` trait: `Peer::new`, `Peer::list` (the listing as JSON
//! text, answered in process), `Peer::call` (a call answered in process, as
//! the framework's own result value), `CallOutput`, `serve_stdio` and
//! `serve_http`, on the framework's own transports.

mod pmcp;
mod towermcp;
mod turbomcp;

use crate::spec::Server;

/// A framework a twin is written on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Framework {
    /// tower-mcp: tower-native.
    TowerMcp,
    /// turbomcp.
    TurboMcp,
    /// pmcp.
    Pmcp,
}

impl Framework {
    /// Every framework, in the order the harness measures them.
    pub const ALL: [Framework; 3] = [Framework::TowerMcp, Framework::TurboMcp, Framework::Pmcp];

    /// Whether a twin with `n` tools is generated: turbomcp's stops at
    /// N = 100. Its `#[server]` macro expands the one impl block that holds
    /// every tool, and at N = 1000 the release build of that crate alone
    /// took rustc past 22 GB of memory in fourteen minutes, until the
    /// kernel killed it on a 24 GB machine; the report shows `n/a` there.
    pub fn builds_at(self, n: usize) -> bool {
        match self {
            Framework::TurboMcp => n <= 100,
            Framework::TowerMcp | Framework::Pmcp => true,
        }
    }

    /// The twin's package name for `n` tools.
    pub fn package(self, n: usize) -> String {
        match self {
            Framework::TowerMcp => towermcp::package(n),
            Framework::TurboMcp => turbomcp::package(n),
            Framework::Pmcp => pmcp::package(n),
        }
    }

    /// The word in metric names, on `harness serve`'s command line and in
    /// the report's columns.
    pub fn word(self) -> &'static str {
        match self {
            Framework::TowerMcp => "tower-mcp",
            Framework::TurboMcp => "turbomcp",
            Framework::Pmcp => "pmcp",
        }
    }

    /// The variant's name in the harness's `Framework`, which `crates.rs`
    /// declares from this one.
    pub fn variant(self) -> &'static str {
        match self {
            Framework::TowerMcp => "TowerMcp",
            Framework::TurboMcp => "TurboMcp",
            Framework::Pmcp => "Pmcp",
        }
    }

    /// Every file of the twin, relative to its directory.
    pub fn files(self, server: Server) -> Vec<(String, String)> {
        match self {
            Framework::TowerMcp => towermcp::files(server),
            Framework::TurboMcp => turbomcp::files(server),
            Framework::Pmcp => pmcp::files(server),
        }
    }
}
