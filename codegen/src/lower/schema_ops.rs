//! Small operations on schema values, with schemars' semantics.
//!
//! A schema is a JSON object or a boolean (`true` accepts anything). These
//! are the edits schemars makes while deriving a schema (insert a property,
//! allow `null`, tag a variant, flatten one object into another); they are
//! written here against the same rules, because the served schema must equal
//! schemars' output as a value.

use serde_json::{Map, Value, json};

/// Turns a boolean schema into the equivalent object and returns the object.
pub fn ensure_object(schema: &mut Value) -> &mut Map<String, Value> {
    if !schema.is_object() {
        let mut map = Map::new();
        if *schema == Value::Bool(false) {
            map.insert("not".into(), Value::Object(Map::new()));
        }
        *schema = Value::Object(map);
    }
    match schema {
        Value::Object(map) => map,
        // The branch above made every other value an object.
        _ => unreachable!("schema was just made an object"),
    }
}

/// Inserts `key` into the schema (making it an object first).
pub fn insert(schema: &mut Value, key: &str, value: Value) {
    ensure_object(schema).insert(key.to_owned(), value);
}

/// Whether the schema's `type` is `ty` or a list containing it.
pub fn has_type(schema: &Value, ty: &str) -> bool {
    match schema.get("type") {
        Some(Value::String(s)) => s == ty,
        Some(Value::Array(a)) => a.iter().any(|v| v.as_str() == Some(ty)),
        _ => false,
    }
}

/// Adds a property to an object schema, and to `required` unless optional.
pub fn insert_object_property(schema: &mut Value, key: &str, is_optional: bool, sub_schema: Value) {
    let obj = ensure_object(schema);
    if let Some(properties) = obj
        .entry("properties")
        .or_insert(Value::Object(Map::new()))
        .as_object_mut()
    {
        properties.insert(key.to_owned(), sub_schema);
    }
    if !is_optional
        && let Some(required) = obj
            .entry("required")
            .or_insert(Value::Array(Vec::new()))
            .as_array_mut()
    {
        required.push(key.into());
    }
}

/// Sets `title` or `description` unless the text is empty.
pub fn insert_metadata_if_nonempty(schema: &mut Value, key: &str, text: &str) {
    if !text.is_empty() {
        insert(schema, key, Value::String(text.to_owned()));
    }
}

/// Sets a validation keyword when the schema has the type it applies to
/// (`number` also covers `integer`).
pub fn insert_validation(schema: &mut Value, required_type: &str, key: &str, value: Value) {
    if has_type(schema, required_type) || (required_type == "number" && has_type(schema, "integer"))
    {
        insert(schema, key, value);
    }
}

fn contains_immediate_subschema(obj: &Map<String, Value>) -> bool {
    ["if", "allOf", "anyOf", "oneOf", "$ref"]
        .into_iter()
        .any(|k| obj.contains_key(k))
}

/// Lets a schema also accept `null`, as `Option<T>` does.
pub fn allow_null(schema: &mut Value) {
    let is_null_schema = |v: &Value| has_type(v, "null");
    match schema {
        Value::Object(obj) => {
            if obj.len() == 1
                && obj
                    .get("anyOf")
                    .and_then(Value::as_array)
                    .is_some_and(|a| a.iter().any(is_null_schema))
            {
                return;
            }
            if contains_immediate_subschema(obj) {
                let inner = Value::Object(std::mem::take(obj));
                *schema = json!({"anyOf": [inner, {"type": "null"}]});
                return;
            }
            if let Some(instance_type) = obj.get_mut("type") {
                match instance_type {
                    Value::Array(array) => {
                        let null = Value::from("null");
                        if !array.contains(&null) {
                            array.push(null);
                        }
                    }
                    Value::String(s) if s != "null" => {
                        let current = Value::String(std::mem::take(s));
                        *instance_type = Value::Array(vec![current, "null".into()]);
                    }
                    _ => {}
                }
            }
            if let Some(c) = obj.remove("const") {
                if !c.is_null() {
                    obj.insert("enum".into(), Value::Array(vec![c, Value::Null]));
                }
            } else if let Some(Value::Array(e)) = obj.get_mut("enum")
                && !e.contains(&Value::Null)
            {
                e.push(Value::Null);
            }
        }
        Value::Bool(true) => {}
        _ => *schema = json!({"type": "null"}),
    }
}

/// The schema of an externally tagged variant: `{"Variant": <content>}`.
pub fn externally_tagged_variant(variant: &str, sub_schema: Value) -> Value {
    let mut properties = Map::new();
    properties.insert(variant.to_owned(), sub_schema);
    json!({
        "type": "object",
        "properties": Value::Object(properties),
        "required": [variant],
        "additionalProperties": false,
    })
}

/// The schema of a unit variant: the string constant.
pub fn unit_variant(variant: &str) -> Value {
    json!({"type": "string", "const": variant})
}

