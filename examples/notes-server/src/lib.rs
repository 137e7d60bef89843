//! notes-server: a small MCP server whose tools keep notes in SQLite.
//!
//! The tools are declared in [`notes`] with `#[tool]`; the build script
//! turns them into [`TOOLS`], a static table with validated names, derived
//! annotations and fingerprints, and writes `tools.json` beside Cargo.toml.

pub mod admin;
pub mod app;
pub mod notes;
pub mod serve;
pub mod store;

pub use store::Store;

tooltable::include_table!();
