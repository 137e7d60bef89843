//! What a request's headers say: whether each that decides how the
//! request is treated is there at most once, the revision an error is
//! written for, and whether a listing or a call may be answered before rmcp
//! sees it.

use crate::transport::guard::{self, Unread};
use http::HeaderName;

const MCP_PROTOCOL_VERSION: HeaderName = HeaderName::from_static("mcp-protocol-version");
pub(super) const MCP_SESSION_ID: HeaderName = HeaderName::from_static("mcp-session-id");
const MCP_METHOD: HeaderName = HeaderName::from_static("mcp-method");
const MCP_NAME: HeaderName = HeaderName::from_static("mcp-name");

/// The headers a reader takes one value of, and that decide how a request
/// is treated: who sends it, where to, in which session and revision, what
/// it asks and how its body is written. `Mcp-Param-*` headers are of the
/// kind too ([`single`]). `Accept` is not: its lines make one list, which
/// the guard and rmcp both read whole.
const SINGLE: [HeaderName; 8] = [
    http::header::HOST,
    http::header::ORIGIN,
    http::header::AUTHORIZATION,
    http::header::CONTENT_TYPE,
    MCP_PROTOCOL_VERSION,
    MCP_SESSION_ID,
    MCP_METHOD,
    MCP_NAME,
];

/// Whether a header of this name must come at most once.
fn single(name: &HeaderName) -> bool {
    SINGLE.contains(name) || name.as_str().starts_with("mcp-param-")
}

/// The first header that must come at most once and came more often: one
/// reader would take its first value and another its last (rmcp reads the
/// first `MCP-Protocol-Version` and would serve `2026-07-28` where the
/// second line says `2025-11-25`), so such a request is refused whole.
pub(super) fn repeated(headers: &http::HeaderMap) -> Option<&HeaderName> {
    // Most requests repeat no name at all: one comparison.
    if headers.keys_len() == headers.len() {
        return None;
    }
    headers
        .keys()
        .find(|name| single(name) && headers.get_all(*name).iter().nth(1).is_some())
}

/// How errors answer a request whose id is unknown, by the revision its
/// `MCP-Protocol-Version` header names.
pub(super) fn unread_of(headers: &http::HeaderMap, passed: Option<&guard::Passed>) -> Unread {
    let header = headers
        .get(MCP_PROTOCOL_VERSION)
        .and_then(|v| v.to_str().ok());
    Unread::of_version(header.or(passed.and_then(|p| p.version.as_deref())))
}

/// What a stateless request is, by its headers: a listing, or a call of
/// the named tool.
pub(super) enum Stateless<'a> {
    /// `tools/list`.
    Listing,
    /// `tools/call` of this tool (the name as the body has it).
    Call(&'a str),
}

/// What a request's headers say, read in one pass: the check is on every
/// call's path.
#[derive(Default)]
struct Seen<'h> {
    host: Option<&'h str>,
    content_type: Option<&'h str>,
    method: Option<&'h str>,
    name: Option<&'h str>,
    version: Option<&'h str>,
    session: bool,
    origin: bool,
    /// An `Mcp-Param-*` header.
    param: bool,
    /// `Accept` names `application/json`, and `text/event-stream`.
    json: bool,
    events: bool,
}

/// A media type without its parameters, as written.
fn essence(value: &str) -> &str {
    value.split(';').next().unwrap_or_default().trim()
}

