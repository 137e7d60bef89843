//! `tooltable list`: the tools as a table for a terminal.
//!
//! One line per tool: name, tier, hints, permission, the tokens its
//! descriptor costs a model's context, summary; the cost of all of them
//! under the table. Tiers are
//! coloured only when standard output is a terminal and `NO_COLOR` is not
//! set (<https://no-color.org>), so piped output stays plain text.

use crate::source::load_tools;
use crate::{Exit, Outcome};
use serde_json::Value;
use std::ffi::OsString;
use std::io::Write;
use std::path::Path;
use tooltable_rules::tier::Tier;
use tooltable_rules::wire::descriptor;
use tooltable_rules::wire::manifest::Manifest;

/// The longest summary shown; longer ones end in `…`.
const SUMMARY_WIDTH: usize = 72;

/// Whether to colour: on a terminal, unless `NO_COLOR` is set to anything non-empty.
pub fn use_colour(terminal: bool, no_color: Option<OsString>) -> bool {
    terminal && no_color.is_none_or(|v| v.is_empty())
}

/// Runs `list`.
pub fn run(source: &Path, colour: bool, out: &mut dyn Write, err: &mut dyn Write) -> Outcome {
    let manifest = load_tools(source, err)?;
    let _ = write!(out, "{}", table(&manifest, colour));
    Ok(Exit::Ok)
}

fn hints(descriptor: &Value) -> String {
    let on = |key: &str| {
        descriptor
            .get("annotations")
            .and_then(|a| a.get(key))
            .and_then(Value::as_bool)
            .unwrap_or(false)
    };
    let flags: Vec<&str> = [
        ("readOnlyHint", "RO"),
        ("destructiveHint", "DE"),
        ("idempotentHint", "ID"),
        ("openWorldHint", "OW"),
    ]
    .iter()
    .filter(|(key, _)| on(key))
    .map(|(_, flag)| *flag)
    .collect();
    if flags.is_empty() {
        "-".into()
    } else {
        flags.join(" ")
    }
}

fn shorten(text: &str) -> String {
    if text.chars().count() <= SUMMARY_WIDTH {
        return text.to_owned();
    }
    let mut short: String = text.chars().take(SUMMARY_WIDTH - 1).collect();
    short.push('…');
    short
}

/// The table's text.
pub fn table(manifest: &Manifest, colour: bool) -> String {
    let header = ["NAME", "TIER", "HINTS", "PERMISSION", "TOKENS", "SUMMARY"];
    let rows: Vec<(Tier, [String; 6])> = manifest
        .tools
        .iter()
        .map(|t| {
            let description = t
                .descriptor
                .get("description")
                .and_then(Value::as_str)
                .unwrap_or_default();
            (
                t.tier,
                [
                    t.name.clone(),
                    t.tier.as_str().to_owned(),
                    hints(&t.descriptor),
                    t.permission.clone().unwrap_or_else(|| "-".into()),
                    t.cost.tokens.to_string(),
                    shorten(&descriptor::summary(description)),
                ],
            )
        })
        .collect();
    let mut widths = header.map(|h| h.chars().count());
    for (_, row) in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let line = |cells: [&str; 6], tier: Option<Tier>| {
        let mut s = String::new();
        for (i, cell) in cells.iter().enumerate() {
            let pad = " ".repeat(widths[i] - cell.chars().count());
            let shown = match (colour, i, tier) {
                (true, 1, Some(tier)) => {
                    let code = match tier {
                        Tier::Read => "32",
                        Tier::Write => "33",
                        Tier::Destructive => "31",
                    };
                    format!("\x1b[{code}m{cell}\x1b[0m")
                }
                (true, _, None) => format!("\x1b[1m{cell}\x1b[0m"),
                _ => (*cell).to_owned(),
            };
            s.push_str(&shown);
            if i + 1 < cells.len() {
                s.push_str(&pad);
                s.push_str("  ");
            }
        }
        s.push('\n');
        s
    };
    let mut s = line(header, None);
    for (tier, row) in &rows {
        s.push_str(&line(row.each_ref().map(String::as_str), Some(*tier)));
    }
    let cost = manifest.cost();
    s.push_str(&format!(
        "\n{} tool{} in {}, {cost} of a model's context (TOKENS: each tool's share, estimated). Hints: RO read-only, DE destructive, ID idempotent, OW open world.\n",
        rows.len(),
        if rows.len() == 1 { "" } else { "s" },
        manifest.crate_name
    ));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_only_on_a_terminal_without_no_color() {
        assert!(use_colour(true, None));
        assert!(use_colour(true, Some(OsString::new())));
        assert!(!use_colour(true, Some(OsString::from("1"))));
        assert!(!use_colour(false, None));
    }
}
