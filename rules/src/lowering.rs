//! Lowerings: opt-in rewrites of the input schemas a crate serves, for
//! clients that refuse what MCP allows.
//!
//! Served schemas are schemars' unless the author asks otherwise
//! (`lowerings = [...]` in `[package.metadata.tooltable]`), so a rewrite is
//! never a surprise. Each rewrite here is mechanical and keeps what a
//! handler receives: every argument the lowered schema accepts, the
//! handler accepts as before. The build applies them to the descriptors it
//! bakes, the registry to tools provided at run time, and
//! `tooltable::testing` to schemars' schema before comparing, all through
//! [`lower_input`]. Output schemas are never lowered: a result must still
//! validate against the schema the client holds.

use serde_json::{Value, json};
use std::fmt;

/// One opt-in rewrite of input schemas.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Lowering {
    /// A tool without parameters is served `{"type": "object",
    /// "properties": {}}`, the schema of an empty struct, instead of the
    /// closed object MCP recommends: OpenAI asks for `properties` (rule
    /// O4) and Gemini refuses `additionalProperties` (rule G3). The handler
    /// takes no arguments either way; arguments sent to it are ignored
    /// rather than refused.
    EmptyParameters,
    /// A parameter that is not required (an `Option<T>`) is served as `T`
    /// alone, without `null`: Gemini refuses a type list (rule G4) and an
    /// `anyOf` with a `null` branch asks a model to choose. A model leaves
    /// the parameter out instead of sending `null`, which the handler reads
    /// as the same `None`; a parameter whose default is not `null` keeps
    /// its `null`, since leaving it out gives that default instead.
    OptionalNotNull,
}

impl Lowering {
    /// Every lowering, in the order the documentation lists them.
    pub const ALL: [Lowering; 2] = [Lowering::EmptyParameters, Lowering::OptionalNotNull];

