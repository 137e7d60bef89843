//! The harness crates: the benchmark sources kept in benches/harness, plus
//! `crates.rs`, which names the generated crates of the sizes asked for.
//!
//! The same sources make two binaries. `harness` measures tooltable against
//! rmcp. `harness_peers` adds the twins on the other frameworks and runs
//! the suites that compare them all: every one of those frameworks turns on
//! serde_json's `preserve_order` feature, and cargo unifies a crate's
//! features over a whole build, so in their build every side (tooltable and
//! rmcp too) runs on that serde_json. Kept apart, the rmcp comparison keeps
//! the serde_json its users build with, and the peer comparison gives every
//! side the same one.
//!
//! The harness depends on every generated crate, so it cannot be a member of
//! the tooltable workspace (`cargo test --workspace` would build them all);
//! its sources live in benches/harness and are copied into the generated
//! workspace, where run.sh builds and runs it.

use crate::peers::Framework;
use crate::rmcp_crate::{self, Variant};
use crate::spec::{REGULAR_ARGUMENTS, REGULAR_TOOL, TRIVIAL_ARGUMENTS, TRIVIAL_TOOL};
use crate::tooltable_crate;
use std::fmt::Write as _;
use std::path::Path;

/// Which of the two harnesses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Harness {
    /// tooltable against rmcp.
    Rmcp,
    /// tooltable among every framework.
    Peers,
}

impl Harness {
    /// Both harnesses.
    pub const ALL: [Harness; 2] = [Harness::Rmcp, Harness::Peers];

    /// The package name (also its binary's).
    pub fn package(self) -> &'static str {
        match self {
            Harness::Rmcp => "harness",
            Harness::Peers => "harness_peers",
        }
    }

    /// The frameworks whose twins it links.
    fn frameworks(self) -> &'static [Framework] {
        match self {
            Harness::Rmcp => &[],
            Harness::Peers => &Framework::ALL,
        }
    }

    /// The frameworks whose twins with `n` tools it links.
    fn twins_at(self, n: usize) -> impl Iterator<Item = Framework> {
        self.frameworks()
            .iter()
            .copied()
            .filter(move |framework| framework.builds_at(n))
    }
}

/// The harness's sources, from benches/harness. Its entry point is kept as
/// `harness.rs` there: cargo would take a `benches/harness/main.rs` for a
/// bench target of the root package.
const SOURCES: [(&str, &str); 15] = [
    ("main.rs", include_str!("../../harness/harness.rs")),
    ("connect.rs", include_str!("../../harness/connect.rs")),
    ("dispatch.rs", include_str!("../../harness/dispatch.rs")),
    ("e2e.rs", include_str!("../../harness/e2e.rs")),
    (
        "equivalence.rs",
        include_str!("../../harness/equivalence.rs"),
    ),
    ("list.rs", include_str!("../../harness/list.rs")),
    ("lowering.rs", include_str!("../../harness/lowering.rs")),
    ("measure.rs", include_str!("../../harness/measure.rs")),
    ("peers.rs", include_str!("../../harness/peers.rs")),
    ("results.rs", include_str!("../../harness/results.rs")),
    ("rmcp_http.rs", include_str!("../../harness/rmcp_http.rs")),
    ("serve.rs", include_str!("../../harness/serve.rs")),
    ("served.rs", include_str!("../../harness/served.rs")),
    ("startup.rs", include_str!("../../harness/startup.rs")),
    ("suite.rs", include_str!("../../harness/suite.rs")),
];

