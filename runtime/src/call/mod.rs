//! The call path: what a handler is, what it returns, and running it.
//!
//! This layer sits below the table because the table stores handlers: a
//! [`handler::Handler`] is made of the types defined here (arguments,
//! content, errors, the outcome), and `execute` runs one against a tool's
//! [`ToolInfo`](crate::rules::info::ToolInfo), without knowing whether it
//! came from the baked table or from a provider.

pub mod ask;
pub(crate) mod consent;
pub mod content;
pub mod error;
pub(crate) mod execute;
pub mod handle;
pub mod handler;
pub mod identity;
pub mod result;
pub(crate) mod rounds;
pub mod shape;

pub(crate) use execute::execute;