/// Adds an internal tag (`{"tag": "Variant", ...}`) to a variant's schema.
pub fn apply_internal_tag(schema: &mut Value, tag: &str, variant: &str, deny_unknown_fields: bool) {
    let obj = ensure_object(schema);
    let is_unit = obj.get("type").and_then(Value::as_str) == Some("null");
    obj.insert("type".into(), "object".into());
    if let Some(properties) = obj
        .entry("properties")
        .or_insert(Value::Object(Map::new()))
        .as_object_mut()
    {
        let fields = std::mem::take(properties);
        properties.insert(tag.to_owned(), json!({"type": "string", "const": variant}));
        properties.extend(fields.into_iter().filter(|(key, _)| key != tag));
    }
    if let Some(required) = obj
        .entry("required")
        .or_insert(Value::Array(Vec::new()))
        .as_array_mut()
    {
        required.insert(0, tag.into());
    }
    if deny_unknown_fields && is_unit {
        obj.entry("additionalProperties").or_insert(false.into());
    }
}

/// Removes `additionalProperties: false` and `unevaluatedProperties: false`
/// from a schema and the subschemas that apply to the same object; tells
/// whether anything was removed.
pub fn allow_unknown_properties(schema: &mut Value) -> bool {
    let mut modified = false;
    if let Value::Object(obj) = schema {
        for key in ["additionalProperties", "unevaluatedProperties"] {
            if obj.get(key).and_then(Value::as_bool) == Some(false) {
                obj.remove(key);
                modified = true;
            }
        }
    }
    modified | allow_unknown_in_immediate_subschemas(schema)
}

/// [`allow_unknown_properties`] applied only to `if`/`then`/`else` and the
/// members of `allOf`/`anyOf`/`oneOf`.
pub fn allow_unknown_in_immediate_subschemas(schema: &mut Value) -> bool {
    let mut modified = false;
    if let Value::Object(obj) = schema {
        for (key, value) in obj.iter_mut() {
            match key.as_str() {
                "if" | "then" | "else" if value.is_object() || value.is_boolean() => {
                    modified |= allow_unknown_properties(value);
                }
                "allOf" | "anyOf" | "oneOf" => {
                    if let Some(array) = value.as_array_mut() {
                        for item in array {
                            if item.is_object() || item.is_boolean() {
                                modified |= allow_unknown_properties(item);
                            }
                        }
                    }
                }
                _ => {}
            }
        }
    }
    modified
}

/// Merges `other` into `schema` the way `#[serde(flatten)]` merges fields.
pub fn flatten(schema: &mut Value, other: Value) {
    fn flatten_property(obj1: &mut Map<String, Value>, key: String, value2: Value) {
        use serde_json::map::Entry;
        match obj1.entry(key) {
            Entry::Vacant(vacant) => {
                vacant.insert(value2);
            }
            Entry::Occupied(mut occupied) => match occupied.key().as_str() {
                "required" | "allOf" => {
                    if let (Value::Array(a1), Value::Array(a2)) = (occupied.get_mut(), value2) {
                        a1.extend(a2);
                    }
                }
                "properties" | "patternProperties" => {
                    if let (Value::Object(o1), Value::Object(o2)) = (occupied.get_mut(), value2) {
                        o1.extend(o2);
                    }
                }
                "oneOf" | "anyOf" => {
                    let (key, current) = occupied.remove_entry();
                    let mut first = Map::new();
                    first.insert(key.clone(), current);
                    let mut second = Map::new();
                    second.insert(key, value2);
                    flatten_property(
                        obj1,
                        "allOf".to_owned(),
                        Value::Array(vec![Value::Object(first), Value::Object(second)]),
                    );
                }
                _ => {}
            },
        }
    }

    match other {
        Value::Bool(false) => {}
        Value::Bool(true) => {
            if let Value::Object(obj) = schema
                && !obj.contains_key("additionalProperties")
                && !obj.contains_key("unevaluatedProperties")
            {
                let key = if contains_immediate_subschema(obj) {
                    "unevaluatedProperties"
                } else {
                    "additionalProperties"
                };
                obj.insert(key.to_owned(), true.into());
            }
        }
        Value::Object(mut obj2) => {
            let obj1 = ensure_object(schema);
            normalise_additional_unevaluated(obj1, &obj2);
            normalise_additional_unevaluated(&mut obj2, obj1);
            for (key, value2) in obj2 {
                flatten_property(obj1, key, value2);
            }
        }
        _ => {}
    }
}

fn normalise_additional_unevaluated(obj1: &mut Map<String, Value>, obj2: &Map<String, Value>) {
    if obj1.contains_key("additionalProperties")
        && (obj2.contains_key("unevaluatedProperties") || contains_immediate_subschema(obj2))
        && let Some(ap) = obj1.remove("additionalProperties")
    {
        obj1.insert("unevaluatedProperties".to_owned(), ap);
    }
}

/// Escapes a literal string for use in a regex `pattern`, as schemars'
/// `contains` does (regex-syntax's meta characters get a backslash).
pub fn escape_regex(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(
            c,
            '\\' | '.'
                | '+'
                | '*'
                | '?'
                | '('
                | ')'
                | '|'
                | '['
                | ']'
                | '{'
                | '}'
                | '^'
                | '$'
                | '#'
                | '&'
                | '-'
                | '~'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}
