//! The library's transports: every bad input gets the error the MCP
//! specification names, and a valid request after it is still served.

use crate::client;

use serde_json::{Value, json};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tooltable_fixture::{Shelf, TOOLS};
use tooltable_runtime::Registry;
use tooltable_runtime::serve::McpServer;
use tooltable_runtime::serve::{ServeError, Server};

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#;
const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

fn server() -> Server<McpServer<Shelf>> {
    Server::new(Registry::new(&TOOLS), Shelf::new())
        .handle_signals(false)
        .max_request_bytes(64 * 1024)
        .max_depth(16)
}

/// A client of a server on an in-process pipe: one JSON-RPC line out, one in.
struct Pipe {
    write: tokio::io::WriteHalf<tokio::io::DuplexStream>,
    read: BufReader<tokio::io::ReadHalf<tokio::io::DuplexStream>>,
    served: tokio::task::JoinHandle<Result<(), ServeError>>,
}

impl Pipe {
    fn start(server: Server<McpServer<Shelf>>) -> Pipe {
        let (client, server_side) = tokio::io::duplex(1 << 20);
        let (server_read, server_write) = tokio::io::split(server_side);
        let served = tokio::spawn(server.serve_io(server_read, server_write));
        let (read, write) = tokio::io::split(client);
        Pipe {
            write,
            read: BufReader::new(read),
            served,
        }
    }

    async fn send(&mut self, line: &str) {
        self.write.write_all(line.as_bytes()).await.unwrap();
        self.write.write_all(b"\n").await.unwrap();
    }

    async fn receive(&mut self) -> Value {
        let mut line = String::new();
        tokio::time::timeout(Duration::from_secs(10), self.read.read_line(&mut line))
            .await
            .expect("an answer within 10 s")
            .unwrap();
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"))
    }

    async fn ask(&mut self, line: &str) -> Value {
        self.send(line).await;
        self.receive().await
    }

    async fn open(&mut self) {
        let answer = self.ask(INITIALIZE).await;
        assert_eq!(answer["id"], 1, "{answer}");
        self.send(INITIALIZED).await;
    }
}

fn code(answer: &Value) -> i64 {
    answer["error"]["code"]
        .as_i64()
        .unwrap_or_else(|| panic!("an error: {answer}"))
}

