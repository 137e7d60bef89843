//! Questions a handler asks the client, and the answers it gets back.
//!
//! A handler asks the person (elicitation), the client's model (sampling)
//! or the client's workspace (roots) through its [`Call`](super::handle::Call).
//! Each question is built here, has a key that names it across the rounds of
//! a 2026-07-28 call, and serializes to the `params` MCP defines for its
//! method in each protocol era. Answers are read from the
//! client's JSON with one parser per kind, and one that does not fit is a
//! clear error, never a guess.

use serde_json::{Map, Value, json};
use std::fmt;

/// What the person did with an elicitation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// They answered; the content holds their answer.
    Accept,
    /// They said no.
    Decline,
    /// They dismissed the question without choosing.
    Cancel,
}

/// A question for the person using the client.
#[derive(Clone, Debug, PartialEq)]
pub struct Elicitation {
    key: Option<String>,
    message: String,
    mode: Mode,
}

#[derive(Clone, Debug, PartialEq)]
enum Mode {
    Form { schema: Value },
    Url { url: String, id: String },
}

impl Elicitation {
    /// A form: `message` and the flat object schema of the answer (string,
    /// number, integer, boolean and enum properties, as MCP allows).
    pub fn form(message: impl Into<String>, schema: Value) -> Elicitation {
        Elicitation {
            key: None,
            message: message.into(),
            mode: Mode::Form { schema },
        }
    }

    /// A page to open: `url`, with `id` naming this elicitation to the server
    /// that will see the person there. Needs a client that supports URL mode.
    pub fn url(
        message: impl Into<String>,
        url: impl Into<String>,
        id: impl Into<String>,
    ) -> Elicitation {
        Elicitation {
            key: None,
            message: message.into(),
            mode: Mode::Url {
                url: url.into(),
                id: id.into(),
            },
        }
    }

    /// Names the question across the rounds of a call (default: its order).
    pub fn key(mut self, key: impl Into<String>) -> Elicitation {
        self.key = Some(key.into());
        self
    }

    /// Whether it needs URL mode.
    pub fn is_url(&self) -> bool {
        matches!(self.mode, Mode::Url { .. })
    }
}

/// The person's answer to an elicitation.
#[derive(Clone, Debug, PartialEq)]
pub struct Elicited {
    /// What they did.
    pub action: Action,
    /// Their answer, when they accepted a form.
    pub content: Option<Map<String, Value>>,
}

impl Elicited {
    /// Whether they accepted.
    pub fn accepted(&self) -> bool {
        self.action == Action::Accept
    }
}

/// A request for the client's model to write a message.
#[derive(Clone, Debug, PartialEq)]
pub struct Sampling {
    key: Option<String>,
    messages: Vec<(&'static str, String)>,
    max_tokens: u32,
    system_prompt: Option<String>,
}

impl Sampling {
    /// A request for at most `max_tokens` tokens; add messages with
    /// [`Sampling::user`] and [`Sampling::assistant`].
    pub fn new(max_tokens: u32) -> Sampling {
        Sampling {
            key: None,
            messages: Vec::new(),
            max_tokens,
            system_prompt: None,
        }
    }

    /// Adds a message from the user.
    pub fn user(mut self, text: impl Into<String>) -> Sampling {
        self.messages.push(("user", text.into()));
        self
    }

    /// Adds a message from the assistant.
    pub fn assistant(mut self, text: impl Into<String>) -> Sampling {
        self.messages.push(("assistant", text.into()));
        self
    }

    /// The system prompt.
    pub fn system(mut self, prompt: impl Into<String>) -> Sampling {
        self.system_prompt = Some(prompt.into());
        self
    }

    /// Names the request across the rounds of a call (default: its order).
    pub fn key(mut self, key: impl Into<String>) -> Sampling {
        self.key = Some(key.into());
        self
    }
}

/// What the client's model wrote.
#[derive(Clone, Debug, PartialEq)]
pub struct Sampled {
    /// Who wrote it (normally `assistant`).
    pub role: String,
    /// The text, when the content is text.
    pub text: Option<String>,
    /// The content block as sent.
    pub content: Value,
    /// The model that wrote it.
    pub model: String,
    /// Why it stopped, if said.
    pub stop_reason: Option<String>,
}

/// A request for the client's roots: the directories or locations it
/// exposes to the server.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RootsRequest {
    key: Option<String>,
}

impl RootsRequest {
    /// A request for the client's roots.
    pub fn new() -> RootsRequest {
        RootsRequest::default()
    }

    /// Names the request across the rounds of a call (default: its order).
    pub fn key(mut self, key: impl Into<String>) -> RootsRequest {
        self.key = Some(key.into());
        self
    }
}

/// One root the client exposes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Root {
    /// Its URI (`file:///...`).
    pub uri: String,
    /// A name for people, if given.
    pub name: Option<String>,
}

