//! Descriptor and inventory fingerprints.
//!
//! A fingerprint says "this is exactly the tool a client saw": SHA-256 over a
//! domain-separation prefix and the canonical JSON (RFC 8785) of
//! `{"descriptor": D, "permission": P}`, written `sha256:<64 hex>`. The prefix
//! keeps a descriptor hash from ever colliding with another kind of hash that
//! happens to cover the same bytes, and carries the recipe's version. The
//! inventory fingerprint covers the sorted list of `[name, fingerprint]` pairs,
//! so one string says whether a whole tool surface changed. The recipe is
//! documented in `docs/manifest.md`; nothing but the descriptor and the
//! permission enters it.

use crate::wire::canonical::canonical_json;
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};
use std::fmt;
use std::str::FromStr;

/// The domain-separation prefix of a descriptor fingerprint.
pub const DESCRIPTOR_DOMAIN: &[u8] = b"tooltable/fingerprint/v1\n";
/// The domain-separation prefix of an inventory fingerprint.
pub const INVENTORY_DOMAIN: &[u8] = b"tooltable/inventory/v1\n";

const TEXT_PREFIX: &str = "sha256:";

/// A SHA-256 fingerprint, shown as `sha256:<64 lowercase hex digits>`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Fingerprint([u8; 32]);

impl Fingerprint {
    /// Wraps raw digest bytes (as baked into a generated table).
    pub const fn from_bytes(bytes: [u8; 32]) -> Fingerprint {
        Fingerprint(bytes)
    }

    /// The raw digest bytes.
    pub const fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// The first twelve hex digits, enough to tell tools apart in a table or a log.
    pub fn short(&self) -> String {
        let mut text = self.hex();
        text.truncate(12);
        text
    }

    /// The 64 lowercase hex digits, without the `sha256:` prefix.
    pub fn hex(&self) -> String {
        const DIGITS: &[u8; 16] = b"0123456789abcdef";
        let mut text = String::with_capacity(64);
        for byte in self.0 {
            text.push(DIGITS[usize::from(byte >> 4)] as char);
            text.push(DIGITS[usize::from(byte & 0x0f)] as char);
        }
        text
    }

    fn digest(domain: &[u8], body: &[u8]) -> Fingerprint {
        let mut hasher = Sha256::new();
        hasher.update(domain);
        hasher.update(body);
        Fingerprint(hasher.finalize().into())
    }
}

impl fmt::Display for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{TEXT_PREFIX}{}", self.hex())
    }
}

impl fmt::Debug for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Fingerprint({self})")
    }
}

/// Why a string is not a fingerprint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseFingerprintError(String);

impl fmt::Display for ParseFingerprintError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not a fingerprint; expected `sha256:` followed by 64 lowercase hex digits",
            self.0
        )
    }
}

impl std::error::Error for ParseFingerprintError {}

impl FromStr for Fingerprint {
    type Err = ParseFingerprintError;

    fn from_str(text: &str) -> Result<Fingerprint, ParseFingerprintError> {
        let err = || ParseFingerprintError(text.to_owned());
        let hex = text.strip_prefix(TEXT_PREFIX).ok_or_else(err)?;
        if hex.len() != 64 {
            return Err(err());
        }
        let mut bytes = [0u8; 32];
        for (byte, pair) in bytes.iter_mut().zip(hex.as_bytes().chunks(2)) {
            let nibble = |c: u8| match c {
                b'0'..=b'9' => Some(c - b'0'),
                b'a'..=b'f' => Some(c - b'a' + 10),
                _ => None,
            };
            *byte = (nibble(pair[0]).ok_or_else(err)? << 4) | nibble(pair[1]).ok_or_else(err)?;
        }
        Ok(Fingerprint(bytes))
    }
}

/// The fingerprint of a tool: its descriptor exactly as `tools/list` serves it,
/// and its permission (`None` when the tool needs none).
pub fn descriptor_fingerprint(descriptor: &Value, permission: Option<&str>) -> Fingerprint {
    let mut subject = Map::new();
    subject.insert("descriptor".into(), descriptor.clone());
    subject.insert(
        "permission".into(),
        permission.map_or(Value::Null, |p| Value::String(p.to_owned())),
    );
    Fingerprint::digest(DESCRIPTOR_DOMAIN, &canonical_json(&Value::Object(subject)))
}

/// The fingerprint of a whole tool surface: the `[name, fingerprint]` pairs,
/// sorted by name (byte order), whatever order they are given in.
pub fn inventory_fingerprint<'a, I>(tools: I) -> Fingerprint
where
    I: IntoIterator<Item = (&'a str, &'a Fingerprint)>,
{
    let mut pairs: Vec<(&str, &Fingerprint)> = tools.into_iter().collect();
    pairs.sort_by(|a, b| a.0.cmp(b.0));
    let list = pairs
        .into_iter()
        .map(|(name, fp)| Value::Array(vec![name.into(), fp.to_string().into()]))
        .collect();
    Fingerprint::digest(INVENTORY_DOMAIN, &canonical_json(&Value::Array(list)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_fingerprint_is_sha256_over_the_domain_and_the_canonical_subject() {
        let descriptor = json!({"name": "t", "inputSchema": {"type": "object"}});
        let mut hasher = Sha256::new();
        hasher.update(b"tooltable/fingerprint/v1\n");
        hasher.update(
            br#"{"descriptor":{"inputSchema":{"type":"object"},"name":"t"},"permission":null}"#,
        );
        let expected = Fingerprint(hasher.finalize().into());
        assert_eq!(descriptor_fingerprint(&descriptor, None), expected);
    }

    #[test]
    fn the_permission_changes_the_fingerprint() {
        let descriptor = json!({"name": "t"});
        assert_ne!(
            descriptor_fingerprint(&descriptor, None),
            descriptor_fingerprint(&descriptor, Some("notes.delete"))
        );
    }

    #[test]
    fn key_order_does_not_change_the_fingerprint() {
        let a: Value = serde_json::from_str(r#"{"name":"t","description":"d"}"#).unwrap();
        let b: Value = serde_json::from_str(r#"{"description":"d","name":"t"}"#).unwrap();
        assert_eq!(
            descriptor_fingerprint(&a, None),
            descriptor_fingerprint(&b, None)
        );
    }

    #[test]
    fn the_inventory_ignores_the_order_it_is_given_in() {
        let x = descriptor_fingerprint(&json!({"name": "x"}), None);
        let y = descriptor_fingerprint(&json!({"name": "y"}), None);
        assert_eq!(
            inventory_fingerprint([("x", &x), ("y", &y)]),
            inventory_fingerprint([("y", &y), ("x", &x)])
        );
    }

    #[test]
    fn a_fingerprint_round_trips_through_its_text() {
        let fp = descriptor_fingerprint(&json!({"name": "x"}), None);
        let text = fp.to_string();
        assert!(text.starts_with("sha256:") && text.len() == 71);
        assert_eq!(text.parse::<Fingerprint>(), Ok(fp));
        assert_eq!(fp.short().len(), 12);
    }

    #[test]
    fn malformed_fingerprint_text_is_refused() {
        for text in [
            "",
            "sha256:",
            "md5:00",
            &format!("sha256:{}", "G".repeat(64)),
            &format!("sha256:{}", "A".repeat(64)),
        ] {
            assert!(text.parse::<Fingerprint>().is_err(), "{text}");
        }
    }
}
