//! Executing a call: from a found tool and JSON arguments to an MCP result.
//!
//! The registry decides whether a call may run (policy, enabled flag, pin);
//! this module runs it: confirmation, then the arguments, then the handler,
//! then the shaping of the output. Everything here answers with a result
//! (`isError: true` when refused or failed), because the MCP specification
//! wants errors a model can act on inside the result. A handler that panics
//! or fails internally is logged with the tool's name, and the caller is told
//! only to consult the server log.

use crate::call::handler::{Arguments, Failure, Handler, Invoke, Output};
use crate::call::result::{CallToolResult, GENERIC_FAILURE};
use crate::rules::confirm;
use crate::rules::info::ToolInfo;
use serde_json::{Map, Value};
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::task::{Context, Poll};

/// Runs a tool the registry let through: confirmation, arguments, handler,
/// result shaping.
pub(crate) async fn execute<C>(
    info: &ToolInfo<'_>,
    invoke: Invoke<'_, C>,
    wrap_output: bool,
    context: &C,
    mut arguments: Arguments,
) -> CallToolResult {
    if let Some(required) = &info.confirm
        && let Err(refusal) = confirm::take(info.name, required, &mut arguments)
    {
        return CallToolResult::error(refusal.to_string());
    }
    let outcome = match invoke {
        Invoke::Static(Handler::Sync(invoke)) => {
            catch_unwind(AssertUnwindSafe(|| invoke(context, arguments)))
        }
        Invoke::Static(Handler::Async(invoke)) => CatchUnwind(invoke(context, arguments)).await,
        Invoke::Dynamic(invoke, input_schema) => {
            let given = Value::Object(arguments.clone());
            if let Err(violations) = crate::rules::validate::validate(input_schema, &given) {
                let detail = violations
                    .iter()
                    .map(|v| {
                        let at = if v.pointer.is_empty() {
                            "/"
                        } else {
                            &v.pointer
                        };
                        format!("at `{at}`, {}", v.message)
                    })
                    .collect::<Vec<_>>()
                    .join("; ");
                return CallToolResult::error(format!(
                    "Invalid arguments for {}: {detail}.",
                    info.name
                ));
            }
            match catch_unwind(AssertUnwindSafe(|| invoke(context, arguments))) {
                Ok(future) => CatchUnwind(future).await,
                Err(panic) => Err(panic),
            }
        }
    };
    match outcome {
        Ok(Ok(output)) => shape(output, wrap_output),
        Ok(Err(Failure::Arguments(detail))) => {
            CallToolResult::error(format!("Invalid arguments for {}: {detail}", info.name))
        }
        Ok(Err(Failure::Tool(error))) => match error.message() {
            Some(message) => CallToolResult::error(message),
            None => {
                tracing::error!(tool = info.name, error = %error, "tool failed");
                CallToolResult::error(GENERIC_FAILURE)
            }
        },
        Err(panic) => {
            let message = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic without a message".to_owned());
            tracing::error!(tool = info.name, panic = %message, "tool panicked");
            CallToolResult::error(GENERIC_FAILURE)
        }
    }
}

fn shape(output: Output, wrap: bool) -> CallToolResult {
    match output {
        Output::Structured(value) if wrap => {
            let mut map = Map::new();
            map.insert("result".into(), value);
            CallToolResult::structured(Value::Object(map))
        }
        Output::Structured(value) => CallToolResult::structured(value),
        Output::Text(text) => CallToolResult::text(text),
        Output::Content(content) => CallToolResult {
            content,
            structured_content: None,
            is_error: false,
        },
    }
}

/// Polls a future inside `catch_unwind`, so a panicking async handler
/// becomes an error instead of tearing down the task that serves the call.
struct CatchUnwind<F>(F);

impl<F: Future + Unpin> Future for CatchUnwind<F> {
    type Output = std::thread::Result<F::Output>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let inner = &mut self.0;
        match catch_unwind(AssertUnwindSafe(|| Pin::new(&mut *inner).poll(cx))) {
            Ok(Poll::Pending) => Poll::Pending,
            Ok(Poll::Ready(value)) => Poll::Ready(Ok(value)),
            Err(panic) => Poll::Ready(Err(panic)),
        }
    }
}
