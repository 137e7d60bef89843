//! What a hostile client does to the transports, and what holds: bodies
//! sent a byte at a time against the body deadline and the connection
//! limit, answers never read (over HTTP, and on stdio for calls rmcp
//! answers and calls the shortcut answers), and shutdown (SIGTERM, stdin
//! closing) in the middle of a call.
//!
//! Each attack was found against notes-server run as a process, and first
//! tested there (`examples/notes-server/tests/hostile/`). What stops it is
//! the library's, so it is tested here, on a server of the fixture: in this
//! process where the behaviour shows in it, and as a process of
//! `runtime/examples` (`fixture_stdio`, `fixture_http`) where it takes one:
//! a signal, or the server's own memory. Every bound on time and memory is
//! wide: these tests say what happens, not how fast.
#![cfg(target_os = "linux")]

use crate::client;

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt};
use tooltable_fixture::{Shelf, TOOLS};
use tooltable_runtime::Registry;
use tooltable_runtime::serve::McpServer;
use tooltable_runtime::serve::Server;

/// How much a server under attack may grow: far above what it needs
/// (a few megabytes), far below what holding every request or answer costs.
const GROWTH: u64 = 100 * 1024 * 1024;

/// A server's resident memory went from `before` to at most `peak`, less
/// than [`GROWTH`] more.
fn assert_bounded_growth(before: u64, peak: u64) {
    assert!(
        peak < before + GROWTH,
        "the server grew from {} MB to {} MB",
        before >> 20,
        peak >> 20
    );
}

fn server() -> Server<McpServer<Shelf>> {
    Server::new(Registry::new(&TOOLS), Shelf::new()).handle_signals(false)
}

/// `target/<profile>/examples/NAME`, which `cargo test -p
/// tooltable-runtime` (or `cargo build --examples`) builds.
fn example(name: &str) -> PathBuf {
    let deps = std::env::current_exe().unwrap();
    deps.parent()
        .and_then(|deps| deps.parent())
        .unwrap()
        .join("examples")
        .join(name)
}

fn spawn(name: &str, args: &[&str]) -> Child {
    Command::new(example(name))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| {
            panic!("{name}: {e}; `cargo test -p tooltable-runtime` or `cargo build -p tooltable-runtime --examples` builds it")
        })
}

/// The resident memory of process `pid`, in bytes.
fn rss(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let kib: u64 = status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap();
    kib * 1024
}

/// The most memory process `pid` held, sampled for `samples` tenths of a second.
fn peak_rss(pid: u32, samples: u32) -> u64 {
    let mut peak = 0;
    for _ in 0..samples {
        std::thread::sleep(Duration::from_millis(100));
        peak = peak.max(rss(pid));
    }
    peak
}

/// Waits for `child` to exit, for at most 20 s; whether it succeeded.
fn exited(child: &mut Child) -> bool {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status.success();
        }
        assert!(Instant::now() < deadline, "the server exits");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn terminate(child: &Child) {
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#;
const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

fn call(id: Value, tool: &str, arguments: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": tool, "arguments": arguments}})
}

fn ping(id: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "ping"})
}

fn message(answer: &Value) -> &str {
    answer["error"]["message"].as_str().unwrap_or_default()
}

