//! The test client users drive their servers with (`testing::TestClient`),
//! against the fixture, in both protocol eras: what it lists and calls,
//! the questions it answers as scripted, the notifications it keeps, and
//! that what it reads is what the stdio process writes.

use crate::client::{everything, read_only};
use serde_json::{Value, json};
use std::sync::Arc;
use tooltable_fixture::{Item, Shelf};
use tooltable_runtime::serve::{McpServer, Server};
use tooltable_runtime::testing::{Answer, Revision, TestClient};

const ERAS: [Revision; 2] = [Revision::R2026_07_28, Revision::R2025_11_25];

fn names(tools: &[Value]) -> Vec<&str> {
    tools.iter().filter_map(|t| t["name"].as_str()).collect()
}

fn serving(registry: tooltable_runtime::Registry<Shelf>) -> Server<McpServer<Shelf>> {
    Server::new(registry, Shelf::new())
}

#[tokio::test]
async fn the_listing_is_the_one_the_servers_registry_gives_its_caller_in_both_eras() {
    for era in ERAS {
        let mut everything_client = TestClient::builder()
            .revision(era)
            .connect(serving(everything()))
            .await;
        let mut read_client = TestClient::builder()
            .revision(era)
            .connect(serving(read_only()))
            .await;
        let all = everything_client.list_tools().await;
        let read = read_client.list_tools().await;
        assert!(names(&all).contains(&"items_destroy"), "{era:?}");
        assert!(!names(&read).contains(&"items_destroy"), "{era:?}");
        assert!(names(&read).contains(&"items_get"), "{era:?}");
        assert!(read.len() < all.len());
    }
}

#[tokio::test]
async fn a_listing_over_several_pages_is_followed_to_its_end() {
    for era in ERAS {
        let mut whole = TestClient::builder()
            .revision(era)
            .connect(serving(everything()))
            .await;
        let mut paged = TestClient::builder()
            .revision(era)
            .connect(serving(everything()).page_size(2))
            .await;
        assert_eq!(
            paged.list_tools().await,
            whole.list_tools().await,
            "{era:?}"
        );
    }
}

#[tokio::test]
async fn a_call_with_a_typed_value_returns_structured_content_read_back_as_its_type() {
    #[derive(serde::Serialize)]
    struct Create {
        name: &'static str,
    }
    for era in ERAS {
        let mut client = TestClient::builder()
            .revision(era)
            .connect(serving(everything()))
            .await;
        let created = client
            .call_with("items_create", &Create { name: "lamp" })
            .await
            .unwrap();
        assert!(!created.is_error(), "{era:?}: {}", created.text());
        let item: Item = created.structured_as().unwrap();
        assert_eq!(item.name, "lamp");
        let got = client
            .call("items_get", json!({"id": item.id}))
            .await
            .unwrap();
        assert_eq!(got.structured(), created.structured(), "{era:?}");
    }
}

#[tokio::test]
async fn a_refusal_is_a_tool_error_and_an_unknown_tool_a_protocol_error() {
    for era in ERAS {
        let mut client = TestClient::builder()
            .revision(era)
            .connect(serving(read_only()))
            .await;
        let refused = client
            .call("items_create", json!({"name": "lamp"}))
            .await
            .unwrap();
        assert!(refused.is_error(), "{era:?}: {}", refused.text());
        let unknown = client.call("no_such_tool", json!({})).await.unwrap_err();
        assert_eq!(unknown.code, -32602, "{era:?}: {unknown}");
    }
}

#[tokio::test]
async fn a_question_is_answered_as_scripted_and_recorded_in_both_eras() {
    for era in ERAS {
        let mut accepting = TestClient::builder()
            .revision(era)
            .elicitation(Answer::Accept(json!({"name": "Ada"})))
            .connect(serving(everything()))
            .await;
        let greeted = accepting.call("items_greet", json!({})).await.unwrap();
        assert_eq!(greeted.text(), "Hello, Ada!", "{era:?}");
        assert_eq!(accepting.asked().len(), 1, "{era:?}");
        assert_eq!(accepting.asked()[0]["method"], "elicitation/create");
        assert_eq!(
            accepting.asked()[0]["params"]["message"],
            "What is your name?"
        );

        for answer in [Answer::Decline, Answer::Cancel] {
            let mut refusing = TestClient::builder()
                .revision(era)
                .elicitation(answer.clone())
                .connect(serving(everything()))
                .await;
            let greeted = refusing.call("items_greet", json!({})).await.unwrap();
            assert_eq!(greeted.text(), "No name given.", "{era:?} {answer:?}");
        }
    }
}

