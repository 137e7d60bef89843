//! The baked table: what the build script compiles into a server.
//!
//! The name index's layout is shared with the build script, which lays it
//! out, so it is compiled without the `serve` feature; the table itself and
//! the contract with the `#[tool]` shims are run-time only.

#[cfg(feature = "serve")]
mod baked;
pub mod name_index;
#[cfg(feature = "serve")]
pub mod shim;

#[cfg(feature = "serve")]
pub use baked::{Settings, Table, Tool};
