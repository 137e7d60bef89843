//! Reports of a comparison: for a terminal, as stable JSON, and as
//! Markdown for a pull-request comment.

use crate::compat::classify::{ToolChange, ToolStatus};
use crate::emit::markdown;
use tooltable_rules::wire::json_text::JsonWriter;
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
    let mut w = JsonWriter::pretty();
    w.begin_object();
    w.field_str("format", REPORT_FORMAT);
    for (key, manifest) in [("old", before), ("new", after)] {
        w.key(key);
        w.begin_object();
        w.field_str("crate", &manifest.crate_name);
        w.field_str("inventory", &manifest.inventory.to_string());
        w.end_object();
    }
    w.key("summary");
    w.begin_object();
    w.field("breaking", &breaking.into());
    w.field("compatible", &compatible.into());
    w.field("cosmetic", &cosmetic.into());
    w.end_object();
    w.key("tools");
    w.begin_array();
    for tool in tools {
        w.begin_object();
        w.field_str("name", &tool.name);
        w.field_str("status", tool.status.as_str());
        if let ToolStatus::Renamed { from } = &tool.status {
            w.field_str("renamed_from", from);
        }
        w.field_str("class", tool.class().as_str());
        match tool.old_fingerprint {
            Some(f) => w.field_str("old_fingerprint", &f.to_string()),
            None => w.field("old_fingerprint", &serde_json::Value::Null),
        }
        match tool.new_fingerprint {
            Some(f) => w.field_str("new_fingerprint", &f.to_string()),
            None => w.field("new_fingerprint", &serde_json::Value::Null),
        }
        w.key("changes");
        w.begin_array();
        for change in &tool.changes {
            w.begin_object();
            w.field_str("class", change.class.as_str());
            w.field_str("at", &change.at);
            w.field_str("message", &change.message);
            w.end_object();
        }
        w.end_array();
        w.end_object();
    }
    w.end_array();
    w.end_object();
    let mut text = w.finish();
    text.push('\n');
    text
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
    s.push_str(&format!("{}.\n\n", summary(tools)));
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
