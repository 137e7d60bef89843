//! Checking a JSON value against the JSON Schema subset tooltable serves.
//!
//! The build script validates a tool's declared `example` against its input
//! schema, and a server can validate arguments the same way, so both sides
//! apply one rule. The schemas tooltable generates use a small part of JSON
//! Schema 2020-12; this module implements exactly that part: `type`,
//! `properties`, `required`, `additionalProperties`, `items`, `prefixItems`,
//! `enum`, `const`, `anyOf`, `oneOf`, `allOf`, `not`, `$ref` to `#` and to
//! `#/...` pointers (such as `#/$defs/Name`), `minimum`, `maximum`,
//! `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`, `minLength`,
//! `maxLength`, `minItems`, `maxItems` and `uniqueItems`.
//!
//! `pattern` is not checked: it would need a regular-expression engine, and
//! the rules stay free of heavy dependencies. `format` is an annotation in
//! 2020-12 and is not checked either. Other keywords are annotations
//! (`description`, `default`, …) and are ignored, as the specification says.

use serde_json::{Map, Number, Value};
use std::cmp::Ordering;
use std::fmt;

/// How deep `$ref`s may lead without the value getting any deeper; a schema
/// that refers to itself in a loop (`{"$ref": "#"}`) stops here.
const MAX_DEPTH: usize = 128;

/// One way a value does not fit a schema.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// Where in the value, as a JSON pointer (empty for the whole value).
    pub pointer: String,
    /// What is wrong there, as a phrase that follows the pointer.
    pub message: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.pointer.is_empty() {
            write!(f, "the value {}", self.message)
        } else {
            write!(f, "{} {}", self.pointer, self.message)
        }
    }
}

impl std::error::Error for Violation {}

/// Checks `value` against `schema` (whose root is also the target of `#`
/// references). Returns every violation found, in document order.
pub fn validate(schema: &Value, value: &Value) -> Result<(), Vec<Violation>> {
    let mut found = Vec::new();
    Validator { root: schema }.check(schema, value, &mut String::new(), 0, &mut found);
    if found.is_empty() { Ok(()) } else { Err(found) }
}

struct Validator<'s> {
    root: &'s Value,
}

fn push_token(pointer: &mut String, token: &str) {
    pointer.push('/');
    pointer.push_str(&token.replace('~', "~0").replace('/', "~1"));
}

fn violation(found: &mut Vec<Violation>, pointer: &str, message: String) {
    found.push(Violation {
        pointer: pointer.to_owned(),
        message,
    });
}

