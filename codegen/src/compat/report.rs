//! Reports of a comparison: for a terminal, as stable JSON, and as
//! Markdown for a pull-request comment.

use crate::compat::classify::{ToolChange, ToolStatus};
use crate::emit::markdown;
use serde::Serialize;
use tooltable_rules::context::Cost;
use tooltable_rules::wire::json_text;
use tooltable_rules::wire::manifest::Manifest;

/// The `format` of the JSON report.
pub const REPORT_FORMAT: &str = "tooltable-diff/1";

/// How many changes of each class.
fn counts(tools: &[ToolChange]) -> [usize; 3] {
    let mut counts = [0; 3];
    for change in tools.iter().flat_map(|t| &t.changes) {
        counts[change.class as usize] += 1;
    }
    counts
}

fn summary(tools: &[ToolChange]) -> String {
    let [cosmetic, compatible, breaking] = counts(tools);
    format!(
        "{breaking} breaking, {compatible} compatible, {cosmetic} cosmetic change{} in {} tool{}",
        if breaking + compatible + cosmetic == 1 {
            ""
        } else {
            "s"
        },
        tools.len(),
        if tools.len() == 1 { "" } else { "s" }
    )
}

/// The listing's cost before and after, and what the change adds.
fn context(before: &Manifest, after: &Manifest) -> String {
    let (old, new) = (before.cost(), after.cost());
    let added = i128::from(new.tokens) - i128::from(old.tokens);
    format!("{old} -> {new}, {added:+} tokens")
}

fn status(tool: &ToolChange) -> String {
    match &tool.status {
        ToolStatus::Renamed { from } => format!("renamed from {from}"),
        other => other.as_str().to_owned(),
    }
}

fn fingerprints(tool: &ToolChange) -> String {
    let show = |f: Option<tooltable_rules::wire::fingerprint::Fingerprint>| {
        f.map_or_else(|| "none".to_owned(), |f| f.to_string())
    };
    format!(
        "{} -> {}",
        show(tool.old_fingerprint),
        show(tool.new_fingerprint)
    )
}

/// The report for a terminal.
pub fn text(before: &Manifest, after: &Manifest, tools: &[ToolChange]) -> String {
    let mut s = String::new();
    if tools.is_empty() {
        s.push_str("no changes to the tool surface\n");
    }
    for tool in tools {
        s.push_str(&format!(
            "{}: {} ({})\n",
            tool.name,
            status(tool),
            tool.class().as_str()
        ));
        for change in &tool.changes {
            s.push_str(&format!(
                "  {:<10}  {}\n",
                change.class.as_str(),
                change.message
            ));
        }
        if tool.old_fingerprint != tool.new_fingerprint {
            s.push_str(&format!("  fingerprint {}\n", fingerprints(tool)));
        }
    }
    s.push_str(&format!("summary: {}\n", summary(tools)));
    if !tools.is_empty() {
        s.push_str(&format!("context: {}\n", context(before, after)));
    }
    if before.inventory != after.inventory {
        s.push_str(&format!(
            "inventory: {} -> {}\n",
            before.inventory, after.inventory
        ));
    }
    s
}

/// The report as JSON: keys in a fixed order, tools by name, changes in
/// the order found.
pub fn json(before: &Manifest, after: &Manifest, tools: &[ToolChange]) -> String {
    let [cosmetic, compatible, breaking] = counts(tools);
    let side = |manifest: &Manifest| Side {
        crate_name: manifest.crate_name.clone(),
        inventory: manifest.inventory.to_string(),
    };
    let mut text = json_text::pretty(&Report {
        format: REPORT_FORMAT,
        old: side(before),
        new: side(after),
        summary: Summary {
            breaking,
            compatible,
            cosmetic,
        },
        context: Context {
            old: before.cost(),
            new: after.cost(),
        },
        tools: tools
            .iter()
            .map(|tool| ToolReport {
                name: &tool.name,
                status: tool.status.as_str(),
                renamed_from: match &tool.status {
                    ToolStatus::Renamed { from } => Some(from),
                    _ => None,
                },
                class: tool.class().as_str(),
                old_fingerprint: tool.old_fingerprint.map(|f| f.to_string()),
                new_fingerprint: tool.new_fingerprint.map(|f| f.to_string()),
                changes: tool
                    .changes
                    .iter()
                    .map(|change| ChangeReport {
                        class: change.class.as_str(),
                        at: &change.at,
                        message: &change.message,
                    })
                    .collect(),
            })
            .collect(),
    });
    text.push('\n');
    text
}

/// The JSON report's fields, in the order it lists them.
#[derive(Serialize)]
struct Report<'a> {
    format: &'static str,
    old: Side,
    new: Side,
    summary: Summary,
    context: Context,
    tools: Vec<ToolReport<'a>>,
}

/// What the listing costs a model's context, before and after.
#[derive(Serialize)]
struct Context {
    old: Cost,
    new: Cost,
}

/// One side of the comparison.
#[derive(Serialize)]
struct Side {
    #[serde(rename = "crate")]
    crate_name: String,
    inventory: String,
}

/// How many changes of each class.
#[derive(Serialize)]
struct Summary {
    breaking: usize,
    compatible: usize,
    cosmetic: usize,
}

/// One tool's changes.
#[derive(Serialize)]
struct ToolReport<'a> {
    name: &'a str,
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    renamed_from: Option<&'a String>,
    class: &'static str,
    old_fingerprint: Option<String>,
    new_fingerprint: Option<String>,
    changes: Vec<ChangeReport<'a>>,
}

/// One change of a tool.
#[derive(Serialize)]
struct ChangeReport<'a> {
    class: &'static str,
    at: &'a str,
    message: &'a str,
}

/// The report as Markdown, for a pull-request comment.
pub fn markdown(before: &Manifest, after: &Manifest, tools: &[ToolChange]) -> String {
    let mut s = String::from("### Tool surface changes\n\n");
    if tools.is_empty() {
        s.push_str("No changes to the tool surface.\n");
        return s;
    }
    let [_, _, breaking] = counts(tools);
    if breaking > 0 {
        s.push_str("**This change breaks existing clients.** ");
    }
    s.push_str(&format!(
        "{}. The tools' context: {}.\n\n",
        summary(tools),
        context(before, after).replace("->", "→")
    ));
    s.push_str("| Tool | Status | Class | Change |\n| --- | --- | --- | --- |\n");
    for tool in tools {
        for (i, change) in tool.changes.iter().enumerate() {
            let (name, state) = if i == 0 {
                (
                    markdown::code_cell(&tool.name),
                    markdown::cell(&status(tool)),
                )
            } else {
                (String::new(), String::new())
            };
            s.push_str(&format!(
                "| {name} | {state} | {} | {} |\n",
                change.class.as_str(),
                markdown::cell(&change.message)
            ));
        }
    }
    s.push_str(
        "\n<details><summary>Fingerprints</summary>\n\n| Tool | Old | New |\n| --- | --- | --- |\n",
    );
    for tool in tools {
        let show = |f: Option<tooltable_rules::wire::fingerprint::Fingerprint>| {
            f.map_or_else(
                || "none".to_owned(),
                |f| markdown::code_cell(&format!("sha256:{}", f.short())),
            )
        };
        s.push_str(&format!(
            "| {} | {} | {} |\n",
            markdown::code_cell(&tool.name),
            show(tool.old_fingerprint),
            show(tool.new_fingerprint)
        ));
    }
    s.push_str(&format!(
        "\nInventory: {} → {}\n\n</details>\n",
        markdown::code(&before.inventory.to_string()),
        markdown::code(&after.inventory.to_string())
    ));
    s
}
