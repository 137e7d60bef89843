//! The one table of types whose schemas schemars defines itself.
//!
//! Each row mirrors one of schemars' own `JsonSchema` impls: the name it
//! gives the type (used for `$defs` entries), its id, whether it is inlined,
//! and the schema it produces. Rows for foreign crates (chrono, uuid, url,
//! semver, rust_decimal, bytes) match schemars with the matching feature;
//! a test per row compares them with schemars itself.

use super::Contract;
use serde_json::{Value, json};

/// One leaf type: no type parameters that change its schema.
#[derive(Debug)]
pub struct Leaf {
    /// The type's last path segment as users write it.
    pub rust_name: &'static str,
    /// The crates it may come from (`std` covers `core` and `alloc`).
    pub crates: &'static [&'static str],
    /// schemars' `schema_name()`.
    pub name: &'static str,
    /// schemars' `schema_id()`.
    pub id: &'static str,
    /// schemars' `inline_schema()`.
    pub inline: bool,
    /// schemars' `json_schema()`.
    pub schema: fn(Contract) -> Value,
}

const STD: &[&str] = &["std", "core", "alloc"];
const PRIMITIVE: &[&str] = &["", "std", "core", "alloc"];

macro_rules! leaf {
    ($rust:literal, $crates:expr, $name:literal, $id:literal, $inline:literal, |$c:ident| $schema:expr) => {
        Leaf {
            rust_name: $rust,
            crates: $crates,
            name: $name,
            id: $id,
            inline: $inline,
            schema: |$c: Contract| {
                let _ = $c;
                $schema
            },
        }
    };
}

