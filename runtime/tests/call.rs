//! The baked table and its call path: lookups, results, and every way a
//! call can fail, each answered as MCP asks.

use crate::common;

use common::block_on;

use serde_json::{Map, Value, json};
use tooltable_fixture::{Shelf, TOOLS};
use tooltable_runtime::Confirm;
use tooltable_runtime::Tier;
use tooltable_runtime::{CallError, CallToolResult};

fn call(shelf: &Shelf, name: &str, arguments: Value) -> Result<CallToolResult, CallError> {
    let arguments: Map<String, Value> = arguments.as_object().cloned().unwrap_or_default();
    block_on(TOOLS.call(shelf, name, arguments))
}

fn refusal(shelf: &Shelf, name: &str, arguments: Value) -> String {
    let result = call(shelf, name, arguments).expect("a result, not a protocol error");
    assert!(
        result.is_error,
        "expected a refusal: {:?}",
        result.first_text()
    );
    assert!(result.structured_content.is_none());
    result.first_text().unwrap_or_default().to_owned()
}

#[test]
fn the_table_is_sorted_and_found_by_exact_name_only() {
    let names: Vec<&str> = TOOLS.tools().iter().map(|t| t.name()).collect();
    let mut sorted = names.clone();
    sorted.sort_unstable();
    assert_eq!(names, sorted);
    assert_eq!(TOOLS.len(), 14);
    for name in names {
        assert_eq!(TOOLS.get(name).map(|t| t.name()), Some(name));
    }
    assert!(TOOLS.get("ITEMS_GET").is_none());
    assert!(TOOLS.get("items_ge").is_none());
    assert!(TOOLS.get("").is_none());
}

#[test]
fn a_tool_s_info_carries_what_its_attribute_declared() {
    let destroy = TOOLS.get("items_destroy").unwrap().info();
    assert_eq!(destroy.tier, Tier::Destructive);
    assert_eq!(
        destroy.confirm,
        Some(Confirm::Because("destroys the item for good".into()))
    );
    assert_eq!(destroy.permission, Some("items.delete"));
    assert_eq!(destroy.source, "src/items.rs");
    let hints = destroy.annotations();
    assert!(hints.destructive && !hints.read_only);
}

#[test]
fn a_successful_call_returns_structured_content_and_the_same_json_as_text() {
    let shelf = Shelf::new();
    let result = call(&shelf, "items_create", json!({"name": "lamp"})).unwrap();
    assert!(!result.is_error);
    let value = result.structured_content.clone().unwrap();
    assert_eq!(value, json!({"id": 1, "name": "lamp"}));
    let text: Value = serde_json::from_str(result.first_text().unwrap()).unwrap();
    assert_eq!(text, value);
    assert_eq!(
        result.to_json(),
        json!({"content": [{"type": "text", "text": result.first_text().unwrap()}], "structuredContent": value, "isError": false})
    );
}

#[test]
fn an_async_handler_and_a_handler_without_parameters_are_called_alike() {
    let shelf = Shelf::new();
    shelf.put("lamp");
    let got = call(&shelf, "items_get", json!({"id": 1})).unwrap();
    assert_eq!(
        got.structured_content,
        Some(json!({"id": 1, "name": "lamp"}))
    );
    let listed = call(&shelf, "items_list", json!({})).unwrap();
    assert_eq!(
        listed.structured_content.unwrap()["items"][0]["name"],
        "lamp"
    );
    assert_eq!(
        refusal(&shelf, "items_list", json!({"extra": 1})),
        "Invalid arguments for items_list: this tool takes no arguments, but was given `extra`."
    );
}

#[test]
fn a_handler_error_is_returned_with_its_message() {
    assert_eq!(
        refusal(&Shelf::new(), "items_get", json!({"id": 7})),
        "no item with id 7"
    );
}

#[test]
fn arguments_that_do_not_fit_name_the_field_and_what_was_expected() {
    assert_eq!(
        refusal(&Shelf::new(), "items_get", json!({"id": "seven"})),
        "Invalid arguments for items_get: at `id`, invalid type: string \"seven\", expected i64."
    );
    assert!(
        refusal(&Shelf::new(), "items_get", json!({}))
            .starts_with("Invalid arguments for items_get: missing field `id`")
    );
}

#[test]
fn an_unknown_tool_is_a_protocol_error_with_code_32602() {
    let error = call(&Shelf::new(), "items_nothing", json!({})).unwrap_err();
    assert_eq!(error.code(), -32602);
    assert_eq!(error.message(), "Unknown tool: items_nothing");
}

