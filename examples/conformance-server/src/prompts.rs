//! The fixture's prompts: a plain one, one with arguments, one embedding a
//! resource, and one with an image, each with a description (the listing
//! scenario requires one); and, on 2026-07-28, one that asks the person for
//! context before it renders (SEP-2322's flow on a request that is not a
//! tool call).

use crate::PNG;
use rmcp::ErrorData;
use rmcp::model::{
    ContentBlock, ErrorCode, GetPromptResponse, GetPromptResult, InputRequest, InputRequests,
    InputRequiredResult, InputResponses, JsonObject, Prompt, PromptArgument, PromptMessage,
    ResourceContents, Role,
};
use serde_json::{Value, json};

const SIMPLE: &str = "test_simple_prompt";
const WITH_ARGUMENTS: &str = "test_prompt_with_arguments";
const WITH_RESOURCE: &str = "test_prompt_with_embedded_resource";
const WITH_IMAGE: &str = "test_prompt_with_image";
/// The prompt that asks for context first (2026-07-28 only).
pub const ASKS_FIRST: &str = "test_input_required_result_prompt";

/// The key of the question [`ASKS_FIRST`] asks.
const CONTEXT_KEY: &str = "user_context";

/// MCP's error for a request that needs a capability the client did not
/// declare (2026-07-28).
const MISSING_CAPABILITY: ErrorCode = ErrorCode(-32021);

/// Suggestions for the arguments of `test_prompt_with_arguments`: the values
/// the scenarios send.
const ARGUMENT_SUGGESTIONS: &[&str] = &["testValue1", "testValue2"];

/// The prompts `prompts/list` returns: [`ASKS_FIRST`] too when the request
/// speaks 2026-07-28, the revision whose flow it needs.
pub fn list(current: bool) -> Vec<Prompt> {
    let argument = |name: &str, description: &str| {
        PromptArgument::new(name)
            .with_description(description)
            .with_required(true)
    };
    vec![
        Prompt::new(SIMPLE, Some("A simple prompt without arguments"), None)
            .with_title("Simple Prompt"),
        Prompt::new(
            WITH_ARGUMENTS,
            Some("A prompt with two required arguments"),
            Some(vec![
                argument("arg1", "First test argument"),
                argument("arg2", "Second test argument"),
            ]),
        )
        .with_title("Prompt With Arguments"),
        Prompt::new(
            WITH_RESOURCE,
            Some("A prompt that embeds the resource it is given"),
            Some(vec![argument(
                "resourceUri",
                "URI of the resource to embed",
            )]),
        )
        .with_title("Prompt With Embedded Resource"),
        Prompt::new(WITH_IMAGE, Some("A prompt with an image"), None)
            .with_title("Prompt With Image"),
    ]
    .into_iter()
    .chain(current.then(|| {
        Prompt::new(
            ASKS_FIRST,
            Some("A prompt that asks the user for context before it renders"),
            None,
        )
        .with_title("Prompt Asking For Context")
    }))
    .collect()
}

/// [`ASKS_FIRST`] on 2026-07-28: without an answer, an input-required
/// result asking the person for context (no `requestState`: the answer is
/// all the prompt needs); with the person's answer, the prompt. A client
/// that cannot be asked gets MCP's missing-capability error.
pub fn ask_first(
    responses: Option<&InputResponses>,
    can_elicit: bool,
) -> Result<GetPromptResponse, ErrorData> {
    let Some(answer) = responses.and_then(|r| r.get(CONTEXT_KEY)) else {
        if !can_elicit {
            return Err(ErrorData::new(
                MISSING_CAPABILITY,
                format!(
                    "Missing required client capability: {ASKS_FIRST} asks the user, and the client did not declare elicitation"
                ),
                Some(json!({"requiredCapabilities": {"elicitation": {}}})),
            ));
        }
        let question: InputRequest = serde_json::from_value(json!({
            "method": "elicitation/create",
            "params": {
                "message": "What context should the prompt use?",
                "requestedSchema": {
                    "type": "object",
                    "properties": {"context": {"type": "string"}},
                    "required": ["context"]
                }
            }
        }))
        .map_err(|e| ErrorData::internal_error(format!("the question does not fit: {e}"), None))?;
        let requests = InputRequests::from([(CONTEXT_KEY.to_owned(), question)]);
        return Ok(InputRequiredResult::from_input_requests(requests).into());
    };
    let bad = |why: &str| {
        ErrorData::invalid_params(
            format!("inputResponses.{CONTEXT_KEY} must be the result of the elicitation: {why}"),
            None,
        )
    };
    let action = answer
        .get("action")
        .and_then(Value::as_str)
        .ok_or_else(|| bad("an object with `action`"))?;
    let text = match action {
        "accept" => {
            let context = answer
                .get("content")
                .and_then(|c| c.get("context"))
                .and_then(Value::as_str)
                .ok_or_else(|| bad("an accepted answer has `content.context`, a string"))?;
            format!("Prompt with context: {context}")
        }
        "decline" | "cancel" => "Prompt without context: the user gave none".to_owned(),
        _ => return Err(bad("`action` is \"accept\", \"decline\" or \"cancel\"")),
    };
    let message = PromptMessage::new(Role::User, ContentBlock::text(text));
    Ok(GetPromptResult::new(vec![message]).into())
}