/// Every file of a harness, relative to its directory. `crates_dir` is
/// where the generated crates are.
pub fn files(
    harness: Harness,
    sizes: &[usize],
    repo: &str,
    crates_dir: &Path,
) -> Vec<(String, String)> {
    let package = harness.package();
    let mut manifest = format!(
        r#"[package]
name = "{package}"
version = "0.1.0"
edition = "2024"
publish = false

[dependencies]
tooltable = {{ path = "{repo}", features = ["serve", "http", "testing"] }}
tooltable-codegen = {{ path = "{repo}/codegen", default-features = false, features = ["build"] }}
rmcp = {{ version = "3.11", default-features = false, features = ["server", "client", "macros", "transport-io", "transport-streamable-http-server"] }}
serde = "1"
serde_json = "1"
tokio = {{ version = "1", features = ["rt", "rt-multi-thread", "macros", "io-util", "io-std", "net", "sync", "time"] }}
hyper = {{ version = "1", features = ["server", "http1"] }}
hyper-util = {{ version = "0.1", features = ["tokio"] }}
http = "1"
http-body-util = "0.1"
bytes = "1"
libc = "0.2"
"#
    );
    for &n in sizes {
        let peers = harness.twins_at(n).map(|framework| framework.package(n));
        for package in [
            tooltable_crate::package(n),
            rmcp_crate::package(Variant::Stored, n),
            rmcp_crate::package(Variant::Rebuild, n),
        ]
        .into_iter()
        .chain(peers)
        {
            let _ = writeln!(manifest, "{package} = {{ path = \"../{package}\" }}");
        }
    }
    let mut files = vec![
        ("Cargo.toml".to_owned(), manifest),
        (
            "src/crates.rs".to_owned(),
            crates(harness, sizes, crates_dir),
        ),
    ];
    files.extend(
        SOURCES
            .iter()
            .map(|(name, text)| (format!("src/{name}"), (*text).to_owned())),
    );
    files
}

