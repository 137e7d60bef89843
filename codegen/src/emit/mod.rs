//! What the build produces: the generated table, and the committed files
//! written under the write policy.

pub mod table;
pub mod write;
