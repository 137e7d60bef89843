//! A `tools/call` the transports answer themselves equals, byte for byte,
//! what rmcp's service sends, in every era, on both transports: results,
//! tool errors, argument errors, refusals, unknown tools; and it is really
//! the other path that answered.

use crate::client;

use client::{
    Direct, Session, counting, current_meta, everything, one_disabled, pinned, read_only,
    without_permissions,
};
use serde_json::{Value, json};
use std::time::Duration;
use tooltable_fixture::Shelf;
use tooltable_runtime::Caller;
use tooltable_runtime::Registry;
use tooltable_runtime::serve::McpServer;
use tooltable_runtime::serve::Server;

/// A way of serving the fixture, and the calls made of it.
struct Setup {
    name: &'static str,
    registry: fn() -> Registry<Shelf>,
    caller: Option<fn() -> Caller>,
    calls: Vec<(&'static str, Value)>,
}

/// Tools whose handlers talk back (a handle, a confirmation): rmcp's to
/// answer on either server.
const TALKING: [&str; 2] = ["items_progress", "items_destroy"];

fn setups() -> Vec<Setup> {
    let every_kind = vec![
        // Results: a synchronous handler, an async one, a plain string.
        ("items_list", json!({})),
        ("items_create", json!({"name": "a lamp"})),
        ("items_get", json!({"id": 1})),
        (
            "items_label",
            json!({"copies": 2, "text": "lamp", "code": "LMP001", "notify": "a@b.example", "shelves": [1, 2]}),
        ),
        ("items_pause", json!({"ms": 5})),
        // Tool errors: the handler's own, and a panic.
        ("items_create", json!({"name": "  "})),
        ("items_get", json!({"id": 999})),
        ("items_fault", json!({"kind": "panic"})),
        // Argument errors: a wrong type, a missing argument, an unknown
        // one, a constraint broken.
        ("items_create", json!({"name": 5})),
        ("items_get", json!({})),
        ("items_list", json!({"surprise": true})),
        (
            "items_label",
            json!({"copies": 11, "text": "lamp", "code": "lamp", "notify": "a@b.example", "shelves": [1, 1]}),
        ),
        // Not a tool, and tools that talk back.
        ("items_nope", json!({})),
        ("items_progress", json!({"steps": 1})),
        ("items_destroy", json!({"id": 1})),
    ];
    let refusals = vec![
        ("items_get", json!({"id": 1})),
        ("items_create", json!({"name": "a lamp"})),
        ("items_list", json!({})),
    ];
    let setup = |name, registry, caller, calls| Setup {
        name,
        registry,
        caller,
        calls,
    };
    vec![
        setup("every tool", everything, None, every_kind),
        setup("the read tier", read_only, None, refusals.clone()),
        setup("a disabled tool", one_disabled, None, refusals.clone()),
        setup(
            "no permissions",
            everything,
            Some(without_permissions),
            refusals.clone(),
        ),
        setup("pinned", everything, Some(pinned), refusals),
    ]
}

fn server(setup: &Setup, direct: bool) -> Server<McpServer<Shelf>> {
    let mut server = Server::new((setup.registry)(), Shelf::new())
        .handle_signals(false)
        .shortcut_calls(direct);
    if let Some(caller) = setup.caller {
        server = server.fixed_caller(caller());
    }
    server
}

/// The calls that can be answered without rmcp.
fn simple(setup: &Setup) -> usize {
    setup
        .calls
        .iter()
        .filter(|(tool, _)| !TALKING.contains(tool))
        .count()
}

fn compare(setup: &Setup, era: &str, direct: &[String], typed: &[String]) {
    assert_eq!(direct.len(), typed.len());
    for (i, (direct, typed)) in direct.iter().zip(typed).enumerate() {
        assert_eq!(
            direct, typed,
            "{} ({era}), call {i} ({:?}): the direct answer differs from rmcp's",
            setup.name, setup.calls[i]
        );
    }
}

async fn call_all(session: &mut Session, setup: &Setup) -> Vec<String> {
    let mut answers = Vec::new();
    for (tool, arguments) in &setup.calls {
        let mut params = json!({"name": tool, "arguments": arguments});
        if session.legacy.is_none() {
            params["_meta"] = current_meta();
        }
        let (raw, _) = session.ask("tools/call", params).await;
        answers.push(raw);
    }
    answers
}

/// Waits until the session's era is known to the shortcut (rmcp records it
/// once it handled `initialized`): listings come from baked bytes then.
async fn wait_for_the_era(setup: &Setup, session: &mut Session) {
    let registry = (setup.registry)();
    for _ in 0..500 {
        let (raw, answer) = session.list(None).await;
        let first = answer["result"]["tools"][0]["name"].as_str();
        if first.is_some_and(|name| raw.contains(registry.get(name).unwrap().descriptor_json())) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the session's era never became known");
}

#[test]
fn on_stdio_a_call_answered_directly_equals_rmcps_byte_for_byte_in_every_era() {
    counting(|direct| async move {
        for setup in setups() {
            for era in [Some("2025-06-18"), Some("2025-11-25"), None] {
                let mut answers = Vec::new();
                for shortcut in [true, false] {
                    let mut session = Session::open(server(&setup, shortcut), era).await;
                    if era.is_some() {
                        wait_for_the_era(&setup, &mut session).await;
                    }
                    session.next_id = 1000;
                    let before = direct.count();
                    answers.push(call_all(&mut session, &setup).await);
                    let answered = direct.count() - before;
                    let expected = if shortcut { simple(&setup) } else { 0 };
                    assert_eq!(
                        answered,
                        expected,
                        "{} ({}): calls answered without rmcp",
                        setup.name,
                        era.unwrap_or("2026-07-28")
                    );
                }
                compare(
                    &setup,
                    era.unwrap_or("2026-07-28"),
                    &answers[0],
                    &answers[1],
                );
            }
        }
    });
}

/// An HTTP server for `setup`, stopped when the sender is dropped.
async fn http(
    setup: &Setup,
    direct: bool,
) -> (std::net::SocketAddr, tokio::sync::oneshot::Sender<()>) {
    client::listen(server(setup, direct)).await
}

/// A stateless 2026-07-28 POST of a `tools/call` body, with the headers a
/// client sends, plus `extra`.
async fn post_call(
    address: std::net::SocketAddr,
    id: i64,
    tool: &str,
    arguments: &Value,
    extra: &[(&str, &str)],
) -> client::Answer {
    let body = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
        "name": tool, "arguments": arguments, "_meta": current_meta(),
    }});
    let mut headers = call_headers(tool);
    headers.extend_from_slice(extra);
    client::exchange(address, "POST", "/mcp", &headers, &body.to_string()).await
}

