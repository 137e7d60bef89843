//! Quoting what a request sent, in a refusal or a question.
//!
//! A refusal names the value it refused so the caller can fix it, but a
//! request can carry megabytes: quoting it whole would make the reply as
//! large as the attack. Every quote goes through this one limit.

/// `text`, cut to at most `max_chars` characters, ending in `…` when cut.
pub fn shorten(text: &str, max_chars: usize) -> String {
    if text.chars().count() <= max_chars {
        return text.to_owned();
    }
    let mut short: String = text.chars().take(max_chars.saturating_sub(1)).collect();
    short.push('…');
    short
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_quote_is_cut_to_the_limit_with_an_ellipsis() {
        assert_eq!(shorten("abcdef", 4), "abc…");
        assert_eq!(shorten("abcd", 4), "abcd");
        assert_eq!(shorten("ééééé", 3).chars().count(), 3);
    }
}
