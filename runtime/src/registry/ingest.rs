//! Reading declarations from other servers' tools, without ever failing.
//!
//! A gateway that serves another server's tools reads their declarations
//! from untrusted JSON with the rule every declaration follows
//! ([`crate::rules::declarations::validate_declaration`]). A bad field is
//! dropped with one warning naming the server, the tool, the field and the
//! rule, at most once per (server, tool, field), with a bounded ledger;
//! unknown fields are ignored silently.

use crate::rules::declarations::validate_declaration;
use serde_json::{Map, Value};
use std::collections::{HashSet, VecDeque};
use std::fmt;
use std::sync::Mutex;

/// What kind of value a gateway expects for a field it knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldKind {
    /// Any declaration literal.
    Literal,
    /// A string.
    String,
    /// A boolean.
    Bool,
    /// A number.
    Number,
    /// A list of strings.
    StringList,
    /// A boolean or a string (as `deprecated` is).
    BoolOrString,
}

impl FieldKind {
    fn accepts(self, value: &Value) -> bool {
        match self {
            FieldKind::Literal => true,
            FieldKind::String => value.is_string(),
            FieldKind::Bool => value.is_boolean(),
            FieldKind::Number => value.is_number(),
            FieldKind::StringList => value
                .as_array()
                .is_some_and(|a| a.iter().all(Value::is_string)),
            FieldKind::BoolOrString => value.is_boolean() || value.is_string(),
        }
    }

    fn describe(self) -> &'static str {
        match self {
            FieldKind::Literal => "a literal",
            FieldKind::String => "a string",
            FieldKind::Bool => "a boolean",
            FieldKind::Number => "a number",
            FieldKind::StringList => "a list of strings",
            FieldKind::BoolOrString => "a boolean or a string",
        }
    }
}

/// A field a gateway reads from other servers' declarations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldRule {
    /// The field's name.
    pub name: String,
    /// The kind of value it must hold.
    pub kind: FieldKind,
}

impl FieldRule {
    /// A field rule.
    pub fn new(name: impl Into<String>, kind: FieldKind) -> FieldRule {
        FieldRule {
            name: name.into(),
            kind,
        }
    }
}

/// One dropped field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IngestWarning {
    /// The server the tool came from.
    pub server: String,
    /// The tool.
    pub tool: String,
    /// The field that was dropped.
    pub field: String,
    /// The rule it broke.
    pub rule: String,
}

impl fmt::Display for IngestWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "dropped declaration `{}` of tool `{}` from server `{}`: {}",
            self.field, self.tool, self.server, self.rule
        )
    }
}

/// How many (server, tool, field) warnings the ledger remembers.
pub(crate) const LEDGER_SIZE: usize = 500;

#[derive(Default)]
struct Ledger {
    seen: HashSet<(String, String, String)>,
    order: VecDeque<(String, String, String)>,
}

impl Ledger {
    /// Records a key; whether it is new (and so should be warned about).
    fn first_time(&mut self, key: (String, String, String)) -> bool {
        if self.seen.contains(&key) {
            return false;
        }
        if self.order.len() == LEDGER_SIZE
            && let Some(oldest) = self.order.pop_front()
        {
            self.seen.remove(&oldest);
        }
        self.seen.insert(key.clone());
        self.order.push_back(key);
        true
    }
}

/// Reads declarations from other servers' tools, warning once per bad field.
#[derive(Default)]
pub struct Ingest {
    ledger: Mutex<Ledger>,
}

/// What ingesting one tool's `_meta` gave.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Ingested {
    /// The known fields that passed their rules.
    pub fields: Map<String, Value>,
    /// Warnings issued now (a repeated problem is not warned twice).
    pub warnings: Vec<IngestWarning>,
}

impl Ingest {
    /// An ingester with an empty ledger.
    pub fn new() -> Ingest {
        Ingest::default()
    }