impl<'s> Validator<'s> {
    fn resolve(&self, reference: &str) -> Option<&'s Value> {
        let target = reference.strip_prefix('#')?;
        if target.is_empty() {
            return Some(self.root);
        }
        let mut node = self.root;
        for token in target.strip_prefix('/')?.split('/') {
            let token = token.replace("~1", "/").replace("~0", "~");
            node = match node {
                Value::Object(map) => map.get(&token)?,
                Value::Array(items) => items.get(token.parse::<usize>().ok()?)?,
                _ => return None,
            };
        }
        Some(node)
    }

    fn fits(&self, schema: &Value, value: &Value, depth: usize) -> bool {
        let mut found = Vec::new();
        self.check(schema, value, &mut String::new(), depth, &mut found);
        found.is_empty()
    }

    fn check(
        &self,
        schema: &Value,
        value: &Value,
        pointer: &mut String,
        depth: usize,
        found: &mut Vec<Violation>,
    ) {
        let map = match schema {
            Value::Bool(true) => return,
            Value::Bool(false) => {
                return violation(found, pointer, "is not allowed here".into());
            }
            Value::Object(map) => map,
            _ => return,
        };
        if depth > MAX_DEPTH {
            return violation(
                found,
                pointer,
                "cannot be checked: the schema's `$ref`s loop without end".into(),
            );
        }
        if let Some(Value::String(reference)) = map.get("$ref") {
            match self.resolve(reference) {
                Some(target) => self.check(target, value, pointer, depth + 1, found),
                None => violation(
                    found,
                    pointer,
                    format!("cannot be checked: the schema's `$ref` `{reference}` names nothing"),
                ),
            }
        }
        if let Some(expected) = map.get("type") {
            let names: Vec<&str> = match expected {
                Value::String(name) => vec![name.as_str()],
                Value::Array(names) => names.iter().filter_map(Value::as_str).collect(),
                _ => Vec::new(),
            };
            if !names.is_empty() && !names.iter().any(|name| has_type(value, name)) {
                return violation(
                    found,
                    pointer,
                    format!(
                        "is {}, but the schema expects {}",
                        describe(value),
                        names.join(" or ")
                    ),
                );
            }
        }
        if let Some(Value::Array(allowed)) = map.get("enum")
            && !allowed.iter().any(|a| json_equal(a, value))
        {
            let list: Vec<String> = allowed.iter().map(Value::to_string).collect();
            violation(
                found,
                pointer,
                format!("is {value}, which is not one of {}", list.join(", ")),
            );
        }
        if let Some(constant) = map.get("const")
            && !json_equal(constant, value)
        {
            violation(
                found,
                pointer,
                format!("is {value}, but must be {constant}"),
            );
        }
        self.check_composition(map, value, pointer, depth, found);
        match value {
            Value::Object(object) => self.check_object(map, object, pointer, depth, found),
            Value::Array(items) => self.check_array(map, items, pointer, depth, found),
            Value::String(text) => check_string(map, text, pointer, found),
            Value::Number(number) => check_number(map, number, pointer, found),
            _ => {}
        }
    }

    fn check_composition(
        &self,
        map: &Map<String, Value>,
        value: &Value,
        pointer: &mut String,
        depth: usize,
        found: &mut Vec<Violation>,
    ) {
        if let Some(Value::Array(all)) = map.get("allOf") {
            for schema in all {
                self.check(schema, value, pointer, depth + 1, found);
            }
        }
        if let Some(Value::Array(any)) = map.get("anyOf")
            && !any.iter().any(|s| self.fits(s, value, depth + 1))
        {
            let message = match self.closest(any, value, pointer, depth) {
                Some(inner) => format!(
                    "fits none of the {} alternatives of `anyOf` (the closest fails because {inner})",
                    any.len()
                ),
                None => format!("fits none of the {} alternatives of `anyOf`", any.len()),
            };
            violation(found, pointer, message);
        }
        if let Some(Value::Array(one)) = map.get("oneOf") {
            let matching = one
                .iter()
                .filter(|s| self.fits(s, value, depth + 1))
                .count();
            if matching == 0 {
                let message = match self.closest(one, value, pointer, depth) {
                    Some(inner) => format!(
                        "fits none of the {} alternatives of `oneOf` (the closest fails because {inner})",
                        one.len()
                    ),
                    None => format!("fits none of the {} alternatives of `oneOf`", one.len()),
                };
                violation(found, pointer, message);
            } else if matching > 1 {
                violation(
                    found,
                    pointer,
                    format!("fits {matching} alternatives of `oneOf`, but must fit exactly one"),
                );
            }
        }
        if let Some(not) = map.get("not")
            && self.fits(not, value, depth + 1)
        {
            violation(found, pointer, "fits the schema under `not`".into());
        }
    }

    /// The first violation of the alternative with the fewest, for a
    /// message that points at the likely mistake.
    fn closest(
        &self,
        alternatives: &[Value],
        value: &Value,
        pointer: &str,
        depth: usize,
    ) -> Option<String> {
        alternatives
            .iter()
            .map(|schema| {
                let mut inner = Vec::new();
                self.check(
                    schema,
                    value,
                    &mut pointer.to_owned(),
                    depth + 1,
                    &mut inner,
                );
                inner
            })
            .filter(|inner| !inner.is_empty())
            .min_by_key(Vec::len)
            .map(|inner| inner[0].to_string())
    }

    fn check_object(
        &self,
        map: &Map<String, Value>,
        object: &Map<String, Value>,
        pointer: &mut String,
        depth: usize,
        found: &mut Vec<Violation>,
    ) {
        let properties = map.get("properties").and_then(Value::as_object);
        if let Some(Value::Array(required)) = map.get("required") {
            for name in required.iter().filter_map(Value::as_str) {
                if !object.contains_key(name) {
                    violation(
                        found,
                        pointer,
                        format!("misses the required property `{name}`"),
                    );
                }
            }
        }
        let mut keys: Vec<&String> = object.keys().collect();
        keys.sort();
        for key in keys {
            let item = &object[key];
            let len = pointer.len();
            push_token(pointer, key);
            match properties.and_then(|p| p.get(key)) {
                Some(schema) => self.check(schema, item, pointer, depth, found),
                None => match map.get("additionalProperties") {
                    Some(Value::Bool(false)) => {
                        pointer.truncate(len);
                        let known: Vec<String> = properties
                            .map(|p| {
                                let mut names: Vec<String> =
                                    p.keys().map(|k| format!("`{k}`")).collect();
                                names.sort();
                                names
                            })
                            .unwrap_or_default();
                        let message = if known.is_empty() {
                            format!("has the property `{key}`, but takes no properties")
                        } else {
                            format!(
                                "has the unknown property `{key}`; the properties are {}",
                                known.join(", ")
                            )
                        };
                        violation(found, pointer, message);
                        continue;
                    }
                    Some(schema) => self.check(schema, item, pointer, depth, found),
                    None => {}
                },
            }
            pointer.truncate(len);
        }
    }

    fn check_array(
        &self,
        map: &Map<String, Value>,
        items: &[Value],
        pointer: &mut String,
        depth: usize,
        found: &mut Vec<Violation>,
    ) {
        let prefix = map
            .get("prefixItems")
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice);
        for (index, item) in items.iter().enumerate() {
            let schema = match prefix.get(index) {
                Some(schema) => Some(schema),
                None => map.get("items"),
            };
            if let Some(schema) = schema {
                let len = pointer.len();
                push_token(pointer, &index.to_string());
                if schema == &Value::Bool(false) {
                    pointer.truncate(len);
                    violation(
                        found,
                        pointer,
                        format!(
                            "has {} items, but holds at most {}",
                            items.len(),
                            prefix.len()
                        ),
                    );
                    break;
                }
                self.check(schema, item, pointer, depth, found);
                pointer.truncate(len);
            }
        }
        let count = items.len();
        if let Some(min) = map.get("minItems").and_then(Value::as_u64)
            && (count as u64) < min
        {
            violation(
                found,
                pointer,
                format!("has {count} items, but needs at least {min}"),
            );
        }
        if let Some(max) = map.get("maxItems").and_then(Value::as_u64)
            && (count as u64) > max
        {
            violation(
                found,
                pointer,
                format!("has {count} items, but holds at most {max}"),
            );
        }
        if map.get("uniqueItems") == Some(&Value::Bool(true)) {
            for (i, a) in items.iter().enumerate() {
                if let Some(j) = items[i + 1..].iter().position(|b| json_equal(a, b)) {
                    violation(
                        found,
                        pointer,
                        format!(
                            "repeats an item (at {i} and {}), but its items must be unique",
                            i + 1 + j
                        ),
                    );
                    break;
                }
            }
        }
    }
}

