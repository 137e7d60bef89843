//! Handlers that talk back through their per-call handle, driven by rmcp's
//! own client in both protocol eras: progress, logs, cancellation, and
//! questions (asked over the session on the `initialize` era, as
//! input-required rounds on 2026-07-28, which rmcp's client drives).

use crate::client;

use client::{Client, Raw, capable, connect, lifecycles, server, text};
use rmcp::model::{CallToolRequestParams, CancelledNotificationParam, ClientRequest, Request};
use rmcp::service::{ClientLifecycleMode, PeerRequestOptions};
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;
use tooltable_fixture::{Shelf, TOOLS};
use tooltable_runtime::Registry;
use tooltable_runtime::serve::Server;

#[tokio::test]
async fn a_question_is_answered_in_both_eras_with_the_same_handler() {
    for (era, lifecycle) in lifecycles() {
        let client = Client {
            capable: true,
            ..Client::default()
        };
        let running = connect(server(Arc::default()), client.clone(), lifecycle).await;
        let result = running
            .call_tool(CallToolRequestParams::new("items_greet"))
            .await
            .unwrap_or_else(|e| panic!("{era}: {e}"));
        assert_eq!(text(&result), "Hello, Alice!", "{era}");
        assert_eq!(client.questions.lock().unwrap().len(), 1, "{era}");
        running.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn questions_asked_together_travel_in_one_round() {
    for (era, lifecycle) in lifecycles() {
        let client = Client {
            capable: true,
            ..Client::default()
        };
        let running = connect(server(Arc::default()), client, lifecycle).await;
        let result = running
            .call_tool(CallToolRequestParams::new("items_survey"))
            .await
            .unwrap_or_else(|e| panic!("{era}: {e}"));
        assert_eq!(
            result.structured_content,
            Some(json!({"name": "Alice", "greeting": "Hello there!", "roots": 1})),
            "{era}"
        );
        running.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn a_step_before_a_question_runs_once_though_the_handler_runs_again() {
    for (era, lifecycle) in lifecycles() {
        let shelf = Arc::new(Shelf::new());
        let client = Client {
            capable: true,
            ..Client::default()
        };
        let running = connect(server(shelf.clone()), client, lifecycle).await;
        let result = running
            .call_tool(CallToolRequestParams::new("items_put_and_name"))
            .await
            .unwrap_or_else(|e| panic!("{era}: {e}"));
        assert_eq!(text(&result), "item 1 is lamp", "{era}");
        assert_eq!(shelf.count(), 1, "{era}: the put ran once");
        running.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn a_client_that_cannot_be_asked_is_refused_in_the_terms_of_its_era() {
    let legacy = connect(
        server(Arc::default()),
        Client::default(),
        ClientLifecycleMode::Initialize,
    )
    .await;
    let result = legacy
        .call_tool(CallToolRequestParams::new("items_greet"))
        .await
        .unwrap();
    assert_eq!(result.is_error, Some(true));
    assert_eq!(
        text(&result),
        "the client did not declare the elicitation capability, so it cannot be asked"
    );
    legacy.cancel().await.unwrap();

    let (_, current) = lifecycles().into_iter().nth(1).unwrap();
    let current = connect(server(Arc::default()), Client::default(), current).await;
    let error = current
        .call_tool(CallToolRequestParams::new("items_greet"))
        .await
        .expect_err("a protocol error on 2026-07-28");
    let message = error.to_string();
    assert!(
        message.contains("-32021") || message.contains("Missing required client capability"),
        "{message}"
    );
    current.cancel().await.unwrap();
}

#[tokio::test]
async fn a_page_to_open_is_asked_in_both_eras_of_a_client_with_url_mode() {
    for (era, lifecycle) in lifecycles() {
        let client = Client {
            capable: true,
            url: true,
            ..Client::default()
        };
        let running = connect(server(Arc::default()), client.clone(), lifecycle).await;
        let result = running
            .call_tool(CallToolRequestParams::new("items_link_account"))
            .await
            .unwrap_or_else(|e| panic!("{era}: {e}"));
        assert_eq!(text(&result), "the person agreed to open the page", "{era}");
        // The initialize era names the elicitation; 2026-07-28 has no such
        // field and ties the answer to the question by its requestState.
        let id = if era == "legacy" {
            "connect-storage"
        } else {
            ""
        };
        assert_eq!(
            *client.questions.lock().unwrap(),
            [format!(
                "Connect your storage account to keep items there. <https://storage.example.test/connect> [{id}]"
            )],
            "{era}"
        );
        running.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn a_page_to_open_is_refused_to_a_client_with_forms_only_in_the_terms_of_its_era() {
    let forms_only = || Client {
        capable: true,
        ..Client::default()
    };
    let legacy = connect(
        server(Arc::default()),
        forms_only(),
        ClientLifecycleMode::Initialize,
    )
    .await;
    let result = legacy
        .call_tool(CallToolRequestParams::new("items_link_account"))
        .await
        .unwrap();
    assert_eq!(result.is_error, Some(true));
    assert_eq!(
        text(&result),
        "the client did not declare URL-mode elicitation, so it cannot be asked to open a page"
    );
    legacy.cancel().await.unwrap();

    let mut raw = Raw::start(Arc::default());
    let refused = raw
        .call("items_link_account", json!({}), json!({"elicitation": {}}))
        .await;
    assert_eq!(refused["error"]["code"], -32021, "{refused}");
    assert_eq!(
        refused["error"]["data"]["requiredCapabilities"],
        json!({"elicitation": {"url": {}}}),
        "{refused}"
    );
}

#[tokio::test]
async fn a_page_to_open_travels_in_a_round_without_an_elicitation_id() {
    let mut raw = Raw::start(Arc::default());
    let url_mode = json!({"elicitation": {"form": {}, "url": {}}});
    let first = raw
        .call("items_link_account", json!({}), url_mode.clone())
        .await;
    assert_eq!(first["result"]["resultType"], "input_required", "{first}");
    let mut request = first["result"]["inputRequests"]["connect"].clone();
    // rmcp's type for the question keeps the initialize era's field and
    // writes it empty when absent; tooltable gives it no value.
    let id = request["params"]
        .as_object_mut()
        .unwrap()
        .remove("elicitationId");
    assert!(
        matches!(id.as_ref().and_then(Value::as_str), None | Some("")),
        "{id:?}"
    );
    assert_eq!(
        request,
        json!({"method": "elicitation/create", "params": {
            "mode": "url",
            "message": "Connect your storage account to keep items there.",
            "url": "https://storage.example.test/connect",
        }})
    );
    let done = raw
        .call(
            "items_link_account",
            json!({"requestState": first["result"]["requestState"], "inputResponses": {"connect": {"action": "decline"}}}),
            url_mode,
        )
        .await;
    assert_eq!(
        done["result"]["content"][0]["text"], "the person declined to open the page",
        "{done}"
    );
}

#[tokio::test]
async fn progress_reaches_the_client_throttled_with_the_first_and_the_last() {
    for (era, lifecycle) in lifecycles() {
        let client = Client::default();
        let running = connect(server(Arc::default()), client.clone(), lifecycle).await;
        let mut call = CallToolRequestParams::new("items_progress");
        call.arguments = Some(json!({"steps": 200}).as_object().cloned().unwrap());
        running
            .call_tool(call)
            .await
            .unwrap_or_else(|e| panic!("{era}: {e}"));
        // Notifications are sent before the result, on the same transport.
        let progress = client.progress.lock().unwrap().clone();
        assert!(
            (2..50).contains(&progress.len()),
            "{era}: a tight loop of 201 reports is throttled, got {}",
            progress.len()
        );
        assert_eq!(progress[0].progress, 0.0, "{era}");
        assert_eq!(progress.last().unwrap().progress, 200.0, "{era}");
        assert_eq!(progress.last().unwrap().total, Some(200.0), "{era}");
        running.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn a_cancelled_call_reaches_its_handler_within_a_second() {
    let shelf = Arc::new(Shelf::new());
    let running = connect(
        server(shelf.clone()),
        Client::default(),
        ClientLifecycleMode::Initialize,
    )
    .await;
    let peer = running.peer().clone();
    let handle = peer
        .send_request_with_option(
            ClientRequest::CallToolRequest(Request::new(CallToolRequestParams::new("items_wait"))),
            PeerRequestOptions::no_options(),
        )
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    peer.notify_cancelled(CancelledNotificationParam::new(
        Some(handle.id.clone()),
        Some("test".into()),
    ))
    .await
    .unwrap();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(1);
    while shelf.cancelled.load(Ordering::SeqCst) == 0 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the handler saw the cancellation"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    running.cancel().await.unwrap();
}

#[tokio::test]
async fn a_call_over_the_time_limit_is_cancelled_through_its_handle_and_answered() {
    let shelf = Arc::new(Shelf::new());
    let server =
        Server::new(Registry::new(&TOOLS), shelf.clone()).call_timeout(Duration::from_millis(100));
    let running = connect(server, Client::default(), ClientLifecycleMode::Initialize).await;
    let result = running
        .call_tool(CallToolRequestParams::new("items_wait"))
        .await
        .unwrap();
    assert_eq!(result.is_error, Some(true));
    assert_eq!(
        text(&result),
        "items_wait took longer than this server's limit of 100 ms for a call, and was stopped; try again with less to do"
    );
    assert_eq!(
        shelf.cancelled.load(Ordering::SeqCst),
        1,
        "the handler saw it"
    );
    running.cancel().await.unwrap();
}

#[tokio::test]
async fn a_round_ends_with_the_questions_and_a_sealed_state() {
    let mut raw = Raw::start(Arc::default());
    let first = raw.call("items_greet", json!({}), capable()).await;
    let result = &first["result"];
    assert_eq!(result["resultType"], "input_required", "{first}");
    assert_eq!(
        result["inputRequests"]["user_name"]["method"],
        "elicitation/create"
    );
    assert_eq!(
        result["inputRequests"]["user_name"]["params"]["message"],
        "What is your name?"
    );
    let state = result["requestState"].as_str().unwrap().to_owned();
    let done = raw
        .call(
            "items_greet",
            json!({"requestState": state, "inputResponses": {"user_name": {"action": "accept", "content": {"name": "Bob"}}}}),
            capable(),
        )
        .await;
    assert_eq!(
        done["result"]["content"][0]["text"], "Hello, Bob!",
        "{done}"
    );
}

#[tokio::test]
async fn a_missing_answer_asks_again_and_answers_to_other_questions_are_ignored() {
    let mut raw = Raw::start(Arc::default());
    let first = raw.call("items_greet", json!({}), capable()).await;
    let state = first["result"]["requestState"].clone();
    let again = raw
        .call(
            "items_greet",
            json!({"requestState": state, "inputResponses": {"wrong_key": {"action": "accept", "content": {"name": "X"}}}}),
            capable(),
        )
        .await;
    assert_eq!(again["result"]["resultType"], "input_required", "{again}");
    assert!(again["result"]["inputRequests"]["user_name"].is_object());
}

#[tokio::test]
async fn forged_truncated_oversized_and_borrowed_states_are_refused_and_the_handler_never_sees_them()
 {
    let shelf = Arc::new(Shelf::new());
    let mut raw = Raw::start(shelf.clone());
    let first = raw.call("items_put_and_name", json!({}), capable()).await;
    assert_eq!(shelf.count(), 1);
    let state = first["result"]["requestState"].as_str().unwrap().to_owned();
    let answer = json!({"item_name": {"action": "accept", "content": {"name": "lamp"}}});
    let tampered = format!("{state}-TAMPERED");
    let truncated = state[..state.len() / 2].to_owned();
    let forged = {
        let mut bytes = state.into_bytes();
        let middle = bytes.len() / 2;
        bytes[middle] = if bytes[middle] == b'A' { b'B' } else { b'A' };
        String::from_utf8(bytes).unwrap()
    };
    let oversized = "x".repeat(70 * 1024);
    for bad in [tampered, truncated, forged, oversized] {
        let refused = raw
            .call(
                "items_put_and_name",
                json!({"requestState": bad, "inputResponses": answer}),
                capable(),
            )
            .await;
        assert_eq!(refused["error"]["code"], -32602, "{refused}");
        assert!(
            refused["error"]["message"]
                .as_str()
                .unwrap()
                .starts_with("requestState was not issued by this server for items_put_and_name")
        );
    }
    // A state issued for another tool does not open for this one.
    let greet = raw.call("items_greet", json!({}), capable()).await;
    let borrowed = raw
        .call(
            "items_put_and_name",
            json!({"requestState": greet["result"]["requestState"], "inputResponses": answer}),
            capable(),
        )
        .await;
    assert_eq!(borrowed["error"]["code"], -32602, "{borrowed}");
    assert_eq!(shelf.count(), 1, "no refused retry ran the handler");
}

#[tokio::test]
async fn an_answer_that_is_not_an_object_is_a_protocol_error() {
    let mut raw = Raw::start(Arc::default());
    let first = raw.call("items_greet", json!({}), capable()).await;
    let state = first["result"]["requestState"].clone();
    let refused = raw
        .call(
            "items_greet",
            json!({"requestState": state, "inputResponses": {"user_name": 12345}}),
            capable(),
        )
        .await;
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    assert_eq!(
        refused["error"]["message"],
        "inputResponses.user_name must be an object: the client's result for the request it answers"
    );
}

#[tokio::test]
async fn an_answer_that_does_not_fit_the_question_is_an_error_result_naming_it() {
    let mut raw = Raw::start(Arc::default());
    let first = raw.call("items_greet", json!({}), capable()).await;
    let state = first["result"]["requestState"].clone();
    let refused = raw
        .call(
            "items_greet",
            json!({"requestState": state, "inputResponses": {"user_name": {"action": "maybe"}}}),
            capable(),
        )
        .await;
    assert_eq!(refused["result"]["isError"], true, "{refused}");
    assert_eq!(
        refused["result"]["content"][0]["text"],
        "the client's answer to `user_name` does not fit: `action` must be \"accept\", \"decline\" or \"cancel\""
    );
}

#[tokio::test]
async fn on_2026_07_28_a_client_without_the_capability_gets_the_protocol_s_error() {
    let mut raw = Raw::start(Arc::default());
    let refused = raw
        .call("items_greet", json!({}), json!({"sampling": {}}))
        .await;
    assert_eq!(refused["error"]["code"], -32021, "{refused}");
    assert_eq!(
        refused["error"]["data"],
        json!({"requiredCapabilities": {"elicitation": {}}})
    );
}

#[tokio::test]
async fn logs_reach_a_2026_client_only_when_its_request_asks_for_them() {
    let mut raw = Raw::start(Arc::default());
    let (quiet, asked) = {
        use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
        let lines = |log_level: Option<&str>, id: u64| {
            let mut meta = json!({
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {},
            });
            if let Some(level) = log_level {
                meta["io.modelcontextprotocol/logLevel"] = json!(level);
            }
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": "items_progress", "arguments": {"steps": 1}, "_meta": meta}})
        };
        let mut collect = async |line: Value, id: u64| {
            raw.write
                .write_all(format!("{line}\n").as_bytes())
                .await
                .unwrap();
            let mut seen = Vec::new();
            loop {
                let mut answer = String::new();
                raw.read.read_line(&mut answer).await.unwrap();
                let answer: Value = serde_json::from_str(&answer).unwrap();
                if answer["id"] == json!(id) {
                    return seen;
                }
                seen.push(answer["method"].as_str().unwrap_or_default().to_owned());
            }
        };
        let quiet = collect(lines(None, 90), 90).await;
        let asked = collect(lines(Some("info"), 91), 91).await;
        (quiet, asked)
    };
    assert!(
        !quiet.iter().any(|m| m == "notifications/message"),
        "{quiet:?}"
    );
    assert_eq!(
        asked
            .iter()
            .filter(|m| *m == "notifications/message")
            .count(),
        2,
        "{asked:?}"
    );
}

#[tokio::test]
async fn a_cancellation_for_an_unknown_request_is_ignored() {
    let running = connect(
        server(Arc::default()),
        Client::default(),
        ClientLifecycleMode::Initialize,
    )
    .await;
    let peer = running.peer().clone();
    peer.notify_cancelled(CancelledNotificationParam::new(
        Some(rmcp::model::NumberOrString::Number(987_654)),
        None,
    ))
    .await
    .unwrap();
    let listed = running.list_tools(None).await.unwrap();
    assert!(!listed.tools.is_empty());
    running.cancel().await.unwrap();
}

#[tokio::test]
async fn a_legacy_session_is_told_when_a_tool_is_switched_off_or_a_provider_registers() {
    let registry = Registry::builder(&TOOLS)
        .store(tooltable_runtime::registry::MemoryStore::new())
        .build();
    let client = Client::default();
    let running = connect(
        Server::new(registry.clone(), Arc::new(Shelf::new())),
        client.clone(),
        ClientLifecycleMode::Initialize,
    )
    .await;
    let changes = || client.list_changes.load(Ordering::SeqCst);
    let wait_for = async |count: usize| {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(2);
        while changes() < count {
            assert!(
                tokio::time::Instant::now() < deadline,
                "{count} list changes arrived"
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    };
    // The session listens from `notifications/initialized` on; a first
    // listing makes sure the server has handled it.
    running.list_tools(None).await.unwrap();
    registry.set_enabled("items_get", false).unwrap();
    wait_for(1).await;
    // Setting the same flag again changes nothing anyone can see.
    registry.set_enabled("items_get", false).unwrap();
    registry.set_enabled("items_get", true).unwrap();
    wait_for(2).await;
    struct Extra;
    impl tooltable_runtime::provider::Provider<Shelf> for Extra {
        fn name(&self) -> &str {
            "extra"
        }
        fn tools(&self) -> Vec<tooltable_runtime::provider::ProvidedTool<Shelf>> {
            vec![tooltable_runtime::provider::ProvidedTool::new(
                "items_extra",
                tooltable_runtime::Tier::Read,
                "An extra tool.",
                tooltable_runtime::provider::handler(|_: &Shelf, _, _| {
                    Box::pin(async { Ok(tooltable_runtime::provider::Output::Text("x".into())) })
                }),
            )]
        }
    }
    registry.register(&Extra).unwrap();
    wait_for(3).await;
    let listed = running.list_tools(None).await.unwrap();
    assert!(listed.tools.iter().any(|t| t.name == "items_get"));
    assert!(listed.tools.iter().any(|t| t.name == "items_extra"));
    // Three changes, three notifications: had the repeated flag sent one,
    // a fourth would have arrived by now.
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(
        changes(),
        3,
        "a flag set to what it was sent a notification"
    );
    running.cancel().await.unwrap();
}
