//! `tooltable check`: the drift gate, and the clients' rules.
//!
//! Regenerates the docs and manifest in memory and compares them with the
//! committed files. On drift it exits 1 and shows, per file, which tools
//! drifted, a unified diff, and the exact command that fixes it, as text,
//! JSON, or GitHub Actions annotations. With `--clients`, it also checks
//! every tool against those client profiles; given a manifest file rather
//! than a crate (a `tools.json` tooltable wrote, for any server), it does only that.

use crate::source::{analyze_crate, located};
use crate::{CheckFormat, Exit, Failure, Outcome};
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::Path;
use tooltable_codegen::committed::Requested;
use tooltable_codegen::compat;
use tooltable_rules::clients::{self, Client, Rule};
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
    profile: Client,
    tool: String,
    rule: Rule,
    /// `path:line:column: message`.
    located: String,
    file: String,
    line: usize,
    column: usize,
    message: String,
}

/// `a`, `a and b`, `a, b and c`: the files checked, as a sentence names them.
fn listed(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Runs `check` on a crate's directory, or on a manifest file.
pub fn run(
    dir: &Path,
    requested: Option<&Requested>,
    format: CheckFormat,
    clients: &[Client],
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Outcome {
    if dir.is_file() {
        return run_on_manifest(dir, requested, format, clients, out);
    }
    let analysis = analyze_crate(dir, requested, err)?;
    let unfit: Vec<Unfit> = analysis
        .client_findings(clients)
        .into_iter()
        .map(|finding| {
            let d = &finding.diagnostic;
            let location = d.location.as_ref();
            Unfit {
                error: d.is_error(),
                profile: finding.profile,
                tool: finding.tool,
                rule: finding.violation.rule,
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
    // The registry verifies the crate by its README, which no build writes.
    let unpublishable: Vec<String> = analysis
        .registry()
        .and_then(|registry| registry.readme_problem(dir))
        .into_iter()
        .collect();
    // The fix names the configuration that was checked.
    let mut fix = vec!["tooltable".to_owned(), "generate".to_owned()];
    fix.extend(requested.map(Requested::flags).unwrap_or_default());
    fix.push(shell_word(&dir.display().to_string()));
    let fix = fix.join(" ");
    let _ = match format {
        CheckFormat::Text => text(
            &drifts,
            &unfit,
            &unpublishable,
            &format!("ok: {} match the #[tool] handlers", listed(&checked)),
            &fix,
            out,
        ),
        CheckFormat::Json => json(
            analysis.package_name(),
            &drifts,
            &unfit,
            &unpublishable,
            &checked,
            &fix,
            out,
        ),
        CheckFormat::Github => github(
            &drifts,
            &unfit,
            &unpublishable,
            &format!("tooltable: {} match the #[tool] handlers", listed(&checked)),
            &fix,
            out,
        ),
    };
    Ok(
        if drifts.is_empty() && unpublishable.is_empty() && !unfit.iter().any(|u| u.error) {
            Exit::Ok
        } else {
            Exit::Finding
        },
    )
}

/// `check --clients` on a manifest file, such as another server's
/// `tools.json`: every tool against the profiles, each broken rule an error
/// at the tool's entry. With no sources there is no drift to find, and the
/// crate's `client_levels` are not known, so every rule is an error; the
/// name budgets count the manifest's crate name as the server's.
fn run_on_manifest(
    path: &Path,
    requested: Option<&Requested>,
    format: CheckFormat,
    profiles: &[Client],
    out: &mut dyn Write,
) -> Outcome {
    let shown = path.display().to_string();
    if profiles.is_empty() {
        return Err(Failure(format!(
            "{shown} is a manifest file, with no #[tool] handlers to compare it with: give `--clients` to check its tools against client profiles, or give the crate's directory to check it for drift"
        )));
    }
    if requested.is_some() {
        return Err(Failure(format!(
            "--features, --all-features, --no-default-features and --release choose how a crate is read; {shown} is a manifest file, so leave them out"
        )));
    }
    let source = std::fs::read_to_string(path)
        .map_err(|e| Failure(format!("{shown} cannot be read: {e}")))?;
    let manifest = Manifest::parse(&source).map_err(|e| Failure(format!("{shown}: {e}")))?;
    let set: Vec<(&str, &serde_json::Value)> = manifest
        .tools
        .iter()
        .map(|t| (t.name.as_str(), &t.descriptor))
        .collect();
    let mut unfit = Vec::new();
    for &profile in profiles {
        for finding in clients::check_set(profile, &manifest.crate_name, &set) {
            let tool = set[finding.tool].0;
            let (line, column) = entry_of(&source, tool);
            let message = finding.sentence(profile, tool);
            unfit.push(Unfit {
                error: true,
                profile,
                tool: tool.to_owned(),
                rule: finding.violation.rule,
                located: format!("{shown}:{line}:{column}: {message}"),
                file: shown.clone(),
                line,
                column,
                message,
            });
        }
    }
    let names = profiles
        .iter()
        .map(|p| format!("`{p}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let count = manifest.tools.len();
    let summary = match unfit.iter().map(|u| &u.tool).collect::<BTreeSet<_>>().len() {
        0 => format!("ok: the {count} tools of {shown} fit {names}"),
        broken => format!("unfit: {broken} of the {count} tools of {shown} do not fit {names}"),
    };
    let _ = match format {
        CheckFormat::Text => text(&[], &unfit, &[], &summary, "", out),
        CheckFormat::Json => json(&manifest.crate_name, &[], &unfit, &[], &[shown], "", out),
        CheckFormat::Github => github(&[], &unfit, &[], &format!("tooltable: {summary}"), "", out),
    };
    Ok(if unfit.is_empty() {
        Exit::Ok
    } else {
        Exit::Finding
    })
}

/// The line and column of `tool`'s entry in a manifest's text: its
/// `"name"` key, the first key of each entry.
fn entry_of(text: &str, tool: &str) -> (usize, usize) {
    let key = format!("\"name\": {},", json_text::compact(&tool));
    text.lines()
        .enumerate()
        .find_map(|(i, line)| {
            let column = line.len() - line.trim_start().len();
            (line.trim() == key).then_some((i + 1, column + 1))
        })
        .unwrap_or((1, 1))
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

/// The text report; `summary` is its last line when nothing drifted.
fn text(
    drifts: &[Drift],
    unfit: &[Unfit],
    unpublishable: &[String],
    summary: &str,
    fix: &str,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    for problem in unfit {
        let level = if problem.error { "error" } else { "warning" };
        writeln!(out, "{level}: {}", problem.located)?;
    }
    for problem in unpublishable {
        writeln!(out, "error: {problem}")?;
    }
    if drifts.is_empty() {
        return if unpublishable.is_empty() {
            writeln!(out, "{summary}")
        } else {
            Ok(())
        };
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
    unpublishable: &[String],
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
        #[serde(skip_serializing_if = "<[String]>::is_empty")]
        registry: &'a [String],
    }
    /// A client rule a tool breaks.
    #[derive(serde::Serialize)]
    struct Problem<'a> {
        level: &'static str,
        profile: &'static str,
        tool: &'a str,
        rule: &'static str,
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
        status: if !drifts.is_empty() {
            "drift"
        } else if unfit.iter().any(|u| u.error) {
            "unfit"
        } else if !unpublishable.is_empty() {
            "unpublishable"
        } else {
            "ok"
        },
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
                profile: u.profile.as_str(),
                tool: &u.tool,
                rule: u.rule.as_str(),
                file: &u.file,
                line: u.line,
                column: u.column,
                message: &u.message,
            })
            .collect(),
        registry: unpublishable,
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

/// The workflow commands; `summary` is the last line when nothing drifted.
fn github(
    drifts: &[Drift],
    unfit: &[Unfit],
    unpublishable: &[String],
    summary: &str,
    fix: &str,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    for problem in unpublishable {
        writeln!(
            out,
            "::error title={}::{}",
            property("tooltable registry"),
            data(problem)
        )?;
    }
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
        return if unpublishable.is_empty() {
            writeln!(out, "{summary}")
        } else {
            Ok(())
        };
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
