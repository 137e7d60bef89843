//! A corpus of parameter and output types whose schemas the build script
//! bakes from syntax, for comparison with what schemars makes of the same
//! types at run time.
//!
//! Every type here derives `Serialize`, `Deserialize` and `JsonSchema`, and
//! is exposed through at least one tool: as a field of the tool's parameter
//! type (the deserialize contract), and as the tool's return type (the
//! serialize contract, and the root path of the lowering). The tests in
//! `tests/schemars_equality.rs` compare every baked schema with schemars'.
//! The crate `tooltable-corpus-inline` builds these same sources with
//! `inline_subschemas = true`.
//!
//! The handlers echo their argument back where they can; what matters is
//! their signatures.

pub mod attributes;
pub mod collections;
pub mod common;
pub mod constants;
pub mod corners;
pub mod defaults;
pub mod enums;
pub mod foreign;
pub mod generics;
pub mod headers;
pub mod maps;
pub mod primitives;
pub mod recursion;
pub mod resolution;
pub mod schema_with;
pub mod std_types;
pub mod structs;
pub mod validation;

tooltable::include_table!();
