//! Type resolution within the crate: `use` with renames, groups and globs,
//! `self`/`super`/`crate` paths, type aliases, `pub use` re-exports, and
//! items in inline modules.

use crate::structs::*;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use tooltable::{ToolError, tool};

use self::inner::{
    Inner,
    deep::{self, Deep as DeepRenamed},
};
use inner::Reexported;

/// A list of anything, by alias.
pub type List<T> = Vec<T>;

/// A map of numbers, by alias.
pub type Counts = std::collections::BTreeMap<String, u64>;

/// An alias of a local struct.
pub type Home = crate::structs::Address;

/// Items in an inline module.
pub mod inner {
    use schemars::JsonSchema;
    use serde::{Deserialize, Serialize};

    /// A module inside a module.
    pub mod deep {
        use schemars::JsonSchema;
        use serde::{Deserialize, Serialize};

        /// Deep down.
        #[derive(Debug, Serialize, Deserialize, JsonSchema)]
        pub struct Deep {
            pub depth: u8,
            pub parent: Option<super::Inner>,
        }

        /// Also deep down.
        #[derive(Debug, Serialize, Deserialize, JsonSchema)]
        pub struct Deeper {
            pub point: crate::structs::Point3,
        }
    }

    pub use deep::Deeper as Reexported;

    /// Inside.
    #[derive(Debug, Serialize, Deserialize, JsonSchema)]
    pub struct Inner {
        pub name: String,
    }
}

/// Everything of `inner`, re-exported by a glob.
pub mod reexports {
    pub use super::inner::*;
}

use crate::structs::{self as renamed_structs};
use chrono::DateTime as Instant;
use std::collections::HashMap as Dictionary;

/// A local type whose name is also a std type's.
pub mod clash {
    use schemars::JsonSchema;
    use serde::{Deserialize, Serialize};

    /// Not `std::time::Duration`.
    #[derive(Debug, Serialize, Deserialize, JsonSchema)]
    pub struct Duration {
        pub minutes: u16,
    }

    /// Not `serde_json::Value`.
    #[derive(Debug, Serialize, Deserialize, JsonSchema)]
    pub struct Value(pub i8);
}

/// JSON, by alias.
pub type Json = serde_json::Value;

/// More ways to reach types.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct MoreResolved {
    /// Through a glob re-export.
    pub via_glob: reexports::Inner,
    /// Through a renamed module import.
    pub via_renamed_module: renamed_structs::Meters,
    /// A renamed foreign generic.
    pub when: Instant<chrono::Utc>,
    /// A renamed std map.
    pub dictionary: Dictionary<String, Json>,
    /// A local `Duration`, beside std's.
    pub local_duration: clash::Duration,
    /// std's `Duration`.
    pub std_duration: std::time::Duration,
    /// A local `Value`.
    pub local_value: clash::Value,
    /// Through `super` inside a nested path.
    pub deep_again: inner::deep::Deeper,
}

/// Echoes more ways to reach types.
#[tool(tier = read)]
pub fn resolve_more(params: MoreResolved) -> Result<MoreResolved, ToolError> {
    Ok(params)
}

/// Types reached every way.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Resolved {
    /// Through a glob import.
    pub meters: Meters,
    /// Through a group import.
    pub inner: Inner,
    /// Through a renamed import.
    pub deep: DeepRenamed,
    /// Through `self` in a group.
    pub deeper: deep::Deeper,
    /// Through a re-export.
    pub reexported: Reexported,
    /// Through a generic alias.
    pub list: List<u8>,
    /// Through a plain alias.
    pub counts: Counts,
    /// Through an alias of a local struct.
    pub home: Home,
    /// Through `crate::`.
    pub marker: crate::structs::Marker,
    /// Through `self::`.
    pub again: self::inner::Inner,
    /// Through a fully qualified std path.
    pub set: ::std::collections::BTreeSet<u8>,
}

/// Echoes types reached every way.
#[tool(tier = read)]
pub fn resolve_paths(params: Resolved) -> Result<Resolved, ToolError> {
    Ok(params)
}

/// Echoes a type reached through an alias, at the root.
#[tool(tier = read)]
pub fn resolve_alias_root(
    params: crate::common::Field<List<Home>>,
) -> Result<List<Home>, ToolError> {
    Ok(params.value)
}
