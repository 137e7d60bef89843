//! The envelope of a request a shortcut answers, read once for both.
//!
//! A listing and a call answered before rmcp ([`super::shortcut`]) must be
//! requests rmcp would accept: JSON-RPC 2.0, the method the shortcut
//! answers, an id of rmcp's type. Their params differ; the envelope and
//! its check are the same, and are here.

use rmcp::model::RequestId;
use std::borrow::Cow;

#[derive(serde::Deserialize)]
struct Envelope<'a, P> {
    #[serde(borrow)]
    jsonrpc: Cow<'a, str>,
    id: RequestId,
    #[serde(borrow)]
    method: Cow<'a, str>,
    #[serde(default = "none")]
    params: Option<P>,
}

fn none<P>() -> Option<P> {
    None
}

/// The id and params of `request` if it is a JSON-RPC 2.0 request of
/// `method` whose params read as `P`; `None` for rmcp to answer.
pub(crate) fn read<'a, P: serde::Deserialize<'a>>(
    request: &'a [u8],
    method: &str,
) -> Option<(RequestId, Option<P>)> {
    let envelope: Envelope<'a, P> = serde_json::from_slice(request).ok()?;
    (envelope.jsonrpc == "2.0" && envelope.method == method)
        .then_some((envelope.id, envelope.params))
}
