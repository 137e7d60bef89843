//! The rmcp twin of notes-server for the load test: its source is kept in
//! benches/twin and copied into the generated workspace, where it shares the
//! target directory and the lock file of everything else measured.

/// The twin's package name (its binary is `notes-twin`).
pub const PACKAGE: &str = "notes_twin";

/// Every file of the twin crate, relative to its directory. `repo` is the
/// tooltable checkout, whose examples/notes-server the twin serves.
pub fn files(repo: &str) -> Vec<(String, String)> {
    let manifest = format!(
        r#"[package]
name = "{PACKAGE}"
version = "0.1.0"
edition = "2024"
publish = false

[[bin]]
name = "notes-twin"
path = "src/main.rs"

[dependencies]
notes-server = {{ path = "{repo}/examples/notes-server" }}
tooltable = {{ path = "{repo}" }}
rmcp = {{ version = "3.11", default-features = false, features = ["server", "macros", "transport-streamable-http-server"] }}
serde = {{ version = "1", features = ["derive"] }}
serde_json = "1"
tokio = {{ version = "1", features = ["rt-multi-thread", "net"] }}
hyper = {{ version = "1", features = ["server", "http1"] }}
hyper-util = {{ version = "0.1", features = ["tokio"] }}
"#
    );
    vec![
        ("Cargo.toml".to_owned(), manifest),
        (
            "src/main.rs".to_owned(),
            include_str!("../../twin/twin.rs").to_owned(),
        ),
        (
            "src/rmcp_http.rs".to_owned(),
            include_str!("../../harness/rmcp_http.rs").to_owned(),
        ),
    ]
}
