//! The build script entry: `tooltable_codegen::build()`.
//!
//! It reads the crate (once for each value of the cfgs a build script
//! cannot know that its sources look at, see `crate::variants`), prints
//! `cargo::rerun-if-changed` for every file it read, reports every problem
//! through `cargo::error=`/`cargo::warning=` with a file, line and column,
//! writes `$OUT_DIR/tooltable.rs` and declares its contract version as
//! `cfg(tooltable_contract = "N")`, and keeps the committed manifest and
//! docs in step with the declared configuration (`crate::committed`) under
//! the write policy. It never panics on any input.

use crate::analysis::{Analysis, analyze};
use crate::diagnostic::Diagnostic;
use crate::emit::write::{self, Outcome, Source, WRITE_VAR, WritePolicy};
use crate::scan::cfg::CfgEnv;
use crate::syntax::link;
use crate::variants;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Set to print the build script's own run time as a cargo warning.
pub const TIMING_VAR: &str = "TOOLTABLE_TIMING";

/// Runs the build script. Call it from `build.rs`:
///
/// ```no_run
/// fn main() {
///     tooltable_codegen::build();
/// }
/// ```
pub fn build() {
    let started = Instant::now();
    let syntax = Syntax::of(std::env::var("CARGO_PKG_RUST_VERSION").ok().as_deref());
    for line in run(started) {
        println!("{}", syntax.write(&line));
    }
}

/// How instructions to cargo are written, by the `rust-version` the
/// package declares: cargo refuses the `cargo::` form from a package that
/// declares a version before 1.77, which introduced it, and asks for the
/// `cargo:` form there (`cargo::error=` excepted, which it accepts from
/// every package).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Syntax {
    /// `cargo::KEY=VALUE`.
    DoubleColon,
    /// `cargo:KEY=VALUE`.
    SingleColon,
}

impl Syntax {
    fn of(rust_version: Option<&str>) -> Syntax {
        let mut parts = rust_version.unwrap_or_default().split('.');
        let major = parts.next().and_then(|p| p.parse::<u32>().ok());
        let minor = parts
            .next()
            .and_then(|p| p.parse::<u32>().ok())
            .unwrap_or(0);
        match major {
            Some(1) if minor < 77 => Syntax::SingleColon,
            Some(0) => Syntax::SingleColon,
            _ => Syntax::DoubleColon,
        }
    }

    /// `line`, written as an instruction in this form.
    fn write<'l>(self, line: &'l str) -> std::borrow::Cow<'l, str> {
        match (self, line.strip_prefix("cargo::")) {
            (Syntax::SingleColon, Some(rest)) if !rest.starts_with("error=") => {
                format!("cargo:{rest}").into()
            }
            _ => line.into(),
        }
    }
}

