//! Pins: the tools a conversation started with, by fingerprint.
//!
//! A new conversation can pin the safe tools it may see: read-only, not
//! destructive, closed-world (an open-world tool only when the server names
//! it as an exception), and on the caller's allowlist. Each pin is the tool's
//! fingerprint at that moment. Later listings and calls in the conversation
//! verify the pins against the live fingerprints, so a tool whose
//! definition or permission changed mid-conversation is refused rather than
//! silently swapped.

use crate::rules::limits::{MAX_PIN_NAME_BYTES, MAX_PINS};
use crate::wire::fingerprint::Fingerprint;
use std::collections::BTreeMap;
use std::fmt;

/// Tool name to fingerprint, for one conversation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pins(BTreeMap<String, Fingerprint>);

impl Pins {
    /// Pins from pairs, checked against the limits.
    pub fn new(
        pins: impl IntoIterator<Item = (String, Fingerprint)>,
    ) -> Result<Pins, SnapshotError> {
        let map: BTreeMap<String, Fingerprint> = pins.into_iter().collect();
        if let Some(name) = map.keys().find(|n| n.len() > MAX_PIN_NAME_BYTES) {
            return Err(SnapshotError::NameTooLong { name: name.clone() });
        }
        if map.len() > MAX_PINS {
            return Err(SnapshotError::TooMany { count: map.len() });
        }
        if map.is_empty() {
            return Err(SnapshotError::Empty);
        }
        Ok(Pins(map))
    }

    /// The pinned fingerprint of `tool`.
    pub fn get(&self, tool: &str) -> Option<&Fingerprint> {
        self.0.get(tool)
    }

    /// Whether `tool` is pinned.
    pub fn contains(&self, tool: &str) -> bool {
        self.0.contains_key(tool)
    }

    /// The pins, in name order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Fingerprint)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// How many tools are pinned.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether no tool is pinned (never true for pins made by [`Pins::new`]).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Why pins could not be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SnapshotError {
    /// No tool qualified.
    Empty,
    /// More tools qualified than a conversation may pin.
    TooMany {
        /// How many qualified.
        count: usize,
    },
    /// A qualifying tool's name is too long to pin.
    NameTooLong {
        /// The name.
        name: String,
    },
}

impl fmt::Display for SnapshotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SnapshotError::Empty => f.write_str(
                "no tool qualifies for pinning: a pinned tool must be visible to the caller, read-only, not destructive, closed-world (or named as an open-world exception), and on the allowlist",
            ),
            SnapshotError::TooMany { count } => write!(
                f,
                "{count} tools qualify for pinning, more than the {MAX_PINS} a conversation may pin; narrow the allowlist"
            ),
            SnapshotError::NameTooLong { name } => write!(
                f,
                "tool `{name}` has a name longer than the {MAX_PIN_NAME_BYTES} bytes a pin may hold; leave it off the allowlist"
            ),
        }
    }
}

impl std::error::Error for SnapshotError {}

/// The sentence a changed pinned tool is refused with.
pub fn changed_sentence(tool: &str, pinned: &Fingerprint, live: &Fingerprint) -> String {
    format!(
        "{tool} changed since this conversation pinned it (pinned {}, now {}); start a new conversation to use the new definition",
        pinned.short(),
        live.short()
    )
}

/// The sentence a tool outside a conversation's pins is refused with.
pub fn unpinned_sentence(tool: &str) -> String {
    format!(
        "{tool} is not among the tools this conversation pinned; start a new conversation to use it"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fp(byte: u8) -> Fingerprint {
        Fingerprint::from_bytes([byte; 32])
    }

    #[test]
    fn pins_are_limited_in_count_and_name_length_and_cannot_be_empty() {
        assert_eq!(Pins::new([]), Err(SnapshotError::Empty));
        let many = (0..=MAX_PINS).map(|i| (format!("t{i}"), fp(1)));
        assert_eq!(
            Pins::new(many),
            Err(SnapshotError::TooMany {
                count: MAX_PINS + 1
            })
        );
        let long = "n".repeat(MAX_PIN_NAME_BYTES + 1);
        assert!(matches!(
            Pins::new([(long, fp(1))]),
            Err(SnapshotError::NameTooLong { .. })
        ));
        let pins = Pins::new([("a".to_owned(), fp(1))]).unwrap();
        assert_eq!(pins.get("a"), Some(&fp(1)));
    }
}
