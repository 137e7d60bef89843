//! serde's and schemars' attributes: renames in every case style, aliases,
//! skips, flattening, `deny_unknown_fields`, `transparent`, schemars'
//! `rename`/`title`/`description`/`required`/`inline`/`with`, serde `with`
//! paired with schemars `with`, and `cfg_attr`.

use crate::common::Field;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use tooltable::{ToolError, tool};

/// Renamed fields and a renamed container.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename = "RenamedThing")]
pub struct Renamed {
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(rename(serialize = "outName", deserialize = "in_name"))]
    pub both_ways: u8,
    #[serde(rename(deserialize = "only_in"))]
    pub only_deserialize: u8,
    #[serde(alias = "old_name", alias = "older_name")]
    pub aliased: bool,
    pub r#async: bool,
}

/// Holds a renamed struct.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct HoldsRenamed {
    pub inner: Renamed,
    pub more: Vec<Renamed>,
}

/// Echoes renamed fields.
#[tool(tier = read)]
pub fn attr_renamed(params: HoldsRenamed) -> Result<HoldsRenamed, ToolError> {
    Ok(params)
}

/// `rename_all = "lowercase"`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub struct Lower {
    pub first_field: u8,
    pub second_value_x: u8,
}

/// `rename_all = "UPPERCASE"`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "UPPERCASE")]
pub struct Upper {
    pub first_field: u8,
    pub second_value_x: u8,
}

/// `rename_all = "PascalCase"`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "PascalCase")]
pub struct Pascal {
    pub first_field: u8,
    pub second_value_x: u8,
}

/// `rename_all = "camelCase"`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Camel {
    pub first_field: u8,
    pub second_value_x: u8,
}

/// `rename_all = "snake_case"`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub struct Snake {
    pub first_field: u8,
    pub second_value_x: u8,
}

/// `rename_all = "SCREAMING_SNAKE_CASE"`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub struct ScreamingSnake {
    pub first_field: u8,
    pub second_value_x: u8,
}

/// `rename_all = "kebab-case"`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub struct Kebab {
    pub first_field: u8,
    pub second_value_x: u8,
}

/// `rename_all = "SCREAMING-KEBAB-CASE"`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "SCREAMING-KEBAB-CASE")]
pub struct ScreamingKebab {
    pub first_field: u8,
    pub second_value_x: u8,
}

/// Every case style on fields.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct FieldCases {
    pub lower: Lower,
    pub upper: Upper,
    pub pascal: Pascal,
    pub camel: Camel,
    pub snake: Snake,
    pub screaming_snake: ScreamingSnake,
    pub kebab: Kebab,
    pub screaming_kebab: ScreamingKebab,
}

/// Echoes every case style on fields.
#[tool(tier = read)]
pub fn attr_field_cases(params: FieldCases) -> Result<FieldCases, ToolError> {
    Ok(params)
}

/// Variants in lowercase.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum LowerVariants {
    FirstOne,
    SecondTwo(u8),
}

/// Variants in UPPERCASE.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "UPPERCASE")]
pub enum UpperVariants {
    FirstOne,
    SecondTwo(u8),
}

/// Variants in PascalCase.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "PascalCase")]
pub enum PascalVariants {
    FirstOne,
    SecondTwo(u8),
}

/// Variants in camelCase.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum CamelVariants {
    FirstOne,
    SecondTwo(u8),
}

/// Variants in snake_case.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SnakeVariants {
    FirstOne,
    SecondTwo(u8),
}

/// Variants in SCREAMING_SNAKE_CASE.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ScreamingSnakeVariants {
    FirstOne,
    SecondTwo(u8),
}

/// Variants in kebab-case.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum KebabVariants {
    FirstOne,
    SecondTwo(u8),
}

/// Variants in SCREAMING-KEBAB-CASE.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "SCREAMING-KEBAB-CASE")]
pub enum ScreamingKebabVariants {
    FirstOne,
    SecondTwo(u8),
}

/// Every case style on variants.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct VariantCases {
    pub lower: LowerVariants,
    pub upper: UpperVariants,
    pub pascal: PascalVariants,
    pub camel: CamelVariants,
    pub snake: SnakeVariants,
    pub screaming_snake: ScreamingSnakeVariants,
    pub kebab: KebabVariants,
    pub screaming_kebab: ScreamingKebabVariants,
}

/// Echoes every case style on variants.
#[tool(tier = read)]
pub fn attr_variant_cases(params: VariantCases) -> Result<VariantCases, ToolError> {
    Ok(params)
}

/// Different case styles for each direction.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all(serialize = "camelCase", deserialize = "kebab-case"))]
pub struct SplitCases {
    pub first_field: u8,
    #[serde(rename = "fixed")]
    pub second_field: u8,
}

/// Echoes different case styles for each direction.
#[tool(tier = read)]
pub fn attr_split_cases(params: SplitCases) -> Result<SplitCases, ToolError> {
    Ok(params)
}

