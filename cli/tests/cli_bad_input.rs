//! Bad input never panics the command: each kind exits 2 with the path and
//! what was wrong (a JSON pointer for manifests).

use crate::common;
use common::{TempDir, example, tooltable_binary};

fn manifest_text() -> String {
    std::fs::read_to_string(example().join("tools.json")).unwrap()
}

/// Runs the binary and checks it failed cleanly with exit code 2.
fn fails(args: &[&str]) -> String {
    let run = tooltable_binary(args);
    assert_eq!(run.code, 2, "{args:?}: {}{}", run.stdout, run.stderr);
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    assert!(run.stderr.starts_with("error: "), "{}", run.stderr);
    run.stderr
}

fn with_manifest(text: &str) -> (TempDir, String) {
    let dir = TempDir::new("bad-manifest");
    dir.write("tools.json", text);
    let path = dir.path().join("tools.json").to_str().unwrap().to_owned();
    (dir, path)
}

#[test]
fn a_manifest_that_is_not_json_is_refused_with_its_path() {
    let (_dir, path) = with_manifest("{ not json");
    let good = example().join("tools.json");
    let err = fails(&["diff", &path, good.to_str().unwrap()]);
    assert!(
        err.contains(&format!("{path}: the manifest is not JSON")),
        "{err}"
    );
    let err = fails(&["list", &path]);
    assert!(err.contains("the manifest is not JSON"), "{err}");
}

#[test]
fn a_manifest_of_the_wrong_format_is_refused_at_its_pointer() {
    let (_dir, path) =
        with_manifest(&manifest_text().replace("tooltable-manifest/1", "tooltable-manifest/0"));
    let err = fails(&["export", "--format", "mcp", &path]);
    assert!(
        err.contains(&format!("{path}: /format is `tooltable-manifest/0`")),
        "{err}"
    );
}

#[test]
fn a_manifest_missing_a_key_is_refused_at_its_pointer() {
    let (_dir, path) = with_manifest(&manifest_text().replacen("\"tier\"", "\"level\"", 1));
    let err = fails(&["diff", &path, &path]);
    assert!(
        err.contains(&format!("{path}: /tools/0 misses the key `tier`")),
        "{err}"
    );
}

#[test]
fn a_manifest_that_does_not_exist_is_refused() {
    let err = fails(&["diff", "no-such-file.json", "other.json"]);
    assert!(err.contains("no-such-file.json does not exist"), "{err}");
}

#[test]
fn a_directory_without_cargo_toml_is_refused() {
    let dir = TempDir::new("empty");
    let err = fails(&["check", dir.path().to_str().unwrap()]);
    assert!(err.contains("Cargo.toml cannot be read"), "{err}");
    let err = fails(&["generate", dir.path().join("missing").to_str().unwrap()]);
    assert!(err.contains("is not a directory"), "{err}");
}

#[test]
fn a_crate_without_tooltable_metadata_is_refused() {
    let dir = TempDir::new("plain");
    dir.write(
        "Cargo.toml",
        "[package]\nname = \"plain\"\nversion = \"0.1.0\"\n",
    );
    dir.write("src/lib.rs", "");
    let err = fails(&["check", dir.path().to_str().unwrap()]);
    assert!(err.contains("is not a tooltable crate"), "{err}");
    assert!(err.contains("add `[package.metadata.tooltable]`"), "{err}");
}

#[test]
fn a_cargo_toml_that_is_not_toml_is_refused() {
    let dir = TempDir::new("badtoml");
    dir.write("Cargo.toml", "[package\n");
    let err = fails(&["list", dir.path().to_str().unwrap()]);
    assert!(err.contains("Cargo.toml is not valid TOML"), "{err}");
}

#[test]
fn a_source_that_fails_to_parse_is_refused_with_its_location() {
    let dir = TempDir::new("unparsable");
    dir.write(
        "Cargo.toml",
        "[package]\nname = \"u\"\nversion = \"0.1.0\"\n[package.metadata.tooltable]\n",
    );
    dir.write("src/lib.rs", "mod tools;\n");
    dir.write(
        "src/tools.rs",
        "/// Go.\n#[tool(tier = read)]\npub fn go( -> String {}\n",
    );
    let err = fails(&["check", dir.path().to_str().unwrap()]);
    assert!(err.contains("would fail its build too"), "{err}");
    assert!(err.contains("src/tools.rs:3:"), "{err}");
}

#[test]
fn a_declaration_mistake_is_an_input_error() {
    let dir = TempDir::new("mistake");
    dir.write(
        "Cargo.toml",
        "[package]\nname = \"m\"\nversion = \"0.1.0\"\n[package.metadata.tooltable]\n",
    );
    dir.write(
        "src/lib.rs",
        "/// Go.\n#[tool(tier = read, confirm)]\npub fn go() -> String { String::new() }\n",
    );
    let err = fails(&["export", "--format", "mcp", dir.path().to_str().unwrap()]);
    assert!(err.contains("src/lib.rs:2:"), "{err}");
}

#[test]
fn unknown_arguments_are_usage_errors_and_help_succeeds() {
    let run = tooltable_binary(&["frobnicate"]);
    assert_eq!(run.code, 2);
    let run = tooltable_binary(&["check", "--format", "xml"]);
    assert_eq!(run.code, 2);
    let help = tooltable_binary(&["--help"]);
    assert_eq!(help.code, 0);
    assert!(
        help.stdout.contains("Exit codes: 0 success, 1 a finding"),
        "{}",
        help.stdout
    );
}

#[test]
fn list_prints_a_plain_table_when_piped() {
    let run = tooltable_binary(&["list", example().to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!run.stdout.contains('\x1b'), "no colour when piped");
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert!(
        lines[0].starts_with("NAME          TIER         HINTS  PERMISSION    TOKENS  SUMMARY"),
        "{}",
        run.stdout
    );
    let tokens = lines[2]
        .strip_prefix("notes_delete  destructive  DE     notes.delete  ")
        .and_then(|rest| rest.strip_suffix("Delete a note for good."))
        .unwrap_or_else(|| panic!("{}", run.stdout));
    assert!(
        tokens.trim().parse::<u64>().is_ok_and(|t| t > 0),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("8 tools in notes-server, about ")
            && run.stdout.contains("of a model's context"),
        "{}",
        run.stdout
    );
}