/// Every leaf type tooltable knows, as schemars renders it.
pub static LEAVES: &[Leaf] = &[
    leaf!(
        "bool",
        PRIMITIVE,
        "boolean",
        "boolean",
        true,
        |c| json!({"type": "boolean"})
    ),
    leaf!(
        "str",
        PRIMITIVE,
        "string",
        "string",
        true,
        |c| json!({"type": "string"})
    ),
    leaf!(
        "char",
        PRIMITIVE,
        "Character",
        "char",
        true,
        |c| json!({"type": "string", "minLength": 1, "maxLength": 1})
    ),
    leaf!(
        "f32",
        PRIMITIVE,
        "float",
        "float",
        true,
        |c| json!({"type": "number", "format": "float"})
    ),
    leaf!(
        "f64",
        PRIMITIVE,
        "double",
        "double",
        true,
        |c| json!({"type": "number", "format": "double"})
    ),
    leaf!(
        "i8",
        PRIMITIVE,
        "int8",
        "int8",
        true,
        |c| json!({"type": "integer", "format": "int8", "minimum": -128, "maximum": 127})
    ),
    leaf!(
        "i16",
        PRIMITIVE,
        "int16",
        "int16",
        true,
        |c| json!({"type": "integer", "format": "int16", "minimum": -32768, "maximum": 32767})
    ),
    leaf!(
        "i32",
        PRIMITIVE,
        "int32",
        "int32",
        true,
        |c| json!({"type": "integer", "format": "int32"})
    ),
    leaf!(
        "i64",
        PRIMITIVE,
        "int64",
        "int64",
        true,
        |c| json!({"type": "integer", "format": "int64"})
    ),
    leaf!(
        "i128",
        PRIMITIVE,
        "int128",
        "int128",
        true,
        |c| json!({"type": "integer", "format": "int128"})
    ),
    leaf!(
        "isize",
        PRIMITIVE,
        "int",
        "int",
        true,
        |c| json!({"type": "integer", "format": "int"})
    ),
    leaf!(
        "u8",
        PRIMITIVE,
        "uint8",
        "uint8",
        true,
        |c| json!({"type": "integer", "format": "uint8", "minimum": 0, "maximum": 255})
    ),
    leaf!(
        "u16",
        PRIMITIVE,
        "uint16",
        "uint16",
        true,
        |c| json!({"type": "integer", "format": "uint16", "minimum": 0, "maximum": 65535})
    ),
    leaf!(
        "u32",
        PRIMITIVE,
        "uint32",
        "uint32",
        true,
        |c| json!({"type": "integer", "format": "uint32", "minimum": 0})
    ),
    leaf!(
        "u64",
        PRIMITIVE,
        "uint64",
        "uint64",
        true,
        |c| json!({"type": "integer", "format": "uint64", "minimum": 0})
    ),
    leaf!(
        "u128",
        PRIMITIVE,
        "uint128",
        "uint128",
        true,
        |c| json!({"type": "integer", "format": "uint128", "minimum": 0})
    ),
    leaf!(
        "usize",
        PRIMITIVE,
        "uint",
        "uint",
        true,
        |c| json!({"type": "integer", "format": "uint", "minimum": 0})
    ),
    leaf!(
        "NonZeroI8",
        STD,
        "NonZeroI8",
        "std::num::NonZeroI8",
        true,
        |c| json!({"type": "integer", "format": "int8", "minimum": -128, "maximum": 127, "not": {"const": 0}})
    ),
    leaf!(
        "NonZeroI16",
        STD,
        "NonZeroI16",
        "std::num::NonZeroI16",
        true,
        |c| json!({"type": "integer", "format": "int16", "minimum": -32768, "maximum": 32767, "not": {"const": 0}})
    ),
    leaf!(
        "NonZeroI32",
        STD,
        "NonZeroI32",
        "std::num::NonZeroI32",
        true,
        |c| json!({"type": "integer", "format": "int32", "not": {"const": 0}})
    ),
    leaf!(
        "NonZeroI64",
        STD,
        "NonZeroI64",
        "std::num::NonZeroI64",
        true,
        |c| json!({"type": "integer", "format": "int64", "not": {"const": 0}})
    ),
    leaf!(
        "NonZeroI128",
        STD,
        "NonZeroI128",
        "std::num::NonZeroI128",
        true,
        |c| json!({"type": "integer", "format": "int128", "not": {"const": 0}})
    ),
    leaf!(
        "NonZeroIsize",
        STD,
        "NonZeroIsize",
        "std::num::NonZeroIsize",
        true,
        |c| json!({"type": "integer", "format": "int", "not": {"const": 0}})
    ),
    leaf!(
        "NonZeroU8",
        STD,
        "NonZeroU8",
        "std::num::NonZeroU8",
        true,
        |c| json!({"type": "integer", "format": "uint8", "minimum": 1, "maximum": 255})
    ),
    leaf!(
        "NonZeroU16",
        STD,
        "NonZeroU16",
        "std::num::NonZeroU16",
        true,
        |c| json!({"type": "integer", "format": "uint16", "minimum": 1, "maximum": 65535})
    ),
    leaf!(
        "NonZeroU32",
        STD,
        "NonZeroU32",
        "std::num::NonZeroU32",
        true,
        |c| json!({"type": "integer", "format": "uint32", "minimum": 1})
    ),
    leaf!(
        "NonZeroU64",
        STD,
        "NonZeroU64",
        "std::num::NonZeroU64",
        true,
        |c| json!({"type": "integer", "format": "uint64", "minimum": 1})
    ),
    leaf!(
        "NonZeroU128",
        STD,
        "NonZeroU128",
        "std::num::NonZeroU128",
        true,
        |c| json!({"type": "integer", "format": "uint128", "minimum": 1})
    ),
    leaf!(
        "NonZeroUsize",
        STD,
        "NonZeroUsize",
        "std::num::NonZeroUsize",
        true,
        |c| json!({"type": "integer", "format": "uint", "minimum": 1})
    ),
    leaf!(
        "Path",
        STD,
        "string",
        "string",
        true,
        |c| json!({"type": "string"})
    ),
    leaf!(
        "PathBuf",
        STD,
        "string",
        "string",
        true,
        |c| json!({"type": "string"})
    ),
    leaf!(
        "Ipv4Addr",
        STD,
        "ipv4",
        "ipv4",
        true,
        |c| json!({"type": "string", "format": "ipv4"})
    ),
    leaf!(
        "Ipv6Addr",
        STD,
        "ipv6",
        "ipv6",
        true,
        |c| json!({"type": "string", "format": "ipv6"})
    ),
    leaf!(
        "IpAddr",
        STD,
        "ip",
        "ip",
        true,
        |c| json!({"type": "string", "format": "ip"})
    ),
    leaf!(
        "SocketAddr",
        STD,
        "string",
        "string",
        true,
        |c| json!({"type": "string"})
    ),
    leaf!(
        "SocketAddrV4",
        STD,
        "string",
        "string",
        true,
        |c| json!({"type": "string"})
    ),
    leaf!(
        "SocketAddrV6",
        STD,
        "string",
        "string",
        true,
        |c| json!({"type": "string"})
    ),
    leaf!(
        "Duration",
        STD,
        "Duration",
        "std::time::Duration",
        false,
        |c| json!({
            "type": "object",
            "required": ["secs", "nanos"],
            "properties": {
                "secs": {"type": "integer", "format": "uint64", "minimum": 0},
                "nanos": {"type": "integer", "format": "uint32", "minimum": 0}
            }
        })
    ),
    leaf!(
        "SystemTime",
        STD,
        "SystemTime",
        "std::time::SystemTime",
        false,
        |c| json!({
            "type": "object",
            "required": ["secs_since_epoch", "nanos_since_epoch"],
            "properties": {
                "secs_since_epoch": {"type": "integer", "format": "uint64", "minimum": 0},
                "nanos_since_epoch": {"type": "integer", "format": "uint32", "minimum": 0}
            }
        })
    ),
    leaf!(
        "Number",
        &["serde_json"],
        "Number",
        "Number",
        true,
        |c| json!({"type": "number"})
    ),
    leaf!(
        "Uuid",
        &["uuid"],
        "Uuid",
        "uuid::Uuid",
        true,
        |c| json!({"type": "string", "format": "uuid"})
    ),
    leaf!(
        "Url",
        &["url"],
        "Url",
        "url::Url",
        true,
        |c| json!({"type": "string", "format": "uri"})
    ),
    leaf!(
        "Version",
        &["semver"],
        "SemVer",
        "semver::Version",
        false,
        |c| json!({
            "type": "string",
            "pattern": r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$"
        })
    ),
    leaf!(
        "Decimal",
        &["rust_decimal"],
        "Decimal",
        "Decimal",
        true,
        |c| match c {
            Contract::Deserialize =>
                json!({"type": ["string", "number"], "pattern": r"^-?\d+(\.\d+)?([eE]\d+)?$"}),
            Contract::Serialize => json!({"type": "string", "pattern": r"^-?\d+(\.\d+)?$"}),
        }
    ),
    leaf!(
        "Bytes",
        &["bytes"],
        "Bytes",
        "bytes::Bytes",
        false,
        |c| match c {
            Contract::Deserialize =>
                json!({"type": ["array", "string"], "items": {"type": "integer", "format": "uint8", "minimum": 0, "maximum": 255}}),
            Contract::Serialize =>
                json!({"type": "array", "items": {"type": "integer", "format": "uint8", "minimum": 0, "maximum": 255}}),
        }
    ),
    leaf!(
        "BytesMut",
        &["bytes"],
        "Bytes",
        "bytes::Bytes",
        false,
        |c| match c {
            Contract::Deserialize =>
                json!({"type": ["array", "string"], "items": {"type": "integer", "format": "uint8", "minimum": 0, "maximum": 255}}),
            Contract::Serialize =>
                json!({"type": "array", "items": {"type": "integer", "format": "uint8", "minimum": 0, "maximum": 255}}),
        }
    ),
    leaf!(
        "NaiveDate",
        &["chrono"],
        "NaiveDate",
        "chrono::NaiveDate",
        true,
        |c| json!({"type": "string", "format": "date"})
    ),
    leaf!(
        "NaiveDateTime",
        &["chrono"],
        "NaiveDateTime",
        "chrono::NaiveDateTime",
        true,
        |c| json!({"type": "string", "format": "partial-date-time"})
    ),
    leaf!(
        "NaiveTime",
        &["chrono"],
        "NaiveTime",
        "chrono::NaiveTime",
        true,
        |c| json!({"type": "string", "format": "partial-time"})
    ),
    leaf!(
        "Weekday",
        &["chrono"],
        "Weekday",
        "chrono::Weekday",
        true,
        |c| json!({"type": "string", "enum": ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]})
    ),
    leaf!(
        "ArrayString",
        &["arrayvec"],
        "string",
        "string",
        true,
        |c| json!({"type": "string"})
    ),
];

