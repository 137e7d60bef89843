//! The whole pipeline on a crate written only from the README: real
//! `cargo build`s of a fresh crate that depends on this workspace by path.
//!
//! The crate is built in a target directory of its own under the
//! workspace's `target/`, shared between runs, so only the first run pays
//! for compiling its dependencies.

use serde_json::Value;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::process::Command;

const CARGO_TOML: &str = r#"[package]
name = "readme-demo"
version = "0.1.0"
edition = "2024"

[workspace]

[dependencies]
tooltable = { path = "WORKSPACE" }
serde = { version = "1", features = ["derive"] }

[build-dependencies]
tooltable-codegen = { path = "WORKSPACE/codegen" }
"#;

const LIB_RS: &str = r#"mod admin;
mod notes;

pub struct Store;

tooltable::include_table!();
"#;

const NOTES_RS: &str = r#"use serde::{Deserialize, Serialize};
use tooltable::{tool, ToolError};
use crate::Store;

#[derive(Deserialize)]
pub struct SearchParams {
    /// Text to find in titles and bodies.
    pub query: String,
    /// The most notes to return.
    pub limit: Option<u32>,
}

#[derive(Serialize)]
pub struct Found {
    /// Titles of the matching notes.
    pub titles: Vec<String>,
}

/// Search notes by text.
#[tool(tier = read, toolset = "notes", world = closed)]
pub fn notes_search(_store: &Store, params: SearchParams) -> Result<Found, ToolError> {
    Ok(Found { titles: vec![params.query] })
}

#[derive(Deserialize)]
pub struct NoteId {
    /// The note's id.
    pub id: u64,
}

/// Add a tag to a note.
#[tool(tier = write, idempotent, toolset = "notes")]
pub fn notes_tag(_store: &Store, params: NoteId) -> String {
    format!("tagged {}", params.id)
}
"#;

const ADMIN_RS: &str = r#"use tooltable::tool;
use crate::Store;

/// Delete every note for good.
#[tool(tier = destructive, confirm = "deletes every note", permission = "admin")]
pub fn admin_wipe(_store: &Store) -> String {
    "wiped".to_owned()
}
"#;

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fresh copy of the README crate in its own directory.
fn readme_crate(name: &str) -> PathBuf {
    let dir = workspace()
        .join("target")
        .join("pipeline-crates")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let root = workspace().display().to_string();
    std::fs::write(
        dir.join("Cargo.toml"),
        CARGO_TOML.replace("WORKSPACE", &root),
    )
    .unwrap();
    std::fs::write(
        dir.join("build.rs"),
        "fn main() {\n    tooltable_codegen::build();\n}\n",
    )
    .unwrap();
    std::fs::write(dir.join("src/lib.rs"), LIB_RS).unwrap();
    std::fs::write(dir.join("src/notes.rs"), NOTES_RS).unwrap();
    std::fs::write(dir.join("src/admin.rs"), ADMIN_RS).unwrap();
    std::fs::copy(workspace().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    dir
}

/// Runs `cargo build` on the crate; returns success and everything printed.
fn cargo_build(dir: &Path) -> (bool, String) {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = Command::new(cargo)
        .args(["build", "--offline", "--quiet"])
        .current_dir(dir)
        .env(
            "CARGO_TARGET_DIR",
            workspace().join("target").join("pipeline"),
        )
        .env("TOOLTABLE_WRITE", "always")
        // The scratch crate's dependencies need no debug info; it would be
        // most of the shared target directory.
        .env("CARGO_PROFILE_DEV_DEBUG", "false")
        .env_remove("RUSTFLAGS")
        .output()
        .expect("cargo runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.success(), text)
}

/// RFC 8785 canonical JSON, written here from the RFC rather than taken
/// from the runtime, so the recipe is checked independently. The
/// descriptors hold ASCII keys and integers only, which this covers.
fn canonical(value: &Value, out: &mut String) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => {
            assert!(
                n.is_i64() || n.is_u64(),
                "the README crate's descriptors hold integers only"
            );
            out.push_str(&n.to_string());
        }
        Value::String(s) => {
            out.push('"');
            for c in s.chars() {
                match c {
                    '"' => out.push_str("\\\""),
                    '\\' => out.push_str("\\\\"),
                    '\n' => out.push_str("\\n"),
                    '\r' => out.push_str("\\r"),
                    '\t' => out.push_str("\\t"),
                    '\u{8}' => out.push_str("\\b"),
                    '\u{c}' => out.push_str("\\f"),
                    c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
                    c => out.push(c),
                }
            }
            out.push('"');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                canonical(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort_by(|a, b| a.encode_utf16().cmp(b.encode_utf16()));
            out.push('{');
            for (i, key) in keys.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                canonical(&Value::String((*key).clone()), out);
                out.push(':');
                canonical(&map[*key], out);
            }
            out.push('}');
        }
    }
}