    /// Reads the declarations under `key` of a tool's `_meta` (untrusted
    /// JSON), keeping the `known` fields that pass their rules.
    pub fn read(
        &self,
        server: &str,
        tool: &str,
        meta: &Value,
        key: &str,
        known: &[FieldRule],
    ) -> Ingested {
        let mut out = Ingested::default();
        let bag = match meta.get(key) {
            None => return out,
            Some(Value::Object(bag)) => bag,
            Some(_) => {
                self.warn(
                    &mut out,
                    server,
                    tool,
                    key,
                    format!("`{key}` must be an object of declarations"),
                );
                return out;
            }
        };
        for rule in known {
            let Some(value) = bag.get(&rule.name) else {
                continue;
            };
            let broken = match validate_declaration(&rule.name, value) {
                Err(e) => Some(e.to_string()),
                Ok(()) if !rule.kind.accepts(value) => Some(format!(
                    "declaration `{}` must be {}",
                    rule.name,
                    rule.kind.describe()
                )),
                Ok(()) => None,
            };
            match broken {
                Some(reason) => self.warn(&mut out, server, tool, &rule.name, reason),
                None => {
                    out.fields.insert(rule.name.clone(), value.clone());
                }
            }
        }
        out
    }

    fn warn(&self, out: &mut Ingested, server: &str, tool: &str, field: &str, rule: String) {
        let key = (server.to_owned(), tool.to_owned(), field.to_owned());
        let mut ledger = self.ledger.lock().unwrap_or_else(|p| p.into_inner());
        if ledger.first_time(key) {
            let warning = IngestWarning {
                server: server.to_owned(),
                tool: tool.to_owned(),
                field: field.to_owned(),
                rule,
            };
            tracing::warn!("{warning}");
            out.warnings.push(warning);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const KEY: &str = "com.example/declarations";

    fn known() -> Vec<FieldRule> {
        vec![
            FieldRule::new("audience", FieldKind::String),
            FieldRule::new("deprecated", FieldKind::BoolOrString),
        ]
    }

    #[test]
    fn known_fields_that_pass_are_kept_and_unknown_fields_are_ignored_silently() {
        let ingest = Ingest::new();
        let meta = json!({KEY: {"audience": "internal", "mystery": {"x": 1}}});
        let got = ingest.read("s", "t", &meta, KEY, &known());
        assert_eq!(Value::Object(got.fields), json!({"audience": "internal"}));
        assert!(got.warnings.is_empty());
    }

    #[test]
    fn a_bad_field_is_dropped_with_one_warning_naming_server_tool_field_and_rule() {
        let ingest = Ingest::new();
        let meta = json!({KEY: {"audience": 7, "deprecated": true}});
        let first = ingest.read("gateway-a", "search", &meta, KEY, &known());
        assert_eq!(Value::Object(first.fields), json!({"deprecated": true}));
        assert_eq!(
            first
                .warnings
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>(),
            [
                "dropped declaration `audience` of tool `search` from server `gateway-a`: declaration `audience` must be a string"
            ]
        );
        let again = ingest.read("gateway-a", "search", &meta, KEY, &known());
        assert!(again.warnings.is_empty(), "warned twice for the same field");
    }

    #[test]
    fn the_ledger_is_bounded_and_forgets_the_oldest() {
        let ingest = Ingest::new();
        let meta = json!({KEY: {"audience": 7}});
        for i in 0..=LEDGER_SIZE {
            assert_eq!(
                ingest
                    .read("s", &format!("t{i}"), &meta, KEY, &known())
                    .warnings
                    .len(),
                1
            );
        }
        let ledger = ingest.ledger.lock().unwrap();
        assert_eq!(ledger.order.len(), LEDGER_SIZE);
        drop(ledger);
        assert_eq!(
            ingest.read("s", "t0", &meta, KEY, &known()).warnings.len(),
            1,
            "t0 was forgotten"
        );
    }

    #[test]
    fn a_bag_that_is_not_an_object_warns_and_gives_nothing() {
        let ingest = Ingest::new();
        let got = ingest.read("s", "t", &json!({KEY: [1, 2]}), KEY, &known());
        assert!(got.fields.is_empty());
        assert_eq!(got.warnings.len(), 1);
        assert_eq!(
            ingest.read("s", "t", &json!("not even an object"), KEY, &known()),
            Ingested::default()
        );
    }
}