    /// Its spelling in `lowerings = [...]`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Lowering::EmptyParameters => "empty-parameters",
            Lowering::OptionalNotNull => "optional-not-null",
        }
    }

    /// Parses a spelling.
    pub fn parse(text: &str) -> Option<Lowering> {
        Lowering::ALL.into_iter().find(|l| l.as_str() == text)
    }

    /// Every spelling, for an error that lists them.
    pub fn spellings() -> String {
        Lowering::ALL
            .iter()
            .map(|l| format!("`{}`", l.as_str()))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

impl fmt::Display for Lowering {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

/// Applies `lowerings` to a tool's input schema, in place.
pub fn lower_input(lowerings: &[Lowering], schema: &mut Value) {
    for lowering in lowerings {
        match lowering {
            Lowering::EmptyParameters => {
                if *schema == crate::schema::no_parameters() {
                    *schema = json!({"type": "object", "properties": {}});
                }
            }
            Lowering::OptionalNotNull => optional_not_null(schema),
        }
    }
}

/// Drops `null` from every property that is not required, in the schema
/// and in each of its `$defs`.
fn optional_not_null(schema: &mut Value) {
    let Some(node) = schema.as_object_mut() else {
        return;
    };
    let required: Vec<String> = node
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_owned)
        .collect();
    if let Some(Value::Object(properties)) = node.get_mut("properties") {
        for (name, property) in properties.iter_mut() {
            if !required.contains(name) {
                drop_null(property);
            }
            optional_not_null(property);
        }
    }
    for key in ["$defs", "definitions"] {
        if let Some(Value::Object(defs)) = node.get_mut(key) {
            defs.values_mut().for_each(optional_not_null);
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(child) = node.get_mut(key) {
            optional_not_null(child);
        }
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(Value::Array(branches)) = node.get_mut(key) {
            branches.iter_mut().for_each(optional_not_null);
        }
    }
}

/// A property's schema without `null`: `type: [T, "null"]` becomes
/// `type: T`, an `anyOf` of one schema and `{"type": "null"}` becomes that
/// schema (beside the property's own keywords), and `null` leaves `enum`
/// and a `null` default. A schema with another default, and any other
/// schema (`null` alone among them), is left as it is.
fn drop_null(property: &mut Value) {
    let Some(node) = property.as_object_mut() else {
        return;
    };
    // A default other than `null` (`#[serde(default = "...")]`) means that
    // leaving the parameter out is not sending `null`: the schema keeps
    // `null`, or `None` could no longer be sent.
    if node.get("default").is_some_and(|d| !d.is_null()) {
        return;
    }
    let is_null = |v: &Value| v.as_str() == Some("null");
    let null_branch = json!({"type": "null"});
    let other_branch = match node.get("anyOf") {
        Some(Value::Array(branches)) if branches.len() == 2 => match branches.as_slice() {
            [keep, null] | [null, keep] if *null == null_branch && *keep != null_branch => {
                Some(keep.clone())
            }
            _ => None,
        },
        _ => None,
    };
    if let Some(Value::Array(types)) = node.get("type")
        && types.iter().any(is_null)
        && types.iter().any(|t| !is_null(t))
    {
        let rest: Vec<Value> = types.iter().filter(|t| !is_null(t)).cloned().collect();
        let kind = match <[Value; 1]>::try_from(rest) {
            Ok([one]) => one,
            Err(many) => Value::Array(many),
        };
        node.insert("type".into(), kind);
        if let Some(Value::Array(values)) = node.get_mut("enum") {
            values.retain(|v| !v.is_null());
        }
    } else if let Some(kept) = other_branch {
        node.remove("anyOf");
        if let Value::Object(inner) = kept {
            for (key, value) in inner {
                node.entry(key).or_insert(value);
            }
        }
    } else {
        return;
    }
    if node.get("default") == Some(&Value::Null) {
        node.remove("default");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lowered(lowerings: &[Lowering], mut schema: Value) -> Value {
        lower_input(lowerings, &mut schema);
        schema
    }

    #[test]
    fn a_tool_without_parameters_is_served_an_empty_structs_schema() {
        assert_eq!(
            lowered(&[Lowering::EmptyParameters], crate::schema::no_parameters()),
            json!({"type": "object", "properties": {}})
        );
        let params = json!({"type": "object", "additionalProperties": false, "properties": {"a": {"type": "string"}}});
        assert_eq!(
            lowered(&[Lowering::EmptyParameters], params.clone()),
            params
        );
    }

    #[test]
    fn an_optional_parameter_loses_null_and_a_required_one_keeps_it() {
        let schema = json!({
            "type": "object",
            "properties": {
                "tag": {"type": ["string", "null"], "description": "A tag."},
                "kind": {"type": ["string", "null"], "enum": ["a", "b", null], "default": null},
                "page": {"anyOf": [{"$ref": "#/$defs/Page"}, {"type": "null"}], "description": "Which."},
                "must": {"type": ["integer", "null"]},
                "unit": {"type": ["null"]},
                "other": {"type": ["integer", "null"], "default": 5},
            },
            "required": ["must"],
            "$defs": {"Page": {"type": "object", "properties": {"n": {"type": ["integer", "null"]}}}},
        });
        assert_eq!(
            lowered(&[Lowering::OptionalNotNull], schema),
            json!({
                "type": "object",
                "properties": {
                    "tag": {"type": "string", "description": "A tag."},
                    "kind": {"type": "string", "enum": ["a", "b"]},
                    "page": {"$ref": "#/$defs/Page", "description": "Which."},
                    "must": {"type": ["integer", "null"]},
                    "unit": {"type": ["null"]},
                    "other": {"type": ["integer", "null"], "default": 5},
                },
                "required": ["must"],
                "$defs": {"Page": {"type": "object", "properties": {"n": {"type": "integer"}}}},
            })
        );
    }

    #[test]
    fn no_lowering_changes_nothing() {
        let schema = json!({"type": "object", "properties": {"tag": {"type": ["string", "null"]}}});
        assert_eq!(lowered(&[], schema.clone()), schema);
    }
}
