//! The package builds as users' packages are laid out (the table in the
//! binary, beside a library; a private context; `rust-version = "1.75"`),
//! and its results built by hand are served as they were built.

use serde_json::{json, Value};

fn run(args: &[&str]) -> Vec<Value> {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_tooltable-lib-and-bin"))
        .args(args)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

#[test]
fn a_structured_result_carries_its_own_text_and_a_result_built_by_hand_is_served_as_built() {
    let results = run(&["entities_add", r#"{"name": "Ada"}"#, "entities_count", "{}"]);
    assert_eq!(
        results[0],
        json!({
            "content": [{"type": "text", "text": "Added Ada; there are 1 now."}],
            "structuredContent": {"count": 1},
            "isError": false,
        })
    );
    assert_eq!(
        results[1],
        json!({
            "content": [{"type": "text", "text": "1 entities"}],
            "structuredContent": {"count": 1},
            "isError": false,
        })
    );
}

#[test]
fn the_manifest_says_which_tool_has_an_output_schema() {
    let manifest: Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tools.json")).unwrap(),
    )
    .unwrap();
    let tools = manifest["tools"].as_array().unwrap();
    let add = tools.iter().find(|t| t["name"] == "entities_add").unwrap();
    assert_eq!(
        add["descriptor"]["outputSchema"]["properties"]["count"]["type"],
        "integer"
    );
    let count = tools
        .iter()
        .find(|t| t["name"] == "entities_count")
        .unwrap();
    assert!(count["descriptor"].get("outputSchema").is_none(), "{count}");
}
