//! Serving the table: who may see and call what, and the transports.
//!
//! A [`registry::Registry`] wraps the baked table with a caller policy,
//! enable flags, conversation pins and tools registered at run time. With
//! the `rmcp` feature, [`server::Server`] serves a registry on stdio (and,
//! with `http`, streamable HTTP) behind the guards in `guard`, through
//! [`adapter::McpServer`], which implements rmcp's `ServerHandler` and can
//! also be composed into an rmcp server of your own. With `auth`, the HTTP
//! transport authenticates every request with a bearer token ([`auth`]).

#[cfg(feature = "rmcp")]
pub mod adapter;
#[cfg(feature = "rmcp")]
pub mod admission;
#[cfg(feature = "auth")]
pub mod auth;
#[cfg(feature = "rmcp")]
pub(crate) mod caller;
#[cfg(feature = "rmcp")]
pub(crate) mod compose;
#[cfg(feature = "http")]
pub(crate) mod connections;
#[cfg(feature = "rmcp")]
pub(crate) mod error;
#[cfg(feature = "rmcp")]
pub(crate) mod guard;
#[cfg(feature = "http")]
pub(crate) mod http;
#[cfg(feature = "rmcp")]
pub(crate) mod inflight;
pub mod ingest;
#[cfg(feature = "rmcp")]
pub(crate) mod limits;
#[cfg(feature = "rmcp")]
pub(crate) mod listing;
pub mod pins;
pub mod policy;
pub mod provider;
pub mod registry;
#[cfg(feature = "rmcp")]
pub(crate) mod router;
#[cfg(feature = "rmcp")]
pub mod server;
pub mod state;
#[cfg(feature = "rmcp")]
pub(crate) mod stdio;

#[cfg(feature = "rmcp")]
pub use compose::Composed;
#[cfg(feature = "http")]
pub use http::HttpService;
#[cfg(feature = "auth")]
pub use http::MetadataService;
#[cfg(feature = "rmcp")]
pub use router::RouterTools;
