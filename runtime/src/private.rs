//! What generated code needs and users do not: the traits the `#[tool]`
//! macro's shims implement and the helpers they call. Not a stable API.

pub use crate::call::{Arguments, BoxFuture, Failure, Handler, Outcome, Output};
pub use crate::content::IntoContent;
pub use crate::error::ToolError;
pub use crate::fingerprint::Fingerprint;
pub use crate::table::{Table, Tool, ToolInfo};
#[cfg(feature = "schema-guard")]
pub use crate::testing;
pub use crate::tier::{Tier, World};
pub use serde_json;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// What a `#[tool]` shim gives the table: how to invoke the handler, and
/// (with the `schema-guard` feature) how to ask schemars for the schemas the
/// build script baked.
pub struct ShimFns<C: 'static> {
    /// How to invoke the handler.
    pub handler: Handler<C>,
    /// schemars' schemas for the parameter and return types; `None` unless
    /// the `schema-guard` feature is on.
    pub reference: Option<fn(bool) -> Reference>,
}

/// schemars' schemas for a tool's parameter and return types, before
/// tooltable's own additions (the injected `confirm`, the `{"result": ..}` wrapper).
#[derive(Clone, Debug, PartialEq)]
pub struct Reference {
    /// The input schema.
    pub input: Value,
    /// The output schema, for structured output.
    pub output: Option<Value>,
}

/// Implemented by the shim of a free-function tool, on its marker type.
pub trait Shim<C: 'static> {
    /// The shim.
    const SHIM: ShimFns<C>;
}

/// Used by the `#[tool]` macro: schemars' reference schemas when the
/// `schema-guard` feature is on, `None` otherwise.
#[cfg(feature = "schema-guard")]
#[doc(hidden)]
#[macro_export]
macro_rules! __tooltable_reference {
    (input: [$($params:ty)?], output: [$($output:ty)?]) => {
        ::core::option::Option::Some(|inline: bool| $crate::private::Reference {
            input: $crate::__tooltable_reference!(@input inline $($params)?),
            output: $crate::__tooltable_reference!(@output inline $($output)?),
        })
    };
    (@input $inline:ident) => { $crate::schema::no_parameters() };
    (@input $inline:ident $params:ty) => {
        $crate::testing::reference_schema::<$params>($inline, $crate::testing::Contract::Deserialize)
    };
    (@output $inline:ident) => { ::core::option::Option::None };
    (@output $inline:ident $output:ty) => {
        ::core::option::Option::Some($crate::testing::reference_schema::<$output>($inline, $crate::testing::Contract::Serialize))
    };
}

/// Used by the `#[tool]` macro: schemars' reference schemas when the
/// `schema-guard` feature is on, `None` otherwise.
#[cfg(not(feature = "schema-guard"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __tooltable_reference {
    (input: [$($params:ty)?], output: [$($output:ty)?]) => {
        ::core::option::Option::None
    };
}

pub use crate::__tooltable_reference as reference;

/// Implemented on a free-function tool's marker type when the handler takes
/// a context, so the table can name the context type without a path to it.
pub trait Context {
    /// The context type.
    type Type: 'static;
}

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
        Err(error) => {
            let path = error.path().to_string();
            let inner = error.into_inner();
            Failure::Arguments(if path == "." {
                format!("{inner}.")
            } else {
                format!("at `{path}`, {inner}.")
            })
        }
    }
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
