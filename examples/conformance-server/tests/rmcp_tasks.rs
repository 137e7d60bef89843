//! The fixture's long-running tools driven by rmcp's own client, which
//! speaks the Tasks extension (`call_tool_once`, `get_task`, `update_task`):
//! in both protocol eras, a client that declared the extension gets a task
//! it polls to its end and answers through, and one that did not gets the
//! result, or -32021 for a tool that runs only as a task.

use rmcp::ClientHandler;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ClientCapabilities, ClientConfig, ErrorCode,
    GetTaskParams, Implementation, InputResponses, ProtocolVersion, TaskPayload, UpdateTaskParams,
};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RoleClient, RunningService};
use serde_json::{Value, json};
use std::time::Duration;

#[derive(Clone)]
struct Client {
    tasks: bool,
}

impl ClientHandler for Client {
    fn get_info(&self) -> ClientConfig {
        let capabilities = if self.tasks {
            ClientCapabilities::builder()
                .enable_elicitation()
                .enable_tasks()
                .build()
        } else {
            ClientCapabilities::builder().enable_elicitation().build()
        };
        ClientConfig::new(capabilities, Implementation::new("rmcp-tasks-test", "0"))
    }
}

fn lifecycles() -> [ClientLifecycleMode; 2] {
    [
        ClientLifecycleMode::Initialize,
        ClientLifecycleMode::Discover {
            preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        },
    ]
}

async fn connect(
    tasks: bool,
    lifecycle: ClientLifecycleMode,
) -> RunningService<RoleClient, Client> {
    let (server_side, client_side) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        let (read, write) = tokio::io::split(server_side);
        conformance_server::server()
            .handle_signals(false)
            .serve_io(read, write)
            .await
    });
    Client { tasks }
        .serve_with_lifecycle(client_side, lifecycle)
        .await
        .expect("the client connects")
}

fn call(tool: &str, arguments: Value) -> CallToolRequestParams {
    CallToolRequestParams::new(tool.to_owned())
        .with_arguments(arguments.as_object().unwrap().clone())
}

async fn poll(
    client: &RunningService<RoleClient, Client>,
    id: &str,
    until: fn(&TaskPayload) -> bool,
) -> TaskPayload {
    for _ in 0..200 {
        let got = client
            .get_task(GetTaskParams::new(id))
            .await
            .expect("tasks/get");
        if until(&got.task.payload) {
            return got.task.payload;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("task {id} did not get there");
}

fn text(result: &serde_json::Map<String, Value>) -> String {
    result["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

#[tokio::test]
async fn rmcp_s_client_polls_a_task_to_its_end_and_answers_its_question_in_both_eras() {
    for lifecycle in lifecycles() {
        let era = format!("{lifecycle:?}");
        let client = connect(true, lifecycle).await;
        let started = client
            .call_tool_once(call("slow_compute", json!({"seconds": 1, "label": "sum"})))
            .await
            .expect("tools/call");
        let CallToolResponse::Task(created) = started else {
            panic!("{era}: slow_compute is a task: {started:?}");
        };
        let done = poll(&client, &created.task.task_id, |p| {
            matches!(p, TaskPayload::Completed { .. })
        })
        .await;
        let TaskPayload::Completed { result } = done else {
            unreachable!()
        };
        assert_eq!(text(&result), "sum computed in 1 s", "{era}");

        let started = client
            .call_tool_once(call("confirm_delete", json!({"filename": "a.txt"})))
            .await
            .expect("tools/call");
        let CallToolResponse::Task(created) = started else {
            panic!("{era}: confirm_delete is a task: {started:?}");
        };
        let id = created.task.task_id;
        let asking = poll(&client, &id, |p| {
            matches!(p, TaskPayload::InputRequired { .. })
        })
        .await;
        let TaskPayload::InputRequired { input_requests } = asking else {
            unreachable!()
        };
        let key = input_requests.keys().next().unwrap().clone();
        let answers: InputResponses = serde_json::from_value(
            json!({key: {"action": "accept", "content": {"confirm": true}}}),
        )
        .unwrap();
        client
            .update_task(UpdateTaskParams::new(id.clone(), answers))
            .await
            .expect("tasks/update");
        let done = poll(&client, &id, |p| matches!(p, TaskPayload::Completed { .. })).await;
        let TaskPayload::Completed { result } = done else {
            unreachable!()
        };
        assert_eq!(text(&result), "Deleted a.txt", "{era}");
        client.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn a_client_without_tasks_gets_results_and_a_tool_that_needs_a_task_refuses_it() {
    for lifecycle in lifecycles() {
        let era = format!("{lifecycle:?}");
        let client = connect(false, lifecycle).await;
        let answered = client
            .call_tool_once(call("slow_compute", json!({"seconds": 1})))
            .await
            .expect("tools/call");
        assert!(
            matches!(answered, CallToolResponse::Complete(_)),
            "{era}: {answered:?}"
        );
        let refused = client
            .call_tool_once(call("failing_job", json!({})))
            .await
            .expect_err("a tool that runs only as a task");
        let rmcp::ServiceError::McpError(error) = refused else {
            panic!("{era}: {refused:?}");
        };
        assert_eq!(error.code, ErrorCode(-32021), "{era}");
        assert_eq!(
            error.data,
            Some(
                json!({"requiredCapabilities": {"extensions": {"io.modelcontextprotocol/tasks": {}}}})
            ),
            "{era}"
        );
        client.cancel().await.unwrap();
    }
}
