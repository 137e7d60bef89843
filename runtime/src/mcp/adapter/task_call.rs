//! A call that may become a task, from its request to its ending.
//!
//! The Tasks extension lets the server decide, call by call, whether a
//! call runs as a task: the tool allows it and the client declared the
//! extension. Such a call runs as any call until it first waits; one still
//! working then becomes a task (created in the task home, answered with its
//! handle), runs on beyond the request, and leaves its ending in the task
//! for `tasks/get`. What the extension's messages look like is
//! `mcp/tasks.rs`; where tasks are kept and who owns them is
//! `registry/tasks/`.

use super::{CANCEL_GRACE, McpServer, cancelled, era_of, protocol_error, to_rmcp_result, too_long};
use crate::call::execute::HandlerContext;
use crate::call::handle::{Call, Era, TaskSlot};
use crate::call::handler::Arguments;
use crate::call::result::{CallError, CallToolResult, Reply};
use crate::mcp::tasks::{self, TaskChannel};
use crate::registry::policy::Caller;
use crate::registry::registry::Dispatched;
use crate::registry::tasks::{Ending, Owner, Reservation};
use crate::rules::quote;
use crate::rules::task::TaskSupport;
use rmcp::ErrorData;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult as McpCallToolResult,
    ClientCapabilities,
};
use rmcp::service::{RequestContext, RoleServer};
use serde_json::Value;
use std::sync::Arc;

