//! Gemini's function declarations: a tool's input schema in the dialect of
//! their `parameters`.
//!
//! `parameters` is a subset of OpenAPI 3.0, not JSON Schema: a value that
//! may be null is written `nullable: true` beside a single `type`, where
//! JSON Schema (and schemars, for an `Option<T>`) writes `type: [T, "null"]`.
//! That rewrite changes nothing of what is accepted. The dialect cannot
//! close an object either, so `additionalProperties: false` is left out: it
//! says only that nothing beyond the listed properties may be sent, a
//! model is shown only those, and the server still refuses anything else.
//! Every other construct the dialect lacks (`$ref`, a map's
//! `additionalProperties`, `const`, `oneOf`, …) is left as it is, for the
//! `gemini` client profile to report with its fix.

use serde_json::Value;

/// `schema` with every `type: [T, "null"]` written `type: T, nullable: true`,
/// and without `additionalProperties: false`.
pub(crate) fn gemini_parameters(mut schema: Value) -> Value {
    nullable(&mut schema);
    schema
}

fn nullable(schema: &mut Value) {
    match schema {
        Value::Object(node) => {
            if let Some(Value::Array(types)) = node.get("type")
                && types.len() == 2
                && let Some(null) = types.iter().position(|t| t == "null")
            {
                let single = types[1 - null].clone();
                node.insert("type".into(), single);
                node.insert("nullable".into(), Value::Bool(true));
            }
            if node.get("additionalProperties") == Some(&Value::Bool(false)) {
                node.remove("additionalProperties");
            }
            node.values_mut().for_each(nullable);
        }
        Value::Array(items) => items.iter_mut().for_each(nullable),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_nullable_type_list_is_written_as_gemini_writes_it_and_a_closed_object_left_open() {
        let schema = json!({
            "type": "object",
            "additionalProperties": false,
            "properties": {
                "title": {"type": ["string", "null"]},
                "tags": {"type": "array", "items": {"type": ["null", "integer"]}},
                "either": {"type": ["string", "integer"]},
                "map": {"type": "object", "additionalProperties": {"type": "string"}}
            }
        });
        assert_eq!(
            gemini_parameters(schema),
            json!({
                "type": "object",
                "properties": {
                    "title": {"type": "string", "nullable": true},
                    "tags": {"type": "array", "items": {"type": "integer", "nullable": true}},
                    "either": {"type": ["string", "integer"]},
                    "map": {"type": "object", "additionalProperties": {"type": "string"}}
                }
            })
        );
    }
}
