//! The build-time side of tooltable.
//!
//! A user's `build.rs` is one line:
//!
//! ```no_run
//! fn main() {
//!     tooltable_codegen::build();
//! }
//! ```
//!
//! [`build()`] scans the crate's sources, lowers its parameter and output
//! types to JSON Schema, validates the whole table, writes the generated
//! table and keeps the committed manifest and docs in step. The rest of the
//! public API serves tools that read a crate without compiling it (the
//! `tooltable` command of `tooltable-cli`):
//!
//! - [`analysis`]: the same pass the build script makes, and what it found;
//! - [`compat`]: what a change between two manifests does to clients;
//! - [`export`]: the tools in other clients' formats.
//!
//! The pipeline's stages (scan, model, resolve, lower, describe, emit) are
//! private. The `#[tool]` grammar is shared with `tooltable-macros` through
//! a hidden module, compiled without the `build` feature so the proc-macro
//! stays light.

#![warn(missing_docs)]
// The examples show a whole `build.rs`, whose `fn main` is the point.
#![allow(clippy::needless_doctest_main)]

#[doc(hidden)]
pub mod syntax;

#[cfg(feature = "build")]
pub mod analysis;
#[cfg(feature = "build")]
mod build_script;
#[cfg(feature = "build")]
pub mod committed;
#[cfg(feature = "build")]
pub mod compat;
#[cfg(feature = "build")]
mod config;
#[cfg(feature = "build")]
mod describe;
#[cfg(feature = "build")]
mod diagnostic;
#[cfg(feature = "build")]
mod emit;
#[cfg(feature = "build")]
pub mod export;
#[cfg(feature = "build")]
mod lower;
#[cfg(feature = "build")]
mod model;
#[cfg(feature = "build")]
pub mod registry;
#[cfg(feature = "build")]
mod resolve;
#[cfg(feature = "build")]
mod scan;
#[cfg(feature = "build")]
mod variants;

#[cfg(feature = "build")]
pub use build_script::{TIMING_VAR, build};
