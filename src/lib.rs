//! tooltable: compile-time tool tables for MCP servers.
//!
//! Put `#[tool(...)]` on ordinary handler functions. At `cargo build` time a
//! one-line build script reads them and bakes a static table into your
//! server: names validated, annotations derived from each tool's risk tier,
//! the exact descriptor JSON a client will see, and a SHA-256 fingerprint of
//! each descriptor. The same build writes a JSON manifest of the tool surface
//! for review and CI.
//!
//! ```ignore
//! use tooltable::{tool, ToolError};
//!
//! /// Search notes by text.
//! ///
//! /// Matches titles and bodies; newest first.
//! #[tool(tier = read, toolset = "notes", world = closed)]
//! async fn notes_search(store: &Store, params: SearchParams) -> Result<Found, ToolError> {
//!     store.search(&params.query).map_err(ToolError::internal)
//! }
//!
//! tooltable::include_table!();
//! // `TOOLS` is a `tooltable::Table<Store>`.
//! ```
//!
//! The pieces:
//! - [`tool`]: the attribute (from `tooltable-macros`).
//! - [`include_table!`]: defines `pub static TOOLS` from the generated file;
//!   put it at the crate root.
//! - [`Table`], [`Tool`], [`ToolInfo`]: the baked table and its entries.
//! - [`ToolError`], [`CallToolResult`], [`Content`]: what handlers return and
//!   what a call gives back.
//! - The rules themselves (names, tiers, fingerprints, the manifest) are in
//!   the modules re-exported from `tooltable-runtime`.

#![warn(missing_docs)]

pub use tooltable_macros::tool;
pub use tooltable_runtime::{
    Annotations, CallError, CallToolResult, Caller, Content, Fingerprint, NameProfile, Policy,
    Registry, Table, Tier, Tool, ToolError, ToolInfo, World,
};
pub use tooltable_runtime::{
    call, canonical, confirm, content, declarations, descriptor, fingerprint, json_text, limits,
    manifest, meta_keys, name_index, names, pins, policy, provider, registry, schema, state, table,
    tier,
};

#[doc(hidden)]
pub use tooltable_runtime::private as __private;

/// Serving a registry through rmcp (feature `rmcp`).
#[cfg(feature = "rmcp")]
pub use tooltable_runtime::adapter;

/// The schema guard: compare every baked schema with schemars' (feature `schema-guard`).
#[cfg(feature = "schema-guard")]
pub use tooltable_runtime::testing;

/// Defines `pub static TOOLS: tooltable::Table<C>` from the table the build
/// script generated. Put it at the crate root, once.
///
/// The build script is `fn main() { tooltable_codegen::build(); }` in
/// `build.rs`, with `tooltable-codegen` as a build dependency.
#[macro_export]
macro_rules! include_table {
    () => {
        include!(concat!(env!("OUT_DIR"), "/tooltable.rs"));
    };
}
