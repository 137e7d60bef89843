//! The tools the suite's Tasks scenarios (the `io.modelcontextprotocol/tasks`
//! extension) call: one that never runs as a task, and the long-running
//! ones that may or must.
//!
//! Each handler is written as any other: it sleeps, asks, fails or answers,
//! and does not know whether it runs as a task. The server decides per
//! call: a call from a client that declared the extension becomes a task
//! once it is still working, and its later questions become the task's
//! input requests; questions asked before any work are asked in the call
//! itself (so `test_tool_with_task` gathers its answer first, then becomes a
//! task). Names, arguments and texts are the suite's.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use std::time::Duration;
use tooltable::call::Elicitation;
use tooltable::{Call, CallError, ToolError, tool};

/// Whom to greet.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct GreetParams {
    /// The name to greet.
    pub name: String,
}

/// Greets someone at once; never a task.
#[tool(tier = read, world = closed)]
pub fn greet(params: GreetParams) -> String {
    format!("Hello, {}!", params.name)
}

/// How long to compute, and a label for the result.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct ComputeParams {
    /// Seconds to work; 0 answers at once.
    pub seconds: u64,
    /// A label echoed in the result.
    #[serde(default)]
    pub label: Option<String>,
}

/// Works for `seconds`, then answers; stops when cancelled.
#[tool(tier = read, world = closed, task = optional)]
pub async fn slow_compute(params: ComputeParams, call: &Call) -> Result<String, ToolError> {
    let label = params.label.unwrap_or_else(|| "compute".to_owned());
    if params.seconds > 0 {
        tokio::select! {
            () = tokio::time::sleep(Duration::from_secs(params.seconds)) => {}
            () = call.cancelled() => return Err(ToolError::new(format!("{label} was cancelled"))),
        }
    }
    Ok(format!("{label} computed in {} s", params.seconds))
}

/// Works for a second, then fails as a tool: the task completes with an
/// error result. It runs only as a task.
#[tool(tier = read, world = closed, task = required)]
pub async fn failing_job() -> Result<String, ToolError> {
    tokio::time::sleep(Duration::from_secs(1)).await;
    Err(ToolError::new("the job failed after a second of work"))
}

/// Works for a moment, then fails with a protocol error: the task fails.
#[tool(tier = read, world = closed, task = optional)]
pub async fn protocol_error_job() -> Result<String, ToolError> {
    tokio::time::sleep(Duration::from_millis(200)).await;
    Err(ToolError::protocol(CallError::new(
        -32603,
        "the job's backend broke down",
    )))
}

/// The file to delete.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct DeleteParams {
    /// The file's name.
    pub filename: String,
}

/// Looks the file up, then asks the person whether to delete it.
#[tool(tier = read, world = closed, task = optional)]
pub async fn confirm_delete(params: DeleteParams, call: &Call) -> Result<String, ToolError> {
    tokio::time::sleep(Duration::from_millis(100)).await;
    let schema = json!({
        "type": "object",
        "properties": {"confirm": {"type": "boolean", "description": "Delete the file"}},
        "required": ["confirm"]
    });
    let answer = call
        .elicit(Elicitation::form(
            format!("Delete {}?", params.filename),
            schema,
        ))
        .await?;
    let confirmed = answer.accepted()
        && answer
            .content
            .as_ref()
            .and_then(|c| c.get("confirm"))
            .and_then(|c| c.as_bool())
            == Some(true);
    Ok(if confirmed {
        format!("Deleted {}", params.filename)
    } else {
        format!("Kept {}", params.filename)
    })
}

/// Works for a moment, then asks two questions at once.
#[tool(tier = read, world = closed, task = optional)]
pub async fn multi_input(call: &Call) -> Result<String, ToolError> {
    tokio::time::sleep(Duration::from_millis(100)).await;
    let schema = json!({
        "type": "object",
        "properties": {"name": {"type": "string"}},
        "required": ["name"]
    });
    let (first, second) = tokio::join!(
        call.elicit(Elicitation::form("Your first name?", schema.clone())),
        call.elicit(Elicitation::form("Your second name?", schema)),
    );
    let name = |answer: tooltable::call::Elicited| {
        answer
            .content
            .and_then(|c| c.get("name").and_then(|n| n.as_str()).map(str::to_owned))
            .unwrap_or_default()
    };
    Ok(format!("Got {} and {}", name(first?), name(second?)))
}

/// Asks for a name first, then works on it as a task.
#[tool(tier = read, world = closed, task = required)]
pub async fn test_tool_with_task(call: &Call) -> Result<String, ToolError> {
    let schema = json!({
        "type": "object",
        "properties": {"name": {"type": "string"}},
        "required": ["name"]
    });
    let answer = call
        .elicit(Elicitation::form("What is your name?", schema).key("user_name"))
        .await?;
    let name = answer
        .content
        .as_ref()
        .and_then(|c| c.get("name"))
        .and_then(|n| n.as_str())
        .unwrap_or("stranger")
        .to_owned();
    tokio::time::sleep(Duration::from_millis(500)).await;
    Ok(format!("Hello, {name}, from a task"))
}
