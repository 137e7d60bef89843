//! `tooltable check`: the drift gate.
//!
//! Regenerates the docs and manifest in memory and compares them with the
//! committed files. On drift it exits 1 and shows, per file, which tools
//! drifted, a unified diff, and the exact command that fixes it, as text,
//! JSON, or GitHub Actions annotations.

use crate::source::{analyze_crate, located};
use crate::{CheckFormat, Exit, Failure, Outcome};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use tooltable_codegen::committed::Requested;
use tooltable_codegen::compat;
use tooltable_rules::clients::Client;
use tooltable_rules::wire::json_text;
use tooltable_rules::wire::manifest::Manifest;

/// One committed file that does not match the sources.
struct Drift {
    path: String,
    missing: bool,
    tools: Vec<String>,
    diff: String,
}

/// A client rule a tool breaks, for `--clients`.
struct Unfit {
    error: bool,
    /// `path:line:column: message`.
    located: String,
    file: String,
    line: usize,
    column: usize,
    message: String,
}

/// Runs `check`.
pub fn run(
    dir: &Path,
    requested: Option<&Requested>,
    format: CheckFormat,
    clients: &[Client],
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Outcome {
    let analysis = analyze_crate(dir, requested, err)?;
    let unfit: Vec<Unfit> = analysis
        .client_diagnostics(clients)
        .iter()
        .map(|d| {
            let location = d.location.as_ref();
            Unfit {
                error: d.is_error(),
                located: located(dir, d),
                file: location.map_or_else(
                    || dir.join("Cargo.toml").display().to_string(),
                    |l| dir.join(&l.file).display().to_string(),
                ),
                line: location.map_or(1, |l| l.line),
                column: location.map_or(1, |l| l.column),
                message: d.message.clone(),
            }
        })
        .collect();
    let expected_manifest = analysis.manifest();
    let files = analysis
        .committed_files()
        .map_err(|d| Failure(format!("{}: {}", dir.display(), d.message)))?;
    let mut drifts = Vec::new();
    let mut checked = Vec::new();
    for file in &files {
        let path = dir.join(&file.relative);
        let shown = path.display().to_string();
        checked.push(shown.clone());
        let committed = match std::fs::read_to_string(&path) {
            Ok(text) => Some(text),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(Failure(format!("{shown} cannot be read: {e}"))),
        };
        if committed.as_deref() == Some(file.content.as_str()) {
            continue;
        }
        let old = committed.clone().unwrap_or_default();
        let tools = if file.relative == analysis.manifest_path() {
            manifest_tools(&old, &expected_manifest)
        } else {
            docs_tools(&old, &file.content)
        };
        drifts.push(Drift {
            diff: unified(&old, &file.content, &shown),
            missing: committed.is_none(),
            tools,
            path: shown,
        });
    }
    // The fix names the configuration that was checked.
    let mut fix = vec!["tooltable".to_owned(), "generate".to_owned()];
    fix.extend(requested.map(Requested::flags).unwrap_or_default());
    fix.push(shell_word(&dir.display().to_string()));
    let fix = fix.join(" ");
    let _ = match format {
        CheckFormat::Text => text(&drifts, &unfit, &checked, &fix, out),
        CheckFormat::Json => json(
            analysis.package_name(),
            &drifts,
            &unfit,
            &checked,
            &fix,
            out,
        ),
        CheckFormat::Github => github(&drifts, &unfit, &fix, out),
    };
    Ok(if drifts.is_empty() && !unfit.iter().any(|u| u.error) {
        Exit::Ok
    } else {
        Exit::Finding
    })
}

/// The tools whose manifest entries differ, each with what changed.
fn manifest_tools(committed: &str, expected: &Manifest) -> Vec<String> {
    let Ok(old) = Manifest::parse(committed) else {
        return expected.tools.iter().map(|t| t.name.clone()).collect();
    };
    compat::compare(&old, expected)
        .into_iter()
        .map(|tool| {
            let what: Vec<&str> = tool.changes.iter().map(|c| c.message.as_str()).collect();
            format!("{} ({})", tool.name, what.join("; "))
        })
        .collect()
}

/// The tools whose sections of the docs differ, found by their anchors.
fn docs_tools(committed: &str, expected: &str) -> Vec<String> {
    let old = sections(committed);
    let new = sections(expected);
    let mut names: Vec<String> = old
        .keys()
        .chain(new.keys())
        .filter(|name| old.get(*name) != new.get(*name))
        .cloned()
        .collect();
    names.sort();
    names.dedup();
    names
}

fn sections(page: &str) -> BTreeMap<String, String> {
    let mut found = BTreeMap::new();
    let mut current: Option<(String, String)> = None;
    for line in page.lines() {
        let name = line
            .strip_prefix("<a id=\"tool-")
            .and_then(|rest| rest.strip_suffix("\"></a>"))
            .filter(|name| !name.contains("-input") && !name.contains("-output"));
        if let Some(name) = name {
            if let Some((n, body)) = current.take() {
                found.insert(n, body);
            }
            current = Some((name.to_owned(), String::new()));
        } else if let Some((_, body)) = current.as_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    if let Some((n, body)) = current {
        found.insert(n, body);
    }
    found
}

fn unified(old: &str, new: &str, path: &str) -> String {
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(
            &format!("{path} (committed)"),
            &format!("{path} (from the sources)"),
        )
        .to_string()
}

/// `text` quoted for a POSIX shell when it needs to be.
fn shell_word(text: &str) -> String {
    if !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./+=:@%".contains(c))
    {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

fn text(
    drifts: &[Drift],
    unfit: &[Unfit],
    checked: &[String],
    fix: &str,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    for problem in unfit {
        let level = if problem.error { "error" } else { "warning" };
        writeln!(out, "{level}: {}", problem.located)?;
    }
    if drifts.is_empty() {
        return writeln!(
            out,
            "ok: {} match the #[tool] handlers",
            checked.join(" and ")
        );
    }
    for drift in drifts {
        let state = if drift.missing {
            "is missing"
        } else {
            "is out of date with the #[tool] handlers"
        };
        writeln!(out, "drift: {} {state}", drift.path)?;
        for tool in &drift.tools {
            writeln!(out, "  tool {tool}")?;
        }
        writeln!(out)?;
        write!(out, "{}", drift.diff)?;
        writeln!(out)?;
    }
    writeln!(
        out,
        "fix: run `{fix}` and commit the result (a local `cargo build` writes the same files)"
    )
}

fn json(
    crate_name: &str,
    drifts: &[Drift],
    unfit: &[Unfit],
    checked: &[String],
    fix: &str,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    /// The JSON report's fields, in the order it lists them.
    #[derive(serde::Serialize)]
    struct Report<'a> {
        status: &'static str,
        #[serde(rename = "crate")]
        crate_name: &'a str,
        checked: &'a [String],
        drifted: Vec<Drifted<'a>>,
        #[serde(skip_serializing_if = "Option::is_none")]
        fix: Option<&'a str>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        clients: Vec<Problem<'a>>,
    }
    /// A client rule a tool breaks.
    #[derive(serde::Serialize)]
    struct Problem<'a> {
        level: &'static str,
        file: &'a str,
        line: usize,
        column: usize,
        message: &'a str,
    }
    /// One file that drifted.
    #[derive(serde::Serialize)]
    struct Drifted<'a> {
        path: &'a str,
        state: &'static str,
        tools: &'a [String],
        diff: &'a str,
    }
    let report = Report {
        status: if drifts.is_empty() { "ok" } else { "drift" },
        crate_name,
        checked,
        drifted: drifts
            .iter()
            .map(|drift| Drifted {
                path: &drift.path,
                state: if drift.missing { "missing" } else { "stale" },
                tools: &drift.tools,
                diff: &drift.diff,
            })
            .collect(),
        fix: (!drifts.is_empty()).then_some(fix),
        clients: unfit
            .iter()
            .map(|u| Problem {
                level: if u.error { "error" } else { "warning" },
                file: &u.file,
                line: u.line,
                column: u.column,
                message: &u.message,
            })
            .collect(),
    };
    writeln!(out, "{}", json_text::pretty(&report))
}

/// Escapes a workflow command's message.
fn data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a workflow command's property.
fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}

