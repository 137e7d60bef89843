//! What a handler is: the contract between a `#[tool]` shim and the runtime.
//!
//! The macro writes, beside each handler, a function that turns JSON
//! arguments into the handler's parameters, calls it and shapes what it
//! returns into an [`Outcome`]. These are the types of that function; the
//! table stores it, and the call path (`call::execute`) runs it.

use crate::call::content::Content;
use crate::call::error::ToolError;
use crate::call::handle::Call;
use crate::rules::validate::{SchemaError, Validator};
use serde_json::{Map, Value};
use std::future::Future;
use std::pin::Pin;

/// The arguments of a call: a JSON object.
pub type Arguments = Map<String, Value>;

/// A boxed, sendable future, as async handlers return.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// What invoking a handler gives: its output, or why it failed.
pub type Outcome = Result<Output, Failure>;

/// How a tool's generated shim invokes its handler: with the context, the
/// arguments and the per-call handle (which the handler may ignore).
pub enum Handler<C: 'static> {
    /// A synchronous handler.
    Sync(fn(&C, Arguments, &Call) -> Outcome),
    /// An asynchronous handler.
    Async(for<'a> fn(&'a C, Arguments, &'a Call) -> BoxFuture<'a, Outcome>),
}

/// A baked handler's own parsing of its arguments, without running it.
pub type Check = fn(&Arguments) -> Result<(), Failure>;

/// The handler of a tool registered at run time by a provider.
pub type DynHandler<C> = std::sync::Arc<
    dyn for<'a> Fn(&'a C, Arguments, &'a Call) -> BoxFuture<'a, Outcome> + Send + Sync,
>;

/// A handler of either kind, with the validators its arguments and results
/// go through.
pub(crate) enum Invoke<'h, C: 'static> {
    /// Baked into the static table.
    Static {
        handler: &'h Handler<C>,
        /// The input schema's validator, when the schema says more than
        /// the parameter type enforces.
        validator: Option<&'h Result<Validator, SchemaError>>,
        /// A confirming tool's parsing of its arguments (the shim's).
        check: Option<Check>,
    },
    /// Registered by a provider: its arguments are always checked against
    /// its input schema (no parameter type stands between them and the
    /// handler), and its structured results against its output schema.
    Dynamic {
        handler: &'h DynHandler<C>,
        input: &'h Validator,
        output: Option<&'h Validator>,
    },
}

/// A handler's successful output, before it is shaped into a result.
#[derive(Debug)]
pub enum Output {
    /// A serialized value: served as `structuredContent` and as JSON text.
    Structured(Value),
    /// A serialized value served as `structuredContent`, with a text of the
    /// handler's own (a summary) for the content block instead of the JSON.
    Summarized(Value, String),
    /// Text only.
    Text(String),
    /// Raw content blocks.
    Content(Vec<Content>),
    /// A whole result the handler built, served as it is.
    Result(crate::call::result::CallToolResult),
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