fn text(answer: &Value) -> &str {
    answer["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
}

// ---- HTTP: bodies that do not arrive ----

/// The head of a POST promising a body of `length` bytes.
fn head(address: std::net::SocketAddr, length: usize) -> String {
    format!(
        "POST /mcp HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {length}\r\n\r\n"
    )
}

#[tokio::test]
async fn a_body_that_does_not_arrive_in_time_is_answered_408_and_its_connection_closed() {
    let (address, _stop) = client::listen(server().body_read_timeout(Duration::from_secs(1))).await;
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    let sent = Instant::now();
    stream
        .write_all(format!("{}{{", head(address, 50)).as_bytes())
        .await
        .unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(20), stream.read_to_end(&mut answer))
        .await
        .expect("answered, and the connection closed")
        .unwrap();
    assert!(
        sent.elapsed() >= Duration::from_secs(1),
        "not before the deadline"
    );
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap();
    assert!(head.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(
        head.to_ascii_lowercase().contains("\r\nconnection: close"),
        "{answer}"
    );
    let error: Value = serde_json::from_str(body).unwrap();
    assert_eq!(error["error"]["code"], -32600, "{error}");
    assert!(
        message(&error).contains("did not arrive within this server's limit of 1000 ms"),
        "{error}"
    );
}

/// A request body of which nothing ever arrives.
struct Stalled;

impl http_body::Body for Stalled {
    type Data = bytes::Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<http_body::Frame<bytes::Bytes>, Self::Error>>> {
        std::task::Poll::Pending
    }
}

#[tokio::test]
async fn a_mounted_service_answers_a_body_that_does_not_arrive_in_time_408_with_connection_close() {
    use http_body_util::BodyExt;
    use tower_service::Service;
    let mut service = server()
        .body_read_timeout(Duration::from_millis(500))
        .http_service()
        .unwrap();
    let request = http::Request::post("/mcp")
        .header("host", "127.0.0.1:8080")
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("content-length", "50")
        .body(Stalled)
        .unwrap();
    let response = tokio::time::timeout(Duration::from_secs(20), service.call(request))
        .await
        .expect("answered")
        .unwrap();
    assert_eq!(response.status(), http::StatusCode::REQUEST_TIMEOUT);
    assert_eq!(
        response.headers().get("connection").map(|v| v.as_bytes()),
        Some(&b"close"[..]),
        "the application's server closes the connection"
    );
    let body = response.into_body().collect().await.unwrap().to_bytes();
    let error: Value = serde_json::from_slice(&body).unwrap();
    assert!(
        message(&error).contains("did not arrive within this server's limit of 500 ms"),
        "{error}"
    );
}

/// A connection that sends its head, promises a large body and sends a byte
/// of it every quarter of a second until the server closes it: when it was
/// closed, after its head was sent, and what it was told.
async fn trickle(address: std::net::SocketAddr) -> (Duration, String) {
    let stream = tokio::net::TcpStream::connect(address).await.unwrap();
    let (mut read, mut write) = stream.into_split();
    write
        .write_all(head(address, 100_000).as_bytes())
        .await
        .unwrap();
    let sent = Instant::now();
    let writing = tokio::spawn(async move {
        loop {
            tokio::time::sleep(Duration::from_millis(250)).await;
            if write.write_all(b" ").await.is_err() {
                return;
            }
        }
    });
    let mut told = Vec::new();
    // A reset after the answer leaves what was read.
    let _ = read.read_to_end(&mut told).await;
    let closed = sent.elapsed();
    writing.abort();
    (closed, String::from_utf8_lossy(&told).into_owned())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_bodies_on_every_connection_do_not_keep_a_well_behaved_request_out_and_are_closed_at_the_body_deadline()
 {
    const DEADLINE: Duration = Duration::from_secs(5);
    let (address, _stop) =
        client::listen(server().max_connections(8).body_read_timeout(DEADLINE)).await;
    let started = Instant::now();
    let trickling: Vec<_> = (0..8).map(|_| tokio::spawn(trickle(address))).collect();
    // Let the server take the eight connections: every place is held.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": client::current_meta()}}).to_string();
    let answer = client::exchange(
        address,
        "POST",
        "/mcp",
        &[
            ("Content-Type", "application/json"),
            ("Accept", "application/json, text/event-stream"),
            ("MCP-Protocol-Version", "2026-07-28"),
            ("Mcp-Method", "tools/list"),
        ],
        &body,
    )
    .await;
    let answered = started.elapsed();
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert!(
        answer.json()["result"]["tools"].is_array(),
        "{}",
        answer.body
    );
    let mut closed = Vec::new();
    for connection in trickling {
        closed.push(
            tokio::time::timeout(DEADLINE + Duration::from_secs(20), connection)
                .await
                .expect("every trickling connection is closed")
                .unwrap(),
        );
    }
    // The well-behaved request took the place of one trickling connection,
    // closed without a word; the others were answered at the deadline.
    let timed_out: Vec<&(Duration, String)> = closed
        .iter()
        .filter(|(_, told)| told.starts_with("HTTP/1.1 408"))
        .collect();
    assert!(
        timed_out.len() >= 7,
        "the trickling connections were told: {closed:?}"
    );
    for (after, told) in &timed_out {
        assert!(*after >= DEADLINE, "closed {after:?} after its head");
        assert!(
            told.contains("did not arrive within this server's limit of 5000 ms"),
            "{told}"
        );
    }
    // Answered while the trickling connections still held their places.
    let earliest = timed_out.iter().map(|(after, _)| *after).min().unwrap();
    assert!(
        answered < earliest,
        "answered {answered:?} after the trickling began; the first of them was closed {earliest:?} after its head"
    );
}

// ---- HTTP: answers never read ----

/// `fixture_http`, run with `args`: the process and its address.
fn http_process(args: &[&str]) -> (Child, std::net::SocketAddr) {
    let mut child = spawn("fixture_http", args);
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let address = line
        .trim()
        .strip_prefix("http://")
        .and_then(|rest| rest.strip_suffix("/mcp"))
        .unwrap_or_else(|| panic!("fixture_http printed {line:?}"))
        .parse()
        .unwrap();
    (child, address)
}

/// One stateless call of `items_list` on a connection of its own, read to
/// its end: its status and body.
fn list_items(address: std::net::SocketAddr) -> (u16, Value) {
    let request = client::stateless_call_request(address, 1, "items_list", json!({})).replacen(
        "\r\n",
        "\r\nConnection: close\r\n",
        1,
    );
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    let mut answer = String::new();
    stream
        .read_to_string(&mut answer)
        .expect("answered within 20 s");
    let (head, body) = answer
        .split_once("\r\n\r\n")
        .unwrap_or_else(|| panic!("{answer:?}"));
    let status = head[9..12].parse().unwrap();
    (
        status,
        serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}")),
    )
}

#[test]
fn connections_that_never_read_the_answers_of_their_calls_hold_the_server_back_not_its_memory_nor_other_clients()
 {
    let (mut child, address) = http_process(&["--max-connections", "8"]);
    let (status, first) = list_items(address);
    assert_eq!(status, 200, "{first}");
    let before = rss(child.id());
    // Seven of the eight connections send calls answered by the shortcut,
    // one after another on a connection kept open, as fast as they can, and
    // never read a byte: each connection's requests wait behind its unread
    // answers.
    let one = client::stateless_call_request(address, 2, "items_list", json!({}));
    let writers: Vec<_> = (0..7)
        .map(|_| {
            let one = one.clone();
            std::thread::spawn(move || {
                let Ok(mut stream) = std::net::TcpStream::connect(address) else {
                    return 0;
                };
                for sent in 0..200_000u64 {
                    if stream.write_all(one.as_bytes()).is_err() {
                        return sent;
                    }
                }
                200_000
            })
        })
        .collect();
    let peak = peak_rss(child.id(), 20);
    let (status, answer) = list_items(address);
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["result"]["isError"], false, "{answer}");
    assert!(
        writers.iter().all(|writer| !writer.is_finished()),
        "every connection that does not read is held back"
    );
    assert_bounded_growth(before, peak);
    child.kill().unwrap();
    child.wait().unwrap();
    for writer in writers {
        writer.join().unwrap();
    }
}

