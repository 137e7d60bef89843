//! What a request's headers say: the revision an error is written for,
//! and whether a listing or a call may be answered before rmcp sees it.

use crate::transport::guard::{self, Unread};
use http::HeaderName;

const MCP_PROTOCOL_VERSION: HeaderName = HeaderName::from_static("mcp-protocol-version");
pub(super) const MCP_SESSION_ID: HeaderName = HeaderName::from_static("mcp-session-id");
const MCP_METHOD: HeaderName = HeaderName::from_static("mcp-method");
const MCP_NAME: HeaderName = HeaderName::from_static("mcp-name");

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

/// The `MCP-Protocol-Version` of a request whose headers ask for nothing
/// but a stateless `request`: no session, no `Origin` (a browser's request
/// goes to rmcp, which checks it), an allowed `Host`, JSON in and both
/// media types accepted, one `Mcp-Method` naming the method and, for a
/// call, one `Mcp-Name` naming the tool as plain text (a name rmcp would
/// decode from Base64 is left to rmcp). `None` sends the request on to
/// rmcp, which answers or refuses it as the spec says.
pub(super) fn stateless<'h>(
    headers: &'h http::HeaderMap,
    hosts: &Hosts,
    request: Stateless<'_>,
) -> Option<&'h str> {
    use http::header::{ACCEPT, CONTENT_TYPE, HOST, ORIGIN};
    let one = |name: HeaderName| {
        let mut values = headers.get_all(name).iter();
        let value = values.next()?.to_str().ok()?;
        values.next().is_none().then_some(value)
    };
    // A media type without its parameters, as written.
    let essence = |value: &'h str| value.split(';').next().unwrap_or_default().trim();
    if headers.contains_key(MCP_SESSION_ID) || headers.contains_key(ORIGIN) {
        return None;
    }
    let host: http::uri::Authority = one(HOST)?.parse().ok()?;
    if !hosts.allow(&host) {
        return None;
    }
    if !essence(one(CONTENT_TYPE)?).eq_ignore_ascii_case("application/json") {
        return None;
    }
    let accepts = |media: &str| {
        headers
            .get_all(ACCEPT)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .any(|accepted| essence(accepted).eq_ignore_ascii_case(media))
    };
    if !accepts("application/json") || !accepts("text/event-stream") {
        return None;
    }
    match request {
        Stateless::Listing => (one(MCP_METHOD)? == "tools/list").then_some(())?,
        Stateless::Call(tool) => {
            (one(MCP_METHOD)? == "tools/call").then_some(())?;
            let name = one(MCP_NAME)?;
            (name == tool && !name.starts_with("=?")).then_some(())?;
        }
    }
    one(MCP_PROTOCOL_VERSION)
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
