//! Defaults written as constant expressions, as real servers write them:
//! integer and float arithmetic at the width of the field's type, the
//! crate's `const` items (through `use`, modules and globs), `MIN`/`MAX`,
//! strings through conversions, empty collections, `vec![..]` of constants,
//! and functions that `return` their value.

use crate::defaults::Mode;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::path::PathBuf;
use tooltable::{ToolError, tool};

/// Limits, in a module of their own.
pub mod limits {
    /// Results per page.
    pub const PAGE: u32 = 25;
    /// One kibibyte.
    pub const KIB: usize = 1024;
    /// A buffer, from another module's const.
    pub const BUFFER: usize = KIB * super::BLOCKS;
    /// A timeout built from a const of this module and one of the root.
    pub const TIMEOUT_SECS: u64 = 5 * crate::constants::MINUTE;

    /// A default function imported by name, whose body names this module's const.
    pub fn default_pages() -> u32 {
        PAGE * 3
    }
}

/// Reached through a glob import.
pub mod retry {
    /// Attempts before giving up.
    pub const ATTEMPTS: u8 = 3;
    /// A backoff factor.
    pub const FACTOR: f64 = 1.5;
}

use limits::{PAGE, default_pages};
use retry::*;

const BLOCKS: usize = 4;
const MINUTE: u64 = 60;
const MAX_RESULTS: u32 = 100;
const SHIFT: u8 = 4;
const DEFAULT_BRANCH: &str = "main";
const VERBOSE: bool = true;
const SEPARATOR: char = ',';
const HALF: f32 = 0.5;
const DEFAULT_MODE: Mode = Mode::Fast;
const WINDOW: (u8, u16) = (2, 60 * 60);

#[cfg(feature = "never-on")]
const EDITION: u16 = 2015;
#[cfg(not(feature = "never-on"))]
const EDITION: u16 = 2024;

fn default_max_size() -> usize {
    1024 * 1024
}

fn five_minutes() -> u32 {
    60 * 5
}

fn minus_one() -> i32 {
    -1
}

fn most_negative_byte() -> i8 {
    -128
}

fn negated_difference() -> i16 {
    -(3 - 10)
}

fn shifted_plus_one() -> u32 {
    (1 << 20) + 1
}

fn suffixed_shift() -> u64 {
    1u64 << 40
}

fn masked() -> u8 {
    0xF0 & 0b1010_1010
}

fn all_ones() -> u16 {
    !0
}

fn into_the_sign_bit() -> i8 {
    1 << 7
}

fn remainder() -> i32 {
    -17 % 5
}

fn quotient() -> i32 {
    -17 / 5
}

fn truncated() -> u32 {
    100 / 7 * 7
}

fn bits() -> u8 {
    (7 ^ 2) | 8
}

fn arithmetic_shift() -> i64 {
    -16 >> 2
}

fn shift_by_const() -> u32 {
    1 << SHIFT
}

fn precedence() -> i64 {
    2 + 3 * 4 - 10 / 3
}

fn wide() -> u128 {
    1 << 40
}

fn wide_negative() -> i128 {
    -5 * 3
}

/// Integer arithmetic, at the width of each field's type.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct IntegerExpressions {
    #[serde(default = "default_max_size")]
    pub max_size: usize,
    #[serde(default = "five_minutes")]
    pub five_minutes: u32,
    #[serde(default = "minus_one")]
    pub minus_one: i32,
    #[serde(default = "most_negative_byte")]
    pub most_negative_byte: i8,
    #[serde(default = "negated_difference")]
    pub negated_difference: i16,
    #[serde(default = "shifted_plus_one")]
    pub shifted_plus_one: u32,
    #[serde(default = "suffixed_shift")]
    pub suffixed_shift: u64,
    #[serde(default = "masked")]
    pub masked: u8,
    #[serde(default = "all_ones")]
    pub all_ones: u16,
    #[serde(default = "into_the_sign_bit")]
    pub into_the_sign_bit: i8,
    #[serde(default = "remainder")]
    pub remainder: i32,
    #[serde(default = "quotient")]
    pub quotient: i32,
    #[serde(default = "truncated")]
    pub truncated: u32,
    #[serde(default = "bits")]
    pub bits: u8,
    #[serde(default = "arithmetic_shift")]
    pub arithmetic_shift: i64,
    #[serde(default = "shift_by_const")]
    pub shift_by_const: u32,
    #[serde(default = "precedence")]
    pub precedence: i64,
    #[serde(default = "wide")]
    pub wide: u128,
    #[serde(default = "wide_negative")]
    pub wide_negative: i128,
}

/// Echoes integer arithmetic defaults.
#[tool(tier = read)]
pub fn constant_integers(params: IntegerExpressions) -> Result<IntegerExpressions, ToolError> {
    Ok(params)
}

fn product() -> f64 {
    1.5 * 2.0
}

fn ratio() -> f64 {
    10.0 / 4.0
}

fn negative_half() -> f64 {
    -0.5
}