// ---- stdio: answers never read ----

/// `fixture_stdio` with `args`, written `opening` and then `line(n)` for
/// n = 1, 2, … as fast as it takes them, its answers never read: the
/// writes are held back, and the server does not grow.
fn a_client_that_does_not_read_is_held_back(
    args: &[&str],
    opening: &[&str],
    line: impl Fn(u64) -> String + Send + 'static,
) {
    let mut child = spawn("fixture_stdio", args);
    // Held, never read.
    let _stdout: ChildStdout = child.stdout.take().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    for message in opening {
        stdin.write_all(format!("{message}\n").as_bytes()).unwrap();
    }
    let before = rss(child.id());
    let writer = std::thread::spawn(move || {
        // From 1: the id 0 is `initialize`'s.
        for n in 1..=60_000u64 {
            if stdin
                .write_all(format!("{}\n", line(n)).as_bytes())
                .is_err()
            {
                return n - 1;
            }
        }
        60_000
    });
    let peak = peak_rss(child.id(), 30);
    assert!(!writer.is_finished(), "the client's writes are held back");
    assert_bounded_growth(before, peak);
    child.kill().unwrap();
    child.wait().unwrap();
    let written = writer.join().unwrap();
    assert!(written < 60_000, "held back after {written} lines");
}

#[test]
fn on_stdio_a_client_that_does_not_read_its_answers_is_held_back_instead_of_growing_the_server() {
    a_client_that_does_not_read_is_held_back(&[], &[INITIALIZE, INITIALIZED], |n| {
        json!({"jsonrpc": "2.0", "id": n, "method": "ping"}).to_string()
    });
}

