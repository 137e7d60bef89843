//! `tooltable check` is the drift gate: clean on the example, exit 1 naming
//! the tool after each kind of edit, with a diff and the fixing command.

use crate::common;
use common::{
    cargo_tooltable, copy_of_example, example, example_without_lowerings, tooltable,
    tooltable_binary,
};

fn check(dir: &std::path::Path) -> common::Run {
    tooltable(&["check", dir.to_str().unwrap()])
}

#[test]
fn check_passes_on_the_committed_example() {
    let run = tooltable_binary(&["check", example().to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.starts_with("ok: "), "{}", run.stdout);
}

#[test]
fn cargo_tooltable_check_passes_on_the_example_and_fails_on_drift_as_tooltable_check_does() {
    let clean = cargo_tooltable(&["check", example().to_str().unwrap()]);
    assert_eq!(clean.code, 0, "{}{}", clean.stdout, clean.stderr);
    let dir = copy_of_example();
    dir.edit(
        "src/notes.rs",
        "/// Search notes by text.",
        "/// Find notes by text.",
    );
    let drifted = cargo_tooltable(&["check", dir.path().to_str().unwrap()]);
    let direct = tooltable_binary(&["check", dir.path().to_str().unwrap()]);
    assert_eq!(drifted.code, 1, "{}{}", drifted.stdout, drifted.stderr);
    assert_eq!(drifted.stdout, direct.stdout);
}

/// Applies `edit` to a copy of the example and expects drift naming `tools`.
fn drifts_naming(edit: impl Fn(&common::TempDir), tools: &[&str]) -> String {
    let dir = copy_of_example();
    edit(&dir);
    let run = check(dir.path());
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    for tool in tools {
        assert!(
            run.stdout.contains(&format!("  tool {tool}")),
            "the report names {tool}:\n{}",
            run.stdout
        );
    }
    assert!(run.stdout.contains(&format!(
        "fix: run `tooltable generate {}`",
        dir.path().display()
    )));
    assert!(run.stdout.contains("tools.json (committed)"));
    run.stdout
}

#[test]
fn a_reworded_doc_comment_is_drift_naming_the_tool() {
    let out = drifts_naming(
        |d| {
            d.edit(
                "src/notes.rs",
                "/// Search notes by text.",
                "/// Find notes by text.",
            )
        },
        &["notes_search"],
    );
    assert!(out.contains("notes_search (description reworded)"), "{out}");
    assert!(
        out.contains("-        \"description\": \"Search notes by text."),
        "{out}"
    );
}

#[test]
fn an_added_parameter_is_drift_naming_the_tool() {
    let out = drifts_naming(
        |d| {
            d.edit(
                "src/notes.rs",
                "pub struct GetParams {\n    /// The note's id.\n    pub id: i64,\n",
                "pub struct GetParams {\n    /// The note's id.\n    pub id: i64,\n    /// Include the history.\n    pub history: bool,\n",
            )
        },
        &["notes_get"],
    );
    assert!(
        out.contains("parameter `history` added as required"),
        "{out}"
    );
}

#[test]
fn a_changed_field_type_is_drift_naming_the_tool() {
    let out = drifts_naming(
        |d| {
            d.edit(
                "src/notes.rs",
                "pub struct DeleteParams {\n    /// The note's id.\n    pub id: i64,",
                "pub struct DeleteParams {\n    /// The note's id.\n    pub id: String,",
            )
        },
        &["notes_delete"],
    );
    assert!(
        out.contains("type of parameter `id` changed from integer to string"),
        "{out}"
    );
}

#[test]
fn a_changed_tier_is_drift_naming_the_tool() {
    let out = drifts_naming(
        |d| {
            d.edit(
                "src/notes.rs",
                "#[tool(tier = read, toolset = \"notes\", world = closed)]\npub fn notes_get",
                "#[tool(tier = write, toolset = \"notes\", world = closed)]\npub fn notes_get",
            )
        },
        &["notes_get"],
    );
    assert!(out.contains("tier raised from read to write"), "{out}");
}

#[test]
fn a_renamed_tool_is_drift_naming_both_names() {
    let out = drifts_naming(
        |d| {
            d.edit(
                "src/notes.rs",
                "pub fn notes_update(",
                "pub fn notes_amend(",
            )
        },
        &["notes_amend", "notes_update"],
    );
    assert!(out.contains("renamed from `notes_update`"), "{out}");
}

#[test]
fn a_changed_permission_is_drift_naming_the_tool() {
    let out = drifts_naming(
        |d| {
            d.edit(
                "src/notes.rs",
                "permission = \"notes.delete\"",
                "permission = \"notes.remove\"",
            )
        },
        &["notes_delete"],
    );
    assert!(
        out.contains("permission changed from `notes.delete` to `notes.remove`"),
        "{out}"
    );
}

#[test]
fn generate_fixes_drift_and_a_second_run_changes_nothing() {
    let dir = copy_of_example();
    dir.edit(
        "src/notes.rs",
        "/// Get a note by its id.",
        "/// Fetch a note by its id.",
    );
    let path = dir.path().to_str().unwrap();
    assert_eq!(check(dir.path()).code, 1);
    let run = tooltable(&["generate", path]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("wrote"), "{}", run.stdout);
    assert_eq!(check(dir.path()).code, 0);
    let again = tooltable(&["generate", path]);
    assert!(again.stdout.contains("is up to date") && !again.stdout.contains("wrote"));
}

#[test]
fn missing_docs_are_drift_too() {
    let dir = copy_of_example();
    std::fs::remove_file(dir.path().join("docs/tools.md")).unwrap();
    let run = check(dir.path());
    assert_eq!(run.code, 1);
    assert!(
        run.stdout.contains("docs/tools.md is missing"),
        "{}",
        run.stdout
    );
}

#[test]
fn check_reports_drift_as_json_and_as_github_annotations() {
    let dir = copy_of_example();
    dir.edit(
        "src/notes.rs",
        "/// Search notes by text.",
        "/// Find notes by text.",
    );
    let path = dir.path().to_str().unwrap();
    let json = tooltable(&["check", path, "--format", "json"]);
    assert_eq!(json.code, 1);
    let report: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(report["status"], "drift");
    assert_eq!(
        report["drifted"].as_array().unwrap().len(),
        3,
        "the manifest, the docs, and server.json, which carries the inventory"
    );
    assert_eq!(
        report["drifted"][1]["tools"],
        serde_json::json!(["notes_search"])
    );
    assert!(
        report["drifted"][2]["path"]
            .as_str()
            .unwrap()
            .ends_with("server.json")
    );
    assert_eq!(report["fix"], format!("tooltable generate {path}"));

    let github = tooltable(&["check", path, "--format", "github"]);
    assert_eq!(github.code, 1);
    let first = github.stdout.lines().next().unwrap();
    assert!(
        first.starts_with(&format!(
            "::error file={path}/tools.json,title=tooltable drift::"
        )),
        "{first}"
    );
    assert!(github.stdout.contains("::stop-commands::tooltable-diff"));
}

#[test]
fn another_configuration_is_checked_when_named_and_its_fix_names_it_too() {
    let dir = common::TempDir::new("configuration");
    dir.write(
        "Cargo.toml",
        "[package]\nname = \"demo\"\nversion = \"0.1.0\"\n\n[features]\nextra = []\n\n[package.metadata.tooltable]\n",
    );
    dir.write(
        "src/lib.rs",
        "/// Ping.\n#[tool(tier = read)]\npub fn ping() -> String { String::new() }\n\n/// Only with `extra`.\n#[cfg(feature = \"extra\")]\n#[tool(tier = read)]\npub fn extra() -> String { String::new() }\n",
    );
    let path = dir.path().to_str().unwrap();
    assert_eq!(tooltable(&["generate", path]).code, 0);
    assert_eq!(
        check(dir.path()).code,
        0,
        "the declared configuration is in step"
    );
    let run = tooltable(&["check", "--features", "extra", path]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(run.stdout.contains("tool extra"), "{}", run.stdout);
    assert!(
        run.stdout
            .contains(&format!("run `tooltable generate --features=extra {path}`")),
        "{}",
        run.stdout
    );
}

#[test]
fn clients_named_on_the_command_line_are_checked_and_annotated_for_github() {
    let dir = example_without_lowerings();
    let path = dir.path().to_str().unwrap().to_owned();
    let fits = tooltable(&["check", &path, "--clients", "claude-code,cursor"]);
    assert_eq!(fits.code, 0, "{}{}", fits.stdout, fits.stderr);
    assert!(fits.stdout.starts_with("ok: "), "{}", fits.stdout);

    let text = tooltable(&["check", &path, "--clients", "openai"]);
    assert_eq!(text.code, 1, "{}{}", text.stdout, text.stderr);
    let first = text.stdout.lines().next().unwrap();
    assert!(
        first.starts_with("error: ")
            && first.contains("src/notes.rs:")
            && first.contains(
                "tool `notes_stats` does not fit `openai`: the input schema has no `properties`"
            )
            && first.contains("(rule O4, at `/inputSchema`)"),
        "{first}"
    );

    let github = tooltable(&["check", &path, "--clients", "openai", "--format", "github"]);
    assert_eq!(github.code, 1);
    let annotation = github.stdout.lines().next().unwrap();
    assert!(
        annotation.starts_with("::error file=")
            && annotation.contains("src/notes.rs,line=")
            && annotation
                .contains(",title=tooltable client::tool `notes_stats` does not fit `openai`"),
        "{annotation}"
    );

    let json = tooltable(&["check", &path, "--clients", "openai", "--format", "json"]);
    let report: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(
        report["status"], "unfit",
        "the committed files match, and a tool breaks a rule"
    );
    assert_eq!(report["clients"][0]["level"], "error");
    assert_eq!(report["clients"][0]["profile"], "openai");
    assert_eq!(report["clients"][0]["tool"], "notes_stats");
    assert_eq!(report["clients"][0]["rule"], "O4");
    assert!(report["clients"][0]["line"].as_u64().unwrap() > 0);

    let unknown = tooltable(&["check", &path, "--clients", "claude"]);
    assert_eq!(unknown.code, 2, "{}", unknown.stderr);
    assert!(
        unknown
            .stderr
            .contains("`claude` is not a client profile; the profiles are `portable`"),
        "{}",
        unknown.stderr
    );
}

#[test]
fn a_manifest_file_is_checked_against_the_clients_at_each_tools_entry() {
    let dir = example_without_lowerings();
    let manifest = dir.path().join("tools.json");
    let path = manifest.to_str().unwrap();
    let text = tooltable(&["check", path, "--clients", "openai"]);
    assert_eq!(text.code, 1, "{}{}", text.stdout, text.stderr);
    let committed = std::fs::read_to_string(&manifest).unwrap();
    let entry = committed
        .lines()
        .position(|line| line.trim() == r#""name": "notes_stats","#)
        .unwrap();
    assert_eq!(
        text.stdout.lines().next().unwrap(),
        format!(
            "error: {path}:{}:7: tool `notes_stats` does not fit `openai`: the input schema has no `properties`, so the OpenAI API refuses every request that carries it (HTTP 400), until the server is removed (rule O4, at `/inputSchema`); a tool without parameters is served the schema the MCP specification recommends, `{{\"type\": \"object\", \"additionalProperties\": false}}`: take as parameters an empty struct that adds them, `#[schemars(extend(\"properties\" = {{}}))] struct Params {{}}`",
            entry + 1
        )
    );
    assert_eq!(
        text.stdout.lines().last().unwrap(),
        format!("unfit: 1 of the 8 tools of {path} do not fit `openai`")
    );

    let fits = tooltable(&["check", path, "--clients", "claude-code,cursor"]);
    assert_eq!(fits.code, 0, "{}{}", fits.stdout, fits.stderr);
    assert_eq!(
        fits.stdout,
        format!("ok: the 8 tools of {path} fit `claude-code`, `cursor`\n")
    );

    let json = tooltable(&["check", path, "--clients", "openai", "--format", "json"]);
    let report: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(report["status"], "unfit");
    assert_eq!(report["crate"], "notes-server");
    assert_eq!(report["clients"][0]["tool"], "notes_stats");
    assert_eq!(report["clients"][0]["line"], entry + 1);
}

#[test]
fn a_manifest_file_without_clients_or_with_a_crates_configuration_is_refused_saying_why() {
    let manifest = example().join("tools.json");
    let path = manifest.to_str().unwrap();
    let bare = tooltable(&["check", path]);
    assert_eq!(bare.code, 2);
    assert!(
        bare.stderr.contains(&format!(
            "{path} is a manifest file, with no #[tool] handlers to compare it with: give `--clients`"
        )),
        "{}",
        bare.stderr
    );
    let release = tooltable(&["check", path, "--clients", "portable", "--release"]);
    assert_eq!(release.code, 2);
    assert!(
        release
            .stderr
            .contains("is a manifest file, so leave them out"),
        "{}",
        release.stderr
    );
}

#[test]
fn the_examples_server_json_is_valid_against_the_registrys_schema() {
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(
            example().join("../../tests/data/mcp-registry/2025-12-11/server.schema.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let server: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(example().join("server.json")).unwrap())
            .unwrap();
    let validator = jsonschema::draft7::new(&schema).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(&server)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    assert_eq!(
        server["$schema"], schema["$id"],
        "server.json declares the schema it follows"
    );
    assert_eq!(server["packages"][0]["registryType"], "cargo");
}

#[test]
fn a_version_changed_in_cargo_toml_is_drift_of_server_json() {
    let dir = copy_of_example();
    dir.edit(
        "Cargo.toml",
        "version = \"0.1.0\"\n",
        "version = \"0.2.0\"\n",
    );
    let run = check(dir.path());
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("server.json is out of date"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("+  \"version\": \"0.2.0\","),
        "{}",
        run.stdout
    );
    let fixed = tooltable(&["generate", dir.path().to_str().unwrap()]);
    assert_eq!(fixed.code, 0, "{}{}", fixed.stdout, fixed.stderr);
    assert_eq!(check(dir.path()).code, 0);
}

#[test]
fn a_new_tool_changes_server_json_too() {
    let dir = copy_of_example();
    dir.edit(
        "src/notes.rs",
        "pub fn notes_update(",
        "pub fn notes_amend(",
    );
    let run = check(dir.path());
    assert!(
        run.stdout.contains("server.json is out of date"),
        "the inventory it carries changed: {}",
        run.stdout
    );
}

#[test]
fn a_readme_that_does_not_name_the_server_visibly_fails_check_saying_what_to_write() {
    let dir = copy_of_example();
    dir.edit(
        "README.md",
        "- MCP Registry name: `mcp-name: io.github.tooltable/notes-server`",
        "<!-- mcp-name: io.github.tooltable/notes-server -->",
    );
    let run = check(dir.path());
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains(
            "error: README.md names the server only inside an HTML comment, which crates.io does not show"
        ),
        "{}",
        run.stdout
    );
    dir.edit(
        "README.md",
        "<!-- mcp-name: io.github.tooltable/notes-server -->",
        "mcp-name: io.github.tooltable/notes-server.",
    );
    let run = tooltable(&["check", "--format", "json", dir.path().to_str().unwrap()]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(report["status"], "unpublishable");
    assert!(
        report["registry"][0]
            .as_str()
            .unwrap()
            .contains("does not say `mcp-name: io.github.tooltable/notes-server`"),
        "{report}"
    );
}

#[test]
fn a_registry_name_the_registry_refuses_is_an_error_at_its_key() {
    let dir = copy_of_example();
    dir.edit(
        "Cargo.toml",
        "name = \"io.github.tooltable/notes-server\"",
        "name = \"notes-server\"",
    );
    let run = check(dir.path());
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains(
            "registry `name` `notes-server` has no `/` between its namespace and its name"
        ),
        "{}",
        run.stderr
    );
}
