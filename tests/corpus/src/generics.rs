//! Generic structs and enums instantiated with concrete types, named in
//! `$defs` as schemars names them (`Generic`, `Generic2`, … in encounter
//! order), and schemars' `rename` with type parameters.

use crate::common::Field;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use tooltable::{ToolError, tool};

/// A value with a label.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Generic<T> {
    /// The value.
    pub value: T,
    /// What it is.
    pub label: String,
}

/// One of two things.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub enum Either<L, R> {
    Left(L),
    Right(R),
    Both { left: L, right: R },
}

/// A page of anything.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[schemars(rename = "Page_of_{T}")]
pub struct Page<T> {
    pub items: Vec<T>,
    pub next: Option<String>,
}

/// Two parameters, renamed with both.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[schemars(rename = "Pair{A}And{B}")]
pub struct Pair<A, B> {
    pub a: A,
    pub b: B,
}

/// Generics instantiated several times.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Instances {
    pub byte: Generic<u8>,
    pub text: Generic<String>,
    pub again: Generic<u8>,
    pub list: Generic<Vec<bool>>,
    pub nested: Generic<Generic<u8>>,
    pub either: Either<u8, String>,
    pub other_either: Either<String, u8>,
    pub page: Page<crate::structs::Address>,
    pub numbers: Page<i64>,
    pub pair: Pair<u8, Option<String>>,
    pub map: BTreeMap<String, Generic<f64>>,
}

/// Echoes generics instantiated several times.
#[tool(tier = read)]
pub fn generic_instances(params: Instances) -> Result<Instances, ToolError> {
    Ok(params)
}

/// Echoes a generic struct at the root.
#[tool(tier = read)]
pub fn generic_root(params: Generic<Vec<String>>) -> Result<Generic<Generic<bool>>, ToolError> {
    let _ = params;
    Err(ToolError::new("this tool exists for its schemas"))
}

/// Echoes a generic enum at the root.
#[tool(tier = read)]
pub fn generic_enum_root(params: Field<Either<u8, u16>>) -> Result<Either<u8, u16>, ToolError> {
    Ok(params.value)
}

/// A generic wrapper with a default type.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Tagged<T, M = String> {
    pub value: T,
    pub meta: M,
}

/// Echoes a generic with a defaulted parameter, given explicitly.
#[tool(tier = read)]
pub fn generic_two(params: Field<Tagged<u8, bool>>) -> Result<Tagged<u8, bool>, ToolError> {
    Ok(params.value)
}

/// Generic over a type used only in a skipped field.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Skipping<T> {
    pub kept: u8,
    #[serde(skip)]
    pub skipped: Option<T>,
}

/// Different instances of a type whose parameter does not reach the schema.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct SkippingInstances {
    pub a: Skipping<u8>,
    pub b: Skipping<String>,
}

/// Echoes instances of a type whose parameter does not reach the schema.
#[tool(tier = read)]
pub fn generic_skipping(params: SkippingInstances) -> Result<SkippingInstances, ToolError> {
    Ok(params)
}

/// Generic defaults left out, and a flattened generic.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Defaulted {
    pub tagged: Tagged<u8>,
    pub explicit: Tagged<u8, String>,
    pub other: Tagged<i8>,
    #[serde(flatten)]
    pub rest: Flattened<serde_json::Value>,
}

/// A generic flattened into another struct.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Flattened<T> {
    #[serde(flatten)]
    pub extra: T,
}

/// Echoes generics with defaults left out.
#[tool(tier = read)]
pub fn generic_defaults(params: Defaulted) -> Result<Defaulted, ToolError> {
    Ok(params)
}
