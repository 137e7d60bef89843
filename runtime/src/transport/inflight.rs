//! The requests of one stdio session that rmcp has and has not answered:
//! each id at most once, a bounded number at a time.
//!
//! rmcp takes every request it is given and answers each when it finishes,
//! keeping one pending answer per id: a second request under an id still in
//! flight silently loses its answer, and a client that writes requests
//! without reading the answers grows the server without bound (every request
//! becomes a task holding its answer). So the guard records each request
//! here before rmcp sees it ([`InFlight::enter`]), refusing an id already in
//! flight, and waits while the limit is reached. The writer claims a
//! request's answer when it takes it to write ([`InFlight::claim`]): the
//! request leaves, so no other answer is written for it, and a new request
//! under its id, whose answer goes through the same writer, is answered
//! after it. Until the claimed answer reached the output
//! ([`InFlight::written`]), the id counts as being written, which the thread
//! that answers listings as it reads them, writing past the writer, asks
//! ([`InFlight::being_written`]) so that it never overtakes that answer.
//! While the limit holds the guard reads no input, so the client's writes
//! block until it reads its answers: back-pressure for every kind of request.
//!
//! At shutdown the transport waits until nothing is in flight, up to its
//! grace period, and answers what is left itself ([`InFlight::abandon`]);
//! an answer rmcp writes later for an id no longer in flight is dropped.
//!
//! A cancelled request leaves at once ([`InFlight::cancel`]), but its
//! handler may still be finishing, and rmcp would hand its late answer to a
//! new request under the same id (and cancel the new one). MCP forbids
//! using an id twice in a session, so the ids of the last
//! [`REMEMBERED_CANCELLATIONS`] cancelled requests are refused.

use crate::transport::guard::RequestId;
use serde::de::{self, IgnoredAny, MapAccess, Visitor};
use std::collections::{HashSet, VecDeque};
use std::fmt;
use std::sync::Mutex;
use tokio::sync::Notify;

/// How many cancelled ids a session remembers, to refuse them again.
pub(crate) const REMEMBERED_CANCELLATIONS: usize = 1024;

/// The requests in flight on one session.
pub(crate) struct InFlight {
    ids: Mutex<Ids>,
    max: usize,
    /// Woken whenever a request leaves.
    left: Notify,
}

/// The ids of one session: in flight, and recently cancelled.
#[derive(Default)]
struct Ids {
    in_flight: HashSet<RequestId>,
    /// The requests whose answers were claimed and not yet written.
    claimed: HashSet<RequestId>,
    cancelled: HashSet<RequestId>,
    /// The cancelled ids, oldest first, to forget past the bound.
    order: VecDeque<RequestId>,
}

/// Why a request could not enter.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// A request under the same id is in flight.
    InUse,
    /// A request under the same id was cancelled.
    Cancelled,
}

impl InFlight {
    /// At most `max` requests in flight at once.
    pub(crate) fn new(max: usize) -> InFlight {
        InFlight {
            ids: Mutex::default(),
            max: max.max(1),
            left: Notify::new(),
        }
    }

    fn ids(&self) -> std::sync::MutexGuard<'_, Ids> {
        self.ids.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Why a request under `id` cannot enter now, if it cannot: one under
    /// the same id is in flight, or was cancelled.
    pub(crate) fn refusal(&self, id: &RequestId) -> Option<Refusal> {
        let ids = self.ids();
        if ids.in_flight.contains(id) {
            Some(Refusal::InUse)
        } else if ids.cancelled.contains(id) {
            Some(Refusal::Cancelled)
        } else {
            None
        }
    }

    /// Records a request under `id`, waiting while the limit is reached;
    /// refused when a request under the same id is in flight or was
    /// cancelled.
    pub(crate) async fn enter(&self, id: &RequestId) -> Result<(), Refusal> {
        loop {
            // Registered before looking, so a leave between the look and the
            // wait is not missed.
            let left = self.left.notified();
            {
                let mut ids = self.ids();
                if ids.in_flight.contains(id) {
                    return Err(Refusal::InUse);
                }
                if ids.cancelled.contains(id) {
                    return Err(Refusal::Cancelled);
                }
                if ids.in_flight.len() < self.max {
                    ids.in_flight.insert(id.clone());
                    return Ok(());
                }
            }
            left.await;
        }
    }