impl<C: Send + Sync + 'static> McpServer<C> {
    /// Who owns the tasks a caller creates: the token's subject, else the
    /// `initialize`-era session; a caller with neither on 2026-07-28 holds
    /// its tasks by their unguessable ids alone, and is bound only by the
    /// limits on all tasks ([`Owner`]).
    pub(super) fn task_owner(
        &self,
        caller: &Caller,
        context: &RequestContext<RoleServer>,
    ) -> Owner {
        match (&caller.identity().subject, era_of(context)) {
            (Some(subject), _) => Owner::named(format!("subject:{subject}")),
            (None, Era::Legacy) => Owner::named(format!("session:{}", self.session.id())),
            (None, Era::Current) => Owner::anonymous(),
        }
    }

    /// Whether this call may become a task, as the extension has the server
    /// decide: the tool allows it, and the request declared the extension.
    /// A place is reserved for it; a tool that must run as a task is refused
    /// when the client cannot take one.
    pub(super) async fn task_place(
        &self,
        tool: &str,
        caller: &Caller,
        context: &RequestContext<RoleServer>,
    ) -> Result<Option<Reservation>, ErrorData> {
        if !self.serves_tasks {
            return Ok(None);
        }
        let Some(entry) = self.registry.get(tool) else {
            return Ok(None);
        };
        let support = entry.info().task;
        // A tool the caller may not call is refused by the call itself, in
        // its own terms (or as unknown), never told apart by its task support.
        if !support.allows_task() || !self.registry.may_call(&entry, caller) {
            return Ok(None);
        }
        let declared = context
            .client_capabilities()
            .is_some_and(|c| c.supports_tasks());
        if !declared {
            return match support {
                TaskSupport::Required => Err(ErrorData::missing_required_client_capability(
                    ClientCapabilities::builder().enable_tasks().build(),
                )),
                _ => Ok(None),
            };
        }
        let place = self.tasks.reserve(&self.task_owner(caller, context)).await;
        if place.is_none() && support == TaskSupport::Required {
            return Err(ErrorData::invalid_request(
                format!(
                    "{} runs only as a task, and this caller already has as many tasks as this server keeps for one caller; wait for one to finish or expire",
                    quote::text(tool)
                ),
                None,
            ));
        }
        Ok(place)
    }

    /// Runs a call that may become a task. It runs as any call until it
    /// first waits: a call that finishes at once, or asks its questions
    /// first, is answered as usual (so questions asked before any work are
    /// resolved in the request, as the extension recommends); one that is
    /// still working becomes a task, answered with its handle, and runs on
    /// beyond the request.
    pub(super) async fn call_as_task(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
        caller: Caller,
        place: Reservation,
    ) -> Result<CallToolResponse, ErrorData> {
        let (answer, answered) = tokio::sync::oneshot::channel();
        let server = self.share();
        tokio::spawn(async move {
            server
                .run_task(request, context, caller, place, answer)
                .await;
        });
        answered.await.unwrap_or_else(|_| {
            Err(ErrorData::internal_error(
                "the call stopped before it was answered; consult the server log",
                None,
            ))
        })
    }

    async fn run_task(
        self,
        mut request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
        caller: Caller,
        place: Reservation,
        answer: tokio::sync::oneshot::Sender<Result<CallToolResponse, ErrorData>>,
    ) {
        let name = request.name.to_string();
        let arguments = request.arguments.take().unwrap_or_default();
        let admitted = match self.admission.admit(&caller, &name) {
            Ok(admitted) => admitted,
            Err(refusal) => {
                tracing::info!(tool = %quote::text(&name), %refusal, "a call was not admitted");
                let _ = answer.send(Ok(to_rmcp_result(CallToolResult::error(refusal)).into()));
                return;
            }
        };
        // The task's own signal: the request's ends with the request.
        let cancel = tokio_util::sync::CancellationToken::new();
        let slot = TaskSlot::default();
        let mut run = TaskRun {
            place: Some(place),
            answer: Some(answer),
            task: None,
        };
        // A confirming tool becomes a task at once: the person's consent is
        // the task's first question, kept by the server while they decide.
        if self
            .registry
            .get(&name)
            .is_some_and(|entry| entry.info().confirm.is_some())
        {
            self.become_task(&name, &mut run, &cancel, &slot).await;
        }
        let already_task = run.task.is_some();
        let handle = |takes_call: bool, arguments: &Arguments| {
            if !takes_call {
                return Ok(Call::detached());
            }
            let rounds = match era_of(&context) {
                Era::Current if !already_task => Some(self.resume(&request, arguments)?),
                _ => None,
            };
            Ok(self.call_handle(&context, &caller, rounds, cancel.clone(), slot.clone()))
        };
        let dispatched = self.registry.dispatch(
            HandlerContext::served(&self.context, Some(&admitted)),
            &caller,
            self.registry.get(&name),
            &name,
            arguments,
            handle,
        );
        let running = match dispatched {
            Dispatched::Done(reply) => return self.end_task(&name, run, Some(reply)).await,
            Dispatched::Running(running) => running,
        };
        tokio::pin!(running);
        if run.task.is_none() {
            let first =
                std::future::poll_fn(|cx| std::task::Poll::Ready(running.as_mut().poll(cx))).await;
            if let std::task::Poll::Ready(reply) = first {
                return self.end_task(&name, run, Some(reply)).await;
            }
            self.become_task(&name, &mut run, &cancel, &slot).await;
        }
        let limit = self.settings.call_timeout;
        let reply = tokio::select! {
            reply = tokio::time::timeout(limit, &mut running) => Some(match reply {
                Ok(reply) => reply,
                Err(_) => {
                    cancel.cancel();
                    let _ = tokio::time::timeout(CANCEL_GRACE, &mut running).await;
                    tracing::warn!(tool = %quote::text(&name), limit_ms = limit.as_millis() as u64, "a call took too long and was stopped");
                    Ok(Reply::Complete(too_long(&name, self.reads(&name), limit)))
                }
            }),
            () = cancel.cancelled(), if run.task.is_some() => {
                // Cancelled by the caller or at the end of its time to live:
                // the handler hears of it, and gets a moment to stop.
                let _ = tokio::time::timeout(CANCEL_GRACE, &mut running).await;
                None
            }
            () = context.ct.cancelled(), if run.task.is_none() => {
                // A call that stayed an ordinary one ends with its request.
                cancel.cancel();
                let _ = tokio::time::timeout(CANCEL_GRACE, &mut running).await;
                None
            }
        };
        self.end_task(&name, run, reply).await;
    }

    /// Makes the call a task: created durably, its questions routed to it,
    /// and its handle sent as the call's answer. When the store refuses, the
    /// call goes on as an ordinary one.
    async fn become_task(
        &self,
        name: &str,
        run: &mut TaskRun,
        cancel: &tokio_util::sync::CancellationToken,
        slot: &TaskSlot,
    ) {
        let Some(place) = run.place.take() else {
            return;
        };
        match self.tasks.create(place, cancel.clone()).await {
            Ok(task) => {
                let _ = slot.set(Arc::new(TaskChannel {
                    tasks: self.tasks.clone(),
                    id: task.id.clone(),
                }));
                tracing::info!(tool = %quote::text(name), task = %task.id, "a call runs as a task");
                // A client gone before it heard of the task does not stop
                // it: the work is underway, and the id is in the log.
                if let Some(answer) = run.answer.take() {
                    let _ = answer.send(Ok(CallToolResponse::Task(tasks::created(&task))));
                }
                run.task = Some(task.id);
            }
            Err(refusal) => {
                tracing::warn!(tool = %quote::text(name), %refusal, "a call could not become a task; it runs as an ordinary call");
            }
        }
    }

    /// Ends a call that could have been a task: its task keeps the ending,
    /// or, when it never became one, the request is answered.
    async fn end_task(&self, name: &str, run: TaskRun, reply: Option<Result<Reply, CallError>>) {
        match (run.task, run.answer) {
            (Some(id), _) => {
                let ending = reply.map(|reply| self.ending(name, reply));
                self.tasks.finish(&id, ending).await;
            }
            (None, Some(answer)) => {
                let reply = reply.unwrap_or_else(|| Ok(Reply::Complete(cancelled(name))));
                let _ = answer.send(self.answer(name, reply));
            }
            (None, None) => {}
        }
    }

    /// How a task's call ended, as the task keeps it.
    fn ending(&self, tool: &str, reply: Result<Reply, CallError>) -> Ending {
        match reply {
            Ok(Reply::Complete(result)) => {
                result_ending(to_rmcp_result(self.bounded(tool, result)))
            }
            Ok(Reply::InputRequired(_)) => {
                tracing::error!(tool = %quote::text(tool), "a task ended a round; its questions should have gone to the task");
                Ending::Failed(error_object(&ErrorData::internal_error(
                    "the task could not ask its question; consult the server log",
                    None,
                )))
            }
            Err(error) => Ending::Failed(error_object(&protocol_error(error))),
        }
    }

    pub(super) fn task_refused(refusal: crate::registry::tasks::TaskRefusal) -> ErrorData {
        match refusal {
            crate::registry::tasks::TaskRefusal::Unknown(_) => {
                ErrorData::invalid_params(refusal.to_string(), None)
            }
            #[cfg(feature = "redis")]
            crate::registry::tasks::TaskRefusal::Unreachable(_) => {
                ErrorData::internal_error(refusal.to_string(), None)
            }
        }
    }
}

/// A call on its way to being a task: the place reserved for it, the
/// request's answer until it is sent, and the task once there is one.
struct TaskRun {
    place: Option<Reservation>,
    answer: Option<tokio::sync::oneshot::Sender<Result<CallToolResponse, ErrorData>>>,
    task: Option<String>,
}

fn result_ending(result: McpCallToolResult) -> Ending {
    match serde_json::to_value(result) {
        Ok(Value::Object(mut map)) => {
            // The result is inlined in a `tasks/get` answer, whose own
            // `resultType` is the one that counts.
            map.remove("resultType");
            Ending::Completed(map)
        }
        _ => Ending::Failed(error_object(&ErrorData::internal_error(
            "the task's result could not be kept; consult the server log",
            None,
        ))),
    }
}

fn error_object(error: &ErrorData) -> serde_json::Map<String, Value> {
    let mut map = serde_json::Map::new();
    map.insert("code".into(), error.code.0.into());
    map.insert("message".into(), error.message.to_string().into());
    if let Some(data) = &error.data {
        map.insert("data".into(), data.clone());
    }
    map
}
