//! The port against the server it came from: its `tools/list` compared
//! with upstream's (`upstream/tools-list.json`, made by `upstream/list.sh`
//! from rmcp's own source) tool by tool, every tool called, and the
//! prompts and resources still served beside the table, all through
//! tooltable's test client.

use serde_json::{Map, Value, json};
use tooltable::testing::{Revision, TestClient};

/// A session with the port, served in this process through the stdio
/// transport, on the revision upstream's tests speak.
async fn client() -> TestClient {
    TestClient::builder()
        .revision(Revision::R2025_11_25)
        .connect(ported_counter::server().unwrap())
        .await
}

/// The tools upstream lists, by name.
fn upstream() -> Map<String, Value> {
    let text = include_str!("../upstream/tools-list.json");
    let tools: Vec<Value> = serde_json::from_str(text).unwrap();
    tools
        .into_iter()
        .map(|t| (t["name"].as_str().unwrap().to_owned(), t))
        .collect()
}

/// What differs between two descriptors of one tool, as sentences.
fn differences(before: &Value, after: &Value) -> Vec<String> {
    let mut found = Vec::new();
    let keys: std::collections::BTreeSet<&String> = before
        .as_object()
        .unwrap()
        .keys()
        .chain(after.as_object().unwrap().keys())
        .collect();
    for key in keys {
        match (before.get(key), after.get(key)) {
            (Some(b), Some(a)) if b == a => {}
            (Some(b), Some(a)) => found.push(format!("{key}: {b} became {a}")),
            (Some(b), None) => found.push(format!("{key}: {b} is gone")),
            (None, Some(a)) => found.push(format!("{key}: {a} is new")),
            (None, None) => {}
        }
    }
    found
}

#[tokio::test]
async fn the_ported_listing_differs_from_upstream_s_only_as_the_guide_says() {
    let served: Map<String, Value> = client()
        .await
        .list_tools()
        .await
        .into_iter()
        .map(|t| (t["name"].as_str().unwrap().to_owned(), t))
        .collect();
    let upstream = upstream();
    assert_eq!(
        served.keys().collect::<Vec<_>>(),
        upstream.keys().collect::<Vec<_>>(),
        "the same eight tools"
    );
    let hints = |read: bool, idempotent: bool| json!({"readOnlyHint": read, "destructiveHint": false, "idempotentHint": idempotent, "openWorldHint": false});
    for (name, before) in &upstream {
        let mut after = served[name].clone();
        let expected_hints = match name.as_str() {
            "increment" | "decrement" => hints(false, false),
            // The router tool's annotations are the tier the operator
            // placed it at, sent as all four hints.
            "get_session_id" => {
                json!({"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": true})
            }
            _ => hints(true, true),
        };
        assert_eq!(
            after.as_object_mut().unwrap().remove("annotations"),
            Some(expected_hints),
            "{name}: four hints, from the tier"
        );
        if name == "get_session_id" {
            assert_eq!(
                &after, before,
                "{name}: a router tool is listed as rmcp lists it"
            );
            continue;
        }
        let expected: Vec<String> = match name.as_str() {
            "echo" => vec![
                r#"inputSchema: {"$schema":"https://json-schema.org/draft/2020-12/schema","additionalProperties":true,"type":"object"} became {"additionalProperties":true,"type":"object"}"#.to_owned(),
            ],
            // rmcp drops the root description; tooltable keeps the type's
            // doc comment, and drops `$schema`.
            "sum" => {
                let mut schema = before["inputSchema"].clone();
                let object = schema.as_object_mut().unwrap();
                object.remove("$schema");
                object.insert("description".into(), json!("The two numbers `sum` adds."));
                vec![format!("inputSchema: {} became {schema}", before["inputSchema"])]
            }
            // `lowerings = ["empty-parameters"]` keeps rmcp's schema of a
            // tool without parameters.
            _ => vec![],
        };
        assert_eq!(differences(before, &after), expected, "{name}");
    }
}

#[tokio::test]
async fn every_tool_answers_as_upstream_s_does() {
    let mut client = client().await;
    let mut called = Vec::new();
    for (name, arguments) in [
        ("increment", json!({})),
        ("increment", json!({})),
        ("decrement", json!({})),
        ("get_value", json!({})),
        ("say_hello", json!({})),
        ("echo", json!({"x": 1, "y": [true]})),
        ("sum", json!({"a": 2, "b": 40})),
        ("get_session_id", json!({})),
        ("sum", json!({"a": "two", "b": 40})),
    ] {
        called.push(client.call(name, arguments).await.unwrap());
    }
    let texts: Vec<String> = called.iter().map(|c| c.text()).collect();
    assert_eq!(
        texts[..8],
        [
            "1",
            "2",
            "1",
            "1",
            "hello",
            r#"{"x":1,"y":[true]}"#,
            "42",
            "no session (not running over streamable HTTP?)",
        ]
    );
    assert!(called[..8].iter().all(|c| !c.is_error()));
    assert!(called[8].is_error(), "{:?}", called[8]);
    assert!(
        texts[8].contains("`a`"),
        "the bad argument is named: {}",
        texts[8]
    );
}

#[tokio::test]
async fn the_prompts_and_resources_are_still_served_beside_the_table() {
    let mut client = client().await;
    let names = |listed: Vec<Value>| -> Vec<String> {
        listed
            .iter()
            .map(|p| p["name"].as_str().unwrap().to_owned())
            .collect()
    };
    let mut prompts = names(client.list_prompts().await);
    prompts.sort();
    assert_eq!(prompts, ["counter_analysis", "example_prompt"]);
    assert_eq!(names(client.list_resources().await), ["cwd", "memo-name"]);
    let prompt = client
        .get_prompt("counter_analysis", json!({"goal": "20"}))
        .await
        .unwrap();
    let text = prompt["messages"][1]["content"]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("{prompt}"));
    assert!(text.contains("Goal value: 20"), "{text}");
}

#[test]
fn the_served_schemas_are_schemars_with_the_crates_lowering() {
    assert_eq!(
        tooltable::testing::assert_schemas_match(&ported_counter::TOOLS),
        7
    );
}
