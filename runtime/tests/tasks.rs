//! Calls that run as tasks (the Tasks extension), through the server as a
//! 2026-07-28 client speaks to it: which calls become tasks, what a poll,
//! an update and a cancel do, that a task is its caller's alone, and the
//! limits. The tools are a provider's, declared with `task = optional`.

use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;
use tooltable_fixture::{Shelf, TOOLS};
use tooltable_runtime::call::{Elicitation, Identity};
use tooltable_runtime::provider::{
    Arguments, BoxFuture, Failure, Outcome, Output, ProvidedTool, Provider,
};
use tooltable_runtime::serve::{Server, TaskLimits};
use tooltable_runtime::{Call, Caller, Registry, TaskSupport, Tier, ToolError};

use crate::client;

use client::Raw;

const TASKS: &str = "io.modelcontextprotocol/tasks";

/// `items_work_slowly` waits `ms` milliseconds (or until cancelled) and says how
/// it ended; `items_work_then_ask` works a moment, then asks a question.
pub(crate) struct Work;

impl Provider<Shelf> for Work {
    fn name(&self) -> &str {
        "work"
    }

    fn tools(&self) -> Vec<ProvidedTool<Shelf>> {
        let slowly = tooltable_runtime::provider::handler(
            |_: &Shelf, arguments: Arguments, call: &Call| -> BoxFuture<'_, Outcome> {
                Box::pin(async move {
                    let ms = arguments.get("ms").and_then(Value::as_u64).unwrap_or(0);
                    if ms > 0 {
                        tokio::select! {
                            () = tokio::time::sleep(Duration::from_millis(ms)) => {}
                            () = call.cancelled() => return Err(Failure::Tool(ToolError::new("stopped on cancel"))),
                        }
                    }
                    Ok(Output::Text(format!("worked {ms} ms")))
                })
            },
        );
        let ask = tooltable_runtime::provider::handler(
            |_: &Shelf, _: Arguments, call: &Call| -> BoxFuture<'_, Outcome> {
                Box::pin(async move {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    call.progress(1.0, Some(2.0), Some("half done")).await;
                    let schema =
                        json!({"type": "object", "properties": {"colour": {"type": "string"}}});
                    let answer = call
                        .elicit(Elicitation::form("Which colour?", schema))
                        .await
                        .map_err(|e| Failure::Tool(ToolError::from(e)))?;
                    let colour = answer
                        .content
                        .and_then(|c| c.get("colour").and_then(Value::as_str).map(str::to_owned))
                        .unwrap_or_default();
                    Ok(Output::Text(format!("painted {colour}")))
                })
            },
        );
        let mut slow = ProvidedTool::new("items_work_slowly", Tier::Read, "Work a while.", slowly);
        slow.input_schema = json!({"type": "object", "properties": {"ms": {"type": "integer"}}});
        slow.task = TaskSupport::Optional;
        let mut asks = ProvidedTool::new("items_work_then_ask", Tier::Read, "Work, then ask.", ask);
        asks.task = TaskSupport::Optional;
        let nothing = tooltable_runtime::provider::handler(
            |_: &Shelf, _: Arguments, _: &Call| -> BoxFuture<'_, Outcome> {
                Box::pin(async { Ok(Output::Text("written".into())) })
            },
        );
        let mut writes = ProvidedTool::new("items_write_long", Tier::Write, "Write.", nothing);
        writes.task = TaskSupport::Required;
        vec![slow, asks, writes]
    }
}

/// A raw 2026-07-28 client; each request names its caller in `_meta`
/// (`test/subject`), which the server takes as the token subject; a
/// request of the caller `""` names none, as a request without a token.
struct Client(Raw);

fn serve(limits: TaskLimits) -> Client {
    let registry = Registry::new(&TOOLS);
    registry.register(&Work).unwrap();
    let server = Server::new(registry, Arc::new(Shelf::new()))
        .task_limits(limits)
        .caller(|context| {
            let meta = serde_json::to_value(&context.meta).unwrap_or_default();
            let subject = meta["test/subject"].as_str().map(str::to_owned);
            Caller::from_identity(Identity {
                subject,
                ..Identity::default()
            })
        });
    Client(Raw::serving(server))
}

impl Client {
    async fn send(&mut self, who: &str, tasks: bool, method: &str, params: Value) -> Value {
        let capabilities = if tasks {
            json!({"elicitation": {}, "extensions": {TASKS: {}}})
        } else {
            json!({"elicitation": {}})
        };
        let meta = match who {
            "" => json!({}),
            who => json!({"test/subject": who}),
        };
        self.0.send_meta(method, params, capabilities, meta).await
    }

    async fn call(&mut self, who: &str, tasks: bool, tool: &str, arguments: Value) -> Value {
        let params = json!({"name": tool, "arguments": arguments});
        self.send(who, tasks, "tools/call", params).await
    }

    async fn task(&mut self, who: &str, method: &str, id: &str) -> Value {
        self.send(who, true, method, json!({"taskId": id})).await
    }

