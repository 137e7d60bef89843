//! A server on a real process's stdin and stdout, whatever they are: pipes
//! and a socket, which the runtime polls, and files, which it cannot poll
//! and which are read and written by threads of their own. Every kind
//! answers the same requests with the same answers.
#![cfg(target_os = "linux")]

use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// `target/<profile>/examples/fixture_stdio`, which `cargo test` builds.
fn binary() -> PathBuf {
    let deps = std::env::current_exe().unwrap();
    deps.parent()
        .and_then(|deps| deps.parent())
        .unwrap()
        .join("examples")
        .join("fixture_stdio")
}

/// The requests asked on every kind of stdio: a listing, calls answered
/// without rmcp's service (a result, a paused one, an unknown tool), a
/// call of a tool that talks back (answered by rmcp), and a ping.
fn script() -> Vec<Value> {
    let call = |id: u64, name: &str, arguments: Value| json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": name, "arguments": arguments}});
    vec![
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"},
        }}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}),
        call(3, "items_list", json!({})),
        call(4, "items_pause", json!({"ms": 5})),
        call(5, "items_nope", json!({})),
        call(6, "items_progress", json!({"steps": 1})),
        json!({"jsonrpc": "2.0", "id": 7, "method": "ping"}),
    ]
}

fn lines(script: &[Value]) -> String {
    script
        .iter()
        .map(|message| format!("{message}\n"))
        .collect()
}

/// The answers by id (notifications left out), read from `output` until
/// every request of the script was answered or the output ends.
fn answers(output: impl std::io::Read) -> BTreeMap<u64, Value> {
    let mut answers = BTreeMap::new();
    for line in BufReader::new(output).lines() {
        let line = line.unwrap();
        let answer: Value = serde_json::from_str(&line).unwrap();
        if answer.get("method").is_some() {
            // items_progress's log messages.
            continue;
        }
        let id = answer["id"].as_u64();
        answers.insert(
            id.unwrap_or_else(|| panic!("an answer with its id: {line}")),
            answer,
        );
        if answers.len() == 7 {
            break;
        }
    }
    answers
}

/// Whether `child` reads its stdin on a thread of its own.
fn reads_on_a_thread(child: &Child) -> bool {
    let tasks = std::fs::read_dir(format!("/proc/{}/task", child.id())).unwrap();
    tasks.flatten().any(|task| {
        std::fs::read_to_string(task.path().join("comm"))
            .is_ok_and(|name| name.trim() == "tooltable-stdin")
    })
}

fn spawn(stdin: impl Into<Stdio>, stdout: impl Into<Stdio>) -> Child {
    Command::new(binary())
        .stdin(stdin)
        .stdout(stdout)
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| {
            panic!("fixture_stdio: {e}; `cargo test -p tooltable-runtime` builds it")
        })
}

fn over_pipes() -> BTreeMap<u64, Value> {
    let mut child = spawn(Stdio::piped(), Stdio::piped());
    let mut input = child.stdin.take().unwrap();
    input.write_all(lines(&script()).as_bytes()).unwrap();
    let answers = answers(child.stdout.take().unwrap());
    assert!(
        !reads_on_a_thread(&child),
        "pipes are polled by the runtime"
    );
    drop(input);
    assert!(child.wait().unwrap().success());
    answers
}

fn over_a_socket() -> BTreeMap<u64, Value> {
    let (mut ours, theirs) = UnixStream::pair().unwrap();
    let mut child = spawn(
        std::os::fd::OwnedFd::from(theirs.try_clone().unwrap()),
        std::os::fd::OwnedFd::from(theirs),
    );
    ours.write_all(lines(&script()).as_bytes()).unwrap();
    let answers = answers(ours.try_clone().unwrap());
    assert!(
        !reads_on_a_thread(&child),
        "a socket is polled by the runtime"
    );
    ours.shutdown(std::net::Shutdown::Write).unwrap();
    assert!(child.wait().unwrap().success());
    answers
}

fn over_files() -> BTreeMap<u64, Value> {
    let dir = std::env::temp_dir().join(format!("tooltable-process-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (input, output) = (dir.join("input"), dir.join("output"));
    std::fs::write(&input, lines(&script())).unwrap();
    let mut child = spawn(
        std::fs::File::open(&input).unwrap(),
        std::fs::File::create(&output).unwrap(),
    );
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        assert!(started.elapsed() < Duration::from_secs(20), "ended");
        std::thread::sleep(Duration::from_millis(20));
    }
    let answers = answers(std::fs::File::open(&output).unwrap());
    std::fs::remove_dir_all(&dir).unwrap();
    answers
}

#[test]
fn a_process_served_over_pipes_a_socket_or_files_answers_every_request_the_same() {
    let pipes = over_pipes();
    assert_eq!(
        pipes.keys().copied().collect::<Vec<_>>(),
        [1, 2, 3, 4, 5, 6, 7]
    );
    assert_eq!(pipes[&4]["result"]["content"][0]["text"], "paused 5 ms");
    assert_eq!(pipes[&5]["error"]["code"], -32602, "{}", pipes[&5]);
    assert_eq!(pipes[&6]["result"]["isError"], false, "{}", pipes[&6]);
    assert_eq!(over_a_socket(), pipes);
    assert_eq!(over_files(), pipes);
}