fn check_string(map: &Map<String, Value>, text: &str, pointer: &str, found: &mut Vec<Violation>) {
    let length = text.chars().count() as u64;
    if let Some(min) = map.get("minLength").and_then(Value::as_u64)
        && length < min
    {
        violation(
            found,
            pointer,
            format!("has {length} characters, but needs at least {min}"),
        );
    }
    if let Some(max) = map.get("maxLength").and_then(Value::as_u64)
        && length > max
    {
        violation(
            found,
            pointer,
            format!("has {length} characters, but holds at most {max}"),
        );
    }
}

fn check_number(
    map: &Map<String, Value>,
    number: &Number,
    pointer: &str,
    found: &mut Vec<Violation>,
) {
    let bound = |key: &str| map.get(key).and_then(Value::as_number);
    if let Some(min) = bound("minimum")
        && compare(number, min) == Ordering::Less
    {
        violation(
            found,
            pointer,
            format!("is {number}, but the minimum is {min}"),
        );
    }
    if let Some(max) = bound("maximum")
        && compare(number, max) == Ordering::Greater
    {
        violation(
            found,
            pointer,
            format!("is {number}, but the maximum is {max}"),
        );
    }
    if let Some(min) = bound("exclusiveMinimum")
        && compare(number, min) != Ordering::Greater
    {
        violation(
            found,
            pointer,
            format!("is {number}, but must be greater than {min}"),
        );
    }
    if let Some(max) = bound("exclusiveMaximum")
        && compare(number, max) != Ordering::Less
    {
        violation(
            found,
            pointer,
            format!("is {number}, but must be less than {max}"),
        );
    }
    if let Some(step) = bound("multipleOf").and_then(Number::as_f64) {
        let ratio = number.as_f64().unwrap_or(0.0) / step;
        if step > 0.0 && (ratio - ratio.round()).abs() > 1e-9 {
            violation(
                found,
                pointer,
                format!("is {number}, but must be a multiple of {step}"),
            );
        }
    }
}