/// `rename_all_fields` and variant-level `rename_all`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(
    rename_all = "snake_case",
    rename_all_fields = "camelCase",
    tag = "kind"
)]
pub enum Commands {
    MoveTo {
        target_x: i32,
        target_y: i32,
    },
    #[serde(rename_all = "SCREAMING_SNAKE_CASE")]
    SetColor {
        red_value: u8,
    },
    #[serde(rename = "say")]
    SayHello {
        the_text: String,
    },
}

/// Echoes `rename_all_fields`.
#[tool(tier = read)]
pub fn attr_rename_all_fields(params: Field<Commands>) -> Result<Commands, ToolError> {
    Ok(params.value)
}

/// Fields skipped on one side or both.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Skips {
    pub kept: String,
    #[serde(skip)]
    pub never: u8,
    #[serde(skip_deserializing)]
    pub output_only: u32,
    #[serde(skip_serializing)]
    pub input_only: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub maybe: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub list: Vec<u8>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub defaulted_list: Vec<u8>,
    /// Documented and skipped when empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub documented: Option<Field<u8>>,
}

/// Echoes fields skipped on one side or both.
#[tool(tier = read)]
pub fn attr_skips(params: Skips) -> Result<Skips, ToolError> {
    Ok(params)
}

/// Paging options, flattened into a request.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Paging {
    /// Where to start.
    pub offset: u32,
    /// How many.
    pub limit: Option<u32>,
}

/// Sorting, flattened into a request.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub enum Sort {
    ByName,
    ByDate { descending: bool },
}

/// Filter, flattened as an option.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Filter {
    pub tag: String,
}

/// A request with flattened parts.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Request {
    pub query: String,
    #[serde(flatten)]
    pub paging: Paging,
    #[serde(flatten)]
    pub sort: Sort,
    #[serde(flatten)]
    pub filter: Option<Filter>,
}

/// Echoes a request with flattened parts.
#[tool(tier = read)]
pub fn attr_flatten(params: Request) -> Result<Request, ToolError> {
    Ok(params)
}

/// A strict struct.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Strict {
    pub only: String,
    pub maybe: Option<u8>,
}

/// Echoes a strict struct.
#[tool(tier = read)]
pub fn attr_deny_unknown(params: Strict) -> Result<Strict, ToolError> {
    Ok(params)
}

/// A strict struct with a flattened part.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StrictPaged {
    pub query: String,
    #[serde(flatten)]
    pub paging: Paging,
}

/// Echoes a strict struct with a flattened part.
#[tool(tier = read)]
pub fn attr_deny_unknown_flatten(params: StrictPaged) -> Result<StrictPaged, ToolError> {
    Ok(params)
}

/// A transparent wrapper.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(transparent)]
pub struct UserId(pub u64);

/// A transparent wrapper around a struct, with a named field.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(transparent)]
pub struct Wrapper {
    pub inner: Paging,
}

/// A documented transparent wrapper: schemars no longer forwards it entirely.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(transparent)]
pub struct DocumentedId(pub String);

/// Transparent wrappers.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Transparent {
    pub user: UserId,
    pub wrapper: Wrapper,
    pub documented: DocumentedId,
    pub maybe_user: Option<UserId>,
}

/// Echoes transparent wrappers.
#[tool(tier = read)]
pub fn attr_transparent(params: Transparent) -> Result<Transparent, ToolError> {
    Ok(params)
}

// Without a doc comment, so that schemars forwards it entirely to `Paging`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(transparent)]
pub struct PlainWrapper {
    pub inner: Paging,
}

/// Echoes a transparent wrapper at the root (a documented one would be a
/// `$ref` to `Paging` at the root, which is not an object schema).
#[tool(tier = read)]
pub fn attr_transparent_root(params: PlainWrapper) -> Result<PlainWrapper, ToolError> {
    Ok(params)
}

/// schemars' own metadata.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[schemars(
    rename = "Metadata",
    title = "Some metadata",
    description = "Set by schemars."
)]
pub struct SchemarsMeta {
    /// Overridden by the attribute.
    #[schemars(title = "The name", description = "What it is called.")]
    pub name: String,
    #[schemars(required)]
    pub required_option: Option<u8>,
    #[schemars(required)]
    #[serde(default)]
    pub required_default: u8,
    #[schemars(rename = "renamed_by_schemars")]
    pub renamed: bool,
    pub inline: Inlined,
    pub maybe_inline: Option<Inlined>,
}

/// Always inlined.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[schemars(inline)]
pub struct Inlined {
    pub a: u8,
}

/// Echoes schemars' own metadata.
#[tool(tier = read)]
pub fn attr_schemars_meta(params: SchemarsMeta) -> Result<SchemarsMeta, ToolError> {
    Ok(params)
}

