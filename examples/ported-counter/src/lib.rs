//! rmcp's counter example server, ported to tooltable.
//!
//! The server before the port is `upstream/counter.rs` (rmcp's own
//! `examples/servers/src/common/counter.rs`, verbatim). Seven of its eight
//! tools moved to `#[tool]` handlers over the shared counter ([`tools`]);
//! `get_session_id`, which reads the HTTP request's headers through rmcp's
//! request context, stays on its `#[tool_router]`, served beside the table
//! as a provider; the prompts and resources stay on the rmcp handler,
//! served beside the table ([`rest`]).

pub mod rest;
pub mod tools;

use std::sync::Arc;
use tokio::sync::Mutex;
use tooltable::provider::{BatchError, RouterTools};
use tooltable::serve::{Composed, Server};
use tooltable::{Registry, Tier};

tooltable::include_table!();

/// What the server said of itself, kept from the upstream `get_info`.
pub const INSTRUCTIONS: &str = "This server provides counter tools and prompts. Tools: increment, decrement, get_value, say_hello, echo, sum. Prompts: example_prompt (takes a message), counter_analysis (analyzes counter state with a goal).";

/// The server: the table's tools and the router's one, up to `write`, with
/// the prompts and resources beside them, over one counter.
pub fn server() -> Result<Server<Composed<Mutex<i32>, rest::Counter>>, BatchError> {
    let counter = Arc::new(Mutex::new(0));
    let rest = rest::Counter::over(counter.clone());
    let registry = Registry::builder(&TOOLS).max_tier(Tier::Write).build();
    // Upstream annotated nothing; the session id only reads.
    registry.register(
        &RouterTools::new("session", rest.clone(), rest::Counter::tool_router())
            .tier("get_session_id", Tier::Read),
    )?;
    Ok(Server::new(registry, counter)
        .instructions(INSTRUCTIONS)
        .beside(rest))
}
