//! Tools over the contract types of a sibling crate: a parameter type, a
//! return type and a field type from `contracts`, named by path, through
//! its re-exports and through a `use`.

use contracts::tickets::{Open, Status};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::sync::Mutex;
use tooltable::{ToolError, tool};

tooltable::include_table!();

/// The tickets.
#[derive(Default)]
pub struct Desk {
    tickets: Mutex<Vec<contracts::Ticket>>,
}

/// Open a ticket.
#[tool(tier = write)]
pub fn tickets_open(desk: &Desk, params: Open) -> Result<contracts::Ticket, ToolError> {
    let mut tickets = desk
        .tickets
        .lock()
        .map_err(|_| ToolError::new("the desk is broken"))?;
    let ticket = contracts::Ticket {
        id: tickets.len() as u64 + 1,
        title: params.title,
        status: Status::Open,
        escalates_to: None,
    };
    tickets.push(ticket.clone());
    Ok(ticket)
}

/// Which tickets to list.
#[derive(Deserialize, JsonSchema)]
pub struct Filter {
    /// Only tickets that stand here.
    pub status: Option<Status>,
}

/// The tickets found.
#[derive(Serialize, JsonSchema)]
pub struct Found {
    /// Their numbers.
    pub ids: Vec<contracts::TicketId>,
}

/// List the tickets.
#[tool(tier = read)]
pub fn tickets_list(desk: &Desk, params: Filter) -> Result<Found, ToolError> {
    let tickets = desk
        .tickets
        .lock()
        .map_err(|_| ToolError::new("the desk is broken"))?;
    let ids = tickets
        .iter()
        .filter(|t| params.status.is_none_or(|s| s == t.status))
        .map(|t| t.id)
        .collect();
    Ok(Found { ids })
}