fn sha256_hex(domain: &[u8], body: &str) -> String {
    let mut hasher = Sha256::new();
    hasher.update(domain);
    hasher.update(body.as_bytes());
    let digest = hasher.finalize();
    format!(
        "sha256:{}",
        digest
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    )
}

#[test]
fn a_crate_written_from_the_readme_builds_and_its_manifest_can_be_recomputed() {
    let dir = readme_crate("clean");
    let (ok, output) = cargo_build(&dir);
    assert!(ok, "the README crate fails to build:\n{output}");

    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("tools.json")).unwrap()).unwrap();
    assert_eq!(manifest["format"], "tooltable-manifest/1");
    assert_eq!(manifest["crate"], "readme-demo");
    let tools = manifest["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["admin_wipe", "notes_search", "notes_tag"]);

    let hints = |tool: &Value| -> [bool; 4] {
        let a = &tool["descriptor"]["annotations"];
        [
            "readOnlyHint",
            "destructiveHint",
            "idempotentHint",
            "openWorldHint",
        ]
        .map(|k| a[k].as_bool().unwrap())
    };
    assert_eq!(hints(&tools[0]), [false, true, false, true], "destructive");
    assert_eq!(
        hints(&tools[1]),
        [true, false, true, false],
        "read, closed world"
    );
    assert_eq!(
        hints(&tools[2]),
        [false, false, true, true],
        "write, idempotent"
    );
    assert_eq!(tools[0]["source"], "src/admin.rs");
    assert_eq!(
        tools[0]["descriptor"]["inputSchema"]["properties"]["confirm"]["type"],
        "boolean"
    );

    let mut pairs = Vec::new();
    for tool in tools {
        let subject = serde_json::json!({"descriptor": tool["descriptor"], "permission": tool.get("permission").cloned().unwrap_or(Value::Null)});
        let mut text = String::new();
        canonical(&subject, &mut text);
        let fingerprint = sha256_hex(b"tooltable/fingerprint/v1\n", &text);
        assert_eq!(
            tool["fingerprint"].as_str().unwrap(),
            fingerprint,
            "{}",
            tool["name"]
        );
        pairs.push(Value::Array(vec![
            tool["name"].clone(),
            Value::String(fingerprint),
        ]));
    }
    let mut text = String::new();
    canonical(&Value::Array(pairs), &mut text);
    assert_eq!(
        manifest["inventory"].as_str().unwrap(),
        sha256_hex(b"tooltable/inventory/v1\n", &text)
    );
}

#[test]
fn renaming_a_tool_to_the_name_of_another_fails_the_build_with_both_locations() {
    let dir = readme_crate("duplicate");
    std::fs::write(
        dir.join("src/admin.rs"),
        ADMIN_RS.replace(
            "#[tool(tier = destructive,",
            "#[tool(name = \"notes_tag\", tier = destructive,",
        ),
    )
    .unwrap();
    let (ok, output) = cargo_build(&dir);
    assert!(!ok, "a duplicate name must fail the build");
    assert!(
        output.contains("src/admin.rs:5:15: tool name `notes_tag` is declared twice: here and at src/notes.rs:33:8"),
        "{output}"
    );
    assert!(
        output.contains("src/notes.rs:33:8: tool name `notes_tag` is declared twice: here and at src/admin.rs:5:15"),
        "{output}"
    );
}

