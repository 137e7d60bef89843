//! Deterministic JSON text: the same value always gives the same bytes.
//!
//! serde_json's own output follows its map's iteration order, which depends on
//! whether some crate in the build enabled its `preserve_order` feature (and
//! the build script and the server may be built with different features).
//! The manifest is committed and diffed, and the served descriptors are baked
//! into the binary, so their text must not depend on that. serde_json writes
//! every text here; [`Sorted`] hands it the keys of every object of a
//! [`Value`] in byte order, and a format that owns the order of its keys (the
//! manifest, the descriptor, a report) is a struct whose fields serde writes
//! in the order they are declared, its free-form values wrapped in
//! [`Sorted`].

use serde::{Serialize, Serializer};
use serde_json::Value;

/// A JSON value that serializes with the keys of every object, at every
/// depth, in byte order.
#[derive(Clone, Copy, Debug)]
pub struct Sorted<'a>(pub &'a Value);

impl Serialize for Sorted<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Value::Array(items) => serializer.collect_seq(items.iter().map(Sorted)),
            Value::Object(map) => {
                let mut entries: Vec<(&String, &Value)> = map.iter().collect();
                entries.sort_by(|a, b| a.0.cmp(b.0));
                serializer.collect_map(entries.into_iter().map(|(k, v)| (k, Sorted(v))))
            }
            scalar => scalar.serialize(serializer),
        }
    }
}

/// Serializes a field's [`Value`] as [`Sorted`] (for `serialize_with`).
pub fn sorted<S: Serializer>(value: &Value, serializer: S) -> Result<S::Ok, S::Error> {
    Sorted(value).serialize(serializer)
}

/// `value`'s text with no insignificant whitespace.
pub fn compact(value: &impl Serialize) -> String {
    serde_json::to_string(value).expect(UNFAILING)
}

/// `value`'s text with each element on its own line, indented by two
/// spaces per level, `": "` after keys and no trailing newline.
pub fn pretty(value: &impl Serialize) -> String {
    serde_json::to_string_pretty(value).expect(UNFAILING)
}

/// Why writing text cannot fail: serde_json fails only on a map key that is
/// not a string or on a `Serialize` that fails, and every format here has
/// string keys and serializes plain data.
const UNFAILING: &str = "tooltable's JSON formats have string keys and plain data";

/// `value` as compact text with sorted keys.
pub fn to_compact(value: &Value) -> String {
    compact(&Sorted(value))
}

/// `value` as two-space indented text with sorted keys and no trailing newline.
pub fn to_pretty(value: &Value) -> String {
    pretty(&Sorted(value))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn compact_text_sorts_keys_and_parses_back_to_the_same_value() {
        let value = json!({"b": [1, 2.5, null, true], "a": {"z": "x\"y\n", "y": {}}, "c": []});
        let text = to_compact(&value);
        assert_eq!(
            text,
            r#"{"a":{"y":{},"z":"x\"y\n"},"b":[1,2.5,null,true],"c":[]}"#
        );
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), value);
    }

    #[test]
    fn pretty_text_indents_two_spaces_and_keeps_empty_containers_on_one_line() {
        let value = json!({"b": [1, {}], "a": []});
        assert_eq!(
            to_pretty(&value),
            "{\n  \"a\": [],\n  \"b\": [\n    1,\n    {}\n  ]\n}"
        );
    }

    #[test]
    fn control_characters_are_escaped() {
        let text = to_compact(&json!("\u{1}\u{1f}\t"));
        assert_eq!(text, r#""\u0001\u001f\t""#);
        assert_eq!(
            serde_json::from_str::<Value>(&text).unwrap(),
            json!("\u{1}\u{1f}\t")
        );
    }

    #[test]
    fn callers_choose_the_order_of_their_own_keys() {
        #[derive(Serialize)]
        struct Format<'a> {
            z: &'a str,
            #[serde(serialize_with = "sorted")]
            a: &'a Value,
        }
        let a = json!({"d": 1, "c": 2});
        assert_eq!(
            pretty(&Format { z: "first", a: &a }),
            "{\n  \"z\": \"first\",\n  \"a\": {\n    \"c\": 2,\n    \"d\": 1\n  }\n}"
        );
    }
}
