//! The answers the HTTP transport writes itself: refusals as JSON-RPC
//! errors, rmcp's plain-text refusals turned into JSON-RPC, and rmcp's
//! answers held as being served until their bodies were written, cut off
//! with their last words when the grace period ends.

use crate::transport::guard::{self, Refused, RequestId, Unread};
use bytes::Bytes;
use http::{Response, StatusCode};
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};
use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use tokio_util::sync::CancellationToken;

/// Every response's body.
pub(super) type Body = BoxBody<Bytes, Infallible>;

pub(super) fn refusal(status: StatusCode, refused: &Refused, unread: Unread) -> Response<Body> {
    json_response(status, refused.response(unread))
}

/// A JSON response with `status`.
pub(super) fn json_response(status: StatusCode, body: String) -> Response<Body> {
    let mut response = Response::new(Full::new(Bytes::from(body)).boxed());
    *response.status_mut() = status;
    response.headers_mut().insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static("application/json"),
    );
    response
}

/// rmcp refuses some requests in plain text (a session it requires, a
/// media type it does not accept); a JSON-RPC client is owed a JSON-RPC
/// error, carrying the request's id, with the same status.
pub(super) async fn as_json_rpc(
    response: Response<Body>,
    id: Option<&RequestId>,
    unread: Unread,
) -> Response<Body> {
    let status = response.status();
    let typed = response
        .headers()
        .get(http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json") || v.starts_with("text/event-stream"));
    if status.is_success() || typed {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let text = body
        .collect()
        .await
        .map(|b| b.to_bytes())
        .unwrap_or_default();
    let text = String::from_utf8_lossy(&text);
    let code = if status.is_client_error() {
        guard::INVALID_REQUEST
    } else {
        guard::INTERNAL_ERROR
    };
    let id = id.map(RequestId::to_json);
    let body = guard::error_response(
        id.as_deref(),
        unread,
        code,
        &crate::rules::quote::text(text.trim()),
    );
    parts.headers.remove(http::header::CONTENT_LENGTH);
    parts.headers.insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static("application/json"),
    );
    Response::from_parts(parts, Full::new(Bytes::from(body)).boxed())
}

/// The answer to a request that gets none (a cancelled call): an event
/// stream that ends at once.
pub(super) fn no_answer() -> Response<Body> {
    let mut response = Response::new(Full::new(Bytes::new()).boxed());
    response.headers_mut().insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static("text/event-stream"),
    );
    response
}

/// The answer to a request cut off at the end of the grace period.
pub(super) fn stopped(id: Option<&RequestId>, unread: Unread) -> Response<Body> {
    closed(guard::stopped(id), unread)
}

/// The refusal of a request that arrived once shutdown began (its body
/// unread, so its id unknown).
pub(super) fn stopping(unread: Unread) -> Response<Body> {
    closed(guard::shutting_down(None), unread)
}

/// `503` with `refused`, and the connection closed.
fn closed(refused: Refused, unread: Unread) -> Response<Body> {
    let mut response = refusal(StatusCode::SERVICE_UNAVAILABLE, &refused, unread);
    response.headers_mut().insert(
        http::header::CONNECTION,
        http::HeaderValue::from_static("close"),
    );
    response
}

/// What a response carries until its body was written.
pub(super) struct Answering<T> {
    pub stopped: CancellationToken,
    /// The error a stream cut off at the end of the grace period ends with.
    pub last_words: Option<String>,
    /// What the request holds until its answer was written (its place
    /// among the requests being served, its id in its session).
    pub held: T,
}

/// rmcp's response, counted as being served until its body was written; a
/// stream still open when the grace period ends is closed with the error
/// its request is owed, as its last event.
pub(super) fn answered<T: Send + Sync + Unpin + 'static>(
    response: Response<Body>,
    answering: Answering<T>,
) -> Response<Body> {
    let streams = response
        .headers()
        .get(http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/event-stream"));
    response.map(|body| {
        let Answering {
            stopped,
            last_words,
            held,
        } = answering;
        GuardedBody {
            inner: body,
            stop: Box::pin(stopped.cancelled_owned()),
            last_words: if streams { last_words } else { None },
            done: false,
            _held: held,
        }
        .boxed()
    })
}

/// A response body that ends, with its last words, when the server stops.
struct GuardedBody<T> {
    inner: Body,
    stop: Pin<Box<tokio_util::sync::WaitForCancellationFutureOwned>>,
    last_words: Option<String>,
    done: bool,
    _held: T,
}

impl<T: Unpin> http_body::Body for GuardedBody<T> {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<http_body::Frame<Bytes>, Infallible>>> {
        use std::task::Poll;
        if self.done {
            return Poll::Ready(None);
        }
        if let Poll::Ready(frame) = Pin::new(&mut self.inner).poll_frame(cx) {
            if frame.is_none() {
                self.done = true;
            }
            return Poll::Ready(frame);
        }
        if self.stop.as_mut().poll(cx).is_ready() {
            self.done = true;
            return Poll::Ready(self.last_words.take().map(|words| {
                Ok(http_body::Frame::data(Bytes::from(format!(
                    "data: {words}\n\n"
                ))))
            }));
        }
        Poll::Pending
    }

    fn is_end_stream(&self) -> bool {
        self.done || self.inner.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.inner.size_hint()
    }
}
