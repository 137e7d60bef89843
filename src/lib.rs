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
//! take ([`Call`]), and what handlers return ([`ToolError`], [`Content`])
//! and calls give back ([`CallToolResult`], [`CallError`]). The rest is
//! grouped by purpose: [`call`], [`policy`], [`registry`], [`provider`],
//! [`content`], [`manifest`], [`declarations`], [`serve`] (feature `serve`,
//! on by default) and [`testing`] (feature `schema-guard`).

#![warn(missing_docs)]

pub use tooltable_macros::tool;
pub use tooltable_runtime::call::content::Content;
pub use tooltable_runtime::call::error::ToolError;
pub use tooltable_runtime::call::handle::Call;
pub use tooltable_runtime::call::result::{CallError, CallToolResult};
pub use tooltable_runtime::rules::confirm::Confirm;
pub use tooltable_runtime::rules::info::ToolInfo;
pub use tooltable_runtime::rules::tier::{Annotations, Tier, World};
pub use tooltable_runtime::serve::policy::{Caller, Policy};
pub use tooltable_runtime::serve::registry::Registry;
pub use tooltable_runtime::table::{Table, Tool};
pub use tooltable_runtime::wire::fingerprint::Fingerprint;

/// What generated code reaches; not an API. The number is the contract
/// version ([`tooltable_runtime::CONTRACT`]), so code generated for another
/// version cannot bind to it.
#[doc(hidden)]
pub use tooltable_runtime::contract as __private_v1;

/// Policies: who may see and call which tool, and who may allow a call.
///
/// A [`Policy`] decides per request from a tool's metadata and
/// the [`Caller`]. A hidden tool is absent from listings, and a
/// call to it is refused with a sentence naming what would allow it.
/// [`Consent`](policy::Consent) decides who may allow a call to a tool
/// declared with `confirm`.
pub mod policy {
    pub use tooltable_runtime::rules::confirm::Consent;
    pub use tooltable_runtime::serve::policy::{
        Access, AllOf, AllowAll, MaxTier, Refusal, Toolsets,
    };
}

/// The registry's parts: its builder, entries, enable flags and pins.
pub mod registry {
    pub use tooltable_runtime::serve::pins::{Pins, SnapshotError};
    pub use tooltable_runtime::serve::registry::{
        Changes, DISABLED, Description, Entry, Listing, RegistryBuilder,
    };
    #[cfg(feature = "redis")]
    pub use tooltable_runtime::serve::state::redis::RedisStore;
    pub use tooltable_runtime::serve::state::{MemoryStore, OnChange, StateError, StateStore};
}

/// Providers: tools registered at run time, held to the build's rules.
pub mod provider {
    pub use tooltable_runtime::call::handler::{
        Arguments, BoxFuture, DynHandler, Failure, Outcome, Output,
    };
    #[cfg(feature = "serve")]
    pub use tooltable_runtime::serve::RouterTools;
    pub use tooltable_runtime::serve::provider::{BatchError, ProvidedTool, Provider};
    pub use tooltable_runtime::serve::registry::handler;
}

/// What a handler can do with its per-call [`Call`] handle:
/// the questions it asks and the answers it gets, the protocol era, the
/// caller's identity, log levels.
pub mod call {
    pub use tooltable_runtime::call::ask::{
        Action, AskError, Capability, Elicitation, Elicited, Root, RootsRequest, Sampled, Sampling,
    };
    pub use tooltable_runtime::call::handle::{ClientSupport, Era, LogLevel, PROGRESS_INTERVAL};
    pub use tooltable_runtime::call::identity::{Identity, Permissions};
}

/// Content blocks beyond text, for handlers that return them, and the
/// annotations MCP defines for them.
pub mod content {
    pub use tooltable_runtime::call::content::{
        Annotations, IntoContent, ResourceBody, ResourceLink, Role,
    };
}

