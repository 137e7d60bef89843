//! `"default"` values: a field type's own `Default`, `default = "path"`
//! functions with literal bodies, and container defaults (derived, written
//! by hand, and by path).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashSet};
use tooltable::{ToolError, tool};

/// Field defaults from each type's own `Default`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct TypeDefaults {
    #[serde(default)]
    pub count: u32,
    #[serde(default)]
    pub offset: i64,
    #[serde(default)]
    pub ratio: f64,
    #[serde(default)]
    pub single: f32,
    #[serde(default)]
    pub flag: bool,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub tags: Vec<String>,
    #[serde(default)]
    pub unique: HashSet<u8>,
    #[serde(default)]
    pub map: BTreeMap<String, u8>,
    #[serde(default)]
    pub maybe: Option<u8>,
    #[serde(default)]
    pub pair: (u8, bool),
    #[serde(default)]
    pub array: [u16; 2],
    #[serde(default)]
    pub unit: (),
    #[serde(default)]
    pub any: serde_json::Value,
    /// A documented defaulted field.
    #[serde(default)]
    pub documented: u8,
    #[serde(default)]
    pub nested: Settings,
    #[serde(default)]
    pub mode: Mode,
    #[serde(default)]
    pub path: std::path::PathBuf,
}

/// Settings that derive `Default`.
#[derive(Debug, Default, Serialize, Deserialize, JsonSchema)]
pub struct Settings {
    pub verbose: bool,
    pub level: u8,
    pub label: Option<String>,
}

/// A mode whose default is a marked variant.
#[derive(Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    Fast,
    #[default]
    Careful,
}

/// Echoes field defaults from each type's own `Default`.
#[tool(tier = read)]
pub fn default_types(params: TypeDefaults) -> Result<TypeDefaults, ToolError> {
    Ok(params)
}

fn default_port() -> u16 {
    8080
}

fn default_host() -> String {
    "localhost".to_string()
}

fn default_ratio() -> f64 {
    0.5
}

fn default_names() -> Vec<String> {
    vec!["a".to_owned(), "b".into()]
}

fn default_offset() -> i32 {
    -3
}

fn default_enabled() -> bool {
    true
}

fn default_maybe() -> Option<u8> {
    Some(7)
}

fn default_mode() -> Mode {
    Mode::Fast
}

fn default_array() -> [u8; 3] {
    [1, 2, 3]
}

const DEFAULT_LIMIT: u32 = 50;

fn default_limit() -> u32 {
    DEFAULT_LIMIT
}

/// Defaults by functions whose bodies are literals.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct PathDefaults {
    #[serde(default = "default_port")]
    pub port: u16,
    #[serde(default = "default_host")]
    pub host: String,
    #[serde(default = "default_ratio")]
    pub ratio: f64,
    #[serde(default = "default_names")]
    pub names: Vec<String>,
    #[serde(default = "default_offset")]
    pub offset: i32,
    #[serde(default = "default_enabled")]
    pub enabled: bool,
    #[serde(default = "default_maybe")]
    pub maybe: Option<u8>,
    #[serde(default = "default_mode")]
    pub mode: Mode,
    #[serde(default = "default_array")]
    pub array: [u8; 3],
    #[serde(default = "default_limit")]
    pub limit: u32,
    #[serde(default = "self::default_port")]
    pub other_port: u16,
    #[serde(default = "Settings::quiet")]
    pub settings: Settings,
}

impl Settings {
    fn quiet() -> Settings {
        Settings {
            verbose: false,
            level: 0,
            label: None,
        }
    }
}

/// Echoes defaults by functions whose bodies are literals.
#[tool(tier = read)]
pub fn default_paths(params: PathDefaults) -> Result<PathDefaults, ToolError> {
    Ok(params)
}

/// A container default from a derived `Default`.
#[derive(Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct DerivedContainer {
    pub retries: u8,
    pub name: String,
    pub settings: Settings,
    pub maybe: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skipped_when_none: Option<u8>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub skipped_when_empty: Vec<u8>,
}

/// Echoes a container default from a derived `Default`.
#[tool(tier = read)]
pub fn default_derived_container(params: DerivedContainer) -> Result<DerivedContainer, ToolError> {
    Ok(params)
}

/// A container default from a hand-written `Default`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct ManualContainer {
    pub retries: u8,
    pub name: String,
    pub ratio: f64,
    pub tags: Vec<String>,
    pub mode: Mode,
    pub maybe: Option<String>,
}

impl Default for ManualContainer {
    fn default() -> Self {
        ManualContainer {
            retries: 3,
            name: "job".into(),
            ratio: 1.0,
            tags: vec!["x".to_string()],
            mode: Mode::Fast,
            maybe: Some("m".to_owned()),
        }
    }
}

/// Echoes a container default from a hand-written `Default`.
#[tool(tier = read)]
pub fn default_manual_container(params: ManualContainer) -> Result<ManualContainer, ToolError> {
    Ok(params)
}

