//! rmcp's sessions as the transport sees them: the revision each opened
//! on, the ids of the requests in progress in each, and when each was last
//! used.
//!
//! rmcp answers a request in a session through the session's task: the
//! request goes down a channel to it, the handler runs, and the answer
//! comes back as an event stream. A listing, or a call of a tool that
//! cannot talk back, needs none of it once the transport knows the
//! revision the session opened on: rmcp's answer to the `initialize` that
//! opened it passes through the transport ([`Sessions::opening`]), which
//! records the revision once that answer is a result. Such a request is
//! then answered by the shortcut, in that revision's era. rmcp still owns
//! the session: it opens it and ends it on `DELETE`, and the transport asks
//! it on every such request whether the session is still open.
//!
//! rmcp ends a session its task has heard nothing of for a while; requests
//! answered here never reach that task, so rmcp keeps every session and the
//! transport ends those unused for [`IDLE`] itself, never one with a
//! request or a stream in progress.

use super::answer::Body;
use crate::mcp::era::Negotiated;
use crate::transport::guard::RequestId;
use bytes::Bytes;
use http::Response;
use http_body_util::BodyExt;
use rmcp::model::ProtocolVersion;
use rmcp::transport::streamable_http_server::session::SessionManager;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use serde::de::IgnoredAny;
use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::Duration;
use tokio::task::{AbortHandle, JoinHandle};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

/// How long a session may go unused before it ends: rmcp's own default.
pub(super) const IDLE: Duration = Duration::from_secs(300);
/// How often sessions unused for [`IDLE`] are looked for.
const SWEEP: Duration = Duration::from_secs(15);

/// The sessions rmcp opened through this transport.
#[derive(Default)]
pub(super) struct Sessions {
    open: Mutex<HashMap<Arc<str>, Open>>,
    /// The ids of the requests in progress in each session: a second
    /// request under one is refused. A call the shortcut runs holds what
    /// cancels it.
    ids: Mutex<HashMap<InSession, Option<AbortHandle>>>,
    /// Whether the task that ends unused sessions was started.
    sweeping: AtomicBool,
}

/// A request's id in its session.
type InSession = (Arc<str>, RequestId);

/// One open session.
struct Open {
    /// The revision its `initialize` asked for, once rmcp answered it with
    /// a result.
    negotiated: Arc<Negotiated>,
    /// Its requests and streams in progress.
    in_progress: usize,
    /// When one last arrived or ended.
    last_used: Instant,
}

fn locked<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|p| p.into_inner())
}

impl Sessions {
    /// rmcp's answer to an `initialize` that asked for `version`: when it
    /// names a session, the session is recorded as open, and its revision
    /// once the answer is seen to be a result. The first session starts the
    /// task that ends unused ones, which stops with `stop` or the service.
    pub(super) fn opening(
        self: &Arc<Self>,
        response: Response<Body>,
        version: Option<&str>,
        rmcp: &Arc<LocalSessionManager>,
        stop: &CancellationToken,
    ) -> Response<Body> {
        let Some(id) = response
            .headers()
            .get(super::headers::MCP_SESSION_ID)
            .and_then(|v| v.to_str().ok())
        else {
            return response;
        };
        let negotiated = self.record(id);
        if !self.sweeping.swap(true, Ordering::AcqRel) {
            tokio::spawn(sweep(
                Arc::downgrade(self),
                Arc::downgrade(rmcp),
                stop.clone(),
            ));
        }
        // rmcp decodes the version as any text.
        let Some(version) =
            version.and_then(|v| serde_json::from_value::<ProtocolVersion>(v.into()).ok())
        else {
            return response;
        };
        response.map(|body| {
            Tap {
                inner: body,
                waiting: Some((negotiated, version)),
            }
            .boxed()
        })
    }

    /// Records session `id` as open, its revision not yet known.
    fn record(&self, id: &str) -> Arc<Negotiated> {
        let negotiated = Arc::new(Negotiated::default());
        locked(&self.open).insert(
            id.into(),
            Open {
                negotiated: negotiated.clone(),
                in_progress: 0,
                last_used: Instant::now(),
            },
        );
        negotiated
    }

    /// The revision session `id` opened on, when rmcp still has the
    /// session and the transport knows its revision.
    pub(super) async fn revision(
        &self,
        id: &str,
        rmcp: &LocalSessionManager,
    ) -> Option<Arc<Negotiated>> {
        let negotiated = locked(&self.open).get(id)?.negotiated.clone();
        negotiated.is_set().then_some(())?;
        if rmcp.has_session(&Arc::from(id)).await.unwrap_or(false) {
            return Some(negotiated);
        }
        locked(&self.open).remove(id);
        None
    }