/// The unit type `()`, which schemars renders as `null`.
pub static UNIT: Leaf = leaf!(
    "()",
    PRIMITIVE,
    "null",
    "null",
    true,
    |c| json!({"type": "null"})
);

/// `String`, which other shapes refer to by name.
pub static STRING: Leaf = leaf!(
    "String",
    STD,
    "string",
    "string",
    true,
    |c| json!({"type": "string"})
);

/// `serde_json::Value`: any JSON.
pub static ANY_VALUE: Leaf = leaf!(
    "Value",
    &["serde_json"],
    "AnyValue",
    "AnyValue",
    true,
    |c| Value::Bool(true)
);

/// chrono's `DateTime<Tz>`, whatever the time zone.
pub static DATE_TIME: Leaf = leaf!(
    "DateTime",
    &["chrono"],
    "DateTime",
    "chrono::DateTime",
    true,
    |c| json!({"type": "string", "format": "date-time"})
);

/// Every leaf, the table and the named ones.
pub fn all_leaves() -> impl Iterator<Item = &'static Leaf> {
    LEAVES.iter().chain([&STRING, &ANY_VALUE, &DATE_TIME])
}

/// Finds the leaf for a type path's crate and last segment. A single-segment
/// primitive has the crate `""`. std's atomics are their primitives, as
/// schemars forwards them.
pub fn leaf(krate: &str, rust_name: &str) -> Option<&'static Leaf> {
    if STD.contains(&krate)
        && let Some(primitive) = rust_name.strip_prefix("Atomic")
    {
        let primitive = primitive.to_ascii_lowercase();
        if matches!(
            primitive.as_str(),
            "bool"
                | "i8"
                | "i16"
                | "i32"
                | "i64"
                | "isize"
                | "u8"
                | "u16"
                | "u32"
                | "u64"
                | "usize"
        ) {
            return all_leaves().find(|l| l.rust_name == primitive && l.crates.contains(&""));
        }
    }
    all_leaves().find(|l| l.rust_name == rust_name && l.crates.contains(&krate))
}

