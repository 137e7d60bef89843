//! The rules and the server side of tooltable.
//!
//! The rules (names, tiers and annotations, canonical JSON, fingerprints,
//! `_meta` keys, schema checks, descriptors, the manifest, limits, the name
//! index) are always
//! compiled and depend on little more than serde_json and sha2: the build
//! script and the `#[tool]` macro use them too, so build time and run time
//! cannot disagree about what a valid name or a fingerprint is. The `serve`
//! feature (on by default) adds the tool table and the call path.
//!
//! Users depend on the `tooltable` facade rather than on this crate.

#![warn(missing_docs)]

pub mod canonical;
pub mod confirm;
pub mod descriptor;
pub mod fingerprint;
pub mod json_text;
pub mod limits;
pub mod manifest;
pub mod meta_keys;
pub mod name_index;
pub mod names;
pub mod schema;
pub mod tier;
pub mod validate;

#[cfg(feature = "rmcp")]
pub mod adapter;
#[cfg(feature = "serve")]
pub mod call;
#[cfg(feature = "serve")]
pub mod content;
#[cfg(feature = "serve")]
pub mod declarations;
#[cfg(feature = "serve")]
pub mod error;
#[cfg(feature = "serve")]
pub mod pins;
#[cfg(feature = "serve")]
pub mod policy;
#[cfg(feature = "serve")]
#[doc(hidden)]
pub mod private;
#[cfg(feature = "serve")]
pub mod provider;
#[cfg(feature = "serve")]
pub mod registry;
#[cfg(feature = "serve")]
pub mod state;
#[cfg(feature = "serve")]
pub mod table;
#[cfg(feature = "schema-guard")]
pub mod testing;

pub use fingerprint::Fingerprint;
pub use names::NameProfile;
pub use tier::{Annotations, Tier, World};

#[cfg(feature = "serve")]
pub use call::{CallError, CallToolResult};
#[cfg(feature = "serve")]
pub use content::Content;
#[cfg(feature = "serve")]
pub use error::ToolError;
#[cfg(feature = "serve")]
pub use policy::{Caller, Policy};
#[cfg(feature = "serve")]
pub use registry::Registry;
#[cfg(feature = "serve")]
pub use table::{Table, Tool, ToolInfo};
