//! Quoting what a request sent, in a reply, a question or a log line.
//!
//! A refusal names the value it refused so the caller can fix it, but a
//! request can carry megabytes: quoting it whole would make the reply, and
//! the log line, as large as the attack. Every quote of a request value (a
//! tool name, an argument, a cursor, a member name, a parser's message about
//! them) goes through this one rule: at most [`MAX_QUOTED_CHARS`]
//! characters, with the middle left out (`…`), so that both how the value
//! starts and how it ends survive (a parser's "invalid type: string \"…\",
//! expected u32" keeps what was expected).

use std::borrow::Cow;

/// The most characters of a request value a reply or a log line quotes.
pub const MAX_QUOTED_CHARS: usize = 256;

/// `text` as a reply or a log line quotes it: whole when short, otherwise
/// its start and its end around `…`, [`MAX_QUOTED_CHARS`] characters in all.
pub fn text(text: &str) -> Cow<'_, str> {
    shorten(text, MAX_QUOTED_CHARS)
}

/// `text` in at most `max_chars` characters: whole when it fits, otherwise
/// its start and its end around `…`. For the few places that show a person
/// more than a reply quotes (the arguments of a call they are asked to
/// allow); everything else uses [`text`].
pub fn shorten(text: &str, max_chars: usize) -> Cow<'_, str> {
    // Bytes bound characters from above: most texts are decided here
    // without counting.
    if text.len() <= max_chars || text.chars().count() <= max_chars {
        return Cow::Borrowed(text);
    }
    let kept = max_chars.saturating_sub(1);
    let (head, tail) = (kept - kept / 2, kept / 2);
    let start = text.char_indices().nth(head).map_or(text.len(), |(i, _)| i);
    let end = text
        .char_indices()
        .rev()
        .nth(tail.saturating_sub(1))
        .map_or(text.len(), |(i, _)| i);
    let mut short = String::with_capacity(start + 3 + (text.len() - end));
    short.push_str(&text[..start]);
    short.push('…');
    if tail > 0 {
        short.push_str(&text[end..]);
    }
    Cow::Owned(short)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_text_is_quoted_whole_without_a_copy() {
        assert!(matches!(text("notes_get"), Cow::Borrowed("notes_get")));
        let exactly = "é".repeat(MAX_QUOTED_CHARS);
        assert!(matches!(text(&exactly), Cow::Borrowed(_)));
    }

    #[test]
    fn a_long_text_keeps_its_start_and_its_end_around_an_ellipsis() {
        assert_eq!(shorten("abcdefgh", 5), "ab…gh");
        assert_eq!(shorten("abcdefgh", 4), "ab…h");
        assert_eq!(shorten("abcdefgh", 2), "a…");
        assert_eq!(shorten("abcdefgh", 8), "abcdefgh");
        let quoted = shorten("ééééééééé", 4);
        assert_eq!((quoted.as_ref(), quoted.chars().count()), ("éé…é", 4));
    }

    #[test]
    fn a_parsers_message_about_a_huge_value_keeps_what_was_expected() {
        let message = format!(
            "invalid type: string \"{}\", expected u32",
            "a".repeat(2 << 20)
        );
        let quoted = text(&message);
        assert_eq!(quoted.chars().count(), MAX_QUOTED_CHARS);
        assert!(quoted.starts_with("invalid type: string \"aaa"), "{quoted}");
        assert!(quoted.ends_with("aaa\", expected u32"), "{quoted}");
    }
}
