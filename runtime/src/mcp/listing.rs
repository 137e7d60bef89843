//! `tools/list` answered from the descriptors' own text, before rmcp.
//!
//! rmcp answers a listing by parsing every descriptor into a `Tool` and
//! serialising it again, so each request costs what the whole table costs.
//! The descriptors are JSON text already (baked at build time, or kept by a
//! provider), so both transports hand a `tools/list` request here first, and
//! one this module can answer exactly as rmcp would is answered by copying
//! that text into the response. What is not certain (a request of an
//! unusual shape, an era the transport cannot tell, a caller only a custom
//! function can name, a cursor this server did not give out) goes on to
//! rmcp unchanged: the shortcut may decline, never differ. The serving
//! tests compare its answers with rmcp's for every era, page and policy
//! they serve.

use crate::call::handle::Era;
use crate::mcp::caller::CallerSource;
use crate::mcp::era::{Asked, Meta, Negotiated};
use crate::registry::policy::Caller;
use crate::registry::registry::{ListText, Registry};
use rmcp::model::CacheScope;
use std::fmt::Write as _;
use std::sync::Arc;

/// The settings of a listing that are the adapter's, not the registry's.
#[derive(Clone, Copy)]
pub(crate) struct Shape {
    /// How long a 2026-07-28 client may treat a listing as fresh.
    pub ttl_ms: u64,
    /// The most tools a page holds; `None` for one page.
    pub page_size: Option<usize>,
}

/// The bounds of the page a cursor starts: `None` when the cursor is not
/// one this server gave out. The one rule for both paths.
///
/// A cursor is the position of the page it starts, a multiple of the page
/// size, written as the server writes it (so `"0"`, `"1"` on pages of two,
/// `"+2"` or `"02"` are refused); a listing that shrank since leaves a
/// cursor at its end an empty last page.
pub(crate) fn page(
    cursor: Option<&str>,
    visible: usize,
    page_size: Option<usize>,
) -> Option<(usize, usize)> {
    let start = match (cursor, page_size) {
        (None, _) => 0,
        (Some(_), None) => return None,
        (Some(cursor), Some(size)) => {
            let start = cursor.parse::<usize>().ok()?;
            let given_out = start > 0 && start % size == 0 && start.to_string() == cursor;
            (given_out && start <= visible).then_some(start)?
        }
    };
    let end = page_size.map_or(visible, |size| start.saturating_add(size).min(visible));
    Some((start, end))
}

/// Whether a listing may be cached for everyone (`public`) or only for
/// the caller who asked (`private`): public when it cannot depend on who
/// asks. The one rule for both paths.
pub(crate) fn cache_scope<C: 'static>(registry: &Registry<C>, caller: &Caller) -> CacheScope {
    if caller.pins().is_none() && registry.lists_alike_for(caller) {
        CacheScope::Public
    } else {
        CacheScope::Private
    }
}

/// A whole JSON-RPC response to `tools/list`: the descriptors' text between
/// the envelope's head and tail, kept apart so that a transport can write
/// the text where it lies instead of copying it.
pub(crate) struct Answer {
    head: String,
    tools: ListText,
    tail: String,
}

impl Answer {
    /// The response as one string.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn into_string(self) -> String {
        let mut text = self.head;
        text.reserve(self.tools.len() + self.tail.len());
        text.push_str(&self.tools);
        text.push_str(&self.tail);
        text
    }

    /// The response and a newline, in the pieces it lies in.
    pub(crate) fn line_parts(&self) -> [std::io::IoSlice<'_>; 4] {
        use std::io::IoSlice;
        [
            IoSlice::new(self.head.as_bytes()),
            IoSlice::new(self.tools.as_bytes()),
            IoSlice::new(self.tail.as_bytes()),
            IoSlice::new(b"\n"),
        ]
    }

    /// Writes the response and a newline, in as few writes as `out` allows.
    pub(crate) fn write_line(&self, out: &mut impl std::io::Write) -> std::io::Result<()> {
        use std::io::IoSlice;
        let mut parts = self.line_parts();
        let mut rest = &mut parts[..];
        while !rest.is_empty() {
            match out.write_vectored(rest) {
                Ok(0) => return Err(std::io::ErrorKind::WriteZero.into()),
                Ok(written) => IoSlice::advance_slices(&mut rest, written),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }
}

/// The lister of an adapter: its registry, shape, caller and session.
pub(crate) struct Listing<C: 'static> {
    pub registry: Registry<C>,
    pub shape: Shape,
    pub caller: CallerSource,
    /// The session the transport serves (stdio), whose `initialize` decides
    /// the era of requests without a version of their own; `None` where
    /// every request must carry its version (stateless HTTP).
    pub session: Option<Arc<Negotiated>>,
}

/// The params of a `tools/list`, read as rmcp reads its
/// `PaginatedRequestParams`, so that what is accepted here is what rmcp
/// accepts: `_meta` as the era rule reads it ([`Meta`]).
#[derive(Default, serde::Deserialize)]
struct Params {
    #[serde(rename = "_meta", default)]
    meta: Option<Meta>,
    cursor: Option<String>,
}

impl<C: Send + Sync + 'static> Listing<C> {
    /// The response to `request`, or `None` for rmcp to answer
    /// ([`Shortcut::list`](super::shortcut::Shortcut::list)).
    pub(crate) fn answer(
        &self,
        request: &[u8],
        transport_caller: &Caller,
        asked: Asked<'_>,
    ) -> Option<Answer> {
        let (id, params) = crate::mcp::request::read::<Params>(request, "tools/list")?;
        let params = params.unwrap_or_default();
        let era = asked.era(params.meta.as_ref(), self.session.as_deref())?;
        let caller = self.caller.without_context(transport_caller)?;
        let (tools, next) = self.tools(caller, params.cursor.as_deref())?;
        let mut head = String::from(r#"{"jsonrpc":"2.0","id":"#);
        head.push_str(&serde_json::to_string(&id).ok()?);
        head.push_str(r#","result":{"tools":"#);
        let mut tail = String::new();
        if let Some(next) = next {
            let _ = write!(tail, r#","nextCursor":"{next}""#);
        }
        // Caching hints are part of the 2026-07-28 revision; earlier peers
        // get the listing exactly as their revision defines it.
        if era == Era::Current {
            let scope = serde_json::to_string(&cache_scope(&self.registry, caller)).ok()?;
            let _ = write!(
                tail,
                r#","resultType":"complete","ttlMs":{},"cacheScope":{scope}"#,
                self.shape.ttl_ms
            );
        }
        tail.push_str("}}");
        Some(Answer { head, tools, tail })
    }

    /// The page of descriptors as a JSON array, and the cursor of the next
    /// page; `None` for a cursor this server did not give out.
    fn tools(&self, caller: &Caller, cursor: Option<&str>) -> Option<(ListText, Option<usize>)> {
        if cursor.is_none() && self.shape.page_size.is_none() {
            return Some((self.registry.listed(caller), None));
        }
        let entries = self.registry.visible_entries(caller);
        let (start, end) = page(cursor, entries.len(), self.shape.page_size)?;
        let mut json = String::from("[");
        for (i, entry) in entries[start..end].iter().enumerate() {
            if i > 0 {
                json.push(',');
            }
            json.push_str(entry.descriptor_json());
        }
        json.push(']');
        Some((ListText::Owned(json), (end < entries.len()).then_some(end)))
    }
}
