//! `x-mcp-header`: the one rule for parameters mirrored into HTTP headers.
//!
//! MCP 2026-07-28 lets a tool's input schema mark a property with
//! `"x-mcp-header": "Region"`, and a client on streamable HTTP then sends
//! the argument again as `Mcp-Param-Region`, for load balancers and proxies
//! to route on. A client MUST drop a tool whose annotations break the
//! specification's constraints, silently for the model, so the build checks
//! them here, and so does the server for a tool registered at run time:
//! the value is a non-empty RFC 9110 token (which has no control
//! characters), unique within the schema without regard to case; it stands
//! on a property reached from the root through `properties` alone (never
//! the root, never under `items`, `$defs`, composition, conditionals or a
//! `$ref`); and that property's `type` is `string`, `integer` or `boolean`
//! (as a single type: a nullable one, `["string", "null"]`, is refused by
//! rmcp's client), an integer bounded within ±(2^53−1), which a client can
//! hold exactly.

use serde_json::{Map, Value};

/// The annotation's key.
pub const KEY: &str = "x-mcp-header";

/// The largest integer every client holds exactly: 2^53 − 1.
pub const MAX_SAFE_INTEGER: i64 = (1 << 53) - 1;

/// One annotation that breaks a constraint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeaderProblem {
    /// Where the annotated schema is, as a JSON pointer into the input schema.
    pub pointer: String,
    /// The annotation's value, when it is a string.
    pub header: Option<String>,
    /// The rule it breaks.
    pub rule: HeaderRule,
    /// What is wrong, and how to fix it.
    pub message: String,
}

/// The constraints of `x-mcp-header`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeaderRule {
    /// The value is a non-empty string.
    NonEmptyString,
    /// It is an RFC 9110 token.
    Token,
    /// It is unique within the schema, ignoring case.
    Unique,
    /// It stands on a property reached through `properties` alone.
    Reachable,
    /// The property is a string, a boolean or a safe integer.
    Primitive,
}

/// Every annotation of `input_schema` that breaks a constraint.
pub fn check(input_schema: &Value) -> Vec<HeaderProblem> {
    let mut found = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    walk(input_schema, "", Chain::Root, &mut seen, &mut found);
    found
}

/// How a schema is reached from the root.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Chain {
    /// It is the root.
    Root,
    /// Through `properties` alone.
    Properties,
    /// Through this keyword first (`None`: one of no schema vocabulary).
    Off(Option<&'static str>),
}

fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

fn walk(
    node: &Value,
    pointer: &str,
    chain: Chain,
    seen: &mut Vec<String>,
    found: &mut Vec<HeaderProblem>,
) {
    match node {
        Value::Object(schema) => {
            if let Some(header) = schema.get(KEY) {
                check_one(schema, header, pointer, chain, seen, found);
            }
            for (key, child) in schema {
                let here = format!("{pointer}/{}", escape(key));
                match key.as_str() {
                    // Instance data and names, not schemas.
                    "default" | "const" | "enum" | "examples" | "dependentRequired"
                    | "required" => {}
                    "properties" => {
                        let next = match chain {
                            Chain::Root | Chain::Properties => Chain::Properties,
                            off => off,
                        };
                        each_schema(child, &here, next, seen, found);
                    }
                    "$defs" | "definitions" | "dependentSchemas" | "dependencies"
                    | "patternProperties" => {
                        each_schema(child, &here, off(chain, keyword(key)), seen, found)
                    }
                    _ => walk(child, &here, off(chain, keyword(key)), seen, found),
                }
            }
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                walk(item, &format!("{pointer}/{index}"), chain, seen, found);
            }
        }
        _ => {}
    }
}

/// The keyword a chain leaves `properties` at, when it is one of JSON
/// Schema's.
fn keyword(key: &str) -> Option<&'static str> {
    const NAMED: [&str; 18] = [
        "items",
        "prefixItems",
        "additionalProperties",
        "$defs",
        "definitions",
        "oneOf",
        "anyOf",
        "allOf",
        "not",
        "if",
        "then",
        "else",
        "patternProperties",
        "dependentSchemas",
        "dependencies",
        "contains",
        "unevaluatedProperties",
        "propertyNames",
    ];
    NAMED.into_iter().find(|k| *k == key)
}

fn off(chain: Chain, keyword: Option<&'static str>) -> Chain {
    match chain {
        Chain::Off(first) => Chain::Off(first),
        _ => Chain::Off(keyword),
    }
}