fn crates(harness: Harness, sizes: &[usize], crates_dir: &Path) -> String {
    let mut out = format!(
        r##"//! The generated crates, by size (written by tooltable-bench; do not edit).

use crate::peers::VisitPeers;
use crate::suite::{{Crates, Visit}};

/// The tool whose handler does almost nothing.
pub const TRIVIAL_TOOL: &str = "{TRIVIAL_TOOL}";

/// Small arguments for it.
pub const TRIVIAL_ARGUMENTS: &str = r#"{trivial}"#;

/// A tool with every kind of field.
pub const REGULAR_TOOL: &str = "{REGULAR_TOOL}";

/// Arguments for it that use every field.
pub const REGULAR_ARGUMENTS: &str = r#"{regular}"#;

/// Hands every size to `visit`, smallest first.
pub fn each(visit: &mut impl Visit) {{
"##,
        trivial = TRIVIAL_ARGUMENTS,
        regular = REGULAR_ARGUMENTS,
    );
    let mut sorted = sizes.to_vec();
    sorted.sort_unstable();
    for &n in &sorted {
        let tt = tooltable_crate::package(n);
        let stored = rmcp_crate::package(Variant::Stored, n);
        let rebuild = rmcp_crate::package(Variant::Rebuild, n);
        let dir = crates_dir.join(&tt);
        let _ = write!(
            out,
            r#"    visit.visit(&Crates {{
        n: {n},
        table: &{tt}::TOOLS,
        context: {tt}::Ctx::default,
        dir: {dir:?},
        stored: {stored}::Server::new,
        stored_router: {stored}::Server::tool_router,
        rebuild: {rebuild}::Server::new,
        rebuild_router: {rebuild}::Server::tool_router,
    }});
"#,
            dir = dir.display().to_string(),
        );
    }
    out.push_str(
        "}\n\n/// A framework a twin is written on (rmcp has twins of its own, and is\n/// measured through them).\n#[derive(Clone, Copy, Debug, PartialEq, Eq)]\npub enum Framework {\n",
    );
    for framework in Framework::ALL {
        let _ = writeln!(out, "    {},", framework.variant());
    }
    let _ = write!(
        out,
        "}}\n\nimpl Framework {{\n    /// Every framework a twin is written on.\n    pub const ALL: [Framework; {}] = [{}];\n\n    /// The word in metric names and on `harness serve`'s command line.\n    pub fn word(self) -> &'static str {{\n        match self {{\n",
        Framework::ALL.len(),
        Framework::ALL
            .iter()
            .map(|f| format!("Framework::{}", f.variant()))
            .collect::<Vec<_>>()
            .join(", ")
    );
    for framework in Framework::ALL {
        let _ = writeln!(
            out,
            "            Framework::{} => {:?},",
            framework.variant(),
            framework.word()
        );
    }
    out.push_str("        }\n    }\n");
    let frameworks = harness.frameworks();
    let _ = write!(
        out,
        "}}\n\n/// The frameworks whose twins this harness links.\npub const PEERS: &[Framework] = &[{}];\n\n",
        frameworks
            .iter()
            .map(|f| format!("Framework::{}", f.variant()))
            .collect::<Vec<_>>()
            .join(", ")
    );
    if frameworks.is_empty() {
        out.push_str("/// Hands each framework's twin with `n` tools to `visit`.\npub fn each_peer(_n: usize, _visit: &mut impl VisitPeers) {}\n\n/// The frameworks with a twin of `n` tools.\npub fn peers_at(_n: usize) -> &'static [Framework] {\n    &[]\n}\n");
        return out;
    }
    out.push_str("/// The frameworks with a twin of `n` tools.\npub fn peers_at(n: usize) -> &'static [Framework] {\n    match n {\n");
    for &n in &sorted {
        let twins = harness
            .twins_at(n)
            .map(|f| format!("Framework::{}", f.variant()))
            .collect::<Vec<_>>()
            .join(", ");
        let _ = writeln!(out, "        {n} => &[{twins}],");
    }
    out.push_str("        _ => &[],\n    }\n}\n\n");
    out.push_str("/// Hands each framework's twin with `n` tools to `visit`.\npub fn each_peer(n: usize, visit: &mut impl VisitPeers) {\n    match n {\n");
    for &n in &sorted {
        let _ = writeln!(out, "        {n} => {{");
        for framework in harness.twins_at(n) {
            let _ = writeln!(
                out,
                "            visit.peer::<{}::Peer>(Framework::{});",
                framework.package(n),
                framework.variant()
            );
        }
        out.push_str("        }\n");
    }
    out.push_str("        _ => {}\n    }\n}\n");
    for &n in &sorted {
        for framework in harness.twins_at(n) {
            let _ = write!(
                out,
                r#"
impl crate::peers::PeerServer for {twin}::Peer {{
    type Output = {twin}::CallOutput;
    fn make() -> Self {{
        {twin}::Peer::new()
    }}
    async fn list(&self) -> String {{
        {twin}::Peer::list(self).await
    }}
    async fn call(
        &self,
        name: &str,
        arguments: serde_json::Map<String, serde_json::Value>,
    ) -> Result<Self::Output, String> {{
        {twin}::Peer::call(self, name, arguments).await
    }}
    async fn serve_stdio() {{
        {twin}::serve_stdio().await
    }}
    async fn serve_http(listener: std::net::TcpListener) {{
        {twin}::serve_http(listener).await
    }}
}}
"#,
                twin = framework.package(n)
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_twin_its_framework_cannot_build_at_a_size_is_neither_a_dependency_nor_visited() {
        let files = files(Harness::Peers, &[10, 1000], "/repo", Path::new("/crates"));
        let text = |name: &str| {
            files
                .iter()
                .find(|(path, _)| path == name)
                .map(|(_, content)| content.as_str())
                .unwrap_or_else(|| panic!("no {name}"))
        };
        let (manifest, crates) = (text("Cargo.toml"), text("src/crates.rs"));
        assert!(manifest.contains("turbomcp_n10 = "), "{manifest}");
        assert!(!manifest.contains("turbomcp_n1000"), "{manifest}");
        assert!(manifest.contains("pmcp_n1000 = "), "{manifest}");
        assert!(!crates.contains("turbomcp_n1000"), "{crates}");
        assert!(
            crates.contains("1000 => &[Framework::TowerMcp, Framework::Pmcp],"),
            "{crates}"
        );
    }
}
