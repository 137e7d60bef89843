//! What `cargo build` writes, with real cargo: only a crate of the
//! developer's own has its committed manifest and docs written, they are
//! the same whichever features and profile built last (and `tooltable
//! check` agrees after each build), a crate built as somebody else's
//! dependency is never written to, and a file tooltable did not write is
//! never replaced.
//!
//! The crates are built in one target directory under the workspace's
//! `target/`, shared with the pipeline tests, so only the first run pays for
//! compiling their dependencies.

use crate::common;

use common::{TempDir, tooltable, workspace};
use std::path::{Path, PathBuf};
use std::process::Command;

/// A tooltable crate whose tools and schemas depend on a feature, on
/// `debug_assertions` and on `cfg(test)`.
fn gadgets(dir: &Path) {
    let root = workspace().display().to_string();
    let write = |relative: &str, content: &str| {
        let path = dir.join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
    };
    write(
        "Cargo.toml",
        &format!(
            r#"[package]
name = "gadgets"
version = "0.1.0"
edition = "2024"

[workspace]

[features]
default = []
extra = []

[dependencies]
tooltable = {{ path = "{root}", version = "0.1.0", default-features = false }}
serde = {{ version = "1", features = ["derive"] }}

[build-dependencies]
tooltable-codegen = {{ path = "{root}/codegen", version = "0.1.0", features = ["build"] }}
"#
        ),
    );
    write(
        "build.rs",
        "fn main() {\n    tooltable_codegen::build();\n}\n",
    );
    write(
        "src/lib.rs",
        r#"//! Gadgets.
mod tools;

/// The context.
pub struct Ctx;

tooltable::include_table!();

#[cfg(test)]
mod tests {
    /// Only the test build has it.
    #[tooltable::tool(tier = read)]
    pub fn gadgets_test_only() -> String {
        String::new()
    }

    #[test]
    fn the_test_build_has_its_own_tool() {
        assert!(crate::TOOLS.get("gadgets_test_only").is_some());
        assert!(crate::TOOLS.get("gadgets_ping").is_some());
    }
}
"#,
    );
    write(
        "src/tools.rs",
        r#"use serde::Deserialize;
use tooltable::tool;
use crate::Ctx;

/// What to ping.
#[derive(Deserialize)]
pub struct PingParams {
    /// Whom.
    pub who: String,
    /// How loudly (only with `extra`).
    #[cfg(feature = "extra")]
    pub volume: Option<u8>,
}

/// Ping.
#[tool(tier = read)]
pub fn gadgets_ping(_ctx: &Ctx, params: PingParams) -> String {
    params.who
}

/// Only with the `extra` feature.
#[cfg(feature = "extra")]
#[tool(tier = read)]
pub fn gadgets_extra(_ctx: &Ctx) -> String {
    String::new()
}

/// Only in debug builds.
#[cfg(debug_assertions)]
#[tool(tier = read)]
pub fn gadgets_debug(_ctx: &Ctx) -> String {
    String::new()
}
"#,
    );
    write(
        "src/main.rs",
        "fn main() {\n    println!(\"{}\", gadgets::TOOLS.len());\n}\n",
    );
    std::fs::copy(workspace().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
}

/// Runs cargo with `args` in `dir` as a developer's shell would (no `CI`,
/// no write override); whether it succeeded, and everything printed.
fn cargo(dir: &Path, args: &[&str], env: &[(&str, &Path)]) -> (bool, String) {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .args(args)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", workspace().join("target/pipeline"))
        // Debug info for the scratch crates' dependencies would be most of
        // the shared target directory.
        .env("CARGO_PROFILE_DEV_DEBUG", "false")
        .env_remove("CI")
        .env_remove("TOOLTABLE_WRITE")
        .env_remove("RUSTFLAGS")
        .env_remove("RUSTDOCFLAGS");
    for (name, value) in env {
        command.env(name, value);
    }
    let output = command.output().expect("cargo runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.success(), text)
}

fn read(path: PathBuf) -> Option<Vec<u8>> {
    std::fs::read(path).ok()
}

/// The manifest's tool names.
fn listed(dir: &Path) -> Vec<String> {
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("tools.json")).unwrap()).unwrap();
    manifest["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn the_committed_files_are_one_contract_whatever_the_features_and_profile_of_the_last_build() {
    let dir = TempDir::new("member");
    gadgets(dir.path());
    let (built, log) = cargo(dir.path(), &["build", "--offline"], &[]);
    assert!(built, "{log}");
    let manifest = read(dir.path().join("tools.json")).expect("the build wrote tools.json");
    let docs = read(dir.path().join("docs/tools.md")).expect("the build wrote the docs");
    assert_eq!(
        listed(dir.path()),
        ["gadgets_debug", "gadgets_ping"],
        "default features, the dev profile"
    );
    let check = tooltable(&["check", dir.path().to_str().unwrap()]);
    assert_eq!(check.code, 0, "{}{}", check.stdout, check.stderr);
    for args in [
        &["build", "--offline", "--all-features"][..],
        &["build", "--offline", "--features", "extra"],
        &["build", "--offline", "--release"],
        &["doc", "--offline", "--release", "--no-deps"],
        &["doc", "--offline", "--no-deps", "--all-features"],
        &["test", "--offline", "--lib"],
    ] {
        let (built, log) = cargo(dir.path(), args, &[]);
        assert!(built, "cargo {args:?}: {log}");
        assert_eq!(
            read(dir.path().join("tools.json")).as_deref(),
            Some(&manifest[..]),
            "tools.json after cargo {args:?}"
        );
        assert_eq!(
            read(dir.path().join("docs/tools.md")).as_deref(),
            Some(&docs[..]),
            "docs/tools.md after cargo {args:?}"
        );
        let check = tooltable(&["check", dir.path().to_str().unwrap()]);
        assert_eq!(
            check.code, 0,
            "check after cargo {args:?}: {}",
            check.stdout
        );
    }
    // Each build bakes its own table all the same.
    let (ran, out) = cargo(
        dir.path(),
        &["run", "--offline", "-q", "--all-features"],
        &[],
    );
    assert!(ran, "{out}");
    assert_eq!(
        out.lines().next(),
        Some("3"),
        "ping, debug and extra: {out}"
    );
    let (ran, out) = cargo(dir.path(), &["run", "--offline", "-q", "--release"], &[]);
    assert!(ran, "{out}");
    assert_eq!(out.lines().next(), Some("1"), "ping only: {out}");
    // Another configuration is checked when asked.
    let other = tooltable(&["check", "--features", "extra", dir.path().to_str().unwrap()]);
    assert_eq!(other.code, 1, "{}", other.stdout);
    assert!(other.stdout.contains("gadgets_extra"), "{}", other.stdout);
}

#[test]
fn cargo_install_from_the_path_leaves_the_files_as_they_are() {
    let dir = TempDir::new("install");
    gadgets(dir.path());
    let (built, log) = cargo(dir.path(), &["build", "--offline"], &[]);
    assert!(built, "{log}");
    let manifest = read(dir.path().join("tools.json")).unwrap();
    let root = TempDir::new("install-root");
    let root = root.path().to_str().unwrap();
    let (installed, log) = cargo(
        dir.path(),
        &[
            "install",
            "--offline",
            "--path",
            ".",
            "--features",
            "extra",
            "--root",
            root,
        ],
        &[],
    );
    assert!(installed, "{log}");
    assert_eq!(read(dir.path().join("tools.json")), Some(manifest));
}

#[test]
fn a_hand_written_docs_page_survives_the_first_build_which_fails_naming_it() {
    let dir = TempDir::new("own-docs");
    gadgets(dir.path());
    dir.write("docs/tools.md", "# Our tools\n\nWritten by hand.\n");
    let (built, log) = cargo(dir.path(), &["build", "--offline"], &[]);
    assert!(!built, "the build fails");
    assert!(
        log.contains("docs/tools.md:1:1: this file is not generated by tooltable (it has no `<!-- Generated by tooltable` line), so it was not overwritten and nothing in it was lost; set `docs = \"another/path\"` in [package.metadata.tooltable]"),
        "{log}"
    );
    assert_eq!(
        dir.read("docs/tools.md"),
        "# Our tools\n\nWritten by hand.\n"
    );
}

/// A consumer of `gadgets` with its `extra` feature, through `dependency`.
fn consumer(dir: &Path, dependency: &str) {
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[package]\nname = \"consumer\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n[workspace]\n\n[dependencies]\ngadgets = {{ {dependency}, features = [\"extra\"] }}\n"
        ),
    )
    .unwrap();
    std::fs::write(
        dir.join("src/main.rs"),
        "fn main() {\n    println!(\"{}\", gadgets::TOOLS.len());\n}\n",
    )
    .unwrap();
    std::fs::copy(workspace().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
}