#[tokio::test]
async fn every_bad_line_is_answered_and_a_valid_request_after_them_is_served() {
    let mut pipe = Pipe::start(server());
    pipe.open().await;

    let answer = pipe.ask("{this is not json").await;
    assert_eq!((code(&answer), &answer["id"]), (-32700, &Value::Null));

    let answer = pipe.ask(r#"{"jsonrpc":"2.0","id":5}"#).await;
    assert_eq!((code(&answer), &answer["id"]), (-32600, &json!(5)));

    let answer = pipe
        .ask(r#"[{"jsonrpc":"2.0","id":6,"method":"ping"}]"#)
        .await;
    assert_eq!(code(&answer), -32600);

    let huge = format!(
        r#"{{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{{"name":"items_get","arguments":{{"pad":"{}"}}}}}}"#,
        "x".repeat(70 * 1024)
    );
    let answer = pipe.ask(&huge).await;
    assert_eq!(code(&answer), -32600);
    assert!(
        answer["error"]["message"]
            .as_str()
            .unwrap()
            .contains("65536 bytes")
    );

    let deep = format!(
        r#"{{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{{"name":"items_get","arguments":{{"id":{}1{}}}}}}}"#,
        "[".repeat(40),
        "]".repeat(40)
    );
    let answer = pipe.ask(&deep).await;
    assert_eq!((code(&answer), &answer["id"]), (-32600, &json!(8)));
    assert!(
        answer["error"]["message"]
            .as_str()
            .unwrap()
            .contains("16 levels")
    );

    let answer = pipe
        .ask(r#"{"jsonrpc":"2.0","id":9,"method":"tools/frobnicate","params":{}}"#)
        .await;
    assert_eq!((code(&answer), &answer["id"]), (-32601, &json!(9)));

    let answer = pipe
        .ask(r#"{"jsonrpc":"2.0","id":10,"method":"tools/list","params":{"cursor":"nonsense"}}"#)
        .await;
    assert_eq!((code(&answer), &answer["id"]), (-32602, &json!(10)));

    let answer = pipe
        .ask(r#"{"jsonrpc":"2.0","id":11,"method":"tools/list","params":{}}"#)
        .await;
    let names: Vec<&str> = answer["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "items_fault",
            "items_get",
            "items_greet",
            "items_label",
            "items_link_account",
            "items_list",
            "items_pause",
            "items_progress",
            "items_put_and_name",
            "items_survey",
            "items_wait"
        ],
        "read tools only, by default"
    );
}

#[tokio::test]
async fn a_notification_before_the_first_request_does_not_end_the_session() {
    let mut pipe = Pipe::start(server());
    pipe.send(INITIALIZED).await;
    pipe.send(r#"{"jsonrpc":"2.0","id":"x","result":{}}"#).await;
    pipe.open().await;
    let answer = pipe
        .ask(r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#)
        .await;
    assert_eq!(answer["result"], json!({}));
}

/// Messages with a readable id that are no JSON-RPC message rmcp reads: a
/// request that is also a response, a response with both members, one
/// whose id cannot name a request, an error rmcp cannot read.
const NEITHER: [&str; 8] = [
    r#"{"jsonrpc":"2.0","id":ID,"method":"ping","result":{}}"#,
    r#"{"jsonrpc":"2.0","id":ID,"method":"ping","error":{"code":1,"message":"m"}}"#,
    r#"{"jsonrpc":"2.0","id":ID,"method":"tools/list","params":{},"r\u0065sult":{}}"#,
    r#"{"jsonrpc":"2.0","id":ID,"method":"tools/call","params":{"name":"items_list","arguments":{}},"error":null}"#,
    r#"{"jsonrpc":"2.0","id":ID,"result":{},"error":{"code":1,"message":"m"}}"#,
    r#"{"jsonrpc":"2.0","id":ID,"error":{"code":"x","message":"m"}}"#,
    r#"{"jsonrpc":"2.0","id":ID,"error":{"code":1}}"#,
    r#"{"jsonrpc":"2.0","id":ID,"error":{"code":4294967296,"message":"m"}}"#,
];

#[tokio::test]
async fn a_message_that_is_a_request_and_a_response_at_once_is_refused_and_holds_no_place_in_flight()
 {
    let mut pipe = Pipe::start(server().max_in_flight(4));
    pipe.open().await;
    for round in 0..2 {
        for (n, shape) in NEITHER.iter().enumerate() {
            let id = 100 * round + n as i64 + 10;
            let answer = pipe.ask(&shape.replace("ID", &id.to_string())).await;
            assert_eq!(
                (code(&answer), &answer["id"]),
                (-32600, &json!(id)),
                "{shape}: {answer}"
            );
            assert!(
                answer["error"]["message"]
                    .as_str()
                    .unwrap()
                    .contains("not a JSON-RPC 2.0 message"),
                "{answer}"
            );
        }
    }
    // Sixteen refused with four places in flight: none took one.
    let answer = pipe
        .ask(r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#)
        .await;
    assert_eq!(answer, json!({"jsonrpc": "2.0", "id": 2, "result": {}}));
}

#[tokio::test]
async fn a_request_whose_meta_is_not_an_object_is_refused_and_holds_no_place_in_flight() {
    let mut pipe = Pipe::start(server().max_in_flight(2));
    pipe.open().await;
    for (id, meta) in [(10, "5"), (11, r#""x""#), (12, "[]"), (13, "true")] {
        let answer = pipe
            .ask(&format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"ping","params":{{"_meta":{meta}}}}}"#
            ))
            .await;
        assert_eq!(
            (code(&answer), &answer["id"]),
            (-32600, &json!(id)),
            "{answer}"
        );
    }
    let answer = pipe
        .ask(r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#)
        .await;
    assert_eq!(answer["result"], json!({}), "{answer}");
}

/// The next answer to the request `id`, skipping the others.
async fn answer_to(pipe: &mut Pipe, id: &Value) -> Value {
    loop {
        let answer = pipe.receive().await;
        if &answer["id"] == id {
            return answer;
        }
    }
}

#[tokio::test]
async fn only_a_cancellation_rmcp_acts_on_frees_the_id_of_the_request_it_names() {
    let mut pipe = Pipe::start(server());
    pipe.open().await;
    pipe.send(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"items_wait","arguments":{}}}"#)
        .await;
    // A request named like a cancellation, and cancellations rmcp does not
    // read as such: request 1 goes on, and its id stays its own.
    for not_one in [
        r#"{"jsonrpc":"2.0","id":"c","method":"notifications/cancelled","params":{"requestId":1}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":5}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"_meta":5}}"#,
    ] {
        pipe.send(not_one).await;
    }
    pipe.send(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#)
        .await;
    let refused = answer_to(&mut pipe, &json!(1)).await;
    assert_eq!(code(&refused), -32600, "{refused}");
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("still in progress"),
        "{refused}"
    );
    // A cancellation rmcp reads, its id written as rmcp reads ids: request
    // 1 is cancelled, and its id, which its handler could still answer
    // under, is not taken again.
    pipe.send(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1.0,"reason":"done"}}"#)
        .await;
    pipe.send(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#)
        .await;
    let refused = answer_to(&mut pipe, &json!(1)).await;
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("was cancelled"),
        "{refused}"
    );
    pipe.send(r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#)
        .await;
    let answer = answer_to(&mut pipe, &json!(2)).await;
    assert_eq!(answer, json!({"jsonrpc": "2.0", "id": 2, "result": {}}));
}

#[tokio::test]
async fn the_end_of_the_input_ends_serving_after_every_answer_is_written() {
    let mut pipe = Pipe::start(server());
    pipe.open().await;
    pipe.send(r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"items_list","arguments":{}}}"#)
        .await;
    pipe.send("not json").await;
    pipe.write.shutdown().await.unwrap();
    let mut rest = String::new();
    tokio::time::timeout(Duration::from_secs(10), pipe.read.read_to_string(&mut rest))
        .await
        .expect("the output ends")
        .unwrap();
    let answers: Vec<Value> = rest
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), 2, "{rest}");
    assert!(
        answers
            .iter()
            .any(|a| a["id"] == 2 && a["result"]["isError"] == false)
    );
    assert!(answers.iter().any(|a| a["error"]["code"] == -32700));
    let served = tokio::time::timeout(Duration::from_secs(10), pipe.served)
        .await
        .expect("serving returns")
        .unwrap();
    assert!(served.is_ok(), "{served:?}");
}

#[tokio::test]
async fn settings_out_of_range_are_refused_naming_the_setting_before_serving() {
    let (a, _b) = tokio::io::duplex(64);
    let (read, write) = tokio::io::split(a);
    let error = server()
        .page_size(usize::MAX)
        .serve_io(read, write)
        .await
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        format!(
            "the page size must be between 1 and 10000 tools; got {}",
            usize::MAX
        )
    );
    for (server, text) in [
        (
            server().page_size(0),
            "the page size must be between 1 and 10000 tools; got 0",
        ),
        (
            server().max_request_bytes(10),
            "the request size limit must be at least 1024 bytes; got 10",
        ),
        (
            server().max_depth(0),
            "the nesting limit must be between 1 and 128 levels; got 0",
        ),
    ] {
        let (a, _b) = tokio::io::duplex(64);
        let (read, write) = tokio::io::split(a);
        assert_eq!(
            server.serve_io(read, write).await.unwrap_err().to_string(),
            text
        );
    }
}

#[tokio::test]
async fn a_setting_of_http_given_to_a_stdio_server_is_refused_naming_it() {
    for (server, setter) in [
        (server().max_connections(8), "max_connections"),
        (server().max_sessions(8), "max_sessions"),
        (
            server().allowed_origin("https://app.example.com"),
            "allowed_origin",
        ),
        (server().insecure_no_auth(true), "insecure_no_auth"),
    ] {
        let (_client, server_side) = tokio::io::duplex(64);
        let (read, write) = tokio::io::split(server_side);
        let Err(ServeError::Config(why)) = server.serve_io(read, write).await else {
            panic!("{setter} served on stdio");
        };
        assert!(
            why.starts_with(&format!(
                "`{setter}` is a setting of HTTP, and this server serves stdio"
            )),
            "{why}"
        );
    }
    let (_client, server_side) = tokio::io::duplex(64);
    let (read, write) = tokio::io::split(server_side);
    let quiet = server().insecure_no_auth(false);
    let serving = tokio::spawn(quiet.serve_io(read, write));
    drop(_client);
    let served = tokio::time::timeout(Duration::from_secs(10), serving)
        .await
        .unwrap()
        .unwrap();
    assert!(
        served.is_ok(),
        "turning an HTTP setting off is no setting: {served:?}"
    );
}

#[tokio::test]
async fn pages_walk_the_whole_list_and_the_last_has_no_cursor() {
    let registry = Registry::builder(&TOOLS)
        .max_tier(tooltable_runtime::Tier::Destructive)
        .build();
    let mut pipe = Pipe::start(
        Server::new(registry, Shelf::new())
            .handle_signals(false)
            .page_size(5),
    );
    pipe.open().await;
    let first = pipe
        .ask(r#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}"#)
        .await;
    assert_eq!(first["result"]["tools"].as_array().unwrap().len(), 5);
    let cursor = first["result"]["nextCursor"].as_str().unwrap().to_owned();
    let second = pipe
        .ask(&format!(
            r#"{{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{{"cursor":"{cursor}"}}}}"#
        ))
        .await;
    assert_eq!(second["result"]["tools"].as_array().unwrap().len(), 5);
    let cursor = second["result"]["nextCursor"].as_str().unwrap().to_owned();
    let third = pipe
        .ask(&format!(
            r#"{{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{{"cursor":"{cursor}"}}}}"#
        ))
        .await;
    assert_eq!(third["result"]["tools"].as_array().unwrap().len(), 4);
    assert!(
        third["result"].get("nextCursor").is_none(),
        "14 tools in pages of 5"
    );
}

/// A POST of `body` to `/mcp`; the status and the body.
async fn post(
    address: std::net::SocketAddr,
    body: &str,
    headers: &[(&str, &str)],
) -> (u16, String) {
    let mut all = vec![
        ("Content-Type", "application/json"),
        ("Accept", "application/json, text/event-stream"),
    ];
    all.extend_from_slice(headers);
    let answer = client::exchange(address, "POST", "/mcp", &all, body).await;
    (answer.status, answer.body)
}

async fn http_server() -> (std::net::SocketAddr, tokio_util_token::Token) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = server().shutdown_on(async move {
        let _ = stopped.await;
    });
    tokio::spawn(server.http_on(listener));
    (address, tokio_util_token::Token(Some(stop)))
}

/// Stops the HTTP server when the test ends.
mod tokio_util_token {
    pub struct Token(pub Option<tokio::sync::oneshot::Sender<()>>);
    impl Drop for Token {
        fn drop(&mut self) {
            if let Some(stop) = self.0.take() {
                let _ = stop.send(());
            }
        }
    }
}

#[tokio::test]
async fn over_http_every_bad_body_is_a_json_rpc_error_with_the_status_the_spec_names() {
    let (address, _stop) = http_server().await;

    let (status, body) = post(address, "{nope", &[]).await;
    let answer: Value = serde_json::from_str(&body).unwrap();
    assert_eq!((status, code(&answer)), (400, -32700));

    let (status, body) = post(address, r#"{"jsonrpc":"2.0","id":"q","params":{}}"#, &[]).await;
    let answer: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        (status, code(&answer), &answer["id"]),
        (400, -32600, &json!("q"))
    );

    let huge = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"ping","params":{{"p":"{}"}}}}"#,
        "x".repeat(70 * 1024)
    );
    let (status, body) = post(address, &huge, &[]).await;
    let answer: Value = serde_json::from_str(&body).unwrap();
    assert_eq!((status, code(&answer)), (413, -32600));

    let deep = format!(
        r#"{{"jsonrpc":"2.0","id":4,"method":"ping","params":{{"p":{}{}}}}}"#,
        "[".repeat(40),
        "]".repeat(40)
    );
    let (status, body) = post(address, &deep, &[]).await;
    let answer: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        (status, code(&answer), &answer["id"]),
        (400, -32600, &json!(4))
    );

    let (status, body) = post(address, INITIALIZE, &[]).await;
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"serverInfo\""), "{body}");
}

