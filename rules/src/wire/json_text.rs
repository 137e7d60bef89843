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

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::{Serialize, Serializer};
use serde_json::Value;
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashSet;
use std::fmt;

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

/// The first member written twice in one object of `text`: the pointer of
/// the object and the member's name. JSON parsers disagree on which of two
/// such members counts (serde_json keeps the last, others the first), so a
/// file read here with one would not mean one thing. `None` when every
/// object names each member once, or when `text` is not JSON (its parse
/// says why).
pub fn duplicate_member(text: &str) -> Option<(String, String)> {
    let found = RefCell::new(None);
    let mut reader = serde_json::Deserializer::from_str(text);
    let _ = DeserializeSeed::deserialize(
        Members {
            pointer: String::new(),
            found: &found,
        },
        &mut reader,
    );
    found.into_inner()
}

/// The walk of [`duplicate_member`]: one value, at `pointer`.
struct Members<'a> {
    pointer: String,
    found: &'a RefCell<Option<(String, String)>>,
}

impl<'de> DeserializeSeed<'de> for Members<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Members<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<(), A::Error> {
        let mut index = 0usize;
        while items
            .next_element_seed(Members {
                pointer: format!("{}/{index}", self.pointer),
                found: self.found,
            })?
            .is_some()
        {
            index += 1;
        }
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut members: A) -> Result<(), A::Error> {
        let mut names = HashSet::new();
        while let Some(name) = members.next_key::<Cow<'de, str>>()? {
            let here = format!(
                "{}/{}",
                self.pointer,
                name.replace('~', "~0").replace('/', "~1")
            );
            if !names.insert(name.clone()) && self.found.borrow().is_none() {
                *self.found.borrow_mut() = Some((self.pointer.clone(), name.into_owned()));
            }
            members.next_value_seed(Members {
                pointer: here,
                found: self.found,
            })?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_member_written_twice_is_found_with_its_object() {
        assert_eq!(
            duplicate_member(r#"{"a": [1, {"b": 1, "c": 2}], "d": {}}"#),
            None
        );
        assert_eq!(
            duplicate_member(r#"{"a": [1, {"b": 1, "b\u0022": 2, "b": 3}]}"#),
            Some(("/a/1".into(), "b".into()))
        );
        assert_eq!(
            duplicate_member(r#"{"x/y": {"\u006e": 1, "n": 2}}"#),
            Some(("/x~1y".into(), "n".into()))
        );
    }

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