/// A git repository holding `gadgets` with its generated files committed.
fn gadgets_repository(dir: &Path) -> PathBuf {
    let repo = dir.join("gadgets");
    gadgets(&repo);
    let (built, log) = cargo(&repo, &["build", "--offline"], &[]);
    assert!(built, "{log}");
    let git = |args: &[&str]| {
        let status = Command::new("git")
            .args(args)
            .current_dir(&repo)
            .env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@example.com")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@example.com")
            .status()
            .unwrap();
        assert!(status.success(), "git {args:?}");
    };
    git(&["init", "-q"]);
    git(&["add", "Cargo.toml", "build.rs", "src", "tools.json", "docs"]);
    git(&["commit", "-q", "-m", "gadgets"]);
    repo
}

/// A CARGO_HOME of the test's own, sharing the machine's registry cache so
/// that nothing is downloaded.
fn cargo_home(dir: &Path) -> PathBuf {
    let home = dir.join("cargo home");
    std::fs::create_dir_all(&home).unwrap();
    let registry = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))
        .unwrap()
        .join("registry");
    #[cfg(unix)]
    std::os::unix::fs::symlink(registry, home.join("registry")).unwrap();
    home
}

#[test]
fn a_git_dependency_under_a_custom_cargo_home_is_never_written_to() {
    let dir = TempDir::new("git-dep");
    let repo = gadgets_repository(dir.path());
    let home = cargo_home(dir.path());
    let app = dir.path().join("app");
    consumer(&app, &format!("git = \"file://{}\"", repo.display()));
    let (built, log) = cargo(&app, &["build"], &[("CARGO_HOME", &home)]);
    assert!(built, "{log}");
    let checkouts = home.join("git/checkouts");
    let checkout = std::fs::read_dir(&checkouts)
        .unwrap()
        .flat_map(|d| std::fs::read_dir(d.unwrap().path()).unwrap())
        .map(|d| d.unwrap().path())
        .next()
        .expect("a checkout");
    assert_eq!(
        read(checkout.join("tools.json")),
        read(repo.join("tools.json")),
        "the checkout's committed manifest is as committed"
    );
    let status = Command::new("git")
        .args(["status", "--porcelain", "--untracked-files=all"])
        .current_dir(&checkout)
        .output()
        .unwrap();
    // cargo marks a finished checkout with `.cargo-ok`; nothing else may appear.
    let changed: Vec<String> = String::from_utf8_lossy(&status.stdout)
        .lines()
        .filter(|line| *line != "?? .cargo-ok")
        .map(str::to_owned)
        .collect();
    assert!(changed.is_empty(), "nothing changed or added: {changed:?}");
}