/// Any question, as the call keeps it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Question {
    Elicit(Elicitation),
    Sample(Sampling),
    Roots(RootsRequest),
}

/// Which capability a question needs the client to have declared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Capability {
    /// `elicitation` (form mode).
    Elicitation,
    /// `elicitation.url`.
    UrlElicitation,
    /// `sampling`.
    Sampling,
    /// `roots`.
    Roots,
}

impl Capability {
    /// The capability's name in `requiredCapabilities` and in sentences.
    pub const fn as_str(self) -> &'static str {
        match self {
            Capability::Elicitation | Capability::UrlElicitation => "elicitation",
            Capability::Sampling => "sampling",
            Capability::Roots => "roots",
        }
    }

    /// The capability object MCP's `requiredCapabilities` names.
    pub fn required_json(self) -> Value {
        match self {
            Capability::UrlElicitation => json!({"elicitation": {"url": {}}}),
            other => json!({ other.as_str(): {} }),
        }
    }
}

impl Question {
    pub(crate) fn explicit_key(&self) -> Option<&str> {
        match self {
            Question::Elicit(q) => q.key.as_deref(),
            Question::Sample(q) => q.key.as_deref(),
            Question::Roots(q) => q.key.as_deref(),
        }
    }

    /// The MCP method a client answers this question with.
    pub(crate) fn method(&self) -> &'static str {
        match self {
            Question::Elicit(_) => "elicitation/create",
            Question::Sample(_) => "sampling/createMessage",
            Question::Roots(_) => "roots/list",
        }
    }

    pub(crate) fn capability(&self) -> Capability {
        match self {
            Question::Elicit(q) if q.is_url() => Capability::UrlElicitation,
            Question::Elicit(_) => Capability::Elicitation,
            Question::Sample(_) => Capability::Sampling,
            Question::Roots(_) => Capability::Roots,
        }
    }

    /// The `params` of an entry of a 2026-07-28 `inputRequests`: those of
    /// [`Question::params`], except that a URL-mode elicitation carries no
    /// `elicitationId` there, because that revision ties the answer to the
    /// question through the `requestState` instead.
    pub(crate) fn input_request_params(&self) -> Value {
        let mut params = self.params();
        if let (Question::Elicit(q), Value::Object(fields)) = (self, &mut params)
            && q.is_url()
        {
            fields.remove("elicitationId");
        }
        params
    }

    /// The request's `params`, as MCP defines them for the method (for a
    /// request sent over an initialize-era session).
    pub(crate) fn params(&self) -> Value {
        match self {
            Question::Elicit(q) => match &q.mode {
                Mode::Form { schema } => {
                    json!({"mode": "form", "message": q.message, "requestedSchema": schema})
                }
                Mode::Url { url, id } => {
                    json!({"mode": "url", "message": q.message, "url": url, "elicitationId": id})
                }
            },
            Question::Sample(q) => {
                let messages: Vec<Value> = q
                    .messages
                    .iter()
                    .map(|(role, text)| json!({"role": role, "content": {"type": "text", "text": text}}))
                    .collect();
                let mut params = json!({"messages": messages, "maxTokens": q.max_tokens});
                if let Some(prompt) = &q.system_prompt {
                    params["systemPrompt"] = Value::String(prompt.clone());
                }
                params
            }
            Question::Roots(_) => json!({}),
        }
    }
}

/// Why a question got no answer.
///
/// It converts into a [`ToolError`](super::error::ToolError) with `?`,
/// keeping a missing capability a protocol-level refusal; for that reason it
/// does not implement `std::error::Error` (which would make it an opaque
/// internal error instead).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AskError {
    /// The client did not declare the capability the question needs.
    Unsupported(Capability),
    /// The call has no client to ask (it was made directly, not served).
    NoClient,
    /// The client's answer does not fit the question.
    BadAnswer {
        /// The question's key.
        key: String,
        /// What was wrong, as a clause.
        why: String,
    },
    /// The call was cancelled while waiting for the answer.
    Cancelled,
    /// The transport failed while asking.
    Failed(String),
}

impl fmt::Display for AskError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AskError::Unsupported(Capability::UrlElicitation) => f.write_str(
                "the client did not declare URL-mode elicitation, so it cannot be asked to open a page",
            ),
            AskError::Unsupported(capability) => write!(
                f,
                "the client did not declare the {} capability, so it cannot be asked",
                capability.as_str()
            ),
            AskError::NoClient => {
                f.write_str("this call was made directly, with no client to ask")
            }
            AskError::BadAnswer { key, why } => {
                write!(f, "the client's answer to `{key}` does not fit: {why}")
            }
            AskError::Cancelled => f.write_str("the call was cancelled while waiting for an answer"),
            AskError::Failed(why) => write!(f, "asking the client failed: {why}"),
        }
    }
}

fn bad(key: &str, why: impl Into<String>) -> AskError {
    AskError::BadAnswer {
        key: key.to_owned(),
        why: why.into(),
    }
}

