//! What a handler can do with its per-call [`Call`](crate::Call) handle: the
//! questions it asks and the answers it gets, the protocol era, the caller's
//! identity, log levels.
//!
//! Inside, this is the call path: what a handler is, what it returns, and
//! running it. The layer sits below the table because the table stores handlers: a
//! `Handler` is made of the types defined here (arguments,
//! content, errors, the outcome), and `execute` runs one against a tool's
//! [`ToolInfo`](crate::rules::info::ToolInfo), without knowing whether it
//! came from the baked table or from a provider.

pub(crate) mod ask;
pub(crate) mod consent;
pub(crate) mod content;
pub(crate) mod error;
pub(crate) mod execute;
pub(crate) mod handle;
pub(crate) mod handler;
pub(crate) mod identity;
pub(crate) mod in_place;
pub(crate) mod result;
pub(crate) mod rounds;
pub(crate) mod shape;

pub(crate) use execute::execute;

pub use ask::{
    Action, AskError, Capability, Elicitation, Elicited, Root, RootsRequest, Sampled, Sampling,
};
pub use handle::{ClientSupport, Era, LogLevel, PROGRESS_INTERVAL};
pub use identity::{Identity, Permissions};
