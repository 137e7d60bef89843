//! The rules: what a valid tool is, each rule with one home.
//!
//! The build script, the `#[tool]` macro and the server (for tools
//! registered at run time) all call these functions, so build time and run
//! time cannot disagree about what a valid name, a tier's annotations, a
//! `_meta` key or a schema is. This layer depends on serde_json and little
//! else, so the proc-macro build stays light.

pub mod confirm;
pub mod declarations;
pub mod icons;
pub mod info;
pub mod limits;
pub mod meta_keys;
pub mod names;
pub mod param_headers;
pub mod quote;
pub mod schema;
pub mod task;
pub mod tier;
pub mod validate;
