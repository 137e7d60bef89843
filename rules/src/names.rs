//! Tool names: the one rule for what a valid name is.
//!
//! The MCP specification allows 1–128 characters of `A-Z a-z 0-9 _ - .`, but the
//! official conformance suite checks 1–64 and the OpenAI and Anthropic function
//! formats forbid `.`. The default profile is therefore the portable one; the
//! specification's own rule is an opt-in. The build script, the macro and the
//! run-time provider path all call [`validate_name`], so they cannot disagree.

use std::fmt;

/// Which set of names a crate accepts, chosen with `names = "..."` in
/// `[package.metadata.tooltable]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum NameProfile {
    /// `^[A-Za-z0-9_-]{1,64}$`: accepted by MCP clients, the conformance suite,
    /// and the OpenAI and Anthropic function-calling formats.
    #[default]
    Portable,
    /// `^[A-Za-z0-9_.-]{1,128}$`: the MCP specification's own rule.
    Mcp,
}

impl NameProfile {
    /// Every profile, in the order the documentation lists them.
    pub const ALL: [NameProfile; 2] = [NameProfile::Portable, NameProfile::Mcp];

    /// The spelling used in `[package.metadata.tooltable]`.
    pub const fn as_str(self) -> &'static str {
        match self {
            NameProfile::Portable => "portable",
            NameProfile::Mcp => "mcp",
        }
    }

    /// Parses the spelling used in `[package.metadata.tooltable]`.
    pub fn parse(text: &str) -> Option<NameProfile> {
        NameProfile::ALL.into_iter().find(|p| p.as_str() == text)
    }

    /// The longest name the profile accepts, in characters.
    pub const fn max_len(self) -> usize {
        match self {
            NameProfile::Portable => 64,
            NameProfile::Mcp => 128,
        }
    }

    /// Whether `c` may appear in a name under this profile.
    pub const fn allows(self, c: char) -> bool {
        match c {
            'A'..='Z' | 'a'..='z' | '0'..='9' | '_' | '-' => true,
            '.' => matches!(self, NameProfile::Mcp),
            _ => false,
        }
    }
}

impl fmt::Display for NameProfile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

/// Why a tool name was refused. Each variant's message is a sentence that says
/// how to fix it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NameError {
    /// The name is the empty string.
    Empty,
    /// The name holds a character the profile does not allow.
    BadChar {
        /// The refused name.
        name: String,
        /// The first character that is not allowed.
        ch: char,
        /// Its position, counted in characters from 1.
        position: usize,
        /// The profile in force.
        profile: NameProfile,
    },
    /// The name is longer than the profile allows.
    TooLong {
        /// The refused name.
        name: String,
        /// Its length in characters.
        len: usize,
        /// The profile in force.
        profile: NameProfile,
    },
    /// The name starts with none of the prefixes the crate requires.
    MissingPrefix {
        /// The refused name.
        name: String,
        /// The prefixes the crate requires.
        prefixes: Vec<String>,
    },
}

impl fmt::Display for NameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NameError::Empty => {
                f.write_str("the tool name is empty; a tool name needs at least one character")
            }
            NameError::BadChar {
                name,
                ch,
                position,
                profile,
            } => {
                write!(
                    f,
                    "tool name `{name}` contains {ch:?} at character {position}, which the {profile} profile does not allow; "
                )?;
                match profile {
                    NameProfile::Portable if *ch == '.' => f.write_str(
                        "use `_` or `-` instead, or set `names = \"mcp\"` in [package.metadata.tooltable] to allow `.`",
                    ),
                    NameProfile::Portable => {
                        f.write_str("use only ASCII letters, digits, `_` and `-`")
                    }
                    NameProfile::Mcp => {
                        f.write_str("use only ASCII letters, digits, `_`, `-` and `.`")
                    }
                }
            }
            NameError::TooLong { name, len, profile } => {
                let max = profile.max_len();
                write!(
                    f,
                    "tool name `{name}` is {len} characters, longer than the {max} characters the {profile} profile allows; "
                )?;
                match profile {
                    NameProfile::Portable => f.write_str(
                        "shorten it, or set `names = \"mcp\"` in [package.metadata.tooltable] to allow up to 128",
                    ),
                    NameProfile::Mcp => f.write_str("shorten it"),
                }
            }
            NameError::MissingPrefix { name, prefixes } => {
                let list = prefixes
                    .iter()
                    .map(|p| format!("`{p}`"))
                    .collect::<Vec<_>>()
                    .join(", ");
                let example = prefixes.first().map(String::as_str).unwrap_or_default();
                write!(
                    f,
                    "tool name `{name}` does not start with a required prefix ({list}); rename it (for example `{example}{name}`) or change `prefixes` in [package.metadata.tooltable]"
                )
            }
        }
    }
}

