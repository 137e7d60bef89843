//! OpenAI strict mode: rewriting an input schema into the subset it accepts.
//!
//! OpenAI's strict function calling accepts a subset of JSON Schema: every
//! object must say `additionalProperties: false` and list every property
//! in `required` (an optional property is written as nullable instead), and
//! only some keywords are supported. This module rewrites a tool's input
//! schema into that form, drops annotations strict mode does not accept
//! (`default`, `examples`, non-string `format`s …), and reports every
//! construct it cannot express (maps, tuples, length limits, `allOf`, …)
//! with its JSON pointer instead of silently changing what is accepted.

use serde_json::{Map, Value, json};

/// The string formats strict mode supports.
pub const FORMATS: [&str; 9] = [
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];

/// Keywords strict mode supports, kept as they are.
pub const KEPT: [&str; 12] = [
    "type",
    "enum",
    "const",
    "description",
    "title",
    "$ref",
    "pattern",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
];

/// Annotations strict mode does not take; dropping them changes no value's validity.
const DROPPED: [&str; 8] = [
    "default",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$comment",
    "$schema",
    "$id",
];

/// The strict-mode form of an input schema, or every construct it cannot
/// express, each as "at POINTER: reason".
pub fn strict_schema(schema: &Value) -> Result<Value, Vec<String>> {
    let mut errors = Vec::new();
    if schema.get("type").and_then(Value::as_str) != Some("object") {
        errors.push(
            "at the root: strict mode needs an object with `\"type\": \"object\"`".to_owned(),
        );
        return Err(errors);
    }
    let out = node(schema, "", &mut errors);
    errors.sort();
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

fn here(at: &str) -> String {
    if at.is_empty() {
        "the root".into()
    } else {
        at.to_owned()
    }
}

fn node(schema: &Value, at: &str, errors: &mut Vec<String>) -> Value {
    let map = match schema {
        Value::Object(map) if !map.is_empty() => map,
        _ => {
            errors.push(format!(
                "at {}: strict mode cannot express a schema that accepts any value (`{schema}`); give the field a concrete type",
                here(at)
            ));
            return schema.clone();
        }
    };
    let mut out = Map::new();
    for (key, value) in map {
        let at_key = format!("{at}/{}", key.replace('~', "~0").replace('/', "~1"));
        match key.as_str() {
            k if KEPT.contains(&k) => {
                out.insert(key.clone(), value.clone());
            }
            k if DROPPED.contains(&k) => {}
            "required" => {}
            "format" => {
                if value.as_str().is_some_and(|f| FORMATS.contains(&f)) {
                    out.insert(key.clone(), value.clone());
                }
            }
            "minItems" | "maxItems" => {
                out.insert(key.clone(), value.clone());
            }
            "properties" => {
                let mut properties = Map::new();
                for (name, property) in value.as_object().into_iter().flatten() {
                    let at_p = format!("{at_key}/{}", name.replace('~', "~0").replace('/', "~1"));
                    properties.insert(name.clone(), node(property, &at_p, errors));
                }
                out.insert(key.clone(), Value::Object(properties));
            }
            "additionalProperties" => {}
            "items" => {
                out.insert(key.clone(), node(value, &at_key, errors));
            }
            "anyOf" => {
                let list = value
                    .as_array()
                    .into_iter()
                    .flatten()
                    .enumerate()
                    .map(|(i, s)| node(s, &format!("{at_key}/{i}"), errors))
                    .collect();
                out.insert(key.clone(), Value::Array(list));
            }
            "oneOf" => {
                // Alternatives that are distinct constants can never overlap,
                // so `anyOf` accepts exactly the same values.
                let alternatives = value.as_array().cloned().unwrap_or_default();
                let constants: Vec<&Value> =
                    alternatives.iter().filter_map(|a| a.get("const")).collect();
                let distinct = constants.len() == alternatives.len()
                    && constants.iter().enumerate().all(|(i, c)| !constants[..i].contains(c));
                if distinct {
                    let list = alternatives
                        .iter()
                        .enumerate()
                        .map(|(i, s)| node(s, &format!("{at_key}/{i}"), errors))
                        .collect();
                    out.insert("anyOf".into(), Value::Array(list));
                } else {
                    errors.push(format!(
                        "at {at_key}: strict mode cannot express `oneOf` whose alternatives may overlap (such as an enum with data in its variants)"
                    ));
                }
            }
            "$defs" => {
                let mut defs = Map::new();
                for (name, def) in value.as_object().into_iter().flatten() {
                    let at_d = format!("{at_key}/{}", name.replace('~', "~0").replace('/', "~1"));
                    defs.insert(name.clone(), node(def, &at_d, errors));
                }
                out.insert(key.clone(), Value::Object(defs));
            }
            other => errors.push(format!(
                "at {at_key}: strict mode does not support `{other}`; remove the constraint (validate it in the handler instead) or export without --strict"
            )),
        }
    }
    let is_object =
        map.get("type").and_then(Value::as_str) == Some("object") || map.contains_key("properties");
    if is_object {
        let free = match map.get("additionalProperties") {
            Some(Value::Bool(false)) => false,
            Some(Value::Object(m)) if !m.is_empty() => true,
            _ => !map.contains_key("properties"),
        };
        if free {
            errors.push(format!(
                "at {}: strict mode cannot express a map (an object whose keys are free); use a list of key-value pairs, or a struct with named fields",
                here(&format!("{at}/additionalProperties"))
            ));
        }
        close_object(map, &mut out);
    }
    Value::Object(out)
}

/// Every property required, the optional ones nullable, nothing else allowed.
fn close_object(original: &Map<String, Value>, out: &mut Map<String, Value>) {
    let required: Vec<&str> = original
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut properties = match out.remove("properties") {
        Some(Value::Object(p)) => p,
        _ => Map::new(),
    };
    let mut names: Vec<String> = properties.keys().cloned().collect();
    names.sort_by_key(|n| {
        (
            required.iter().position(|r| r == n).unwrap_or(usize::MAX),
            n.clone(),
        )
    });
    for name in &names {
        if !required.contains(&name.as_str())
            && let Some(p) = properties.remove(name)
        {
            properties.insert(name.clone(), nullable(p));
        }
    }
    out.insert("properties".into(), Value::Object(properties));
    out.insert(
        "required".into(),
        Value::Array(names.into_iter().map(Value::String).collect()),
    );
    out.insert("additionalProperties".into(), Value::Bool(false));
}

/// `schema`, also accepting `null`.
fn nullable(schema: Value) -> Value {
    let Value::Object(mut map) = schema else {
        return schema;
    };
    let null = Value::String("null".into());
    if let Some(Value::Array(alternatives)) = map.get_mut("anyOf") {
        if !alternatives.iter().any(|a| a.get("type") == Some(&null)) {
            alternatives.push(json!({"type": "null"}));
        }
        return Value::Object(map);
    }
    if map.contains_key("$ref") || map.contains_key("const") || !map.contains_key("type") {
        let description = map.remove("description");
        let title = map.remove("title");
        let mut wrapper = Map::new();
        wrapper.insert(
            "anyOf".into(),
            json!([Value::Object(map), {"type": "null"}]),
        );
        if let Some(d) = description {
            wrapper.insert("description".into(), d);
        }
        if let Some(t) = title {
            wrapper.insert("title".into(), t);
        }
        return Value::Object(wrapper);
    }
    match map.get_mut("type") {
        Some(Value::String(t)) if t != "null" => {
            let t = Value::String(t.clone());
            map.insert("type".into(), Value::Array(vec![t, null.clone()]));
        }
        Some(Value::Array(types)) if !types.contains(&null) => types.push(null.clone()),
        _ => {}
    }
    if let Some(Value::Array(values)) = map.get_mut("enum")
        && !values.contains(&Value::Null)
    {
        values.push(Value::Null);
    }
    Value::Object(map)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn optional_properties_become_required_and_nullable() {
        let schema = json!({
            "type": "object",
            "properties": {
                "query": {"type": "string"},
                "limit": {"type": ["integer", "null"], "format": "uint32", "minimum": 1},
                "tags": {"type": "array", "items": {"type": "string"}, "default": []},
                "sort": {"$ref": "#/$defs/Sort", "description": "Order."}
            },
            "required": ["query"],
            "$defs": {"Sort": {"type": "string", "enum": ["new", "old"]}}
        });
        let strict = strict_schema(&schema).unwrap();
        assert_eq!(
            strict,
            json!({
                "type": "object",
                "properties": {
                    "query": {"type": "string"},
                    "limit": {"type": ["integer", "null"], "minimum": 1},
                    "tags": {"type": ["array", "null"], "items": {"type": "string"}},
                    "sort": {"anyOf": [{"$ref": "#/$defs/Sort"}, {"type": "null"}], "description": "Order."}
                },
                "required": ["query", "limit", "sort", "tags"],
                "additionalProperties": false,
                "$defs": {"Sort": {"type": "string", "enum": ["new", "old"]}}
            })
        );
    }

    #[test]
    fn constructs_strict_mode_cannot_express_are_named_with_their_pointer() {
        let schema = json!({
            "type": "object",
            "properties": {
                "c": {"type": "string", "minLength": 1, "maxLength": 1},
                "m": {"type": "object", "additionalProperties": {"type": "integer"}},
                "any": true
            }
        });
        let errors = strict_schema(&schema).unwrap_err();
        assert_eq!(errors.len(), 4, "{errors:?}");
        assert!(errors[0].starts_with(
            "at /properties/any: strict mode cannot express a schema that accepts any value"
        ));
        assert!(
            errors[1].starts_with(
                "at /properties/c/maxLength: strict mode does not support `maxLength`"
            )
        );
        assert!(errors[3].starts_with(
            "at /properties/m/additionalProperties: strict mode cannot express a map"
        ));
    }
}
