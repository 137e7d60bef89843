//! Corner cases of schemars' derive that are easy to get wrong: nested
//! options, `Self`, flattened enums, tagged newtypes of strict structs,
//! skipped tuple fields, map keys of every kind, doc attributes written by
//! hand, and enums without variants.

use crate::common::Field;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::num::NonZeroU8;
use tooltable::{ToolError, tool};

/// A tree that names itself with `Self`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct SelfTree {
    pub label: String,
    pub children: Vec<Self>,
    pub parent: Option<Box<Self>>,
}

/// Echoes a tree that names itself with `Self`.
#[tool(tier = read)]
pub fn corner_self(params: SelfTree) -> Result<SelfTree, ToolError> {
    Ok(params)
}

/// Options of options, and options in collections.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Optionals {
    pub double: Option<Option<u8>>,
    pub double_ref: Option<Option<crate::structs::Address>>,
    pub list_of_refs: Vec<Option<crate::structs::Address>>,
    pub map_of_options: BTreeMap<String, Option<bool>>,
    pub option_unit: Option<()>,
    pub option_value: Option<serde_json::Value>,
    pub option_enum: Option<crate::enums::Light>,
    pub option_tuple_struct: Option<crate::structs::Point3>,
    #[serde(default)]
    pub defaulted_option: Option<crate::structs::Address>,
    #[schemars(required)]
    pub required_ref: Option<crate::structs::Address>,
    #[schemars(required)]
    pub required_double: Option<Option<u8>>,
}

/// Echoes options of options.
#[tool(tier = read)]
pub fn corner_optionals(params: Optionals) -> Result<Optionals, ToolError> {
    Ok(params)
}

/// Flattened enums of each representation.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind")]
pub enum InternalPart {
    A { a: u8 },
    B { b: String },
}

/// An untagged part.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum UntaggedPart {
    Number { number: f64 },
    Text { text: String },
}

/// Units only, flattened.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub enum UnitPart {
    Yes,
    No,
}

/// Flattened enums.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct FlatEnums {
    pub id: u32,
    #[serde(flatten)]
    pub internal: InternalPart,
    #[serde(flatten)]
    pub untagged: Option<UntaggedPart>,
    #[serde(flatten)]
    pub units: UnitPart,
}

/// Echoes flattened enums.
#[tool(tier = read)]
pub fn corner_flat_enums(params: FlatEnums) -> Result<FlatEnums, ToolError> {
    Ok(params)
}

/// Optional flattened tagged enums.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct FlatOptionalEnums {
    pub id: u32,
    #[serde(flatten)]
    pub internal: Option<InternalPart>,
    #[serde(flatten)]
    pub sort: Option<crate::attributes::Sort>,
}

/// Echoes optional flattened tagged enums.
#[tool(tier = read)]
pub fn corner_flat_optional_enums(
    params: FlatOptionalEnums,
) -> Result<FlatOptionalEnums, ToolError> {
    Ok(params)
}

/// A strict struct, held by a tagged newtype variant.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StrictInner {
    pub value: u8,
}

/// Tagged newtype variants of strict, unit and plain types.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TaggedNewtypes {
    Strict(StrictInner),
    Unit(crate::structs::Marker),
    Plain(crate::structs::Address),
    Inline(crate::attributes::Inlined),
    Flat(FlatHolder),
}

/// Echoes tagged newtype variants.
#[tool(tier = read)]
pub fn corner_tagged_newtypes(params: Field<TaggedNewtypes>) -> Result<TaggedNewtypes, ToolError> {
    Ok(params.value)
}

/// A tuple struct with a skipped field.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct SkippedTuple(
    pub u8,
    #[serde(skip)] pub u8,
    #[serde(skip_serializing)] pub String,
    /// A documented element.
    pub bool,
);

