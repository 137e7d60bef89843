//! The grammar of `_meta` keys, as the MCP specification defines it.
//!
//! A key is an optional prefix and a name. The prefix is dot-separated labels
//! followed by `/`; each label starts with a letter, ends with a letter or a
//! digit, and holds letters, digits and hyphens between. A prefix whose second
//! label is `mcp` or `modelcontextprotocol` belongs to MCP itself. The name,
//! unless empty, starts and ends with an ASCII letter or digit and holds
//! `-`, `_`, `.` and alphanumerics between. Declarations (`meta(...)`), the
//! crate's namespace and the ingest path all use these functions.

use std::fmt;

/// Why a `_meta` key, prefix or name was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MetaKeyError {
    /// A prefix does not end with `/`.
    PrefixWithoutSlash {
        /// The refused prefix.
        prefix: String,
    },
    /// A label of the prefix is empty (two dots in a row, or a leading dot).
    EmptyLabel {
        /// The refused prefix.
        prefix: String,
    },
    /// A label does not start with a letter, does not end with a letter or a
    /// digit, or holds another character than letters, digits and `-`.
    BadLabel {
        /// The refused prefix.
        prefix: String,
        /// The offending label.
        label: String,
    },
    /// The prefix is reserved for MCP.
    Reserved {
        /// The refused prefix.
        prefix: String,
    },
    /// The name does not start and end with an ASCII letter or digit, or holds
    /// a character other than alphanumerics, `-`, `_` and `.`.
    BadName {
        /// The refused name.
        name: String,
    },
}

impl fmt::Display for MetaKeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MetaKeyError::PrefixWithoutSlash { prefix } => write!(
                f,
                "`_meta` prefix `{prefix}` must end with `/` (for example `com.example/`)"
            ),
            MetaKeyError::EmptyLabel { prefix } => write!(
                f,
                "`_meta` prefix `{prefix}` has an empty label; write labels separated by single dots, such as `com.example/`"
            ),
            MetaKeyError::BadLabel { prefix, label } => write!(
                f,
                "label `{label}` of `_meta` prefix `{prefix}` must start with a letter, end with a letter or digit, and hold only letters, digits and `-`"
            ),
            MetaKeyError::Reserved { prefix } => write!(
                f,
                "`_meta` prefix `{prefix}` is reserved for MCP (its second label is `mcp` or `modelcontextprotocol`); use your own reverse-DNS prefix, such as `com.example/`"
            ),
            MetaKeyError::BadName { name } => write!(
                f,
                "`_meta` name `{name}` must start and end with an ASCII letter or digit and hold only letters, digits, `-`, `_` and `.`"
            ),
        }
    }
}

impl std::error::Error for MetaKeyError {}

fn is_label(label: &str) -> bool {
    let bytes = label.as_bytes();
    match (bytes.first(), bytes.last()) {
        (Some(first), Some(last)) => {
            first.is_ascii_alphabetic()
                && last.is_ascii_alphanumeric()
                && bytes
                    .iter()
                    .all(|b| b.is_ascii_alphanumeric() || *b == b'-')
        }
        _ => false,
    }
}

/// Checks a prefix such as `com.example/`, including the reservation for MCP.
pub fn validate_prefix(prefix: &str) -> Result<(), MetaKeyError> {
    let owned = || prefix.to_owned();
    let labels = prefix
        .strip_suffix('/')
        .ok_or_else(|| MetaKeyError::PrefixWithoutSlash { prefix: owned() })?;
    for label in labels.split('.') {
        if label.is_empty() {
            return Err(MetaKeyError::EmptyLabel { prefix: owned() });
        }
        if !is_label(label) {
            return Err(MetaKeyError::BadLabel {
                prefix: owned(),
                label: label.to_owned(),
            });
        }
    }
    if is_reserved_prefix(prefix) {
        return Err(MetaKeyError::Reserved { prefix: owned() });
    }
    Ok(())
}

/// Whether the prefix's second label is `mcp` or `modelcontextprotocol`.
pub fn is_reserved_prefix(prefix: &str) -> bool {
    let labels = prefix.strip_suffix('/').unwrap_or(prefix);
    matches!(
        labels.split('.').nth(1),
        Some("mcp" | "modelcontextprotocol")
    )
}

/// Checks the name part of a key. The empty name is allowed, as in the
/// specification.
pub fn validate_name(name: &str) -> Result<(), MetaKeyError> {
    let bytes = name.as_bytes();
    let ok = match (bytes.first(), bytes.last()) {
        (None, None) => true,
        (Some(first), Some(last)) => {
            first.is_ascii_alphanumeric()
                && last.is_ascii_alphanumeric()
                && bytes
                    .iter()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        }
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(MetaKeyError::BadName {
            name: name.to_owned(),
        })
    }
}

/// Checks a whole key: `name` or `prefix/name`. A key written by a server
/// author may not use a reserved prefix.
pub fn validate_key(key: &str) -> Result<(), MetaKeyError> {
    match key.rfind('/') {
        Some(slash) => {
            validate_prefix(&key[..=slash])?;
            validate_name(&key[slash + 1..])
        }
        None => validate_name(key),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reverse_dns_prefixes_are_accepted() {
        for prefix in [
            "com.example/",
            "dev.tooltable/",
            "a/",
            "io.github.my-org/",
            "com.example.mcp/",
        ] {
            assert_eq!(validate_prefix(prefix), Ok(()), "{prefix}");
        }
    }

    #[test]
    fn prefixes_whose_second_label_is_mcp_are_reserved() {
        for prefix in [
            "io.modelcontextprotocol/",
            "dev.mcp/",
            "org.modelcontextprotocol.api/",
            "com.mcp.tools/",
        ] {
            assert_eq!(
                validate_prefix(prefix),
                Err(MetaKeyError::Reserved {
                    prefix: prefix.into()
                }),
                "{prefix}"
            );
        }
    }

    #[test]
    fn malformed_prefixes_are_refused_with_their_reason() {
        assert!(matches!(
            validate_prefix("com.example"),
            Err(MetaKeyError::PrefixWithoutSlash { .. })
        ));
        assert!(matches!(
            validate_prefix("com..example/"),
            Err(MetaKeyError::EmptyLabel { .. })
        ));
        assert!(matches!(
            validate_prefix("1com.example/"),
            Err(MetaKeyError::BadLabel { .. })
        ));
        assert!(matches!(
            validate_prefix("com.example-/"),
            Err(MetaKeyError::BadLabel { .. })
        ));
        assert!(matches!(
            validate_prefix("com.ex_ample/"),
            Err(MetaKeyError::BadLabel { .. })
        ));
    }

    #[test]
    fn names_start_and_end_alphanumeric_and_may_be_empty() {
        for name in ["", "a", "audience", "rate.limit-v2_x", "9"] {
            assert_eq!(validate_name(name), Ok(()), "{name}");
        }
        for name in ["-a", "a-", "a b", "_x", "x.", "é"] {
            assert!(validate_name(name).is_err(), "{name}");
        }
    }

    #[test]
    fn whole_keys_split_at_the_last_slash() {
        assert_eq!(validate_key("com.example/audience"), Ok(()));
        assert_eq!(validate_key("progressToken"), Ok(()));
        assert!(validate_key("io.modelcontextprotocol/clientInfo").is_err());
        assert!(validate_key("com.example/-x").is_err());
    }
}
