//! A JSON Schema as tables a person reads: one row per field.
//!
//! The docs page shows a tool's parameters and output as tables (name,
//! type, required, default, description, constraints) computed from the
//! schema the tool serves, so the docs cannot say anything the schema does
//! not. Named types (`$defs`) and nested inline objects get tables of their
//! own, linked from the rows that use them, with anchors derived from the
//! tool's name and the type's name so links stay stable across builds.
//! Every piece of text that reaches the page is escaped for Markdown here.

use crate::emit::markdown::{cell, code_cell, link};
use serde_json::{Map, Value};
use std::collections::{BTreeSet, VecDeque};
use tooltable_rules::wire::json_text;

/// One table: the root object, a named type, or a nested object.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "templates", derive(serde::Serialize))]
pub struct TypeTable {
    /// The anchor of the table's heading.
    pub anchor: String,
    /// The table's heading, in Markdown.
    pub title: String,
    /// The type's own description, escaped (may be empty).
    pub description: String,
    /// A sentence for types that are not objects (enums, alternatives), in Markdown.
    pub summary: String,
    /// Whether there are rows to show.
    pub has_rows: bool,
    /// The fields (or alternatives), in order.
    pub rows: Vec<Row>,
}

/// One field of a table; every column already in Markdown.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "templates", derive(serde::Serialize))]
pub struct Row {
    /// The field's name, as code.
    pub name: String,
    /// The field's type; named and nested types link to their tables.
    pub ty: String,
    /// `yes` or `no`.
    pub required: String,
    /// The default value, as code, or empty.
    pub default: String,
    /// The field's description, on one line.
    pub description: String,
    /// Bounds, lengths, allowed values, patterns.
    pub constraints: String,
}

/// The tables of `schema`: the root first (headed `root_title`), then every
/// type it uses, in the order they are first used. Anchors start with `prefix`.
pub fn tables(schema: &Value, prefix: &str, root_title: &str) -> Vec<TypeTable> {
    let mut walker = Walker {
        root: schema,
        prefix: prefix.to_owned(),
        root_title: root_title.to_owned(),
        seen: BTreeSet::new(),
        queue: VecDeque::new(),
    };
    let mut out = vec![walker.table(prefix.to_owned(), root_title.to_owned(), schema, "")];
    while let Some(pending) = walker.queue.pop_front() {
        out.push(walker.table(
            pending.anchor,
            pending.title,
            &pending.schema,
            &pending.path,
        ));
    }
    out
}

struct Pending {
    anchor: String,
    title: String,
    schema: Value,
    /// The field path of an inline object, for naming what it nests.
    path: String,
}

struct Walker<'a> {
    root: &'a Value,
    prefix: String,
    root_title: String,
    /// Anchors already queued.
    seen: BTreeSet<String>,
    queue: VecDeque<Pending>,
}

fn anchor_token(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') {
                c
            } else {
                '-'
            }
        })
        .collect()
}

fn description_of(map: &Map<String, Value>) -> String {
    let title = map.get("title").and_then(Value::as_str).unwrap_or_default();
    let description = map
        .get("description")
        .and_then(Value::as_str)
        .unwrap_or_default();
    match (title.is_empty(), description.is_empty()) {
        (true, _) => cell(description),
        (false, true) => cell(title),
        (false, false) => format!("**{}**: {}", cell(title), cell(description)),
    }
}

