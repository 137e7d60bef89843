//! What a tool costs a model's context: its descriptor's bytes as served,
//! and an estimate of the tokens they take.
//!
//! Every client sends each tool's descriptor to the model before the first
//! question, so a tool set's cost is paid on every request. The manifest
//! records each tool's [`Cost`], `tooltable list` and the docs show it, and
//! `context_budget` in `[package.metadata.tooltable]` bounds it. Models
//! tokenise differently and most tokenizers are not published; the
//! estimate is a rule over the text, calibrated against a real tokenizer by
//! the benchmark in `benches/tokens` (docs/manifest.md gives its error).

use crate::wire::descriptor;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A descriptor's cost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cost {
    /// The bytes of its compact JSON text, as `tools/list` serves it.
    pub bytes: u64,
    /// The tokens those bytes take, estimated by [`estimate_tokens`].
    pub tokens: u64,
}

impl Cost {
    /// The cost of `descriptor` as served.
    pub fn of(descriptor: &Value) -> Cost {
        Cost::of_text(&descriptor::to_text(descriptor))
    }

    /// The cost of a descriptor's served text (`descriptor::to_text`).
    pub fn of_text(text: &str) -> Cost {
        Cost {
            bytes: text.len() as u64,
            tokens: estimate_tokens(text),
        }
    }
}

/// `about N tokens (M bytes)`, as the docs and the CLI show a cost.
impl std::fmt::Display for Cost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "about {} tokens ({} bytes)", self.tokens, self.bytes)
    }
}

impl std::ops::Add for Cost {
    type Output = Cost;

    fn add(self, other: Cost) -> Cost {
        Cost {
            bytes: self.bytes.saturating_add(other.bytes),
            tokens: self.tokens.saturating_add(other.tokens),
        }
    }
}

impl std::iter::Sum for Cost {
    fn sum<I: Iterator<Item = Cost>>(iter: I) -> Cost {
        iter.fold(Cost::default(), std::ops::Add::add)
    }
}

/// An estimate of the tokens `text` takes, in whole tokens.
///
/// Tokenizers split text into words, runs of digits and punctuation, and
/// split long words further; so does this rule, over the UTF-8 bytes, in
/// hundredths of a token. A run of capitals is one piece (a capital before
/// lowercase starts a word: `HTTPServer` is `HTTP` and `Server`); a word
/// costs 1.12, and 0.25 more per letter past eleven; non-ASCII characters
/// are letters, a three-byte one (CJK, typographic quotes) costing 0.75
/// more and a four-byte one (emoji) 1.5; digits cost one per three; a run
/// of spaces costs one when it is two or more, and one more before a
/// digit; a run of punctuation costs one, and one more per character past
/// four, except a single character joining a word that follows it. The
/// weights were fitted against OpenAI's `o200k_base` by
/// `benches/tokens/measure.mjs`, whose `estimate` is this rule in
/// JavaScript and must give the same integer.
pub fn estimate_tokens(text: &str) -> u64 {
    let b = text.as_bytes();
    let upper = |c: u8| c.is_ascii_uppercase();
    let lower = |c: u8| c.is_ascii_lowercase() || c >= 0x80;
    let letter = |c: u8| upper(c) || lower(c);
    let (mut i, mut cost) = (0, 0u64);
    while i < b.len() {
        let start = i;
        if letter(b[i]) {
            while i < b.len() && upper(b[i]) {
                i += 1;
            }
            if i - start >= 2 && i < b.len() && lower(b[i]) {
                i -= 1;
            }
            if i - start >= 2 {
                cost += 125;
                continue;
            }
            let mut len = (i - start) as u64;
            while i < b.len() && lower(b[i]) {
                match b[i] {
                    0x00..=0x7f => len += 1,
                    0xc0..=0xdf => len += 2,
                    0xe0..=0xef => cost += 75,
                    0xf0..=0xff => cost += 150,
                    _ => {}
                }
                i += 1;
            }
            cost += 112 + 25 * len.saturating_sub(11);
        } else if b[i].is_ascii_digit() {
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            cost += 100 * (i - start).div_ceil(3) as u64;
        } else if b[i] == b' ' {
            while i < b.len() && b[i] == b' ' {
                i += 1;
            }
            if i - start >= 2 {
                cost += 100;
            }
            if i < b.len() && b[i].is_ascii_digit() {
                cost += 100;
            }
        } else {
            while i < b.len() && b[i] < 0x80 && !b[i].is_ascii_alphanumeric() && b[i] != b' ' {
                i += 1;
            }
            let joins = i - start == 1
                && i < b.len()
                && letter(b[i])
                && !(start > 0 && b[start - 1] == b' ');
            if !joins {
                cost += 100 + 100 * (i - start).saturating_sub(4) as u64;
            }
        }
    }
    (cost + 50) / 100
}

