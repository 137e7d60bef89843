//! What a client is told when the server stops with its request in
//! progress: never that it did not happen. A synchronous handler blocked
//! on a lock (the fixture's held shelf, as a database locked by another
//! process) cannot be stopped; it runs on after the grace period, and the
//! call it makes may still take effect. Its answer says the outcome is
//! unknown, comes when the grace period ends whether the handler runs in
//! place or on the blocking pool, and a request that arrives during the
//! grace period is told that nothing of it ran.

use crate::client;

use client::everything;
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tooltable_fixture::Shelf;
use tooltable_runtime::serve::Server;

const GRACE: Duration = Duration::from_millis(300);

/// Reads an HTTP answer until the server closes the connection: its status
/// and its body as JSON.
async fn answer_of(stream: &mut tokio::net::TcpStream) -> (u16, Value) {
    let mut read = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut read))
        .await
        .expect("answered, and the connection closed")
        .unwrap();
    let answer = String::from_utf8_lossy(&read).into_owned();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap();
    (
        head[9..12].parse().unwrap(),
        serde_json::from_str(body).unwrap(),
    )
}

fn message(answer: &Value) -> &str {
    answer["error"]["message"].as_str().unwrap_or_default()
}

/// A server of every fixture tool over `shelf`, with a grace period of
/// [`GRACE`], that shuts down when the sender is used.
fn stopping_on_demand(
    shelf: &Arc<Shelf>,
) -> (
    Server<tooltable_runtime::serve::McpServer<Shelf>>,
    tokio::sync::oneshot::Sender<()>,
) {
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = Server::new(everything(), shelf.clone())
        .handle_signals(false)
        .shutdown_grace(GRACE)
        .shutdown_on(async move {
            let _ = stopped.await;
        });
    (server, stop)
}

/// Waits until the handler of a call is running (blocked on the held shelf).
async fn until_running() {
    tokio::time::sleep(Duration::from_millis(200)).await;
}

/// Waits until the blocked call, released, put its item on the shelf.
async fn until_put(shelf: &Shelf) {
    for _ in 0..500 {
        if shelf.count() == 1 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the call released never put its item");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_http_a_blocked_call_is_answered_when_the_grace_period_ends_as_of_unknown_outcome() {
    let shelf = Arc::new(Shelf::new());
    let held = client::hold(&shelf);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let (server, stop) = stopping_on_demand(&shelf);
    tokio::spawn(server.http_on(listener));
    let mut call = tokio::net::TcpStream::connect(address).await.unwrap();
    let request =
        client::stateless_call_request(address, 7, "items_create", json!({"name": "lamp"}));
    call.write_all(request.as_bytes()).await.unwrap();
    until_running().await;
    stop.send(()).unwrap();
    let stopping = Instant::now();
    // A connection made during the grace period is taken, and its request
    // answered at once.
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut late = tokio::net::TcpStream::connect(address).await.unwrap();
    let request = client::stateless_call_request(address, 8, "items_list", json!({}));
    late.write_all(request.as_bytes()).await.unwrap();
    let (status, refused) = answer_of(&mut late).await;
    assert!(
        stopping.elapsed() < GRACE,
        "answered during the grace period, {:?} after shutdown began",
        stopping.elapsed()
    );
    assert_eq!(status, 503, "{refused}");
    assert!(
        message(&refused).contains("nothing of this one ran"),
        "{refused}"
    );
    let (status, answer) = answer_of(&mut call).await;
    // The synchronous handler runs in place on a worker while the shelf is
    // held; its connection answers all the same.
    assert!(
        stopping.elapsed() < GRACE + Duration::from_secs(2),
        "answered {:?} after shutdown began, with a grace period of {GRACE:?}",
        stopping.elapsed()
    );
    assert_eq!(
        (status, &answer["id"], &answer["error"]["code"]),
        (503, &json!(7), &json!(-32603)),
        "{answer}"
    );
    assert!(
        message(&answer).contains("whether it took effect is unknown"),
        "{answer}"
    );
    assert!(!message(&answer).contains("send it again"), "{answer}");
    drop(held);
    // The call the client was told about took effect after all: the answer
    // could not say it did not.
    until_put(&shelf).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_stdio_a_blocked_call_is_answered_when_the_grace_period_ends_as_of_unknown_outcome() {
    let shelf = Arc::new(Shelf::new());
    let held = client::hold(&shelf);
    let (server, stop) = stopping_on_demand(&shelf);
    let (client_side, server_side) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(server_side);
    let served = tokio::spawn(server.serve_io(read, write));
    let (read, mut write) = tokio::io::split(client_side);
    let mut read = BufReader::new(read);
    let mut meta = client::current_meta();
    meta["io.modelcontextprotocol/clientCapabilities"] = json!({});
    let call = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {
        "name": "items_create", "arguments": {"name": "lamp"}, "_meta": meta,
    }});
    write
        .write_all(format!("{call}\n").as_bytes())
        .await
        .unwrap();
    until_running().await;
    stop.send(()).unwrap();
    let stopping = Instant::now();
    // The late request is written once the server has seen the shutdown
    // begin: written at once, it may be read first and admitted.
    tokio::time::sleep(Duration::from_millis(100)).await;
    let late = json!({"jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": {
        "name": "items_list", "arguments": {}, "_meta": client::current_meta(),
    }});
    write
        .write_all(format!("{late}\n").as_bytes())
        .await
        .unwrap();
    let mut answers = Vec::new();
    while answers.len() < 2 {
        let mut line = String::new();
        tokio::time::timeout(Duration::from_secs(10), read.read_line(&mut line))
            .await
            .expect("both answered")
            .unwrap();
        answers.push(serde_json::from_str::<Value>(&line).unwrap());
    }
    assert!(
        stopping.elapsed() < GRACE + Duration::from_secs(2),
        "{:?}",
        stopping.elapsed()
    );
    let cut = answers.iter().find(|a| a["id"] == 7).unwrap();
    assert!(
        message(cut).contains("whether it took effect is unknown"),
        "{cut}"
    );
    let refused = answers.iter().find(|a| a["id"] == 8).unwrap();
    assert!(
        message(refused).contains("nothing of this one ran"),
        "{refused}"
    );
    drop(held);
    until_put(&shelf).await;
    tokio::time::timeout(Duration::from_secs(10), served)
        .await
        .expect("serving returns")
        .unwrap()
        .unwrap();
}
