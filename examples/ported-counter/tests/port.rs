//! The port against the server it came from: its `tools/list` compared
//! with upstream's (`upstream/tools-list.json`, made by `upstream/list.sh`
//! from rmcp's own source) tool by tool, every tool called, and the
//! prompts and resources still served beside the table.

use serde_json::{Map, Value, json};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

const ERA: &str = "2025-11-25";

/// Serves the port on a pipe, sends `requests` after the handshake; the
/// answers, in order.
async fn serve(requests: &[(&str, Value)]) -> Vec<Value> {
    let server = ported_counter::server().unwrap().handle_signals(false);
    let (client, server_side) = tokio::io::duplex(1 << 20);
    let (server_read, server_write) = tokio::io::split(server_side);
    let served = tokio::spawn(server.serve_io(server_read, server_write));
    let (read, mut write) = tokio::io::split(client);
    let mut read = BufReader::new(read);
    let mut lines = vec![
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": ERA, "capabilities": {}, "clientInfo": {"name": "port", "version": "0"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    ];
    for (i, (method, params)) in requests.iter().enumerate() {
        lines.push(json!({"jsonrpc": "2.0", "id": i + 1, "method": method, "params": params}));
    }
    let mut answers = Vec::new();
    for line in lines {
        write
            .write_all(format!("{line}\n").as_bytes())
            .await
            .unwrap();
        if line.get("id").is_none() {
            continue;
        }
        let mut text = String::new();
        tokio::time::timeout(Duration::from_secs(10), read.read_line(&mut text))
            .await
            .expect("an answer within 10 s")
            .unwrap();
        let answer: Value = serde_json::from_str(&text).unwrap();
        if answer["id"] != json!(0) {
            answers.push(answer);
        }
    }
    drop((write, read));
    let _ = served.await;
    answers
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
    let answers = serve(&[("tools/list", json!({}))]).await;
    let served: Map<String, Value> = answers[0]["result"]["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("{}", answers[0]))
        .iter()
        .map(|t| (t["name"].as_str().unwrap().to_owned(), t.clone()))
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
    let call = |name: &str, arguments: Value| {
        ("tools/call", json!({"name": name, "arguments": arguments}))
    };
    let answers = serve(&[
        call("increment", json!({})),
        call("increment", json!({})),
        call("decrement", json!({})),
        call("get_value", json!({})),
        call("say_hello", json!({})),
        call("echo", json!({"x": 1, "y": [true]})),
        call("sum", json!({"a": 2, "b": 40})),
        call("get_session_id", json!({})),
        call("sum", json!({"a": "two", "b": 40})),
    ])
    .await;
    let texts: Vec<&str> = answers
        .iter()
        .map(|a| {
            a["result"]["content"][0]["text"]
                .as_str()
                .unwrap_or_else(|| panic!("{a}"))
        })
        .collect();
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
    assert!(answers[..8].iter().all(|a| a["result"]["isError"] == false));
    assert_eq!(answers[8]["result"]["isError"], true, "{}", answers[8]);
    assert!(
        texts[8].contains("`a`"),
        "the bad argument is named: {}",
        texts[8]
    );
}

#[tokio::test]
async fn the_prompts_and_resources_are_still_served_beside_the_table() {
    let answers = serve(&[
        ("prompts/list", json!({})),
        ("resources/list", json!({})),
        (
            "prompts/get",
            json!({"name": "counter_analysis", "arguments": {"goal": "20"}}),
        ),
    ])
    .await;
    let names = |answer: &Value, list: &str| -> Vec<String> {
        answer["result"][list]
            .as_array()
            .unwrap_or_else(|| panic!("{answer}"))
            .iter()
            .map(|p| p["name"].as_str().unwrap().to_owned())
            .collect()
    };
    let mut prompts = names(&answers[0], "prompts");
    prompts.sort();
    assert_eq!(prompts, ["counter_analysis", "example_prompt"]);
    assert_eq!(names(&answers[1], "resources"), ["cwd", "memo-name"]);
    let text = answers[2]["result"]["messages"][1]["content"]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("{}", answers[2]));
    assert!(text.contains("Goal value: 20"), "{text}");
}

#[test]
fn the_served_schemas_are_schemars_with_the_crates_lowering() {
    assert_eq!(
        tooltable::testing::assert_schemas_match(&ported_counter::TOOLS),
        7
    );
}