#[test]
fn a_confirming_tool_without_confirm_is_refused_naming_the_consequence_and_changes_nothing() {
    let shelf = Shelf::new();
    shelf.put("lamp");
    for arguments in [json!({"id": 1}), json!({"id": 1, "confirm": false})] {
        assert_eq!(
            refusal(&shelf, "items_destroy", arguments),
            "items_destroy destroys the item for good, so it needs confirmation; call it again with `confirm: true` to proceed."
        );
    }
    assert!(
        refusal(&shelf, "items_destroy", json!({"id": 1, "confirm": "yes"}))
            .starts_with("Invalid argument `confirm` for items_destroy")
    );
    assert_eq!(shelf.count(), 1);
    let done = call(&shelf, "items_destroy", json!({"id": 1, "confirm": true})).unwrap();
    assert_eq!(done.structured_content, Some(json!({"id": 1})));
    assert_eq!(shelf.count(), 0);
}

#[test]
fn a_panic_and_an_internal_error_are_answered_generically_without_their_text() {
    for kind in ["panic", "io"] {
        let text = refusal(&Shelf::new(), "items_fault", json!({"kind": kind}));
        assert_eq!(text, "Tool execution failed; consult the server log.");
    }
}

#[test]
fn the_manifest_rendered_at_run_time_equals_the_committed_one() {
    let committed = include_str!("../../tests/fixture/tools.json");
    assert_eq!(TOOLS.manifest().render(), committed);
}

#[test]
fn every_baked_schema_equals_schemars() {
    assert_eq!(tooltable_runtime::testing::assert_schemas_match(&TOOLS), 14);
}

fn label(overrides: Value) -> Value {
    let mut arguments = json!({"copies": 1, "text": "Lamps", "code": "ABC123", "notify": "shop@example.com", "shelves": [1, 2]});
    for (key, value) in overrides.as_object().unwrap() {
        arguments[key] = value.clone();
    }
    arguments
}

#[test]
fn every_published_constraint_is_enforced_at_and_just_beyond_its_bound() {
    let shelf = Shelf::new();
    let fits = |overrides: Value| {
        let result = call(&shelf, "items_label", label(overrides)).unwrap();
        (!result.is_error)
            .then_some(())
            .ok_or_else(|| result.first_text().unwrap_or_default().to_owned())
    };
    assert_eq!(fits(json!({})), Ok(()));
    assert_eq!(fits(json!({"copies": 10})), Ok(()));
    assert_eq!(
        fits(json!({"copies": 11})),
        Err("Invalid arguments for items_label: at `/copies`: the value is greater than the maximum of 10.".into())
    );
    assert!(
        fits(json!({"copies": 0})).is_err(),
        "below the minimum of 1"
    );
    assert_eq!(fits(json!({"text": "x".repeat(20)})), Ok(()));
    assert!(fits(json!({"text": "x".repeat(21)})).is_err());
    assert!(fits(json!({"text": ""})).is_err());
    assert!(fits(json!({"code": "abc123"})).is_err());
    assert!(fits(json!({"notify": "nobody"})).is_err());
    assert_eq!(fits(json!({"shelves": [1, 2, 3]})), Ok(()));
    assert!(fits(json!({"shelves": [1, 2, 3, 4]})).is_err());
    assert!(fits(json!({"shelves": []})).is_err());
    assert!(fits(json!({"shelves": [2, 2]})).is_err(), "unique items");
}

#[test]
fn a_refusal_names_a_handful_of_violations_however_bad_the_arguments() {
    let shelf = Shelf::new();
    let text = refusal(
        &shelf,
        "items_label",
        json!({"copies": 0, "text": "x".repeat(1 << 20), "code": "no", "notify": "no", "shelves": []}),
    );
    assert!(text.len() < 1500, "{} bytes", text.len());
    assert_eq!(text.matches("at `/").count(), 5, "{text}");
}

#[test]
fn only_tools_whose_schema_says_more_than_their_type_are_validated() {
    let validated: Vec<&str> = TOOLS
        .tools()
        .iter()
        .filter(|t| tooltable_rules::validate::needs_validation(&t.descriptor()["inputSchema"]))
        .map(|t| t.name())
        .collect();
    assert_eq!(validated, ["items_label"]);
}

#[test]
fn huge_and_deeply_nested_arguments_are_refused_with_a_short_answer() {
    let shelf = Shelf::new();
    let mut huge: Vec<u64> = (0..200_000).collect();
    huge.push(7);
    let mut nested = json!(1);
    for _ in 0..100 {
        nested = json!([nested]);
    }
    for shelves in [json!(huge), nested] {
        let text = refusal(&shelf, "items_label", label(json!({ "shelves": shelves })));
        assert!(
            text.starts_with("Invalid arguments for items_label: at `/shelves"),
            "{text}"
        );
        assert!(text.len() < 1500, "{} bytes", text.len());
    }
}
