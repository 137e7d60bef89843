//! `notes-server admin`: switching tools on and off for every replica.
//!
//! Replicas read their enable flags from the shared store and hear of every
//! change, so an operator changes a flag in the store, not in one process.

use crate::TOOLS;
use tooltable::registry::RedisStore;

/// Switches `tool` on or off in the store at `url`; the sentence to print.
pub async fn set(url: &str, tool: &str, enabled: bool) -> Result<String, String> {
    if TOOLS.get(tool).is_none() {
        let names: Vec<&str> = TOOLS.tools().iter().map(|t| t.name()).collect();
        return Err(format!(
            "no tool is named `{tool}`; the tools are {}",
            names.join(", ")
        ));
    }
    let state = if enabled { "enabled" } else { "disabled" };
    let changed = RedisStore::set(url, TOOLS.crate_name(), tool, enabled)
        .await
        .map_err(|e| e.to_string())?;
    Ok(if changed {
        format!("{tool} is now {state} on every replica sharing {url}")
    } else {
        format!("{tool} was already {state} in {url}; nothing changed")
    })
}
