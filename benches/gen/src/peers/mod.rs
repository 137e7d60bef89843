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
use turbomcp::Line;

/// A framework a twin is written on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Framework {
    /// tower-mcp: tower-native.
    TowerMcp,
    /// turbomcp 3.6, its stable line.
    TurboMcp,
    /// turbomcp 4.0.0-alpha.5, the rewrite.
    TurboMcp4,
    /// pmcp.
    Pmcp,
}

impl Framework {
    /// Every framework, in the order the harness measures them.
    pub const ALL: [Framework; 4] = [
        Framework::TowerMcp,
        Framework::TurboMcp,
        Framework::TurboMcp4,
        Framework::Pmcp,
    ];

    /// Whether a twin with `n` tools is generated: turbomcp's stop at
    /// N = 100. 3.6's `#[server]` macro expands the one impl block that
    /// holds every tool, and at N = 1000 the release build of that crate
    /// alone took rustc past 22 GB of memory in fourteen minutes, until the
    /// kernel killed it on a 24 GB machine; 4.0's macro takes the same one
    /// block, and was not tried there. The report shows `n/a`.
    pub fn builds_at(self, n: usize) -> bool {
        match self {
            Framework::TurboMcp | Framework::TurboMcp4 => n <= 100,
            Framework::TowerMcp | Framework::Pmcp => true,
        }
    }

    /// The twin's package name for `n` tools.
    pub fn package(self, n: usize) -> String {
        match self {
            Framework::TowerMcp => towermcp::package(n),
            Framework::TurboMcp => turbomcp::package(Line::V3, n),
            Framework::TurboMcp4 => turbomcp::package(Line::V4, n),
            Framework::Pmcp => pmcp::package(n),
        }
    }

    /// The framework's line of a twin's manifest: the version and features
    /// every twin on it, N-tool and notes-server's alike, is built with.
    pub fn dependency(self) -> &'static str {
        match self {
            Framework::TowerMcp => towermcp::DEPENDENCY,
            Framework::TurboMcp => Line::V3.dependency(),
            Framework::TurboMcp4 => Line::V4.dependency(),
            Framework::Pmcp => pmcp::DEPENDENCY,
        }
    }

    /// The word in metric names, on `harness serve`'s command line and in
    /// the report's columns.
    pub fn word(self) -> &'static str {
        match self {
            Framework::TowerMcp => "tower-mcp",
            Framework::TurboMcp => "turbomcp",
            Framework::TurboMcp4 => "turbomcp-4",
            Framework::Pmcp => "pmcp",
        }
    }

    /// The variant's name in the harness's `Framework`, which `crates.rs`
    /// declares from this one.
    pub fn variant(self) -> &'static str {
        match self {
            Framework::TowerMcp => "TowerMcp",
            Framework::TurboMcp => "TurboMcp",
            Framework::TurboMcp4 => "TurboMcp4",
            Framework::Pmcp => "Pmcp",
        }
    }

    /// Every file of the twin, relative to its directory.
    pub fn files(self, server: Server) -> Vec<(String, String)> {
        match self {
            Framework::TowerMcp => towermcp::files(server),
            Framework::TurboMcp => turbomcp::files(Line::V3, server),
            Framework::TurboMcp4 => turbomcp::files(Line::V4, server),
            Framework::Pmcp => pmcp::files(server),
        }
    }
}
