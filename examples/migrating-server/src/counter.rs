//! The tools that moved: `#[tool]` handlers over the counter.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicU64, Ordering};
use tooltable::{ToolError, tool};

/// The state both halves of the server share.
#[derive(Debug, Default)]
pub struct Counter {
    value: AtomicU64,
}

impl Counter {
    /// The value now.
    pub fn get(&self) -> u64 {
        self.value.load(Ordering::SeqCst)
    }

    /// Adds `by`; the value after.
    pub fn add(&self, by: u64) -> u64 {
        self.value.fetch_add(by, Ordering::SeqCst) + by
    }

    /// Back to zero.
    pub fn reset(&self) {
        self.value.store(0, Ordering::SeqCst);
    }
}

/// The counter's value.
#[derive(Serialize, JsonSchema)]
pub struct Value {
    /// The value.
    pub value: u64,
}

/// Read the counter.
#[tool(tier = read, world = closed)]
fn counter_get(counter: &Counter) -> Result<Value, ToolError> {
    Ok(Value {
        value: counter.get(),
    })
}

/// How much to add.
#[derive(Deserialize, JsonSchema)]
pub struct AddParams {
    /// The amount.
    pub by: u64,
}

/// Add to the counter.
#[tool(tier = write, world = closed)]
fn counter_add(counter: &Counter, params: AddParams) -> Result<Value, ToolError> {
    Ok(Value {
        value: counter.add(params.by),
    })
}
