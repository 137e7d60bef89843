//! What the command is pointed at: a crate's directory, a manifest file, or
//! a manifest at a git revision.
//!
//! Every way this can go wrong (no Cargo.toml, not a tooltable crate, a
//! source that does not parse, a manifest that is not JSON or misses a key,
//! a git revision that does not exist) becomes a [`Failure`] naming the
//! path and the problem, never a panic.

use crate::Failure;
use std::io::Write;
use std::path::Path;
use tooltable_codegen::analysis::{Analysis, Diagnostic, analyze, host_cfg};
use tooltable_codegen::committed::Requested;
use tooltable_rules::wire::manifest::Manifest;

/// A diagnostic as `path:line:column: message`, the path under `dir`.
pub(crate) fn located(dir: &Path, diagnostic: &Diagnostic) -> String {
    match &diagnostic.location {
        Some(location) => format!(
            "{}:{}:{}: {}",
            dir.join(&location.file).display(),
            location.line,
            location.column,
            diagnostic.message
        ),
        None => format!(
            "{}: {}",
            dir.join("Cargo.toml").display(),
            diagnostic.message
        ),
    }
}

/// Reads the crate in `dir` as its build script reads it for the committed
/// files (host cfgs; the features and profile the crate declares for them),
/// or in the configuration `requested`. Warnings go to `err`; errors fail
/// the run.
pub fn analyze_crate(
    dir: &Path,
    requested: Option<&Requested>,
    err: &mut dyn Write,
) -> Result<Analysis, Failure> {
    let cargo_toml = dir.join("Cargo.toml");
    if !dir.is_dir() {
        return Err(Failure(format!(
            "{} is not a directory; give the directory of a crate (the one holding Cargo.toml)",
            dir.display()
        )));
    }
    let text = std::fs::read_to_string(&cargo_toml).map_err(|e| {
        Failure(format!(
            "{} cannot be read ({e}); give the directory of a crate (the one holding Cargo.toml)",
            cargo_toml.display()
        ))
    })?;
    let manifest: toml::Table = text
        .parse()
        .map_err(|e| Failure(format!("{} is not valid TOML: {e}", cargo_toml.display())))?;
    let has_metadata = manifest
        .get("package")
        .and_then(|p| p.get("metadata"))
        .and_then(|m| m.get("tooltable"))
        .is_some();
    let builds_with_codegen = manifest
        .get("build-dependencies")
        .and_then(toml::Value::as_table)
        .is_some_and(|deps| deps.contains_key("tooltable-codegen"));
    if !has_metadata && !builds_with_codegen {
        return Err(Failure(format!(
            "{} has neither a [package.metadata.tooltable] table nor a build-dependency on tooltable-codegen, so it is not a tooltable crate; add `[package.metadata.tooltable]` (it may be empty) to declare it one",
            cargo_toml.display()
        )));
    }
    let unreadable = |diagnostics: Vec<Diagnostic>| {
        Failure(
            diagnostics
                .iter()
                .map(|d| located(dir, d))
                .collect::<Vec<_>>()
                .join("\nerror: "),
        )
    };
    let cfg = host_cfg(dir, requested).map_err(unreadable)?;
    let analysis = analyze(dir, &cfg).map_err(unreadable)?;
    for warning in analysis.diagnostics().iter().filter(|d| !d.is_error()) {
        let _ = writeln!(err, "warning: {}", located(dir, warning));
    }
    if analysis.has_errors() {
        let errors: Vec<String> = analysis
            .diagnostics()
            .iter()
            .filter(|d| d.is_error())
            .map(|d| located(dir, d))
            .collect();
        return Err(Failure(format!(
            "the crate in {} has {} problem{} that would fail its build too; fix {}:\n  {}",
            dir.display(),
            errors.len(),
            if errors.len() == 1 { "" } else { "s" },
            if errors.len() == 1 { "it" } else { "them" },
            errors.join("\n  ")
        )));
    }
    Ok(analysis)
}

/// Reads a manifest from a file, or from git when `spec` is `REV:PATH` and
/// no such file exists.
pub fn load_manifest(spec: &str) -> Result<Manifest, Failure> {
    let path = Path::new(spec);
    let text = if path.exists() {
        std::fs::read_to_string(path).map_err(|e| Failure(format!("{spec} cannot be read: {e}")))?
    } else if let Some((rev, file)) = spec.split_once(':') {
        git_show(rev, file, spec)?
    } else {
        return Err(Failure(format!(
            "{spec} does not exist; give a manifest file, or a git revision and path such as `main:tools.json`"
        )));
    };
    Manifest::parse(&text).map_err(|e| Failure(format!("{spec}: {e}")))
}

fn git_show(rev: &str, file: &str, spec: &str) -> Result<String, Failure> {
    // `git show REV:./PATH` resolves PATH from the current directory, as a
    // user typing a path expects.
    let object = if file.starts_with("./") || file.starts_with('/') {
        format!("{rev}:{file}")
    } else {
        format!("{rev}:./{file}")
    };
    let output = std::process::Command::new("git")
        .args(["show", &object])
        .output()
        .map_err(|e| {
            Failure(format!(
                "{spec} is not a file, and git cannot be run to read it as a revision and path: {e}"
            ))
        })?;
    if !output.status.success() {
        let reason = String::from_utf8_lossy(&output.stderr).trim().to_owned();
        return Err(Failure(format!(
            "{spec} is not a file, and git cannot read it as a revision and path: {reason}"
        )));
    }
    String::from_utf8(output.stdout)
        .map_err(|_| Failure(format!("{spec}: the manifest is not UTF-8 text")))
}

/// The manifest of `source`: a manifest file, or a crate's directory
/// (described from its sources).
pub fn load_tools(source: &Path, err: &mut dyn Write) -> Result<Manifest, Failure> {
    if source.is_file() {
        let text = std::fs::read_to_string(source)
            .map_err(|e| Failure(format!("{} cannot be read: {e}", source.display())))?;
        return Manifest::parse(&text).map_err(|e| Failure(format!("{}: {e}", source.display())));
    }
    if source.is_dir() {
        return Ok(analyze_crate(source, None, err)?.manifest());
    }
    Err(Failure(format!(
        "{} does not exist; give a crate's directory or a manifest file",
        source.display()
    )))
}