/// How a generic foreign or std type with parameters is rendered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Generic {
    /// `Option<T>`.
    Option,
    /// A sequence (`Vec`, `VecDeque`, `LinkedList`, `BinaryHeap`, `SmallVec`).
    Seq,
    /// A set (`HashSet`, `BTreeSet`, `IndexSet`).
    Set,
    /// A map (`HashMap`, `BTreeMap`, `IndexMap`, `serde_json::Map`).
    Map,
    /// A transparent wrapper (`Box`, `Rc`, `Arc`, `Weak`, `Cow`, `Cell`,
    /// `RefCell`, `Mutex`, `RwLock`, `Wrapping`, `Reverse`).
    Wrapper,
    /// `PhantomData<T>`, rendered as `()`.
    Phantom,
    /// `Result<T, E>`.
    Result,
    /// `ArrayVec<T, CAP>`.
    ArrayVec,
    /// `DateTime<Tz>`: the time zone does not change the schema.
    DateTime,
    /// `Range<T>` and `RangeInclusive<T>`.
    Range,
    /// `Bound<T>`.
    Bound,
    /// `NonZero<T>`: the `NonZero*` leaf of `T`.
    NonZero,
}

/// The leaf of `NonZero<T>` for the primitive `T` (`NonZero<u32>` is `NonZeroU32`).
pub fn non_zero(primitive: &str) -> Option<&'static Leaf> {
    let mut chars = primitive.chars();
    let first = chars.next()?.to_ascii_uppercase();
    let name = format!("NonZero{first}{}", chars.as_str());
    LEAVES
        .iter()
        .find(|l| l.rust_name == name && l.rust_name.starts_with("NonZero"))
}

/// Finds how a generic type is rendered, by crate and last segment.
pub fn generic(krate: &str, rust_name: &str) -> Option<Generic> {
    let std = STD.contains(&krate);
    Some(match (krate, rust_name) {
        (_, "Option") if std || krate.is_empty() => Generic::Option,
        (_, "Vec" | "VecDeque" | "LinkedList" | "BinaryHeap") if std || krate.is_empty() => {
            Generic::Seq
        }
        ("smallvec", "SmallVec") => Generic::Seq,
        (_, "HashSet" | "BTreeSet") if std => Generic::Set,
        ("indexmap", "IndexSet") => Generic::Set,
        (_, "HashMap" | "BTreeMap") if std => Generic::Map,
        ("indexmap", "IndexMap") | ("serde_json", "Map") => Generic::Map,
        (
            _,
            "Box" | "Rc" | "Arc" | "Weak" | "Cow" | "Cell" | "RefCell" | "Mutex" | "RwLock"
            | "Wrapping" | "Reverse",
        ) if std || krate.is_empty() => Generic::Wrapper,
        (_, "PhantomData") if std => Generic::Phantom,
        (_, "Result") if std || krate.is_empty() => Generic::Result,
        ("arrayvec", "ArrayVec") => Generic::ArrayVec,
        ("chrono", "DateTime") => Generic::DateTime,
        (_, "Range" | "RangeInclusive") if std => Generic::Range,
        (_, "Bound") if std => Generic::Bound,
        (_, "NonZero") if std => Generic::NonZero,
        _ => return None,
    })
}
