//! What a request's headers say: the revision an error is written for,
//! and whether a listing or a call may be answered before rmcp sees it.

use crate::transport::guard::{self, Unread};

/// How errors answer a request whose id is unknown, by the revision its
/// `MCP-Protocol-Version` header names.
pub(super) fn unread_of(headers: &http::HeaderMap, passed: Option<&guard::Passed>) -> Unread {
    let header = headers
        .get("mcp-protocol-version")
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
    hosts: &[String],
    request: Stateless<'_>,
) -> Option<&'h str> {
    use http::header::{ACCEPT, CONTENT_TYPE, HOST, ORIGIN};
    let one = |name: &str| {
        let mut values = headers.get_all(name).iter();
        let value = values.next()?.to_str().ok()?;
        values.next().is_none().then_some(value)
    };
    let essence = |value: &str| {
        value
            .split(';')
            .next()
            .unwrap_or_default()
            .trim()
            .to_ascii_lowercase()
    };
    if headers.contains_key("mcp-session-id") || headers.contains_key(ORIGIN) {
        return None;
    }
    let host: http::uri::Authority = one(HOST.as_str())?.parse().ok()?;
    if !host_allowed(&host, hosts) {
        return None;
    }
    if essence(one(CONTENT_TYPE.as_str())?) != "application/json" {
        return None;
    }
    let accepted: Vec<String> = headers
        .get_all(ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(essence)
        .collect();
    if !["application/json", "text/event-stream"]
        .iter()
        .all(|media| accepted.iter().any(|a| a == media))
    {
        return None;
    }
    match request {
        Stateless::Listing => (one("mcp-method")? == "tools/list").then_some(())?,
        Stateless::Call(tool) => {
            (one("mcp-method")? == "tools/call").then_some(())?;
            let name = one("mcp-name")?;
            (name == tool && !name.starts_with("=?")).then_some(())?;
        }
    }
    one("mcp-protocol-version")
}

/// Whether `host` is one of `allowed` (an entry without a port allows
/// every port), compared as rmcp compares them.
fn host_allowed(host: &http::uri::Authority, allowed: &[String]) -> bool {
    let name = |authority: &http::uri::Authority| {
        authority
            .host()
            .trim_matches(['[', ']'])
            .to_ascii_lowercase()
    };
    allowed
        .iter()
        .filter_map(|entry| entry.parse::<http::uri::Authority>().ok())
        .any(|entry| {
            name(&entry) == name(host)
                && entry.port_u16().is_none_or(|p| host.port_u16() == Some(p))
        })
}