#[test]
fn a_name_with_a_space_fails_the_build_at_the_attribute() {
    let dir = readme_crate("bad-name");
    std::fs::write(
        dir.join("src/admin.rs"),
        ADMIN_RS.replace(
            "#[tool(tier = destructive,",
            "#[tool(name = \"bad name\", tier = destructive,",
        ),
    )
    .unwrap();
    let (ok, output) = cargo_build(&dir);
    assert!(!ok);
    assert!(output.contains("src/admin.rs:5:15: tool name `bad name` contains ' ' at character 4, which the portable profile does not allow"), "{output}");
}

#[test]
fn a_tool_hidden_inside_a_macro_fails_the_build_instead_of_passing_silently() {
    let dir = readme_crate("hidden");
    let hidden = format!(
        "{ADMIN_RS}\nmacro_rules! quietly {{ ($($item:item)*) => {{ $($item)* }}; }}\nquietly! {{\n    /// Counts notes.\n    #[tool(tier = read)]\n    pub fn admin_count(_store: &Store) -> String {{ String::new() }}\n}}\n"
    );
    std::fs::write(dir.join("src/admin.rs"), hidden).unwrap();
    let (ok, output) = cargo_build(&dir);
    assert!(!ok, "an unseen tool must fail the build");
    assert!(
        output.contains("tooltable's build script did not see the #[tool] `admin_count`"),
        "{output}"
    );
    assert!(output.contains("inside another macro"), "{output}");
    assert!(
        output
            .contains("It read src/lib.rs (the root of the crate that invokes `include_table!()`"),
        "the sentence names the root the build read: {output}"
    );
}

#[test]
fn a_constraint_or_an_example_fails_the_build_at_the_tool_until_the_validate_feature_is_on() {
    let dir = readme_crate("validate");
    let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
    let manifest = manifest.replace(
        "serde = {",
        "schemars = { version = \"1\", default-features = false, features = [\"derive\", \"std\"] }\nserde = {",
    );
    std::fs::write(dir.join("Cargo.toml"), &manifest).unwrap();
    let notes = NOTES_RS
        .replace(
            "#[derive(Deserialize)]\npub struct SearchParams",
            "#[derive(Deserialize, schemars::JsonSchema)]\npub struct SearchParams",
        )
        .replace(
            "    /// The most notes to return.\n",
            "    /// The most notes to return.\n    #[schemars(range(max = 100))]\n",
        )
        // An extension is no constraint: no error is about it.
        .replace(
            "    /// Text to find in titles and bodies.\n",
            "    /// Text to find in titles and bodies.\n    #[schemars(extend(\"x-mcp-header\" = \"Query\"))]\n",
        )
        .replace(
            "#[tool(tier = read, toolset = \"notes\", world = closed)]",
            "#[tool(tier = read, toolset = \"notes\", world = closed, example = r#\"{\"query\": \"milk\"}\"#)]",
        );
    std::fs::write(dir.join("src/notes.rs"), notes).unwrap();
    let (ok, output) = cargo_build(&dir);
    assert!(!ok, "a constraint nothing would check must fail the build");
    assert!(
        output.contains("src/notes.rs:23:8: tool `notes_search` has `maximum` at `/properties/limit/maximum` (the field `limit`) in its input schema, a constraint its parameter type does not enforce"),
        "{output}"
    );
    assert!(!output.contains("x-mcp-header"), "{output}");
    assert!(
        output.contains("src/notes.rs:22:66: the example of tool `notes_search` is checked against its input schema at build time"),
        "{output}"
    );
    assert!(output.contains("features = [\"validate\"]"), "{output}");

    let root = workspace().display().to_string();
    std::fs::write(
        dir.join("Cargo.toml"),
        manifest.replace(
            &format!("tooltable = {{ path = \"{root}\" }}"),
            &format!("tooltable = {{ path = \"{root}\", features = [\"validate\"] }}"),
        ),
    )
    .unwrap();
    let (ok, output) = cargo_build(&dir);
    assert!(ok, "with the validator the same crate builds: {output}");
}

