//! Consent from a person: the question a confirming tool asks before it runs.
//!
//! The model decides which tools to call and with what arguments, so it
//! cannot also be the one that allows a risky call: a prompt-injected model
//! would allow its own. When the client declared elicitation, the person
//! using it is asked, in form mode, on either protocol era, through the same
//! machinery a handler uses to ask; the call runs only on an accepted `true`.
//! The rule for clients that cannot ask is `rules::confirm::without_person`.

use crate::call::ask::{Action, AskError, Capability, Elicitation, Elicited};
use crate::call::handle::Call;
use crate::call::handler::Arguments;
use crate::rules::confirm::{self, Confirm, Consent, Refusal};
use crate::rules::info::ToolInfo;
use crate::rules::quote;
use serde_json::{Value, json};

/// The key of the consent question across the rounds of a 2026-07-28 call;
/// the `tooltable.` prefix keeps it apart from a handler's own keys.
pub(crate) const KEY: &str = "tooltable.consent";

/// How much of the arguments the question shows a person, in characters:
/// more than a reply quotes, since the person decides on them.
const SHOWN_ARGUMENTS_CHARS: usize = 1_000;

/// Allows a call to `info`, whose `confirm` argument (already taken out of
/// `arguments`) was `given`: by asking the person when the client can ask,
/// otherwise by the operator's `consent` setting.
pub(crate) async fn obtain(
    info: &ToolInfo<'_>,
    confirm: &Confirm<'_>,
    consent: &Consent,
    given: Option<bool>,
    arguments: &Arguments,
    call: &Call,
) -> Result<(), Refusal> {
    if !call.client().has(Capability::Elicitation) {
        return confirm::without_person(info.name, confirm, consent, given);
    }
    let answer = call
        .ask_consent(question(info.name, confirm, arguments))
        .await;
    read(info.name, answer)
}

/// The question: the tool, what it does and the arguments it would run
/// with, and one required boolean.
fn question(tool: &str, confirm: &Confirm<'_>, arguments: &Arguments) -> Elicitation {
    let arguments = Value::Object(arguments.clone()).to_string();
    let shown = quote::shorten(&arguments, SHOWN_ARGUMENTS_CHARS);
    let what = match confirm.consequence() {
        Some(consequence) => format!("{tool} {consequence}."),
        None => format!("{tool} asks for your confirmation."),
    };
    let message = format!("Allow {tool}? {what}\nArguments: {shown}");
    let schema = json!({
        "type": "object",
        "properties": {
            confirm::PROPERTY: {
                "type": "boolean",
                "title": format!("Allow {tool}"),
                "description": what,
            }
        },
        "required": [confirm::PROPERTY],
    });
    Elicitation::form(message, schema).key(KEY)
}

/// Reads the person's answer: only an accepted form holding exactly
/// `confirm: true` allows the call.
fn read(tool: &str, answer: Result<Elicited, AskError>) -> Result<(), Refusal> {
    let tool = tool.to_owned();
    let answer = match answer {
        Ok(answer) => answer,
        Err(error) => {
            return Err(Refusal::NoAnswer {
                tool,
                why: error.to_string(),
            });
        }
    };
    match answer.action {
        Action::Decline => return Err(Refusal::Declined { tool }),
        Action::Cancel => return Err(Refusal::Dismissed { tool }),
        Action::Accept => {}
    }
    let content = answer.content.unwrap_or_default();
    match (content.len(), content.get(confirm::PROPERTY)) {
        (1, Some(Value::Bool(true))) => Ok(()),
        (1, Some(Value::Bool(false))) => Err(Refusal::Declined { tool }),
        _ => Err(Refusal::NoAnswer {
            tool,
            why: format!(
                "the client's answer to the question whether to allow it was {} instead of exactly one boolean `confirm`",
                quote::text(&Value::Object(content).to_string())
            ),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Map;

    fn accepted(content: Value) -> Result<Elicited, AskError> {
        Ok(Elicited {
            action: Action::Accept,
            content: content.as_object().cloned(),
        })
    }

    #[test]
    fn the_question_names_the_tool_its_consequence_and_the_arguments() {
        let mut arguments = Map::new();
        arguments.insert("id".into(), json!(3));
        let q = question(
            "notes_delete",
            &Confirm::Because("deletes the note".into()),
            &arguments,
        );
        let params = crate::call::ask::Question::Elicit(q).params();
        assert_eq!(
            params["message"],
            "Allow notes_delete? notes_delete deletes the note.\nArguments: {\"id\":3}"
        );
        assert_eq!(params["requestedSchema"]["required"], json!(["confirm"]));
        assert_eq!(
            params["requestedSchema"]["properties"]["confirm"]["type"],
            "boolean"
        );
    }

    #[test]
    fn huge_arguments_are_shortened_in_the_question() {
        let mut arguments = Map::new();
        arguments.insert("body".into(), json!("x".repeat(100_000)));
        let q = question("t", &Confirm::Required, &arguments);
        let params = crate::call::ask::Question::Elicit(q).params();
        let message = params["message"].as_str().unwrap();
        assert!(message.len() < 1_200, "{}", message.len());
        assert!(
            message.contains("xxx…xxx"),
            "its start and its end are shown"
        );
    }

    #[test]
    fn only_an_accepted_true_allows_the_call() {
        assert_eq!(read("t", accepted(json!({"confirm": true}))), Ok(()));
        assert_eq!(
            read("t", accepted(json!({"confirm": false}))),
            Err(Refusal::Declined { tool: "t".into() })
        );
        for action in [Action::Decline, Action::Cancel] {
            let refusal = read(
                "t",
                Ok(Elicited {
                    action,
                    content: None,
                }),
            )
            .unwrap_err();
            assert!(refusal.to_string().ends_with("nothing was done."));
        }
    }

    #[test]
    fn a_missing_mistyped_or_padded_answer_allows_nothing() {
        for content in [
            json!({}),
            json!({"confirm": "true"}),
            json!({"confirm": 1}),
            json!({"confirm": true, "also": "this"}),
        ] {
            let refusal = read("notes_delete", accepted(content.clone())).unwrap_err();
            assert!(
                matches!(refusal, Refusal::NoAnswer { .. }),
                "{content}: {refusal:?}"
            );
            assert!(
                refusal.to_string().contains("nothing was done"),
                "{refusal}"
            );
        }
        let refusal = read(
            "t",
            Ok(Elicited {
                action: Action::Accept,
                content: None,
            }),
        )
        .unwrap_err();
        assert!(matches!(refusal, Refusal::NoAnswer { .. }));
    }

    #[test]
    fn a_failure_to_ask_allows_nothing() {
        let refusal = read("notes_delete", Err(AskError::Cancelled)).unwrap_err();
        assert_eq!(
            refusal.to_string(),
            "notes_delete needs a person to allow it, but the call was cancelled while waiting for an answer; nothing was done."
        );
    }
}
