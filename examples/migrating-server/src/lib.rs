//! An rmcp server halfway through its move to tooltable.
//!
//! Its counter tools have moved to `#[tool]` ([`counter`]); three tools are
//! still rmcp's `#[tool_router]` ([`legacy`]). [`registry`] serves both as
//! one table: the router's tools are registered as a provider, under the
//! registry's rules, beside the baked ones.

pub mod counter;
pub mod legacy;

pub use counter::Counter;

use std::sync::Arc;
use tooltable::provider::BatchError;
use tooltable::{Registry, Tier};

tooltable::include_table!();

/// The table's tools and the router's, up to `max_tier`. A router tool
/// whose name the table already has, or that breaks a rule, is refused
/// with its name and the rule.
pub fn registry(counter: Arc<Counter>, max_tier: Tier) -> Result<Registry<Counter>, BatchError> {
    let registry = Registry::builder(&TOOLS).max_tier(max_tier).build();
    registry.register(&legacy::tools(counter))?;
    Ok(registry)
}