    /// Session `id` is used by a request or stream until the guard is
    /// dropped; `None` for a session the transport does not know.
    pub(super) fn using(self: &Arc<Self>, id: &str) -> Option<InUse> {
        let mut open = locked(&self.open);
        let key = open.get_key_value(id)?.0.clone();
        let session = open.get_mut(id)?;
        session.in_progress += 1;
        session.last_used = Instant::now();
        Some(InUse {
            sessions: self.clone(),
            id: key,
        })
    }

    /// The sessions unused for [`IDLE`] at `now`, taken out.
    fn unused(&self, now: Instant) -> Vec<Arc<str>> {
        locked(&self.open)
            .extract_if(|_, session| {
                session.in_progress == 0 && now.duration_since(session.last_used) >= IDLE
            })
            .map(|(id, _)| id)
            .collect()
    }

    /// The id `id` in `session`, held until dropped, or `None` when a
    /// request in progress there already has it.
    pub(super) fn take_id(self: &Arc<Self>, session: &str, id: &RequestId) -> Option<SessionId> {
        let key = (Arc::<str>::from(session), id.clone());
        let mut ids = locked(&self.ids);
        if ids.contains_key(&key) {
            return None;
        }
        ids.insert(key.clone(), None);
        Some(SessionId {
            sessions: self.clone(),
            key,
        })
    }

    /// The client ended session `id`: the calls the shortcut runs in it
    /// are cancelled, as rmcp cancels its own.
    pub(super) fn ended(&self, id: &str) {
        locked(&self.open).remove(id);
        for ((session, _), call) in locked(&self.ids).iter() {
            if &**session == id
                && let Some(call) = call
            {
                call.abort();
            }
        }
    }

    /// Cancels the call under `id` in `session`, if the shortcut runs it.
    pub(super) fn cancel(&self, session: &str, id: &RequestId) {
        let key = (Arc::<str>::from(session), id.clone());
        if let Some(Some(call)) = locked(&self.ids).get(&key) {
            call.abort();
        }
    }
}

/// A session in use, until dropped.
pub(super) struct InUse {
    sessions: Arc<Sessions>,
    id: Arc<str>,
}

impl Drop for InUse {
    fn drop(&mut self) {
        if let Some(session) = locked(&self.sessions.open).get_mut(&self.id) {
            session.in_progress -= 1;
            session.last_used = Instant::now();
        }
    }
}

/// The id of a request in progress in a session, given back when dropped.
pub(super) struct SessionId {
    sessions: Arc<Sessions>,
    key: InSession,
}

impl SessionId {
    /// Runs a call the shortcut took under this id, as a task of its own
    /// that keeps the id, and the session in use, until the call ended.
    /// In a session, a client's closing its connection is not a
    /// cancellation (the revisions with sessions say so); the call goes on,
    /// and `notifications/cancelled` or DELETE still find it.
    pub(super) fn run<F>(self, call: F, in_use: Option<InUse>) -> JoinHandle<F::Output>
    where
        F: Future + Send + 'static,
        F::Output: Send + 'static,
    {
        let sessions = self.sessions.clone();
        let key = self.key.clone();
        // Locked while the task is spawned: it gives the id back when it
        // ends, which waits for the lock, so the handle recorded is never
        // put in the place of a later request's under the same id.
        let mut ids = locked(&sessions.ids);
        let task = tokio::spawn(async move {
            let _held = (self, in_use);
            call.await
        });
        if let Some(slot) = ids.get_mut(&key) {
            *slot = Some(task.abort_handle());
        }
        task
    }
}

impl Drop for SessionId {
    fn drop(&mut self) {
        locked(&self.sessions.ids).remove(&self.key);
    }
}

/// Ends the sessions unused for [`IDLE`], and forgets those rmcp ended,
/// every [`SWEEP`], until `stop` or until the service is gone.
async fn sweep(sessions: Weak<Sessions>, rmcp: Weak<LocalSessionManager>, stop: CancellationToken) {
    loop {
        tokio::select! {
            () = stop.cancelled() => return,
            () = tokio::time::sleep(SWEEP) => {}
        }
        let (Some(sessions), Some(rmcp)) = (sessions.upgrade(), rmcp.upgrade()) else {
            return;
        };
        for id in sessions.unused(Instant::now()) {
            tracing::debug!("a session unused for {} s was ended", IDLE.as_secs());
            let _ = rmcp.close_session(&id).await;
        }
        let known: Vec<Arc<str>> = locked(&sessions.open).keys().cloned().collect();
        for id in known {
            if !rmcp.has_session(&id).await.unwrap_or(true) {
                locked(&sessions.open).remove(&id);
            }
        }
    }
}

