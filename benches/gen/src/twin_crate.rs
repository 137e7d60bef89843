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

    /// The twin's main source and the dependencies its framework needs
    /// beside its own line ([`Framework::dependency`], the N-tool twins'):
    /// rmcp's HTTP service on hyper, or axum for a peer's router (pmcp's
    /// `#[mcp_server]` also names `schemars` in what it expands to).
    fn source(self) -> (&'static str, String) {
        const AXUM: &str = r#"axum = { version = "0.8", default-features = false, features = ["tokio", "http1"] }"#;
        let peer = |framework: Framework, extra: &str| {
            format!("{}\n{AXUM}\n{extra}", framework.dependency())
        };
        match self {
            NotesTwin::Rmcp => (
                include_str!("../../twin/twin.rs"),
                r#"rmcp = { version = "3.11", default-features = false, features = ["server", "macros", "transport-streamable-http-server"] }
hyper = { version = "1", features = ["server", "http1"] }
hyper-util = { version = "0.1", features = ["tokio"] }
"#
                .to_owned(),
            ),
            NotesTwin::Peer(framework @ Framework::TowerMcp) => {
                (include_str!("../../twin/tower_mcp.rs"), peer(framework, ""))
            }
            NotesTwin::Peer(framework @ Framework::TurboMcp) => {
                (include_str!("../../twin/turbomcp.rs"), peer(framework, ""))
            }
            NotesTwin::Peer(framework @ Framework::TurboMcp4) => {
                (include_str!("../../twin/turbomcp4.rs"), peer(framework, ""))
            }
            NotesTwin::Peer(framework @ Framework::Pmcp) => (
                include_str!("../../twin/pmcp.rs"),
                peer(
                    framework,
                    "schemars = { version = \"1\", default-features = false, features = [\"derive\", \"std\"] }\n",
                ),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::Server;

    #[test]
    fn a_notes_twin_builds_on_the_framework_version_its_n_tool_twins_use() {
        for framework in Framework::ALL {
            let manifest = |files: Vec<(String, String)>| {
                files
                    .into_iter()
                    .find(|(path, _)| path == "Cargo.toml")
                    .map(|(_, text)| text)
                    .unwrap_or_default()
            };
            let notes = manifest(NotesTwin::Peer(framework).files("/repo"));
            let n_tools = manifest(framework.files(Server { tools: 10 }));
            for text in [&notes, &n_tools] {
                assert!(
                    text.contains(framework.dependency()),
                    "{framework:?}: {text}"
                );
            }
            assert!(
                notes.contains(&format!("name = \"notes-twin-{}\"", framework.word())),
                "{notes}"
            );
        }
    }
}
