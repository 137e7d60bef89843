//! The server side of tooltable.
//!
//! Users depend on the `tooltable` facade, which re-exports this crate's
//! public items at the same paths; each item has one public path, the one
//! shown here. The crate is laid out by layer, each depending only on those
//! above it in this list:
//!
//! - `rules` and `wire`: what a valid tool is, and the bytes a client sees
//!   (names, tiers and annotations, confirmation, `_meta` keys, schema
//!   rules, limits; canonical JSON, descriptors, fingerprints, the
//!   manifest). They are the `tooltable-rules` crate, which the build
//!   script and the `#[tool]` macro use too, so that a server's build
//!   compiles them once for both.
//! - `call`: what a handler is and returns, and running one.
//! - `table`: the baked table, and how a `#[tool]` shim plugs into it.
//! - `registry`: the registry, policies, pins, enable flags and their
//!   stores, providers.
//! - `mcp` (feature `rmcp`): the rmcp adapter: settings, callers, admission,
//!   the baked listing path, composition with an rmcp handler of the user's.
//! - `transport` (feature `rmcp`): the guard, stdio, streamable HTTP and its
//!   tower service, bearer-token authentication.
//! - `server` (feature `rmcp`): [`serve::Server`], composing them.
//!
//! `contract` is what generated code reaches, versioned and hidden. The
//! rest of the layers are private: their items are named by the modules
//! below.

#![warn(missing_docs)]

pub use tooltable_rules::CONTRACT;

// The shared layers, under the names the layers here use.
use tooltable_rules as rules;
use tooltable_rules::wire;

pub mod call;
#[doc(hidden)]
pub mod contract;
#[cfg(feature = "rmcp")]
mod mcp;
pub mod registry;
#[cfg(feature = "rmcp")]
mod server;
mod table;
#[cfg(any(feature = "schema-guard", feature = "testing"))]
pub mod testing;
#[cfg(feature = "rmcp")]
mod transport;

pub use call::content::Content;
pub use call::error::ToolError;
pub use call::handle::Call;
pub use call::result::{CallError, CallToolResult, Structured};
pub use registry::policy::{Caller, Policy};
pub use registry::registry::Registry;
pub use rules::confirm::Confirm;
pub use rules::info::ToolInfo;
pub use rules::task::TaskSupport;
pub use rules::tier::{Annotations, Tier, World};
pub use table::{Table, Tool};
pub use wire::fingerprint::Fingerprint;

/// Policies: who may see and call which tool, and who may allow a call.
///
/// A [`Policy`] decides per request from a tool's metadata and
/// the [`Caller`]. A hidden tool is absent from listings, and a
/// call to it is refused with a sentence naming what would allow it.
/// [`Consent`](policy::Consent) decides who may allow a call to a tool
/// declared with `confirm`.
pub mod policy {
    pub use crate::registry::policy::{Access, AllOf, AllowAll, MaxTier, Refusal, Toolsets};
    pub use crate::rules::confirm::Consent;
}

/// Providers: tools registered at run time, held to the build's rules.
pub mod provider {
    pub use crate::call::handler::{Arguments, BoxFuture, DynHandler, Failure, Outcome, Output};
    pub use crate::registry::provider::{BatchError, ProvidedTool, Provider};
    pub use crate::registry::registry::handler;
    #[cfg(feature = "rmcp")]
    pub use crate::registry::router::RouterTools;
}

/// Content blocks beyond text, for handlers that return them, and the
/// annotations MCP defines for them.
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
    pub use crate::mcp::discovery::{Discovery, DiscoveryMode};
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