/// Whether `value` is of the JSON Schema type `name`. An integer is a number
/// with no fractional part, whichever way it was written (`1` or `1.0`).
fn has_type(value: &Value, name: &str) -> bool {
    match (name, value) {
        ("null", Value::Null)
        | ("boolean", Value::Bool(_))
        | ("string", Value::String(_))
        | ("array", Value::Array(_))
        | ("object", Value::Object(_))
        | ("number", Value::Number(_)) => true,
        ("integer", Value::Number(n)) => {
            n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0)
        }
        _ => false,
    }
}

fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!("the string {}", Value::String(s.clone())),
        Value::Array(_) => "an array".into(),
        Value::Object(_) => "an object".into(),
    }
}

/// Compares two numbers exactly when both are integers, else as floats.
fn compare(a: &Number, b: &Number) -> Ordering {
    if let (Some(x), Some(y)) = (a.as_i64(), b.as_i64()) {
        return x.cmp(&y);
    }
    if let (Some(x), Some(y)) = (a.as_u64(), b.as_u64()) {
        return x.cmp(&y);
    }
    // One side is a negative i64 and the other a u64 beyond i64::MAX (or
    // vice versa), or one of them is a float.
    if let (Some(_), Some(_)) = (a.as_i64(), b.as_u64()) {
        return Ordering::Less;
    }
    if let (Some(_), Some(_)) = (a.as_u64(), b.as_i64()) {
        return Ordering::Greater;
    }
    let (x, y) = (
        a.as_f64().unwrap_or(f64::NAN),
        b.as_f64().unwrap_or(f64::NAN),
    );
    x.partial_cmp(&y).unwrap_or(Ordering::Equal)
}