/// The manifest: the committed JSON contract of a tool surface, and the
/// fingerprint recipe to recompute it.
pub mod manifest {
    pub use tooltable_runtime::wire::fingerprint::{
        ParseFingerprintError, descriptor_fingerprint, inventory_fingerprint,
    };
    pub use tooltable_runtime::wire::manifest::{FORMAT, Manifest, ManifestError, ManifestTool};
}

/// Declarations: inert facts about a tool carried in its `_meta`, and reading
/// them from other servers' tools.
pub mod declarations {
    pub use tooltable_runtime::rules::declarations::{DeclarationError, validate_declaration};
    pub use tooltable_runtime::serve::ingest::{
        FieldRule, Ingest, IngestWarning, Ingested, Kind, LEDGER_SIZE,
    };
}

/// Serving over MCP: stdio and streamable HTTP with every guard, and the
/// rmcp adapter for composing a registry into an rmcp server of your own.
#[cfg(feature = "serve")]
pub mod serve {
    pub use tooltable_runtime::serve::Composed;
    #[cfg(feature = "http")]
    pub use tooltable_runtime::serve::HttpService;
    #[cfg(feature = "auth")]
    pub use tooltable_runtime::serve::MetadataService;
    pub use tooltable_runtime::serve::adapter::{
        CallerFn, DEFAULT_ASK_TIMEOUT, DEFAULT_CALL_TIMEOUT, DEFAULT_MAX_RESULT_BYTES,
        DEFAULT_TTL_MS, McpServer, transport_caller,
    };
    pub use tooltable_runtime::serve::admission::{
        CallLimits, DEFAULT_CALL_BURST, DEFAULT_CALLS_PER_SECOND, DEFAULT_MAX_CONCURRENT_CALLS,
        DEFAULT_MAX_CONCURRENT_CALLS_PER_CALLER,
    };
    #[cfg(feature = "auth")]
    pub use tooltable_runtime::serve::auth::{Auth, AuthError, DEFAULT_LEEWAY};
    #[cfg(feature = "http")]
    pub use tooltable_runtime::serve::server::{
        DEFAULT_HEADER_READ_TIMEOUT, DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_SESSIONS,
    };
    pub use tooltable_runtime::serve::server::{
        DEFAULT_MAX_DEPTH, DEFAULT_MAX_REQUEST_BYTES, MAX_DEPTH_LIMIT, MAX_PAGE_SIZE,
        MIN_REQUEST_BYTES, ServeError, Server, stdio,
    };
}

/// The schema guard: compare every baked schema with schemars'.
#[cfg(feature = "schema-guard")]
pub mod testing {
    pub use tooltable_runtime::testing::{
        Contract, SchemaMismatch, assert_schemas_match, check_schemas, reference_schema, schemars,
    };
}

/// Defines `pub static TOOLS: tooltable::Table<C>` from the table the build
/// script generated. Put it at the crate root, once.
///
/// The build script is `fn main() { tooltable_codegen::build(); }` in
/// `build.rs`, with `tooltable-codegen` as a build dependency. It declares
/// which contract version it generated; a table of another version (a
/// `tooltable-codegen` from another release than `tooltable`) is refused
/// here with one sentence rather than compiled into type errors.
#[macro_export]
macro_rules! include_table {
    () => {
        #[cfg(tooltable_contract = "1")]
        include!(concat!(env!("OUT_DIR"), "/tooltable.rs"));
        #[cfg(not(tooltable_contract = "1"))]
        ::core::compile_error!(
            "no tooltable table of contract version 1 was generated for this crate: add a build.rs that calls `tooltable_codegen::build()`, and depend on the same release of `tooltable-codegen` (in [build-dependencies]) as of `tooltable`"
        );
    };
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_contract_version_written_in_this_crate_is_the_runtimes() {
        // `include_table!` and `__private_v1` spell the version out, because
        // macro_rules and paths cannot read a constant.
        assert_eq!(tooltable_runtime::CONTRACT, 1);
    }
}
