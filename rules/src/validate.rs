//! Checking a value against a tool's JSON Schema: one validator for every
//! place a schema is enforced.
//!
//! The build script checks a tool's declared `example` against its input
//! schema, the server checks the arguments of a baked tool whose schema
//! says more than its parameter type enforces (`minimum`, `maxLength`,
//! `pattern`, `format`, …), and the arguments and results of tools that
//! providers register. All of them use [`Validator`], a JSON Schema 2020-12
//! validator from the maintained `jsonschema` crate, compiled once per
//! schema. Reports are bounded: at most [`MAX_VIOLATIONS`] violations, each
//! quoted by the one rule ([`crate::quote::text`]), with the offending value left
//! out of the message (it can be megabytes), so a large bad request never
//! makes a larger reply.
//!
//! The validator is the heaviest thing a server can compile, so it comes
//! with the `validate` feature only, which the `tooltable` facade turns on
//! for the build script and the server together. Without it no schema
//! compiles ([`SchemaError::NoValidator`]): the build refuses a tool whose
//! schema needs checking ([`needs_validation`]) or that declares an
//! example, and the server refuses to register tools at run time, so no
//! schema a server publishes goes unchecked.

#[cfg(feature = "validate")]
use crate::quote;
use serde_json::Value;
use std::fmt;

/// The most violations one check reports.
pub const MAX_VIOLATIONS: usize = 5;

/// One way a value does not fit a schema.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// Where in the value, as a JSON pointer (empty for the whole value).
    pub pointer: String,
    /// What is wrong there, as a sentence about "the value".
    pub message: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.pointer.is_empty() {
            "/"
        } else {
            &self.pointer
        };
        write!(f, "at `{at}`: {}", self.message)
    }
}

/// Why a schema could not be compiled into a validator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SchemaError {
    /// The schema is not valid JSON Schema 2020-12; the validator's reason.
    Invalid(String),
    /// This program was built without the `validate` feature.
    NoValidator,
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SchemaError::Invalid(reason) => {
                write!(f, "the schema is not valid JSON Schema 2020-12: {reason}")
            }
            SchemaError::NoValidator => f.write_str(NO_VALIDATOR),
        }
    }
}

impl std::error::Error for SchemaError {}

/// What to do when a schema must be checked and the validator is not
/// compiled in: one sentence for the build script, the table and the registry.
pub const NO_VALIDATOR: &str = "checking values against a JSON Schema needs the `validate` feature of tooltable, which this program was built without; enable it (`tooltable = { ..., features = [\"validate\"] }` in Cargo.toml)";

/// A compiled schema.
pub struct Validator(Compiled);

#[cfg(feature = "validate")]
type Compiled = jsonschema::Validator;

/// Without the validator no schema compiles, so no [`Validator`] exists.
#[cfg(not(feature = "validate"))]
enum Compiled {}

impl fmt::Debug for Validator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Validator")
    }
}

impl Validator {
    /// Compiles `schema` (draft 2020-12, `format` asserted, local `$ref`s only).
    #[cfg(feature = "validate")]
    pub fn new(schema: &Value) -> Result<Validator, SchemaError> {
        jsonschema::draft202012::options()
            .should_validate_formats(true)
            .build(schema)
            .map(Validator)
            .map_err(|e| SchemaError::Invalid(quote::text(&e.masked().to_string()).into_owned()))
    }

    /// Without the `validate` feature: refuses every schema.
    #[cfg(not(feature = "validate"))]
    pub fn new(_schema: &Value) -> Result<Validator, SchemaError> {
        Err(SchemaError::NoValidator)
    }

    /// Checks `value`; on failure, the first [`MAX_VIOLATIONS`] violations.
    #[cfg(not(feature = "validate"))]
    pub fn check(&self, _value: &Value) -> Result<(), Vec<Violation>> {
        match self.0 {}
    }

    /// Checks `value`; on failure, the first [`MAX_VIOLATIONS`] violations.
    #[cfg(feature = "validate")]
    pub fn check(&self, value: &Value) -> Result<(), Vec<Violation>> {
        if self.0.is_valid(value) {
            return Ok(());
        }
        let found: Vec<Violation> = self
            .0
            .iter_errors(value)
            .take(MAX_VIOLATIONS)
            .map(|error| Violation {
                pointer: quote::text(&error.instance_path().to_string()).into_owned(),
                message: quote::text(&error.masked_with("the value").to_string()).into_owned(),
            })
            .collect();
        if found.is_empty() { Ok(()) } else { Err(found) }
    }
}

