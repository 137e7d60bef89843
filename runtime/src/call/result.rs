//! What a call gives back: a result for the model, or a protocol error.
//!
//! MCP puts tool failures inside the result (`isError: true`, with text a
//! model can act on) and keeps JSON-RPC errors for calls that are not tool
//! calls at all, such as an unknown tool name.

use crate::call::ask::{AskError, Capability};
use crate::call::content::Content;
use crate::call::rounds::State;
use serde_json::{Map, Value};
use std::fmt;

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

/// A handler's structured result with a text of its own: the value is the
/// result's `structuredContent` (and its type the tool's output schema),
/// and `text` its one content block, for clients and models that read only
/// text, in place of the value's JSON.
///
/// ```
/// # use tooltable_runtime::Structured;
/// # #[derive(serde::Serialize)] struct Created { id: u64 }
/// let result = Structured::new(Created { id: 7 }, "Created the note #7.");
/// # let _ = result;
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Structured<T> {
    /// The structured value.
    pub value: T,
    /// The text clients that read only text are given.
    pub text: String,
}

impl<T> Structured<T> {
    /// `value`, summed up for text-only readers by `text`.
    pub fn new(value: T, text: impl Into<String>) -> Structured<T> {
        Structured {
            value,
            text: text.into(),
        }
    }
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

    /// A failed result with the message for the caller and structured
    /// data: the message, then the data's JSON text (for clients that read
    /// only text), and the data as `structuredContent`. Data that is not an
    /// object is served as `{"result": data}`, as a tool's non-object
    /// output is: revisions before 2026-07-28 require an object there.
    pub fn error_with_data(text: impl Into<String>, data: Value) -> CallToolResult {
        let data = if data.is_object() {
            data
        } else {
            wrapped(data)
        };
        let json = serde_json::to_string(&data).unwrap_or_default();
        CallToolResult {
            content: vec![Content::text(text), Content::text(json)],
            structured_content: Some(data),
            is_error: true,
        }
    }

    /// A successful result with a structured value and a text of its own
    /// for clients that read only text (a summary, not the JSON).
    pub fn summarized(value: Value, text: impl Into<String>) -> CallToolResult {
        CallToolResult {
            content: vec![Content::text(text)],
            structured_content: Some(value),
            is_error: false,
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

    /// About how many bytes the result takes on the wire: its text, data
    /// and embedded resources, and its structured value (which travels
    /// again as the JSON text of its first block). Metadata is not counted.
    pub fn payload_bytes(&self) -> usize {
        let blocks: usize = self.content.iter().map(Content::payload_bytes).sum();
        let structured = match &self.structured_content {
            Some(_) => self.first_text().map_or(0, str::len),
            None => 0,
        };
        blocks + structured
    }

    /// The text of the first text block, if there is one.
    pub fn first_text(&self) -> Option<&str> {
        self.content.iter().find_map(|c| match c {
            Content::Text { text, .. } => Some(text.as_str()),
            _ => None,
        })
    }
}

/// The object a value that is not one is served as: `{"result": value}`.
pub(crate) fn wrapped(value: Value) -> Value {
    let mut map = Map::new();
    map.insert("result".into(), value);
    Value::Object(map)
}

/// A call that is not a tool call at all: a protocol error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallError {
    code: i32,
    message: String,
    data: Option<Value>,
}

impl CallError {
    /// JSON-RPC's "Invalid params".
    pub const INVALID_PARAMS: i32 = -32602;

    /// MCP 2026-07-28's "missing required client capability".
    pub const MISSING_CAPABILITY: i32 = -32021;

    /// A JSON-RPC error with this code and message. JSON-RPC reserves
    /// -32768 to -32000 for the protocol's own errors (of which -32000 to
    /// -32099 are left to servers); an application's codes lie outside.
    pub fn new(code: i32, message: impl Into<String>) -> CallError {
        CallError {
            code,
            message: message.into(),
            data: None,
        }
    }

    /// The same error with `data`, which the client receives as the
    /// error's `data` member.
    #[must_use]
    pub fn with_data(mut self, data: Value) -> CallError {
        self.data = Some(data);
        self
    }

    /// The error for a name that no tool has.
    pub fn unknown_tool(name: &str) -> CallError {
        CallError::invalid_params(format!("Unknown tool: {}", crate::rules::quote::text(name)))
    }

    /// An invalid-params error with its own message.
    pub fn invalid_params(message: impl Into<String>) -> CallError {
        CallError::new(Self::INVALID_PARAMS, message)
    }

    /// The call needs a capability the client did not declare (2026-07-28):
    /// `data.requiredCapabilities` names it.
    pub fn missing_capability(capability: Capability) -> CallError {
        let mut data = Map::new();
        data.insert("requiredCapabilities".into(), capability.required_json());
        CallError {
            code: Self::MISSING_CAPABILITY,
            message: format!(
                "Missing required client capability: {}",
                AskError::Unsupported(capability)
            ),
            data: Some(Value::Object(data)),
        }
    }

    /// The error's `data`, if any.
    pub fn data(&self) -> Option<&Value> {
        self.data.as_ref()
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

/// What a served call answers: a result, or (on 2026-07-28) the questions
/// the handler asked and the state that carries the call to its retry.
#[derive(Debug)]
pub(crate) enum Reply {
    /// The call finished.
    Complete(CallToolResult),
    /// The handler asked the client something. Boxed: the state is twice
    /// the size of a result, and every reply is moved through several
    /// frames on its way out, so only the rare question should pay for it.
    #[cfg_attr(not(feature = "rmcp"), allow(dead_code))]
    InputRequired(Box<InputRequired>),
}

impl Reply {
    /// The result of a call made with a detached handle, which cannot ask
    /// (its questions fail with "no client"), so it always completes.
    pub(crate) fn complete(self) -> CallToolResult {
        match self {
            Reply::Complete(result) => result,
            Reply::InputRequired(_) => CallToolResult::error(AskError::NoClient.to_string()),
        }
    }
}

/// The questions of a round and the state for the next one.
#[derive(Debug)]
#[cfg_attr(not(feature = "rmcp"), allow(dead_code))]
pub(crate) struct InputRequired {
    /// Key, method and params of every question, in the order asked.
    pub requests: Vec<(String, &'static str, Value)>,
    /// What the retry needs, to be sealed before it leaves the server.
    pub state: State,
}
