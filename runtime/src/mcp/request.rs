//! What a shortcut reads of the requests it answers.
//!
//! A listing and a call answered before rmcp ([`super::shortcut`]) must be
//! requests rmcp would accept: JSON-RPC 2.0, the method the shortcut
//! answers, an id of rmcp's type, params as rmcp reads them. A listing's
//! envelope and params are read here from the request's text ([`read`]).
//! A call's are read by the transport's guard in its one pass over the
//! message, which every call pays anyway, into [`CallParams`].

use crate::mcp::era::Meta;
use rmcp::model::{JsonObject, RequestId};
use std::borrow::Cow;

/// The params of a `tools/call` as rmcp reads its `CallToolRequestParams`,
/// so that what a shortcut accepts is what rmcp accepts: the tool's name
/// (a string), the arguments (an object, or null or absent: `None`) built
/// as rmcp builds them, and `_meta` (an object, or null or absent) as the
/// era rule reads it. The transport's guard fills them only for a request
/// whose params read so and that carries no retry (`inputResponses`,
/// `requestState`), which goes on to rmcp.
#[derive(Debug)]
pub(crate) struct CallParams {
    pub name: String,
    pub arguments: Option<JsonObject>,
    pub meta: Option<Meta>,
}

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
