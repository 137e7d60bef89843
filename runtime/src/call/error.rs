//! The error a handler returns.
//!
//! Two kinds, because they go to two audiences. A message made with
//! [`ToolError::new`] is written for the model that called the tool ("no note
//! with id 7") and is returned to it with `isError: true`, with structured
//! data beside it when the handler gives some ([`ToolError::with_data`]).
//! Anything else (`?` on a database error, an I/O error) is internal: it is
//! logged with the tool's name and the caller gets only "Tool execution
//! failed; consult the server log.", so no internals leak into a result. A
//! handler that means a protocol error rather than a failed tool says so
//! with [`ToolError::protocol`].

use crate::call::ask::{AskError, Capability};
use crate::call::result::CallError;
use serde_json::Value;
use std::fmt;

/// An error from a tool handler.
pub struct ToolError {
    kind: Kind,
}

enum Kind {
    /// A message for the caller, with its data; the error it reports, if
    /// any, is logged.
    Message {
        text: String,
        data: Option<Value>,
        source: Option<Box<dyn std::error::Error + Send + Sync>>,
    },
    Internal(Box<dyn std::error::Error + Send + Sync>),
    MissingCapability(Capability),
    Protocol(CallError),
}

impl ToolError {
    /// An error whose message the caller sees. Write it so a model can act on
    /// it: say what was wrong and what would work.
    pub fn new(message: impl Into<String>) -> ToolError {
        ToolError {
            kind: Kind::Message {
                text: message.into(),
                data: None,
                source: None,
            },
        }
    }

    /// The same message with structured data for the caller, such as
    /// `{"code": "quota", "retryable": true}`: served as the error result's
    /// `structuredContent` (an object; anything else as `{"result": data}`),
    /// and as JSON text after the message for clients that read only text.
    /// The caller sees no data of an internal error, so there it is dropped.
    #[must_use]
    pub fn with_data(mut self, data: Value) -> ToolError {
        if let Kind::Message { data: slot, .. } = &mut self.kind {
            *slot = Some(data);
        }
        self
    }

    /// A protocol error instead of a failed tool: the call is answered with
    /// this JSON-RPC error (its code, message and `data`) rather than a
    /// result with `isError`, in every protocol revision. Meant for what a
    /// model cannot fix by calling again, as MCP's tools page says; a tool
    /// that failed is [`ToolError::new`].
    pub fn protocol(error: CallError) -> ToolError {
        ToolError {
            kind: Kind::Protocol(error),
        }
    }

    /// A message for the caller that reports `source`, which is logged with
    /// the tool's name (an `anyhow::Error`'s message chain, and the error).
    #[cfg_attr(not(any(feature = "anyhow", feature = "eyre")), allow(dead_code))]
    pub(crate) fn reported(
        message: String,
        source: Box<dyn std::error::Error + Send + Sync>,
    ) -> ToolError {
        ToolError {
            kind: Kind::Message {
                text: message,
                data: None,
                source: Some(source),
            },
        }
    }