/// Violations as one clause: "at `/limit`: ...; at `/query`: ...".
pub fn describe(violations: &[Violation]) -> String {
    violations
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

/// Formats schemars writes for Rust's number types, which assert nothing
/// deserializing into that type does not: an integer type's range, which
/// serde enforces, and `float` and `double`, which every JSON number
/// satisfies.
const TYPE_FORMATS: [&str; 14] = [
    "int8", "int16", "int32", "int64", "int128", "uint8", "uint16", "uint32", "uint64", "uint128",
    "int", "uint", "float", "double",
];

/// The assertions of JSON Schema 2020-12 that deserializing into a Rust
/// type does not check, and the validator does: bounds, lengths, patterns,
/// formats, counts, uniqueness, and the applicators that assert (`not`,
/// `if`, `contains`, …). Everything else a schema may hold is enforced by
/// serde (types, `required`, `enum`, `const`, `additionalProperties`
/// written for `deny_unknown_fields`), or asserts nothing: annotations,
/// `x-` extensions, and keywords the dialect does not define, which the
/// validator ignores too.
const CONSTRAINTS: [&str; 25] = [
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "minItems",
    "maxItems",
    "uniqueItems",
    "contains",
    "minContains",
    "maxContains",
    "minProperties",
    "maxProperties",
    "dependentRequired",
    "dependentSchemas",
    "propertyNames",
    "patternProperties",
    "not",
    "if",
    "unevaluatedItems",
    "unevaluatedProperties",
];

/// The bound of an integer format's Rust type, as schemars writes it.
fn type_bound(format: &str, key: &str) -> Option<f64> {
    let (low, high) = match format {
        "int8" => (i8::MIN as f64, i8::MAX as f64),
        "int16" => (i16::MIN as f64, i16::MAX as f64),
        "uint8" => (0.0, u8::MAX as f64),
        "uint16" => (0.0, u16::MAX as f64),
        f if f.starts_with("uint") => (0.0, f64::NAN),
        _ => return None,
    };
    Some(if key == "minimum" { low } else { high })
}

/// A keyword of a schema that the validator enforces and deserializing
/// into the parameter type does not, and where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Constraint {
    /// The keyword (`maximum`, `pattern`, …).
    pub keyword: String,
    /// Its JSON pointer within the schema (`/properties/limit/maximum`).
    pub pointer: String,
}

impl Constraint {
    /// The field it constrains, as the Rust type names it (`limit`,
    /// `Note.title` for a field of a type in `$defs`); `None` for the
    /// schema itself.
    pub fn field(&self) -> Option<String> {
        let mut parts = Vec::new();
        let mut segments = self.pointer.split('/').skip(1).map(unescape);
        while let Some(segment) = segments.next() {
            if segment == "properties" || segment == "$defs" {
                parts.extend(segments.next());
            }
        }
        (!parts.is_empty()).then(|| parts.join("."))
    }
}