fn run(started: Instant) -> Vec<String> {
    let mut out = vec![
        "cargo::rerun-if-changed=Cargo.toml".to_owned(),
        format!("cargo::rerun-if-env-changed={WRITE_VAR}"),
        "cargo::rerun-if-env-changed=CI".to_owned(),
        format!("cargo::rerun-if-env-changed={TIMING_VAR}"),
        format!(
            "cargo::rustc-check-cfg=cfg({}, values(\"{}\"))",
            link::CONTRACT_CFG,
            link::contract_cfg_value()
        ),
    ];
    let (Some(crate_dir), Some(out_dir)) = (
        std::env::var_os("CARGO_MANIFEST_DIR"),
        std::env::var_os("OUT_DIR"),
    ) else {
        out.push("cargo::error=tooltable_codegen::build() must run inside a build script (CARGO_MANIFEST_DIR and OUT_DIR are not set)".into());
        return out;
    };
    let crate_dir = PathBuf::from(crate_dir);
    let cfg = CfgEnv::from_cargo_env();
    let build = match variants::read(&crate_dir, &cfg) {
        Ok(build) => build,
        Err(diagnostics) => {
            out.extend(diagnostics.iter().map(directive));
            return out;
        }
    };
    for file in build.files_read() {
        out.push(format!("cargo::rerun-if-changed={}", file.display()));
    }
    let diagnostics = build.diagnostics();
    out.extend(diagnostics.iter().map(directive));
    if diagnostics.iter().any(Diagnostic::is_error) {
        return out;
    }
    let generated = Path::new(&out_dir).join("tooltable.rs");
    if let Err(e) = write::sync(&generated, &build.table_source(), WritePolicy::Write, None) {
        out.push(format!(
            "cargo::error=cannot write {}: {e}",
            generated.display()
        ));
        return out;
    }
    // The contract version of the table just written: `include_table!`
    // compiles only a table of the version its runtime reads.
    out.push(format!(
        "cargo::rustc-cfg={}=\"{}\"",
        link::CONTRACT_CFG,
        link::contract_cfg_value()
    ));
    let primary = build.primary(&cfg);
    // The committed files describe the declared configuration, whatever
    // this build's features and profile: read the crate under it unless
    // one of this build's readings already was.
    let declared = primary.committed_cfg(&cfg);
    let own;
    let committed = match build.under(&cfg, &declared) {
        Some(analysis) => analysis,
        None => match analyze(&crate_dir, &declared) {
            Ok(analysis) if !analysis.has_errors() => {
                own = analysis;
                &own
            }
            Ok(analysis) => {
                let first = analysis
                    .diagnostics()
                    .iter()
                    .find(|d| d.is_error())
                    .map(ToString::to_string)
                    .unwrap_or_default();
                out.push(format!(
                    "cargo::warning=the committed manifest and docs describe the crate with its declared features and profile, which does not build: {}; they were left as they are",
                    first.replace('\n', " ")
                ));
                return out;
            }
            Err(diagnostics) => {
                out.extend(diagnostics.iter().map(directive));
                return out;
            }
        },
    };
    match stray_tools(committed, &crate_dir, &build.files_read()) {
        Some(warning) => out.push(format!("cargo::warning={warning}")),
        None => out.extend(sync_committed(committed, &crate_dir)),
    }
    if std::env::var_os(TIMING_VAR).is_some() {
        out.push(format!(
            "cargo::warning=tooltable build script: {:.1} ms for {} tools in {} files",
            started.elapsed().as_secs_f64() * 1000.0,
            primary.tool_count(),
            build.files_read().len()
        ));
    }
    out
}

/// Why the committed files are left as they are, when this build would
/// drop tools they list while a source file the build did not read holds
/// a `#[tool]`: the build is about to fail at that tool (the table cannot
/// include it), and writing now would lose the committed contract.
fn stray_tools(
    analysis: &Analysis,
    crate_dir: &Path,
    read: &std::collections::BTreeSet<PathBuf>,
) -> Option<String> {
    let committed = std::fs::read_to_string(crate_dir.join(analysis.manifest_path())).ok()?;
    let committed = tooltable_rules::wire::manifest::Manifest::parse(&committed).ok()?;
    let now: std::collections::BTreeSet<String> = analysis
        .manifest()
        .tools
        .into_iter()
        .map(|t| t.name)
        .collect();
    let dropped: Vec<&str> = committed
        .tools
        .iter()
        .map(|t| t.name.as_str())
        .filter(|name| !now.contains(*name))
        .collect();
    if dropped.is_empty() {
        return None;
    }
    let stray = unread_tool_files(&crate_dir.join("src"), crate_dir, read);
    if stray.is_empty() {
        return None;
    }
    Some(format!(
        "{} and the docs were left as they are: this build finds {} fewer tools than they list ({}), while the package declares #[tool]s in {}, which it did not read: it reads {} (the root of the crate that invokes include_table!(), or `root` in [package.metadata.tooltable]) and the modules it declares. Invoke include_table!() in the crate whose modules hold the tools, or set `root`",
        analysis.manifest_path().display(),
        dropped.len(),
        dropped.join(", "),
        stray.join(", "),
        analysis.root().display()
    ))
}

