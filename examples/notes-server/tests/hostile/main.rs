//! notes-server, run as a process, against what a hostile client tried:
//! each finding that once got through (an escaped `initialize` past the
//! session limit, a database locked by another process, SIGTERM in the
//! middle of an HTTP call, megabytes echoed back, and the protocol's
//! corners) on the transport where it was found; and, module by module, the
//! second round's: messages that are a request and a response at once,
//! headers sent twice, tasks that tokenless callers share, shutdown with
//! writes in progress, and what the application's listener owns when the
//! endpoint is mounted.
//!
//! The attacks on the library's transports alone (bodies sent a byte at a
//! time, answers never read, SIGTERM or stdin closing during a call on
//! stdio) are tested in the library, on its fixture:
//! `runtime/tests/transport_attacks.rs`. What stays here is about this
//! server: its database, its command line's flags, its axum application.

use serde_json::{Value, json};
use std::io::Write;
use std::net::TcpStream;
use std::time::{Duration, Instant};

#[path = "../common/mod.rs"]
mod common;
#[macro_use]
mod harness;
mod headers;
mod listener;
mod messages;
mod shutdown;
mod tasks;

use harness::*;

both_mounts! {
    fn an_escaped_initialize_counts_against_the_session_limit(mount: Mount) {
        let server = Server::http_on(mount, "sessions", &["--max-sessions", "5"]);
        let answers: Vec<Answer> = std::thread::scope(|scope| {
            let posts: Vec<_> = (0..25u64)
                .map(|i| {
                    // Twenty of them spell the method with an escape, which every
                    // JSON parser reads as `initialize`.
                    let method = if i % 5 == 0 {
                        "initialize"
                    } else {
                        r"initi\u0061lize"
                    };
                    let body = initialize(i, method);
                    let port = server.port;
                    scope.spawn(move || post(port, &[], body.as_bytes()))
                })
                .collect();
            posts.into_iter().map(|p| p.join().unwrap()).collect()
        });
        let opened = answers
            .iter()
            .filter(|a| a.header("mcp-session-id").is_some())
            .count();
        assert_eq!(
            opened,
            5,
            "five sessions, and no more; the statuses: {:?}",
            answers.iter().map(|a| a.status).collect::<Vec<_>>()
        );
        for refused in answers
            .iter()
            .filter(|a| a.header("mcp-session-id").is_none())
        {
            assert_eq!(refused.status, 503, "{}", refused.body);
            assert!(
                refused.json()["error"]["message"]
                    .as_str()
                    .unwrap()
                    .contains("holds its limit of 5 sessions"),
                "{}",
                refused.body
            );
        }
    }
}