impl fmt::Display for Constraint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` at `{}`", self.keyword, self.pointer)?;
        match self.field() {
            Some(field) => write!(f, " (the field `{field}`)"),
            None => Ok(()),
        }
    }
}

/// The first keyword of `schema` (depth first, in the schema's order) that
/// promises what deserializing into the parameter type does not check: a
/// bound, a length, a pattern, a format, uniqueness. The build script asks
/// this of every baked input schema, so tools whose schema says only what
/// their type enforces are never validated at run time and pay nothing for
/// it, and a tool that needs the validator is told which keyword, where.
pub fn first_constraint(schema: &Value) -> Option<Constraint> {
    find_constraint(schema, &mut String::new())
}

/// Whether `schema` has a constraint its type does not enforce
/// ([`first_constraint`]).
pub fn needs_validation(schema: &Value) -> bool {
    first_constraint(schema).is_some()
}

fn find_constraint(schema: &Value, pointer: &mut String) -> Option<Constraint> {
    let Value::Object(map) = schema else {
        return None;
    };
    let format = map.get("format").and_then(Value::as_str);
    for (key, value) in map {
        let start = pointer.len();
        pointer.push('/');
        pointer.push_str(&escape(key));
        let constrains = match key.as_str() {
            "format" => !format.is_some_and(|f| TYPE_FORMATS.contains(&f)),
            // schemars writes the range of a small integer type (`minimum: 0`
            // on every unsigned one, `maximum: 255` on `u8`, ...), which the
            // type already enforces.
            "minimum" | "maximum" => value.as_f64() != format.and_then(|f| type_bound(f, key)),
            other => CONSTRAINTS.contains(&other),
        };
        let found = if constrains {
            Some(Constraint {
                keyword: key.clone(),
                pointer: pointer.clone(),
            })
        } else {
            match key.as_str() {
                "properties" | "$defs" => value.as_object().and_then(|members| {
                    members.iter().find_map(|(name, sub)| {
                        let here = pointer.len();
                        pointer.push('/');
                        pointer.push_str(&escape(name));
                        let found = find_constraint(sub, pointer);
                        pointer.truncate(here);
                        found
                    })
                }),
                "additionalProperties" | "items" | "then" | "else" => {
                    find_constraint(value, pointer)
                }
                "prefixItems" | "anyOf" | "oneOf" | "allOf" => value.as_array().and_then(|items| {
                    items.iter().enumerate().find_map(|(i, sub)| {
                        let here = pointer.len();
                        pointer.push_str(&format!("/{i}"));
                        let found = find_constraint(sub, pointer);
                        pointer.truncate(here);
                        found
                    })
                }),
                _ => None,
            }
        };
        pointer.truncate(start);
        if found.is_some() {
            return found;
        }
    }
    None
}

/// A JSON pointer's reference token for `name` (RFC 6901).
fn escape(name: &str) -> std::borrow::Cow<'_, str> {
    if name.contains(['~', '/']) {
        name.replace('~', "~0").replace('/', "~1").into()
    } else {
        name.into()
    }
}

fn unescape(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

#[cfg(test)]
mod constraints {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_constraint_is_found_with_its_keyword_pointer_and_field() {
        let schema = json!({"type": "object", "properties": {
            "query": {"type": "string"},
            "limit": {"type": ["integer", "null"], "format": "uint32", "minimum": 0, "maximum": 100},
        }});
        let found = first_constraint(&schema).unwrap();
        assert_eq!(found.pointer, "/properties/limit/maximum");
        assert_eq!(
            found.to_string(),
            "`maximum` at `/properties/limit/maximum` (the field `limit`)"
        );
        let nested = json!({"$defs": {"Note": {"properties": {"a/b": {"maxLength": 3}}}}});
        let found = first_constraint(&nested).unwrap();
        assert_eq!(found.pointer, "/$defs/Note/properties/a~1b/maxLength");
        assert_eq!(found.field().as_deref(), Some("Note.a/b"));
    }

    #[test]
    fn annotations_extensions_and_unknown_keywords_are_no_constraints() {
        let schema = json!({"type": "object", "properties": {
            "region": {"type": "string", "x-mcp-header": "Region", "readOnly": true, "examples": ["eu"]},
            "mode": {"type": "string", "enum": ["a", "b"], "x-order": 2, "nullable": true, "unknownKeyword": {"minimum": 3}},
            "count": {"type": "integer", "format": "uint8", "minimum": 0, "maximum": 255},
        }, "required": ["region"], "additionalProperties": false});
        assert_eq!(first_constraint(&schema), None);
        assert!(!needs_validation(&schema));
    }

    #[test]
    fn every_assertion_the_validator_enforces_is_one() {
        for keyword in CONSTRAINTS {
            let schema = json!({"properties": {"f": {keyword: 1}}});
            assert_eq!(
                first_constraint(&schema).map(|c| c.keyword),
                Some(keyword.to_owned()),
                "{keyword}"
            );
        }
        let deep = json!({"anyOf": [{"type": "null"}, {"items": {"pattern": "x"}}]});
        assert_eq!(
            first_constraint(&deep).unwrap().pointer,
            "/anyOf/1/items/pattern"
        );
    }
}

#[cfg(all(test, feature = "validate"))]
mod tests {
    use super::*;
    use serde_json::json;

    fn check(schema: Value, value: Value) -> Result<(), Vec<Violation>> {
        Validator::new(&schema).unwrap().check(&value)
    }

    #[test]
    fn every_constraint_kind_is_enforced_at_and_beyond_its_bound() {
        let limit = json!({"type": "integer", "minimum": 1, "maximum": 100});
        assert!(check(limit.clone(), json!(1)).is_ok());
        assert!(check(limit.clone(), json!(100)).is_ok());
        assert!(check(limit.clone(), json!(0)).is_err());
        assert!(check(limit, json!(101)).is_err());
        let text = json!({"type": "string", "minLength": 2, "maxLength": 3, "pattern": "^[a-z]+$"});
        assert!(check(text.clone(), json!("ab")).is_ok());
        assert!(check(text.clone(), json!("a")).is_err());
        assert!(check(text.clone(), json!("abcd")).is_err());
        assert!(check(text, json!("AB")).is_err());
        let email = json!({"type": "string", "format": "email"});
        assert!(check(email.clone(), json!("a@example.com")).is_ok());
        assert!(check(email, json!("not an address")).is_err());
        let list = json!({"type": "array", "minItems": 1, "maxItems": 2, "uniqueItems": true});
        assert!(check(list.clone(), json!([1, 2])).is_ok());
        assert!(check(list.clone(), json!([])).is_err());
        assert!(check(list.clone(), json!([1, 2, 3])).is_err());
        assert!(check(list, json!([1, 1])).is_err());
    }

    #[test]
    fn a_report_is_bounded_and_never_quotes_the_value() {
        let schema = json!({"type": "object", "properties": {"a": {"maxLength": 1}, "b": {"maxLength": 1}, "c": {"maxLength": 1}, "d": {"maxLength": 1}, "e": {"maxLength": 1}, "f": {"maxLength": 1}}});
        let huge = "x".repeat(1 << 20);
        let value = json!({"a": huge, "b": huge, "c": huge, "d": huge, "e": huge, "f": huge});
        let found = check(schema, value).unwrap_err();
        assert_eq!(found.len(), MAX_VIOLATIONS);
        for violation in &found {
            assert!(violation.message.len() < 300, "{}", violation.message);
        }
        assert_eq!(
            found[0].to_string(),
            "at `/a`: the value is longer than 1 character"
        );
    }

    #[test]
    fn uniqueness_of_a_large_array_is_checked_in_linear_time() {
        let schema = json!({"type": "array", "uniqueItems": true});
        let items: Vec<Value> = (0..200_000).map(|i| json!({"n": i})).collect();
        let started = std::time::Instant::now();
        assert!(check(schema, Value::Array(items)).is_ok());
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
    }

    #[test]
    fn integer_keyed_maps_and_percent_encoded_references_validate() {
        let map = json!({"type": "object", "additionalProperties": {"type": "string"}, "propertyNames": {"pattern": "^-?[0-9]+$"}});
        assert!(check(map, json!({"1": "a", "-2": "b"})).is_ok());
        let schema = json!({"$defs": {"a b": {"type": "integer"}}, "$ref": "#/$defs/a%20b"});
        assert!(check(schema.clone(), json!(3)).is_ok());
        assert!(check(schema, json!("x")).is_err());
    }

    #[test]
    fn only_constraints_serde_does_not_enforce_need_validation() {
        let plain = json!({"type": "object", "properties": {"id": {"type": "integer", "format": "int64"}, "n": {"type": "integer", "format": "uint32", "minimum": 0}, "tags": {"type": "array", "items": {"type": "string"}}}, "required": ["id"], "additionalProperties": false});
        assert!(!needs_validation(&plain));
        let bounded = json!({"type": "object", "properties": {"limit": {"type": ["integer", "null"], "format": "uint32", "minimum": 1, "maximum": 100}}});
        assert!(needs_validation(&bounded));
        let nested = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"type": "string", "pattern": "^x"}}});
        assert!(needs_validation(&nested));
        assert!(needs_validation(
            &json!({"type": "string", "format": "email"})
        ));
        let small = json!({"type": "object", "properties": {"a": {"type": "integer", "format": "uint8", "minimum": 0, "maximum": 255}, "b": {"type": "integer", "format": "int16", "minimum": -32768, "maximum": 32767}}});
        assert!(!needs_validation(&small));
        let narrower = json!({"type": "integer", "format": "uint8", "minimum": 0, "maximum": 100});
        assert!(needs_validation(&narrower));
    }

    #[test]
    fn a_floating_point_parameter_needs_no_validation() {
        // What schemars writes for `f64`, `Option<f32>` and `Vec<f64>`.
        let floats = json!({"type": "object", "properties": {
            "score": {"type": "number", "format": "double"},
            "ratio": {"type": ["number", "null"], "format": "float"},
            "points": {"type": "array", "items": {"type": "number", "format": "double"}},
        }, "required": ["score", "points"]});
        assert_eq!(first_constraint(&floats), None);
        let bounded = json!({"type": "number", "format": "double", "minimum": 0.0});
        assert!(needs_validation(&bounded));
    }
}
