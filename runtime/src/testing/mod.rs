//! Testing a server as its clients see it.
//!
//! - The schema guard (feature `schema-guard`: `check_schemas`,
//!   `assert_schemas_match`): every baked schema compared with what
//!   schemars makes of the same types.
//! - The test client (feature `testing`: `TestClient`): a server served in
//!   this process through the stdio transport itself, driven as a client
//!   drives it, in either protocol era.
//!
//! Two features, because the guard asks every parameter type to derive
//! `schemars::JsonSchema` and the client asks nothing of them.

#[cfg(feature = "testing")]
mod client;
#[cfg(feature = "schema-guard")]
mod schemas;

/// The schemars the guard compares with, so a test derives `JsonSchema`
/// from the same release.
#[cfg(feature = "schema-guard")]
#[doc(no_inline)]
pub use schemars;

#[cfg(feature = "testing")]
pub use client::{Answer, Called, Pending, ProtocolError, Revision, TestClient, TestClientBuilder};
#[cfg(feature = "schema-guard")]
#[doc(hidden)]
pub use schemas::OutputReference;
#[cfg(feature = "schema-guard")]
pub use schemas::{
    Contract, SchemaMismatch, assert_schemas_match, check_schemas, reference_schema,
};