/// The application's own accept loop, given `--body-read-timeout`: the
/// runtime's tests answer the mounted service's 408 (`transport_attacks.rs`);
/// this is the flag reaching it, and the application closing the connection.
#[test]
fn mounted_in_axum_a_body_that_does_not_arrive_in_time_is_answered_408_and_closed() {
    let server = Server::http_on(Mount::Axum, "deadline", &["--body-read-timeout", "1"]);
    let mut stream = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{{",
        server.port
    );
    stream.write_all(head.as_bytes()).unwrap();
    let answer = read_answer(&mut stream);
    assert_eq!(answer.status, 408, "{}", answer.body);
    assert_eq!(answer.header("connection"), Some("close"));
    assert!(
        answer.json()["error"]["message"]
            .as_str()
            .unwrap()
            .contains("did not arrive within this server's limit of 1000 ms"),
        "{}",
        answer.body
    );
}

both_mounts! {
    fn a_listing_is_answered_at_once_while_calls_wait_on_a_database_another_process_locked(mount: Mount) {
        let server = Server::http_on(mount, "locked", &[]);
        // The tables exist once the server opened the database; then it is locked.
        let lock = lock_database(&server.dir.0.join("notes.db"));
        let port = server.port;
        let writers = four_writes(port);
        std::thread::sleep(Duration::from_millis(300));
        let started = Instant::now();
        let listing = post_stateless(port, json!("list"), "tools/list", json!({}));
        let took = started.elapsed();
        assert_eq!(listing.status, 200, "{}", listing.body);
        assert_eq!(
            listing.json()["result"]["tools"].as_array().unwrap().len(),
            7
        );
        assert!(took < Duration::from_secs(2), "listed in {took:?}");
        drop(lock);
        for writer in writers {
            let answer = writer.join().unwrap();
            assert_eq!(answer.status, 200, "{}", answer.body);
        }
    }
}

#[test]
fn on_stdio_a_listing_and_a_ping_are_answered_at_once_while_calls_wait_on_a_locked_database() {
    let mut server = StdioServer::start("stdio-locked", &["--allow-write"]);
    let lock = lock_database(&server.dir.0.join("notes.db"));
    // Two calls of a synchronous handler, answered without rmcp's service,
    // and one of an async handler that takes its call (so rmcp answers it),
    // all waiting on the lock (for at most SQLite's busy timeout).
    server.call(json!(1), "notes_update", json!({"id": 1, "title": "u"}));
    server.call(json!(2), "notes_create", json!({"title": "t", "body": "b"}));
    server.call(json!(3), "notes_update", json!({"id": 1, "title": "v"}));
    std::thread::sleep(Duration::from_millis(300));
    let started = Instant::now();
    server.send(r#"{"jsonrpc":"2.0","id":"list","method":"tools/list"}"#);
    let listing = server.answer(&json!("list"));
    server.send(r#"{"jsonrpc":"2.0","id":"ping","method":"ping"}"#);
    let pong = server.answer(&json!("ping"));
    let took = started.elapsed();
    assert_eq!(listing["result"]["tools"].as_array().unwrap().len(), 7);
    assert_eq!(pong["result"], json!({}), "{pong}");
    assert!(
        took < Duration::from_secs(2),
        "listed and pinged in {took:?}"
    );
    drop(lock);
    // The calls end in any order.
    let mut answered = std::collections::BTreeMap::new();
    while answered.len() < 3 {
        let line = server
            .lines
            .recv_timeout(Duration::from_secs(20))
            .expect("the three calls answered within 20 s");
        let answer: Value = serde_json::from_str(&line).unwrap();
        assert!(answer["result"].is_object(), "{answer}");
        answered.insert(answer["id"].as_u64().unwrap(), answer);
    }
    let (direct, log) = server.shortcut_calls();
    assert_eq!(direct, 2, "notes_update was answered without rmcp: {log}");
}

#[test]
fn a_call_answered_without_rmcp_still_blocked_when_the_grace_period_ends_is_answered_once_with_an_error()
 {
    let mut server =
        StdioServer::start("direct-grace", &["--allow-write", "--shutdown-grace", "1"]);
    let lock = lock_database(&server.dir.0.join("notes.db"));
    server.call(json!(10), "notes_update", json!({"id": 1, "title": "u"}));
    std::thread::sleep(Duration::from_millis(300));
    drop(server.stdin.take());
    // The handler gives up once SQLite's busy timeout ends; its late
    // answer is not written.
    server.stopped_once(&json!(10), Duration::from_secs(4));
    drop(lock);
    assert!(server.child.wait().unwrap().success());
    let (direct, log) = server.shortcut_calls();
    assert_eq!(direct, 1, "the call was answered without rmcp: {log}");
}

both_mounts! {
    fn sigterm_over_http_during_a_call_still_delivers_its_answer(mount: Mount) {
        let server = Server::http_on(mount, "http-sigterm", &[]);
        let port = server.port;
        let call = std::thread::spawn(move || {
            post_stateless(
                port,
                json!(11),
                "tools/call",
                json!({"name": "notes_watch", "arguments": {"seconds": 3}}),
            )
        });
        std::thread::sleep(Duration::from_millis(500));
        server.terminate();
        let answer = call.join().unwrap();
        assert_eq!(answer.status, 200, "{}", answer.body);
        let answer = answer.json();
        assert_eq!(answer["id"], json!(11));
        assert_eq!(answer["result"]["isError"], json!(false), "{answer}");
    }
}

both_mounts! {
    fn megabytes_of_input_are_never_echoed_into_replies_or_the_log(mount: Mount) {
        let server = Server::http_on(mount, "echo", &[]);
        let huge = "x".repeat(2 << 20);
        let wrong_type = post_stateless(
            server.port,
            json!(1),
            "tools/call",
            json!({"name": "notes_get", "arguments": {"id": huge}}),
        );
        assert!(
            wrong_type.body.len() < 64 * 1024,
            "{} bytes",
            wrong_type.body.len()
        );
        let message = wrong_type.json()["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .to_owned();
        assert!(message.contains("expected i64"), "{message}");
        // A name longer than any header the client could mirror it in: sent in
        // an `initialize`-era session, which mirrors nothing.
        let session = open_session(server.port);
        let name = "n".repeat(3 << 20);
        let body = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": name, "arguments": {}}});
        let headers = [
            ("Mcp-Session-Id", session.as_str()),
            ("MCP-Protocol-Version", "2025-11-25"),
        ];
        let unknown = post(server.port, &headers, body.to_string().as_bytes());
        assert!(
            unknown.body.len() < 64 * 1024,
            "{} bytes",
            unknown.body.len()
        );
        let error = unknown.json();
        assert_eq!(error["error"]["code"], json!(-32602), "{error}");
        assert!(
            error["error"]["message"]
                .as_str()
                .unwrap()
                .starts_with("Unknown tool: nnn"),
            "{error}"
        );
        let log = server.log();
        let longest = log.lines().map(str::len).max().unwrap_or(0);
        assert!(longest < 64 * 1024, "a log line of {longest} bytes");
    }
}

both_mounts! {
    fn ids_of_every_json_rpc_form_are_answered_with_their_id(mount: Mount) {
        let server = Server::http_on(mount, "ids", &[]);
        for id in ["9223372036854775808", "1.5", "-0.25e3"] {
            let body = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#);
            let answer = post(
                server.port,
                &[("MCP-Protocol-Version", "2026-07-28")],
                body.as_bytes(),
            );
            assert_eq!(answer.status, 400, "{}", answer.body);
            assert!(
                answer.body.contains(&format!(r#""id":{id}"#)),
                "{}",
                answer.body
            );
        }
        let mut stdio = StdioServer::start("ids", &[]);
        stdio.send(r#"{"jsonrpc":"2.0","id":9223372036854775808,"method":"ping"}"#);
        let answer = stdio.answer(&json!(9223372036854775808u64));
        assert_eq!(answer["error"]["code"], json!(-32600), "{answer}");
    }
}

both_mounts! {
    fn an_unreadable_id_is_left_out_of_the_error_on_the_current_revision(mount: Mount) {
        let server = Server::http_on(mount, "unread-id", &[]);
        let answer = post(
            server.port,
            &[("MCP-Protocol-Version", "2026-07-28")],
            b"{not json",
        );
        assert_eq!(answer.status, 400);
        let error = answer.json();
        assert_eq!(error.get("id"), None, "{error}");
        assert_eq!(error["error"]["code"], json!(-32700));
        let legacy = post(
            server.port,
            &[("MCP-Protocol-Version", "2025-06-18")],
            b"{not json",
        );
        assert_eq!(
            legacy.json().get("id"),
            Some(&Value::Null),
            "{}",
            legacy.body
        );
    }
}

both_mounts! {
    fn a_member_written_twice_is_refused_with_the_requests_id(mount: Mount) {
        let server = Server::http_on(mount, "twice", &[]);
        let body = br#"{"jsonrpc":"2.0","id":"t","method":"tools/call","params":{"name":"notes_get","name":"notes_stats","arguments":{}}}"#;
        let answer = post(server.port, &[("MCP-Protocol-Version", "2026-07-28")], body);
        assert_eq!(answer.status, 400, "{}", answer.body);
        let error = answer.json();
        assert_eq!(
            (&error["id"], &error["error"]["code"]),
            (&json!("t"), &json!(-32600))
        );
        assert!(
            error["error"]["message"]
                .as_str()
                .unwrap()
                .contains("the member `name` appears twice"),
            "{error}"
        );
    }
}

#[test]
fn a_second_request_under_an_id_in_flight_is_refused_and_the_first_still_answered() {
    let mut server = StdioServer::start("same-id", &[]);
    server.call(json!(5), "notes_watch", json!({"seconds": 1}));
    server.call(json!(5), "notes_stats", json!({}));
    let refused = server.answer(&json!(5));
    assert_eq!(refused["error"]["code"], json!(-32600), "{refused}");
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("still in progress"),
        "{refused}"
    );
    let first = server.answer(&json!(5));
    assert_eq!(first["result"]["isError"], json!(false), "{first}");
}

both_mounts! {
    fn a_cursor_the_server_did_not_give_out_is_refused(mount: Mount) {
        let server = Server::http_on(mount, "cursors", &["--page-size", "2"]);
        let first = post_stateless(server.port, json!(1), "tools/list", json!({}));
        assert_eq!(first.json()["result"]["nextCursor"], json!("2"));
        for cursor in ["0", "1", "3", "+2", "02"] {
            let answer = post_stateless(
                server.port,
                json!(2),
                "tools/list",
                json!({"cursor": cursor}),
            );
            let error = &answer.json()["error"];
            assert_eq!(error["code"], json!(-32602), "{cursor}: {}", answer.body);
            assert!(
                error["message"]
                    .as_str()
                    .unwrap()
                    .contains("is not one this server gave out"),
                "{error}"
            );
        }
    }
}

#[test]
fn only_the_mcp_path_is_served_and_two_host_headers_are_refused() {
    let server = Server::http("paths", &[]);
    let (body, headers) = stateless(json!(1), "tools/list", json!({}));
    let mut headers: Vec<(&str, &str)> = headers
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    for path in ["/", "/other", "/mcp/", "/mcpx"] {
        let mut stream = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
        stream
            .write_all(&request(server.port, path, &headers, body.as_bytes()))
            .unwrap();
        assert_eq!(read_answer(&mut stream).status, 404, "{path}");
    }
    let host = format!("127.0.0.1:{}", server.port);
    headers.push(("Host", &host));
    let twice = post(server.port, &headers, body.as_bytes());
    assert_eq!(twice.status, 400, "{}", twice.body);
    assert_eq!(twice.json()["error"]["code"], -32020, "{}", twice.body);
    assert!(
        twice.body.contains("more than one `host` header"),
        "{}",
        twice.body
    );
}

both_mounts! {
    fn a_request_rmcp_would_refuse_in_plain_text_gets_a_json_rpc_error_with_its_id(mount: Mount) {
        let server = Server::http_on(mount, "plain-text", &[]);
        let body = br#"{"jsonrpc":"2.0","id":"p","method":"tools/list"}"#;
        let answer = post(server.port, &[("MCP-Protocol-Version", "2025-11-25")], body);
        assert_eq!(answer.status, 400, "{}", answer.body);
        assert_eq!(answer.header("content-type"), Some("application/json"));
        let error = answer.json();
        assert_eq!(
            (&error["id"], &error["error"]["code"]),
            (&json!("p"), &json!(-32600)),
            "{error}"
        );
        assert!(
            error["error"]["message"]
                .as_str()
                .unwrap()
                .contains("Session ID is required"),
            "{error}"
        );
    }
}