#[tokio::test]
async fn answers_are_given_in_order_and_the_last_one_repeats() {
    for era in ERAS {
        let mut client = TestClient::builder()
            .revision(era)
            .elicitation(Answer::Accept(json!({"name": "Ada"})))
            .elicitation(Answer::Decline)
            .connect(serving(everything()))
            .await;
        let mut texts = Vec::new();
        for _ in 0..3 {
            texts.push(client.call("items_greet", json!({})).await.unwrap().text());
        }
        assert_eq!(
            texts,
            ["Hello, Ada!", "No name given.", "No name given."],
            "{era:?}"
        );
    }
}

#[tokio::test]
async fn a_question_the_client_was_given_no_answer_to_fails_the_call_it_belongs_to() {
    for era in ERAS {
        let mut client = TestClient::builder()
            .revision(era)
            .connect(serving(everything()))
            .await;
        let outcome = client.call("items_greet", json!({})).await;
        let failed = match &outcome {
            Ok(called) => called.is_error(),
            Err(_) => true,
        };
        assert!(failed, "{era:?}: {outcome:?}");
    }
}

#[tokio::test]
async fn sampling_and_roots_are_answered_as_scripted() {
    for era in ERAS {
        let mut client = TestClient::builder()
            .revision(era)
            .elicitation(Answer::Accept(json!({"name": "Ada"})))
            .sampling(json!({
                "role": "assistant",
                "content": {"type": "text", "text": "Hello there"},
                "model": "test-model",
            }))
            .roots(vec![
                json!({"uri": "file:///a", "name": "a"}),
                json!({"uri": "file:///b", "name": "b"}),
            ])
            .connect(serving(everything()))
            .await;
        let survey = client.call("items_survey", json!({})).await.unwrap();
        assert_eq!(
            survey.structured(),
            Some(&json!({"name": "Ada", "greeting": "Hello there", "roots": 2})),
            "{era:?}: {}",
            survey.text()
        );
        let mut methods: Vec<&str> = client
            .asked()
            .iter()
            .filter_map(|q| q["method"].as_str())
            .collect();
        methods.sort_unstable();
        assert_eq!(
            methods,
            ["elicitation/create", "roots/list", "sampling/createMessage"]
        );
    }
}

#[tokio::test]
async fn a_step_runs_once_across_the_rounds_of_a_call() {
    for era in ERAS {
        let shelf = Arc::new(Shelf::new());
        let mut client = TestClient::builder()
            .revision(era)
            .elicitation(Answer::Accept(json!({"name": "lamp"})))
            .connect(Server::new(everything(), shelf.clone()))
            .await;
        let named = client.call("items_put_and_name", json!({})).await.unwrap();
        assert!(
            named.text().ends_with(" is lamp"),
            "{era:?}: {}",
            named.text()
        );
        assert_eq!(shelf.count(), 1, "{era:?}");
    }
}

#[tokio::test]
async fn progress_arrives_as_notifications_when_asked_for() {
    for era in ERAS {
        let mut client = TestClient::builder()
            .revision(era)
            .progress()
            .connect(serving(everything()))
            .await;
        let done = client
            .call("items_progress", json!({"steps": 2}))
            .await
            .unwrap();
        assert_eq!(done.text(), "2 steps");
        let progress: Vec<&Value> = client
            .notifications()
            .iter()
            .filter(|n| n["method"] == "notifications/progress")
            .collect();
        // Progress may be coalesced; the first and the last step arrive.
        let steps: Vec<&Value> = progress.iter().map(|n| &n["params"]["progress"]).collect();
        assert_eq!(steps.first(), Some(&&json!(0.0)), "{era:?}: {progress:?}");
        assert_eq!(steps.last(), Some(&&json!(2.0)), "{era:?}: {progress:?}");

        let mut quiet = TestClient::builder()
            .revision(era)
            .connect(serving(everything()))
            .await;
        quiet
            .call("items_progress", json!({"steps": 2}))
            .await
            .unwrap();
        assert!(
            !quiet
                .take_notifications()
                .iter()
                .any(|n| n["method"] == "notifications/progress"),
            "{era:?}: no token, no progress"
        );
    }
}

