//! The tools that talk back to the client while they run, through their
//! per-call handle: progress, log messages, and questions for the person
//! (elicitation) and the client's model (sampling).
//!
//! The same handler serves both protocol eras: on an `initialize` era a
//! question is a request to the client on the call's response stream, and
//! the handler waits for the answer; on 2026-07-28 the question ends the
//! round with an input-required result, and the client's retry brings the
//! answer (the [`crate::input_required`] tools exercise that flow on purpose).
//! Names, messages, schemas and texts are the suite's.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use std::time::Duration;
use tooltable::call::{Action, Elicitation, Elicited, Sampling};
use tooltable::{Call, ToolError, tool};

/// The pause between the steps of the progress and logging tools.
const STEP: Duration = Duration::from_millis(50);

/// Sends three log messages at level `info`, a moment apart, then answers.
#[tool(tier = read, world = closed)]
pub async fn test_tool_with_logging(call: &Call) -> &'static str {
    call.info("Tool execution started").await;
    tokio::time::sleep(STEP).await;
    call.info("Tool processing data").await;
    tokio::time::sleep(STEP).await;
    call.info("Tool execution completed").await;
    "Tool with logging executed successfully"
}

/// Reports progress at 0, 50 and 100 of 100, a moment apart, on the
/// request's progress token, then answers with the token.
#[tool(tier = read, world = closed)]
pub async fn test_tool_with_progress(call: &Call) -> String {
    const TOTAL: f64 = 100.0;
    for (i, progress) in [0.0, 50.0, 100.0].into_iter().enumerate() {
        if i > 0 {
            tokio::time::sleep(STEP).await;
        }
        let message = format!("Completed step {progress} of {TOTAL}");
        call.progress(progress, Some(TOTAL), Some(&message)).await;
    }
    match call.meta().get("progressToken") {
        Some(Value::String(token)) => token.clone(),
        Some(token) => token.to_string(),
        None => "no progress token was given".to_owned(),
    }
}

/// What to ask the client's model.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct SamplingParams {
    /// The prompt to send to the LLM
    pub prompt: String,
}

/// Asks the client's model to answer a prompt, and returns what it wrote.
#[tool(tier = read, world = closed)]
pub async fn test_sampling(params: SamplingParams, call: &Call) -> Result<String, ToolError> {
    let sampled = call.sample(Sampling::new(100).user(params.prompt)).await?;
    let text = sampled
        .text
        .ok_or_else(|| ToolError::new("the client's model answered with no text"))?;
    Ok(format!("LLM response: {text}"))
}

/// What to tell the person.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct ElicitationParams {
    /// The message to show the user
    pub message: String,
}

/// Asks the person for a user name and an email address, and returns what
/// they did.
#[tool(tier = read, world = closed)]
pub async fn test_elicitation(params: ElicitationParams, call: &Call) -> Result<String, ToolError> {
    let schema = json!({
        "type": "object",
        "properties": {
            "username": {"type": "string", "description": "User's response"},
            "email": {"type": "string", "description": "User's email address"}
        },
        "required": ["username", "email"]
    });
    let answer = call
        .elicit(Elicitation::form(params.message, schema))
        .await?;
    Ok(format!("User response: {}", describe(&answer)))
}

/// Asks for a form whose fields all have defaults (SEP-1034): a string, an
/// integer, a number, an enum and a boolean.
#[tool(tier = read, world = closed)]
pub async fn test_elicitation_sep1034_defaults(call: &Call) -> Result<String, ToolError> {
    let schema = json!({
        "type": "object",
        "properties": {
            "name": {"type": "string", "description": "User name", "default": "John Doe"},
            "age": {"type": "integer", "description": "User age", "default": 30},
            "score": {"type": "number", "description": "User score", "default": 95.5},
            "status": {
                "type": "string",
                "description": "User status",
                "enum": ["active", "inactive", "pending"],
                "default": "active"
            },
            "verified": {"type": "boolean", "description": "Verification status", "default": true}
        },
        "required": []
    });
    let message = "Please review and update the form fields with defaults";
    let answer = call.elicit(Elicitation::form(message, schema)).await?;
    Ok(format!("Elicitation completed: {}", describe(&answer)))
}