/// Reads an answer to an elicitation.
pub(crate) fn read_elicited(key: &str, answer: &Value) -> Result<Elicited, AskError> {
    let object = answer
        .as_object()
        .ok_or_else(|| bad(key, "an elicitation answer is an object with `action`"))?;
    let action = match object.get("action").and_then(Value::as_str) {
        Some("accept") => Action::Accept,
        Some("decline") => Action::Decline,
        Some("cancel") => Action::Cancel,
        _ => {
            return Err(bad(
                key,
                "`action` must be \"accept\", \"decline\" or \"cancel\"",
            ));
        }
    };
    let content = match object.get("content") {
        None | Some(Value::Null) => None,
        Some(Value::Object(map)) => Some(map.clone()),
        Some(_) => return Err(bad(key, "`content` must be an object")),
    };
    Ok(Elicited { action, content })
}

/// Reads what the client's model wrote.
pub(crate) fn read_sampled(key: &str, answer: &Value) -> Result<Sampled, AskError> {
    let object = answer
        .as_object()
        .ok_or_else(|| bad(key, "a sampling answer is an object with `content`"))?;
    let content = object
        .get("content")
        .cloned()
        .ok_or_else(|| bad(key, "it has no `content`"))?;
    let text = content
        .get("text")
        .and_then(Value::as_str)
        .map(str::to_owned)
        .or_else(|| {
            // The 2025-11-25 revision allows an array of blocks.
            content.as_array().and_then(|blocks| {
                blocks
                    .iter()
                    .find_map(|b| b.get("text").and_then(Value::as_str))
                    .map(str::to_owned)
            })
        });
    Ok(Sampled {
        role: object
            .get("role")
            .and_then(Value::as_str)
            .unwrap_or("assistant")
            .to_owned(),
        text,
        content,
        model: object
            .get("model")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned(),
        stop_reason: object
            .get("stopReason")
            .and_then(Value::as_str)
            .map(str::to_owned),
    })
}

/// Reads the client's roots.
pub(crate) fn read_roots(key: &str, answer: &Value) -> Result<Vec<Root>, AskError> {
    let roots = answer
        .get("roots")
        .and_then(Value::as_array)
        .ok_or_else(|| bad(key, "a roots answer is an object with a `roots` array"))?;
    roots
        .iter()
        .map(|root| {
            let uri = root
                .get("uri")
                .and_then(Value::as_str)
                .ok_or_else(|| bad(key, "every root needs a `uri` string"))?;
            Ok(Root {
                uri: uri.to_owned(),
                name: root.get("name").and_then(Value::as_str).map(str::to_owned),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_question_serializes_to_the_params_of_its_method() {
        let form = Question::Elicit(Elicitation::form(
            "Name?",
            json!({"type": "object", "properties": {"name": {"type": "string"}}}),
        ));
        assert_eq!(form.method(), "elicitation/create");
        assert_eq!(form.params()["requestedSchema"]["type"], "object");
        let sample = Question::Sample(Sampling::new(100).user("Capital of France?"));
        assert_eq!(
            sample.params(),
            json!({"messages": [{"role": "user", "content": {"type": "text", "text": "Capital of France?"}}], "maxTokens": 100})
        );
        assert_eq!(Question::Roots(RootsRequest::new()).params(), json!({}));
    }

    #[test]
    fn a_url_question_names_itself_only_where_its_era_does() {
        let page = Question::Elicit(Elicitation::url(
            "Connect your account.",
            "https://example.test/connect",
            "connect-1",
        ));
        assert_eq!(
            page.params(),
            json!({"mode": "url", "message": "Connect your account.", "url": "https://example.test/connect", "elicitationId": "connect-1"})
        );
        assert_eq!(
            page.input_request_params(),
            json!({"mode": "url", "message": "Connect your account.", "url": "https://example.test/connect"})
        );
        assert_eq!(page.capability(), Capability::UrlElicitation);
    }

    #[test]
    fn answers_that_do_not_fit_are_refused_naming_the_key() {
        assert_eq!(
            read_elicited("user_name", &json!(12345))
                .unwrap_err()
                .to_string(),
            "the client's answer to `user_name` does not fit: an elicitation answer is an object with `action`"
        );
        assert!(read_elicited("k", &json!({"action": "maybe"})).is_err());
        assert!(read_elicited("k", &json!({"action": "accept", "content": [1]})).is_err());
        let ok = read_elicited(
            "k",
            &json!({"action": "accept", "content": {"name": "Alice"}}),
        )
        .unwrap();
        assert!(ok.accepted());
        assert!(read_roots("k", &json!({"roots": [{"name": "x"}]})).is_err());
        let sampled = read_sampled(
            "k",
            &json!({"role": "assistant", "content": {"type": "text", "text": "Paris"}, "model": "m"}),
        )
        .unwrap();
        assert_eq!(sampled.text.as_deref(), Some("Paris"));
    }
}
