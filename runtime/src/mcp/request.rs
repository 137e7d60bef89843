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
use serde_json::value::RawValue;
use std::borrow::Cow;

/// The params of a `tools/call` as rmcp reads its `CallToolRequestParams`,
/// so that what a shortcut accepts is what rmcp accepts: the tool's name
/// (a string), the arguments' text, and `_meta` (an object, or null or
/// absent) as the era rule reads it. The transport's guard fills them only
/// for a request whose name and `_meta` read so and that carries no retry
/// (`inputResponses`, `requestState`), which goes on to rmcp. The arguments
/// are kept as text and built ([`CallParams::arguments`]) only once the
/// shortcut knows it runs the call, so that a call left to rmcp, which
/// builds them itself, is not built twice.
#[derive(Debug)]
pub(crate) struct CallParams {
    pub name: String,
    pub arguments: Option<Box<RawValue>>,
    pub meta: Option<Meta>,
}

impl CallParams {
    /// The arguments as rmcp builds them: an object, or `None` for null or
    /// absent; `Err` for anything else, which rmcp refuses.
    pub(crate) fn arguments(&self) -> Result<Option<JsonObject>, serde_json::Error> {
        match &self.arguments {
            None => Ok(None),
            Some(raw) => serde_json::from_str(raw.get()),
        }
    }
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
