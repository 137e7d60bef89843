//! Search hints: words a client's tool search should find a tool by.
//!
//! Clients that defer tools until a search finds them (Claude Code's tool
//! search among them) rank the deferred tools by their names and
//! descriptions, and read extra words from the descriptor's `_meta` under
//! [`KEY`]. A hint is words for a ranker, one line of them: a line break or
//! another control character in it is a mistake the build reports, since
//! the client's index would read it as text.

/// The `_meta` key a search hint is served under.
pub const KEY: &str = "anthropic/searchHint";

/// Why a search hint was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchHintError {
    /// No words at all.
    Empty,
    /// A character that is not text: a line break, a tab or another control
    /// character.
    Control {
        /// The character, as Rust escapes it.
        escaped: String,
        /// Its place among the hint's characters, from 1.
        at: usize,
    },
}

impl std::fmt::Display for SearchHintError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SearchHintError::Empty => {
                write!(
                    f,
                    "a search hint is empty; give the words a search should find the tool by, or leave it out"
                )
            }
            SearchHintError::Control { escaped, at } => write!(
                f,
                "a search hint is one line of words, but character {at} is `{escaped}`; write the words on one line, separated by spaces"
            ),
        }
    }
}

impl std::error::Error for SearchHintError {}

/// Checks a search hint: words on one line, without control characters.
pub fn check(hint: &str) -> Result<(), SearchHintError> {
    if hint.trim().is_empty() {
        return Err(SearchHintError::Empty);
    }
    match hint.chars().enumerate().find(|(_, c)| c.is_control()) {
        Some((index, c)) => Err(SearchHintError::Control {
            escaped: c.escape_default().to_string(),
            at: index + 1,
        }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_on_one_line_are_a_hint() {
        assert_eq!(check("memo jot remember todo"), Ok(()));
        assert_eq!(check("notizen ノート"), Ok(()));
    }

    #[test]
    fn a_hint_of_nothing_but_spaces_is_refused() {
        assert_eq!(check(" \u{3000}"), Err(SearchHintError::Empty));
    }

    #[test]
    fn a_line_break_or_a_tab_is_refused_where_it_stands() {
        assert_eq!(
            check("memo\njot"),
            Err(SearchHintError::Control {
                escaped: "\\n".into(),
                at: 5
            })
        );
        let refused = check("ノート\tjot").unwrap_err();
        assert_eq!(
            refused.to_string(),
            "a search hint is one line of words, but character 4 is `\\t`; write the words on one line, separated by spaces"
        );
    }
}