impl Walker<'_> {
    fn queue(&mut self, anchor: String, title: String, schema: Value, path: String) {
        if self.seen.insert(anchor.clone()) {
            self.queue.push_back(Pending {
                anchor,
                title,
                schema,
                path,
            });
        }
    }

    fn table(&mut self, anchor: String, title: String, schema: &Value, path: &str) -> TypeTable {
        let empty = Map::new();
        let map = schema.as_object().unwrap_or(&empty);
        let description = description_of(map);
        let mut rows = Vec::new();
        let mut summary = String::new();
        if let Some(properties) = map.get("properties").and_then(Value::as_object) {
            let required: Vec<&str> = map
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let mut names: Vec<&String> = properties.keys().collect();
            names.sort_by_key(|name| {
                (
                    required
                        .iter()
                        .position(|r| r == name)
                        .unwrap_or(usize::MAX),
                    name.as_str(),
                )
            });
            for name in names {
                let field_path = if path.is_empty() {
                    name.clone()
                } else {
                    format!("{path}.{name}")
                };
                rows.push(self.row(
                    name,
                    &properties[name],
                    required.contains(&name.as_str()),
                    &field_path,
                ));
            }
            if let Some(extra) = map.get("additionalProperties")
                && extra.is_object()
            {
                summary = format!(
                    "Other properties are allowed, each {}.",
                    self.type_of(extra, &format!("{path}.*"))
                );
            }
        } else {
            let alternatives = map
                .get("oneOf")
                .or_else(|| map.get("anyOf"))
                .and_then(Value::as_array);
            match alternatives {
                Some(alternatives) => {
                    summary = "One of these alternatives:".into();
                    for (index, alternative) in alternatives.iter().enumerate() {
                        let alt_path = format!("{path}[{}]", index + 1);
                        let mut row =
                            self.row(&format!("{}", index + 1), alternative, true, &alt_path);
                        row.name = (index + 1).to_string();
                        row.required = String::new();
                        rows.push(row);
                    }
                }
                None => {
                    let ty = self.type_of(schema, path);
                    let constraints = constraints(map);
                    summary = if constraints.is_empty() {
                        format!("A value of type {ty}.")
                    } else {
                        format!("A value of type {ty}; {constraints}.")
                    };
                }
            }
        }
        TypeTable {
            anchor,
            title,
            description,
            summary,
            has_rows: !rows.is_empty(),
            rows,
        }
    }

    fn row(&mut self, name: &str, schema: &Value, required: bool, path: &str) -> Row {
        let empty = Map::new();
        let map = schema.as_object().unwrap_or(&empty);
        Row {
            name: code_cell(name),
            ty: self.type_of(schema, path),
            required: if required { "yes" } else { "no" }.into(),
            default: map
                .get("default")
                .map(|d| code_cell(&json_text::to_compact(d)))
                .unwrap_or_default(),
            description: description_of(map),
            constraints: constraints(map),
        }
    }

    /// The type of `schema` as Markdown, queueing the tables it links to.
    fn type_of(&mut self, schema: &Value, path: &str) -> String {
        let map = match schema {
            Value::Bool(true) => return "any".into(),
            Value::Bool(false) => return "nothing".into(),
            Value::Object(map) if map.is_empty() => return "any".into(),
            Value::Object(map) => map,
            _ => return "any".into(),
        };
        if let Some(reference) = map.get("$ref").and_then(Value::as_str) {
            return self.reference(reference);
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(alternatives) = map.get(key).and_then(Value::as_array) {
                let nullable = alternatives
                    .iter()
                    .any(|a| a.get("type").and_then(Value::as_str) == Some("null"));
                let others: Vec<&Value> = alternatives
                    .iter()
                    .filter(|a| a.get("type").and_then(Value::as_str) != Some("null"))
                    .collect();
                let simple = others.iter().all(|a| {
                    a.get("$ref").is_some()
                        || a.get("properties").is_none() && a.get("oneOf").is_none()
                });
                if simple && others.len() <= 2 {
                    let mut parts: Vec<String> = others
                        .iter()
                        .enumerate()
                        .map(|(i, a)| self.type_of(a, &format!("{path}[{}]", i + 1)))
                        .collect();
                    if nullable {
                        parts.push("null".into());
                    }
                    return parts.join(" or ");
                }
                return self.inline(schema, path, "one of");
            }
        }
        if let Some(all) = map.get("allOf").and_then(Value::as_array) {
            return all
                .iter()
                .enumerate()
                .map(|(i, s)| self.type_of(s, &format!("{path}&{}", i + 1)))
                .collect::<Vec<_>>()
                .join(" and ");
        }
        if let Some(constant) = map.get("const") {
            return format!("constant {}", code_cell(&json_text::to_compact(constant)));
        }
        let types: Vec<&str> = match map.get("type") {
            Some(Value::String(t)) => vec![t.as_str()],
            Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
            _ => {
                if map.contains_key("properties") {
                    vec!["object"]
                } else if map.contains_key("enum") {
                    return "value".into();
                } else {
                    return "any".into();
                }
            }
        };
        // `format` describes the value, not `null`, so it goes with the first other type.
        let first = types.iter().position(|t| *t != "null");
        types
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let format = if Some(i) == first {
                    map.get("format").and_then(Value::as_str)
                } else {
                    None
                };
                self.simple_type(t, format, map, schema, path)
            })
            .collect::<Vec<_>>()
            .join(" or ")
    }

    fn simple_type(
        &mut self,
        name: &str,
        format: Option<&str>,
        map: &Map<String, Value>,
        schema: &Value,
        path: &str,
    ) -> String {
        match name {
            "array" => {
                if let Some(prefix) = map.get("prefixItems").and_then(Value::as_array) {
                    let parts: Vec<String> = prefix
                        .iter()
                        .enumerate()
                        .map(|(i, s)| self.type_of(s, &format!("{path}[{i}]")))
                        .collect();
                    return format!("tuple ({})", parts.join(", "));
                }
                match map.get("items") {
                    Some(items) => {
                        format!("array of {}", self.type_of(items, &format!("{path}[]")))
                    }
                    None => "array".into(),
                }
            }
            "object" if map.contains_key("properties") => self.inline(schema, path, "object"),
            "object" => match map.get("additionalProperties") {
                Some(values @ Value::Object(_)) => {
                    format!("map of {}", self.type_of(values, &format!("{path}.*")))
                }
                _ => "object".into(),
            },
            other => match format {
                Some(format) => format!("{other} ({})", cell(format)),
                None => other.to_owned(),
            },
        }
    }

    fn reference(&mut self, reference: &str) -> String {
        if reference == "#" {
            return link(&self.root_title, &self.prefix);
        }
        let Some(name) = reference.strip_prefix("#/$defs/") else {
            return code_cell(reference);
        };
        let anchor = format!("{}-{}", self.prefix, anchor_token(name));
        if let Some(target) = self.root.pointer(&reference[1..]) {
            self.queue(
                anchor.clone(),
                code_cell(name),
                target.clone(),
                String::new(),
            );
        }
        link(&code_cell(name), &anchor)
    }

    fn inline(&mut self, schema: &Value, path: &str, label: &str) -> String {
        let anchor = format!("{}-{}", self.prefix, anchor_token(path));
        self.queue(
            anchor.clone(),
            code_cell(path),
            schema.clone(),
            path.to_owned(),
        );
        link(label, &anchor)
    }
}

