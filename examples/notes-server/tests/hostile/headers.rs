//! Headers that decide how a request is treated, sent twice: one reader
//! would take the first and another the last, so the request is refused
//! whole, `400` with JSON-RPC `-32020`, and nothing runs.

use crate::harness::*;
use serde_json::json;

both_mounts! {
    fn a_header_that_decides_how_a_request_is_treated_sent_twice_is_refused_and_runs_nothing(mount: Mount) {
        let server = Server::http_on(mount, "twice", &[]);
        let (body, headers) = stateless(
            json!(5),
            "tools/call",
            json!({"name": "notes_create", "arguments": {"title": "t", "body": "b"}}),
        );
        let headers: Vec<(&str, &str)> = headers.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
        let host = format!("127.0.0.1:{}", server.port);
        for (name, second) in [
            ("MCP-Protocol-Version", "2025-11-25"),
            ("mcp-protocol-version", "2026-07-28"),
            ("Mcp-Method", "tools/list"),
            ("Mcp-Name", "notes_delete"),
            ("Mcp-Param-Title", "x"),
            ("Mcp-Session-Id", "s"),
            ("Content-Type", "text/plain"),
            ("Origin", "https://evil.example"),
            ("Authorization", "Bearer x"),
            ("Host", host.as_str()),
        ] {
            let mut sent = headers.clone();
            // A header the request already has is sent again; one it has not
            // is sent twice.
            if !headers.iter().any(|(n, _)| n.eq_ignore_ascii_case(name)) && name != "Host" && name != "Content-Type" {
                sent.push((name, second));
            }
            sent.push((name, second));
            let answer = post(server.port, &sent, body.as_bytes());
            assert_eq!(answer.status, 400, "{name}: {}", answer.body);
            let refusal = answer.json();
            assert_eq!(refusal["error"]["code"], -32020, "{name}: {refusal}");
            assert!(
                refusal["error"]["message"].as_str().unwrap().contains(&format!("more than one `{}` header", name.to_ascii_lowercase())),
                "{refusal}"
            );
        }
        let stats = post_stateless(server.port, json!(6), "tools/call", json!({"name": "notes_stats"}));
        assert_eq!(stats.json()["result"]["structuredContent"]["notes"], 0, "nothing was created: {}", stats.body);
        // `Accept` is a list, whose lines every reader joins: two are one.
        let mut split: Vec<(&str, &str)> = headers.to_vec();
        split.push(("Accept", "text/event-stream"));
        let answer = post(server.port, &split, body.as_bytes());
        assert_eq!(answer.status, 200, "{}", answer.body);
    }
}
