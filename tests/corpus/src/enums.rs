//! Enums in serde's four representations (external, internal, adjacent,
//! untagged), with unit, newtype, tuple and struct variants, documented
//! variants, and untagged variants of tagged enums.

use crate::common::Field;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use tooltable::{ToolError, tool};

/// A traffic light's colour.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, JsonSchema)]
pub enum Light {
    Red,
    Amber,
    Green,
}

/// Echoes an enum of unit variants.
#[tool(tier = read)]
pub fn enum_units(params: Field<Light>) -> Result<Light, ToolError> {
    Ok(params.value)
}

/// A label.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct Label {
    pub text: String,
    pub weight: Option<u8>,
}

/// A shape, externally tagged.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub enum Shape {
    /// Nothing at all.
    Empty,
    Dot,
    /// A circle of this radius.
    Circle(f64),
    Rectangle(u32, u32),
    Polygon {
        /// How many sides.
        sides: u8,
        closed: bool,
    },
    Labeled(Label),
    Nothing(()),
}

/// Echoes an externally tagged enum.
#[tool(tier = read)]
pub fn enum_external(params: Field<Shape>) -> Result<Shape, ToolError> {
    Ok(params.value)
}

/// Unit variants with docs, which schemars lists one by one.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
pub enum Documented {
    /// The first.
    First,
    /// # Second
    ///
    /// The second one.
    Second,
    Third,
}

/// Echoes an enum of documented unit variants.
#[tool(tier = read)]
pub fn enum_documented(params: Field<Documented>) -> Result<Documented, ToolError> {
    Ok(params.value)
}

/// An event, internally tagged.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind")]
pub enum Event {
    /// It started.
    Started,
    Moved {
        x: i32,
        y: i32,
    },
    Labeled(Label),
    Counts(BTreeMap<String, u32>),
    Unit(crate::structs::Marker),
}

/// Echoes an internally tagged enum.
#[tool(tier = read)]
pub fn enum_internal(params: Field<Event>) -> Result<Event, ToolError> {
    Ok(params.value)
}

/// A message, adjacently tagged.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "t", content = "c")]
pub enum Message {
    Ping,
    /// Some text.
    Text(String),
    Pair(u8, u8),
    Move {
        x: i32,
    },
    Labeled(Label),
}

/// Echoes an adjacently tagged enum.
#[tool(tier = read)]
pub fn enum_adjacent(params: Field<Message>) -> Result<Message, ToolError> {
    Ok(params.value)
}

/// Anything loose, untagged.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Loose {
    Nothing,
    /// A number.
    Number(f64),
    Pair(String, bool),
    Named {
        name: String,
    },
    Labeled(Label),
}

/// Echoes an untagged enum.
#[tool(tier = read)]
pub fn enum_untagged(params: Field<Loose>) -> Result<Loose, ToolError> {
    Ok(params.value)
}

/// Known values, and anything else as text.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub enum Mixed {
    Known,
    Code(u16),
    #[serde(untagged)]
    Other(String),
}

/// Echoes an enum with an untagged variant.
#[tool(tier = read)]
pub fn enum_mixed(params: Field<Mixed>) -> Result<Mixed, ToolError> {
    Ok(params.value)
}

/// An internally tagged enum that denies unknown fields.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", deny_unknown_fields)]
pub enum Strict {
    Off,
    On { level: u8 },
}

/// An adjacently tagged enum that denies unknown fields.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "op", content = "args", deny_unknown_fields)]
pub enum StrictAdjacent {
    Stop,
    Go { speed: u8 },
}

/// An externally tagged enum that denies unknown fields.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub enum StrictExternal {
    Idle,
    Busy { until: String },
}

/// Enums that deny unknown fields.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct Strictness {
    pub internal: Strict,
    pub adjacent: StrictAdjacent,
    pub external: StrictExternal,
}

/// Echoes enums that deny unknown fields.
#[tool(tier = read)]
pub fn enum_strict(params: Strictness) -> Result<Strictness, ToolError> {
    Ok(params)
}

/// Every representation as optional fields.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct OptionalEnums {
    pub light: Option<Light>,
    pub shape: Option<Shape>,
    pub event: Option<Event>,
    pub message: Option<Message>,
    pub loose: Option<Loose>,
    pub lights: Vec<Light>,
}

/// Echoes every representation as optional fields.
#[tool(tier = read)]
pub fn enum_optional(params: OptionalEnums) -> Result<OptionalEnums, ToolError> {
    Ok(params)
}

/// Variants skipped on one side.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub enum Sided {
    Both,
    #[serde(skip_deserializing)]
    OnlyOut,
    #[serde(skip_serializing)]
    OnlyIn(u8),
    #[serde(skip)]
    Never,
}

/// Echoes an enum with variants skipped on one side.
#[tool(tier = read)]
pub fn enum_sided(params: Field<Sided>) -> Result<Sided, ToolError> {
    Ok(params.value)
}

/// Internally tagged variants skipped on one side.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind")]
pub enum SidedInternal {
    Both {
        a: u8,
    },
    #[serde(skip_deserializing)]
    OnlyOut {
        b: u8,
    },
    #[serde(skip_serializing)]
    OnlyIn {
        c: u8,
    },
}

/// Echoes an internally tagged enum with variants skipped on one side.
#[tool(tier = read)]
pub fn enum_sided_internal(params: Field<SidedInternal>) -> Result<SidedInternal, ToolError> {
    Ok(params.value)
}

/// A deprecated variant and a deprecated enum.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub enum Versions {
    Current,
    #[deprecated]
    Old,
}

/// Echoes an enum with a deprecated variant.
#[tool(tier = read)]
#[allow(deprecated)]
pub fn enum_deprecated(params: Field<Versions>) -> Result<Versions, ToolError> {
    Ok(params.value)
}
