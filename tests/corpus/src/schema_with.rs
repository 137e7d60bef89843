//! `schema_with` functions whose body is a literal schema, in each form the
//! build evaluates (`json_schema!`, `Schema::try_from(json!(..))`,
//! `try_into`, `serde_json::from_value`, `Schema::from(bool)`,
//! `Schema::default()`), on fields, containers and variants, with
//! constants, large and negative numbers, floats, a duplicate key and a
//! nested `json!`; and serde's other crate-facing derives: `serde_repr`
//! enums with `JsonSchema_repr`, and a `remote` stand-in.

use schemars::{JsonSchema, JsonSchema_repr, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Serialize};
use serde_json::json;
use serde_repr::{Deserialize_repr, Serialize_repr};
use tooltable::{ToolError, tool};

/// The longest tag.
const MAX_TAG: usize = 40;

/// The schemas, in a module of their own, named by path.
pub mod schemas {
    use schemars::{Schema, SchemaGenerator, json_schema};
    use serde_json::json;

    /// An identifier in the form the service issues.
    pub fn ticket_id(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "string",
            "pattern": "^T-[0-9]{6}$",
            "examples": ["T-000042"],
        })
    }

    /// A count that may be very large.
    pub fn big_count(_: &mut SchemaGenerator) -> Schema {
        Schema::try_from(json!({
            "type": "integer",
            "minimum": -5,
            "maximum": 5_000_000_000_i64,
            "x-limit": u32::MAX,
        }))
        .unwrap()
    }

    /// A ratio, in halves (written with `return`, as some authors do).
    #[allow(clippy::needless_return)]
    pub fn ratio(_: &mut SchemaGenerator) -> Schema {
        return json!({"type": "number", "multipleOf": 0.5, "maximum": 1e2})
            .try_into()
            .expect("a literal schema");
    }
}

fn tag(_: &mut SchemaGenerator) -> Schema {
    serde_json::from_value(json!({
        "type": "integer",
        "type": "string",
        "maxLength": MAX_TAG,
        "items": json!({"not": {"type": "null"}}),
        "enum": ["a", "b", null, true, [1, 2.5, -3]],
    }))
    .unwrap()
}

fn anything(_: &mut SchemaGenerator) -> Schema {
    Schema::from(true)
}

fn also_anything(_: &mut SchemaGenerator) -> Schema {
    Schema::default()
}

fn nothing(_: &mut SchemaGenerator) -> Schema {
    json_schema!(false)
}

/// Fields whose schemas functions give.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Ticket {
    /// The ticket.
    #[schemars(schema_with = "schemas::ticket_id")]
    pub id: String,
    #[schemars(schema_with = "crate::schema_with::schemas::big_count")]
    pub count: i64,
    #[schemars(schema_with = "self::schemas::ratio")]
    pub ratio: f64,
    /// A tag, validated on top of its function's schema.
    #[schemars(schema_with = "tag", length(min = 1))]
    pub tag: String,
    #[serde(default)]
    #[schemars(schema_with = "anything")]
    pub extra: Option<serde_json::Value>,
    #[schemars(schema_with = "also_anything")]
    pub more: serde_json::Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "nothing")]
    pub never: Option<u8>,
}

/// Echoes fields whose schemas functions give.
#[tool(tier = read)]
pub fn schema_with_fields(params: Ticket) -> Result<Ticket, ToolError> {
    Ok(params)
}

fn window(_: &mut SchemaGenerator) -> Schema {
    json_schema!({"type": "string", "format": "duration"})
}

/// A time window, written as text, whose container names its schema.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[schemars(schema_with = "window")]
#[serde(transparent)]
pub struct Window(pub String);

/// A change, whose variants' schemas functions give.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub enum Change {
    /// Set to a ticket.
    #[schemars(schema_with = "schemas::ticket_id")]
    Set(String),
    Clear,
}

/// A schedule: a container function and variant functions.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Schedule {
    pub window: Window,
    pub windows: Vec<Window>,
    pub change: Change,
}

/// Echoes a schedule.
#[tool(tier = read)]
pub fn schema_with_containers(params: Schedule) -> Result<Schedule, ToolError> {
    Ok(params)
}

/// A priority, written as a number.
#[derive(Clone, Copy, Debug, Serialize_repr, Deserialize_repr, JsonSchema_repr)]
#[repr(u8)]
pub enum Priority {
    Low = 1,
    Normal,
    /// Drops everything else.
    Urgent = 2 * 5,
    Later,
}

/// A signed level.
#[derive(Clone, Copy, Debug, Serialize_repr, Deserialize_repr, JsonSchema_repr)]
#[repr(i16)]
pub enum Level {
    Below = -1,
    Flat,
    Above,
}

/// A span of a crate we do not own (here, a module that derives nothing).
pub mod theirs {
    /// A span.
    #[derive(Debug)]
    pub struct Span {
        pub start: u32,
        pub end: u32,
    }
}

/// serde's stand-in for [`theirs::Span`].
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(remote = "theirs::Span")]
pub struct SpanDef {
    pub start: u32,
    pub end: u32,
}

/// Numbers serde writes as integers, and a remote type.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Triage {
    pub priority: Priority,
    pub levels: Vec<Level>,
    #[serde(with = "SpanDef")]
    #[schemars(with = "SpanDef")]
    pub span: theirs::Span,
}

/// Echoes integer enums and a remote type.
#[tool(tier = read)]
pub fn serde_repr_and_remote(params: Triage) -> Result<Triage, ToolError> {
    Ok(params)
}
