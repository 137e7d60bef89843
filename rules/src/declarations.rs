//! Declarations: inert facts about a tool that travel in its `_meta`.
//!
//! A tool's `meta(...)` entries are declarations: facts a client-side check
//! may read (an audience, a cost class), never anything that governs
//! execution. They travel under one namespaced key of the descriptor's
//! `_meta`, copied verbatim; the bag is omitted when empty. The same rule
//! checks a declaration where it is written (the `#[tool]` grammar), where a
//! provider registers it, and where a gateway ingests another server's tools
//! (`serve::ingest`).

use crate::meta_keys::{self, MetaKeyError};
use serde_json::Value;
use std::fmt;

/// Why a declaration is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeclarationError {
    /// The name breaks the `_meta` name grammar, or is empty.
    Name(MetaKeyError),
    /// The value is not a literal (string, number, boolean, or a flat list of them).
    Value {
        /// The declaration's name.
        name: String,
    },
}

impl fmt::Display for DeclarationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DeclarationError::Name(e) => write!(f, "{e}"),
            DeclarationError::Value { name } => write!(
                f,
                "declaration `{name}` must be a string, a number, a boolean, or a list of these"
            ),
        }
    }
}

impl std::error::Error for DeclarationError {}

fn is_scalar(value: &Value) -> bool {
    matches!(value, Value::String(_) | Value::Number(_) | Value::Bool(_))
}

/// The rule every declaration follows: a non-empty `_meta` name, and a
/// literal value.
pub fn validate_declaration(name: &str, value: &Value) -> Result<(), DeclarationError> {
    if name.is_empty() {
        return Err(DeclarationError::Name(MetaKeyError::BadName {
            name: String::new(),
        }));
    }
    meta_keys::validate_name(name).map_err(DeclarationError::Name)?;
    let ok = match value {
        Value::Array(items) => items.iter().all(is_scalar),
        other => is_scalar(other),
    };
    if ok {
        Ok(())
    } else {
        Err(DeclarationError::Value {
            name: name.to_owned(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn declarations_are_literals_under_meta_names() {
        assert_eq!(validate_declaration("audience", &json!("internal")), Ok(()));
        assert_eq!(validate_declaration("tags", &json!(["a", 1, true])), Ok(()));
        assert!(validate_declaration("-x", &json!(1)).is_err());
        assert!(validate_declaration("", &json!(1)).is_err());
        assert!(validate_declaration("nested", &json!({"a": 1})).is_err());
        assert!(validate_declaration("deep", &json!([[1]])).is_err());
        assert!(validate_declaration("nothing", &json!(null)).is_err());
    }
}