#[test]
fn on_stdio_a_client_that_does_not_read_the_answers_of_calls_the_shortcut_answers_is_held_back_too()
{
    // Each call carries its revision, so the shortcut is sure of its era
    // from the first.
    a_client_that_does_not_read_is_held_back(&[], &[], |n| {
        json!({"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": {
            "name": "items_list", "arguments": {}, "_meta": client::current_meta(),
        }})
        .to_string()
    });
}

// ---- stdio: shutdown in the middle of a call ----

/// `fixture_stdio` on pipes, its answers read on a thread.
struct StdioProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<Value>,
    /// Answers read while waiting for another.
    early: Vec<Value>,
}

impl Drop for StdioProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl StdioProcess {
    /// A session opened: `initialize` answered, and a ping after
    /// `initialized`, so that the transport knows the session's era and its
    /// shortcut answers the calls it can.
    fn open(args: &[&str]) -> StdioProcess {
        let mut child = spawn("fixture_stdio", args);
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if tx.send(serde_json::from_str(&line).unwrap()).is_err() {
                    return;
                }
            }
        });
        let mut process = StdioProcess {
            child,
            stdin,
            lines,
            early: Vec::new(),
        };
        process.send(&serde_json::from_str(INITIALIZE).unwrap());
        process.answer(&json!(0));
        process.send(&serde_json::from_str(INITIALIZED).unwrap());
        process.send(&ping("opened"));
        process.answer(&json!("opened"));
        process
    }

    fn send(&mut self, message: &Value) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(format!("{message}\n").as_bytes()).unwrap();
        stdin.flush().unwrap();
    }

    /// The answer to `id`, within 20 s.
    fn answer(&mut self, id: &Value) -> Value {
        if let Some(at) = self.early.iter().position(|a| &a["id"] == id) {
            return self.early.remove(at);
        }
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let answer = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("an answer to {id} within 20 s"));
            if &answer["id"] == id {
                return answer;
            }
            self.early.push(answer);
        }
    }

    /// Sends the call `id` of `items_pause` for `ms`, and returns once the
    /// server has read it: a ping sent after it is answered.
    fn pause(&mut self, id: u64, ms: u64) {
        self.send(&call(json!(id), "items_pause", json!({"ms": ms})));
        self.send(&ping("after"));
        self.answer(&json!("after"));
    }
}

/// The two paths a call takes: the shortcut, and rmcp's service.
const PATHS: [&[&str]; 2] = [&[], &["--calls-through-rmcp"]];

#[test]
fn sigterm_on_stdio_during_a_call_still_delivers_its_answer_and_refuses_new_requests() {
    std::thread::scope(|scope| {
        for args in PATHS {
            scope.spawn(move || {
                let mut server = StdioProcess::open(args);
                server.pause(8, 4000);
                terminate(&server.child);
                // A ping is answered until the signal took hold; refused after.
                let mut refused = None;
                for n in 0..200 {
                    let id = format!("late-{n}");
                    server.send(&ping(&id));
                    let answer = server.answer(&json!(id));
                    if answer.get("error").is_some() {
                        refused = Some(answer);
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(50));
                }
                let refused = refused.expect("a request after SIGTERM is refused");
                assert!(
                    message(&refused).starts_with("Server stopping"),
                    "{args:?}: {refused}"
                );
                let answer = server.answer(&json!(8));
                assert_eq!(text(&answer), "paused 4000 ms", "{args:?}: {answer}");
                assert!(exited(&mut server.child), "{args:?}: exited with success");
            });
        }
    });
}

