//! The rules and the server side of tooltable.
//!
//! Users depend on the `tooltable` facade, which re-exports this crate's
//! public items at the same paths; each item has one public path, the one
//! shown here. The crate is laid out by layer, each depending only on those
//! above it in this list:
//!
//! - `rules`: what a valid tool is (names, tiers and annotations,
//!   confirmation, `_meta` keys, schema rules, limits). Always compiled,
//!   light: the build script and the `#[tool]` macro use it too.
//! - `wire`: the bytes a client sees (canonical JSON, descriptors,
//!   fingerprints, the manifest, the name index's layout). Always compiled.
//! - `call` (feature `serve`): what a handler is and returns, and running one.
//! - `table` (feature `serve`): the baked table, and how a `#[tool]` shim
//!   plugs into it.
//! - `registry` (feature `serve`): the registry, policies, pins, enable
//!   flags and their stores, providers.
//! - `mcp` (feature `rmcp`): the rmcp adapter: settings, callers, admission,
//!   the baked listing path, composition with an rmcp handler of the user's.
//! - `transport` (feature `rmcp`): the guard, stdio, streamable HTTP and its
//!   tower service, bearer-token authentication.
//! - `server` (feature `rmcp`): [`serve::Server`], composing them.
//!
//! `rules` and `wire` are public for the build script and the macro, not for
//! users, and hidden; `contract` is what generated code reaches, versioned
//! and hidden. The rest of the layers are private: their items are named by
//! the modules below.

#![warn(missing_docs)]

/// The version of the contract between generated code and this runtime.
/// The build script generates code for the version of the runtime it was
/// built with, and declares it as `cfg(tooltable_contract = "N")`; the
/// facade reads tables of exactly one version, and names the module
/// generated code reaches `__private_vN`.
pub const CONTRACT: u32 = 1;

#[doc(hidden)]
pub mod rules;
#[doc(hidden)]
pub mod wire;

#[cfg(feature = "serve")]
pub mod call;
#[cfg(feature = "serve")]
#[doc(hidden)]
pub mod contract;
#[cfg(feature = "rmcp")]
mod mcp;
#[cfg(feature = "serve")]
pub mod registry;
#[cfg(feature = "rmcp")]
mod server;
#[cfg(feature = "serve")]
mod table;
#[cfg(feature = "schema-guard")]
pub mod testing;
#[cfg(feature = "rmcp")]
mod transport;

#[cfg(feature = "serve")]
pub use call::content::Content;
#[cfg(feature = "serve")]
pub use call::error::ToolError;
#[cfg(feature = "serve")]
pub use call::handle::Call;
#[cfg(feature = "serve")]
pub use call::result::{CallError, CallToolResult};
#[cfg(feature = "serve")]
pub use registry::policy::{Caller, Policy};
#[cfg(feature = "serve")]
pub use registry::registry::Registry;
pub use rules::confirm::Confirm;
pub use rules::info::ToolInfo;
pub use rules::task::TaskSupport;
pub use rules::tier::{Annotations, Tier, World};
#[cfg(feature = "serve")]
pub use table::{Table, Tool};
pub use wire::fingerprint::Fingerprint;

/// Policies: who may see and call which tool, and who may allow a call.
///
/// A [`Policy`] decides per request from a tool's metadata and
/// the [`Caller`]. A hidden tool is absent from listings, and a
/// call to it is refused with a sentence naming what would allow it.
/// [`Consent`](policy::Consent) decides who may allow a call to a tool
/// declared with `confirm`.
#[cfg(feature = "serve")]
pub mod policy {
    pub use crate::registry::policy::{Access, AllOf, AllowAll, MaxTier, Refusal, Toolsets};
    pub use crate::rules::confirm::Consent;
}

/// Providers: tools registered at run time, held to the build's rules.
#[cfg(feature = "serve")]
pub mod provider {
    pub use crate::call::handler::{Arguments, BoxFuture, DynHandler, Failure, Outcome, Output};
    pub use crate::registry::provider::{BatchError, ProvidedTool, Provider};
    pub use crate::registry::registry::handler;
    #[cfg(feature = "rmcp")]
    pub use crate::registry::router::RouterTools;
}

/// Content blocks beyond text, for handlers that return them, and the
/// annotations MCP defines for them.
#[cfg(feature = "serve")]
pub mod content {
    pub use crate::call::content::{
        ContentAnnotations, IntoContent, ResourceBody, ResourceLink, Role,
    };
}

/// The manifest: the committed JSON contract of a tool surface, and the
/// fingerprint recipe to recompute it.
pub mod manifest {
    pub use crate::wire::fingerprint::{
        ParseFingerprintError, descriptor_fingerprint, inventory_fingerprint,
    };
    pub use crate::wire::manifest::{FORMAT, Manifest, ManifestError, ManifestTool};
}

/// Declarations: inert facts about a tool carried in its `_meta`, and reading
/// them from other servers' tools.
pub mod declarations {
    #[cfg(feature = "serve")]
    pub use crate::registry::ingest::{FieldKind, FieldRule, Ingest, IngestWarning, Ingested};
    pub use crate::rules::declarations::{DeclarationError, validate_declaration};
}

/// Serving over MCP: stdio and streamable HTTP with every guard, a tower
/// service to mount in an application of your own, and the rmcp adapter for
/// composing a registry into an rmcp server.
#[cfg(feature = "rmcp")]
pub mod serve {
    pub use crate::mcp::adapter::McpServer;
    pub use crate::mcp::admission::CallLimits;
    pub use crate::mcp::caller::{CallerFn, transport_caller};
    pub use crate::mcp::compose::Composed;
    pub use crate::registry::tasks::TaskLimits;
    pub use crate::server::{Server, stdio};
    #[cfg(feature = "auth")]
    pub use crate::transport::auth::{Auth, AuthError};
    pub use crate::transport::error::ServeError;
    #[cfg(feature = "http")]
    pub use crate::transport::http::HttpService;
    #[cfg(feature = "auth")]
    pub use crate::transport::http::MetadataService;
}