/// A count written as a string.
mod as_string {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(value: &u32, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(value)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u32, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// A type without a schema of its own, given one by `with`.
#[derive(Debug, Serialize, Deserialize)]
pub struct Opaque(pub String);

/// Schemas given by `with`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct WithTypes {
    #[serde(with = "as_string")]
    #[schemars(with = "String")]
    pub count: u32,
    #[schemars(with = "String")]
    pub opaque: Opaque,
    #[schemars(with = "Vec<u8>")]
    pub bytes: Opaque,
    #[schemars(with = "crate::structs::Point3")]
    pub point: Opaque,
}

/// Echoes schemas given by `with`.
#[tool(tier = read)]
pub fn attr_with(params: WithTypes) -> Result<WithTypes, ToolError> {
    Ok(params)
}

/// A container whose schema is another type's.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[schemars(with = "String")]
pub struct AsText(pub Opaque);

/// A variant whose schema is another type's.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub enum WithVariants {
    Plain(u8),
    #[schemars(with = "String")]
    Text(Opaque),
}

/// Containers and variants given schemas by `with`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct WithContainers {
    pub text: AsText,
    pub variants: WithVariants,
}

/// Echoes containers and variants given schemas by `with`.
#[tool(tier = read)]
pub fn attr_with_containers(params: WithContainers) -> Result<WithContainers, ToolError> {
    Ok(params)
}

/// Attributes under `cfg_attr`, on when the `camel` feature is (it is by default).
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "camel", serde(rename_all = "camelCase"))]
pub struct Configured {
    pub first_name: String,
    #[cfg_attr(feature = "never-on", serde(rename = "never"))]
    pub last_name: String,
    #[cfg_attr(not(feature = "never-on"), serde(default))]
    pub nick_name: String,
}

/// Echoes attributes under `cfg_attr`.
#[tool(tier = read)]
pub fn attr_cfg(params: Configured) -> Result<Configured, ToolError> {
    Ok(params)
}

/// Deprecated things, in a module that allows their use.
pub mod old {
    #![allow(deprecated)]

    use schemars::JsonSchema;
    use serde::{Deserialize, Serialize};

    /// A deprecated container.
    #[derive(Debug, Serialize, Deserialize, JsonSchema)]
    #[deprecated = "use something else"]
    pub struct Old {
        pub a: u8,
    }

    /// Holds deprecated things.
    #[derive(Debug, Serialize, Deserialize, JsonSchema)]
    pub struct HoldsOld {
        pub old: Old,
        #[deprecated]
        pub old_field: u8,
    }
}

pub use old::HoldsOld;

/// Echoes deprecated things.
#[tool(tier = read)]
#[allow(deprecated)]
pub fn attr_deprecated(params: HoldsOld) -> Result<HoldsOld, ToolError> {
    Ok(params)
}

/// A code read from and written as a string.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(try_from = "String", into = "String")]
pub struct Code {
    pub letters: String,
}

impl TryFrom<String> for Code {
    type Error = String;

    fn try_from(letters: String) -> Result<Code, String> {
        if letters.chars().all(|c| c.is_ascii_uppercase()) {
            Ok(Code { letters })
        } else {
            Err(format!("`{letters}` is not upper case"))
        }
    }
}

impl From<Code> for String {
    fn from(code: Code) -> String {
        code.letters
    }
}

/// Parts read from a list, written as a struct.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(from = "Vec<u8>")]
pub struct Parts {
    pub first: Option<u8>,
    pub rest: Vec<u8>,
}

impl From<Vec<u8>> for Parts {
    fn from(mut all: Vec<u8>) -> Parts {
        let first = if all.is_empty() {
            None
        } else {
            Some(all.remove(0))
        };
        Parts { first, rest: all }
    }
}

/// A coordinate written as a pair.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(into = "(u8, u8)")]
pub struct Coordinate {
    pub x: u8,
    pub y: u8,
}

impl From<Coordinate> for (u8, u8) {
    fn from(c: Coordinate) -> (u8, u8) {
        (c.x, c.y)
    }
}

/// A level read from a number.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(from = "u8")]
pub enum Level {
    Low,
    High,
}

impl From<u8> for Level {
    fn from(n: u8) -> Level {
        if n > 5 { Level::High } else { Level::Low }
    }
}

/// Types that serde reads or writes through another type.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Conversions {
    pub code: Code,
    pub parts: Parts,
    pub coordinate: Coordinate,
    pub level: Level,
    pub codes: Vec<Code>,
}

/// Echoes types that serde reads or writes through another type.
#[tool(tier = read)]
pub fn attr_conversions(params: Conversions) -> Result<Conversions, ToolError> {
    Ok(params)
}

/// Echoes a type read through another type at the root.
#[tool(tier = read)]
pub fn attr_conversion_root(params: Field<Parts>) -> Result<Parts, ToolError> {
    Ok(params.value)
}