fn github(
    drifts: &[Drift],
    unfit: &[Unfit],
    fix: &str,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    for problem in unfit {
        writeln!(
            out,
            "::{} file={},line={},col={},title={}::{}",
            if problem.error { "error" } else { "warning" },
            property(&problem.file),
            problem.line,
            problem.column,
            property("tooltable client"),
            data(&problem.message)
        )?;
    }
    if drifts.is_empty() {
        return writeln!(
            out,
            "tooltable: the committed docs and manifest match the #[tool] handlers"
        );
    }
    for drift in drifts {
        let tools = if drift.tools.is_empty() {
            String::new()
        } else {
            format!(" Tools: {}.", drift.tools.join(", "))
        };
        let state = if drift.missing {
            "is missing"
        } else {
            "is out of date with the #[tool] handlers"
        };
        writeln!(
            out,
            "::error file={},title={}::{}",
            property(&drift.path),
            property("tooltable drift"),
            data(&format!(
                "{} {state}.{tools} Run `{fix}` and commit the result.",
                drift.path
            ))
        )?;
        // The diff may hold lines that look like workflow commands; stop
        // command processing while it prints.
        writeln!(out, "::group::{}", data(&format!("diff of {}", drift.path)))?;
        writeln!(out, "::stop-commands::tooltable-diff")?;
        write!(out, "{}", drift.diff)?;
        writeln!(out, "::tooltable-diff::")?;
        writeln!(out, "::endgroup::")?;
    }
    Ok(())
}
