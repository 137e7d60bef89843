//! The contract types of a ticket service, kept in a crate of their own:
//! `tooltable-contracts-server` names them in its tools, and the build reads
//! them from here, with the features the server enables.

pub mod tickets;

pub use tickets::{Ticket, TicketId};

/// The longest title a ticket may have.
pub const MAX_TITLE: u32 = 120;