/// A stateless 2026-07-28 `tools/call` of `tool` with `arguments`, carrying
/// a progress token.
async fn stateless_call(
    address: std::net::SocketAddr,
    tool: &str,
    arguments: Value,
) -> client::Answer {
    let body = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
        "name": tool,
        "arguments": arguments,
        "_meta": {
            "progressToken": "p",
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "0"},
        },
    }});
    let headers = [
        ("Content-Type", "application/json"),
        ("Accept", "application/json, text/event-stream"),
        ("MCP-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", "tools/call"),
        ("Mcp-Name", tool),
    ];
    client::exchange(address, "POST", "/mcp", &headers, &body.to_string()).await
}

#[tokio::test]
async fn over_http_a_reply_of_one_message_is_json_and_one_with_progress_before_it_is_a_stream() {
    let (address, _stop) = http_server().await;

    let single = stateless_call(address, "items_list", json!({})).await;
    assert_eq!(
        (single.status, single.header("content-type")),
        (200, Some("application/json")),
        "{}",
        single.body
    );
    let answer: Value = serde_json::from_str(&single.body).unwrap();
    assert_eq!(answer["id"], json!(3));
    assert_eq!(answer["result"]["isError"], json!(false), "{answer}");

    let streamed = stateless_call(address, "items_progress", json!({"steps": 3})).await;
    assert_eq!(
        (streamed.status, streamed.header("content-type")),
        (200, Some("text/event-stream")),
        "{}",
        streamed.body
    );
    let messages: Vec<Value> = streamed
        .body
        .lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .filter(|data| !data.trim().is_empty())
        .map(|data| serde_json::from_str(data.trim()).unwrap())
        .collect();
    assert!(
        messages.len() >= 2,
        "progress, then the result: {}",
        streamed.body
    );
    assert_eq!(messages[0]["method"], json!("notifications/progress"));
    let last = messages.last().unwrap();
    assert_eq!(
        (&last["id"], &last["result"]["isError"]),
        (&json!(3), &json!(false)),
        "{last}"
    );
}
