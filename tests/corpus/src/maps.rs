//! Maps with string, integer and enum keys, `serde_json`'s types, and
//! flattened maps.

use crate::common::Field;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Number, Value};
use std::collections::{BTreeMap, HashMap};
use tooltable::{ToolError, tool};

/// Echoes a `HashMap` with string keys.
#[tool(tier = read)]
pub fn map_hash(params: Field<HashMap<String, u8>>) -> Result<HashMap<String, u8>, ToolError> {
    Ok(params.value)
}

/// Echoes a `BTreeMap` of lists.
#[tool(tier = read)]
pub fn map_btree_lists(
    params: Field<BTreeMap<String, Vec<String>>>,
) -> Result<BTreeMap<String, Vec<String>>, ToolError> {
    Ok(params.value)
}

/// Echoes a map with unsigned integer keys.
#[tool(tier = read)]
pub fn map_unsigned_keys(
    params: Field<BTreeMap<u32, String>>,
) -> Result<BTreeMap<u32, String>, ToolError> {
    Ok(params.value)
}

/// Echoes a map with signed integer keys.
#[tool(tier = read)]
pub fn map_signed_keys(params: Field<HashMap<i64, bool>>) -> Result<HashMap<i64, bool>, ToolError> {
    Ok(params.value)
}

/// A channel of a colour.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
pub enum Channel {
    Red,
    Green,
    Blue,
}

/// Maps keyed by other things.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct KeyedMaps {
    /// By an enum of unit variants.
    pub by_channel: BTreeMap<Channel, u8>,
    /// By a character.
    pub by_char: BTreeMap<char, u8>,
    /// By a boolean.
    pub by_bool: BTreeMap<bool, String>,
    /// By a small unsigned integer.
    pub by_byte: BTreeMap<u8, f64>,
    /// By a non-zero integer.
    pub by_nonzero: BTreeMap<std::num::NonZeroI32, String>,
    /// Maps of maps.
    pub nested: HashMap<String, BTreeMap<u16, Vec<Channel>>>,
    /// A map that may be absent.
    pub maybe: Option<HashMap<String, String>>,
}

/// Echoes maps keyed by other things.
#[tool(tier = read)]
pub fn map_keyed(params: KeyedMaps) -> Result<KeyedMaps, ToolError> {
    Ok(params)
}

/// Echoes a map keyed by an enum at the root.
#[tool(tier = read)]
pub fn map_enum_root(
    params: Field<BTreeMap<Channel, String>>,
) -> Result<BTreeMap<Channel, String>, ToolError> {
    Ok(params.value)
}

/// `serde_json`'s own types.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct JsonValues {
    /// Any JSON.
    pub any: Value,
    /// Any JSON object.
    pub object: Map<String, Value>,
    /// Any JSON number.
    pub number: Number,
    /// Maybe any JSON.
    pub maybe: Option<Value>,
    /// A list of anything.
    pub list: Vec<Value>,
    /// Maybe a number.
    pub maybe_number: Option<Number>,
}

/// Echoes `serde_json`'s own types.
#[tool(tier = read)]
pub fn map_json(params: JsonValues) -> Result<JsonValues, ToolError> {
    Ok(params)
}

/// Echoes any JSON at the root of the output.
#[tool(tier = read)]
pub fn map_value_root(params: Field<Value>) -> Result<Value, ToolError> {
    Ok(params.value)
}

/// Echoes a JSON object at the root of the output.
#[tool(tier = read)]
pub fn map_object_root(params: Field<Map<String, Value>>) -> Result<Map<String, Value>, ToolError> {
    Ok(params.value)
}

/// A struct with a flattened map of the rest.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct WithExtra {
    /// The name.
    pub name: String,
    /// Everything else.
    #[serde(flatten)]
    pub extra: BTreeMap<String, Value>,
}

/// Echoes a struct with a flattened map.
#[tool(tier = read)]
pub fn map_flatten_value(params: WithExtra) -> Result<WithExtra, ToolError> {
    Ok(params)
}

/// A struct with a flattened map of numbers.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct WithCounts {
    pub label: String,
    #[serde(flatten)]
    pub counts: HashMap<String, u32>,
}

/// Echoes a struct with a flattened map of numbers.
#[tool(tier = read)]
pub fn map_flatten_counts(params: WithCounts) -> Result<WithCounts, ToolError> {
    Ok(params)
}

/// Takes a map as the whole parameter object.
#[tool(tier = read)]
pub fn map_root_param(
    params: BTreeMap<String, u8>,
) -> Result<Option<crate::structs::Address>, ToolError> {
    let _ = params;
    Ok(None)
}

/// Takes a JSON object as the whole parameter object.
#[tool(tier = read)]
pub fn map_root_object(
    params: Map<String, Value>,
) -> Result<Vec<Option<crate::structs::Address>>, ToolError> {
    let _ = params;
    Ok(Vec::new())
}
