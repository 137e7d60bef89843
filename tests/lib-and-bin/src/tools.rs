//! The tools, kept in the binary.

use crate::app::App;
use serde::{Deserialize, Serialize};
use tooltable::{tool, CallToolResult, Content, Structured, ToolError};

/// What to add.
#[derive(Deserialize, schemars::JsonSchema)]
pub struct AddParams {
    /// The entity's name.
    pub name: String,
}

/// How many entities there are.
#[derive(Serialize, schemars::JsonSchema)]
pub struct Counted {
    /// The number of entities.
    pub count: usize,
}

/// Add an entity.
#[tool(tier = write)]
fn entities_add(app: &App, params: AddParams) -> Result<Structured<Counted>, ToolError> {
    let count = app.store.add(&params.name);
    Ok(Structured::new(
        Counted { count },
        format!("Added {}; there are {count} now.", params.name),
    ))
}

/// Count the entities, as a result built by hand.
#[tool(tier = read)]
fn entities_count(app: &App) -> CallToolResult {
    let count = app.store.count();
    CallToolResult {
        content: vec![Content::text(format!("{count} entities"))],
        structured_content: Some(serde_json::json!({ "count": count })),
        is_error: false,
    }
}