    /// Claims the answer of the request under `id`, to be written now: the
    /// request leaves, and its id is being written until
    /// [`InFlight::written`]. False when it was not in flight (cancelled,
    /// answered at shutdown): the answer is then dropped.
    pub(crate) fn claim(&self, id: &RequestId) -> bool {
        let mut ids = self.ids();
        if !ids.in_flight.remove(id) {
            return false;
        }
        ids.claimed.insert(id.clone());
        drop(ids);
        self.left.notify_waiters();
        true
    }

    /// The claimed answers of the requests under `answered` reached the
    /// output.
    pub(crate) fn written(&self, answered: impl IntoIterator<Item = RequestId>) {
        let mut ids = self.ids();
        for id in answered {
            ids.claimed.remove(&id);
        }
    }

    /// Whether the answer of a request under `id` was claimed and has not
    /// yet reached the output.
    pub(crate) fn being_written(&self, id: &RequestId) -> bool {
        self.ids().claimed.contains(id)
    }

    /// Crosses off the request under `id`, which the client cancelled: it
    /// gets no answer, and its id is not used again.
    pub(crate) fn cancel(&self, id: &RequestId) {
        let mut ids = self.ids();
        if !ids.in_flight.remove(id) {
            return;
        }
        if ids.cancelled.insert(id.clone()) {
            ids.order.push_back(id.clone());
            if ids.order.len() > REMEMBERED_CANCELLATIONS
                && let Some(oldest) = ids.order.pop_front()
            {
                ids.cancelled.remove(&oldest);
            }
        }
        drop(ids);
        self.left.notify_waiters();
    }

    /// Waits until nothing is in flight.
    pub(crate) async fn drained(&self) {
        loop {
            let left = self.left.notified();
            if self.ids().in_flight.is_empty() {
                return;
            }
            left.await;
        }
    }

    /// Takes every request still in flight out, for the transport to answer.
    pub(crate) fn abandon(&self) -> Vec<RequestId> {
        let abandoned: Vec<RequestId> = self.ids().in_flight.drain().collect();
        self.left.notify_waiters();
        abandoned
    }
}

/// The id of the request a line of rmcp's output answers; `None` for a
/// line that is not an answer (a notification, a request of the server's)
/// or answers no id.
///
/// Read without parsing the rest: the members are looked at in order and
/// the reading stops as soon as both the kind and the id are known (rmcp
/// writes `jsonrpc`, `id`, then `result` or `error`), so a large result
/// costs nothing here.
pub(crate) fn answered(line: &[u8]) -> Option<RequestId> {
    let mut found = Found::default();
    let mut parser = serde_json::Deserializer::from_slice(line);
    // The reading ends with an error on purpose once it knows enough.
    let _ = de::Deserializer::deserialize_map(&mut parser, AnswerVisitor(&mut found));
    match found {
        Found {
            answer: Some(true),
            id: Some(id),
        } => Some(id),
        _ => None,
    }
}

#[derive(Default)]
struct Found {
    /// `Some(true)` for `result` or `error`, `Some(false)` for `method`.
    answer: Option<bool>,
    id: Option<RequestId>,
}

struct AnswerVisitor<'f>(&'f mut Found);

/// Ends the reading early.
#[derive(Debug)]
struct Enough;

impl fmt::Display for Enough {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("enough")
    }
}