/// The prompt `name` rendered with `arguments`; an unknown prompt, or a
/// missing or non-string argument, is an invalid-params error.
pub fn get(name: &str, arguments: Option<&JsonObject>) -> Result<GetPromptResult, ErrorData> {
    let argument = |key: &str| -> Result<&str, ErrorData> {
        match arguments.and_then(|a| a.get(key)) {
            Some(serde_json::Value::String(value)) => Ok(value),
            Some(_) => Err(ErrorData::invalid_params(
                format!("the argument `{key}` of the prompt {name} must be a string"),
                None,
            )),
            None => Err(ErrorData::invalid_params(
                format!("the prompt {name} needs the argument `{key}`"),
                None,
            )),
        }
    };
    let user = |content| PromptMessage::new(Role::User, content);
    let messages = match name {
        SIMPLE => vec![user(ContentBlock::text(
            "This is a simple prompt for testing.",
        ))],
        WITH_ARGUMENTS => {
            let (arg1, arg2) = (argument("arg1")?, argument("arg2")?);
            vec![user(ContentBlock::text(format!(
                "Prompt with arguments: arg1='{arg1}', arg2='{arg2}'"
            )))]
        }
        WITH_RESOURCE => {
            let uri = argument("resourceUri")?;
            vec![
                user(ContentBlock::resource(ResourceContents::text(
                    "Embedded resource content for testing.",
                    uri,
                ))),
                user(ContentBlock::text(
                    "Please process the embedded resource above.",
                )),
            ]
        }
        WITH_IMAGE => vec![
            user(ContentBlock::image(PNG, "image/png")),
            user(ContentBlock::text("Please analyze the image above.")),
        ],
        _ => {
            return Err(ErrorData::invalid_params(
                format!("Unknown prompt: {name}"),
                None,
            ));
        }
    };
    Ok(GetPromptResult::new(messages))
}

/// Suggestions for the argument `argument` of the prompt `prompt`, starting
/// with `value`; `None` when the prompt has no such argument.
pub fn complete(prompt: &str, argument: &str, value: &str) -> Option<Vec<String>> {
    let suggestions: &[&str] = match (prompt, argument) {
        (WITH_ARGUMENTS, "arg1" | "arg2") => ARGUMENT_SUGGESTIONS,
        (WITH_RESOURCE, "resourceUri") => &[],
        _ => return None,
    };
    Some(
        suggestions
            .iter()
            .filter(|s| s.starts_with(value))
            .map(|s| (*s).to_owned())
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_prompt_renders_with_its_required_arguments() {
        for prompt in list(false) {
            let arguments: JsonObject = prompt
                .arguments
                .iter()
                .flatten()
                .map(|a| (a.name.clone(), "value".into()))
                .collect();
            let result = get(&prompt.name, Some(&arguments)).expect(&prompt.name);
            assert!(!result.messages.is_empty(), "{}", prompt.name);
            assert!(prompt.description.is_some(), "{}", prompt.name);
        }
    }

    #[test]
    fn a_missing_argument_or_an_unknown_prompt_is_invalid_params() {
        for (name, arguments) in [(WITH_ARGUMENTS, None), ("no_such_prompt", None)] {
            let error = get(name, arguments).unwrap_err();
            assert_eq!(error.code, rmcp::model::ErrorCode::INVALID_PARAMS, "{name}");
        }
    }

    #[test]
    fn the_prompt_that_asks_first_is_listed_only_on_2026_07_28() {
        let names =
            |current| -> Vec<String> { list(current).into_iter().map(|p| p.name).collect() };
        assert!(!names(false).contains(&ASKS_FIRST.to_owned()));
        assert_eq!(names(true).last().map(String::as_str), Some(ASKS_FIRST));
    }

    fn responses(answer: Value) -> InputResponses {
        InputResponses::from([(CONTEXT_KEY.to_owned(), answer)])
    }

    #[test]
    fn the_prompt_that_asks_first_asks_then_renders_the_answer() {
        let asked = serde_json::to_value(match ask_first(None, true).unwrap() {
            GetPromptResponse::InputRequired(asked) => asked,
            other => panic!("expected a question, got {other:?}"),
        })
        .unwrap();
        assert_eq!(asked["resultType"], "input_required");
        let question = &asked["inputRequests"][CONTEXT_KEY];
        assert_eq!(question["method"], "elicitation/create");
        assert_eq!(
            question["params"]["message"],
            "What context should the prompt use?"
        );
        // An answer to another question asks again.
        let other = InputResponses::from([("other".to_owned(), json!({"action": "accept"}))]);
        assert!(matches!(
            ask_first(Some(&other), true).unwrap(),
            GetPromptResponse::InputRequired(_)
        ));
        let answer = responses(json!({"action": "accept", "content": {"context": "test context"}}));
        let GetPromptResponse::Complete(result) = ask_first(Some(&answer), true).unwrap() else {
            panic!("expected the prompt");
        };
        assert_eq!(
            serde_json::to_value(&result.messages).unwrap(),
            json!([{"role": "user", "content": {"type": "text", "text": "Prompt with context: test context"}}])
        );
    }

    #[test]
    fn a_bad_answer_is_invalid_params_and_a_client_that_cannot_be_asked_is_refused() {
        for answer in [
            json!(12345),
            json!({"action": "accept"}),
            json!({"action": "maybe"}),
        ] {
            let error = ask_first(Some(&responses(answer.clone())), true).unwrap_err();
            assert_eq!(error.code, ErrorCode::INVALID_PARAMS, "{answer}");
        }
        let error = ask_first(None, false).unwrap_err();
        assert_eq!(error.code, MISSING_CAPABILITY);
        assert_eq!(
            error.data,
            Some(json!({"requiredCapabilities": {"elicitation": {}}}))
        );
    }

    #[test]
    fn completion_filters_by_prefix_and_knows_only_declared_arguments() {
        assert_eq!(
            complete(WITH_ARGUMENTS, "arg1", "testV"),
            Some(vec!["testValue1".to_owned(), "testValue2".to_owned()])
        );
        assert_eq!(complete(WITH_ARGUMENTS, "arg3", ""), None);
        assert_eq!(complete(SIMPLE, "arg1", ""), None);
    }
}