/// A tuple variant with a skipped field, and a struct variant with one.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub enum SkippedVariants {
    Tuple(u8, #[serde(skip_deserializing)] u8),
    Struct {
        a: u8,
        #[serde(skip_serializing)]
        b: u8,
        #[serde(skip_deserializing)]
        c: String,
    },
}

/// Skipped fields of tuples and variants.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Skipped {
    pub tuple: SkippedTuple,
    pub variants: SkippedVariants,
}

/// Echoes skipped fields of tuples and variants.
#[tool(tier = read)]
pub fn corner_skipped(params: Skipped) -> Result<Skipped, ToolError> {
    Ok(params)
}

/// A name, as a documented newtype (not forwarded).
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
pub struct Name(pub String);

/// Map keys of every kind.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct MapKeys {
    pub by_nonzero_unsigned: BTreeMap<NonZeroU8, u8>,
    pub by_i128: BTreeMap<i128, u8>,
    pub by_user: BTreeMap<crate::attributes::UserId, u8>,
    pub by_name: BTreeMap<Name, u8>,
    pub by_renamed_enum: BTreeMap<KeyVariants, u8>,
    pub by_documented: BTreeMap<crate::enums::Documented, u8>,
    pub by_uuid: BTreeMap<uuid::Uuid, u8>,
    pub by_version: BTreeMap<semver::Version, u8>,
    pub by_string_ref: BTreeMap<Box<str>, u8>,
    pub by_ip: BTreeMap<std::net::Ipv4Addr, u8>,
    pub by_date: BTreeMap<chrono::NaiveDate, u8>,
    pub by_pattern: BTreeMap<PatternKey, u8>,
}

/// Unit variants renamed to kebab-case, as map keys.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum KeyVariants {
    FirstKey,
    SecondKey,
}

/// A struct with a flattened map, held by a tagged newtype variant.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct FlatHolder {
    pub name: String,
    #[serde(flatten)]
    pub rest: BTreeMap<String, u8>,
}

/// A key with a pattern.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(transparent)]
pub struct PatternKey(#[schemars(regex(pattern = "^k"))] pub String);

/// Echoes maps with keys of every kind.
#[tool(tier = read)]
pub fn corner_map_keys(params: MapKeys) -> Result<MapKeys, ToolError> {
    Ok(params)
}

#[doc = "Documented by hand."]
#[doc = ""]
#[doc = "  With an indented line."]
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct HandDocs {
    /**
     * A block comment.
     */
    pub block: u8,
    #[doc = "#Tight title\nand text"]
    pub tight: u8,
    // An empty doc attribute still counts as a doc for schemars.
    #[allow(clippy::empty_docs)]
    #[doc = ""]
    pub empty_doc: u8,
    /// # Title only, with trailing spaces   
    pub title_only: u8,
    #[doc(hidden)]
    pub hidden: u8,
    ///    Leading spaces.
    ///
    /// Two paragraphs.
    pub spaced: u8,
}

/// Echoes hand-written doc attributes.
#[tool(tier = read)]
pub fn corner_hand_docs(params: HandDocs) -> Result<HandDocs, ToolError> {
    Ok(params)
}

/// An enum without variants.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub enum Never {}

/// Holds what can never be.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct HoldsNever {
    pub never: Option<Never>,
    pub nevers: Vec<Never>,
}

/// Echoes what holds an enum without variants.
#[tool(tier = read)]
pub fn corner_never(params: HoldsNever) -> Result<HoldsNever, ToolError> {
    Ok(params)
}

/// Unit variants given other schemas, and renamed or aliased variants.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub enum OddUnits {
    #[schemars(with = "u8")]
    Numbered,
    #[serde(rename = "renamed-unit")]
    Renamed,
    #[serde(alias = "also")]
    Aliased,
    #[serde(other)]
    Unknown,
}

/// Internally tagged unit variants, renamed.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "t", rename_all = "SCREAMING_SNAKE_CASE")]
pub enum TaggedUnits {
    FirstOne,
    #[schemars(with = "crate::structs::Address")]
    SecondOne,
    /// Third.
    ThirdOne,
}