impl<'de> Visitor<'de> for AnswerVisitor<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON-RPC message")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            match key.as_ref() {
                "id" => {
                    self.0.id = match map.next_value::<serde_json::Value>()? {
                        serde_json::Value::Number(n) => n.as_i64().map(RequestId::Number),
                        serde_json::Value::String(s) => Some(RequestId::String(s.into())),
                        _ => None,
                    };
                }
                "result" | "error" => self.0.answer = Some(true),
                "method" => self.0.answer = Some(false),
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
            if self.0.answer == Some(false) || (self.0.answer.is_some() && self.0.id.is_some()) {
                return Err(de::Error::custom(Enough));
            }
            if matches!(key.as_ref(), "result" | "error") {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::time::Duration;

    fn id(n: i64) -> RequestId {
        RequestId::Number(n)
    }

    #[tokio::test]
    async fn an_id_in_flight_is_refused_until_its_answer_is_written() {
        let inflight = InFlight::new(4);
        inflight.enter(&id(1)).await.unwrap();
        assert_eq!(inflight.enter(&id(1)).await, Err(Refusal::InUse));
        assert!(inflight.claim(&id(1)));
        assert!(!inflight.claim(&id(1)), "answered once");
        assert!(inflight.being_written(&id(1)));
        // Its answer is on its way through the writer, ahead of any new
        // request's under the same id.
        assert_eq!(inflight.refusal(&id(1)), None);
        inflight.written([id(1)]);
        assert!(!inflight.being_written(&id(1)));
        inflight.enter(&id(1)).await.unwrap();
    }

    #[tokio::test]
    async fn a_cancelled_id_leaves_its_place_and_is_not_taken_again() {
        let inflight = InFlight::new(1);
        inflight.enter(&id(1)).await.unwrap();
        inflight.cancel(&id(1));
        inflight.enter(&id(2)).await.unwrap();
        assert_eq!(inflight.refusal(&id(1)), Some(Refusal::Cancelled));
        assert!(inflight.claim(&id(2)));
        inflight.written([id(2)]);
        assert_eq!(inflight.enter(&id(1)).await, Err(Refusal::Cancelled));
        for n in 10..10 + REMEMBERED_CANCELLATIONS as i64 {
            inflight.enter(&id(n)).await.unwrap();
            inflight.cancel(&id(n));
        }
        inflight.enter(&id(1)).await.unwrap();
    }

    #[tokio::test]
    async fn a_request_over_the_limit_waits_until_one_leaves() {
        let inflight = Arc::new(InFlight::new(2));
        inflight.enter(&id(1)).await.unwrap();
        inflight.enter(&id(2)).await.unwrap();
        let waiting = tokio::spawn({
            let inflight = inflight.clone();
            async move { inflight.enter(&id(3)).await }
        });
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(!waiting.is_finished(), "held while two are in flight");
        assert!(inflight.claim(&id(2)));
        tokio::time::timeout(Duration::from_secs(1), waiting)
            .await
            .expect("let in once one left")
            .unwrap()
            .unwrap();
    }

    #[tokio::test]
    async fn abandoning_takes_out_every_request_and_ends_the_wait_for_drained() {
        let inflight = InFlight::new(8);
        inflight.enter(&id(1)).await.unwrap();
        inflight
            .enter(&RequestId::String("a".into()))
            .await
            .unwrap();
        inflight.enter(&id(2)).await.unwrap();
        assert!(inflight.claim(&id(2)));
        let mut abandoned = inflight.abandon();
        abandoned.sort_by_key(|id| id.to_json());
        assert_eq!(
            abandoned,
            vec![RequestId::String("a".into()), id(1)],
            "not the one whose answer is being written"
        );
        tokio::time::timeout(Duration::from_secs(1), inflight.drained())
            .await
            .unwrap();
    }

    #[test]
    fn an_answer_is_told_from_a_request_of_the_server_and_a_notification() {
        assert_eq!(
            answered(br#"{"jsonrpc":"2.0","id":7,"result":{"tools":[]}}"#),
            Some(id(7))
        );
        assert_eq!(
            answered(br#"{"jsonrpc":"2.0","id":"x","error":{"code":-1,"message":"m"}}"#),
            Some(RequestId::String("x".into()))
        );
        assert_eq!(
            answered(br#"{"jsonrpc":"2.0","result":{},"id":8}"#),
            Some(id(8)),
            "whatever the order of members"
        );
        assert_eq!(
            answered(br#"{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{}}"#),
            None
        );
        assert_eq!(
            answered(br#"{"jsonrpc":"2.0","method":"notifications/progress"}"#),
            None
        );
        assert_eq!(answered(br#"{"jsonrpc":"2.0","error":{}}"#), None);
    }
}