/// JSON equality as JSON Schema defines it: numbers compare by value (`1` equals `1.0`).
fn json_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => compare(x, y) == Ordering::Equal,
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| json_equal(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_equal(v, w)))
        }
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn errors(schema: Value, value: Value) -> Vec<String> {
        match validate(&schema, &value) {
            Ok(()) => Vec::new(),
            Err(found) => found.iter().map(ToString::to_string).collect(),
        }
    }

    fn search_schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "query": {"type": "string", "minLength": 1},
                "limit": {"type": ["integer", "null"], "minimum": 1, "maximum": 100},
                "sort": {"$ref": "#/$defs/Sort"},
                "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 2}
            },
            "required": ["query"],
            "additionalProperties": false,
            "$defs": {"Sort": {"type": "string", "enum": ["new", "old"]}}
        })
    }

    #[test]
    fn a_value_that_fits_has_no_violations() {
        assert_eq!(
            errors(
                search_schema(),
                json!({"query": "milk", "limit": 5, "sort": "new", "tags": ["a"]})
            ),
            Vec::<String>::new()
        );
        assert_eq!(
            errors(search_schema(), json!({"query": "milk", "limit": null})),
            Vec::<String>::new()
        );
    }

    #[test]
    fn each_violation_names_its_json_pointer() {
        assert_eq!(
            errors(
                search_schema(),
                json!({"limit": 500, "sort": "newest", "tags": ["a", 1, "c"], "extra": true})
            ),
            [
                "the value misses the required property `query`",
                "the value has the unknown property `extra`; the properties are `limit`, `query`, `sort`, `tags`",
                "/limit is 500, but the maximum is 100",
                "/sort is \"newest\", which is not one of \"new\", \"old\"",
                "/tags/1 is the number 1, but the schema expects string",
                "/tags has 3 items, but holds at most 2",
            ]
        );
    }

    #[test]
    fn integers_are_numbers_without_a_fraction_and_compare_exactly() {
        let schema = json!({"type": "integer", "maximum": 18446744073709551615u64});
        assert!(validate(&schema, &json!(3.0)).is_ok());
        assert!(validate(&schema, &json!(18446744073709551615u64)).is_ok());
        assert_eq!(
            errors(schema, json!(2.5)),
            ["the value is the number 2.5, but the schema expects integer"]
        );
        assert_eq!(
            errors(json!({"minimum": 0}), json!(-1)),
            ["the value is -1, but the minimum is 0"]
        );
        assert!(validate(&json!({"enum": [1]}), &json!(1.0)).is_ok());
    }

    #[test]
    fn alternatives_and_root_recursion_are_followed() {
        let tree = json!({
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "children": {"type": "array", "items": {"$ref": "#"}}
            },
            "required": ["name"]
        });
        assert!(validate(&tree, &json!({"name": "a", "children": [{"name": "b"}]})).is_ok());
        assert_eq!(
            errors(tree, json!({"name": "a", "children": [{}]})),
            ["/children/0 misses the required property `name`"]
        );
        let one = json!({"oneOf": [{"type": "integer"}, {"type": "number"}]});
        assert_eq!(
            errors(one.clone(), json!(1)),
            ["the value fits 2 alternatives of `oneOf`, but must fit exactly one"]
        );
        assert!(validate(&one, &json!(1.5)).is_ok());
        let any = json!({"anyOf": [{"$ref": "#/$defs/A"}, {"type": "null"}], "$defs": {"A": {"type": "string", "maxLength": 1}}});
        assert_eq!(
            errors(any, json!("ab")),
            [
                "the value fits none of the 2 alternatives of `anyOf` (the closest fails because the value has 2 characters, but holds at most 1)"
            ]
        );
    }

    #[test]
    fn a_schema_that_refers_to_itself_in_a_loop_stops_with_a_violation() {
        let found = errors(json!({"$ref": "#"}), json!(1));
        assert_eq!(found.len(), 1);
        assert!(found[0].contains("loop without end"), "{found:?}");
    }

    #[test]
    fn tuples_constants_and_patterns() {
        let pair = json!({"type": "array", "prefixItems": [{"type": "integer"}, {"const": "x"}], "items": false});
        assert!(validate(&pair, &json!([1, "x"])).is_ok());
        assert_eq!(
            errors(pair, json!([1, "y", 3])),
            [
                "/1 is \"y\", but must be \"x\"",
                "the value has 3 items, but holds at most 2"
            ]
        );
        assert!(
            validate(&json!({"type": "string", "pattern": "^a$"}), &json!("b")).is_ok(),
            "patterns are not checked"
        );
    }
}