#[test]
fn over_http_a_stateless_call_answered_directly_equals_rmcps_byte_for_byte() {
    counting(|direct| async move {
        for setup in setups() {
            let mut answers = Vec::new();
            for shortcut in [true, false] {
                let (address, _stop) = http(&setup, shortcut).await;
                let before = direct.count();
                let mut these = Vec::new();
                for (i, (tool, arguments)) in setup.calls.iter().enumerate() {
                    let answer = post_call(address, i as i64 + 1, tool, arguments, &[]).await;
                    let kind = answer.header("content-type").map(str::to_owned);
                    these.push(format!("{} {kind:?} {}", answer.status, answer.body));
                }
                let answered = direct.count() - before;
                let expected = if shortcut { simple(&setup) } else { 0 };
                assert_eq!(
                    answered, expected,
                    "{}: calls answered without rmcp",
                    setup.name
                );
                answers.push(these);
            }
            compare(&setup, "2026-07-28 over HTTP", &answers[0], &answers[1]);
        }
    });
}

/// The headers a 2026-07-28 client sends with a call of `tool` (besides
/// Host, which every exchange sends).
fn call_headers(tool: &str) -> Vec<(&'static str, &str)> {
    vec![
        ("Content-Type", "application/json"),
        ("Accept", "application/json, text/event-stream"),
        ("MCP-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", "tools/call"),
        ("Mcp-Name", tool),
    ]
}

/// Posts `body` with `headers` to the server with the call shortcut (`fast`)
/// and to the one without (`typed`): both must answer alike, and the direct
/// path must have answered exactly when the request is `answerable`.
async fn answered_alike(
    direct: &Direct,
    (fast, typed): (std::net::SocketAddr, std::net::SocketAddr),
    headers: &[(&str, &str)],
    body: &str,
    answerable: bool,
) {
    let before = direct.count();
    let answered = client::exchange(fast, "POST", "/mcp", headers, body).await;
    let direct_answered = direct.count() - before;
    let expected = client::exchange(typed, "POST", "/mcp", headers, body).await;
    assert_eq!(
        (answered.status, &answered.body),
        (expected.status, &expected.body),
        "{body} with {headers:?}: the answers differ"
    );
    assert_eq!(
        direct_answered,
        usize::from(answerable),
        "{body} with {headers:?}: answered without rmcp ({} {})",
        answered.status,
        answered.body
    );
}

