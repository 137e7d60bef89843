//! Primitive types: every integer and float type, `bool`, `char`, `String`,
//! `str`, `()` and the `NonZero*` integers.

use crate::common::Field;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::num::{
    NonZeroI8, NonZeroI16, NonZeroI32, NonZeroI64, NonZeroI128, NonZeroIsize, NonZeroU8,
    NonZeroU16, NonZeroU32, NonZeroU64, NonZeroU128, NonZeroUsize,
};
use tooltable::{ToolError, tool};

/// Every signed integer type.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct SignedIntegers {
    /// 8 bits.
    pub a: i8,
    /// 16 bits.
    pub b: i16,
    /// 32 bits.
    pub c: i32,
    /// 64 bits.
    pub d: i64,
    /// 128 bits.
    pub e: i128,
    /// Pointer-sized.
    pub f: isize,
}

/// Echoes every signed integer type.
#[tool(tier = read)]
pub fn prim_signed(params: SignedIntegers) -> Result<SignedIntegers, ToolError> {
    Ok(params)
}

/// Every unsigned integer type.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct UnsignedIntegers {
    pub a: u8,
    pub b: u16,
    pub c: u32,
    pub d: u64,
    pub e: u128,
    pub f: usize,
}

/// Echoes every unsigned integer type.
#[tool(tier = read)]
pub fn prim_unsigned(params: UnsignedIntegers) -> Result<UnsignedIntegers, ToolError> {
    Ok(params)
}

/// Both float types.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Floats {
    pub single: f32,
    pub double: f64,
    pub maybe: Option<f64>,
}

/// Echoes both float types.
#[tool(tier = read)]
pub fn prim_floats(params: Floats) -> Result<Floats, ToolError> {
    Ok(params)
}

/// Echoes a boolean.
#[tool(tier = read)]
pub fn prim_bool(params: Field<bool>) -> Result<bool, ToolError> {
    Ok(params.value)
}

/// Echoes a character.
#[tool(tier = read)]
pub fn prim_char(params: Field<char>) -> Result<char, ToolError> {
    Ok(params.value)
}

/// Echoes a string, as text.
#[tool(tier = read)]
pub fn prim_string(params: Field<String>) -> Result<String, ToolError> {
    Ok(params.value)
}

/// Takes a boxed `str`, returns a borrowed one in a field.
#[tool(tier = read)]
pub fn prim_str(params: Field<Box<str>>) -> Result<Field<&'static str>, ToolError> {
    let _ = params;
    Ok(Field { value: "str" })
}

/// Takes the unit type, returns nothing.
#[tool(tier = read)]
pub fn prim_unit(params: Field<()>) -> Result<(), ToolError> {
    let () = params.value;
    Ok(())
}

/// Echoes one unsigned integer, wrapped as `{"result": ..}`.
#[tool(tier = read)]
pub fn prim_u64(params: Field<u64>) -> Result<u64, ToolError> {
    Ok(params.value)
}

/// Takes a small integer, returns an optional float.
#[tool(tier = read)]
pub fn prim_optional_float(params: Field<i16>) -> Option<f32> {
    Some(f32::from(params.value))
}

/// Every signed non-zero integer type.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct NonZeroSigned {
    pub a: NonZeroI8,
    pub b: NonZeroI16,
    pub c: NonZeroI32,
    pub d: NonZeroI64,
    pub e: NonZeroI128,
    pub f: NonZeroIsize,
}

/// Echoes every signed non-zero integer type.
#[tool(tier = read)]
pub fn prim_nonzero_signed(params: NonZeroSigned) -> Result<NonZeroSigned, ToolError> {
    Ok(params)
}

/// Every unsigned non-zero integer type.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct NonZeroUnsigned {
    pub a: NonZeroU8,
    pub b: NonZeroU16,
    pub c: NonZeroU32,
    pub d: NonZeroU64,
    pub e: NonZeroU128,
    pub f: std::num::NonZeroUsize,
    pub g: Option<NonZeroUsize>,
}

/// Echoes every unsigned non-zero integer type.
#[tool(tier = read)]
pub fn prim_nonzero_unsigned(params: NonZeroUnsigned) -> Result<NonZeroUnsigned, ToolError> {
    Ok(params)
}

/// Echoes a non-zero integer at the root of the output.
#[tool(tier = read)]
pub fn prim_nonzero_root(params: Field<NonZeroU32>) -> Result<NonZeroU32, ToolError> {
    Ok(params.value)
}
