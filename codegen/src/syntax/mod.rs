//! The syntax tooltable reads from Rust source, shared by the `#[tool]`
//! macro and the build script: the attribute's grammar, the shapes a handler
//! may take, doc comments, and the names that link a shim to the table.

pub mod attr;
pub mod doc;
pub mod link;
pub mod signature;