fn number(map: &Map<String, Value>, key: &str) -> Option<String> {
    map.get(key).filter(|v| v.is_number()).map(Value::to_string)
}

/// The constraints a schema states, as a short phrase in Markdown.
pub fn constraints(map: &Map<String, Value>) -> String {
    let mut parts = Vec::new();
    match (number(map, "minimum"), number(map, "maximum")) {
        (Some(min), Some(max)) => parts.push(format!("from {min} to {max}")),
        (Some(min), None) => parts.push(format!("at least {min}")),
        (None, Some(max)) => parts.push(format!("at most {max}")),
        (None, None) => {}
    }
    if let Some(min) = number(map, "exclusiveMinimum") {
        parts.push(format!("greater than {min}"));
    }
    if let Some(max) = number(map, "exclusiveMaximum") {
        parts.push(format!("less than {max}"));
    }
    if let Some(step) = number(map, "multipleOf") {
        parts.push(format!("a multiple of {step}"));
    }
    let range = |min: Option<String>, max: Option<String>, unit: &str| {
        let unit = |n: &str| {
            if n == "1" {
                unit.to_owned()
            } else {
                format!("{unit}s")
            }
        };
        match (min, max) {
            (Some(min), Some(max)) if min == max => Some(format!("exactly {min} {}", unit(&min))),
            (Some(min), Some(max)) => Some(format!("{min} to {max} {}", unit(&max))),
            (Some(min), None) => Some(format!("at least {min} {}", unit(&min))),
            (None, Some(max)) => Some(format!("at most {max} {}", unit(&max))),
            (None, None) => None,
        }
    };
    parts.extend(range(
        number(map, "minLength"),
        number(map, "maxLength"),
        "character",
    ));
    parts.extend(range(
        number(map, "minItems"),
        number(map, "maxItems"),
        "item",
    ));
    if map.get("uniqueItems") == Some(&Value::Bool(true)) {
        parts.push("unique items".into());
    }
    if let Some(pattern) = map.get("pattern").and_then(Value::as_str) {
        parts.push(format!("matches {}", code_cell(pattern)));
    }
    if let Some(values) = map.get("enum").and_then(Value::as_array) {
        let list: Vec<String> = values
            .iter()
            .map(|v| code_cell(&json_text::to_compact(v)))
            .collect();
        parts.push(format!("one of {}", list.join(", ")));
    }
    if map.get("writeOnly") == Some(&Value::Bool(true)) {
        parts.push("write-only".into());
    }
    if map.get("readOnly") == Some(&Value::Bool(true)) {
        parts.push("read-only".into());
    }
    if map.get("deprecated") == Some(&Value::Bool(true)) {
        parts.push("deprecated".into());
    }
    parts.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn required_fields_come_first_and_optional_ones_follow_by_name() {
        let schema = json!({
            "type": "object",
            "properties": {
                "z": {"type": "string"},
                "limit": {"type": ["integer", "null"], "format": "uint32", "minimum": 1, "maximum": 100, "description": "The most.\n\nAt most | 100."},
                "query": {"type": "string", "minLength": 1},
                "a": {"type": "boolean", "default": false}
            },
            "required": ["query", "z"]
        });
        let tables = tables(&schema, "tool-x-input", "Parameters");
        assert_eq!(tables.len(), 1);
        let names: Vec<&str> = tables[0].rows.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["`query`", "`z`", "`a`", "`limit`"]);
        let limit = &tables[0].rows[3];
        assert_eq!(limit.ty, "integer (uint32) or null");
        assert_eq!(limit.required, "no");
        assert_eq!(limit.constraints, "from 1 to 100");
        assert_eq!(limit.description, "The most.<br><br>At most \\| 100.");
        assert_eq!(tables[0].rows[2].default, "`false`");
        assert_eq!(tables[0].rows[0].constraints, "at least 1 character");
    }

    #[test]
    fn named_and_nested_types_get_linked_tables_of_their_own() {
        let schema = json!({
            "type": "object",
            "properties": {
                "notes": {"type": "array", "items": {"$ref": "#/$defs/Note"}},
                "filter": {"type": "object", "properties": {"tag": {"type": "string"}}},
                "sort": {"anyOf": [{"$ref": "#/$defs/Sort"}, {"type": "null"}]},
                "parent": {"$ref": "#"}
            },
            "$defs": {
                "Note": {"type": "object", "description": "A note.", "properties": {"id": {"type": "integer"}}, "required": ["id"]},
                "Sort": {"type": "string", "enum": ["new", "old"]}
            }
        });
        let tables = tables(&schema, "tool-x-output", "Output");
        let anchors: Vec<&str> = tables.iter().map(|t| t.anchor.as_str()).collect();
        assert_eq!(
            anchors,
            [
                "tool-x-output",
                "tool-x-output-filter",
                "tool-x-output-Note",
                "tool-x-output-Sort"
            ]
        );
        let rows = &tables[0].rows;
        assert_eq!(rows[0].ty, "[object](#tool-x-output-filter)");
        assert_eq!(rows[1].ty, "array of [`Note`](#tool-x-output-Note)");
        assert_eq!(rows[2].ty, "[Output](#tool-x-output)");
        assert_eq!(rows[3].ty, "[`Sort`](#tool-x-output-Sort) or null");
        assert_eq!(tables[2].description, "A note.");
        assert_eq!(
            tables[3].summary,
            "A value of type string; one of `\"new\"`, `\"old\"`."
        );
    }
}
