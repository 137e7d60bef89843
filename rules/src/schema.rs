//! Rules for the schemas a descriptor carries.
//!
//! An input schema's root must be `type: "object"` (the MCP schema requires
//! it, and clients build argument forms from it), and every `$ref` must stay
//! inside the document (`#`, `#/$defs/...`, or another JSON pointer into
//! it) and resolve, because clients resolve nothing else. A tool without parameters gets the schema the specification
//! recommends: an object that accepts no properties.

use serde_json::{Map, Value, json};
use std::fmt;

/// The input schema of a tool that takes no parameters.
pub fn no_parameters() -> Value {
    json!({"type": "object", "additionalProperties": false})
}

/// Gives an object schema without `properties` an empty one: the same
/// schema to a validator, and the shape OpenAI's function calling and
/// Gemini's function declarations demand of a tool's parameters.
pub fn fill_properties(schema: &mut Value) {
    if let Some(object) = schema.as_object_mut()
        && object.get("type").and_then(Value::as_str) == Some("object")
        && !object.contains_key("properties")
    {
        object.insert("properties".into(), Value::Object(Map::new()));
    }
}

/// Whether an output schema can be served as is: its root is an object.
/// Anything else is wrapped by [`wrap_output`], because clients of the
/// earlier protocol revisions require an object.
pub fn is_object_schema(schema: &Value) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("object")
}

/// Wraps a non-object output schema as `{"result": T}`: `$defs` stay at the
/// root, and references to the old root (`#`) point at the wrapped value.
/// Results of such tools are wrapped the same way at call time.
pub fn wrap_output(mut inner: Value) -> Value {
    let defs = inner.as_object_mut().and_then(|o| o.remove("$defs"));
    retarget_root_refs(&mut inner);
    let mut properties = Map::new();
    properties.insert("result".into(), inner);
    let mut wrapper =
        json!({"type": "object", "properties": Value::Object(properties), "required": ["result"]});
    if let (Some(defs), Some(object)) = (defs, wrapper.as_object_mut()) {
        object.insert("$defs".into(), defs);
    }
    wrapper
}

fn retarget_root_refs(value: &mut Value) {
    match value {
        Value::Object(map) => {
            if map.get("$ref").and_then(Value::as_str) == Some("#") {
                map.insert("$ref".into(), Value::String("#/properties/result".into()));
            }
            map.values_mut().for_each(retarget_root_refs);
        }
        Value::Array(items) => items.iter_mut().for_each(retarget_root_refs),
        _ => {}
    }
}

/// Why a schema cannot be served.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SchemaError {
    /// The root does not declare `"type": "object"`.
    NotAnObject {
        /// What the root declares instead, as JSON text (`null` when nothing).
        found: String,
    },
    /// A `$ref` points outside the document.
    NonLocalRef {
        /// Where the `$ref` sits, as a JSON pointer.
        pointer: String,
        /// The reference.
        reference: String,
    },
    /// A local `$ref` names a definition the document does not hold.
    DanglingRef {
        /// Where the `$ref` sits, as a JSON pointer.
        pointer: String,
        /// The reference.
        reference: String,
    },
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SchemaError::NotAnObject { found } => write!(
                f,
                "an input schema must have `\"type\": \"object\"` at its root, but this one has {found}; take a struct with named fields as the parameter type"
            ),
            SchemaError::NonLocalRef { pointer, reference } => write!(
                f,
                "`$ref` `{reference}` at {pointer} points outside the schema; only references into the schema itself (`#`, `#/$defs/...`) are served"
            ),
            SchemaError::DanglingRef { pointer, reference } => write!(
                f,
                "`$ref` `{reference}` at {pointer} names a definition the schema does not hold"
            ),
        }
    }
}

impl std::error::Error for SchemaError {}

/// Checks the root type of an input schema and its references.
pub fn check_input_schema(schema: &Value) -> Result<(), SchemaError> {
    let root_type = schema.get("type");
    if root_type != Some(&Value::String("object".into())) {
        return Err(SchemaError::NotAnObject {
            found: root_type.map_or_else(|| "no `type`".to_owned(), |t| format!("`\"type\": {t}`")),
        });
    }
    check_refs(schema)
}

/// Checks that every `$ref` in `schema` is local and resolves.
pub fn check_refs(schema: &Value) -> Result<(), SchemaError> {
    walk_refs(schema, schema, &mut String::new())
}