/// The body of rmcp's answer to an `initialize`, which records the
/// session's revision once a frame of it is a result.
struct Tap {
    inner: Body,
    waiting: Option<(Arc<Negotiated>, ProtocolVersion)>,
}

impl http_body::Body for Tap {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<http_body::Frame<Bytes>, Infallible>>> {
        let polled = Pin::new(&mut self.inner).poll_frame(cx);
        // Frames after the result are not looked at.
        if self.waiting.is_some()
            && let std::task::Poll::Ready(Some(Ok(frame))) = &polled
            && let Some(data) = frame.data_ref()
            && is_result(data)
            && let Some((negotiated, version)) = self.waiting.take()
        {
            negotiated.set(version);
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.inner.size_hint()
    }
}

/// Whether `frame` (a JSON body, or events of a stream) carries a JSON-RPC
/// result.
fn is_result(frame: &[u8]) -> bool {
    #[derive(serde::Deserialize)]
    struct Reply {
        result: Option<IgnoredAny>,
    }
    let result = |json: &[u8]| {
        serde_json::from_slice::<Reply>(json).is_ok_and(|reply| reply.result.is_some())
    };
    if frame.trim_ascii_start().starts_with(b"{") {
        return result(frame);
    }
    frame
        .split(|b| *b == b'\n')
        .filter_map(|line| line.strip_prefix(b"data:"))
        .any(|data| result(data.trim_ascii()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_result_is_found_in_a_json_body_and_in_an_event() {
        assert!(is_result(br#"{"jsonrpc":"2.0","id":0,"result":{}}"#));
        assert!(is_result(
            b"id: 0\ndata: \n\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{}}\n\n"
        ));
        assert!(!is_result(
            br#"data: {"jsonrpc":"2.0","id":0,"error":{"code":-32602,"message":"m"}}"#
        ));
        assert!(!is_result(b"id: 0\ndata: \n\n"));
    }

    #[test]
    fn a_session_is_unused_once_its_last_request_ended_the_idle_time_ago() {
        let sessions = Arc::new(Sessions::default());
        let start = Instant::now();
        for id in ["a", "b"] {
            sessions.record(id);
            locked(&sessions.open).get_mut(id).unwrap().last_used = start;
        }
        let held = sessions.using("a").unwrap();
        assert_eq!(
            sessions.unused(start + IDLE + IDLE),
            vec![Arc::<str>::from("b")],
            "a session with a request in progress is not unused"
        );
        drop(held);
        let ended = locked(&sessions.open)["a"].last_used;
        assert!(
            sessions
                .unused(ended + IDLE - Duration::from_millis(1))
                .is_empty()
        );
        assert_eq!(sessions.unused(ended + IDLE), vec![Arc::<str>::from("a")]);
        assert!(sessions.using("a").is_none(), "taken out");
    }

    #[tokio::test(start_paused = true)]
    async fn rmcp_is_told_to_end_the_sessions_unused_for_the_idle_time_and_no_other() {
        let mut rmcp = LocalSessionManager::default();
        rmcp.session_config.keep_alive = None;
        rmcp.session_config.init_timeout = None;
        let rmcp = Arc::new(rmcp);
        let sessions = Arc::new(Sessions::default());
        let (unused, _) = rmcp.create_session().await.unwrap();
        let (used, _) = rmcp.create_session().await.unwrap();
        sessions.record(&unused);
        sessions.record(&used);
        let stream = sessions.using(&used).unwrap();
        let stop = CancellationToken::new();
        tokio::spawn(sweep(
            Arc::downgrade(&sessions),
            Arc::downgrade(&rmcp),
            stop.clone(),
        ));
        tokio::time::sleep(IDLE - Duration::from_secs(1)).await;
        assert!(rmcp.has_session(&unused).await.unwrap(), "not yet unused");
        tokio::time::sleep(SWEEP + Duration::from_secs(1)).await;
        assert!(!rmcp.has_session(&unused).await.unwrap(), "ended");
        assert!(
            rmcp.has_session(&used).await.unwrap(),
            "a stream in progress"
        );
        drop(stream);
        tokio::time::sleep(IDLE + SWEEP).await;
        assert!(!rmcp.has_session(&used).await.unwrap(), "ended once unused");
        stop.cancel();
    }

    #[test]
    fn an_id_in_progress_in_a_session_is_refused_there_only_until_given_back() {
        let sessions = Arc::new(Sessions::default());
        let id = RequestId::Number(1);
        let held = sessions.take_id("a", &id).unwrap();
        assert!(sessions.take_id("a", &id).is_none());
        assert!(sessions.take_id("b", &id).is_some());
        drop(held);
        assert!(sessions.take_id("a", &id).is_some());
    }
}
