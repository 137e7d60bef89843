//! The requests a transport answers itself, before rmcp's service.
//!
//! rmcp answers every request through its service: a task per request, a
//! request context, the peer, the typed message parsed again and written
//! through the transport's own channels. Two requests need none of it when
//! the transport can be sure of their era and caller: a `tools/list`
//! ([`super::listing`]), answered from the descriptors' text, and a
//! `tools/call` of a tool that cannot talk back ([`super::calling`]), which
//! is one request and one answer in every era. A transport hands such a
//! request here first, after its guard read it; what this module is not
//! sure of goes on to rmcp unchanged. The shortcut may decline, never
//! differ: the serving tests compare its answers with rmcp's, as JSON values
//! (rmcp writes a tool's annotations in its struct's order, the baked text
//! in key order).

use crate::mcp::calling::{Calling, ShortcutCalls};
use crate::mcp::listing::{Answer, Listing};
use crate::registry::policy::Caller;
use rmcp::model::RequestId;

pub(crate) use crate::mcp::calling::Pending;
pub(crate) use crate::mcp::era::Asked;
pub(crate) use crate::mcp::request::CallParams;

/// Answers the requests of one transport that need no rmcp service, or
/// declines them.
pub(crate) trait Shortcut: Send + Sync {
    /// The whole JSON-RPC response to a `tools/list` `request`, asked by
    /// `transport_caller` (the caller the transport established) where it
    /// was `asked`, or `None` for rmcp to answer.
    fn list(&self, request: &[u8], transport_caller: &Caller, asked: Asked<'_>) -> Option<Answer>;

    /// The response to the `tools/call` request `id` with `params` (as the
    /// guard read them), to be awaited, or `None` for rmcp to answer. Once
    /// it is given, the call has been admitted and its handler will run
    /// when the future is polled; dropping the future cancels the call as
    /// rmcp's dropping would.
    fn call(
        &self,
        id: RequestId,
        params: CallParams,
        transport_caller: &Caller,
        asked: Asked<'_>,
    ) -> Option<Pending>;
}

/// The shortcuts of an adapter: its listings and its calls, each unless
/// the server sends them all through rmcp.
pub(crate) struct Shortcuts<C: Send + Sync + 'static, S> {
    pub listing: Option<Listing<C>>,
    pub calling: Option<Calling<S>>,
}

impl<C: Send + Sync + 'static, S: ShortcutCalls> Shortcut for Shortcuts<C, S> {
    fn list(&self, request: &[u8], transport_caller: &Caller, asked: Asked<'_>) -> Option<Answer> {
        self.listing
            .as_ref()?
            .answer(request, transport_caller, asked)
    }

    fn call(
        &self,
        id: RequestId,
        params: CallParams,
        transport_caller: &Caller,
        asked: Asked<'_>,
    ) -> Option<Pending> {
        self.calling
            .as_ref()?
            .answer(id, params, transport_caller, asked)
    }
}
