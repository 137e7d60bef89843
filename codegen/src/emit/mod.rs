//! What the build produces: the generated table, the Markdown docs, and
//! the committed files written under the write policy.

pub mod docs;
pub mod markdown;
pub mod schema_rows;
pub mod table;
pub mod write;
