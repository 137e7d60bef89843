//! Property tests on what a served request carries beyond its arguments:
//! `tools/list` cursors and a retry's `requestState` and `inputResponses`.
//! Whatever a client sends, the server answers (a result or a JSON-RPC
//! error), runs no handler on a state it did not issue, and keeps serving.

mod client;

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