impl<'h> Seen<'h> {
    /// The headers read; `None` when one that must come once came twice or
    /// is not text.
    fn read(headers: &'h http::HeaderMap) -> Option<Seen<'h>> {
        use http::header::{ACCEPT, CONTENT_TYPE, HOST, ORIGIN};
        fn once<'h>(slot: &mut Option<&'h str>, value: &'h http::HeaderValue) -> Option<()> {
            slot.replace(value.to_str().ok()?).is_none().then_some(())
        }
        let mut seen = Seen::default();
        for (header, value) in headers {
            if header == MCP_SESSION_ID {
                seen.session = true;
            } else if header == ORIGIN {
                seen.origin = true;
            } else if header == HOST {
                once(&mut seen.host, value)?;
            } else if header == CONTENT_TYPE {
                once(&mut seen.content_type, value)?;
            } else if header == ACCEPT {
                for accepted in value.to_str().into_iter().flat_map(|v| v.split(',')) {
                    let accepted = essence(accepted);
                    seen.json |= accepted.eq_ignore_ascii_case("application/json");
                    seen.events |= accepted.eq_ignore_ascii_case("text/event-stream");
                }
            } else if header == MCP_METHOD {
                once(&mut seen.method, value)?;
            } else if header == MCP_PROTOCOL_VERSION {
                once(&mut seen.version, value)?;
            } else if header == MCP_NAME {
                once(&mut seen.name, value)?;
            } else if header.as_str().starts_with("mcp-param-") {
                seen.param = true;
            }
        }
        Some(seen)
    }

    /// No `Origin` (a browser's request goes to rmcp, which checks it), an
    /// allowed `Host`, JSON in and both media types accepted: what rmcp
    /// checks of every POST before it reads the body.
    fn plain(&self, hosts: &Hosts) -> Option<()> {
        let host: http::uri::Authority = self.host?.parse().ok()?;
        (!self.origin
            && hosts.allow(&host)
            && essence(self.content_type?).eq_ignore_ascii_case("application/json")
            && self.json
            && self.events)
            .then_some(())
    }
}

/// The `MCP-Protocol-Version` of a request whose headers ask for nothing
/// but a stateless `request`: no session, the plain headers
/// ([`Seen::plain`]), one `Mcp-Method` naming the method and, for a call,
/// one `Mcp-Name` naming the tool as plain text (a name rmcp would decode
/// from Base64 is left to rmcp). `None` sends the request on to rmcp, which
/// answers or refuses it as the spec says.
pub(super) fn stateless<'h>(
    headers: &'h http::HeaderMap,
    hosts: &Hosts,
    request: Stateless<'_>,
) -> Option<&'h str> {
    let seen = Seen::read(headers)?;
    (!seen.session).then_some(())?;
    seen.plain(hosts)?;
    match request {
        Stateless::Listing => (seen.method? == "tools/list").then_some(())?,
        Stateless::Call(tool) => {
            (seen.method? == "tools/call").then_some(())?;
            let name = seen.name?;
            (name == tool && !name.starts_with("=?")).then_some(())?;
        }
    }
    seen.version
}

/// Whether the headers of a request in a session that opened on `revision`
/// ask for nothing the transport leaves to rmcp: the plain headers
/// ([`Seen::plain`]), no `Mcp-Method`, `Mcp-Name` or `Mcp-Param-*` (rmcp
/// checks those against the body and the tool), and an
/// `MCP-Protocol-Version`, if there is one, naming the session's revision.
pub(super) fn in_session(headers: &http::HeaderMap, hosts: &Hosts, revision: &str) -> bool {
    Seen::read(headers).is_some_and(|seen| {
        seen.plain(hosts).is_some()
            && seen.method.is_none()
            && seen.name.is_none()
            && !seen.param
            && seen.version.is_none_or(|v| v == revision)
    })
}

/// The hosts a request may name, read once from the list rmcp is given:
/// each host with its port if the entry names one (an entry without a port
/// allows every port), compared as rmcp compares them, ignoring case.
pub(super) struct Hosts(Vec<(String, Option<u16>)>);

impl Hosts {
    pub(super) fn new(allowed: &[String]) -> Hosts {
        Hosts(
            allowed
                .iter()
                .filter_map(|entry| entry.parse::<http::uri::Authority>().ok())
                .map(|entry| (host_name(&entry).to_owned(), entry.port_u16()))
                .collect(),
        )
    }

    /// Whether `host` is one of them.
    fn allow(&self, host: &http::uri::Authority) -> bool {
        let name = host_name(host);
        self.0.iter().any(|(allowed, port)| {
            allowed.eq_ignore_ascii_case(name) && port.is_none_or(|p| host.port_u16() == Some(p))
        })
    }
}

fn host_name(authority: &http::uri::Authority) -> &str {
    authority.host().trim_matches(['[', ']'])
}