    async fn poll_until(&mut self, who: &str, id: &str, status: &str) -> Value {
        for _ in 0..200 {
            let got = self.task(who, "tasks/get", id).await;
            if got["result"]["status"] == status {
                return got["result"].clone();
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("task {id} never reached {status}");
    }
}

fn task_id(answer: &Value) -> String {
    assert_eq!(answer["result"]["resultType"], "task", "{answer}");
    answer["result"]["taskId"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn a_call_still_working_becomes_a_task_only_for_a_client_that_declared_tasks() {
    let mut client = serve(TaskLimits::default());
    let plain = client
        .call("ann", false, "items_work_slowly", json!({"ms": 30}))
        .await;
    assert_eq!(plain["result"]["resultType"], "complete", "{plain}");
    assert_eq!(plain["result"]["content"][0]["text"], "worked 30 ms");

    let at_once = client
        .call("ann", true, "items_work_slowly", json!({"ms": 0}))
        .await;
    assert_eq!(
        at_once["result"]["resultType"], "complete",
        "a call done at once is answered: {at_once}"
    );

    let started = client
        .call("ann", true, "items_work_slowly", json!({"ms": 30}))
        .await;
    let id = task_id(&started);
    assert_eq!(id.len(), 32, "{started}");
    assert_eq!(started["result"]["status"], "working");
    assert!(
        started["result"]["ttlMs"].as_u64().unwrap() > 0,
        "{started}"
    );
    assert!(started["result"].get("requestState").is_none());
    let done = client.poll_until("ann", &id, "completed").await;
    assert_eq!(
        done["result"]["content"][0]["text"], "worked 30 ms",
        "{done}"
    );
    assert_eq!(done["result"]["isError"], false, "{done}");
    assert!(done["result"].get("resultType").is_none(), "{done}");

    let no_tool_tasks = client.call("ann", true, "items_list", json!({})).await;
    assert_eq!(
        no_tool_tasks["result"]["resultType"], "complete",
        "{no_tool_tasks}"
    );
}

#[tokio::test]
async fn a_task_is_its_callers_alone() {
    let mut client = serve(TaskLimits::default());
    let id = task_id(
        &client
            .call("ann", true, "items_work_slowly", json!({"ms": 5000}))
            .await,
    );
    for method in ["tasks/get", "tasks/cancel"] {
        let refused = client.task("bob", method, &id).await;
        assert_eq!(refused["error"]["code"], -32602, "{refused}");
        assert_eq!(
            refused["error"]["message"],
            format!(
                "no task `{id}` is known to this server for this caller: it was never created, it has expired, or another caller created it"
            ),
        );
    }
    let update = json!({"taskId": id, "inputResponses": {}});
    let refused = client.send("bob", true, "tasks/update", update).await;
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    let mine = client.task("ann", "tasks/get", &id).await;
    assert_eq!(
        mine["result"]["status"], "working",
        "bob's attempts changed nothing: {mine}"
    );
    let cancelled = client.task("ann", "tasks/cancel", &id).await;
    assert_eq!(cancelled["result"], json!({"resultType": "complete"}));
    client.poll_until("ann", &id, "cancelled").await;
}

#[tokio::test]
async fn a_question_is_answered_through_the_task_once_and_strays_are_ignored() {
    let mut client = serve(TaskLimits::default());
    let id = task_id(
        &client
            .call("ann", true, "items_work_then_ask", json!({}))
            .await,
    );
    let asking = client.poll_until("ann", &id, "input_required").await;
    let (key, request) = asking["inputRequests"]
        .as_object()
        .unwrap()
        .iter()
        .next()
        .unwrap();
    assert_eq!(request["method"], "elicitation/create");
    assert_eq!(request["params"]["message"], "Which colour?");
    assert_eq!(
        asking["statusMessage"], "half done",
        "progress shows as the task's message"
    );
    let key = key.clone();

    let stray = json!({"taskId": id, "inputResponses": {"nobody": {"action": "accept", "content": {"colour": "red"}}}});
    assert_eq!(
        client.send("ann", true, "tasks/update", stray).await["result"],
        json!({"resultType": "complete"})
    );
    let still = client.task("ann", "tasks/get", &id).await;
    assert_eq!(still["result"]["status"], "input_required", "{still}");

    let answer = json!({"taskId": id, "inputResponses": {key.clone(): {"action": "accept", "content": {"colour": "blue"}}}});
    assert_eq!(
        client.send("ann", true, "tasks/update", answer).await["result"],
        json!({"resultType": "complete"})
    );
    let done = client.poll_until("ann", &id, "completed").await;
    assert_eq!(
        done["result"]["content"][0]["text"], "painted blue",
        "{done}"
    );
    let twice = json!({"taskId": id, "inputResponses": {key: {"action": "accept", "content": {"colour": "green"}}}});
    assert_eq!(
        client.send("ann", true, "tasks/update", twice).await["result"],
        json!({"resultType": "complete"})
    );
    let after = client.task("ann", "tasks/get", &id).await;
    assert_eq!(
        after["result"]["result"]["content"][0]["text"], "painted blue",
        "{after}"
    );
    let cancel_done = client.task("ann", "tasks/cancel", &id).await;
    assert_eq!(cancel_done["result"], json!({"resultType": "complete"}));
    assert_eq!(
        client.task("ann", "tasks/get", &id).await["result"]["status"],
        "completed"
    );
}

#[tokio::test]
async fn a_caller_at_its_limit_is_answered_as_an_ordinary_call() {
    let mut client = serve(TaskLimits {
        per_caller: 1,
        ..TaskLimits::default()
    });
    let first = task_id(
        &client
            .call("ann", true, "items_work_slowly", json!({"ms": 5000}))
            .await,
    );
    let second = client
        .call("ann", true, "items_work_slowly", json!({"ms": 30}))
        .await;
    assert_eq!(second["result"]["resultType"], "complete", "{second}");
    let other = client
        .call("bob", true, "items_work_slowly", json!({"ms": 30}))
        .await;
    task_id(&other);
    client.task("ann", "tasks/cancel", &first).await;
}

#[tokio::test]
async fn callers_without_a_token_are_bound_by_the_limit_on_all_tasks_not_by_one_callers() {
    let mut client = serve(TaskLimits {
        per_caller: 2,
        total: 4,
        ..TaskLimits::default()
    });
    let slow = json!({"ms": 5000});
    let mut started = Vec::new();
    // Whoever sends these, they cannot be told apart: two places of one
    // caller's would lock out every other tokenless client.
    for _ in 0..3 {
        started.push(task_id(
            &client
                .call("", true, "items_work_slowly", slow.clone())
                .await,
        ));
    }
    started.push(task_id(
        &client
            .call("ann", true, "items_work_slowly", slow.clone())
            .await,
    ));
    let over = client
        .call("", true, "items_work_slowly", json!({"ms": 30}))
        .await;
    assert_eq!(
        over["result"]["resultType"], "complete",
        "all four places taken: {over}"
    );
    for id in &started[..3] {
        assert_eq!(
            client.task("", "tasks/cancel", id).await["result"]["resultType"],
            "complete"
        );
    }
    client.task("ann", "tasks/cancel", &started[3]).await;
}

#[tokio::test]
async fn one_callers_task_results_leave_room_for_another_callers() {
    let mut client = serve(TaskLimits {
        result_bytes: 4096,
        result_bytes_per_caller: 1024,
        ..TaskLimits::default()
    });
    let finished = |answer: &Value| {
        answer["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let mut refused = None;
    for _ in 0..20 {
        let id = task_id(
            &client
                .call("ann", true, "items_work_slowly", json!({"ms": 20}))
                .await,
        );
        let done = client.poll_until("ann", &id, "completed").await;
        if done["result"]["isError"] == true {
            refused = Some(finished(&done));
            break;
        }
    }
    let refused = refused.expect("ann's results reach her share of 1024 bytes");
    assert!(
        refused.contains("at most 1024 bytes of task results for one caller"),
        "{refused}"
    );
    let id = task_id(
        &client
            .call("bob", true, "items_work_slowly", json!({"ms": 20}))
            .await,
    );
    let done = client.poll_until("bob", &id, "completed").await;
    assert_eq!(
        finished(&done),
        "worked 20 ms",
        "bob's result is kept: {done}"
    );
}

#[tokio::test]
async fn limits_that_cannot_serve_are_refused_when_the_server_is_built() {
    let refused = Server::new(Registry::new(&TOOLS), Arc::new(Shelf::new()))
        .task_limits(TaskLimits {
            ttl: Duration::from_millis(10),
            ..TaskLimits::default()
        })
        .http("127.0.0.1:0".parse().unwrap())
        .await
        .unwrap_err();
    assert!(
        refused.to_string().contains(
            "a task's time to live must be at least 1 s, for a client to read its result; got 10 ms"
        ),
        "{refused}"
    );
}

#[tokio::test]
async fn a_tool_the_caller_may_not_call_is_refused_as_such_not_for_want_of_tasks() {
    let mut client = serve(TaskLimits::default());
    let refused = client
        .call("ann", false, "items_write_long", json!({}))
        .await;
    assert_eq!(refused["result"]["isError"], true, "{refused}");
    assert!(refused.get("error").is_none(), "{refused}");
}

#[tokio::test]
async fn malformed_task_requests_are_invalid_params_saying_what_to_send() {
    let mut client = serve(TaskLimits::default());
    let bad = client
        .send("ann", true, "tasks/get", json!({"taskId": 5}))
        .await;
    assert_eq!(bad["error"]["code"], -32602, "{bad}");
    assert_eq!(
        bad["error"]["message"],
        "Invalid params for tasks/get: they do not fit the request's schema; give `taskId` as a string"
    );
    let bad = client
        .send(
            "ann",
            true,
            "tasks/update",
            json!({"taskId": "x", "inputResponses": []}),
        )
        .await;
    assert_eq!(bad["error"]["code"], -32602, "{bad}");
    for method in ["tasks/result", "tasks/list"] {
        let gone = client
            .send("ann", true, method, json!({"taskId": "x"}))
            .await;
        assert_eq!(gone["error"]["code"], -32601, "{method}: {gone}");
    }
}