fn each_schema(
    map: &Value,
    pointer: &str,
    chain: Chain,
    seen: &mut Vec<String>,
    found: &mut Vec<HeaderProblem>,
) {
    if let Value::Object(map) = map {
        for (name, schema) in map {
            walk(
                schema,
                &format!("{pointer}/{}", escape(name)),
                chain,
                seen,
                found,
            );
        }
    }
}

fn check_one(
    schema: &Map<String, Value>,
    header: &Value,
    pointer: &str,
    chain: Chain,
    seen: &mut Vec<String>,
    found: &mut Vec<HeaderProblem>,
) {
    let name = header.as_str().map(str::to_owned);
    let mut problem = |rule: HeaderRule, message: String| {
        found.push(HeaderProblem {
            pointer: pointer.to_owned(),
            header: name.clone(),
            rule,
            message,
        });
    };
    let Some(text) = header.as_str() else {
        problem(
            HeaderRule::NonEmptyString,
            format!(
                "`{KEY}` is {header}, not a string; give the header's name, such as `\"Region\"` for `Mcp-Param-Region`"
            ),
        );
        return;
    };
    match chain {
        Chain::Root => {
            problem(
                HeaderRule::Reachable,
                format!(
                    "`{KEY}` stands on the input schema's root, which is no parameter; put it on the parameter to mirror"
                ),
            );
            return;
        }
        Chain::Off(keyword) => {
            let through = keyword.map_or_else(
                || "a keyword other than `properties`".to_owned(),
                |k| format!("`{k}`"),
            );
            problem(
                HeaderRule::Reachable,
                format!(
                    "`{KEY}: {text}` stands on a schema reached through {through}, but clients mirror only parameters reached from the root through `properties` alone, and drop the tool; put it on a field of the parameter type (a struct field used here by value: inline a referenced type with #[schemars(inline)]), not inside a list, an enum or a definition"
                ),
            );
            return;
        }
        Chain::Properties => {}
    }
    if text.is_empty() {
        problem(
            HeaderRule::NonEmptyString,
            format!(
                "`{KEY}` is empty; give the header's name, such as `\"Region\"` for `Mcp-Param-Region`"
            ),
        );
        return;
    }
    if let Some(bad) = text.chars().find(|c| !is_tchar(*c)) {
        problem(
            HeaderRule::Token,
            format!(
                "`{KEY}: {}` holds {bad:?}, which an HTTP header's name cannot (RFC 9110 tokens are letters, digits and `!#$%&'*+-.^_`|~`); use a name such as `Region`",
                text.escape_debug()
            ),
        );
        return;
    }
    let folded = text.to_ascii_lowercase();
    if seen.contains(&folded) {
        problem(
            HeaderRule::Unique,
            format!(
                "`{KEY}: {text}` is used twice in this tool's parameters (header names ignore case); give each mirrored parameter a name of its own"
            ),
        );
        return;
    }
    seen.push(folded);
    match schema.get("type") {
        Some(Value::String(ty)) if ty == "string" || ty == "boolean" => {}
        Some(Value::String(ty)) if ty == "integer" => {
            if let Err(message) = safe_integer(schema) {
                problem(
                    HeaderRule::Primitive,
                    format!("`{KEY}: {text}` stands on {message}"),
                );
            }
        }
        Some(Value::String(ty)) if ty == "number" => problem(
            HeaderRule::Primitive,
            format!(
                "`{KEY}: {text}` stands on a `number`, which the specification does not allow to be mirrored (its text is not one value); use an integer, a string or a boolean"
            ),
        ),
        Some(Value::Array(_)) => problem(
            HeaderRule::Primitive,
            format!(
                "`{KEY}: {text}` stands on a parameter whose `type` is a list (an `Option` is `[\"T\", \"null\"]`), which clients refuse; make the field required, or give it a default with #[serde(default)] and a plain type"
            ),
        ),
        other => problem(
            HeaderRule::Primitive,
            format!(
                "`{KEY}: {text}` stands on a parameter of type {}, but only a `string`, an `integer` or a `boolean` can be mirrored into a header",
                other.map_or_else(|| "none (no `type`)".to_owned(), |t| format!("`{t}`"))
            ),
        ),
    }
}

