//! Executing a call: from a found tool and JSON arguments to an MCP result.
//!
//! The registry decides whether a call may run (policy, enabled flag, pin);
//! this module runs it: confirmation, then the arguments, then the handler,
//! then the shaping of the output. Everything here answers with a result
//! (`isError: true` when refused or failed), because the MCP specification
//! wants errors a model can act on inside the result. A handler that panics
//! or fails internally is logged with the tool's name, and the caller is told
//! only to consult the server log.

use crate::confirm;
use crate::content::Content;
use crate::error::ToolError;
use crate::table::ToolInfo;
use serde_json::{Map, Value};
use std::fmt;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::task::{Context, Poll};

/// The arguments of a call: a JSON object.
pub type Arguments = Map<String, Value>;

/// A boxed, sendable future, as async handlers return.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// What invoking a handler gives: its output, or why it failed.
pub type Outcome = Result<Output, Failure>;

/// How a tool's generated shim invokes its handler.
pub enum Handler<C: 'static> {
    /// A synchronous handler.
    Sync(fn(&C, Arguments) -> Outcome),
    /// An asynchronous handler.
    Async(for<'a> fn(&'a C, Arguments) -> BoxFuture<'a, Outcome>),
}

/// The handler of a tool registered at run time by a provider.
pub type DynHandler<C> =
    std::sync::Arc<dyn for<'a> Fn(&'a C, Arguments) -> BoxFuture<'a, Outcome> + Send + Sync>;

/// A handler of either kind.
pub(crate) enum Invoke<'h, C: 'static> {
    /// Baked into the static table.
    Static(&'h Handler<C>),
    /// Registered by a provider: its arguments are checked against its
    /// input schema, since no parameter type stands between them and the handler.
    Dynamic(&'h DynHandler<C>, &'h Value),
}

/// A handler's successful output, before it is shaped into a result.
#[derive(Debug)]
pub enum Output {
    /// A serialized value: served as `structuredContent` and as JSON text.
    Structured(Value),
    /// Text only.
    Text(String),
    /// Raw content blocks.
    Content(Vec<Content>),
}

/// Why a handler produced no output.
#[derive(Debug)]
pub enum Failure {
    /// The arguments did not deserialize into the parameter type; the text
    /// names the field and what was expected.
    Arguments(String),
    /// The handler returned an error.
    Tool(ToolError),
}

/// The result of a `tools/call`, shaped as MCP's `CallToolResult`.
#[derive(Clone, Debug, PartialEq)]
pub struct CallToolResult {
    /// The content blocks (for structured output, the same JSON as text).
    pub content: Vec<Content>,
    /// The structured value, for tools that return one.
    pub structured_content: Option<Value>,
    /// Whether the call failed or was refused.
    pub is_error: bool,
}

impl CallToolResult {
    /// A successful result holding one text block.
    pub fn text(text: impl Into<String>) -> CallToolResult {
        CallToolResult {
            content: vec![Content::text(text)],
            structured_content: None,
            is_error: false,
        }
    }

    /// A failed result holding one text block, written for the caller.
    pub fn error(text: impl Into<String>) -> CallToolResult {
        CallToolResult {
            is_error: true,
            ..CallToolResult::text(text)
        }
    }

    /// A successful result with a structured value and its JSON text.
    pub fn structured(value: Value) -> CallToolResult {
        // `to_string` writes straight into a buffer; `Value`'s `Display` goes
        // through a formatter adapter and is several times slower.
        let text = serde_json::to_string(&value).unwrap_or_default();
        CallToolResult {
            content: vec![Content::text(text)],
            structured_content: Some(value),
            is_error: false,
        }
    }

    /// The result's MCP JSON.
    pub fn to_json(&self) -> Value {
        let mut map = Map::new();
        map.insert(
            "content".into(),
            Value::Array(self.content.iter().map(Content::to_json).collect()),
        );
        if let Some(value) = &self.structured_content {
            map.insert("structuredContent".into(), value.clone());
        }
        map.insert("isError".into(), Value::Bool(self.is_error));
        Value::Object(map)
    }

    /// The text of the first text block, if there is one.
    pub fn first_text(&self) -> Option<&str> {
        self.content.iter().find_map(|c| match c {
            Content::Text { text } => Some(text.as_str()),
            _ => None,
        })
    }
}

/// A call that is not a tool call at all: a protocol error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallError {
    code: i32,
    message: String,
}

impl CallError {
    /// JSON-RPC's "Invalid params".
    pub const INVALID_PARAMS: i32 = -32602;

    /// The error for a name that no tool has.
    pub fn unknown_tool(name: &str) -> CallError {
        CallError {
            code: Self::INVALID_PARAMS,
            message: format!("Unknown tool: {name}"),
        }
    }

    /// An invalid-params error with its own message.
    pub fn invalid_params(message: impl Into<String>) -> CallError {
        CallError {
            code: Self::INVALID_PARAMS,
            message: message.into(),
        }
    }

    /// The JSON-RPC error code.
    pub const fn code(&self) -> i32 {
        self.code
    }

    /// The JSON-RPC error message.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for CallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (JSON-RPC {})", self.message, self.code)
    }
}

impl std::error::Error for CallError {}

/// What the caller is told when a handler panics or fails internally.
pub const GENERIC_FAILURE: &str = "Tool execution failed; consult the server log.";

/// Runs a tool the registry let through: confirmation, arguments, handler,
/// result shaping.
pub(crate) async fn execute<C>(
    info: &ToolInfo<'_>,
    invoke: Invoke<'_, C>,
    wrap_output: bool,
    context: &C,
    mut arguments: Arguments,
) -> CallToolResult {
    if let Some(consequence) = info.confirm
        && let Err(refusal) = confirm::take(info.name, consequence, &mut arguments)
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
            if let Err(violations) = crate::validate::validate(input_schema, &given) {
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
