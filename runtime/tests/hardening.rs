//! Property tests on what a served request carries beyond its arguments:
//! `tools/list` cursors, a retry's `requestState` and `inputResponses`,
//! methods spelled with escapes and requests that share an id.
//! Whatever a client sends, the server answers (a result or a JSON-RPC
//! error), runs no handler on a state it did not issue, and keeps serving.

use crate::client;

use client::{Raw, capable};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::json;
use std::sync::Arc;
use tooltable_fixture::Shelf;

const CASES: u32 = 256;

/// Runs `cases` of `strategy` through `check` against one served pipe.
fn served<S: Strategy>(
    strategy: S,
    check: impl Fn(&mut Raw, &Arc<Shelf>, S::Value) -> Result<(), TestCaseError>,
) {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let _entered = runtime.enter();
    let shelf = Arc::new(Shelf::new());
    let raw = std::cell::RefCell::new(Raw::start(shelf.clone()));
    let mut runner = TestRunner::new(Config::with_cases(CASES));
    let outcome = runner.run(&strategy, |value| {
        check(&mut raw.borrow_mut(), &shelf, value)
    });
    if let Err(error) = outcome {
        panic!("{error}");
    }
    // The server still serves after every case.
    let after = runtime.block_on(raw.borrow_mut().call("items_list", json!({}), json!({})));
    assert_eq!(after["result"]["isError"], false, "{after}");
}

fn block_on<F: std::future::Future>(future: F) -> F::Output {
    tokio::runtime::Handle::current().block_on(future)
}

#[test]
fn any_cursor_is_answered_with_a_page_or_invalid_params() {
    let cursors = prop_oneof![
        "[ -~]{0,40}",
        "[0-9]{1,25}",
        any::<i64>().prop_map(|n| n.to_string())
    ];
    served(cursors, |raw, _, cursor| {
        let listed = block_on(raw.request("tools/list", json!({"cursor": cursor})));
        let fine = listed["result"]["tools"].is_array() || listed["error"]["code"] == -32602;
        prop_assert!(fine, "{}", listed);
        Ok(())
    });
}

#[test]
fn any_request_state_and_answers_are_refused_or_asked_again_and_run_nothing() {
    let states = prop_oneof!["[A-Za-z0-9_.~-]{0,200}", "[ -~]{0,80}"];
    let answers = prop_oneof![
        Just(json!({})),
        Just(json!({"item_name": {"action": "accept", "content": {"name": "x"}}})),
        "[ -~]{0,20}".prop_map(|s| json!({ "item_name": s })),
    ];
    served((states, answers), |raw, shelf, (state, answers)| {
        let before = shelf.count();
        let answer = block_on(raw.call(
            "items_put_and_name",
            json!({"requestState": state, "inputResponses": answers}),
            capable(),
        ));
        let fine =
            answer["error"]["code"] == -32602 || answer["result"]["resultType"] == "input_required";
        prop_assert!(fine, "{}", answer);
        // A forged state never resumes a call: at most the first round's
        // step runs, as for a call without a state.
        prop_assert!(shelf.count() <= before + 1);
        Ok(())
    });
}

/// A method name with some of its characters written as JSON escapes.
fn escaped(method: &'static str) -> impl Strategy<Value = String> {
    proptest::collection::vec(any::<bool>(), method.len()).prop_map(move |escape| {
        method
            .chars()
            .zip(escape)
            .map(|(c, escape)| match (escape, c) {
                (true, '/') => "\\/".to_owned(),
                (true, c) => format!("\\u{:04x}", c as u32),
                (false, c) => c.to_string(),
            })
            .collect()
    })
}

/// Writes `lines` to a served pipe at once, then reads answers until every
/// request among them was answered (or ten seconds passed); the answers.
async fn pipelined(raw: &mut Raw, lines: &[String], requests: usize) -> Vec<serde_json::Value> {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
    raw.write
        .write_all(lines.join("\n").as_bytes())
        .await
        .unwrap();
    raw.write.write_all(b"\n").await.unwrap();
    let mut answers = Vec::new();
    while answers.len() < requests {
        let mut line = String::new();
        match tokio::time::timeout(
            std::time::Duration::from_secs(10),
            raw.read.read_line(&mut line),
        )
        .await
        {
            Ok(Ok(n)) if n > 0 => answers.push(serde_json::from_str(&line).unwrap()),
            _ => break,
        }
    }
    answers
}

#[test]
fn an_escaped_method_on_the_wire_is_the_method_it_spells() {
    let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;
    served(
        (escaped("tools/list"), escaped("tools/call")),
        |raw, _, (list, call)| {
            let lines = [
                format!(r#"{{"jsonrpc":"2.0","id":"l","method":"{list}","params":{{{meta}}}}}"#),
                format!(
                    r#"{{"jsonrpc":"2.0","id":"c","method":"{call}","params":{{"name":"items_list","arguments":{{}},{meta}}}}}"#
                ),
            ];
            let answers = block_on(pipelined(raw, &lines, 2));
            let of = |id: &str| {
                answers
                    .iter()
                    .find(|a| a["id"] == id)
                    .cloned()
                    .unwrap_or_default()
            };
            prop_assert!(of("l")["result"]["tools"].is_array(), "{:?}", answers);
            prop_assert_eq!(
                &of("c")["result"]["isError"],
                &json!(false),
                "{:?}",
                answers
            );
            Ok(())
        },
    );
}

#[test]
fn requests_sharing_ids_each_get_exactly_one_answer() {
    let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;
    let ids = proptest::collection::vec(0u8..3, 1..12);
    served(ids, |raw, _, ids| {
        let lines: Vec<String> = ids
            .iter()
            .map(|id| {
                format!(
                    r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"items_list","arguments":{{}},{meta}}}}}"#
                )
            })
            .collect();
        let answers = block_on(pipelined(raw, &lines, ids.len()));
        prop_assert_eq!(
            answers.len(),
            ids.len(),
            "one answer per request: {:?}",
            answers
        );
        for id in 0u8..3 {
            let sent = ids.iter().filter(|&&i| i == id).count();
            let answered = answers.iter().filter(|a| a["id"] == id).count();
            prop_assert_eq!(sent, answered, "id {}: {:?}", id, answers);
        }
        // What is not a result is the refusal of an id already in flight.
        for answer in &answers {
            let fine = answer["result"]["isError"] == false
                || answer["error"]["message"]
                    .as_str()
                    .is_some_and(|m| m.contains("still in progress"));
            prop_assert!(fine, "{}", answer);
        }
        Ok(())
    });
}