/// Adjacently tagged variants with `with`, and units.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "t", content = "c")]
pub enum AdjacentOdd {
    #[schemars(with = "String")]
    Unit,
    Unit2,
    Newtype(crate::structs::Marker),
    Tuple(u8, crate::structs::Address),
    #[serde(untagged)]
    Fallback(serde_json::Value),
}

/// Odd enums.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct OddEnums {
    pub odd_units: OddUnits,
    pub tagged_units: TaggedUnits,
    pub adjacent: AdjacentOdd,
}

/// Echoes odd enums.
#[tool(tier = read)]
pub fn corner_odd_enums(params: OddEnums) -> Result<OddEnums, ToolError> {
    Ok(params)
}

/// An inlined enum.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[schemars(inline)]
pub enum InlineEnum {
    A,
    B(u8),
}

/// A generic enum instantiated twice, and an inlined enum.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Inlines {
    pub inline_enum: InlineEnum,
    pub maybe_inline_enum: Option<InlineEnum>,
    pub generic_a: crate::generics::Either<InlineEnum, u8>,
    pub generic_b: crate::generics::Either<u8, InlineEnum>,
}

/// Echoes inlined things.
#[tool(tier = read)]
pub fn corner_inlines(params: Inlines) -> Result<Inlines, ToolError> {
    Ok(params)
}

/// Struct variants that flatten, and a strict internally tagged enum of them.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "op", deny_unknown_fields)]
pub enum FlatVariants {
    Page {
        #[serde(flatten)]
        paging: crate::attributes::Paging,
        query: String,
    },
    Empty {},
    Unit,
}

/// Echoes struct variants that flatten.
#[tool(tier = read)]
pub fn corner_flat_variants(params: Field<FlatVariants>) -> Result<FlatVariants, ToolError> {
    Ok(params.value)
}

/// A recursive generic.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct GenericTree<T> {
    pub value: T,
    pub children: Vec<GenericTree<T>>,
}

/// Recursive generics.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct GenericTrees {
    pub numbers: GenericTree<u8>,
    pub words: GenericTree<String>,
}

/// Echoes recursive generics.
#[tool(tier = read)]
pub fn corner_generic_trees(params: GenericTrees) -> Result<GenericTree<bool>, ToolError> {
    let _ = params;
    Err(ToolError::new("this tool exists for its schemas"))
}

/// A field whose default is a type that only deserializes.
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct InputOnly {
    pub a: u8,
}

/// Defaults that schemars leaves out.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct UnwrittenDefaults {
    #[serde(default)]
    pub input_only: InputOnly,
    #[serde(default)]
    pub list_of_input_only: Vec<InputOnly>,
    #[serde(default)]
    pub written: u8,
}

/// Takes defaults that schemars leaves out.
#[tool(tier = read)]
pub fn corner_unwritten_defaults(params: UnwrittenDefaults) -> Result<u8, ToolError> {
    Ok(params.written)
}

/// Defaults of fields given schemas by `with`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct WithDefaults {
    #[serde(default)]
    #[schemars(with = "String")]
    pub count: u32,
    #[serde(default = "one")]
    #[schemars(with = "i64")]
    pub one: u8,
}

fn one() -> u8 {
    1
}

/// Echoes defaults of fields given schemas by `with`.
#[tool(tier = read)]
pub fn corner_with_defaults(params: WithDefaults) -> Result<WithDefaults, ToolError> {
    Ok(params)
}

/// A type whose name needs escaping in a `$ref`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename = "Odd/name~x")]
pub struct OddName {
    pub a: u8,
}

/// Holds a type whose name needs escaping in a `$ref`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct HoldsOddName {
    pub odd: OddName,
}

/// Echoes a type whose name needs escaping in a `$ref`.
#[tool(tier = read)]
pub fn corner_odd_name(params: HoldsOddName) -> Result<HoldsOddName, ToolError> {
    Ok(params)
}
