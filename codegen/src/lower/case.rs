//! serde's `rename_all` rules, exactly as serde applies them.
//!
//! Field names are converted from snake_case and variant names from
//! PascalCase, the way serde's derive does, so a renamed property in the
//! schema is the name the deserializer accepts.

/// One `rename_all` rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RenameRule {
    /// `lowercase`
    Lower,
    /// `UPPERCASE`
    Upper,
    /// `PascalCase`
    Pascal,
    /// `camelCase`
    Camel,
    /// `snake_case`
    Snake,
    /// `SCREAMING_SNAKE_CASE`
    ScreamingSnake,
    /// `kebab-case`
    Kebab,
    /// `SCREAMING-KEBAB-CASE`
    ScreamingKebab,
}

impl RenameRule {
    /// Every rule with its spelling in `#[serde(rename_all = "...")]`.
    pub const ALL: [(&'static str, RenameRule); 8] = [
        ("lowercase", RenameRule::Lower),
        ("UPPERCASE", RenameRule::Upper),
        ("PascalCase", RenameRule::Pascal),
        ("camelCase", RenameRule::Camel),
        ("snake_case", RenameRule::Snake),
        ("SCREAMING_SNAKE_CASE", RenameRule::ScreamingSnake),
        ("kebab-case", RenameRule::Kebab),
        ("SCREAMING-KEBAB-CASE", RenameRule::ScreamingKebab),
    ];

    /// Parses a rule's spelling.
    pub fn parse(text: &str) -> Option<RenameRule> {
        RenameRule::ALL
            .iter()
            .find(|(s, _)| *s == text)
            .map(|(_, r)| *r)
    }

    /// Converts a variant name (written in PascalCase).
    pub fn apply_to_variant(self, variant: &str) -> String {
        match self {
            RenameRule::Pascal => variant.to_owned(),
            RenameRule::Lower => variant.to_ascii_lowercase(),
            RenameRule::Upper => variant.to_ascii_uppercase(),
            RenameRule::Camel => {
                let mut chars = variant.chars();
                match chars.next() {
                    Some(first) => first.to_ascii_lowercase().to_string() + chars.as_str(),
                    None => String::new(),
                }
            }
            RenameRule::Snake => {
                let mut snake = String::new();
                for (i, ch) in variant.char_indices() {
                    if i > 0 && ch.is_uppercase() {
                        snake.push('_');
                    }
                    snake.push(ch.to_ascii_lowercase());
                }
                snake
            }
            RenameRule::ScreamingSnake => RenameRule::Snake
                .apply_to_variant(variant)
                .to_ascii_uppercase(),
            RenameRule::Kebab => RenameRule::Snake
                .apply_to_variant(variant)
                .replace('_', "-"),
            RenameRule::ScreamingKebab => RenameRule::ScreamingSnake
                .apply_to_variant(variant)
                .replace('_', "-"),
        }
    }

    /// Converts a field name (written in snake_case).
    pub fn apply_to_field(self, field: &str) -> String {
        match self {
            RenameRule::Lower | RenameRule::Snake => field.to_owned(),
            RenameRule::Upper => field.to_ascii_uppercase(),
            RenameRule::Pascal => {
                let mut pascal = String::new();
                let mut capitalize = true;
                for ch in field.chars() {
                    if ch == '_' {
                        capitalize = true;
                    } else if capitalize {
                        pascal.push(ch.to_ascii_uppercase());
                        capitalize = false;
                    } else {
                        pascal.push(ch);
                    }
                }
                pascal
            }
            RenameRule::Camel => {
                let pascal = RenameRule::Pascal.apply_to_field(field);
                let mut chars = pascal.chars();
                match chars.next() {
                    Some(first) => first.to_ascii_lowercase().to_string() + chars.as_str(),
                    None => String::new(),
                }
            }
            RenameRule::ScreamingSnake => field.to_ascii_uppercase(),
            RenameRule::Kebab => field.replace('_', "-"),
            RenameRule::ScreamingKebab => RenameRule::ScreamingSnake
                .apply_to_field(field)
                .replace('_', "-"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_convert_from_pascal_case_as_serde_does() {
        let cases = [
            (RenameRule::Lower, "veryTasty", "verytasty"),
            (RenameRule::Upper, "VeryTasty", "VERYTASTY"),
            (RenameRule::Camel, "VeryTasty", "veryTasty"),
            (RenameRule::Snake, "VeryTasty", "very_tasty"),
            (RenameRule::ScreamingSnake, "VeryTasty", "VERY_TASTY"),
            (RenameRule::Kebab, "VeryTasty", "very-tasty"),
            (RenameRule::ScreamingKebab, "VeryTasty", "VERY-TASTY"),
            (RenameRule::Snake, "A", "a"),
        ];
        for (rule, input, expected) in cases {
            assert_eq!(rule.apply_to_variant(input), expected, "{rule:?}");
        }
    }

    #[test]
    fn fields_convert_from_snake_case_as_serde_does() {
        let cases = [
            (RenameRule::Upper, "very_tasty", "VERY_TASTY"),
            (RenameRule::Pascal, "very_tasty", "VeryTasty"),
            (RenameRule::Camel, "very_tasty", "veryTasty"),
            (RenameRule::ScreamingSnake, "very_tasty", "VERY_TASTY"),
            (RenameRule::Kebab, "very_tasty", "very-tasty"),
            (RenameRule::ScreamingKebab, "very_tasty", "VERY-TASTY"),
            (RenameRule::Camel, "a", "a"),
        ];
        for (rule, input, expected) in cases {
            assert_eq!(rule.apply_to_field(input), expected, "{rule:?}");
        }
    }
}
