//! Where a ticket stands.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Where a ticket stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Nobody has looked at it.
    Open,
    /// Someone is on it.
    InProgress,
    /// Done.
    Closed,
}
