//! The build-time side of tooltable.
//!
//! - [`syntax`]: the `#[tool]` grammar and handler shapes, shared with the
//!   macro (always compiled; light).
//! - With the `build` feature (default): the build script library, entered
//!   through [`build()`], which scans a crate's sources, lowers its parameter
//!   and output types to JSON Schema, validates the whole table, and writes
//!   the generated table and the manifest. [`analysis::analyze`] runs the
//!   same pass for the `tooltable` command and for tests. It also renders
//!   the Markdown docs ([`emit::docs`]).
//! - With the `cli` feature (default): the `tooltable` command ([`cli`]),
//!   which reads a crate the same way without compiling it. A
//!   build-dependency can leave it out (and clap with it):
//!   `tooltable-codegen = { version = "..", default-features = false, features = ["build"] }`.
//!
//! A user's `build.rs` is one line:
//!
//! ```no_run
//! fn main() {
//!     tooltable_codegen::build();
//! }
//! ```

#![warn(missing_docs)]
// The examples show a whole `build.rs`, whose `fn main` is the point.
#![allow(clippy::needless_doctest_main)]

pub mod syntax;

#[cfg(feature = "build")]
pub mod analysis;
#[cfg(feature = "build")]
mod build_script;
#[cfg(feature = "cli")]
pub mod cli;
#[cfg(feature = "build")]
pub mod config;
#[cfg(feature = "build")]
pub mod describe;
#[cfg(feature = "build")]
pub mod diagnostic;
#[cfg(feature = "build")]
pub mod emit;
#[cfg(feature = "build")]
pub mod lower;
#[cfg(feature = "build")]
pub mod model;
#[cfg(feature = "build")]
pub mod resolve;
#[cfg(feature = "build")]
pub mod scan;

#[cfg(feature = "build")]
pub use build_script::{TIMING_VAR, build};
