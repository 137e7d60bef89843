//! What the corpus's tools share: a one-field parameter wrapper.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// One value, as a tool's only argument.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Field<T> {
    /// The value.
    pub value: T,
}
