//! Limits, each an operator setting with a safe default and a clear
//! refusal: calls per caller (at once and per second), calls in all, the
//! size of a result, and, over HTTP, slow headers, connections and
//! sessions.

use crate::client;

use client::{Client, Session, connect, text};
use rmcp::model::{CallToolRequestParams, ClientRequest, Request};
use rmcp::service::{ClientLifecycleMode, PeerRequestOptions};
use serde_json::json;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tooltable_fixture::{Shelf, TOOLS};
use tooltable_runtime::Caller;
use tooltable_runtime::Registry;
use tooltable_runtime::Tier;
use tooltable_runtime::call::{Identity, Permissions};
use tooltable_runtime::serve::CallLimits;
use tooltable_runtime::serve::McpServer;
use tooltable_runtime::serve::{ServeError, Server};

fn server(shelf: Arc<Shelf>) -> Server<McpServer<Shelf>> {
    Server::new(Registry::new(&TOOLS), shelf)
}

/// One authenticated subject, the unit per-caller limits count in.
fn alice() -> Caller {
    Caller::from_identity(Identity {
        subject: Some("alice".into()),
        permissions: Permissions::All,
    })
}

/// A server whose every request comes from [`alice`].
fn alices(shelf: Arc<Shelf>) -> Server<McpServer<Shelf>> {
    server(shelf).fixed_caller(alice())
}

fn limits(per_caller: usize, per_second: u32, burst: u32) -> CallLimits {
    CallLimits {
        max_concurrent: 64,
        max_concurrent_per_caller: per_caller,
        per_second,
        burst,
    }
}

#[tokio::test]
async fn a_caller_starting_calls_too_fast_is_refused_with_when_to_retry() {
    let running = connect(
        alices(Arc::default()).call_limits(limits(16, 1, 2)),
        Client::default(),
        ClientLifecycleMode::Initialize,
    )
    .await;
    let mut results = Vec::new();
    for _ in 0..4 {
        let result = running
            .call_tool(CallToolRequestParams::new("items_list"))
            .await
            .unwrap();
        results.push((result.is_error == Some(true)).then(|| text(&result)));
    }
    // A burst of two, then refusals (a stalled machine may refill one).
    assert_eq!(results[..2], [None, None], "{results:?}");
    let refusals: Vec<&String> = results[2..].iter().flatten().collect();
    assert!(!refusals.is_empty(), "{results:?}");
    for refusal in refusals {
        assert!(
            refusal.starts_with("items_list was not started: this caller starts calls faster than this server allows (1 a second); try again in "),
            "{refusal}"
        );
    }
    running.cancel().await.unwrap();
}

