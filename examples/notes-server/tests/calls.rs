//! Calling the example's tools through the baked table: the minimal call path.

use crate::common;

use common::block_on;

use notes_server::{Store, TOOLS};
use serde_json::{Map, Value, json};
use tooltable::{CallError, CallToolResult};

fn args(value: Value) -> Map<String, Value> {
    value.as_object().cloned().unwrap_or_default()
}

fn call(store: &Store, name: &str, arguments: Value) -> Result<CallToolResult, CallError> {
    block_on(TOOLS.call(store, name, args(arguments)))
}

fn ok(store: &Store, name: &str, arguments: Value) -> Value {
    let result = call(store, name, arguments).unwrap();
    assert!(!result.is_error, "{name} failed: {:?}", result.first_text());
    result.structured_content.unwrap()
}

fn refusal(store: &Store, name: &str, arguments: Value) -> String {
    let result = call(store, name, arguments).unwrap();
    assert!(result.is_error, "{name} should have failed");
    assert!(result.structured_content.is_none());
    result.first_text().unwrap().to_owned()
}

#[test]
fn a_successful_call_returns_structured_content_and_the_same_json_as_text() {
    let store = Store::in_memory().unwrap();
    let result = call(
        &store,
        "notes_create",
        json!({"title": "Milk", "body": "Buy milk", "tags": ["shopping"]}),
    )
    .unwrap();
    assert!(!result.is_error);
    let structured = result.structured_content.clone().unwrap();
    assert_eq!(structured["title"], "Milk");
    assert_eq!(structured["tags"], json!(["shopping"]));
    let text: Value = serde_json::from_str(result.first_text().unwrap()).unwrap();
    assert_eq!(text, structured);
    assert_eq!(result.to_json()["isError"], false);
}

#[test]
fn notes_are_created_read_searched_updated_counted_exported_and_deleted() {
    let store = Store::in_memory().unwrap();
    let created = ok(
        &store,
        "notes_create",
        json!({"title": "Milk", "body": "Buy oat milk"}),
    );
    let id = created["id"].as_i64().unwrap();
    assert_eq!(created["tags"], json!([]));
    assert_eq!(ok(&store, "notes_get", json!({"id": id})), created);
    let found = ok(&store, "notes_search", json!({"query": "OAT"}));
    assert_eq!(found["total"], 1);
    let updated = ok(
        &store,
        "notes_update",
        json!({"id": id, "title": "Oat milk"}),
    );
    assert_eq!(updated["title"], "Oat milk");
    assert_eq!(updated["body"], "Buy oat milk");
    assert_eq!(
        ok(&store, "notes_stats", json!({})),
        json!({"notes": 1, "watchers": 0})
    );
    let exported = block_on(TOOLS.call(&store, "notes_export", args(json!({})))).unwrap();
    assert_eq!(
        exported.first_text(),
        Some("# Oat milk\n\nBuy oat milk\n\n")
    );
    assert_eq!(
        ok(&store, "notes_delete", json!({"id": id, "confirm": true})),
        json!({"id": id})
    );
    assert_eq!(store.count().unwrap(), 0);
}

#[test]
fn a_handler_error_is_returned_with_its_message_and_its_data() {
    let store = Store::in_memory().unwrap();
    let result = call(&store, "notes_get", json!({"id": 42})).unwrap();
    assert!(result.is_error);
    assert_eq!(result.first_text(), Some("no note with id 42"));
    assert_eq!(
        result.structured_content,
        Some(json!({"code": "not_found", "id": 42}))
    );
}

#[test]
fn arguments_that_do_not_fit_name_the_field() {
    let store = Store::in_memory().unwrap();
    assert_eq!(
        refusal(&store, "notes_get", json!({"id": "seven"})),
        "Invalid arguments for notes_get: at `id`, invalid type: string \"seven\", expected i64."
    );
    assert_eq!(
        refusal(&store, "notes_create", json!({"title": "t"})),
        "Invalid arguments for notes_create: missing field `body`."
    );
    assert_eq!(
        refusal(&store, "notes_create", json!({"body": "no title"})),
        "this call was made directly, with no client to ask",
        "without a title the person is asked; a direct call has no one to ask"
    );
}

#[test]
fn an_unknown_tool_is_a_protocol_error_with_code_32602() {
    let store = Store::in_memory().unwrap();
    let error = call(&store, "notes_burn", json!({})).unwrap_err();
    assert_eq!(error.code(), -32602);
    assert_eq!(error.message(), "Unknown tool: notes_burn");
}

#[test]
fn a_direct_delete_without_confirm_is_refused_naming_the_consequence_and_deletes_nothing() {
    let store = Store::in_memory().unwrap();
    let id = ok(
        &store,
        "notes_create",
        json!({"title": "Keep", "body": "me"}),
    )["id"]
        .clone();
    for arguments in [json!({"id": id}), json!({"id": id, "confirm": false})] {
        assert_eq!(
            refusal(&store, "notes_delete", arguments),
            "notes_delete deletes the note and its tags for good, so it needs confirmation; call it again with `confirm: true` to proceed."
        );
    }
    assert_eq!(
        refusal(&store, "notes_delete", json!({"id": id, "confirm": "yes"})),
        "Invalid argument `confirm` for notes_delete: expected true or false, got \"yes\"; nothing was done."
    );
    assert_eq!(store.count().unwrap(), 1);
}

#[test]
fn the_manifest_rendered_at_run_time_equals_the_committed_tools_json() {
    let committed =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tools.json")).unwrap();
    assert_eq!(TOOLS.manifest().render(), committed);
    assert_eq!(TOOLS.manifest().inventory, *TOOLS.inventory());
}

#[test]
fn the_readme_shows_what_the_tools_command_prints() {
    let printed = std::process::Command::new(env!("CARGO_BIN_EXE_notes-server"))
        .arg("tools")
        .output()
        .unwrap();
    assert!(printed.status.success());
    let printed = String::from_utf8(printed.stdout).unwrap();
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md")).unwrap();
    let shown = readme
        .split("```text\n")
        .nth(1)
        .and_then(|block| block.split("```").next())
        .expect("the README shows the output of `tools` in a text block");
    let lines: Vec<&str> = printed.lines().collect();
    for line in shown.lines().filter(|line| *line != "…") {
        assert!(
            lines.contains(&line),
            "the README shows `{line}`, which `cargo run -p notes-server -- tools` no longer prints; paste its output:\n{printed}"
        );
    }
    assert_eq!(shown.lines().last(), lines.last().copied());
}

#[test]
fn the_table_is_sorted_and_found_by_exact_name() {
    let names: Vec<&str> = TOOLS.tools().iter().map(|t| t.name()).collect();
    assert_eq!(
        names,
        [
            "notes_create",
            "notes_delete",
            "notes_export",
            "notes_get",
            "notes_search",
            "notes_stats",
            "notes_update",
            "notes_watch"
        ]
    );
    assert!(TOOLS.get("notes_get").is_some());
    assert!(TOOLS.get("Notes_get").is_none());
    let list: Vec<Value> = serde_json::from_str(TOOLS.list_json()).unwrap();
    assert_eq!(list.len(), 8);
    assert_eq!(list[1]["annotations"]["destructiveHint"], true);
    assert_eq!(
        list[1]["inputSchema"]["properties"]["confirm"]["type"],
        "boolean"
    );
}
