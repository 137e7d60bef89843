//! From JSON arguments to a handler's parameters, and from what it returns
//! to an [`Outcome`]: the functions a `#[tool]` shim calls.

use crate::call::content::IntoContent;
use crate::call::error::ToolError;
use crate::call::handler::{Arguments, Failure, Outcome, Output};
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
