//! Messages that are a request and a response at once: rmcp reads them as
//! neither, so the guard refuses them before any shortcut runs a call or
//! any id takes a place in flight.

use crate::harness::*;
use serde_json::{Value, json};

/// A note to change, created through the server; its id.
fn a_note(port: u16) -> Value {
    let created = post_stateless(
        port,
        json!("create"),
        "tools/call",
        json!({"name": "notes_create", "arguments": {"title": "kept", "body": "b"}}),
    );
    let note = created.json()["result"]["structuredContent"]["id"].clone();
    assert!(note.is_i64(), "{}", created.body);
    note
}

fn title(port: u16, note: &Value) -> Value {
    let got = post_stateless(
        port,
        json!("get"),
        "tools/call",
        json!({"name": "notes_get", "arguments": {"id": note}}),
    );
    got.json()["result"]["structuredContent"]["title"].clone()
}

both_mounts! {
    fn a_stateless_call_that_also_carries_a_result_or_an_error_is_refused_and_changes_nothing(mount: Mount) {
        let server = Server::http_on(mount, "call-and-result", &[]);
        let note = a_note(server.port);
        for extra in [json!({"result": {}}), json!({"error": {"code": 1, "message": "m"}}), json!({"error": null})] {
            let (body, headers) = stateless(
                json!(7),
                "tools/call",
                json!({"name": "notes_update", "arguments": {"id": note, "title": "changed"}}),
            );
            let mut body: Value = serde_json::from_str(&body).unwrap();
            for (key, value) in extra.as_object().unwrap() {
                body[key] = value.clone();
            }
            let headers: Vec<(&str, &str)> = headers.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
            let answer = post(server.port, &headers, body.to_string().as_bytes());
            assert_eq!(answer.status, 400, "{extra}: {}", answer.body);
            let refusal = answer.json();
            assert_eq!((&refusal["id"], &refusal["error"]["code"]), (&json!(7), &json!(-32600)), "{refusal}");
        }
        assert_eq!(title(server.port, &note), "kept", "no call ran");
        let (body, headers) = stateless(json!(8), "tools/list", json!({}));
        let mut body: Value = serde_json::from_str(&body).unwrap();
        body["error"] = json!({"code": 1, "message": "m"});
        let headers: Vec<(&str, &str)> = headers.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
        let listing = post(server.port, &headers, body.to_string().as_bytes());
        assert_eq!((listing.status, &listing.json()["error"]["code"]), (400, &json!(-32600)), "{}", listing.body);
    }
}

#[test]
fn on_stdio_four_requests_that_are_also_responses_do_not_stop_the_server_reading() {
    let mut server = StdioServer::start("call-and-result", &["--max-in-flight", "4"]);
    for (id, member) in [
        (1, r#""result":{}"#),
        (2, r#""error":{"code":1,"message":"m"}"#),
        (3, r#""r\u0065sult":{}"#),
        (4, r#""result":{},"error":{"code":1,"message":"m"}"#),
    ] {
        server.send(&format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"ping",{member}}}"#
        ));
        let refusal = server.answer(&json!(id));
        assert_eq!(refusal["error"]["code"], -32600, "{refusal}");
    }
    server.send(r#"{"jsonrpc":"2.0","id":"after","method":"ping"}"#);
    assert_eq!(server.answer(&json!("after"))["result"], json!({}));
}

#[test]
fn on_a_stdin_the_runtime_cannot_poll_a_listing_never_overtakes_an_earlier_request_under_its_id() {
    // A regular file as stdin: read on a thread of its own, where listings
    // are answered as they are read.
    let dir = crate::common::TempDir::new("hostile", "file-stdin");
    let mut input = String::new();
    input.push_str(&initialize(0, "initialize"));
    input.push('\n');
    input.push_str(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    input.push('\n');
    for id in 1..=40 {
        input.push_str(&format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"notes_stats","arguments":{{}}}}}}"#
        ));
        input.push('\n');
        input.push_str(&format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list"}}"#
        ));
        input.push('\n');
    }
    let file = dir.0.join("input.jsonl");
    std::fs::write(&file, input).unwrap();
    let output = std::process::Command::new(SERVER)
        .args(["serve", "--db"])
        .arg(dir.0.join("notes.db"))
        .stdin(std::fs::File::open(&file).unwrap())
        .stderr(std::process::Stdio::null())
        .output()
        .unwrap();
    let answers: Vec<Value> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    for id in 1..=40 {
        let mine: Vec<&Value> = answers.iter().filter(|answer| answer["id"] == id).collect();
        let call = mine
            .iter()
            .position(|answer| answer["result"]["structuredContent"]["notes"].is_u64())
            .unwrap_or_else(|| panic!("the call under id {id} is answered: {mine:?}"));
        // The listing is refused while the call is in flight, or answered
        // after it: never before.
        assert!(
            mine[..call]
                .iter()
                .all(|answer| answer["error"]["code"] == -32600),
            "under id {id}: {mine:?}"
        );
    }
}
