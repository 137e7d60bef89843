//! The rules of tooltable: what a valid tool is, and the bytes a client
//! sees, each rule with one home.
//!
//! The build script, the `#[tool]` macro and the server (for tools
//! registered at run time) all call these functions, so build time and run
//! time cannot disagree about what a valid name, a tier's annotations, a
//! `_meta` key, a schema, a descriptor or a fingerprint is. Two layers, the
//! second depending on the first:
//!
//! - the rules, at the root: names, tiers and annotations, confirmation,
//!   `_meta` keys, schema rules, limits, search hints, always-listed tools, [`search`]: the words a tool is found by and
//!   how a query ranks tools, [`clients`]: what
//!   each MCP client does with a tool it cannot take, and [`lowering`]:
//!   the rewrites of served schemas an author can opt into for them;
//! - [`wire`]: canonical JSON, descriptors, fingerprints, the manifest, the
//!   name index's layout.
//!
//! A crate of its own, without features but `validate`, so that a server's
//! build compiles it once, for the build script and the server alike (the
//! runtime's features would make two copies of a crate that held both).
//! It depends on serde_json and sha2 and little else, so what the build
//! script and the macro compile for it is little. Not an API: users reach these items through the
//! `tooltable` facade.

#![warn(missing_docs)]

/// The version of the contract between generated code and the runtime.
/// The build script generates code for the version of the rules it was
/// built with, and declares it as `cfg(tooltable_contract = "N")`; the
/// facade reads tables of exactly one version, and names the module
/// generated code reaches `__private_vN`.
pub const CONTRACT: u32 = 5;

pub mod always_listed;
pub mod clients;
pub mod confirm;
pub mod context;
pub mod declarations;
pub mod icons;
pub mod info;
pub mod limits;
pub mod lowering;
pub mod meta_keys;
pub mod model_text;
pub mod names;
pub mod param_headers;
pub mod quote;
pub mod schema;
pub mod search;
pub mod search_hint;
pub mod task;
pub mod tier;
pub mod validate;
pub mod wire;
