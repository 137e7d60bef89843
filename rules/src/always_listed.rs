//! Always-listed tools: the few a model needs in most conversations.
//!
//! A server of hundreds of tools lists most of them only when a search
//! finds them: discovery mode does so on the server, and clients such as
//! Claude Code defer a large listing behind a tool search of their own.
//! `#[tool(always_listed)]` marks a tool that should never wait for a
//! search. Discovery mode lists it beside its search tool, and its
//! descriptor carries [`KEY`] `true` in `_meta`, which tells a deferring
//! client to load it at once. One declaration, so the server's listing and
//! the client's loading cannot disagree.

use serde_json::Value;

/// The `_meta` key that tells a deferring client to load a tool at once.
pub const KEY: &str = "anthropic/alwaysLoad";

/// Whether a served descriptor marks its tool always listed.
pub fn of(descriptor: &Value) -> bool {
    descriptor
        .get("_meta")
        .and_then(|meta| meta.get(KEY))
        .and_then(Value::as_bool)
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_a_true_key_in_meta_marks_a_tool() {
        assert!(of(&json!({"name": "a", "_meta": {KEY: true}})));
        assert!(!of(&json!({"name": "a", "_meta": {KEY: false}})));
        assert!(!of(&json!({"name": "a", "_meta": {KEY: "true"}})));
        assert!(!of(&json!({"name": "a", KEY: true})));
        assert!(!of(&json!({"name": "a"})));
    }
}
