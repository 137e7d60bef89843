//! Tasks on the wire: the board's tasks as the Tasks extension's messages,
//! and a task as the channel a running handler asks through.
//!
//! Once the server makes a call a task, the handler's questions become the
//! task's `inputRequests` (answered by `tasks/update`), and a progress
//! message becomes the task's `statusMessage`: the extension carries no
//! notifications for a task's call.

use crate::call::ask::AskError;
use crate::call::handle::{Channel, Notice};
use crate::call::handler::BoxFuture;
use crate::registry::tasks::{Status, TaskView, Tasks};
use rmcp::ErrorData;
use rmcp::model::{CreateTaskResult, DetailedTask, InputRequests, Task, TaskPayload, TaskStatus};
use serde_json::{Value, json};

/// A running task, as its handler's way to the client.
pub(crate) struct TaskChannel {
    pub tasks: Tasks,
    pub id: String,
}

impl Channel for TaskChannel {
    fn notify(&self, notice: Notice) -> BoxFuture<'_, ()> {
        if let Notice::Progress {
            progress,
            total,
            message,
            ..
        } = notice
        {
            let message = message.unwrap_or_else(|| match total {
                Some(total) => format!("{progress} of {total}"),
                None => format!("{progress} done"),
            });
            return Box::pin(self.tasks.say(&self.id, message));
        }
        Box::pin(std::future::ready(()))
    }

    fn request(
        &self,
        key: &str,
        method: &'static str,
        params: Value,
    ) -> BoxFuture<'_, Result<Value, AskError>> {
        let key = key.to_owned();
        Box::pin(async move {
            self.tasks
                .ask(&self.id, &key, json!({"method": method, "params": params}))
                .await
                .ok_or(AskError::Cancelled)
        })
    }
}

fn status(status: &Status) -> TaskStatus {
    match status {
        Status::Working => TaskStatus::Working,
        Status::InputRequired(_) => TaskStatus::InputRequired,
        Status::Completed(_) => TaskStatus::Completed,
        Status::Failed(_) => TaskStatus::Failed,
        Status::Cancelled => TaskStatus::Cancelled,
    }
}

fn task(view: &TaskView) -> Task {
    let mut task = Task::new(
        view.id.clone(),
        status(&view.status),
        view.created_at.clone(),
        view.updated_at.clone(),
    )
    .with_ttl_ms(view.ttl_ms)
    .with_poll_interval_ms(view.poll_interval_ms);
    if let Some(message) = &view.status_message {
        task = task.with_status_message(message.clone());
    }
    task
}

/// The answer to the `tools/call` that made the task.
pub(crate) fn created(view: &TaskView) -> CreateTaskResult {
    CreateTaskResult::new(task(view))
}

/// The task as `tasks/get` shows it.
pub(crate) fn detailed(view: TaskView) -> Result<DetailedTask, ErrorData> {
    let base = task(&view);
    let payload = match view.status {
        Status::Working => TaskPayload::Working,
        Status::InputRequired(open) => {
            let requests: InputRequests =
                serde_json::from_value(Value::Object(open.into_iter().collect())).map_err(|e| {
                    tracing::error!(task = %view.id, error = %e, "a task's question does not fit rmcp's input request");
                    ErrorData::internal_error(
                        "the task's questions could not be sent; consult the server log",
                        None,
                    )
                })?;
            TaskPayload::InputRequired {
                input_requests: requests,
            }
        }
        Status::Completed(result) => TaskPayload::Completed { result },
        Status::Failed(error) => TaskPayload::Failed { error },
        Status::Cancelled => TaskPayload::Cancelled,
    };
    Ok(DetailedTask::new(base, payload))
}