impl std::error::Error for NameError {}

/// Checks `name` against `profile` and, when `prefixes` is not empty, requires
/// it to start with one of them.
///
/// Names are case-sensitive, as the specification recommends. The checks run
/// in a fixed order (empty, characters, length, prefix) so a name gets the
/// same error wherever it is checked.
pub fn validate_name<P: AsRef<str>>(
    name: &str,
    profile: NameProfile,
    prefixes: &[P],
) -> Result<(), NameError> {
    if name.is_empty() {
        return Err(NameError::Empty);
    }
    if let Some((index, ch)) = name.chars().enumerate().find(|(_, c)| !profile.allows(*c)) {
        return Err(NameError::BadChar {
            name: name.to_owned(),
            ch,
            position: index + 1,
            profile,
        });
    }
    let len = name.chars().count();
    if len > profile.max_len() {
        return Err(NameError::TooLong {
            name: name.to_owned(),
            len,
            profile,
        });
    }
    if !prefixes.is_empty() && !prefixes.iter().any(|p| name.starts_with(p.as_ref())) {
        return Err(NameError::MissingPrefix {
            name: name.to_owned(),
            prefixes: prefixes.iter().map(|p| p.as_ref().to_owned()).collect(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const NONE: &[&str] = &[];

    #[test]
    fn portable_names_of_one_to_sixty_four_word_characters_are_accepted() {
        for name in [
            "a",
            "getUser",
            "DATA_EXPORT_v2",
            "notes-search",
            &"x".repeat(64),
        ] {
            assert_eq!(
                validate_name(name, NameProfile::Portable, NONE),
                Ok(()),
                "{name}"
            );
        }
    }

    #[test]
    fn the_mcp_profile_accepts_dots_and_up_to_one_hundred_twenty_eight_characters() {
        for name in ["admin.tools.list", &"y".repeat(128)] {
            assert_eq!(
                validate_name(name, NameProfile::Mcp, NONE),
                Ok(()),
                "{name}"
            );
        }
    }

    #[test]
    fn an_empty_name_is_refused() {
        let err = validate_name("", NameProfile::Portable, NONE).unwrap_err();
        assert_eq!(err, NameError::Empty);
    }

    #[test]
    fn a_space_is_refused_with_its_position() {
        let err = validate_name("bad name", NameProfile::Portable, NONE).unwrap_err();
        assert_eq!(
            err.to_string(),
            "tool name `bad name` contains ' ' at character 4, which the portable profile does not allow; use only ASCII letters, digits, `_` and `-`"
        );
    }

    #[test]
    fn a_dot_under_the_portable_profile_points_to_the_mcp_profile() {
        let err = validate_name("a.b", NameProfile::Portable, NONE).unwrap_err();
        assert!(err.to_string().contains("set `names = \"mcp\"`"), "{err}");
    }

    #[test]
    fn a_sixty_five_character_name_is_too_long_for_the_portable_profile() {
        let name = "n".repeat(65);
        let err = validate_name(&name, NameProfile::Portable, NONE).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "tool name `{name}` is 65 characters, longer than the 64 characters the portable profile allows; shorten it, or set `names = \"mcp\"` in [package.metadata.tooltable] to allow up to 128"
            )
        );
    }

    #[test]
    fn a_name_longer_than_one_hundred_twenty_eight_is_too_long_for_the_mcp_profile() {
        let name = "n".repeat(129);
        let err = validate_name(&name, NameProfile::Mcp, NONE).unwrap_err();
        assert!(matches!(err, NameError::TooLong { len: 129, .. }));
    }

    #[test]
    fn non_ascii_letters_are_refused() {
        let err = validate_name("café", NameProfile::Mcp, NONE).unwrap_err();
        assert!(matches!(
            err,
            NameError::BadChar {
                ch: 'é',
                position: 4,
                ..
            }
        ));
    }

    #[test]
    fn names_are_case_sensitive_and_need_a_required_prefix() {
        assert_eq!(
            validate_name("notes_get", NameProfile::Portable, &["notes_"]),
            Ok(())
        );
        let err =
            validate_name("Notes_get", NameProfile::Portable, &["notes_", "admin_"]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "tool name `Notes_get` does not start with a required prefix (`notes_`, `admin_`); rename it (for example `notes_Notes_get`) or change `prefixes` in [package.metadata.tooltable]"
        );
    }

    #[test]
    fn profiles_round_trip_through_their_spelling() {
        for profile in NameProfile::ALL {
            assert_eq!(NameProfile::parse(profile.as_str()), Some(profile));
        }
        assert_eq!(NameProfile::parse("strict"), None);
    }
}
