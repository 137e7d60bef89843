//! Tasks kept for their callers: callers without a token cannot be told
//! apart, so none of them may use up the places of the others, and one
//! caller's results leave room in the budget for another's.

use crate::harness::*;
use serde_json::{Value, json};

const TASKS: &str = "io.modelcontextprotocol/tasks";

/// A stateless 2026-07-28 call from a client that declared the Tasks
/// extension, without a token.
fn call_as_a_task_client(port: u16, id: u64, tool: &str, arguments: Value) -> Value {
    let (body, headers) = stateless(
        json!(id),
        "tools/call",
        json!({"name": tool, "arguments": arguments}),
    );
    let mut body: Value = serde_json::from_str(&body).unwrap();
    body["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"] =
        json!({"extensions": {TASKS: {}}});
    let headers: Vec<(&str, &str)> = headers
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    let answer = post(port, &headers, body.to_string().as_bytes());
    assert_eq!(answer.status, 200, "{}", answer.body);
    answer.json()
}

#[test]
fn one_client_without_a_token_does_not_use_up_the_task_places_of_the_others() {
    let server = Server::http("anonymous-tasks", &[]);
    // One client takes as many places as a caller could hold (32, kept an
    // hour once done), each call its own request, as a stateless client
    // makes them.
    for id in 0..32 {
        let started = call_as_a_task_client(server.port, id, "notes_watch", json!({"seconds": 1}));
        assert_eq!(started["result"]["resultType"], "task", "{started}");
    }
    // Another client without a token still gets a task.
    let other = call_as_a_task_client(server.port, 99, "notes_watch", json!({"seconds": 1}));
    assert_eq!(other["result"]["resultType"], "task", "{other}");
}

/// An `initialize`-era session over HTTP of a client that declared the
/// Tasks extension: a caller of its own.
struct Session {
    port: u16,
    id: String,
}

impl Session {
    fn open(port: u16) -> Session {
        let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {"extensions": {TASKS: {}}},
            "clientInfo": {"name": "hostile", "version": "0"},
        }});
        let opened = post(port, &[], initialize.to_string().as_bytes());
        let id = opened
            .header("mcp-session-id")
            .unwrap_or_else(|| panic!("{}", opened.body))
            .to_owned();
        let session = Session { port, id };
        session.post(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        session
    }

    fn post(&self, message: Value) -> Answer {
        let headers = [
            ("Mcp-Session-Id", self.id.as_str()),
            ("MCP-Protocol-Version", "2025-11-25"),
        ];
        post(self.port, &headers, message.to_string().as_bytes())
    }

    fn ask(&self, method: &str, params: Value) -> Value {
        let answer =
            self.post(json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}));
        assert_eq!(answer.status, 200, "{method}: {}", answer.body);
        answer.json()
    }

    /// Exports the notes as a task; the text of the result the task kept.
    fn export(&self) -> String {
        let started = self.ask(
            "tools/call",
            json!({"name": "notes_export", "arguments": {}}),
        );
        let task = started["result"]["taskId"]
            .as_str()
            .or_else(|| started["result"]["task"]["taskId"].as_str())
            .unwrap_or_else(|| panic!("a task: {started}"))
            .to_owned();
        for _ in 0..600 {
            let got = self.ask("tasks/get", json!({"taskId": task}));
            if got["result"]["status"] == "completed" {
                return got["result"]["result"]["content"][0]["text"]
                    .as_str()
                    .unwrap()
                    .to_owned();
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        panic!("task {task} never completed");
    }
}

#[test]
fn one_callers_task_results_do_not_take_the_room_of_anothers() {
    // 15 MB of notes: every export is as large as a result may be.
    let server = Server::http("task-results", &["--max-request-bytes", "16777216"]);
    let body = "n".repeat(15 << 20);
    let created = post_stateless(
        server.port,
        json!("big"),
        "tools/call",
        json!({"name": "notes_create", "arguments": {"title": "big", "body": body}}),
    );
    assert_eq!(
        created.status,
        200,
        "{}",
        &created.body[..created.body.len().min(300)]
    );
    drop(body);
    let heavy = Session::open(server.port);
    let mut refused = None;
    for _ in 0..6 {
        let text = heavy.export();
        if !text.starts_with("# big") {
            refused = Some(text);
            break;
        }
    }
    let refused = refused.expect("one caller keeps no more than its share of results (64 MiB)");
    assert!(
        refused.contains("bytes of task results for one caller"),
        "{refused}"
    );
    let other = Session::open(server.port);
    assert!(
        other.export().starts_with("# big"),
        "another caller's result is kept"
    );
}