#[test]
fn a_call_whose_meta_or_retry_rmcp_reads_its_own_way_is_answered_as_rmcp_answers_it() {
    let meta = |edit: fn(&mut Value)| {
        let mut meta = current_meta();
        edit(&mut meta);
        meta
    };
    let call = |meta: Value| json!({"name": "items_list", "arguments": {}, "_meta": meta});
    // (what is sent, whether the shortcut may answer it)
    let cases = [
        (call(current_meta()), true),
        (
            call(meta(|m| m["extra"] = json!({"deep": [1, {"x": null}]}))),
            true,
        ),
        (
            call(meta(|m| {
                m["io.modelcontextprotocol/clientCapabilities"] = json!({"sampling": {}})
            })),
            true,
        ),
        (
            call(meta(|m| {
                m.as_object_mut()
                    .unwrap()
                    .remove("io.modelcontextprotocol/clientCapabilities");
            })),
            false,
        ),
        (
            call(meta(|m| {
                m["io.modelcontextprotocol/clientCapabilities"] = json!(5)
            })),
            false,
        ),
        (
            call(meta(|m| {
                m["io.modelcontextprotocol/clientCapabilities"] = json!(null)
            })),
            false,
        ),
        (
            call(meta(|m| {
                m["io.modelcontextprotocol/clientCapabilities"] = json!({"sampling": 5})
            })),
            false,
        ),
        (
            call(meta(|m| {
                m["io.modelcontextprotocol/protocolVersion"] = json!(20260728)
            })),
            false,
        ),
        (
            call(meta(|m| {
                m["io.modelcontextprotocol/protocolVersion"] = json!("2099-01-01")
            })),
            false,
        ),
        (call(json!([1, 2])), false),
        (call(json!(null)), false),
        (
            json!({"name": "items_list", "arguments": {}, "_meta": current_meta(), "requestState": "forged"}),
            false,
        ),
        (
            json!({"name": "items_list", "arguments": {}, "_meta": current_meta(), "inputResponses": {"a": 1}}),
            false,
        ),
        (
            json!({"name": "items_list", "arguments": {}, "_meta": current_meta(), "requestState": null}),
            false,
        ),
        (
            json!({"name": "items_list", "arguments": null, "_meta": current_meta()}),
            true,
        ),
    ];
    let mut cases: Vec<(String, bool)> = cases.iter().map(|(p, a)| (p.to_string(), *a)).collect();
    // Names and values written with escapes are what they decode to.
    cases.push((
        r#"{"name":"items_list","arguments":{},"_meta":{"io.modelcontextprotocol\/protocolVersion":"2026\u002d07-28","io.modelcontextprotocol/client\u0043apabilities":{}}}"#.into(),
        true,
    ));
    cases.push((
        r#"{"name":"items_list","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilitie":{}}}"#.into(),
        false,
    ));
    counting(|direct| async move {
        let setup = &setups()[0];
        let (fast, _stop_fast) = http(setup, true).await;
        let (typed, _stop_typed) = http(setup, false).await;
        for (params, answerable) in &cases {
            let body =
                format!(r#"{{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{params}}}"#);
            let headers = call_headers("items_list");
            answered_alike(&direct, (fast, typed), &headers, &body, *answerable).await;
        }
    });
}

#[test]
fn a_call_read_in_the_guards_one_pass_is_answered_as_rmcp_reads_it() {
    let meta = current_meta().to_string();
    let envelope = |params: &str| {
        format!(r#"{{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{params}}}"#)
    };
    let get = |arguments: &str| {
        envelope(&format!(
            r#"{{"name":"items_get","arguments":{arguments},"_meta":{meta}}}"#
        ))
    };
    // (the whole body, whether the shortcut may answer it)
    let cases: Vec<(String, bool)> = vec![
        (get(r#"{"id":1}"#), true),
        // Members in any order: params before the method and the id.
        (
            format!(
                r#"{{"params":{{"_meta":{meta},"arguments":{{"id":1}},"name":"items_get"}},"id":9,"jsonrpc":"2.0","method":"tools/call"}}"#
            ),
            true,
        ),
        // Escaped names and values decode as rmcp decodes them.
        (get(r#"{"i\u0064":1}"#), true),
        (
            envelope(&format!(
                r#"{{"n\u0061me":"items_\u0067et","\u0061rguments":{{"id":1}},"_meta":{meta}}}"#
            )),
            true,
        ),
        // Arguments are built as rmcp builds them, serde_json's quirks and
        // all, and a type the handler refuses is its argument error.
        (
            get(r#"{"id":{"$serde_json::private::RawValue":"1"}}"#),
            true,
        ),
        (get(r#"{"id":1e2}"#), true),
        (get(r#"{"id":18446744073709551615}"#), true),
        (get(r#"{"id":1,"extra":[{"deep":{"x":null}}]}"#), true),
        (get("null"), true),
        (get("{}"), true),
        // Arguments or a name rmcp refuses: rmcp answers.
        (get("[1]"), false),
        (get(r#""id=1""#), false),
        (get("7"), false),
        (
            envelope(&format!(r#"{{"name":5,"arguments":{{}},"_meta":{meta}}}"#)),
            false,
        ),
        (
            envelope(r#"{"name":"items_get","arguments":{"id":1}}"#),
            false,
        ),
        (envelope("{}"), false),
        // A member twice, in the arguments or in `_meta`, is the guard's
        // refusal on both servers.
        (get(r#"{"id":1,"id":2}"#), false),
        (get(r#"{"id":1,"more":{"a":1,"a":1}}"#), false),
        (
            envelope(&format!(
                r#"{{"name":"items_get","arguments":{{"id":1}},"_meta":{}}}"#,
                meta.replacen(
                    r#""io.modelcontextprotocol/clientCapabilities":{}"#,
                    r#""io.modelcontextprotocol/clientCapabilities":{"x":1,"x":1}"#,
                    1
                )
            )),
            false,
        ),
    ];
    counting(|direct| async move {
        let setup = &setups()[0];
        let (fast, _stop_fast) = http(setup, true).await;
        let (typed, _stop_typed) = http(setup, false).await;
        let headers = call_headers("items_get");
        for (body, answerable) in &cases {
            answered_alike(&direct, (fast, typed), &headers, body, *answerable).await;
        }
    });
}

#[test]
fn a_call_is_answered_directly_only_when_its_headers_ask_for_nothing_but_a_stateless_call() {
    type Headers = Vec<(&'static str, &'static str)>;
    // What a 2026-07-28 client sends besides Host (which every exchange
    // sends), and the same with one header changed.
    let plain: Headers = call_headers("items_list");
    let plus = |header| [plain.clone(), vec![header]].concat();
    let without = |name: &str| plain.iter().filter(|(n, _)| *n != name).copied().collect();
    let with = |name: &'static str, value| {
        let mut headers: Headers = without(name);
        headers.push((name, value));
        headers
    };
    let twice = |name: &str| plus(*plain.iter().find(|(n, _)| *n == name).unwrap());
    // (the headers, whether the shortcut may answer)
    let cases: Vec<(Headers, bool)> = vec![
        (plain.clone(), true),
        (
            with("Content-Type", "Application/JSON; charset=utf-8"),
            true,
        ),
        (
            [
                with("Accept", "application/json"),
                vec![("Accept", "text/event-stream")],
            ]
            .concat(),
            true,
        ),
        (with("Accept", "application/json"), false),
        (with("Content-Type", "text/plain"), false),
        (twice("Content-Type"), false),
        (twice("MCP-Protocol-Version"), false),
        (twice("Mcp-Method"), false),
        (twice("Mcp-Name"), false),
        (without("Mcp-Name"), false),
        (without("MCP-Protocol-Version"), false),
        (with("Mcp-Method", "tools/list"), false),
        (with("Mcp-Name", "=?base64?aXRlbXNfbGlzdA==?="), false),
        (plus(("Origin", "https://evil.example")), false),
        (plus(("Mcp-Session-Id", "nope")), false),
        (plus(("Host", "elsewhere.example")), false),
    ];
    counting(|direct| async move {
        let setup = &setups()[0];
        let (fast, _stop_fast) = http(setup, true).await;
        let (typed, _stop_typed) = http(setup, false).await;
        let body = json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {
            "name": "items_list", "arguments": {}, "_meta": current_meta(),
        }})
        .to_string();
        for (headers, answerable) in &cases {
            answered_alike(&direct, (fast, typed), headers, &body, *answerable).await;
        }
    });
}

#[test]
fn a_call_whose_headers_rmcp_must_check_is_left_to_rmcp() {
    counting(|direct| async move {
        let setup = &setups()[0];
        let (address, _stop) = http(setup, true).await;
        let before = direct.count();
        // The header names another tool than the body: rmcp's refusal.
        let body = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "items_list", "arguments": {}, "_meta": current_meta(),
        }});
        let headers = [
            ("Content-Type", "application/json"),
            ("Accept", "application/json, text/event-stream"),
            ("MCP-Protocol-Version", "2026-07-28"),
            ("Mcp-Method", "tools/call"),
            ("Mcp-Name", "items_get"),
        ];
        let refused = client::exchange(address, "POST", "/mcp", &headers, &body.to_string()).await;
        assert_eq!(refused.status, 400, "{}", refused.body);
        assert!(refused.body.contains("Mcp-Name"), "{}", refused.body);
        // A version in the header the body does not name: rmcp's refusal.
        let body = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
            "name": "items_list", "arguments": {}, "_meta": current_meta(),
        }});
        let headers = [
            ("Content-Type", "application/json"),
            ("Accept", "application/json, text/event-stream"),
            ("MCP-Protocol-Version", "2025-11-25"),
            ("Mcp-Method", "tools/call"),
            ("Mcp-Name", "items_list"),
        ];
        let refused = client::exchange(address, "POST", "/mcp", &headers, &body.to_string()).await;
        assert!(refused.json().get("error").is_some(), "{}", refused.body);
        assert_eq!(direct.count(), before, "rmcp answered both");
    });
}

#[test]
fn a_cancelled_direct_call_is_never_answered_and_its_id_is_not_taken_again() {
    counting(|direct| async move {
        let setup = &setups()[0];
        let mut session = Session::open(server(setup, true), None).await;
        let sleeping = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {
            "name": "items_pause", "arguments": {"ms": 300}, "_meta": current_meta(),
        }});
        session.send(&sleeping).await;
        session
            .send(
                &json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {
                    "requestId": 7, "_meta": current_meta(),
                }}),
            )
            .await;
        // MCP gives every request an id of its own: the cancelled call's
        // handler could still answer under it, so a new request under it is
        // refused.
        session.next_id = 7;
        let (raw, answer) = session
            .ask(
                "tools/call",
                json!({"name": "items_list", "arguments": {}, "_meta": current_meta()}),
            )
            .await;
        assert_eq!(answer["error"]["code"], -32600, "{raw}");
        assert!(raw.contains("was cancelled"), "{raw}");
        assert_eq!(direct.count(), 1);
        // Long after the paused call would have ended, nothing more came.
        tokio::time::sleep(Duration::from_millis(500)).await;
        session
            .send(
                &json!({"jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": {
                    "name": "items_list", "arguments": {}, "_meta": current_meta(),
                }}),
            )
            .await;
        let next = session.next_answer().await;
        assert_eq!(
            next["id"],
            json!(8),
            "a cancelled call was answered: {next}"
        );
    });
}

#[test]
fn a_direct_call_in_progress_when_the_input_ends_is_answered_before_serving_ends() {
    counting(|direct| async move {
        let setup = &setups()[0];
        let (client, server_side) = tokio::io::duplex(1 << 16);
        let (server_read, server_write) = tokio::io::split(server_side);
        let serving = tokio::spawn(server(setup, true).serve_io(server_read, server_write));
        let (read, mut write) = tokio::io::split(client);
        let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": "items_pause", "arguments": {"ms": 200}, "_meta": current_meta(),
        }});
        use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
        write
            .write_all(format!("{call}\n").as_bytes())
            .await
            .unwrap();
        write.shutdown().await.unwrap();
        drop(write);
        let mut lines = tokio::io::BufReader::new(read).lines();
        let line = tokio::time::timeout(Duration::from_secs(10), lines.next_line())
            .await
            .expect("an answer within 10 s")
            .unwrap()
            .expect("the call's answer, not the end of the output");
        let answer: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(
            answer["result"]["content"][0]["text"], "paused 200 ms",
            "{line}"
        );
        assert_eq!(direct.count(), 1);
        tokio::time::timeout(Duration::from_secs(10), serving)
            .await
            .expect("serving ends once the call was answered")
            .unwrap()
            .unwrap();
    });
}
