//! Deterministic JSON text: the same value always gives the same bytes.
//!
//! serde_json's own output follows its map's iteration order, which depends on
//! whether some crate in the build enabled its `preserve_order` feature. The
//! manifest is committed and diffed, and the served descriptors are baked
//! into the binary, so their text must not depend on that: this writer sorts
//! the keys of every object it writes from a [`Value`], and lets callers that
//! own a format (the manifest, the descriptor) put their own keys in a fixed
//! order first.

use serde_json::Value;

/// A streaming JSON writer, compact or indented by two spaces.
#[derive(Debug)]
pub struct JsonWriter {
    out: String,
    pretty: bool,
    /// One entry per open container: whether it holds an element yet.
    open: Vec<bool>,
    /// A key was just written, so the next value follows it on the same line.
    after_key: bool,
}

impl JsonWriter {
    /// A writer that emits no insignificant whitespace.
    pub fn compact() -> JsonWriter {
        JsonWriter {
            out: String::new(),
            pretty: false,
            open: Vec::new(),
            after_key: false,
        }
    }

    /// A writer that puts each element on its own line, indented by two
    /// spaces per level, with `": "` after keys.
    pub fn pretty() -> JsonWriter {
        JsonWriter {
            pretty: true,
            ..JsonWriter::compact()
        }
    }

    /// The text written so far.
    pub fn finish(self) -> String {
        self.out
    }

    fn newline(&mut self) {
        if self.pretty {
            self.out.push('\n');
            for _ in 0..self.open.len() {
                self.out.push_str("  ");
            }
        }
    }

    fn before_element(&mut self) {
        if std::mem::take(&mut self.after_key) {
            return;
        }
        if let Some(has_items) = self.open.last_mut() {
            if std::mem::replace(has_items, true) {
                self.out.push(',');
            }
            self.newline();
        }
    }

    fn begin(&mut self, bracket: char) {
        self.before_element();
        self.out.push(bracket);
        self.open.push(false);
    }

    fn end(&mut self, bracket: char) {
        if self.open.pop() == Some(true) {
            self.newline();
        }
        self.out.push(bracket);
    }

    /// Opens an object.
    pub fn begin_object(&mut self) {
        self.begin('{');
    }

    /// Closes the innermost object.
    pub fn end_object(&mut self) {
        self.end('}');
    }

    /// Opens an array.
    pub fn begin_array(&mut self) {
        self.begin('[');
    }

    /// Closes the innermost array.
    pub fn end_array(&mut self) {
        self.end(']');
    }

    /// Writes an object key; the next call writes its value.
    pub fn key(&mut self, key: &str) {
        self.before_element();
        self.push_string(key);
        self.out.push_str(if self.pretty { ": " } else { ":" });
        self.after_key = true;
    }

    /// Writes `key` and a string value.
    pub fn field_str(&mut self, key: &str, value: &str) {
        self.key(key);
        self.string(value);
    }

    /// Writes `key` and a JSON value.
    pub fn field(&mut self, key: &str, value: &Value) {
        self.key(key);
        self.value(value);
    }

    /// Writes a string value.
    pub fn string(&mut self, value: &str) {
        self.before_element();
        self.push_string(value);
    }

    fn push_string(&mut self, value: &str) {
        self.out.push('"');
        for c in value.chars() {
            match c {
                '"' => self.out.push_str("\\\""),
                '\\' => self.out.push_str("\\\\"),
                '\n' => self.out.push_str("\\n"),
                '\r' => self.out.push_str("\\r"),
                '\t' => self.out.push_str("\\t"),
                '\u{08}' => self.out.push_str("\\b"),
                '\u{0c}' => self.out.push_str("\\f"),
                c if u32::from(c) < 0x20 => {
                    self.out.push_str(&format!("\\u{:04x}", u32::from(c)));
                }
                c => self.out.push(c),
            }
        }
        self.out.push('"');
    }

    /// Writes any JSON value, with the keys of every object in byte order.
    pub fn value(&mut self, value: &Value) {
        match value {
            Value::Null => self.raw("null"),
            Value::Bool(b) => self.raw(if *b { "true" } else { "false" }),
            Value::Number(n) => self.raw(&n.to_string()),
            Value::String(s) => self.string(s),
            Value::Array(items) => {
                self.begin_array();
                for item in items {
                    self.value(item);
                }
                self.end_array();
            }
            Value::Object(map) => {
                let mut entries: Vec<(&String, &Value)> = map.iter().collect();
                entries.sort_by(|a, b| a.0.cmp(b.0));
                self.begin_object();
                for (key, item) in entries {
                    self.field(key, item);
                }
                self.end_object();
            }
        }
    }

    fn raw(&mut self, text: &str) {
        self.before_element();
        self.out.push_str(text);
    }
}

/// `value` as compact text with sorted keys.
pub fn to_compact(value: &Value) -> String {
    let mut writer = JsonWriter::compact();
    writer.value(value);
    writer.finish()
}

/// `value` as two-space indented text with sorted keys and no trailing newline.
pub fn to_pretty(value: &Value) -> String {
    let mut writer = JsonWriter::pretty();
    writer.value(value);
    writer.finish()
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
        let mut writer = JsonWriter::pretty();
        writer.begin_object();
        writer.field_str("z", "first");
        writer.field("a", &json!({"d": 1, "c": 2}));
        writer.end_object();
        assert_eq!(
            writer.finish(),
            "{\n  \"z\": \"first\",\n  \"a\": {\n    \"c\": 2,\n    \"d\": 1\n  }\n}"
        );
    }
}