#[test]
fn closing_stdin_during_a_call_still_delivers_its_answer() {
    std::thread::scope(|scope| {
        for args in PATHS {
            scope.spawn(move || {
                let mut server = StdioProcess::open(args);
                server.pause(7, 2000);
                drop(server.stdin.take());
                let answer = server.answer(&json!(7));
                assert_eq!(text(&answer), "paused 2000 ms", "{args:?}: {answer}");
                assert!(exited(&mut server.child), "{args:?}: exited with success");
            });
        }
    });
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_still_running_when_stdin_closed_and_the_grace_period_ended_is_answered_once_with_an_error()
 {
    for through_rmcp in [false, true] {
        let server = server()
            .shortcut_calls(!through_rmcp)
            .shutdown_grace(Duration::from_millis(500));
        let (client_side, server_side) = tokio::io::duplex(1 << 16);
        let (read, write) = tokio::io::split(server_side);
        let served = tokio::spawn(server.serve_io(read, write));
        let (read, mut write) = tokio::io::split(client_side);
        let mut read = tokio::io::BufReader::new(read);
        // A call that would run for ten seconds, then a ping answered once
        // the server has read it.
        for message in [
            INITIALIZE.to_owned(),
            INITIALIZED.to_owned(),
            call(json!(10), "items_pause", json!({"ms": 10_000})).to_string(),
            ping("after").to_string(),
        ] {
            write
                .write_all(format!("{message}\n").as_bytes())
                .await
                .unwrap();
        }
        let mut answers = Vec::new();
        while !answers.iter().any(|a: &Value| a["id"] == "after") {
            let mut line = String::new();
            tokio::time::timeout(Duration::from_secs(20), read.read_line(&mut line))
                .await
                .expect("the ping answered")
                .unwrap();
            answers.push(serde_json::from_str(&line).unwrap());
        }
        // Stdin closes (the halves of a split stream close it only together).
        write.shutdown().await.unwrap();
        // Every line until the server closes its end.
        let mut rest = String::new();
        tokio::time::timeout(Duration::from_secs(20), read.read_to_string(&mut rest))
            .await
            .expect("the server stops")
            .unwrap();
        answers.extend(rest.lines().map(|line| serde_json::from_str(line).unwrap()));
        let cut: Vec<&Value> = answers.iter().filter(|a| a["id"] == 10).collect();
        assert_eq!(
            cut.len(),
            1,
            "answered once (through rmcp: {through_rmcp}): {answers:?}"
        );
        assert_eq!(cut[0]["error"]["code"], -32603, "{}", cut[0]);
        assert!(
            message(cut[0]).starts_with("Server stopped")
                && message(cut[0]).contains("whether it took effect is unknown"),
            "{}",
            cut[0]
        );
        tokio::time::timeout(Duration::from_secs(20), served)
            .await
            .expect("serving returns")
            .unwrap()
            .unwrap();
    }
}

/// The tasks alive on this test's runtime, once they are no more than
/// `most` (within 5 s); how many there were at the last look.
async fn alive_tasks_settle_at(most: usize) -> usize {
    let metrics = tokio::runtime::Handle::current().metrics();
    let deadline = Instant::now() + Duration::from_secs(5);
    while metrics.num_alive_tasks() > most && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    metrics.num_alive_tasks()
}

#[test]
fn a_stateless_call_whose_client_closed_its_connection_is_cancelled() {
    client::counting(|direct| async move {
        let (address, _stop) = client::listen(server()).await;
        let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
        let request =
            client::stateless_call_request(address, 1, "items_pause", json!({"ms": 10_000}));
        stream.write_all(request.as_bytes()).await.unwrap();
        direct.running().await;
        let running = tokio::runtime::Handle::current()
            .metrics()
            .num_alive_tasks();
        drop(stream);
        // Closing the response is the call's cancellation from 2026-07-28
        // on: the connection's task and the call's both end, where a call
        // left running would hold its task (and what its handler holds)
        // for the ten seconds it pauses, past every connection limit.
        assert!(alive_tasks_settle_at(running - 2).await <= running - 2);
    });
}
