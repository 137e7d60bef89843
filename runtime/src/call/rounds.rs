//! The rounds of a 2026-07-28 call: what carries from one to the next.
//!
//! On the 2026-07-28 revision a server cannot send a request to the client.
//! A handler that asks a question ends its round with an input-required
//! result listing the questions, and the client calls again with the
//! answers and the opaque `requestState` the server gave it. tooltable runs
//! the handler again from the start: questions answered in an earlier round
//! return their answers at once, and steps recorded with
//! [`Call::step`](super::handle::Call::step) return their recorded results
//! instead of running again. Everything that must survive between rounds is
//! in [`State`], which the serving layer seals with a server key before it
//! leaves the server, so the client can carry it but not change it.

use crate::wire::canonical::canonical_json;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

/// The version of the state's layout.
const VERSION: u8 = 1;

/// What one round hands to the next, inside the sealed `requestState`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct State {
    /// The layout version.
    v: u8,
    /// A digest of the call's arguments: a state belongs to one call.
    args: String,
    /// Every question answered so far: key → (the question's digest, the answer).
    answers: BTreeMap<String, (String, Value)>,
    /// Every step recorded so far: name → its result.
    steps: BTreeMap<String, Value>,
    /// The questions the last round asked: key → digest.
    asked: BTreeMap<String, String>,
}

/// Why a retry's state or answers were refused: a protocol error (-32602).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(not(feature = "rmcp"), allow(dead_code))]
pub(crate) struct ResumeError(pub String);

/// What a round starts from: the answers and steps of earlier rounds.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Rounds {
    pub(crate) args: String,
    pub(crate) answers: BTreeMap<String, (String, Value)>,
    pub(crate) steps: BTreeMap<String, Value>,
}

/// The digest recorded for an answer that came without a state, so without
/// the question it answers.
pub(crate) const UNRECORDED: &str = "";

#[cfg_attr(not(feature = "rmcp"), allow(dead_code))]
fn not_an_object(key: &str) -> ResumeError {
    ResumeError(format!(
        "inputResponses.{key} must be an object: the client's result for the request it answers"
    ))
}

/// A short digest of any JSON value, as canonical JSON.
pub(crate) fn digest(value: &Value) -> String {
    let hash = Sha256::digest(canonical_json(value));
    hash[..16].iter().map(|b| format!("{b:02x}")).collect()
}

/// The digest of a question: its method and params.
pub(crate) fn question_digest(method: &str, params: &Value) -> String {
    digest(&serde_json::json!([method, params]))
}

#[cfg_attr(not(feature = "rmcp"), allow(dead_code))]
impl Rounds {
    /// The first round of a call with `arguments`.
    pub(crate) fn first(arguments: &Value) -> Rounds {
        Rounds {
            args: digest(arguments),
            ..Rounds::default()
        }
    }

    /// A first round that comes with answers but no state (the state is
    /// optional in MCP): each answer stands for the question asked under its
    /// key, unchecked against the question, since no earlier round recorded
    /// it. An answer that is not an object is refused.
    pub(crate) fn seeded(
        arguments: &Value,
        responses: &serde_json::Map<String, Value>,
    ) -> Result<Rounds, ResumeError> {
        let mut rounds = Rounds::first(arguments);
        for (key, answer) in responses {
            if !answer.is_object() {
                return Err(not_an_object(key));
            }
            rounds
                .answers
                .insert(key.clone(), (UNRECORDED.to_owned(), answer.clone()));
        }
        Ok(rounds)
    }

    /// A later round: the opened state, the arguments of the retry, and the
    /// client's answers to the questions the state says were asked.
    /// Answers to questions that were not asked are ignored; an answer
    /// that is not an object is refused (every MCP result is an object).
    pub(crate) fn resume(
        state: State,
        arguments: &Value,
        responses: &serde_json::Map<String, Value>,
    ) -> Result<Rounds, ResumeError> {
        if state.v != VERSION {
            return Err(ResumeError(
                "requestState was made by another version of this server; call the tool again without it".into(),
            ));
        }
        if state.args != digest(arguments) {
            return Err(ResumeError(
                "requestState belongs to a call with other arguments; repeat the arguments of the first call, or start again without requestState".into(),
            ));
        }
        let mut answers = state.answers;
        for (key, question) in state.asked {
            match responses.get(&key) {
                None => {}
                Some(answer @ Value::Object(_)) => {
                    answers.insert(key, (question, answer.clone()));
                }
                Some(_) => return Err(not_an_object(&key)),
            }
        }
        Ok(Rounds {
            args: state.args,
            answers,
            steps: state.steps,
        })
    }

    /// The state that carries this round into the next, which asks `asked`.
    pub(crate) fn next(
        &self,
        new_steps: BTreeMap<String, Value>,
        asked: BTreeMap<String, String>,
    ) -> State {
        let mut steps = self.steps.clone();
        steps.extend(new_steps);
        State {
            v: VERSION,
            args: self.args.clone(),
            answers: self.answers.clone(),
            steps,
            asked,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn asked(key: &str) -> BTreeMap<String, String> {
        BTreeMap::from([(key.to_owned(), "d".to_owned())])
    }

    #[test]
    fn answers_to_the_asked_questions_carry_into_the_next_round_and_others_are_ignored() {
        let args = json!({"a": 1});
        let state = Rounds::first(&args).next(BTreeMap::new(), asked("user_name"));
        let responses = json!({"user_name": {"action": "accept"}, "extra": {"x": 1}});
        let rounds = Rounds::resume(state, &args, responses.as_object().unwrap()).unwrap();
        assert_eq!(rounds.answers.len(), 1);
        assert!(rounds.answers.contains_key("user_name"));
    }

    #[test]
    fn an_answer_that_is_not_an_object_is_refused() {
        let args = json!({});
        let state = Rounds::first(&args).next(BTreeMap::new(), asked("user_name"));
        let error = Rounds::resume(
            state,
            &args,
            json!({"user_name": 12345}).as_object().unwrap(),
        )
        .unwrap_err();
        assert!(
            error
                .0
                .starts_with("inputResponses.user_name must be an object")
        );
    }

    #[test]
    fn answers_without_a_state_seed_the_first_round() {
        let args = json!({});
        let responses = json!({"user_name": {"action": "accept"}, "extra": {}});
        let rounds = Rounds::seeded(&args, responses.as_object().unwrap()).unwrap();
        assert_eq!(rounds.answers["user_name"].0, UNRECORDED);
        let bad = json!({"user_name": 12345});
        assert!(Rounds::seeded(&args, bad.as_object().unwrap()).is_err());
    }

    #[test]
    fn a_state_from_a_call_with_other_arguments_is_refused() {
        let state = Rounds::first(&json!({"id": 1})).next(BTreeMap::new(), asked("k"));
        let error = Rounds::resume(state, &json!({"id": 2}), &serde_json::Map::new()).unwrap_err();
        assert!(error.0.contains("other arguments"));
    }

    #[test]
    fn steps_accumulate_across_rounds() {
        let args = json!({});
        let first = Rounds::first(&args);
        let state = first.next(BTreeMap::from([("a".to_owned(), json!(1))]), asked("k"));
        let second = Rounds::resume(state, &args, &serde_json::Map::new()).unwrap();
        let state = second.next(BTreeMap::from([("b".to_owned(), json!(2))]), asked("k2"));
        let third = Rounds::resume(state, &args, &serde_json::Map::new()).unwrap();
        assert_eq!(third.steps.len(), 2);
    }
}
