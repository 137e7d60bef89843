//! Validation keywords from schemars', validator's and garde's attributes,
//! examples, and `extend`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use tooltable::{ToolError, tool};

/// Validation written with `#[schemars(...)]`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct SchemarsRules {
    #[schemars(range(min = 1, max = 100))]
    pub percent: u8,
    #[schemars(range(min = -1.5))]
    pub above: f64,
    #[schemars(range(max = 10))]
    pub maybe_small: Option<u32>,
    #[schemars(length(min = 1, max = 64))]
    pub name: String,
    #[schemars(length(equal = 3))]
    pub triple: Vec<u8>,
    #[schemars(length(min = 2))]
    pub maybe_list: Option<Vec<String>>,
    #[schemars(regex(pattern = r"^[a-z]+$"))]
    pub word: String,
    #[schemars(contains("needle"))]
    pub haystack: String,
    #[schemars(contains(pattern = "a.b"))]
    pub dotted: String,
    #[schemars(email)]
    pub email: String,
    #[schemars(url)]
    pub homepage: Option<String>,
    #[schemars(ip)]
    pub address: String,
    #[schemars(ipv4)]
    pub address_v4: String,
    #[schemars(ipv6)]
    pub address_v6: String,
    #[schemars(inner(length(max = 5)))]
    pub short_words: Vec<String>,
    #[schemars(inner(range(min = 0, max = 9)))]
    pub digits: Vec<i32>,
    #[schemars(length(min = 1), inner(regex(pattern = "^x")))]
    pub xs: Vec<String>,
    #[schemars(range(min = 1, max = 5))]
    pub not_a_number: String,
    #[schemars(length(max = 4))]
    pub map: BTreeMap<String, u8>,
    #[schemars(range(min = 1))]
    pub rated: crate::attributes::UserId,
}

/// Echoes validation written with `#[schemars(...)]`.
#[tool(tier = read)]
pub fn valid_schemars(params: SchemarsRules) -> Result<SchemarsRules, ToolError> {
    Ok(params)
}

/// Validation written for the validator crate.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct ValidatorRules {
    #[validate(range(min = 1, max = 10))]
    pub count: u16,
    #[validate(length(min = 1, max = 20, message = "too long"))]
    pub title: String,
    #[validate(email(message = "not an email"))]
    pub email: String,
    #[validate(url)]
    pub link: String,
    #[validate(contains(pattern = "@"))]
    pub handle: String,
    #[validate(required)]
    pub required: Option<String>,
    #[validate(length(equal = 2))]
    pub code: String,
    #[validate(range(min = "0.5"))]
    pub ratio: f32,
}

/// Echoes validation written for the validator crate.
#[tool(tier = read)]
pub fn valid_validator(params: ValidatorRules) -> Result<ValidatorRules, ToolError> {
    Ok(params)
}

/// Validation written for the garde crate.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct GardeRules {
    #[garde(range(min = 1, max = 10))]
    pub count: u16,
    #[garde(length(min = 1, max = 20))]
    pub title: String,
    #[garde(email)]
    pub email: String,
    #[garde(url)]
    pub link: String,
    #[garde(contains("@"))]
    pub handle: String,
    #[garde(pattern(r"^\d+$"))]
    pub digits: String,
    #[garde(required)]
    pub required: Option<u8>,
    #[garde(inner(length(min = 1)))]
    pub names: Vec<String>,
    #[garde(ip)]
    pub ip: String,
    #[garde(skip)]
    pub skipped: String,
}

/// Echoes validation written for the garde crate.
#[tool(tier = read)]
pub fn valid_garde(params: GardeRules) -> Result<GardeRules, ToolError> {
    Ok(params)
}

/// Examples and extensions.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[schemars(example = &"not a path", extend("x-kind" = "record", "x-version" = 2))]
pub struct Examples {
    #[schemars(example = 5, example = 10)]
    pub count: u32,
    #[schemars(example = &"hello world")]
    pub greeting: String,
    #[schemars(example = 1.5, example = -2)]
    pub ratio: f64,
    #[schemars(example = [1, 2, 3])]
    pub list: Vec<u8>,
    #[schemars(example = true)]
    pub flag: bool,
    #[schemars(extend("x-order" = 1, "x-hidden" = false, "x-tags" = ["a", "b"]))]
    pub extended: String,
    #[schemars(extend("x-null" = null, "x-object" = {"a": 1, "b": [true, "c"]}))]
    pub extended_object: u8,
    #[schemars(extend("type" = "string"))]
    pub overridden_type: u8,
    #[schemars(example = 'x')]
    pub letter: char,
}

/// Echoes examples and extensions.
#[tool(tier = read)]
pub fn valid_examples(params: Examples) -> Result<Examples, ToolError> {
    Ok(params)
}

/// Extensions on enums and variants.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[schemars(extend("x-enum" = true))]
pub enum ExtendedEnum {
    #[schemars(extend("x-variant" = "a"))]
    A,
    #[schemars(title = "Bee", description = "The second.")]
    B(u8),
    #[schemars(example = &"ignored")]
    C { c: u8 },
}

/// Echoes extensions on enums and variants.
#[tool(tier = read)]
pub fn valid_extended_enum(
    params: crate::common::Field<ExtendedEnum>,
) -> Result<ExtendedEnum, ToolError> {
    Ok(params.value)
}