fn inexact_sum() -> f64 {
    0.1 + 0.2
}

fn single_sum() -> f32 {
    0.1 + 0.2
}

fn single_third() -> f32 {
    1.0 / 3.0
}

fn float_remainder() -> f64 {
    7.5 % 2.0
}

fn milliseconds() -> f64 {
    1e3 * 60.0
}

fn suffixed_single() -> f32 {
    0.1f32
}

fn overflowing_float() -> f64 {
    1e308 * 10.0
}

fn factor_squared() -> f64 {
    FACTOR * FACTOR
}

fn quarter() -> f32 {
    HALF / 2.0
}

/// Float arithmetic, in each field's precision.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct FloatExpressions {
    #[serde(default = "product")]
    pub product: f64,
    #[serde(default = "ratio")]
    pub ratio: f64,
    #[serde(default = "negative_half")]
    pub negative_half: f64,
    #[serde(default = "inexact_sum")]
    pub inexact_sum: f64,
    #[serde(default = "single_sum")]
    pub single_sum: f32,
    #[serde(default = "single_third")]
    pub single_third: f32,
    #[serde(default = "float_remainder")]
    pub float_remainder: f64,
    #[serde(default = "milliseconds")]
    pub milliseconds: f64,
    #[serde(default = "suffixed_single")]
    pub suffixed_single: f32,
    /// Infinite: serde_json writes `null`, and so does schemars.
    #[serde(default = "overflowing_float")]
    pub overflowing_float: f64,
    #[serde(default = "factor_squared")]
    pub factor_squared: f64,
    #[serde(default = "quarter")]
    pub quarter: f32,
}

/// Echoes float arithmetic defaults.
#[tool(tier = read)]
pub fn constant_floats(params: FloatExpressions) -> Result<FloatExpressions, ToolError> {
    Ok(params)
}

fn max_results() -> u32 {
    MAX_RESULTS
}

fn double_page() -> u32 {
    PAGE * 2
}

fn buffer() -> usize {
    limits::BUFFER
}

fn timeout() -> u64 {
    crate::constants::limits::TIMEOUT_SECS
}

fn attempts() -> u8 {
    ATTEMPTS + 1
}

fn largest() -> u32 {
    u32::MAX
}

fn smallest() -> i64 {
    i64::MIN
}

fn largest_unsigned() -> u64 {
    u64::MAX
}

#[allow(deprecated, clippy::legacy_numeric_constants)]
fn legacy_path() -> u16 {
    std::u16::MAX
}

fn below_max() -> u8 {
    u8::MAX - 5
}

fn edition() -> u16 {
    EDITION
}

fn verbose() -> bool {
    VERBOSE
}

fn separator() -> char {
    SEPARATOR
}

fn mode() -> Mode {
    DEFAULT_MODE
}

fn window() -> (u8, u16) {
    WINDOW
}

/// The crate's `const` items and the integer types' bounds.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct ConstItems {
    #[serde(default = "max_results")]
    pub max_results: u32,
    #[serde(default = "double_page")]
    pub double_page: u32,
    #[serde(default = "buffer")]
    pub buffer: usize,
    #[serde(default = "timeout")]
    pub timeout: u64,
    #[serde(default = "attempts")]
    pub attempts: u8,
    #[serde(default = "largest")]
    pub largest: u32,
    #[serde(default = "smallest")]
    pub smallest: i64,
    #[serde(default = "largest_unsigned")]
    pub largest_unsigned: u64,
    #[serde(default = "legacy_path")]
    pub legacy_path: u16,
    #[serde(default = "below_max")]
    pub below_max: u8,
    #[serde(default = "edition")]
    pub edition: u16,
    #[serde(default = "verbose")]
    pub verbose: bool,
    #[serde(default = "separator")]
    pub separator: char,
    #[serde(default = "mode")]
    pub mode: Mode,
    #[serde(default = "window")]
    pub window: (u8, u16),
    #[serde(default = "limits_page")]
    pub page_by_path: u32,
    #[serde(default = "default_pages")]
    pub imported_function: u32,
    #[serde(default = "limits::default_pages")]
    pub function_by_path: u32,
}

fn limits_page() -> u32 {
    self::limits::PAGE
}

/// Echoes defaults from `const` items.
#[tool(tier = read)]
pub fn constant_items(params: ConstItems) -> Result<ConstItems, ToolError> {
    Ok(params)
}

fn encoding() -> String {
    "utf-8".to_string()
}

fn owned() -> String {
    "owned".to_owned()
}

fn branch() -> String {
    String::from("main")
}

fn converted() -> String {
    "converted".into()
}

fn from_const() -> String {
    DEFAULT_BRANCH.to_string()
}

fn qualified() -> String {
    std::string::String::from("qualified")
}

fn directory() -> PathBuf {
    PathBuf::from("/tmp")
}

fn maybe_name() -> Option<String> {
    Some("name".into())
}

fn enabled() -> bool {
    true
}

fn letter() -> char {
    'x'
}