fn partial() -> PartialContainer {
    PartialContainer {
        kept: 9,
        ..Default::default()
    }
}

/// A container default by path, with a struct update from a derived default.
#[derive(Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(default = "partial")]
pub struct PartialContainer {
    pub kept: u8,
    pub other: String,
    #[serde(default = "default_port")]
    pub port: u16,
}

/// Echoes a container default by path.
#[tool(tier = read)]
pub fn default_container_path(params: PartialContainer) -> Result<PartialContainer, ToolError> {
    Ok(params)
}

/// Defaults in a tuple struct and with renames.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RenamedDefaults {
    #[serde(default)]
    pub first_value: Settings,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub maybe_value: Option<u32>,
    #[serde(default = "default_host", rename = "host_name")]
    pub host: String,
    #[serde(default)]
    pub named_default: NamedDefault,
}

/// A struct with renamed fields whose default is derived.
#[derive(Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "UPPERCASE")]
pub struct NamedDefault {
    pub inner_value: u8,
    #[serde(skip_serializing)]
    pub hidden: u8,
}

/// Echoes defaults with renames.
#[tool(tier = read)]
pub fn default_renamed(params: RenamedDefaults) -> Result<RenamedDefaults, ToolError> {
    Ok(params)
}

fn tenth() -> f32 {
    0.1
}

fn negative_third() -> f32 {
    -0.333
}

fn pair() -> (u8, String) {
    (1, "one".to_owned())
}

fn big() -> u64 {
    18_446_744_073_709_551_615
}

fn most_negative() -> i64 {
    -9_223_372_036_854_775_808
}

fn exponent() -> f64 {
    1.5e-7
}

fn whole_float() -> f64 {
    3.0
}

fn integer_as_float() -> f64 {
    2.0
}

fn letter() -> char {
    'q'
}

fn escaped() -> String {
    String::from("line\nbreak \"quoted\" \u{e9}")
}

fn new_list() -> Vec<u8> {
    Vec::new()
}

fn via_default() -> BTreeMap<String, u8> {
    Default::default()
}

/// Defaults whose values are easy to get subtly wrong.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct SubtleDefaults {
    #[serde(default = "tenth")]
    pub tenth: f32,
    #[serde(default = "negative_third")]
    pub negative_third: f32,
    #[serde(default = "pair")]
    pub pair: (u8, String),
    #[serde(default = "big")]
    pub big: u64,
    #[serde(default = "most_negative")]
    pub most_negative: i64,
    #[serde(default = "exponent")]
    pub exponent: f64,
    #[serde(default = "whole_float")]
    pub whole_float: f64,
    #[serde(default = "integer_as_float")]
    pub integer_as_float: f64,
    #[serde(default = "letter")]
    pub letter: char,
    #[serde(default)]
    pub nul: char,
    #[serde(default = "escaped")]
    pub escaped: String,
    #[serde(default = "new_list")]
    pub new_list: Vec<u8>,
    #[serde(default = "via_default")]
    pub via_default: BTreeMap<String, u8>,
    #[serde(default)]
    pub small_float: f32,
}

/// Echoes defaults whose values are easy to get subtly wrong.
#[tool(tier = read)]
pub fn default_subtle(params: SubtleDefaults) -> Result<SubtleDefaults, ToolError> {
    Ok(params)
}

/// Defaults of foreign and wrapped types.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct ForeignDefaults {
    #[serde(default)]
    pub decimal: rust_decimal::Decimal,
    #[serde(default)]
    pub uuid: uuid::Uuid,
    #[serde(default)]
    pub bytes: bytes::Bytes,
    #[serde(default)]
    pub date: chrono::NaiveDate,
    #[serde(default)]
    pub date_time: chrono::NaiveDateTime,
    #[serde(default)]
    pub time: chrono::NaiveTime,
    #[serde(default)]
    pub small: smallvec::SmallVec<[u8; 2]>,
    #[serde(default)]
    pub index_map: indexmap::IndexMap<String, u8>,
    #[serde(default)]
    pub duration: std::time::Duration,
    #[serde(default)]
    pub wrapping: std::num::Wrapping<u8>,
    #[serde(default)]
    pub boxed: Box<u16>,
    #[serde(default)]
    pub cow: std::borrow::Cow<'static, str>,
    #[serde(default)]
    pub range: std::ops::Range<u8>,
    #[serde(default)]
    pub atomic: std::sync::atomic::AtomicBool,
    #[serde(default)]
    pub json_map: serde_json::Map<String, serde_json::Value>,
    #[serde(default)]
    pub unit_struct: crate::structs::Marker,
}

/// Echoes defaults of foreign and wrapped types.
#[tool(tier = read)]
pub fn default_foreign(params: ForeignDefaults) -> Result<ForeignDefaults, ToolError> {
    Ok(params)
}
