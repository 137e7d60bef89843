//! From JSON arguments to a handler's parameters, and from what it returns
//! to an [`Outcome`]: the functions a `#[tool]` shim calls.

use crate::call::content::IntoContent;
use crate::call::error::ToolError;
use crate::call::handler::{Arguments, Failure, Outcome, Output};
use crate::call::result::{CallToolResult, Structured};
use crate::rules::quote;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// Deserializes the arguments into the parameter type, naming the field
/// that did not fit. The common case (arguments that fit) takes serde's
/// plain path; only a failure pays for tracking the path to word the error.
pub fn parse_args<P: DeserializeOwned>(arguments: Arguments) -> Result<P, Failure> {
    let value = Value::Object(arguments);
    P::deserialize(&value).map_err(|_| argument_failure::<P>(&value))
}

/// Whether the arguments deserialize into the parameter type, worded as
/// [`parse_args`] words a failure: a confirming call's arguments are
/// checked before a person is asked to allow it.
pub fn check_args<P: DeserializeOwned>(arguments: &Arguments) -> Result<(), Failure> {
    let value = Value::Object(arguments.clone());
    P::deserialize(&value)
        .map(drop)
        .map_err(|_| argument_failure::<P>(&value))
}

fn argument_failure<P: DeserializeOwned>(value: &Value) -> Failure {
    match serde_path_to_error::deserialize::<_, P>(value) {
        Ok(_) => Failure::Arguments("the arguments do not fit the parameter type.".into()),
        // Both the path (member names) and serde's message (which quotes
        // the value that did not fit) come from the request.
        Err(error) => {
            let path = error.path().to_string();
            let inner = error.into_inner().to_string();
            let inner = quote::text(&inner);
            Failure::Arguments(if path == "." {
                format!("{inner}.")
            } else {
                format!("at `{}`, {inner}.", quote::text(&path))
            })
        }
    }
}

/// Checks that a tool without parameters was given no arguments.
pub fn no_args(arguments: &Arguments) -> Result<(), Failure> {
    match arguments.keys().next() {
        None => Ok(()),
        Some(first) => Err(Failure::Arguments(format!(
            "this tool takes no arguments, but was given `{}`.",
            quote::text(first)
        ))),
    }
}

/// Shapes a serializable return value as structured output.
pub fn structured<T: Serialize + ?Sized>(value: &T) -> Outcome {
    serde_json::to_value(value)
        .map(Output::Structured)
        .map_err(|error| Failure::Tool(ToolError::internal(error)))
}

/// Shapes a structured return value with a text of its own.
pub fn summarized<T: Serialize>(value: Structured<T>) -> Outcome {
    serde_json::to_value(&value.value)
        .map(|structured| Output::Summarized(structured, value.text))
        .map_err(|error| Failure::Tool(ToolError::internal(error)))
}

/// Shapes a whole result the handler built.
pub fn result(value: CallToolResult) -> Outcome {
    Ok(Output::Result(value))
}

/// Shapes a text return value.
pub fn text(value: impl Into<String>) -> Outcome {
    Ok(Output::Text(value.into()))
}

/// Shapes raw content blocks.
pub fn content(value: impl IntoContent) -> Outcome {
    Ok(Output::Content(value.into_content()))
}

/// What a handler returned, before the shim knows whether it is a `Result`.
///
/// The `#[tool]` macro sees only how the return type is spelt, so a `Result`
/// reached through an alias (`type Fallible<T> = Result<T, String>`) looks
/// like any other value to it. The shim splits every value through this
/// wrapper instead: the inherent [`Returned::split`] of a `Result` wins over
/// [`Split::split`] of everything else, so the compiler, which sees through
/// aliases, decides, and an error is never served as a success.
pub struct Returned<T>(pub T);

impl<T, E> Returned<Result<T, E>> {
    /// A `Result` is the handler's value or its error.
    pub fn split(self) -> Result<T, E> {
        self.0
    }
}

/// Splits a value that is not a `Result`: all of it is the handler's value.
pub trait Split {
    /// The handler's value.
    type Value;
    /// The value, never an error.
    fn split(self) -> Result<Self::Value, std::convert::Infallible>;
}

impl<T> Split for Returned<T> {
    type Value = T;
    fn split(self) -> Result<T, std::convert::Infallible> {
        Ok(self.0)
    }
}

/// A handler's error, on its way to becoming the tool's failure.
pub struct Raised<E>(pub E);

/// How a handler's error becomes the tool's failure: [`ToolError`] and what
/// converts into it (any standard error, as an internal error). `String` and
/// `&str` (a message for the caller) and, with the `anyhow` and `eyre`
/// features, `anyhow::Error` and `eyre::Report` (the message chain for the
/// caller, the error logged) have
/// inherent methods of the same name on [`Raised`], which the shim's method
/// call prefers: they cannot implement this trait beside the blanket
/// implementation, which the standard library could one day overlap.
pub trait IntoFailure {
    /// The tool's failure.
    fn into_failure(self) -> Failure;
}

impl<E: Into<ToolError>> IntoFailure for Raised<E> {
    fn into_failure(self) -> Failure {
        Failure::Tool(self.0.into())
    }
}

impl Raised<String> {
    /// A `String` error is a message for the caller, as `ToolError::new`.
    pub fn into_failure(self) -> Failure {
        Failure::Tool(ToolError::new(self.0))
    }
}

impl Raised<&str> {
    /// A `&str` error is a message for the caller, as `ToolError::new`.
    pub fn into_failure(self) -> Failure {
        Failure::Tool(ToolError::new(self.0))
    }
}

#[cfg(feature = "anyhow")]
impl Raised<anyhow::Error> {
    /// An `anyhow::Error` is its message chain for the caller (never its
    /// backtrace); the error itself is logged with the tool's name.
    pub fn into_failure(self) -> Failure {
        let message = format!("{:#}", self.0);
        Failure::Tool(ToolError::reported(message, self.0.into()))
    }
}

#[cfg(feature = "eyre")]
impl Raised<eyre::Report> {
    /// An `eyre::Report` is its message chain for the caller (never its
    /// backtrace or span trace); the report itself is logged with the
    /// tool's name.
    pub fn into_failure(self) -> Failure {
        let message = self
            .0
            .chain()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(": ");
        Failure::Tool(ToolError::reported(message, self.0.into()))
    }
}
