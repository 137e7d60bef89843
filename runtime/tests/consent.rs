//! Consent from a person: a confirming tool asks the client's user before
//! it runs, in both protocol eras, and nothing the model sends replaces the
//! answer. Driven by rmcp's own client, and by a raw 2026-07-28 client for
//! answers rmcp's would never send.

use crate::client;

use client::{Client, Raw, capable, connect, lifecycles, text};
use rmcp::model::{CallToolRequestParams, ElicitResult, ElicitationAction};
use rmcp::service::ClientLifecycleMode;
use serde_json::{Value, json};
use std::sync::Arc;
use tooltable_fixture::{Shelf, TOOLS};
use tooltable_runtime::Registry;
use tooltable_runtime::Tier;
use tooltable_runtime::policy::Consent;
use tooltable_runtime::serve::McpServer;
use tooltable_runtime::serve::Server;

/// A server of every fixture tool, with `consent`.
fn destructive(shelf: Arc<Shelf>, consent: Consent) -> Server<McpServer<Shelf>> {
    let registry = Registry::builder(&TOOLS)
        .max_tier(Tier::Destructive)
        .consent(consent)
        .build();
    Server::new(registry, shelf)
}

fn destroy(id: i64, confirm: Option<bool>) -> CallToolRequestParams {
    let mut arguments = json!({"id": id});
    if let Some(confirm) = confirm {
        arguments["confirm"] = json!(confirm);
    }
    let mut call = CallToolRequestParams::new("items_destroy");
    call.arguments = arguments.as_object().cloned();
    call
}

fn answer(action: ElicitationAction, content: Option<Value>) -> ElicitResult {
    let result = ElicitResult::new(action);
    match content {
        Some(content) => result.with_content(content),
        None => result,
    }
}

/// How a delete ended: the result's text, whether it was an error, and how
/// many items the shelf still holds (it started with one).
struct Outcome {
    text: String,
    is_error: bool,
    left: usize,
}

/// Connects `client` in `lifecycle` to a server with `consent`, and tries to
/// destroy the shelf's one item with the `confirm` argument given.
async fn attempt(
    lifecycle: ClientLifecycleMode,
    consent: Consent,
    client: Client,
    confirm: Option<bool>,
) -> Outcome {
    let shelf = Arc::new(Shelf::new());
    let item = shelf.put("lamp");
    let running = connect(destructive(shelf.clone(), consent), client, lifecycle).await;
    let result = running
        .call_tool(destroy(item.id, confirm))
        .await
        .expect("a result, not a protocol error");
    running.cancel().await.unwrap();
    Outcome {
        text: text(&result),
        is_error: result.is_error == Some(true),
        left: shelf.count(),
    }
}

/// A client that can ask, answering the consent question with `consent`.
fn asking(consent: Option<ElicitResult>) -> Client {
    Client {
        capable: true,
        consent,
        ..Client::default()
    }
}

#[tokio::test]
async fn a_confirming_tool_asks_the_person_and_runs_when_they_allow_it() {
    for (era, lifecycle) in lifecycles() {
        let client = asking(None);
        let done = attempt(lifecycle, Consent::person(), client.clone(), None).await;
        assert!(!done.is_error, "{era}: {}", done.text);
        assert_eq!(done.left, 0, "{era}");
        assert_eq!(
            client.questions.lock().unwrap().clone(),
            vec![
                "Allow items_destroy? items_destroy destroys the item for good.\nArguments: {\"id\":1}"
            ],
            "{era}"
        );
    }
}

#[tokio::test]
async fn declining_cancelling_or_answering_false_refuses_the_call_and_changes_nothing() {
    let answers = [
        (
            answer(ElicitationAction::Decline, None),
            "The user did not allow items_destroy; nothing was done.",
        ),
        (
            answer(ElicitationAction::Cancel, None),
            "The user dismissed the question whether to allow items_destroy; nothing was done.",
        ),
        (
            answer(ElicitationAction::Accept, Some(json!({"confirm": false}))),
            "The user did not allow items_destroy; nothing was done.",
        ),
    ];
    for (era, lifecycle) in lifecycles() {
        for (consent, expected) in &answers {
            let refused = attempt(
                lifecycle.clone(),
                Consent::person(),
                asking(Some(consent.clone())),
                None,
            )
            .await;
            assert!(refused.is_error, "{era}");
            assert_eq!(refused.text, *expected, "{era}");
            assert_eq!(refused.left, 1, "{era}: nothing was destroyed");
        }
    }
}

#[tokio::test]
async fn an_answer_that_does_not_fit_the_question_allows_nothing() {
    for (era, lifecycle) in lifecycles() {
        for content in [
            json!({}),
            json!({"confirm": "true"}),
            json!({"confirm": true, "and": "more"}),
        ] {
            let consent = answer(ElicitationAction::Accept, Some(content.clone()));
            let refused = attempt(
                lifecycle.clone(),
                Consent::person(),
                asking(Some(consent)),
                None,
            )
            .await;
            assert!(refused.is_error, "{era} {content}");
            assert!(
                refused.text.starts_with(
                    "items_destroy needs a person to allow it, but the client's answer"
                ),
                "{era} {content}: {}",
                refused.text
            );
            assert_eq!(refused.left, 1, "{era} {content}");
        }
    }
}

