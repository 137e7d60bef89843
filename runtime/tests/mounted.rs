//! The HTTP endpoint as a tower service an application mounts: it answers
//! at whatever path the application routes to it, refuses what the
//! server's own listener refuses, and shuts down when the application says.

use bytes::Bytes;
use http::{Request, StatusCode};
use http_body_util::{BodyExt, Full};
use serde_json::{Value, json};
use std::time::Duration;
use tooltable_fixture::{Shelf, TOOLS};
use tooltable_runtime::Registry;
use tooltable_runtime::serve::HttpService;
use tooltable_runtime::serve::McpServer;
use tooltable_runtime::serve::{ServeError, Server};
use tower_service::Service;

fn server() -> Server<McpServer<Shelf>> {
    Server::new(Registry::new(&TOOLS), Shelf::new())
}

fn listing(path: &str, host: &str) -> Request<Full<Bytes>> {
    let body = json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/list",
        "params": {"_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": {"name": "mounted", "version": "0"},
        }},
    });
    Request::post(path)
        .header("host", host)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/list")
        .body(Full::new(Bytes::from(body.to_string())))
        .unwrap()
}

async fn answer(
    service: &mut HttpService<McpServer<Shelf>>,
    request: Request<Full<Bytes>>,
) -> (StatusCode, Value) {
    let response = service.call(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

#[tokio::test]
async fn a_mounted_service_answers_at_the_path_the_application_routes_to_it() {
    let mut service = server().http_service().unwrap();
    // axum's `nest_service("/mcp", ..)` hands the service the rest of the path.
    for path in ["/", "/anything"] {
        let (status, answer) = answer(&mut service, listing(path, "127.0.0.1:8080")).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        assert!(
            answer["result"]["tools"]
                .as_array()
                .is_some_and(|t| !t.is_empty()),
            "{answer}"
        );
    }
}

#[tokio::test]
async fn a_host_it_was_not_given_is_refused_and_one_it_was_is_served() {
    let mut service = server().http_service().unwrap();
    let (status, _) = answer(&mut service, listing("/", "mcp.example.com")).await;
    assert_eq!(
        status,
        StatusCode::FORBIDDEN,
        "DNS rebinding: an unknown Host"
    );
    let mut service = server()
        .allowed_host("mcp.example.com")
        .http_service()
        .unwrap();
    let (status, answer) = answer(&mut service, listing("/", "mcp.example.com")).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
}

#[tokio::test]
async fn a_browsers_request_from_an_origin_nobody_allowed_is_refused() {
    let mut service = server().http_service().unwrap();
    let mut request = listing("/", "127.0.0.1:8080");
    request
        .headers_mut()
        .insert("origin", "http://127.0.0.1:8080".parse().unwrap());
    let (status, _) = answer(&mut service, request).await;
    assert_eq!(
        status,
        StatusCode::FORBIDDEN,
        "a mounted service knows no origin of its own"
    );
}

#[tokio::test]
async fn after_shutdown_a_request_is_answered_that_the_server_is_stopping_and_ran_nothing() {
    let mut service = server()
        .shutdown_grace(Duration::ZERO)
        .http_service()
        .unwrap();
    service.shutdown().await;
    let (status, answer) = answer(&mut service, listing("/", "127.0.0.1:8080")).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{answer}");
    let message = answer["error"]["message"].as_str().unwrap();
    assert!(
        message.starts_with("Server stopping") && message.contains("nothing of this one ran"),
        "{answer}"
    );
}

#[test]
fn settings_a_mounted_service_cannot_honour_are_refused_with_a_sentence() {
    let refused = |server: Server<McpServer<Shelf>>| match server.http_service() {
        Err(ServeError::Config(why)) => why,
        Err(other) => panic!("{other}"),
        Ok(_) => panic!("served without a setting it was given"),
    };
    let why = refused(server().shutdown_on(async {}));
    assert!(why.contains("HttpService::shutdown"), "{why}");
    let why = refused(server().max_connections(4));
    assert!(
        why.starts_with("`max_connections` limits the server's own listener"),
        "{why}"
    );
    let why = refused(server().header_read_timeout(Duration::from_secs(2)));
    assert!(
        why.contains("hyper's `http1::Builder::header_read_timeout`"),
        "{why}"
    );
    let why = refused(server().max_in_flight(4));
    assert!(
        why.starts_with("`max_in_flight` bounds the requests of one stdio session"),
        "{why}"
    );
    let Err(ServeError::Config(why)) = server().allowed_host("not a host/").http_service() else {
        panic!("a bad host is refused");
    };
    assert!(why.contains("is not a host name or `host:port`"), "{why}");
}

#[tokio::test]
async fn a_service_bound_beyond_loopback_without_tokens_is_refused_as_the_listener_refuses() {
    let service = server().http_service().unwrap();
    let exposed = "0.0.0.0:8080".parse().unwrap();
    assert!(matches!(
        service.check_address(exposed),
        Err(ServeError::Unauthenticated { .. })
    ));
    assert!(
        service
            .check_address("127.0.0.1:8080".parse().unwrap())
            .is_ok()
    );
    let insecure = server().insecure_no_auth(true).http_service().unwrap();
    assert!(insecure.check_address(exposed).is_ok());
}
