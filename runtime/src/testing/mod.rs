//! Testing a server as its clients see it.
//!
//! - The schema guard ([`check_schemas`], [`assert_schemas_match`]): every
//!   baked schema compared with what schemars makes of the same types.
//! - The test client ([`TestClient`], with the `rmcp` feature): a server
//!   served in this process through the stdio transport itself, driven as
//!   a client drives it, in either protocol era.

#[cfg(feature = "rmcp")]
mod client;
mod schemas;

/// The schemars the guard compares with, so a test derives `JsonSchema`
/// from the same release.
#[doc(no_inline)]
pub use schemars;

#[cfg(feature = "rmcp")]
pub use client::{Answer, Called, Pending, ProtocolError, Revision, TestClient, TestClientBuilder};
#[doc(hidden)]
pub use schemas::OutputReference;
pub use schemas::{
    Contract, SchemaMismatch, assert_schemas_match, check_schemas, reference_schema,
};