#[test]
fn a_table_baked_with_the_validator_does_not_compile_against_a_server_without_it() {
    let dir = readme_crate("validator-on-one-side");
    let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
    let root = workspace().display().to_string();
    // The build script's library with the validator, the server without:
    // only a manifest that bypasses the facade's feature can say this.
    let manifest = manifest
        .replace(
            "serde = {",
            "schemars = { version = \"1\", default-features = false, features = [\"derive\", \"std\"] }\nserde = {",
        )
        .replace(
            &format!("tooltable-codegen = {{ path = \"{root}/codegen\" }}"),
            &format!("tooltable-codegen = {{ path = \"{root}/codegen\", features = [\"validate\"] }}"),
        );
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    let notes = NOTES_RS
        .replace(
            "#[derive(Deserialize)]\npub struct SearchParams",
            "#[derive(Deserialize, schemars::JsonSchema)]\npub struct SearchParams",
        )
        .replace(
            "    /// The most notes to return.\n",
            "    /// The most notes to return.\n    #[schemars(range(max = 100))]\n",
        )
        // An extension is no constraint: no error is about it.
        .replace(
            "    /// Text to find in titles and bodies.\n",
            "    /// Text to find in titles and bodies.\n    #[schemars(extend(\"x-mcp-header\" = \"Query\"))]\n",
        );
    std::fs::write(dir.join("src/notes.rs"), notes).unwrap();
    let (ok, output) = cargo_build(&dir);
    assert!(!ok, "a constraint the server cannot check must not compile");
    assert!(
        output.contains(
            "checking values against a JSON Schema needs the `validate` feature of tooltable"
        ),
        "{output}"
    );
}

#[test]
fn a_docs_template_fails_the_build_saying_which_feature_renders_it_until_it_is_on() {
    let dir = readme_crate("docs-template");
    let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap()
        + "\n[package.metadata.tooltable]\ndocs_template = \"tools.md.j2\"\n";
    std::fs::write(dir.join("Cargo.toml"), &manifest).unwrap();
    std::fs::write(
        dir.join("tools.md.j2"),
        "# The tools of {{ crate_name }}\n\n{{ count }}\n",
    )
    .unwrap();
    let (ok, output) = cargo_build(&dir);
    assert!(!ok, "a template nothing can render must fail the build");
    assert!(
        output.contains("`docs_template` in [package.metadata.tooltable] names tools.md.j2, and a template of your own is rendered by a template engine that comes with the `docs-template` feature of tooltable"),
        "{output}"
    );

    let root = workspace().display().to_string();
    std::fs::write(
        dir.join("Cargo.toml"),
        manifest.replace(
            &format!("tooltable = {{ path = \"{root}\" }}"),
            &format!("tooltable = {{ path = \"{root}\", features = [\"docs-template\"] }}"),
        ),
    )
    .unwrap();
    let (ok, output) = cargo_build(&dir);
    assert!(ok, "with the feature the same crate builds: {output}");
    let docs = std::fs::read_to_string(dir.join("docs/tools.md")).unwrap();
    assert!(
        docs.contains("# The tools of readme-demo\n\n3 tools, about ")
            && docs.ends_with("of a model's context in all."),
        "{docs}"
    );
}