#[tokio::test]
async fn a_raw_line_gets_the_raw_answer_the_transport_writes() {
    let mut client = TestClient::connect(serving(read_only())).await;
    let answer: Value = serde_json::from_str(&client.raw("{").await).unwrap();
    assert_eq!(answer["error"]["code"], -32700, "{answer}");
    let answer: Value = serde_json::from_str(
        &client
            .raw(r#"{"jsonrpc":"2.0","id":7,"id":8,"method":"ping"}"#)
            .await,
    )
    .unwrap();
    assert_eq!(answer["error"]["code"], -32600, "{answer}");
}

#[tokio::test]
async fn closing_the_client_ends_serving_cleanly() {
    let mut client = TestClient::builder()
        .revision(Revision::R2025_11_25)
        .connect(serving(read_only()))
        .await;
    assert!(!client.list_tools().await.is_empty());
    client.close().await.unwrap();
}

/// The lines a real `fixture_stdio` process writes for `lines`, one answer
/// per request, notifications left out.
async fn process_answers(lines: &[String]) -> Vec<String> {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    let binary = crate::client::fixture_binary();
    let mut child = tokio::process::Command::new(&binary)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap_or_else(|e| panic!("{}: {e}", binary.display()));
    let mut write = child.stdin.take().unwrap();
    let mut read = BufReader::new(child.stdout.take().unwrap());
    let mut answers = Vec::new();
    for line in lines {
        write
            .write_all(format!("{line}\n").as_bytes())
            .await
            .unwrap();
        let message: Value = serde_json::from_str(line).unwrap_or(Value::Null);
        if message.get("method").is_some() && message.get("id").is_none() {
            continue;
        }
        loop {
            let mut text = String::new();
            tokio::time::timeout(
                std::time::Duration::from_secs(10),
                read.read_line(&mut text),
            )
            .await
            .expect("an answer within 10 s")
            .unwrap();
            let text = text.trim_end().to_owned();
            let parsed: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
            if parsed.get("method").is_none() {
                answers.push(text);
                break;
            }
        }
    }
    answers
}

#[tokio::test]
async fn what_the_test_client_reads_is_byte_for_byte_what_the_stdio_process_writes() {
    let current = |id: u64, method: &str, params: Value| {
        let mut params = params;
        params["_meta"] = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "0"},
        });
        json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
    };
    let lines = vec![
        current(1, "tools/list", json!({})),
        current(
            2,
            "tools/call",
            json!({"name": "items_create", "arguments": {"name": "lamp"}}),
        ),
        current(
            3,
            "tools/call",
            json!({"name": "items_get", "arguments": {"id": 1}}),
        ),
        current(
            4,
            "tools/call",
            json!({"name": "items_get", "arguments": {"id": "one"}}),
        ),
        current(
            5,
            "tools/call",
            json!({"name": "no_such_tool", "arguments": {}}),
        ),
        "{\"jsonrpc\":\"2.0\",\"id\":6,".to_owned(),
        r#"{"jsonrpc":"2.0","id":7,"id":8,"method":"ping"}"#.to_owned(),
        json!({"jsonrpc": "2.0", "id": 9, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "t", "version": "0"}}})
        .to_string(),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string(),
        json!({"jsonrpc": "2.0", "id": 10, "method": "tools/list", "params": {}}).to_string(),
        json!({"jsonrpc": "2.0", "id": 11, "method": "tools/call",
            "params": {"name": "items_list", "arguments": {}}})
        .to_string(),
    ];
    let expected = process_answers(&lines).await;

    // The fixture process serves every tool up to destructive, on a shelf
    // of its own, with the default shortcuts.
    let mut client = TestClient::connect(serving(everything())).await;
    let mut seen = Vec::new();
    for line in &lines {
        if line.contains("notifications/initialized") {
            client.notify("notifications/initialized", json!({})).await;
            continue;
        }
        seen.push(client.raw(line).await);
    }
    assert_eq!(seen.len(), expected.len());
    for (ours, theirs) in seen.iter().zip(&expected) {
        assert_eq!(ours, theirs);
    }
}

