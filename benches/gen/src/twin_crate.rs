//! The twins of notes-server for the load tests: its read tools served by
//! rmcp (benches/load.sh) and by each other framework (benches/peers.sh).
//! Their sources are kept in benches/twin and copied into the generated
//! workspace, where they share the target directory and the lock file of
//! everything else measured.

use crate::peers::Framework;

/// The framework a notes twin is written on: rmcp, or one of the peers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotesTwin {
    /// rmcp's router and its streamable HTTP service (binary `notes-twin`).
    Rmcp,
    /// Another framework (binary `notes-twin-<word>`).
    Peer(Framework),
}

impl NotesTwin {
    /// Every notes twin, rmcp's first.
    pub fn all() -> impl Iterator<Item = NotesTwin> {
        std::iter::once(NotesTwin::Rmcp).chain(Framework::ALL.into_iter().map(NotesTwin::Peer))
    }

    /// The package name.
    pub fn package(self) -> String {
        match self {
            NotesTwin::Rmcp => "notes_twin".to_owned(),
            NotesTwin::Peer(framework) => {
                format!("notes_twin_{}", framework.word().replace('-', ""))
            }
        }
    }

    /// The binary's name, which the load scripts start.
    fn binary(self) -> String {
        match self {
            NotesTwin::Rmcp => "notes-twin".to_owned(),
            NotesTwin::Peer(framework) => format!("notes-twin-{}", framework.word()),
        }
    }

    /// The twin's main source and the dependencies its framework needs, at
    /// the versions and features the N-tool twins use (pmcp's
    /// `#[mcp_server]` names `schemars` in what it expands to).
    fn source(self) -> (&'static str, &'static str) {
        match self {
            NotesTwin::Rmcp => (
                include_str!("../../twin/twin.rs"),
                r#"rmcp = { version = "3.11", default-features = false, features = ["server", "macros", "transport-streamable-http-server"] }
hyper = { version = "1", features = ["server", "http1"] }
hyper-util = { version = "0.1", features = ["tokio"] }
"#,
            ),
            NotesTwin::Peer(Framework::TowerMcp) => (
                include_str!("../../twin/tower_mcp.rs"),
                r#"tower-mcp = { version = "0.25", features = ["http"] }
axum = { version = "0.8", default-features = false, features = ["http1", "tokio"] }
"#,
            ),
            NotesTwin::Peer(Framework::TurboMcp) => (
                include_str!("../../twin/turbomcp.rs"),
                r#"turbomcp = { version = "3.6", default-features = false, features = ["stdio", "http"] }
axum = { version = "0.8", default-features = false, features = ["tokio", "http1"] }
"#,
            ),
            NotesTwin::Peer(Framework::TurboMcp4) => (
                include_str!("../../twin/turbomcp4.rs"),
                r#"turbomcp = { version = "=4.0.0-alpha.5", default-features = false, features = ["http"] }
axum = { version = "0.8", default-features = false, features = ["tokio", "http1"] }
"#,
            ),
            NotesTwin::Peer(Framework::Pmcp) => (
                include_str!("../../twin/pmcp.rs"),
                r#"pmcp = { version = "2.23", default-features = false, features = ["macros", "streamable-http", "v1-compat"] }
schemars = { version = "1", default-features = false, features = ["derive", "std"] }
axum = { version = "0.8", default-features = false, features = ["tokio", "http1"] }
"#,
            ),
        }
    }

    /// Every file of the twin's crate, relative to its directory. `repo` is
    /// the tooltable checkout, whose examples/notes-server the twin serves.
    pub fn files(self, repo: &str) -> Vec<(String, String)> {
        let (main, dependencies) = self.source();
        let manifest = format!(
            r#"[package]
name = "{package}"
version = "0.1.0"
edition = "2024"
publish = false

[[bin]]
name = "{binary}"
path = "src/main.rs"

[dependencies]
notes-server = {{ path = "{repo}/examples/notes-server" }}
tooltable = {{ path = "{repo}" }}
serde = {{ version = "1", features = ["derive"] }}
serde_json = "1"
tokio = {{ version = "1", features = ["rt-multi-thread", "net"] }}
{dependencies}"#,
            package = self.package(),
            binary = self.binary(),
        );
        let mut files = vec![
            ("Cargo.toml".to_owned(), manifest),
            ("src/main.rs".to_owned(), main.to_owned()),
            (
                "src/cli.rs".to_owned(),
                include_str!("../../twin/cli.rs").to_owned(),
            ),
        ];
        match self {
            NotesTwin::Rmcp => files.push((
                "src/rmcp_http.rs".to_owned(),
                include_str!("../../harness/rmcp_http.rs").to_owned(),
            )),
            NotesTwin::Peer(Framework::TurboMcp | Framework::TurboMcp4) => files.push((
                "src/tools.rs".to_owned(),
                include_str!("../../twin/turbomcp_tools.rs").to_owned(),
            )),
            NotesTwin::Peer(Framework::TowerMcp | Framework::Pmcp) => {}
        }
        files
    }
}
