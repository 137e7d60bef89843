//! Every way a handler fails is a tool error over a real session, in both
//! eras, and a `Result` through an alias is never an output schema; a raw
//! name, a named lifetime and a context through an alias serve as written.

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tooltable::Registry;
use tooltable::serve::Server;
use tooltable_as_written::{Shelf, TOOLS};

const CURRENT: &str = "2026-07-28";
const LEGACY: &str = "2025-11-25";

/// Calls each tool in `names` over stdio-framed lines in `era`; the
/// results, in order.
async fn call(era: &str, names: &[&str]) -> Vec<Value> {
    answers(era, names)
        .await
        .into_iter()
        .map(|answer| answer["result"].clone())
        .collect()
}

/// Calls each tool in `names` over stdio-framed lines in `era`; the whole
/// answers, in order.
async fn answers(era: &str, names: &[&str]) -> Vec<Value> {
    let shelf = Shelf {
        notes: vec!["the first note".to_owned()],
    };
    let server = Server::new(Registry::new(&TOOLS), shelf).handle_signals(false);
    let (client, server_side) = tokio::io::duplex(1 << 20);
    let (server_read, server_write) = tokio::io::split(server_side);
    let served = tokio::spawn(server.serve_io(server_read, server_write));
    let (read, mut write) = tokio::io::split(client);
    let mut read = BufReader::new(read);
    let mut lines = Vec::new();
    if era == LEGACY {
        lines.push(json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "errors", "version": "0"}}}));
        lines.push(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    }
    for (i, name) in names.iter().enumerate() {
        let mut params = json!({"name": name, "arguments": {}});
        if era == CURRENT {
            params["_meta"] = json!({
                "io.modelcontextprotocol/protocolVersion": CURRENT,
                "io.modelcontextprotocol/clientCapabilities": {},
                "io.modelcontextprotocol/clientInfo": {"name": "errors", "version": "0"},
            });
        }
        lines
            .push(json!({"jsonrpc": "2.0", "id": i + 1, "method": "tools/call", "params": params}));
    }
    let mut results = Vec::new();
    for line in lines {
        let expects_answer = line.get("id").is_some();
        let is_handshake = line["id"] == 0;
        write
            .write_all(format!("{line}\n").as_bytes())
            .await
            .unwrap();
        if !expects_answer {
            continue;
        }
        let mut answer = String::new();
        read.read_line(&mut answer).await.unwrap();
        let answer: Value = serde_json::from_str(&answer).unwrap();
        if !is_handshake {
            results.push(answer);
        }
    }
    drop(write);
    drop(read);
    let _ = served.await;
    results
}

/// The text of a result's first content block.
fn text(result: &Value) -> &str {
    result["content"][0]["text"].as_str().unwrap_or_default()
}

#[tokio::test]
async fn string_str_alias_and_anyhow_errors_are_tool_errors_with_their_messages() {
    for era in [CURRENT, LEGACY] {
        let results = call(
            era,
            &[
                "errors_string",
                "errors_str",
                "errors_alias",
                "errors_anyhow",
                "errors_eyre",
            ],
        )
        .await;
        let expected = [
            "no note 7; list the notes to see their ids",
            "the shelf is empty",
            "the alias failed",
            "saving the note: the disk is full",
            "searching the notes: the index is stale",
        ];
        for (result, message) in results.iter().zip(expected) {
            assert_eq!(result["isError"], true, "{era}: {result}");
            assert_eq!(text(result), message, "{era}: {result}");
            assert!(result.get("structuredContent").is_none(), "{era}: {result}");
        }
    }
}

#[tokio::test]
async fn a_standard_error_is_internal_and_its_text_never_reaches_the_caller() {
    for era in [CURRENT, LEGACY] {
        let results = call(era, &["errors_internal"]).await;
        assert_eq!(results[0]["isError"], true, "{era}");
        assert_eq!(
            text(&results[0]),
            "Tool execution failed; consult the server log."
        );
    }
}

#[tokio::test]
async fn a_result_through_an_alias_succeeds_with_its_value_and_its_value_s_schema() {
    let results = call(CURRENT, &["errors_alias_ok"]).await;
    assert_eq!(results[0]["isError"], false);
    assert_eq!(results[0]["structuredContent"], json!({"n": 3}));
    let tool = TOOLS.get("errors_alias_ok").unwrap();
    let schema = &tool.descriptor()["outputSchema"];
    assert_eq!(schema["properties"]["n"]["type"], "integer", "{schema}");
    assert!(schema.get("oneOf").is_none(), "{schema}");
    let failing = TOOLS.get("errors_alias").unwrap();
    assert_eq!(failing.descriptor()["outputSchema"], *schema);
}

#[tokio::test]
async fn an_error_with_data_is_a_tool_error_with_the_data_as_structured_content_and_as_text() {
    for era in [CURRENT, LEGACY] {
        let mut results = call(era, &["errors_structured"]).await;
        if era == CURRENT {
            assert_eq!(results[0]["resultType"], "complete");
            results[0].as_object_mut().unwrap().remove("resultType");
        }
        let data =
            json!({"code": "quota", "retryable": true, "context": {"used": 100, "limit": 100}});
        assert_eq!(
            results[0],
            json!({
                "content": [
                    {"type": "text", "text": "the quota for today is spent; try again tomorrow"},
                    {"type": "text", "text": data.to_string()},
                ],
                "structuredContent": data,
                "isError": true,
            }),
            "{era}"
        );
    }
}

#[tokio::test]
async fn a_protocol_error_a_handler_chooses_is_the_json_rpc_error_with_its_data() {
    for era in [CURRENT, LEGACY] {
        let answers = answers(era, &["errors_protocol"]).await;
        assert_eq!(
            answers[0]["error"],
            json!({"code": -32050, "message": "the index is being rebuilt", "data": {"retryAfterMs": 500}}),
            "{era}: {}",
            answers[0]
        );
        assert!(answers[0].get("result").is_none(), "{era}: {}", answers[0]);
    }
}

#[test]
fn every_baked_schema_equals_schemars_including_the_aliased_outputs() {
    assert_eq!(tooltable::testing::assert_schemas_match(&TOOLS), 12);
}

#[tokio::test]
async fn a_raw_name_a_named_lifetime_and_an_aliased_context_serve_as_written() {
    let results = call(CURRENT, &["match", "shelf_first", "shelf_count"]).await;
    assert_eq!(results[0]["isError"], false, "{}", results[0]);
    assert_eq!(text(&results[0]), "matched");
    assert_eq!(results[1]["isError"], false, "{}", results[1]);
    assert_eq!(
        results[1]["structuredContent"],
        json!({"result": "the first note"})
    );
}
