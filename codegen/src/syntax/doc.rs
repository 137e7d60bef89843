//! Doc comments as text.
//!
//! A tool's doc comment is its description; a type's or a field's doc comment
//! is its schema's `title` and `description`. The lines are joined the way
//! schemars joins them (each `///` line loses one leading space; lines are
//! joined with `\n`), so the text is the same whichever side reads it.

use syn::spanned::Spanned;
use syn::{Attribute, Expr, ExprLit, Lit, Meta};

/// The joined text of the `#[doc]` attributes, or `None` when there are none.
/// A doc attribute that is not a string literal (`#[doc = include_str!(..)]`)
/// is an error, because the build script cannot read its text.
pub fn doc_text(attrs: &[Attribute]) -> syn::Result<Option<String>> {
    let mut lines: Vec<String> = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("doc")) {
        let Meta::NameValue(nv) = &attr.meta else {
            continue;
        };
        match &nv.value {
            Expr::Lit(ExprLit {
                lit: Lit::Str(s), ..
            }) => {
                let value = s.value();
                lines.push(value.strip_prefix(' ').map(str::to_owned).unwrap_or(value));
            }
            other => {
                return Err(syn::Error::new(
                    other.span(),
                    "this doc attribute is not a string literal, so tooltable cannot read it at build time; write the text as `///` comments",
                ));
            }
        }
    }
    Ok((!lines.is_empty()).then(|| lines.join("\n")))
}

/// A description: the doc text with surrounding whitespace removed.
pub fn description(doc: &str) -> String {
    doc.trim_matches(|c: char| c.is_ascii_whitespace())
        .to_owned()
}

pub use tooltable_rules::wire::descriptor::summary;

/// Splits doc text into a `title` and a `description` as schemars does: when
/// the trimmed text starts with `#`, its first line (without the `#`s) is the
/// title and the rest is the description.
pub fn title_and_description(doc: &str) -> (String, String) {
    let trimmed = doc.trim_matches(|c: char| c.is_ascii_whitespace());
    if let Some(rest) = trimmed.strip_prefix('#') {
        let (title, description) = rest.split_once('\n').unwrap_or((rest, ""));
        (
            title
                .trim_start_matches('#')
                .trim_matches(|c: char| c.is_ascii_whitespace())
                .to_owned(),
            description
                .trim_matches(|c: char| c.is_ascii_whitespace())
                .to_owned(),
        )
    } else {
        (String::new(), trimmed.to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use syn::parse_quote;

    #[test]
    fn lines_lose_one_leading_space_and_join_with_newlines() {
        let attrs: Vec<Attribute> = vec![
            parse_quote!(#[doc = " Search notes."]),
            parse_quote!(#[doc = ""]),
            parse_quote!(#[doc = "   Indented."]),
        ];
        assert_eq!(
            doc_text(&attrs).unwrap().unwrap(),
            "Search notes.\n\n  Indented."
        );
    }

    #[test]
    fn a_leading_hash_line_is_the_title() {
        assert_eq!(
            title_and_description("# The Title\nMore text.\n"),
            ("The Title".into(), "More text.".into())
        );
        assert_eq!(
            title_and_description("## Only"),
            ("Only".into(), String::new())
        );
        assert_eq!(
            title_and_description("  Plain. "),
            (String::new(), "Plain.".into())
        );
    }

    #[test]
    fn a_doc_attribute_that_is_not_a_literal_is_refused() {
        let attrs: Vec<Attribute> = vec![parse_quote!(#[doc = include_str!("x.md")])];
        assert!(doc_text(&attrs).is_err());
    }
}