#[tokio::test]
async fn confirm_true_from_the_model_never_replaces_asking_a_client_that_can_ask() {
    for (era, lifecycle) in lifecycles() {
        let client = asking(Some(answer(ElicitationAction::Decline, None)));
        let refused = attempt(
            lifecycle,
            Consent::person_or_argument(),
            client.clone(),
            Some(true),
        )
        .await;
        assert_eq!(
            refused.text, "The user did not allow items_destroy; nothing was done.",
            "{era}"
        );
        assert_eq!(client.questions.lock().unwrap().len(), 1, "{era}: asked");
        assert_eq!(refused.left, 1, "{era}");
    }
}

#[tokio::test]
async fn a_client_that_cannot_ask_is_refused_naming_the_operator_s_switch() {
    for (era, lifecycle) in lifecycles() {
        let consent = Consent::person().switch("start the server with --confirm-by-argument");
        let refused = attempt(lifecycle, consent, Client::default(), Some(true)).await;
        assert!(refused.is_error, "{era}");
        assert_eq!(
            refused.text,
            "items_destroy destroys the item for good, so a person must allow it, but this client cannot ask its user (it did not declare the elicitation capability); nothing was done. To let such clients confirm with `confirm: true`, start the server with --confirm-by-argument.",
            "{era}"
        );
        assert_eq!(refused.left, 1, "{era}");
    }
}

#[tokio::test]
async fn under_confirm_by_argument_a_client_that_cannot_ask_confirms_with_the_argument() {
    for (era, lifecycle) in lifecycles() {
        let by_argument = Consent::person_or_argument;
        let refused = attempt(lifecycle.clone(), by_argument(), Client::default(), None).await;
        assert!(
            refused.text.contains("call it again with `confirm: true`"),
            "{era}: {}",
            refused.text
        );
        assert_eq!(refused.left, 1, "{era}");
        let done = attempt(lifecycle, by_argument(), Client::default(), Some(true)).await;
        assert!(!done.is_error, "{era}: {}", done.text);
        assert_eq!(done.left, 0, "{era}");
    }
}

#[tokio::test]
async fn arguments_that_do_not_fit_are_refused_before_anyone_is_asked() {
    let client = asking(None);
    let running = connect(
        destructive(Arc::default(), Consent::person()),
        client.clone(),
        ClientLifecycleMode::Initialize,
    )
    .await;
    let mut call = CallToolRequestParams::new("items_destroy");
    call.arguments = json!({"id": "x"}).as_object().cloned();
    let result = running.call_tool(call).await.unwrap();
    assert!(
        text(&result).starts_with("Invalid arguments for items_destroy"),
        "{}",
        text(&result)
    );
    assert!(client.questions.lock().unwrap().is_empty());
    running.cancel().await.unwrap();
}

const CONSENT: &str = "tooltable.consent";

#[tokio::test]
async fn on_2026_07_28_consent_is_a_round_and_only_an_answer_to_the_question_asked_counts() {
    let shelf = Arc::new(Shelf::new());
    let item = shelf.put("lamp");
    let mut raw = Raw::serving(destructive(shelf.clone(), Consent::person()));
    let arguments = json!({"arguments": {"id": item.id}});
    let allow = json!({"action": "accept", "content": {"confirm": true}});

    // An answer sent before the question was asked is not consent: the
    // question is asked.
    let mut seeded = arguments.clone();
    seeded["inputResponses"] = json!({CONSENT: allow});
    let first = raw.call("items_destroy", seeded, capable()).await;
    let result = &first["result"];
    assert_eq!(result["resultType"], "input_required", "{first}");
    assert_eq!(
        result["inputRequests"][CONSENT]["method"],
        "elicitation/create"
    );
    assert_eq!(shelf.count(), 1);

    // An answer to another question does not count either.
    let mut elsewhere = arguments.clone();
    elsewhere["requestState"] = result["requestState"].clone();
    elsewhere["inputResponses"] = json!({"user_name": allow});
    let again = raw.call("items_destroy", elsewhere, capable()).await;
    assert_eq!(again["result"]["resultType"], "input_required", "{again}");
    assert_eq!(shelf.count(), 1);

    // The answer, with the state that records the question, allows it.
    let mut answered = arguments.clone();
    answered["requestState"] = result["requestState"].clone();
    answered["inputResponses"] = json!({CONSENT: allow});
    let done = raw.call("items_destroy", answered, capable()).await;
    assert_eq!(done["result"]["isError"], false, "{done}");
    assert_eq!(shelf.count(), 0);
}

#[tokio::test]
async fn on_2026_07_28_a_state_for_other_arguments_does_not_carry_consent() {
    let shelf = Arc::new(Shelf::new());
    let kept = shelf.put("lamp");
    let other = shelf.put("chair");
    let mut raw = Raw::serving(destructive(shelf.clone(), Consent::person()));
    let first = raw
        .call(
            "items_destroy",
            json!({"arguments": {"id": other.id}}),
            capable(),
        )
        .await;
    let state = first["result"]["requestState"].clone();
    let swapped = raw
        .call(
            "items_destroy",
            json!({
                "arguments": {"id": kept.id},
                "requestState": state,
                "inputResponses": {CONSENT: {"action": "accept", "content": {"confirm": true}}},
            }),
            capable(),
        )
        .await;
    assert!(
        swapped.get("error").is_some() || swapped["result"]["isError"] == true,
        "{swapped}"
    );
    assert_eq!(shelf.count(), 2, "a consent for one item destroys no other");
}
