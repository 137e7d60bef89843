//! The README's ten-line server, run as a process: every bad input gets an
//! answer, a valid request after them is served, and only the read tools
//! are listed (the library's default).

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// `target/debug/examples/minimal_stdio`, which `cargo test` builds with
/// the package's examples.
fn binary() -> PathBuf {
    let deps = std::env::current_exe().unwrap();
    let profile = deps.parent().unwrap().parent().unwrap();
    let binary = profile
        .join("examples")
        .join(format!("minimal_stdio{}", std::env::consts::EXE_SUFFIX));
    assert!(
        binary.exists(),
        "{} is missing; `cargo test -p notes-server` builds it",
        binary.display()
    );
    binary
}

#[test]
fn the_ten_line_server_answers_every_bad_input_then_serves_read_tools() {
    let dir = std::env::temp_dir().join(format!("tooltable-minimal-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut child = Command::new(binary())
        .current_dir(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let deep = format!(
        r#"{{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{{"name":"notes_get","arguments":{{"id":{}1{}}}}}}}"#,
        "[".repeat(100),
        "]".repeat(100)
    );
    let huge = format!(
        r#"{{"jsonrpc":"2.0","id":3,"method":"ping","params":{{"pad":"{}"}}}}"#,
        "x".repeat(5 * 1024 * 1024)
    );
    let lines = [
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#.to_owned(),
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_owned(),
        "this is not JSON".to_owned(),
        r#"{"jsonrpc":"2.0","id":2}"#.to_owned(),
        huge,
        deep,
        r#"{"jsonrpc":"2.0","id":5,"method":"tools/frobnicate","params":{}}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":6,"method":"tools/list","params":{"cursor":"nonsense"}}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{}}"#.to_owned(),
    ];
    let writer = std::thread::spawn(move || {
        for line in lines {
            stdin.write_all(line.as_bytes()).unwrap();
            stdin.write_all(b"\n").unwrap();
        }
        stdin
    });
    let mut answers = Vec::new();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let deadline = Instant::now() + Duration::from_secs(30);
    while answers.len() < 8 && Instant::now() < deadline {
        let mut line = String::new();
        if stdout.read_line(&mut line).unwrap() == 0 {
            break;
        }
        answers.push(serde_json::from_str::<Value>(&line).unwrap());
    }
    drop(writer.join().unwrap());
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&dir);

    // Answers come in the order they are ready, not the order asked: the
    // guard answers bad lines at once, while rmcp works on the rest.
    assert_eq!(answers.len(), 8, "{answers:#?}");
    let by_id = |id: i64| {
        answers
            .iter()
            .find(|a| a["id"] == json!(id))
            .unwrap_or_else(|| panic!("no answer to {id}: {answers:#?}"))
    };
    let code = |answer: &Value| answer["error"]["code"].as_i64();
    let mut anonymous: Vec<Option<i64>> = answers
        .iter()
        .filter(|a| a["id"].is_null())
        .map(code)
        .collect();
    anonymous.sort_unstable();
    assert_eq!(
        anonymous,
        [Some(-32700), Some(-32600)],
        "not JSON, and too large to read an id from"
    );
    assert!(by_id(1)["result"]["serverInfo"].is_object());
    assert_eq!(code(by_id(2)), Some(-32600), "not JSON-RPC");
    assert_eq!(code(by_id(4)), Some(-32600), "too deep");
    assert_eq!(code(by_id(5)), Some(-32601), "unknown method");
    assert_eq!(code(by_id(6)), Some(-32602), "bad cursor");
    let names: Vec<&str> = by_id(7)["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "notes_export",
            "notes_get",
            "notes_search",
            "notes_stats",
            "notes_watch"
        ]
    );
}