#[tokio::test]
async fn a_cancelled_call_is_never_answered_and_its_handler_sees_the_cancellation() {
    for era in ERAS {
        let shelf = Arc::new(Shelf::new());
        let mut client = TestClient::builder()
            .revision(era)
            .connect(Server::new(everything(), shelf.clone()))
            .await;
        let waiting = client.start("items_wait", json!({})).await;
        // The handler is running once the server answers what follows it.
        client.call("items_list", json!({})).await.unwrap();
        client.cancel(waiting).await;
        for _ in 0..1000 {
            if shelf.cancelled.load(std::sync::atomic::Ordering::SeqCst) == 1 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
        assert_eq!(
            shelf.cancelled.load(std::sync::atomic::Ordering::SeqCst),
            1,
            "{era:?}"
        );
        // What comes next is answered, and nothing answers the cancelled call.
        let listed = client.call("items_list", json!({})).await.unwrap();
        assert!(!listed.is_error(), "{era:?}");
        assert!(
            client.unclaimed().is_empty(),
            "{era:?}: {:?}",
            client.unclaimed()
        );
    }
}

#[tokio::test]
async fn calls_started_together_are_finished_in_any_order() {
    for era in ERAS {
        let mut client = TestClient::builder()
            .revision(era)
            .connect(serving(everything()))
            .await;
        let slow = client.start("items_pause", json!({"ms": 50})).await;
        let quick = client.start("items_list", json!({})).await;
        let quick = client.finish(quick).await.unwrap();
        assert!(!quick.is_error(), "{era:?}");
        let slow = client.finish(slow).await.unwrap();
        assert!(!slow.is_error(), "{era:?}: {}", slow.text());
        let waited = client.start("items_pause", json!({"ms": 1})).await;
        client
            .call("items_pause", json!({"ms": 300}))
            .await
            .unwrap();
        assert_eq!(
            client.unclaimed().len(),
            1,
            "{era:?}: answered, not claimed yet"
        );
        assert!(!client.finish(waited).await.unwrap().is_error());
        assert!(client.unclaimed().is_empty());
    }
}

#[tokio::test]
async fn a_started_call_is_finished_with_its_answer() {
    for era in ERAS {
        let mut client = TestClient::builder()
            .revision(era)
            .elicitation(Answer::Accept(json!({"name": "Ada"})))
            .connect(serving(everything()))
            .await;
        let greeting = client.start("items_greet", json!({})).await;
        let greeted = client.finish(greeting).await.unwrap();
        assert_eq!(greeted.text(), "Hello, Ada!", "{era:?}");
    }
}

#[tokio::test]
async fn a_call_the_server_makes_a_task_is_followed_to_its_end_and_its_question_answered() {
    let registry = read_only();
    registry.register(&crate::tasks::Work).unwrap();
    let mut client = TestClient::builder()
        .tasks()
        .elicitation(Answer::Accept(json!({"colour": "blue"})))
        .connect(Server::new(registry, Shelf::new()))
        .await;
    let slow = client
        .call("items_work_slowly", json!({"ms": 30}))
        .await
        .unwrap();
    assert!(slow.task_id().is_some(), "{:?}", slow.result());
    assert_eq!(slow.text(), "worked 30 ms");
    let asked = client.call("items_work_then_ask", json!({})).await.unwrap();
    assert!(asked.task_id().is_some());
    assert_eq!(asked.text(), "painted blue");
    assert_eq!(client.asked()[0]["params"]["message"], "Which colour?");

    // Without the extension the same call is answered as an ordinary one.
    let registry = read_only();
    registry.register(&crate::tasks::Work).unwrap();
    let mut plain = TestClient::connect(Server::new(registry, Shelf::new())).await;
    let slow = plain
        .call("items_work_slowly", json!({"ms": 30}))
        .await
        .unwrap();
    assert_eq!(slow.task_id(), None);
    assert_eq!(slow.text(), "worked 30 ms");
}

/// An application's handler beside the table: one prompt, one resource.
#[derive(Clone)]
struct Beside;

impl rmcp::ServerHandler for Beside {
    fn get_info(&self) -> rmcp::model::ServerConfig {
        rmcp::model::ServerConfig::new(
            rmcp::model::ServerCapabilities::builder()
                .enable_prompts()
                .enable_resources()
                .build(),
        )
    }

    async fn list_prompts(
        &self,
        _: Option<rmcp::model::PaginatedRequestParams>,
        _: rmcp::service::RequestContext<rmcp::service::RoleServer>,
    ) -> Result<rmcp::model::ListPromptsResult, rmcp::ErrorData> {
        Ok(rmcp::model::ListPromptsResult::with_all_items(vec![
            rmcp::model::Prompt::new("greet", Some("Says hello."), None),
        ]))
    }

    async fn get_prompt(
        &self,
        request: rmcp::model::GetPromptRequestParams,
        _: rmcp::service::RequestContext<rmcp::service::RoleServer>,
    ) -> Result<rmcp::model::GetPromptResponse, rmcp::ErrorData> {
        Ok(
            rmcp::model::GetPromptResult::new(vec![rmcp::model::PromptMessage::new_text(
                rmcp::model::Role::User,
                format!("hello from {}", request.name),
            )])
            .into(),
        )
    }

    async fn list_resources(
        &self,
        _: Option<rmcp::model::PaginatedRequestParams>,
        _: rmcp::service::RequestContext<rmcp::service::RoleServer>,
    ) -> Result<rmcp::model::ListResourcesResult, rmcp::ErrorData> {
        Ok(rmcp::model::ListResourcesResult {
            resources: vec![rmcp::model::Resource::new(
                "memo://shelf",
                "shelf".to_owned(),
            )],
            ..Default::default()
        })
    }

    async fn read_resource(
        &self,
        request: rmcp::model::ReadResourceRequestParams,
        _: rmcp::service::RequestContext<rmcp::service::RoleServer>,
    ) -> Result<rmcp::model::ReadResourceResponse, rmcp::ErrorData> {
        Ok(
            rmcp::model::ReadResourceResult::new(vec![rmcp::model::ResourceContents::text(
                "three items",
                request.uri.clone(),
            )])
            .into(),
        )
    }
}

#[tokio::test]
async fn prompts_and_resources_served_beside_the_table_are_listed_and_read_in_both_eras() {
    for era in ERAS {
        let server = serving(read_only()).beside(Beside);
        let mut client = TestClient::builder().revision(era).connect(server).await;
        assert!(!client.list_tools().await.is_empty(), "{era:?}");
        let prompts = client.list_prompts().await;
        assert_eq!(prompts[0]["name"], "greet", "{era:?}");
        let prompt = client.get_prompt("greet", json!({})).await.unwrap();
        assert_eq!(prompt["messages"][0]["content"]["text"], "hello from greet");
        let resources = client.list_resources().await;
        assert_eq!(resources[0]["uri"], "memo://shelf", "{era:?}");
        let read = client.read_resource("memo://shelf").await.unwrap();
        assert_eq!(read["contents"][0]["text"], "three items", "{era:?}");
    }
}

#[tokio::test]
async fn the_listing_of_every_tool_is_the_committed_manifest_and_a_narrower_one_says_what_is_missing()
 {
    let manifest = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixture/tools.json");
    for era in ERAS {
        let mut client = TestClient::builder()
            .revision(era)
            .connect(serving(everything()))
            .await;
        client.assert_listing_is(manifest).await;

        let mut narrower = TestClient::builder()
            .revision(era)
            .connect(serving(read_only()))
            .await;
        let differences = narrower.listing_differences(manifest).await;
        assert!(
            differences.contains(&"`items_destroy` is in the manifest and not listed".to_owned()),
            "{era:?}: {differences:?}"
        );
    }
}

#[tokio::test]
async fn a_server_that_cannot_start_fails_the_test_saying_why() {
    let refused = tokio::spawn(async {
        let mut client = TestClient::connect(serving(read_only()).max_request_bytes(0)).await;
        client.list_tools().await
    })
    .await
    .unwrap_err();
    let message = refused.into_panic();
    let message = message
        .downcast_ref::<String>()
        .cloned()
        .unwrap_or_default();
    assert!(
        message.starts_with("the server ended its output without answering: ")
            && message.contains("the request size limit must be at least"),
        "{message}"
    );
}

#[tokio::test]
async fn closing_with_a_call_in_progress_ends_serving_once_it_is_answered() {
    for era in ERAS {
        let mut client = TestClient::builder()
            .revision(era)
            .connect(serving(everything()))
            .await;
        let _pausing = client.start("items_pause", json!({"ms": 100})).await;
        client.close().await.unwrap();
    }
}

#[tokio::test]
async fn logs_arrive_as_notifications_at_the_level_asked_for_in_both_eras() {
    for era in ERAS {
        let mut client = TestClient::builder()
            .revision(era)
            .logs("info")
            .connect(serving(everything()))
            .await;
        client
            .call("items_progress", json!({"steps": 1}))
            .await
            .unwrap();
        let logged: Vec<&Value> = client
            .notifications()
            .iter()
            .filter(|n| n["method"] == "notifications/message")
            .collect();
        assert_eq!(logged.len(), 2, "{era:?}: {:?}", client.notifications());
        assert_eq!(logged[1]["params"]["data"], "step 1 of 1", "{era:?}");

        let mut quiet = TestClient::builder()
            .revision(era)
            .logs("error")
            .connect(serving(everything()))
            .await;
        quiet
            .call("items_progress", json!({"steps": 1}))
            .await
            .unwrap();
        assert!(quiet.notifications().is_empty(), "{era:?}");
    }
}
