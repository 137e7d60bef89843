//! Types of other crates that schemars supports behind its features:
//! chrono, uuid, url, semver, rust_decimal, bytes, smallvec, arrayvec and
//! indexmap.

use crate::common::Field;
use arrayvec::{ArrayString, ArrayVec};
use bytes::Bytes;
use chrono::{DateTime, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime, Utc};
use indexmap::{IndexMap, IndexSet};
use rust_decimal::Decimal;
use schemars::JsonSchema;
use semver::Version;
use serde::{Deserialize, Serialize};
use smallvec::SmallVec;
use tooltable::{ToolError, tool};
use url::Url;
use uuid::Uuid;

/// chrono's types.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Chrono {
    /// In UTC.
    pub utc: DateTime<Utc>,
    /// With an offset.
    pub fixed: DateTime<FixedOffset>,
    pub date: NaiveDate,
    pub date_time: NaiveDateTime,
    pub time: NaiveTime,
    pub maybe_date: Option<NaiveDate>,
    pub weekday: chrono::Weekday,
}

/// Echoes chrono's types.
#[tool(tier = read)]
pub fn foreign_chrono(params: Chrono) -> Result<Chrono, ToolError> {
    Ok(params)
}

/// Echoes a date-time at the root.
#[tool(tier = read)]
pub fn foreign_date_time(params: Field<DateTime<Utc>>) -> Result<DateTime<Utc>, ToolError> {
    Ok(params.value)
}

/// Identifiers: uuid, url, semver.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Identifiers {
    pub uuid: Uuid,
    pub url: Url,
    pub version: Version,
    pub maybe_version: Option<Version>,
    pub uuids: Vec<uuid::Uuid>,
    pub maybe_url: Option<url::Url>,
}

/// Echoes identifiers.
#[tool(tier = read)]
pub fn foreign_identifiers(params: Identifiers) -> Result<Identifiers, ToolError> {
    Ok(params)
}

/// Echoes a version at the root.
#[tool(tier = read)]
pub fn foreign_version(params: Field<Version>) -> Result<Version, ToolError> {
    Ok(params.value)
}

/// Echoes a decimal (whose schema differs between the contracts).
#[tool(tier = read)]
pub fn foreign_decimal(params: Field<Decimal>) -> Result<Decimal, ToolError> {
    Ok(params.value)
}

/// Echoes bytes (whose schema differs between the contracts).
#[tool(tier = read)]
pub fn foreign_bytes(params: Field<Bytes>) -> Result<Bytes, ToolError> {
    Ok(params.value)
}

/// Numbers and bytes together.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Amounts {
    pub price: Decimal,
    pub maybe_price: Option<Decimal>,
    pub payload: Bytes,
    pub payloads: Vec<Bytes>,
}

/// Echoes numbers and bytes together.
#[tool(tier = read)]
pub fn foreign_amounts(params: Amounts) -> Result<Amounts, ToolError> {
    Ok(params)
}

/// Inline vectors.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Inline {
    pub small: SmallVec<[u8; 4]>,
    pub array: ArrayVec<u16, 3>,
    pub text: ArrayString<8>,
    pub small_strings: SmallVec<[String; 2]>,
}

/// Echoes inline vectors.
#[tool(tier = read)]
pub fn foreign_inline(params: Inline) -> Result<Inline, ToolError> {
    Ok(params)
}

/// Echoes an `ArrayVec` at the root.
#[tool(tier = read)]
pub fn foreign_array_vec(params: Field<ArrayVec<i8, 2>>) -> Result<ArrayVec<i8, 2>, ToolError> {
    Ok(params.value)
}

/// indexmap's map and set.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Indexed {
    pub map: IndexMap<String, i32>,
    pub set: IndexSet<String>,
    pub by_number: IndexMap<u8, String>,
}

/// Echoes indexmap's map and set.
#[tool(tier = read)]
pub fn foreign_indexed(params: Indexed) -> Result<Indexed, ToolError> {
    Ok(params)
}

/// Echoes an `IndexSet` at the root.
#[tool(tier = read)]
pub fn foreign_index_set(params: Field<IndexSet<u32>>) -> Result<IndexSet<u32>, ToolError> {
    Ok(params.value)
}