/// A workspace of two crates: `contracts` holds the types, `server` (which
/// inherits the dependency from `[workspace.dependencies]`) serves them.
fn contracts_workspace() -> PathBuf {
    let dir = workspace()
        .join("target")
        .join("pipeline-crates")
        .join("contracts-workspace");
    let _ = std::fs::remove_dir_all(&dir);
    let root = workspace().display().to_string();
    let files = [
        (
            "Cargo.toml",
            "[workspace]\nmembers = [\"contracts\", \"server\"]\nresolver = \"3\"\n\n\
             [workspace.dependencies]\ncontracts = { path = \"contracts\" }\n"
                .to_owned(),
        ),
        (
            "contracts/Cargo.toml",
            "[package]\nname = \"contracts\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n\
             [dependencies]\nserde = { version = \"1\", features = [\"derive\"] }\n"
                .to_owned(),
        ),
        (
            "contracts/src/lib.rs",
            "#[derive(serde::Deserialize)]\npub struct Query {\n    /// What to find.\n    pub text: String,\n}\n"
                .to_owned(),
        ),
        (
            "server/Cargo.toml",
            format!(
                "[package]\nname = \"server\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n\
                 [dependencies]\ntooltable = {{ path = \"{root}\" }}\ncontracts.workspace = true\n\n\
                 [build-dependencies]\ntooltable-codegen = {{ path = \"{root}/codegen\" }}\n"
            ),
        ),
        (
            "server/build.rs",
            "fn main() {\n    tooltable_codegen::build();\n}\n".to_owned(),
        ),
        (
            "server/src/lib.rs",
            "pub struct Store;\n\n/// Find things.\n#[tooltable::tool(tier = read)]\n\
             pub fn find(_store: &Store, query: contracts::Query) -> String {\n    query.text\n}\n\n\
             tooltable::include_table!();\n"
                .to_owned(),
        ),
    ];
    for (path, content) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
    }
    std::fs::copy(workspace().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    dir
}

/// The properties of the input schema of `find` in the server's manifest.
fn find_properties(dir: &Path) -> Value {
    let manifest: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("server").join("tools.json")).unwrap(),
    )
    .unwrap();
    manifest["tools"][0]["descriptor"]["inputSchema"]["properties"].clone()
}

#[test]
fn a_type_from_a_workspace_sibling_is_read_and_changing_it_reruns_the_build() {
    let dir = contracts_workspace();
    let (ok, output) = cargo_build(&dir);
    assert!(ok, "the workspace fails to build:\n{output}");
    let properties = find_properties(&dir);
    assert_eq!(
        properties["text"]["description"], "What to find.",
        "{properties}"
    );

    std::fs::write(
        dir.join("contracts/src/lib.rs"),
        "#[derive(serde::Deserialize)]\npub struct Query {\n    /// What to find.\n    pub text: String,\n    /// At most this many.\n    pub limit: u8,\n}\n",
    )
    .unwrap();
    let (ok, output) = cargo_build(&dir);
    assert!(
        ok,
        "the workspace fails to build after the change:\n{output}"
    );
    let properties = find_properties(&dir);
    assert_eq!(
        properties["limit"]["description"], "At most this many.",
        "the build script reran when the sibling's file changed: {properties}"
    );
}

#[test]
fn a_build_that_cannot_see_a_tool_keeps_the_committed_manifest_instead_of_dropping_it() {
    let dir = readme_crate("stray");
    let (ok, output) = cargo_build(&dir);
    assert!(ok, "{output}");
    let committed = std::fs::read_to_string(dir.join("tools.json")).unwrap();
    assert!(committed.contains("\"admin_wipe\""), "{committed}");
    // The admin tool moves to a binary, while the table stays in the library.
    std::fs::remove_file(dir.join("src/admin.rs")).unwrap();
    std::fs::write(
        dir.join("src/lib.rs"),
        "mod notes;\n\npub struct Store;\n\ntooltable::include_table!();\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("src/main.rs"),
        format!(
            "{}\nfn main() {{}}\n",
            ADMIN_RS.replace("use crate::Store;", "use readme_demo::Store;")
        ),
    )
    .unwrap();
    let (ok, output) = cargo_build(&dir);
    assert!(
        !ok,
        "the tool in the binary cannot be in the library's table"
    );
    // The compile error points at the tool in the binary. (The build
    // script's warning saying why is not printed by a quiet build.)
    assert!(output.contains("src/main.rs"), "{output}");
    assert_eq!(
        std::fs::read_to_string(dir.join("tools.json")).unwrap(),
        committed
    );
}
