//! The tools of the multi-round flow of 2026-07-28 (SEP-2322): each asks
//! the client something, which ends the round with an input-required
//! result; the client's retry brings the answers and the `requestState`
//! the server sealed, and the handler runs again from the start with them.
//!
//! tooltable does the protocol's part: the keys name the questions across
//! rounds, the answers of every round accumulate inside the sealed state (so
//! a three-round flow needs only the last answer on the last retry), a
//! tampered state or an answer that is not an object is refused with
//! -32602, and a missing or misnamed answer simply asks again. On an
//! `initialize` era the same handlers ask the client directly. Keys,
//! messages and texts are the suite's.

use crate::talk::field;
use serde_json::{Value, json};
use tooltable::call::{Elicitation, RootsRequest, Sampling};
use tooltable::{Call, ToolError, tool};

/// A form with one required field of type `kind`.
fn one_field(message: &str, name: &str, kind: &str) -> Elicitation {
    let schema = json!({
        "type": "object",
        "properties": {name: {"type": kind}},
        "required": [name]
    });
    Elicitation::form(message, schema)
}

/// Asks the person's name, then greets them.
#[tool(tier = read, world = closed)]
pub async fn test_input_required_result_elicitation(call: &Call) -> Result<String, ToolError> {
    let answer = call
        .elicit(one_field("What is your name?", "name", "string").key("user_name"))
        .await?;
    let name = field(&answer, "name").unwrap_or_else(|| "stranger".to_owned());
    Ok(format!("Hello, {name}!"))
}

/// Asks the client's model for the capital of France.
#[tool(tier = read, world = closed)]
pub async fn test_input_required_result_sampling(call: &Call) -> Result<String, ToolError> {
    let question = Sampling::new(100)
        .user("What is the capital of France?")
        .key("capital_question");
    let sampled = call.sample(question).await?;
    let text = sampled.text.unwrap_or_default();
    Ok(format!("Sampling result: {text}"))
}

/// Asks for the client's roots, and counts them.
#[tool(tier = read, world = closed)]
pub async fn test_input_required_result_list_roots(call: &Call) -> Result<String, ToolError> {
    let roots = call.roots(RootsRequest::new().key("client_roots")).await?;
    let uris: Vec<&str> = roots.iter().map(|r| r.uri.as_str()).collect();
    Ok(format!(
        "Found {} root(s): {}",
        roots.len(),
        uris.join(", ")
    ))
}

/// Asks for a confirmation; the answer comes back with the sealed state.
#[tool(tier = read, world = closed)]
pub async fn test_input_required_result_request_state(call: &Call) -> Result<String, ToolError> {
    let answer = call
        .elicit(one_field("Please confirm", "ok", "boolean").key("confirm"))
        .await?;
    let confirmed = answer.accepted()
        && answer
            .content
            .as_ref()
            .and_then(|c| c.get("ok"))
            .and_then(Value::as_bool)
            == Some(true);
    Ok(if confirmed {
        "state-ok: requestState validated".to_owned()
    } else {
        "state-ok: requestState validated, not confirmed".to_owned()
    })
}

/// Asks the person, the client's model and the client at once, in one
/// round.
#[tool(tier = read, world = closed)]
pub async fn test_input_required_result_multiple_inputs(call: &Call) -> Result<String, ToolError> {
    let (person, model, roots) = tokio::join!(
        call.elicit(one_field("What is your name?", "name", "string").key("user_name")),
        call.sample(
            Sampling::new(50)
                .user("Generate a greeting")
                .key("greeting")
        ),
        call.roots(RootsRequest::new().key("client_roots")),
    );
    let name = field(&person?, "name").unwrap_or_default();
    let greeting = model?.text.unwrap_or_default();
    let roots = roots?.len();
    Ok(format!(
        "Name: {name}; Greeting: {greeting}; Roots: {roots}"
    ))
}

/// Asks two questions one after the other: three rounds, and a new state
/// each time that keeps the first answer.
#[tool(tier = read, world = closed)]
pub async fn test_input_required_result_multi_round(call: &Call) -> Result<String, ToolError> {
    let first = call
        .elicit(one_field("Step 1: What is your name?", "name", "string").key("step1"))
        .await?;
    let name = field(&first, "name").unwrap_or_else(|| "friend".to_owned());
    let second = call
        .elicit(one_field("Step 2: What is your favorite color?", "color", "string").key("step2"))
        .await?;
    let color = field(&second, "color").unwrap_or_else(|| "no color".to_owned());
    Ok(format!("Multi-round complete for {name} who likes {color}"))
}

/// Asks for a confirmation; a retry whose state was changed is refused
/// before this handler runs again.
#[tool(tier = read, world = closed)]
pub async fn test_input_required_result_tampered_state(call: &Call) -> Result<String, ToolError> {
    call.elicit(one_field("Please confirm", "ok", "boolean").key("confirm"))
        .await?;
    Ok("integrity-ok: state verified".to_owned())
}

/// Asks only what the client declared it can answer: the person if it
/// declared elicitation, its model if it declared sampling.
#[tool(tier = read, world = closed)]
pub async fn test_input_required_result_capabilities(call: &Call) -> Result<String, ToolError> {
    let client = call.client();
    let ask_person = async {
        if !client.elicitation {
            return Ok(None);
        }
        let form = one_field("Elicitation input", "value", "string").key("elicit_input");
        call.elicit(form).await.map(Some)
    };
    let ask_model = async {
        if !client.sampling {
            return Ok(None);
        }
        let question = Sampling::new(50).user("Sample request").key("sample_input");
        call.sample(question).await.map(Some)
    };
    let (person, model) = tokio::join!(ask_person, ask_model);
    let mut received = Vec::new();
    if person?.is_some() {
        received.push("elicit_input");
    }
    if model?.is_some() {
        received.push("sample_input");
    }
    Ok(if received.is_empty() {
        "No supported capabilities declared".to_owned()
    } else {
        format!("capabilities-ok: received {}", received.join(","))
    })
}