fn walk_refs(root: &Value, node: &Value, pointer: &mut String) -> Result<(), SchemaError> {
    match node {
        Value::Object(map) => {
            if let Some(Value::String(reference)) = map.get("$ref") {
                check_ref(root, reference, pointer)?;
            }
            for (key, child) in map {
                let len = pointer.len();
                pointer.push('/');
                pointer.push_str(&key.replace('~', "~0").replace('/', "~1"));
                walk_refs(root, child, pointer)?;
                pointer.truncate(len);
            }
            Ok(())
        }
        Value::Array(items) => {
            for (index, child) in items.iter().enumerate() {
                let len = pointer.len();
                pointer.push('/');
                pointer.push_str(&index.to_string());
                walk_refs(root, child, pointer)?;
                pointer.truncate(len);
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

fn check_ref(root: &Value, reference: &str, pointer: &str) -> Result<(), SchemaError> {
    let here = || {
        if pointer.is_empty() {
            "the root".to_owned()
        } else {
            pointer.to_owned()
        }
    };
    let Some(target) = reference.strip_prefix('#') else {
        return Err(SchemaError::NonLocalRef {
            pointer: here(),
            reference: reference.to_owned(),
        });
    };
    if target.is_empty() {
        return Ok(());
    }
    if !target.starts_with('/') {
        return Err(SchemaError::NonLocalRef {
            pointer: here(),
            reference: reference.to_owned(),
        });
    }
    if root.pointer(&percent_decode(target)).is_none() {
        return Err(SchemaError::DanglingRef {
            pointer: here(),
            reference: reference.to_owned(),
        });
    }
    Ok(())
}

/// Decodes `%XX` escapes: a `$ref` is a URI fragment, so a definition name
/// with spaces or non-ASCII letters appears percent-encoded in it.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (
            bytes[i],
            bytes.get(i + 1).copied().and_then(hex),
            bytes.get(i + 2).copied().and_then(hex),
        ) {
            (b'%', Some(high), Some(low)) => {
                out.push((high * 16 + low) as u8);
                i += 3;
            }
            (byte, _, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8(out).unwrap_or_else(|_| text.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_object_schema_with_local_references_is_accepted() {
        let schema = json!({
            "type": "object",
            "properties": {"a": {"$ref": "#/$defs/A"}, "me": {"$ref": "#"}},
            "$defs": {"A": {"type": "string"}}
        });
        assert_eq!(check_input_schema(&schema), Ok(()));
        assert_eq!(check_input_schema(&no_parameters()), Ok(()));
    }

    #[test]
    fn a_root_that_is_not_an_object_is_refused() {
        let err = check_input_schema(&json!({"type": "string"})).unwrap_err();
        assert_eq!(
            err.to_string(),
            "an input schema must have `\"type\": \"object\"` at its root, but this one has `\"type\": \"string\"`; take a struct with named fields as the parameter type"
        );
        assert!(matches!(
            check_input_schema(&json!({"oneOf": []})),
            Err(SchemaError::NotAnObject { .. })
        ));
    }

    #[test]
    fn a_remote_reference_is_refused_with_its_pointer() {
        let schema =
            json!({"type": "object", "properties": {"a": {"$ref": "https://example.com/s.json"}}});
        assert_eq!(
            check_input_schema(&schema),
            Err(SchemaError::NonLocalRef {
                pointer: "/properties/a".into(),
                reference: "https://example.com/s.json".into()
            })
        );
    }

    #[test]
    fn a_non_object_output_is_wrapped_with_its_definitions_at_the_root() {
        let inner = json!({"oneOf": [{"$ref": "#/$defs/A"}, {"type": "array", "items": {"$ref": "#"}}], "$defs": {"A": {"type": "string"}}});
        let wrapped = wrap_output(inner);
        assert_eq!(
            wrapped,
            json!({
                "type": "object",
                "properties": {"result": {"oneOf": [{"$ref": "#/$defs/A"}, {"type": "array", "items": {"$ref": "#/properties/result"}}]}},
                "required": ["result"],
                "$defs": {"A": {"type": "string"}}
            })
        );
        assert!(is_object_schema(&wrapped));
        assert_eq!(check_refs(&wrapped), Ok(()));
    }

    #[test]
    fn a_percent_encoded_reference_resolves_to_its_definition() {
        let schema = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/Odd%20name%C3%A9"}}, "$defs": {"Odd nameé": {"type": "string"}}});
        assert_eq!(check_input_schema(&schema), Ok(()));
    }

    #[test]
    fn a_reference_to_a_missing_definition_is_refused() {
        let schema = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/Missing"}}});
        assert!(matches!(
            check_input_schema(&schema),
            Err(SchemaError::DanglingRef { .. })
        ));
    }
}