    /// An internal error: logged with the tool's name, never shown to the caller.
    pub fn internal(error: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> ToolError {
        ToolError {
            kind: Kind::Internal(error.into()),
        }
    }

    /// The call needs a capability the client did not declare. On the
    /// 2026-07-28 revision this is the protocol's own error (-32021, naming
    /// the capability); on the `initialize` era, a result saying so.
    pub fn missing_capability(capability: Capability) -> ToolError {
        ToolError {
            kind: Kind::MissingCapability(capability),
        }
    }

    /// The message for the caller, when this error has one.
    pub fn message(&self) -> Option<&str> {
        match &self.kind {
            Kind::Message { text, .. } => Some(text),
            Kind::Internal(_) | Kind::MissingCapability(_) | Kind::Protocol(_) => None,
        }
    }

    /// The structured data for the caller, when this error has a message
    /// with data.
    pub fn data(&self) -> Option<&Value> {
        match &self.kind {
            Kind::Message { data, .. } => data.as_ref(),
            _ => None,
        }
    }

    /// The protocol error the call is answered with, when that is the error.
    pub fn protocol_error(&self) -> Option<&CallError> {
        match &self.kind {
            Kind::Protocol(error) => Some(error),
            _ => None,
        }
    }

    /// The capability the client lacks, when that is the error.
    pub fn missing(&self) -> Option<Capability> {
        match &self.kind {
            Kind::MissingCapability(capability) => Some(*capability),
            _ => None,
        }
    }

    /// The underlying error, when this error is internal.
    pub fn internal_error(&self) -> Option<&(dyn std::error::Error + Send + Sync + 'static)> {
        match &self.kind {
            Kind::Internal(error) => Some(error.as_ref()),
            _ => None,
        }
    }

    /// The protocol error the call is answered with, or this error when it
    /// is not one.
    pub(crate) fn into_protocol(self) -> Result<CallError, ToolError> {
        match self.kind {
            Kind::Protocol(error) => Ok(error),
            kind => Err(ToolError { kind }),
        }
    }

    /// The error a message for the caller reports, which the server logs.
    pub(crate) fn reported_error(
        &self,
    ) -> Option<&(dyn std::error::Error + Send + Sync + 'static)> {
        match &self.kind {
            Kind::Message {
                source: Some(source),
                ..
            } => Some(source.as_ref()),
            _ => None,
        }
    }
}

/// A question that got no answer becomes the handler's error with `?`: a
/// missing capability stays one (so the protocol's own error can answer
/// it), anything else is a sentence for the model.
impl From<AskError> for ToolError {
    fn from(error: AskError) -> ToolError {
        match error {
            AskError::Unsupported(capability) => ToolError::missing_capability(capability),
            other => ToolError::new(other.to_string()),
        }
    }
}

/// Any standard error converts into an internal [`ToolError`], so `?` works
/// in handlers and never leaks the error's text to the caller.
impl<E: std::error::Error + Send + Sync + 'static> From<E> for ToolError {
    fn from(error: E) -> ToolError {
        ToolError::internal(error)
    }
}

impl fmt::Debug for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            Kind::Message { text, data, .. } => f
                .debug_struct("ToolError::Message")
                .field("text", text)
                .field("data", data)
                .finish(),
            Kind::Internal(error) => f.debug_tuple("ToolError::Internal").field(error).finish(),
            Kind::MissingCapability(c) => f
                .debug_tuple("ToolError::MissingCapability")
                .field(c)
                .finish(),
            Kind::Protocol(error) => f.debug_tuple("ToolError::Protocol").field(error).finish(),
        }
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            Kind::Message { text, .. } => f.write_str(text),
            Kind::Internal(error) => write!(f, "internal error: {error}"),
            Kind::MissingCapability(c) => {
                write!(f, "{}", AskError::Unsupported(*c))
            }
            Kind::Protocol(error) => write!(f, "{error}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ToolError;
    use crate::call::result::{CallError, CallToolResult};
    use serde_json::json;

    #[test]
    fn data_stays_with_a_message_and_is_dropped_from_an_internal_error() {
        let error = ToolError::new("spent").with_data(json!({"code": "quota"}));
        assert_eq!(error.message(), Some("spent"));
        assert_eq!(error.data(), Some(&json!({"code": "quota"})));
        let internal = ToolError::internal(std::io::Error::other("disk")).with_data(json!({}));
        assert_eq!(internal.data(), None);
    }

    #[test]
    fn a_protocol_error_is_given_back_whole_and_anything_else_stays_a_tool_error() {
        let error = CallError::new(-32050, "rebuilding").with_data(json!({"retryAfterMs": 500}));
        let chosen = ToolError::protocol(error.clone());
        assert_eq!(chosen.protocol_error(), Some(&error));
        assert_eq!(chosen.into_protocol().ok(), Some(error));
        let plain = ToolError::new("no note 7").into_protocol();
        assert_eq!(
            plain.err().and_then(|e| e.message().map(str::to_owned)),
            Some("no note 7".into())
        );
    }

    #[test]
    fn error_data_that_is_not_an_object_is_served_wrapped_as_outputs_are() {
        let result = CallToolResult::error_with_data("no", json!([1, 2]));
        assert_eq!(
            result.to_json(),
            json!({
                "content": [{"type": "text", "text": "no"}, {"type": "text", "text": "{\"result\":[1,2]}"}],
                "structuredContent": {"result": [1, 2]},
                "isError": true,
            })
        );
    }
}
