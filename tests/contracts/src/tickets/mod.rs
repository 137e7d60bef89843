//! Tickets and what opens them.

mod status;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
pub use status::Status;

/// A ticket's number.
pub type TicketId = u64;

/// What opens a ticket.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Open {
    /// What the ticket is about.
    #[schemars(length(min = 1, max = 120))]
    pub title: String,
    /// How many related tickets to show beside it.
    #[serde(default = "related")]
    pub related: u32,
    /// Its labels.
    #[cfg(feature = "labels")]
    #[serde(default)]
    pub labels: Vec<String>,
    /// How urgent it is, from 1 to 5.
    #[cfg(feature = "priority")]
    #[schemars(range(min = 1, max = 5))]
    pub priority: u8,
    /// Never in a schema: its feature is never enabled.
    #[cfg(feature = "never")]
    pub never: bool,
}

fn related() -> u32 {
    crate::MAX_TITLE / 12
}

/// A ticket.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Ticket {
    /// Its number.
    pub id: TicketId,
    /// What it is about.
    pub title: String,
    /// Where it stands.
    pub status: Status,
    /// Who it escalates to.
    #[cfg(feature = "escalation")]
    pub escalates_to: Option<String>,
}
