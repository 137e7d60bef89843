//! The baked table: what the build script compiles into a server.
//!
//! The table itself and the contract with the `#[tool]` shims; the name
//! index's layout, which the build script lays out, is in the wire layer.

mod baked;
pub(crate) mod shim;

pub use baked::{Settings, Table, Tool};
