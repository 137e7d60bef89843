//! What generated code needs and users do not: the traits the `#[tool]`
//! macro's shims implement and the helpers they call. Not a stable API.

pub use crate::call::{Arguments, BoxFuture, Failure, Handler, Outcome, Output};
pub use crate::content::IntoContent;
pub use crate::error::ToolError;
pub use crate::fingerprint::Fingerprint;
pub use crate::table::{Table, Tool, ToolInfo};
pub use crate::tier::{Tier, World};
pub use serde_json;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// Implemented by the shim of a free-function tool, on its marker type.
pub trait Shim<C: 'static> {
    /// How to invoke the handler.
    const HANDLER: Handler<C>;
}

/// Implemented on a free-function tool's marker type when the handler takes
/// a context, so the table can name the context type without a path to it.
pub trait Context {
    /// The context type.
    type Type: 'static;
}

/// Deserializes the arguments into the parameter type, naming the field
/// that did not fit.
pub fn parse_args<P: DeserializeOwned>(arguments: Arguments) -> Result<P, Failure> {
    serde_path_to_error::deserialize(Value::Object(arguments)).map_err(|error| {
        let path = error.path().to_string();
        let inner = error.into_inner();
        Failure::Arguments(if path == "." {
            format!("{inner}.")
        } else {
            format!("at `{path}`, {inner}.")
        })
    })
}

/// Checks that a tool without parameters was given no arguments.
pub fn no_args(arguments: &Arguments) -> Result<(), Failure> {
    match arguments.keys().next() {
        None => Ok(()),
        Some(first) => Err(Failure::Arguments(format!(
            "this tool takes no arguments, but was given `{first}`."
        ))),
    }
}

/// Shapes a serializable return value as structured output.
pub fn structured<T: Serialize + ?Sized>(value: &T) -> Outcome {
    serde_json::to_value(value)
        .map(Output::Structured)
        .map_err(|error| Failure::Tool(ToolError::internal(error)))
}

/// Shapes a text return value.
pub fn text(value: impl Into<String>) -> Outcome {
    Ok(Output::Text(value.into()))
}

/// Shapes raw content blocks.
pub fn content(value: impl IntoContent) -> Outcome {
    Ok(Output::Content(value.into_content()))
}

/// Converts a handler's error.
pub fn tool_error<E: Into<ToolError>>(error: E) -> Failure {
    Failure::Tool(error.into())
}
