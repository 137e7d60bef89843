//! Text made safe for GitHub-flavoured Markdown.
//!
//! Descriptions come from doc comments and may hold anything: a `|` would
//! split a table cell, a stray backtick would swallow the rest of a line
//! into code, and `<tag>` would be taken as HTML. The docs page escapes all
//! of them here, so every piece of user text goes through one place.

/// Prose: `|`, backticks, backslashes and HTML are escaped; line breaks are kept.
pub fn text(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    for c in raw.chars() {
        match c {
            '|' => out.push_str("\\|"),
            '`' => out.push_str("\\`"),
            '\\' => out.push_str("\\\\"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\r' => {}
            c => out.push(c),
        }
    }
    out
}

/// A description: prose escaped (its paragraphs kept), and what would not
/// render as prose kept exactly in a code block: a fence its author wrote
/// (```` ``` ````), and JSON (lines from one that opens with `{` or `[`
/// to the paragraph's end), which Markdown would run into one line of
/// escaped text.
pub fn description(raw: &str) -> String {
    let mut blocks = Vec::new();
    let mut lines = raw.lines().peekable();
    while let Some(line) = lines.next() {
        let trimmed = line.trim_start();
        if trimmed.is_empty() {
            continue;
        }
        if trimmed.starts_with("```") {
            let mut fenced = vec![line];
            for line in lines.by_ref() {
                fenced.push(line);
                if line.trim_start().starts_with("```") {
                    break;
                }
            }
            if fenced.len() == 1 || !fenced[fenced.len() - 1].trim_start().starts_with("```") {
                fenced.push("```");
            }
            blocks.push(fenced.join("\n"));
            continue;
        }
        let json = trimmed.starts_with(['{', '[']);
        let mut paragraph = vec![line];
        while let Some(next) = lines.peek() {
            let next = next.trim_start();
            // JSON that follows prose without a blank line starts a block
            // of its own.
            if next.is_empty() || next.starts_with("```") || (!json && next.starts_with(['{', '[']))
            {
                break;
            }
            paragraph.extend(lines.next());
        }
        let paragraph = paragraph.join("\n");
        blocks.push(if json {
            code_block("json", &paragraph)
        } else {
            text(&paragraph)
        });
    }
    blocks.join("\n\n")
}

/// Prose for one table cell: escaped, paragraphs joined by `<br><br>` and
/// the lines of a paragraph by spaces (a table row is one line).
pub fn cell(raw: &str) -> String {
    raw.split("\n\n")
        .map(|paragraph| {
            paragraph
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(text)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("<br><br>")
}

/// An inline code span that shows `raw` exactly, for use inside a table
/// cell (where `|` must be escaped even in code).
pub fn code_cell(raw: &str) -> String {
    code(raw).replace('|', "\\|")
}

/// An inline code span that shows `raw` exactly (outside tables).
pub fn code(raw: &str) -> String {
    let flat = raw.replace(['\n', '\r'], " ");
    let longest = longest_run(&flat, '`');
    let fence = "`".repeat(longest + 1);
    let pad = if flat.starts_with('`') || flat.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{flat}{pad}{fence}")
}

/// A fenced code block of `language` holding `raw` exactly.
pub fn code_block(language: &str, raw: &str) -> String {
    let fence = "`".repeat(longest_run(raw, '`').max(2) + 1);
    format!("{fence}{language}\n{raw}\n{fence}")
}

fn longest_run(text: &str, c: char) -> usize {
    let (mut longest, mut run) = (0, 0);
    for ch in text.chars() {
        if ch == c {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    longest
}

/// A link to an anchor of the same page.
pub fn link(label: &str, anchor: &str) -> String {
    format!("[{label}](#{anchor})")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pipes_backticks_and_html_are_escaped() {
        assert_eq!(
            text("a | b `c` <script>&"),
            "a \\| b \\`c\\` &lt;script&gt;&amp;"
        );
    }

    #[test]
    fn json_and_fences_in_a_description_are_kept_as_code() {
        let raw = "Creates entities.\n\nArguments look like:\n{\"entities\": [\n  {\"name\": \"a|b\"}\n]}\n\n```rust\nlet x = `y`;\n```\nThen <done>.";
        assert_eq!(
            description(raw),
            "Creates entities.\n\nArguments look like:\n\n```json\n{\"entities\": [\n  {\"name\": \"a|b\"}\n]}\n```\n\n```rust\nlet x = `y`;\n```\n\nThen &lt;done&gt;."
        );
        assert_eq!(
            description("Unclosed:\n\n```\ncode"),
            "Unclosed:\n\n```\ncode\n```"
        );
    }

    #[test]
    fn a_cell_is_one_line() {
        assert_eq!(
            cell("One\nline.\n\nTwo | three."),
            "One line.<br><br>Two \\| three."
        );
    }

    #[test]
    fn code_spans_hold_backticks_and_pipes() {
        assert_eq!(code("a"), "`a`");
        assert_eq!(code("a`b"), "``a`b``");
        assert_eq!(code("`a"), "`` `a ``");
        assert_eq!(code_cell("a|b"), "`a\\|b`");
        assert_eq!(code_block("json", "{}"), "```json\n{}\n```");
        assert_eq!(code_block("", "```"), "````\n```\n````");
    }
}
