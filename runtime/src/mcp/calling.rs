//! `tools/call` of a tool that cannot talk back, answered before rmcp.
//!
//! rmcp answers a call through its service: a task, a request context, the
//! peer, the result through the transport's channels, and over HTTP a
//! session made for one stateless request. A tool whose handler takes no
//! per-call handle, confirms nothing and never runs as a task needs none
//! of it: its call is one request and one answer in every era. Such a call,
//! in an era the transport is sure of and for a caller it knows, runs here
//! through the adapter's one call path (admission, policy, flags, pins,
//! argument validation, the handler, the result's shape) and its answer is
//! written as rmcp writes it, shaped for the era as rmcp's server handler
//! shapes it. Everything else goes on to rmcp unchanged.

use crate::call::handle::Era;
use crate::call::handler::BoxFuture;
use crate::mcp::caller::CallerSource;
use crate::mcp::era::{Asked, Negotiated};
use crate::mcp::request::CallParams;
use crate::registry::policy::Caller;
use rmcp::ErrorData;
use rmcp::model::{CallToolResponse, ErrorCode, RequestId, ServerJsonRpcMessage, ServerResult};
use std::sync::Arc;

/// The whole JSON-RPC response to a call, once the call has run.
pub(crate) type Pending = BoxFuture<'static, String>;

/// A server that can run a call without rmcp's service: the adapter.
pub(crate) trait ShortcutCalls: Send + Sync + 'static {
    /// How the caller of a request is decided.
    fn caller_source(&self) -> &CallerSource;

    /// The call `params` by `caller`, to be awaited, or `None` when it
    /// needs rmcp's service (or its arguments are of a type rmcp refuses,
    /// [`CallParams::arguments`]). `over_http` says whether the request
    /// came over HTTP, whose headers rmcp checks against some tools'
    /// arguments.
    fn call_directly(
        self: Arc<Self>,
        params: CallParams,
        caller: Caller,
        over_http: bool,
    ) -> Option<BoxFuture<'static, Result<CallToolResponse, ErrorData>>>;
}

/// The calls one transport answers: its server and session.
pub(crate) struct Calling<S> {
    pub server: Arc<S>,
    /// The session the transport serves (stdio), whose `initialize` decides
    /// the era of requests without a version of their own; `None` where
    /// every request must carry its version (stateless HTTP).
    pub session: Option<Arc<Negotiated>>,
}

impl<S: ShortcutCalls> Calling<S> {
    /// The response to the call `id` with `params`, once the call ran, or
    /// `None` for rmcp to answer
    /// ([`Shortcut::call`](super::shortcut::Shortcut::call)).
    pub(crate) fn answer(
        &self,
        id: RequestId,
        params: CallParams,
        transport_caller: &Caller,
        asked: Asked<'_>,
    ) -> Option<Pending> {
        let era = asked.era(params.meta.as_ref(), self.session.as_deref())?;
        let caller = self
            .server
            .caller_source()
            .without_context(transport_caller)?
            .clone();
        let call = self
            .server
            .clone()
            .call_directly(params, caller, asked.over_http())?;
        // What the serving tests count to know which path answered.
        tracing::debug!(target: "tooltable::shortcut", "a call is answered without rmcp's service");
        Some(Box::pin(async move { response(id, era, call.await) }))
    }
}

/// The JSON-RPC response rmcp writes for a call's outcome in `era`: a
/// 2026-07-28 result with its caching hints filled in, an earlier one in
/// the shape its revision defines.
fn response(id: RequestId, era: Era, outcome: Result<CallToolResponse, ErrorData>) -> String {
    let message = match outcome {
        Ok(response) => {
            let mut result = ServerResult::from(response);
            match era {
                Era::Current => result.fill_missing_cache_hints(),
                Era::Legacy => {
                    result.strip_result_type_for_legacy_peer();
                    result.strip_non_object_output_for_legacy_peer();
                }
            }
            ServerJsonRpcMessage::response(result, id.clone())
        }
        Err(mut error) => {
            if era == Era::Current && error.code == ErrorCode::RESOURCE_NOT_FOUND {
                error.code = ErrorCode::INVALID_PARAMS;
            }
            ServerJsonRpcMessage::error(error, Some(id.clone()))
        }
    };
    serde_json::to_string(&message).unwrap_or_else(|error| {
        // rmcp's types always serialise; were one not to, the client still
        // gets an answer to its request.
        tracing::error!(%error, "a call's answer could not be written");
        let id = serde_json::to_string(&id).unwrap_or_else(|_| "null".into());
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32603,"message":"the call's answer could not be written; consult the server log"}}}}"#
        )
    })
}