#[test]
fn a_vendored_dependency_builds_twice_with_a_feature_that_adds_a_tool() {
    let dir = TempDir::new("vendored");
    let repo = gadgets_repository(dir.path());
    let home = cargo_home(dir.path());
    let app = dir.path().join("app");
    consumer(&app, &format!("git = \"file://{}\"", repo.display()));
    let vendor = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["vendor", "vendor"])
        .current_dir(&app)
        .env("CARGO_HOME", &home)
        .output()
        .unwrap();
    assert!(
        vendor.status.success(),
        "{}",
        String::from_utf8_lossy(&vendor.stderr)
    );
    // Only the git source is replaced by the vendored directory: the
    // registry's crates stay where they are, already compiled.
    let vendoring = String::from_utf8_lossy(&vendor.stderr).into_owned();
    for line in vendoring.lines().filter(|l| l.contains("/registry/src/")) {
        if let Some((_, to)) = line.rsplit_once(" to ") {
            std::fs::remove_dir_all(app.join(to.trim())).unwrap();
        }
    }
    let config = String::from_utf8(vendor.stdout).unwrap();
    let config = config
        .split("\n\n")
        .filter(|section| !section.contains("[source.crates-io]"))
        .collect::<Vec<_>>()
        .join("\n\n");
    assert!(
        config.contains("replace-with = \"vendored-sources\""),
        "{config}"
    );
    std::fs::create_dir_all(app.join(".cargo")).unwrap();
    std::fs::write(app.join(".cargo/config.toml"), config).unwrap();
    let vendored = app.join("vendor/gadgets/tools.json");
    let before = read(vendored.clone());
    for round in 1..=2 {
        let (built, log) = cargo(
            &app,
            &["build", "--offline", "-v"],
            &[("CARGO_HOME", &home)],
        );
        assert!(built, "build {round}: {log}");
        if round == 1 {
            assert!(
                log.contains("vendor/gadgets"),
                "built from the vendored copy: {log}"
            );
        }
    }
    assert_eq!(
        read(vendored),
        before,
        "the vendored manifest is as vendored"
    );
    assert!(
        before.is_some(),
        "the dependency was vendored with its committed manifest"
    );
}

#[test]
fn registry_and_packaged_sources_are_never_written_to() {
    for (name, markers) in [
        ("registry", &[".cargo-ok", "Cargo.toml.orig"][..]),
        ("packaged", &["Cargo.toml.orig"][..]),
    ] {
        let dir = TempDir::new(name);
        let source = dir
            .path()
            .join("home/registry/src/index.example-0123/gadgets-0.1.0");
        gadgets(&source);
        for marker in markers {
            std::fs::write(source.join(marker), "").unwrap();
        }
        let app = dir.path().join("app");
        consumer(&app, &format!("path = \"{}\"", source.display()));
        let (built, log) = cargo(&app, &["build", "--offline"], &[]);
        assert!(built, "{name}: {log}");
        assert!(
            !source.join("tools.json").exists(),
            "{name}: no manifest written"
        );
        assert!(!source.join("docs").exists(), "{name}: no docs written");
        assert!(
            log.contains("is out of date with the #[tool] handlers"),
            "{name}: {log}"
        );
    }
}