/// Strings through conversions, `bool` and `char` literals.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct StringExpressions {
    #[serde(default = "encoding")]
    pub encoding: String,
    #[serde(default = "owned")]
    pub owned: String,
    #[serde(default = "branch")]
    pub branch: String,
    #[serde(default = "converted")]
    pub converted: String,
    #[serde(default = "from_const")]
    pub from_const: String,
    #[serde(default = "qualified")]
    pub qualified: String,
    #[serde(default = "directory")]
    pub directory: PathBuf,
    #[serde(default = "maybe_name")]
    pub maybe_name: Option<String>,
    #[serde(default = "enabled")]
    pub enabled: bool,
    #[serde(default = "letter")]
    pub letter: char,
}

/// Echoes string, `bool` and `char` defaults.
#[tool(tier = read)]
pub fn constant_strings(params: StringExpressions) -> Result<StringExpressions, ToolError> {
    Ok(params)
}

fn empty_macro() -> Vec<u32> {
    vec![]
}

fn empty_new() -> Vec<String> {
    Vec::new()
}

fn empty_turbofish() -> Vec<u8> {
    Vec::<u8>::new()
}

fn empty_map() -> HashMap<String, u32> {
    HashMap::new()
}

fn empty_default_map() -> BTreeMap<String, u32> {
    Default::default()
}

fn empty_set() -> BTreeSet<u8> {
    BTreeSet::new()
}

fn empty_hash_set() -> HashSet<String> {
    HashSet::default()
}

fn empty_deque() -> VecDeque<u8> {
    VecDeque::new()
}

fn empty_string() -> String {
    String::new()
}

fn empty_index_map() -> indexmap::IndexMap<String, u8> {
    indexmap::IndexMap::new()
}

fn computed_items() -> Vec<u32> {
    vec![60 * 5, MAX_RESULTS, u32::MAX, 1 << 3]
}

fn string_items() -> Vec<String> {
    vec!["a".to_string(), DEFAULT_BRANCH.into(), String::from("c")]
}

fn optional_items() -> Vec<Option<i16>> {
    vec![Some(-1), None, Some(2 * 3)]
}

/// Empty collections and `vec![..]` of constant expressions.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct CollectionExpressions {
    #[serde(default = "empty_macro")]
    pub empty_macro: Vec<u32>,
    #[serde(default = "empty_new")]
    pub empty_new: Vec<String>,
    #[serde(default = "empty_turbofish")]
    pub empty_turbofish: Vec<u8>,
    #[serde(default = "empty_map")]
    pub empty_map: HashMap<String, u32>,
    #[serde(default = "empty_default_map")]
    pub empty_default_map: BTreeMap<String, u32>,
    #[serde(default = "empty_set")]
    pub empty_set: BTreeSet<u8>,
    #[serde(default = "empty_hash_set")]
    pub empty_hash_set: HashSet<String>,
    #[serde(default = "empty_deque")]
    pub empty_deque: VecDeque<u8>,
    #[serde(default = "empty_string")]
    pub empty_string: String,
    #[serde(default = "empty_index_map")]
    pub empty_index_map: indexmap::IndexMap<String, u8>,
    #[serde(default = "computed_items")]
    pub computed_items: Vec<u32>,
    #[serde(default = "string_items")]
    pub string_items: Vec<String>,
    #[serde(default = "optional_items")]
    pub optional_items: Vec<Option<i16>>,
}

/// Echoes collection defaults.
#[tool(tier = read)]
pub fn constant_collections(
    params: CollectionExpressions,
) -> Result<CollectionExpressions, ToolError> {
    Ok(params)
}

#[allow(clippy::needless_return)]
fn returned() -> u32 {
    return 60 * 5;
}

#[allow(clippy::needless_return)]
fn returned_without_semicolon() -> String {
    return "returned".to_owned();
}

fn some_product() -> Option<u64> {
    Some(1024 * 1024 * 1024 * 16)
}

/// Defaults from functions that `return` their value, and a container
/// `Default` impl made of constant expressions.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct ReturnedDefaults {
    pub limit: u32,
    pub size: usize,
    pub name: String,
    pub ratio: f32,
    #[serde(default = "returned")]
    pub returned: u32,
    #[serde(default = "returned_without_semicolon")]
    pub returned_without_semicolon: String,
    #[serde(default = "some_product")]
    pub some_product: Option<u64>,
}

impl Default for ReturnedDefaults {
    fn default() -> Self {
        ReturnedDefaults {
            limit: MAX_RESULTS * 2,
            size: limits::KIB * limits::KIB,
            name: DEFAULT_BRANCH.to_owned(),
            ratio: HALF * 3.0,
            returned: 0,
            returned_without_semicolon: String::new(),
            some_product: None,
        }
    }
}

/// Echoes defaults from functions that `return` their value.
#[tool(tier = read)]
pub fn constant_returns(params: ReturnedDefaults) -> Result<ReturnedDefaults, ToolError> {
    Ok(params)
}