/// `context_budget`: the most tokens the listing as a whole, and any one
/// tool, may cost. `None` leaves that part unbounded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// The most tokens all tools together may cost.
    pub listing: Option<u64>,
    /// The most tokens one tool may cost.
    pub tool: Option<u64>,
}

/// How many of the costliest tools an over-budget listing names.
const NAMED: usize = 5;

impl Budget {
    /// Why `name`, costing `cost`, is over the per-tool budget; `None`
    /// when it is within it.
    pub fn check_tool(&self, name: &str, cost: Cost) -> Option<String> {
        let most = self.tool?;
        (cost.tokens > most).then(|| {
            format!(
                "tool `{name}` costs {cost} of a model's context, over the {most} tokens of `context_budget.tool` in [package.metadata.tooltable]; shorten its doc comment and its parameters' docs, or split its parameters over smaller tools"
            )
        })
    }

    /// Why the listing of `tools` is over the budget, naming the costliest
    /// tools; `None` when it is within it.
    pub fn check_listing<'a>(
        &self,
        tools: impl IntoIterator<Item = (&'a str, Cost)>,
    ) -> Option<String> {
        let most = self.listing?;
        let mut tools: Vec<(&str, Cost)> = tools.into_iter().collect();
        let total: Cost = tools.iter().map(|(_, cost)| *cost).sum();
        if total.tokens <= most {
            return None;
        }
        tools.sort_by(|a, b| b.1.tokens.cmp(&a.1.tokens).then(a.0.cmp(b.0)));
        let costliest = tools
            .iter()
            .take(NAMED)
            .map(|(name, cost)| format!("`{name}` ({})", cost.tokens))
            .collect::<Vec<_>>()
            .join(", ");
        Some(format!(
            "the {} tools cost {total} of a model's context, over the {most} tokens of `context_budget.listing` in [package.metadata.tooltable]; the costliest are {costliest}: shorten their docs, or serve fewer tools (a toolset policy, a feature)",
            tools.len(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn cost(tokens: u64) -> Cost {
        Cost {
            bytes: tokens * 4,
            tokens,
        }
    }

    #[test]
    fn a_descriptors_cost_is_counted_over_its_served_text() {
        let descriptor = json!({"name": "a", "inputSchema": {"type": "object"}});
        let cost = Cost::of(&descriptor);
        assert_eq!(
            cost.bytes,
            r#"{"name":"a","inputSchema":{"type":"object"}}"#.len() as u64
        );
        assert_eq!(
            cost.tokens,
            estimate_tokens(r#"{"name":"a","inputSchema":{"type":"object"}}"#)
        );
    }

    #[test]
    fn the_estimate_counts_words_digits_and_punctuation_as_the_benchmark_does() {
        assert_eq!(estimate_tokens(""), 0);
        assert_eq!(estimate_tokens(r#"{"type":"object"}"#), 5);
        assert_eq!(estimate_tokens("HTTPServer"), 2);
        assert_eq!(estimate_tokens("1234567"), 3);
        assert_eq!(estimate_tokens("日本語"), 3);
    }

    #[test]
    fn a_tool_over_its_budget_is_named_with_its_cost() {
        let budget = Budget {
            listing: None,
            tool: Some(100),
        };
        assert_eq!(budget.check_tool("a", cost(100)), None);
        let over = budget.check_tool("a", cost(101)).unwrap();
        assert!(
            over.starts_with("tool `a` costs about 101 tokens (404 bytes)"),
            "{over}"
        );
    }

    #[test]
    fn a_listing_over_its_budget_names_the_costliest_tools_first() {
        let budget = Budget {
            listing: Some(100),
            tool: None,
        };
        let tools = [("a", cost(10)), ("b", cost(60)), ("c", cost(40))];
        assert_eq!(budget.check_listing(tools[..2].iter().copied()), None);
        let over = budget.check_listing(tools).unwrap();
        assert!(
            over.contains("the 3 tools cost about 110 tokens (440 bytes)")
                && over.contains("the costliest are `b` (60), `c` (40), `a` (10)"),
            "{over}"
        );
    }

    #[test]
    fn an_empty_budget_bounds_nothing() {
        assert_eq!(Budget::default().check_tool("a", cost(u64::MAX / 4)), None);
        assert_eq!(Budget::default().check_listing([("a", cost(1))]), None);
    }
}
