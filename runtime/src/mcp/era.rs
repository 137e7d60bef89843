//! The era of a request, when a transport can be sure of it.
//!
//! rmcp decides a request's era from its own `_meta` (2026-07-28 requests
//! carry their revision) or from the session's `initialize`. What the
//! transports answer before rmcp ([`super::shortcut`]) must be answered in
//! the era rmcp would have answered it in, so it is answered only when that
//! era is certain, by the one rule here.

use crate::call::handle::Era;
use rmcp::model::{ProtocolVersion, RequestMetaObject};
use std::sync::OnceLock;

/// What a session negotiated with `initialize`, once the client said it is
/// initialized: the era of its requests that carry no version of their own.
#[derive(Default)]
pub(crate) struct Negotiated(OnceLock<ProtocolVersion>);

impl Negotiated {
    /// Records the version the session opened with.
    pub(crate) fn set(&self, version: ProtocolVersion) {
        let _ = self.0.set(version);
    }

    fn get(&self) -> Option<&ProtocolVersion> {
        self.0.get()
    }
}

/// The era rmcp serves a request in, when it is certain: a request naming
/// a supported 2026-07-28 (or later) version with every key that revision
/// requires (and, over HTTP, the same version in its header), or one naming
/// none in a `session` that opened on an earlier revision. The one rule for
/// every request a shortcut answers.
pub(crate) fn certain_era(
    meta: Option<&RequestMetaObject>,
    header_version: Option<&str>,
    session: Option<&Negotiated>,
) -> Option<Era> {
    let none = RequestMetaObject::default();
    let meta = meta.unwrap_or(&none);
    match meta.protocol_version() {
        Some(version) => {
            let current = version.as_str() >= ProtocolVersion::V_2026_07_28.as_str();
            let known = ProtocolVersion::KNOWN_VERSIONS.contains(&version);
            let complete = meta
                .missing_required_keys(&ProtocolVersion::V_2026_07_28)
                .is_empty();
            let matches = header_version.is_none_or(|h| h == version.as_str());
            (current && known && complete && matches).then_some(Era::Current)
        }
        None if header_version.is_some() => None,
        None => {
            let negotiated = session?.get()?;
            (negotiated.as_str() < ProtocolVersion::V_2026_07_28.as_str()).then_some(Era::Legacy)
        }
    }
}
