//! Helpers shared by the command's tests: temporary crates and running the command.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The workspace root.
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// The example crate.
pub fn example() -> PathBuf {
    workspace().join("examples/notes-server")
}

/// A directory removed when dropped.
pub struct TempDir(pub PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "tooltable-cli-{tag}-{}-{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    pub fn write(&self, relative: &str, content: &str) {
        let path = self.0.join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
    }

    pub fn read(&self, relative: &str) -> String {
        std::fs::read_to_string(self.0.join(relative)).unwrap()
    }

    /// Replaces `from` (which must occur exactly once) with `to` in a file.
    pub fn edit(&self, relative: &str, from: &str, to: &str) {
        let text = self.read(relative);
        assert_eq!(
            text.matches(from).count(),
            1,
            "`{from}` must occur once in {relative}"
        );
        self.write(relative, &text.replace(from, to));
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// A copy of the example's Cargo.toml, sources, README, manifest, docs and
/// server.json. Out of the workspace, the copy's Cargo.toml says the
/// version and repository it inherited, so that server.json is the same.
pub fn copy_of_example() -> TempDir {
    let dir = TempDir::new("example");
    let from = example();
    for item in ["Cargo.toml", "tools.json", "server.json", "README.md"] {
        std::fs::copy(from.join(item), dir.0.join(item)).unwrap();
    }
    let workspace: toml::Table = std::fs::read_to_string(from.join("../../Cargo.toml"))
        .unwrap()
        .parse()
        .unwrap();
    for key in ["version", "repository"] {
        let value = workspace["workspace"]["package"][key].as_str().unwrap();
        dir.edit(
            "Cargo.toml",
            &format!("\n{key}.workspace = true\n"),
            &format!("\n{key} = \"{value}\"\n"),
        );
    }
    copy_dir(&from.join("src"), &dir.0.join("src"));
    copy_dir(&from.join("docs"), &dir.0.join("docs"));
    dir
}

/// A copy of the example without its `lowerings`, and its docs and
/// manifest regenerated: its schemas as schemars writes them, which some
/// clients refuse (notes_stats has no `properties`, optional fields are
/// type lists with `null`).
pub fn example_without_lowerings() -> TempDir {
    let dir = copy_of_example();
    dir.edit(
        "Cargo.toml",
        "lowerings = [\"empty-parameters\", \"optional-not-null\"]\n",
        "",
    );
    dir.edit("Cargo.toml", "clients = [\"portable\"]\n", "");
    let generated = tooltable(&["generate", dir.path().to_str().unwrap()]);
    assert_eq!(
        generated.code, 0,
        "{}{}",
        generated.stdout, generated.stderr
    );
    dir
}

/// What a run of the command printed, and how it exited.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs the command in-process.
pub fn tooltable(args: &[&str]) -> Run {
    let mut out = Vec::new();
    let mut err = Vec::new();
    let exit = tooltable_cli::run(
        std::iter::once("tooltable").chain(args.iter().copied()),
        false,
        &mut out,
        &mut err,
    );
    Run {
        code: exit as i32,
        stdout: String::from_utf8(out).unwrap(),
        stderr: String::from_utf8(err).unwrap(),
    }
}

/// Runs the built binary, as a user would.
pub fn tooltable_binary(args: &[&str]) -> Run {
    run_binary(env!("CARGO_BIN_EXE_tooltable"), args)
}

/// Runs the built `cargo-tooltable` binary as cargo runs a subcommand:
/// `cargo tooltable ARGS` runs `cargo-tooltable tooltable ARGS`.
pub fn cargo_tooltable(args: &[&str]) -> Run {
    let mut with_name = vec!["tooltable"];
    with_name.extend_from_slice(args);
    run_binary(env!("CARGO_BIN_EXE_cargo-tooltable"), &with_name)
}

fn run_binary(binary: &str, args: &[&str]) -> Run {
    let output = std::process::Command::new(binary)
        .args(args)
        .env_remove("NO_COLOR")
        .output()
        .unwrap();
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}