#[tokio::test]
async fn a_caller_over_its_calls_in_progress_is_refused_until_one_finishes() {
    let shelf = Arc::new(Shelf::new());
    let running = connect(
        alices(shelf.clone()).call_limits(limits(1, 1000, 1000)),
        Client::default(),
        ClientLifecycleMode::Initialize,
    )
    .await;
    let peer = running.peer().clone();
    let waiting = peer
        .send_request_with_option(
            ClientRequest::CallToolRequest(Request::new(CallToolRequestParams::new("items_wait"))),
            PeerRequestOptions::no_options(),
        )
        .await
        .unwrap();
    // The first call holds its place until it is cancelled. Probed first
    // with a call that, as it does, goes through rmcp's service, which
    // takes requests in order: the place is then surely taken.
    let mut progress = CallToolRequestParams::new("items_progress");
    progress.arguments = json!({"steps": 0}).as_object().cloned();
    let mut refused = String::new();
    for _ in 0..100 {
        let result = running.call_tool(progress.clone()).await.unwrap();
        if result.is_error == Some(true) {
            refused = text(&result);
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(
        refused,
        "items_progress was not started: this caller is already running as many calls at once as this server allows one caller (1); try again when one has finished"
    );
    // A call the transport answers itself counts in the same places.
    let result = running
        .call_tool(CallToolRequestParams::new("items_list"))
        .await
        .unwrap();
    assert_eq!(
        text(&result),
        "items_list was not started: this caller is already running as many calls at once as this server allows one caller (1); try again when one has finished"
    );
    peer.notify_cancelled(rmcp::model::CancelledNotificationParam::new(
        Some(waiting.id.clone()),
        None,
    ))
    .await
    .unwrap();
    let mut freed = false;
    for _ in 0..200 {
        let result = running
            .call_tool(CallToolRequestParams::new("items_list"))
            .await
            .unwrap();
        if result.is_error != Some(true) {
            freed = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(freed, "a cancelled call gives its place back");
    running.cancel().await.unwrap();
}

#[tokio::test]
async fn a_result_over_the_size_limit_becomes_an_error_saying_so() {
    let shelf = Arc::new(Shelf::new());
    for n in 0..40 {
        shelf.put(&format!("a long name for item number {n}"));
    }
    let running = connect(
        server(shelf).max_result_bytes(1024),
        Client::default(),
        ClientLifecycleMode::Initialize,
    )
    .await;
    let result = running
        .call_tool(CallToolRequestParams::new("items_list"))
        .await
        .unwrap();
    assert_eq!(result.is_error, Some(true));
    let refusal = text(&result);
    assert!(
        refusal.starts_with("items_list's result was ")
            && refusal
                .contains("bytes, more than this server's limit of 1024 bytes, so it was not sent"),
        "{refusal}"
    );
    assert!(result.structured_content.is_none());
    running.cancel().await.unwrap();
}

#[tokio::test]
async fn a_change_whose_result_is_over_the_size_limit_says_the_change_stands() {
    let shelf = Arc::new(Shelf::new());
    let writer = Server::new(
        Registry::builder(&TOOLS).max_tier(Tier::Write).build(),
        shelf.clone(),
    )
    .fixed_caller(alice());
    let running = connect(
        writer.max_result_bytes(1024),
        Client::default(),
        ClientLifecycleMode::Initialize,
    )
    .await;
    let result = running
        .call_tool(
            CallToolRequestParams::new("items_create").with_arguments(
                json!({"name": "n".repeat(2000)})
                    .as_object()
                    .unwrap()
                    .clone(),
            ),
        )
        .await
        .unwrap();
    assert_eq!(result.is_error, Some(true));
    let refusal = text(&result);
    assert!(
        refusal.starts_with("items_create ran and its changes stand, but its result was ")
            && refusal.ends_with("more than this server's limit of 1024 bytes, so it was not sent; do not call it again to make the same change"),
        "{refusal}"
    );
    assert_eq!(shelf.count(), 1, "the item was made, once");
    running.cancel().await.unwrap();
}

#[tokio::test]
async fn settings_out_of_range_are_refused_before_serving() {
    let zero = CallLimits {
        max_concurrent_per_caller: 0,
        ..CallLimits::default()
    };
    for (server, expected) in [
        (
            server(Arc::default()).call_limits(zero),
            "the limit of calls in progress per caller must be at least 1; got 0",
        ),
        (
            server(Arc::default()).max_result_bytes(10),
            "the result size limit must be at least 1024 bytes; got 10",
        ),
        (
            server(Arc::default()).max_connections(0),
            "the connection limit must be at least 1; got 0",
        ),
        (
            server(Arc::default()).call_timeout(Duration::ZERO),
            "the call time limit must be more than zero",
        ),
        (
            server(Arc::default()).ask_timeout(Duration::ZERO),
            "the time limit on a client's answer must be more than zero",
        ),
        (
            server(Arc::default()).page_size(0),
            "the page size must be between 1 and 10000 tools; got 0",
        ),
        (
            server(Arc::default()).implementation(" ", "1.0.0"),
            "the server's name must not be empty",
        ),
    ] {
        let (_, sink) = tokio::io::duplex(64);
        let (read, write) = tokio::io::split(sink);
        match server.handle_signals(false).serve_io(read, write).await {
            Err(ServeError::Config(sentence)) => assert_eq!(sentence, expected),
            other => panic!("expected a refused setting, got {other:?}"),
        }
    }
}

/// An HTTP server of the fixture's read tools, configured by `configure`.
async fn http(
    configure: impl FnOnce(Server<McpServer<Shelf>>) -> Server<McpServer<Shelf>>,
) -> (std::net::SocketAddr, tokio::sync::oneshot::Sender<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = configure(server(Arc::default()).handle_signals(false)).shutdown_on(async move {
        let _ = stopped.await;
    });
    tokio::spawn(server.http_on(listener));
    (address, stop)
}

/// Reads until the peer closes the connection or `limit` passes; what was read.
async fn read_until_closed(stream: &mut tokio::net::TcpStream, limit: Duration) -> Option<String> {
    let mut read = Vec::new();
    tokio::time::timeout(limit, stream.read_to_end(&mut read))
        .await
        .ok()?
        .ok()?;
    Some(String::from_utf8_lossy(&read).into_owned())
}

#[tokio::test]
async fn a_connection_that_sends_its_headers_too_slowly_is_closed() {
    let (address, _stop) = http(|s| s.header_read_timeout(Duration::from_millis(200))).await;
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    stream
        .write_all(b"POST /mcp HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();
    let closed = read_until_closed(&mut stream, Duration::from_secs(10)).await;
    assert!(closed.is_some(), "the server closed the slow connection");
}

#[tokio::test]
async fn at_the_connection_limit_an_idle_connection_gives_its_place_to_a_new_one() {
    let (address, _stop) = http(|s| s.max_connections(1)).await;
    let mut idle = tokio::net::TcpStream::connect(address).await.unwrap();
    // Give the server a moment to accept the first connection.
    tokio::time::sleep(Duration::from_millis(100)).await;
    let answer = client::exchange(address, "POST", "/mcp", &[], "").await;
    assert_ne!(
        answer.status, 503,
        "the new connection was served: {}",
        answer.body
    );
    let closed = read_until_closed(&mut idle, Duration::from_secs(5)).await;
    assert_eq!(
        closed.as_deref(),
        Some(""),
        "the idle one was closed without a word"
    );
}

#[tokio::test]
async fn a_connection_over_the_limit_while_every_connection_serves_a_request_is_answered_503() {
    let (address, _stop) = http(|s| s.max_connections(1)).await;
    let mut busy = tokio::net::TcpStream::connect(address).await.unwrap();
    busy.write_all(client::stateless_call_request(address, 1, "items_wait", json!({})).as_bytes())
        .await
        .unwrap();
    // Give the server a moment to start the call.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut over = tokio::net::TcpStream::connect(address).await.unwrap();
    let answer = read_until_closed(&mut over, Duration::from_secs(10))
        .await
        .expect("an answer, then the connection closed");
    assert!(
        answer.starts_with("HTTP/1.1 503 Service Unavailable"),
        "{answer}"
    );
    assert!(answer.contains("too_many_connections"), "{answer}");
}

#[tokio::test]
async fn an_initialize_over_the_session_limit_is_503_with_a_json_rpc_error() {
    let (address, _stop) = http(|s| s.max_sessions(1)).await;
    let initialize = |id: u64| {
        json!({"jsonrpc": "2.0", "id": id, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}
        }})
        .to_string()
    };
    let post = async |body: String| {
        let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
        let request = format!(
            "POST /mcp HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        stream.write_all(request.as_bytes()).await.unwrap();
        read_until_closed(&mut stream, Duration::from_secs(10))
            .await
            .unwrap()
    };
    let first = post(initialize(1)).await;
    assert!(first.starts_with("HTTP/1.1 200"), "{first}");
    let second = post(initialize(2)).await;
    assert!(second.starts_with("HTTP/1.1 503"), "{second}");
    let body: serde_json::Value =
        serde_json::from_str(second.split_once("\r\n\r\n").unwrap().1).unwrap();
    assert_eq!(body["id"], 2);
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("holds its limit of 1 sessions"),
        "{body}"
    );
}

/// Reads an HTTP answer until the connection closes; its status and body.
async fn answer_of(stream: &mut tokio::net::TcpStream) -> (u16, String) {
    let answer = read_until_closed(stream, Duration::from_secs(10))
        .await
        .expect("an answer, then the connection closed");
    let status = answer[9..12].parse().unwrap();
    let body = answer.split_once("\r\n\r\n").unwrap().1.to_owned();
    (status, body)
}

#[tokio::test]
async fn over_http_a_call_still_running_when_the_grace_period_ends_is_answered_with_its_id() {
    let (address, stop) = http(|s| s.shutdown_grace(Duration::from_millis(200))).await;
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    stream
        .write_all(client::stateless_call_request(address, 41, "items_wait", json!({})).as_bytes())
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    stop.send(()).unwrap();
    let (status, body) = answer_of(&mut stream).await;
    assert_eq!(status, 503, "{body}");
    let answer: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        (&answer["id"], &answer["error"]["code"]),
        (&json!(41), &json!(-32603)),
        "{answer}"
    );
    assert!(
        answer["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("Server stopped"),
        "{answer}"
    );
}

#[tokio::test]
async fn over_http_a_stream_cut_off_by_the_end_of_the_grace_period_ends_with_the_error_it_is_owed()
{
    use tooltable_runtime::Call;
    use tooltable_runtime::provider::{Arguments, BoxFuture, Outcome, Output};
    use tooltable_runtime::provider::{ProvidedTool, Provider};
    struct Stall;
    impl Provider<Shelf> for Stall {
        fn name(&self) -> &str {
            "stall"
        }
        fn tools(&self) -> Vec<ProvidedTool<Shelf>> {
            let handler = tooltable_runtime::provider::handler(
                |_: &Shelf, _: Arguments, call: &Call| -> BoxFuture<'_, Outcome> {
                    Box::pin(async move {
                        call.progress(1.0, None, Some("started")).await;
                        std::future::pending::<()>().await;
                        Ok(Output::Text(String::new()))
                    })
                },
            );
            vec![ProvidedTool::new(
                "items_stall",
                Tier::Read,
                "Report progress, then never finish.",
                handler,
            )]
        }
    }
    let registry = Registry::new(&TOOLS);
    registry.register(&Stall).unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = Server::new(registry, Arc::new(Shelf::new()))
        .handle_signals(false)
        .shutdown_grace(Duration::from_millis(300))
        .shutdown_on(async move {
            let _ = stopped.await;
        });
    tokio::spawn(server.http_on(listener));
    let body = json!({"jsonrpc": "2.0", "id": 42, "method": "tools/call", "params": {
        "name": "items_stall", "arguments": {},
        "_meta": {
            "progressToken": "p",
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "0"},
        },
    }})
    .to_string();
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: items_stall\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    stop.send(()).unwrap();
    let (status, body) = answer_of(&mut stream).await;
    assert_eq!(status, 200, "{body}");
    let last = body
        .lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .filter_map(|data| serde_json::from_str::<serde_json::Value>(data.trim()).ok())
        .next_back()
        .unwrap_or_else(|| panic!("events in {body:?}"));
    assert_eq!(
        (&last["id"], &last["error"]["code"]),
        (&json!(42), &json!(-32603)),
        "{body}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_call_whose_handler_cannot_stop_keeps_its_place_until_it_returns() {
    let shelf = Arc::new(Shelf::new());
    let held = client::hold(&shelf);
    let server = Server::new(client::everything(), shelf.clone())
        .handle_signals(false)
        .call_limits(CallLimits {
            max_concurrent: 2,
            ..CallLimits::default()
        });
    let mut session = Session::open(server, None).await;
    // Each call waits on the held shelf in a synchronous handler, which no
    // cancellation stops; each is cancelled at once.
    for id in 1..=6 {
        let call = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
            "name": "items_create", "arguments": {"name": "lamp"}, "_meta": client::current_meta(),
        }});
        session.send(&call).await;
        // Cancelled once its handler runs.
        tokio::time::sleep(Duration::from_millis(100)).await;
        session.send(&cancelled(id)).await;
    }
    // Two handlers still run, holding the two places: a third call is
    // refused, answered at once.
    session.next_id = 7;
    let (_, answer) = session
        .ask(
            "tools/call",
            json!({"name": "items_create", "arguments": {"name": "desk"}, "_meta": client::current_meta()}),
        )
        .await;
    assert!(
        text_of(&answer).contains("running its limit of 2 calls"),
        "{answer}"
    );
    drop(held);
    for _ in 0..500 {
        if shelf.count() == 2 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!(
        "the two handlers that held places put {} items",
        shelf.count()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_cancelled_on_rmcps_path_stops_and_gives_its_place_back() {
    // Calls go through rmcp's service, which keeps polling a request it
    // was told was cancelled; the adapter stops the handler itself.
    let server = Server::new(client::everything(), Arc::new(Shelf::new()))
        .shortcut_calls(false)
        .handle_signals(false)
        .call_limits(CallLimits {
            max_concurrent: 1,
            ..CallLimits::default()
        });
    let mut session = Session::open(server, None).await;
    let pause = |ms: u64| json!({"name": "items_pause", "arguments": {"ms": ms}, "_meta": client::current_meta()});
    session
        .send(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": pause(10_000)}))
        .await;
    // The pause is running before it is cancelled.
    tokio::time::sleep(Duration::from_millis(100)).await;
    session.send(&cancelled(1)).await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    // The one place is free again: the next call runs, long before the
    // cancelled pause would have ended.
    session.next_id = 2;
    let (_, answer) = session.ask("tools/call", pause(1)).await;
    assert_eq!(text_of(&answer), "paused 1 ms", "{answer}");
}

/// `notifications/cancelled` for the request `id`.
fn cancelled(id: i64) -> serde_json::Value {
    json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": id}})
}

fn text_of(answer: &serde_json::Value) -> &str {
    answer["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
}
