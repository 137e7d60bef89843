//! The rules and the server side of tooltable.
//!
//! Users depend on the `tooltable` facade, which re-exports what they name;
//! this crate is laid out by layer, each depending only on those above it
//! in this list:
//!
//! - [`rules`]: what a valid tool is (names, tiers and annotations,
//!   confirmation, `_meta` keys, schema rules, limits). Always compiled,
//!   light: the build script and the `#[tool]` macro use it too.
//! - [`wire`]: the bytes a client sees (canonical JSON, descriptors,
//!   fingerprints, the manifest). Always compiled.
//! - `call` (feature `serve`): what a handler is and returns, and running one.
//! - [`table`]: the baked table (feature `serve`), its name index (always:
//!   the build script lays it out), and how a `#[tool]` shim plugs into it.
//! - `serve` (feature `serve`): the registry, policies, pins, enable flags,
//!   providers; with the `rmcp` feature, the rmcp adapter and the stdio and
//!   HTTP transports.
//!
//! `contract` is what generated code reaches, versioned and hidden.

#![warn(missing_docs)]

/// The version of the contract between generated code and this runtime.
/// The build script generates code for the version of the runtime it was
/// built with, and declares it as `cfg(tooltable_contract = "N")`; the
/// facade reads tables of exactly one version, and names the module
/// generated code reaches `__private_vN`.
pub const CONTRACT: u32 = 1;

pub mod rules;
pub mod wire;

#[cfg(feature = "serve")]
pub mod call;
#[cfg(feature = "serve")]
#[doc(hidden)]
pub mod contract;
#[cfg(feature = "serve")]
pub mod serve;
pub mod table;
#[cfg(feature = "schema-guard")]
pub mod testing;