/// Whether an integer property's values stay within ±(2^53−1): its format
/// says so (at most 32 bits), or its bounds do.
fn safe_integer(schema: &Map<String, Value>) -> Result<(), String> {
    const NARROW: [&str; 6] = ["int8", "int16", "int32", "uint8", "uint16", "uint32"];
    if schema
        .get("format")
        .and_then(Value::as_str)
        .is_some_and(|f| NARROW.contains(&f))
    {
        return Ok(());
    }
    let bound = |key: &str| schema.get(key).and_then(Value::as_f64);
    let limit = MAX_SAFE_INTEGER as f64;
    match (bound("minimum"), bound("maximum")) {
        (Some(min), Some(max)) if min >= -limit && max <= limit => Ok(()),
        _ => Err(format!(
            "an integer that may be beyond ±{MAX_SAFE_INTEGER} ({}), which clients cannot mirror exactly; use a 32-bit type, or bound it with #[schemars(range(min = .., max = ..))] within that range",
            schema
                .get("format")
                .and_then(Value::as_str)
                .map_or_else(|| "unbounded".to_owned(), |f| format!("`{f}`"))
        )),
    }
}

/// RFC 9110's `tchar`.
fn is_tchar(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn messages(schema: Value) -> Vec<(String, String)> {
        check(&schema)
            .into_iter()
            .map(|p| (p.pointer, p.message))
            .collect()
    }

    #[test]
    fn mirrored_strings_booleans_and_bounded_integers_reached_through_properties_pass() {
        let schema = json!({
            "type": "object",
            "properties": {
                "region": {"type": "string", "x-mcp-header": "Region"},
                "dry": {"type": "boolean", "x-mcp-header": "Dry-Run"},
                "shard": {"type": "integer", "format": "uint32", "minimum": 0, "x-mcp-header": "Shard"},
                "page": {"type": "integer", "format": "int64", "minimum": 1, "maximum": 1000, "x-mcp-header": "Page"},
                "target": {"type": "object", "properties": {
                    "zone": {"type": "string", "x-mcp-header": "Zone"}
                }}
            }
        });
        assert_eq!(check(&schema), []);
    }

    #[test]
    fn each_broken_constraint_is_named_where_it_is() {
        let found = messages(json!({
            "type": "object",
            "x-mcp-header": "Root",
            "properties": {
                "a": {"type": "string", "x-mcp-header": ""},
                "b": {"type": "string", "x-mcp-header": "Bad Name"},
                "c": {"type": "string", "x-mcp-header": "Tenant"},
                "d": {"type": "string", "x-mcp-header": "tenant"},
                "e": {"type": "number", "x-mcp-header": "Ratio"},
                "f": {"type": ["string", "null"], "x-mcp-header": "Maybe"},
                "g": {"type": "integer", "format": "uint64", "minimum": 0, "x-mcp-header": "Id"},
                "h": {"type": "array", "items": {"type": "string", "x-mcp-header": "Item"}},
                "i": {"$ref": "#/$defs/Inner"},
                "j": {"type": "object", "x-mcp-header": "Object"},
                "k": {"type": "string", "x-mcp-header": 7}
            },
            "$defs": {"Inner": {"type": "string", "x-mcp-header": "Inner"}}
        }));
        let at: Vec<&str> = found.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(
            at,
            [
                "",
                "/$defs/Inner",
                "/properties/a",
                "/properties/b",
                "/properties/d",
                "/properties/e",
                "/properties/f",
                "/properties/g",
                "/properties/h/items",
                "/properties/j",
                "/properties/k",
            ]
        );
        let message = |pointer: &str| {
            found
                .iter()
                .find(|(p, _)| p == pointer)
                .map(|(_, m)| m.as_str())
                .unwrap()
        };
        assert_eq!(
            message(""),
            "`x-mcp-header` stands on the input schema's root, which is no parameter; put it on the parameter to mirror"
        );
        assert_eq!(
            message("/properties/d"),
            "`x-mcp-header: tenant` is used twice in this tool's parameters (header names ignore case); give each mirrored parameter a name of its own"
        );
        assert_eq!(
            message("/properties/h/items"),
            "`x-mcp-header: Item` stands on a schema reached through `items`, but clients mirror only parameters reached from the root through `properties` alone, and drop the tool; put it on a field of the parameter type (a struct field used here by value: inline a referenced type with #[schemars(inline)]), not inside a list, an enum or a definition"
        );
        assert_eq!(
            message("/properties/g"),
            "`x-mcp-header: Id` stands on an integer that may be beyond ±9007199254740991 (`uint64`), which clients cannot mirror exactly; use a 32-bit type, or bound it with #[schemars(range(min = .., max = ..))] within that range"
        );
        assert_eq!(
            message("/properties/b"),
            "`x-mcp-header: Bad Name` holds ' ', which an HTTP header's name cannot (RFC 9110 tokens are letters, digits and `!#$%&'*+-.^_`|~`); use a name such as `Region`"
        );
    }
}