/// The `.rs` files under `dir` the build did not read that hold a
/// `#[tool]` attribute (or `#[tooltable::tool]`), relative to `crate_dir`.
fn unread_tool_files(
    dir: &Path,
    crate_dir: &Path,
    read: &std::collections::BTreeSet<PathBuf>,
) -> Vec<String> {
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return found;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            found.extend(unread_tool_files(&path, crate_dir, read));
        } else if path.extension().is_some_and(|e| e == "rs")
            && !read.contains(&path)
            && !read.contains(&std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone()))
            && std::fs::read_to_string(&path)
                .is_ok_and(|text| text.contains("#[tool(") || text.contains("#[tooltable::tool("))
        {
            found.push(
                path.strip_prefix(crate_dir)
                    .unwrap_or(&path)
                    .display()
                    .to_string(),
            );
        }
    }
    found
}

fn directive(diagnostic: &Diagnostic) -> String {
    let kind = if diagnostic.is_error() {
        "error"
    } else {
        "warning"
    };
    format!(
        "cargo::{kind}={}",
        diagnostic.to_string().replace('\n', " ")
    )
}

fn sync_committed(analysis: &Analysis, crate_dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let var = std::env::var(WRITE_VAR).ok();
    let ci = std::env::var_os("CI").is_some_and(|v| !v.is_empty() && v != "false" && v != "0");
    let decision = match write::decide(var.as_deref(), ci, Source::of(crate_dir)) {
        Ok(decision) => decision,
        Err(message) => {
            out.push(format!("cargo::error={message}"));
            return out;
        }
    };
    if let Some(template) = analysis.docs_template() {
        out.push(format!(
            "cargo::rerun-if-changed={}",
            crate_dir.join(template).display()
        ));
    }
    let files = match analysis.committed_files() {
        Ok(files) => files,
        Err(diagnostic) => {
            out.push(directive(&diagnostic));
            return out;
        }
    };
    for file in files {
        let relative = &file.relative;
        let path = crate_dir.join(relative);
        match write::sync(&path, &file.content, decision.policy, Some(file.kind)) {
            Ok(Outcome::NotOurs) => out.push(format!("cargo::error={}", file.not_ours())),
            Ok(Outcome::Stale) => out.push(format!(
                "cargo::warning={} is out of date with the #[tool] handlers (not rewritten: {}); run `tooltable generate` in the crate's directory (or `cargo build` locally with {WRITE_VAR}=always), and commit it",
                relative.display(),
                decision.reason
            )),
            Ok(_) => {}
            Err(e) => out.push(format!("cargo::error=cannot write {}: {e}", relative.display())),
        }
        // Watched even when missing (cargo then reruns until it exists), so
        // fixing a stale file by hand or with `tooltable generate` clears
        // the warning instead of replaying it.
        out.push(format!("cargo::rerun-if-changed={}", path.display()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::Syntax;

    #[test]
    fn a_package_declaring_a_rust_version_before_1_77_gets_the_single_colon_form() {
        for version in ["1.56", "1.75.0", "1.76"] {
            assert_eq!(Syntax::of(Some(version)), Syntax::SingleColon, "{version}");
        }
        for version in [None, Some("1.77"), Some("1.95.0"), Some("2.0")] {
            assert_eq!(Syntax::of(version), Syntax::DoubleColon, "{version:?}");
        }
        let old = Syntax::SingleColon;
        assert_eq!(
            old.write("cargo::rustc-cfg=tooltable_contract=\"1\""),
            "cargo:rustc-cfg=tooltable_contract=\"1\""
        );
        assert_eq!(
            old.write("cargo::rerun-if-changed=src/lib.rs"),
            "cargo:rerun-if-changed=src/lib.rs"
        );
        assert_eq!(
            old.write("cargo::error=bad"),
            "cargo::error=bad",
            "accepted from every package"
        );
        assert_eq!(
            Syntax::DoubleColon.write("cargo::warning=w"),
            "cargo::warning=w"
        );
    }
}
