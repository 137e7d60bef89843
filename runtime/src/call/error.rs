//! The error a handler returns.
//!
//! Two kinds, because they go to two audiences. A message made with
//! [`ToolError::new`] is written for the model that called the tool ("no note
//! with id 7") and is returned to it with `isError: true`. Anything else
//! (`?` on a database error, an I/O error) is internal: it is logged with the
//! tool's name and the caller gets only "Tool execution failed; consult the
//! server log.", so no internals leak into a result.

use crate::call::ask::{AskError, Capability};
use std::fmt;

/// An error from a tool handler.
pub struct ToolError {
    kind: Kind,
}

enum Kind {
    /// A message for the caller; the error it reports, if any, is logged.
    Message(String, Option<Box<dyn std::error::Error + Send + Sync>>),
    Internal(Box<dyn std::error::Error + Send + Sync>),
    MissingCapability(Capability),
}

impl ToolError {
    /// An error whose message the caller sees. Write it so a model can act on
    /// it: say what was wrong and what would work.
    pub fn new(message: impl Into<String>) -> ToolError {
        ToolError {
            kind: Kind::Message(message.into(), None),
        }
    }

    /// A message for the caller that reports `source`, which is logged with
    /// the tool's name (an `anyhow::Error`'s message chain, and the error).
    #[cfg_attr(not(feature = "anyhow"), allow(dead_code))]
    pub(crate) fn reported(
        message: String,
        source: Box<dyn std::error::Error + Send + Sync>,
    ) -> ToolError {
        ToolError {
            kind: Kind::Message(message, Some(source)),
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
            Kind::Message(message, _) => Some(message),
            Kind::Internal(_) | Kind::MissingCapability(_) => None,
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

    /// The error a message for the caller reports, which the server logs.
    pub(crate) fn reported_error(
        &self,
    ) -> Option<&(dyn std::error::Error + Send + Sync + 'static)> {
        match &self.kind {
            Kind::Message(_, Some(source)) => Some(source.as_ref()),
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
            Kind::Message(message, _) => {
                f.debug_tuple("ToolError::Message").field(message).finish()
            }
            Kind::Internal(error) => f.debug_tuple("ToolError::Internal").field(error).finish(),
            Kind::MissingCapability(c) => f
                .debug_tuple("ToolError::MissingCapability")
                .field(c)
                .finish(),
        }
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            Kind::Message(message, _) => f.write_str(message),
            Kind::Internal(error) => write!(f, "internal error: {error}"),
            Kind::MissingCapability(c) => {
                write!(f, "{}", AskError::Unsupported(*c))
            }
        }
    }
}