/// Asks for a form with every kind of enum field (SEP-1330): single and
/// multiple choice, with and without titles, and the legacy `enumNames`.
#[tool(tier = read, world = closed)]
pub async fn test_elicitation_sep1330_enums(call: &Call) -> Result<String, ToolError> {
    let schema = json!({
        "type": "object",
        "properties": {
            "untitledSingle": {
                "type": "string",
                "description": "Select one option",
                "enum": ["option1", "option2", "option3"]
            },
            "titledSingle": {
                "type": "string",
                "description": "Select one option with titles",
                "oneOf": [
                    {"const": "value1", "title": "First Option"},
                    {"const": "value2", "title": "Second Option"},
                    {"const": "value3", "title": "Third Option"}
                ]
            },
            "legacyEnum": {
                "type": "string",
                "description": "Select one option (legacy)",
                "enum": ["opt1", "opt2", "opt3"],
                "enumNames": ["Option One", "Option Two", "Option Three"]
            },
            "untitledMulti": {
                "type": "array",
                "description": "Select multiple options",
                "minItems": 1,
                "maxItems": 3,
                "items": {"type": "string", "enum": ["option1", "option2", "option3"]}
            },
            "titledMulti": {
                "type": "array",
                "description": "Select multiple options with titles",
                "minItems": 1,
                "maxItems": 3,
                "items": {
                    "anyOf": [
                        {"const": "value1", "title": "First Choice"},
                        {"const": "value2", "title": "Second Choice"},
                        {"const": "value3", "title": "Third Choice"}
                    ]
                }
            }
        },
        "required": []
    });
    let message = "Please select options from the enum fields";
    let answer = call.elicit(Elicitation::form(message, schema)).await?;
    Ok(format!("Elicitation completed: {}", describe(&answer)))
}

/// Needs the client's model: a client that did not declare sampling is
/// refused (on 2026-07-28 with the protocol's own error, -32021).
#[tool(tier = read, world = closed)]
pub async fn test_missing_capability(call: &Call) -> Result<&'static str, ToolError> {
    call.sample(Sampling::new(50).user("Say anything.").key("needed"))
        .await?;
    Ok("Success")
}

/// Answers on the response stream without sending the client a request of
/// its own, as the stateless lifecycle requires.
#[tool(tier = read, world = closed)]
pub fn test_streaming_elicitation() -> &'static str {
    "Streaming complete"
}

/// Sends one log message, which reaches only a client that asked for logs
/// (on 2026-07-28, with a log level in the request's `_meta`).
#[tool(tier = read, world = closed)]
pub async fn test_logging_tool(call: &Call) -> &'static str {
    call.info("Logging evaluated").await;
    "Logging evaluated"
}

/// `action=<action>, content=<content as JSON>`, as the suite's fixture
/// reports an elicitation.
pub fn describe(answer: &Elicited) -> String {
    let action = match answer.action {
        Action::Accept => "accept",
        Action::Decline => "decline",
        Action::Cancel => "cancel",
    };
    let content = answer.content.clone().map_or(Value::Null, Value::Object);
    format!("action={action}, content={content}")
}

/// The string field `field` of an accepted answer, if there is one.
pub fn field(answer: &Elicited, field: &str) -> Option<String> {
    if !answer.accepted() {
        return None;
    }
    answer
        .content
        .as_ref()
        .and_then(|c| c.get(field))
        .and_then(Value::as_str)
        .map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(action: Action, content: Value) -> Elicited {
        Elicited {
            action,
            content: content.as_object().cloned(),
        }
    }

    #[test]
    fn an_answer_is_described_as_the_suites_fixture_does() {
        let accepted = answer(Action::Accept, json!({"username": "testuser"}));
        assert_eq!(
            describe(&accepted),
            r#"action=accept, content={"username":"testuser"}"#
        );
        assert_eq!(
            describe(&answer(Action::Decline, Value::Null)),
            "action=decline, content=null"
        );
    }

    #[test]
    fn a_field_is_read_only_from_an_accepted_answer_and_only_as_a_string() {
        let content = json!({"name": "Alice", "age": 30});
        assert_eq!(
            field(&answer(Action::Accept, content.clone()), "name").as_deref(),
            Some("Alice")
        );
        assert_eq!(field(&answer(Action::Accept, content.clone()), "age"), None);
        assert_eq!(field(&answer(Action::Cancel, content), "name"), None);
    }
}
