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
//! // `TOOLS` is a `tooltable::Table<Store>`; serve its read tools on stdio:
//! // tooltable::serve::stdio(tooltable::Registry::new(&TOOLS), store).await?;
//! ```
//!
//! At the root are the types a server names: the attribute ([`tool`]) and
//! [`include_table!`], the baked [`Table`] and its [`Tool`]s, a tool's
//! [`ToolInfo`], [`Tier`] and [`Confirm`]ation, the [`Registry`] that serves
//! them to a [`Caller`] under a [`Policy`], the per-call handle a handler may
//! take ([`Call`]), and what handlers return ([`ToolError`], [`Content`],
//! [`Structured`], or a whole [`CallToolResult`]) and calls give back
//! ([`CallToolResult`], [`CallError`]). The rest is
//! grouped by purpose: [`call`], [`policy`], [`registry`], [`provider`],
//! [`content`], [`manifest`], [`declarations`], [`serve`] (feature `serve`,
//! on by default) and [`testing`] (features `schema-guard` and `testing`).
//!
//! Features: `serve` (default: stdio through rmcp), `validate` (the JSON
//! Schema validator: constraints serde does not enforce, examples, tools
//! registered at run time; the build says when a crate needs it), `http`
//! (streamable HTTP and the tower service), `auth` (bearer tokens on HTTP),
//! `redis` (enable flags and tasks shared by replicas), `anyhow` and `eyre`
//! (handlers that fail with `anyhow::Error` or `eyre::Report`),
//! `docs-template` (a docs page from a template of the crate's own),
//! `schema-guard` and `testing` (for tests: the schema guard and the test
//! client).
//!
//! Versions: depend on the same release of `tooltable` and of
//! `tooltable-codegen` (in `[build-dependencies]`). The code the build
//! generates reaches this crate through one hidden, versioned module; a
//! release that changes it is a minor release before 1.0 and a major one
//! after, and a mismatch is a compile error at [`include_table!`] saying
//! so. The repository's CHANGELOG.md and docs/publishing.md give the whole
//! policy.

#![warn(missing_docs)]

pub use tooltable_macros::tool;
#[doc(inline)]
pub use tooltable_runtime::{
    Annotations, Call, CallError, CallToolResult, Caller, Confirm, Content, Fingerprint, Policy,
    Registry, Structured, Table, TaskSupport, Tier, Tool, ToolError, ToolInfo, World,
};

/// What generated code reaches; not an API. The number is the contract
/// version ([`tooltable_runtime::CONTRACT`]), so code generated for another
/// version cannot bind to it.
#[doc(hidden)]
pub use tooltable_runtime::contract as __private_v5;

#[doc(inline)]
pub use tooltable_runtime::{call, content, declarations, manifest, policy, provider, registry};

#[cfg(feature = "serve")]
#[doc(inline)]
pub use tooltable_runtime::serve;

/// Testing a server as its clients see it: the schema guard (feature
/// `schema-guard`), which compares every baked schema with schemars', and
/// the test client (feature `testing`), which drives a server in the test's
/// own process through the stdio transport.
#[cfg(any(feature = "schema-guard", feature = "testing"))]
pub mod testing {
    #[cfg(feature = "schema-guard")]
    #[doc(no_inline)]
    pub use tooltable_runtime::testing::schemars;
    #[cfg(feature = "testing")]
    pub use tooltable_runtime::testing::{
        Answer, Called, Pending, ProtocolError, Revision, TestClient, TestClientBuilder,
    };
    #[cfg(feature = "schema-guard")]
    pub use tooltable_runtime::testing::{
        Contract, SchemaMismatch, assert_schemas_match, check_schemas, reference_schema,
    };
}

/// Defines `pub static TOOLS: tooltable::Table<C>` from the table the build
/// script generated. Put it at the root of the crate whose modules hold the
/// tools, once. `include_table!(pub(crate))` (or any visibility) defines it
/// with that visibility instead: a binary whose context type is private
/// keeps the table private with it.
///
/// The build script is `fn main() { tooltable_codegen::build(); }` in
/// `build.rs`, with `tooltable-codegen` as a build dependency. It declares
/// which contract version it generated; a table of another version (a
/// `tooltable-codegen` from another release than `tooltable`) is refused
/// here with one sentence rather than compiled into type errors.
#[macro_export]
macro_rules! include_table {
    () => {
        $crate::include_table!(pub);
    };
    ($vis:vis) => {
        #[cfg(tooltable_contract = "5")]
        include!(concat!(env!("OUT_DIR"), "/tooltable.rs"));
        #[cfg(tooltable_contract = "5")]
        __tooltable_tools!($vis);
        #[cfg(not(tooltable_contract = "5"))]
        ::core::compile_error!(
            "no tooltable table of contract version 5 was generated for this crate: add a build.rs that calls `tooltable_codegen::build()`, and depend on the same release of `tooltable-codegen` (in [build-dependencies]) as of `tooltable`"
        );
    };
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_contract_version_written_in_this_crate_is_the_runtimes() {
        // `include_table!` and `__private_v5` spell the version out, because
        // macro_rules and paths cannot read a constant.
        assert_eq!(tooltable_runtime::CONTRACT, 5);
    }
}
