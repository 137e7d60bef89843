//! The era of a request, when a transport can be sure of it.
//!
//! rmcp decides a request's era from its own `_meta` (2026-07-28 requests
//! carry their revision) or from the session's `initialize`. What the
//! transports answer before rmcp ([`super::shortcut`]) must be answered in
//! the era rmcp would have answered it in, so it is answered only when that
//! era is certain, by the one rule here.

use crate::call::handle::Era;
use rmcp::model::{ClientCapabilities, ProtocolVersion};
use serde::de::{self, IgnoredAny, MapAccess, Visitor};
use serde_json::value::RawValue;
use std::fmt;
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

    /// Whether the session initialized.
    pub(crate) fn is_set(&self) -> bool {
        self.0.get().is_some()
    }

    pub(crate) fn get(&self) -> Option<&ProtocolVersion> {
        self.0.get()
    }
}

/// What the era rule reads of a request's `_meta`: the version it names
/// and whether it carries the client's capabilities, each decoded as rmcp's
/// `RequestMetaObject` decodes it (a member that does not decode is taken
/// as absent).
///
/// rmcp keeps `_meta` as a map of JSON values, so reading it as rmcp does
/// builds every member a client sent (its name and version, its
/// capabilities) for the two the rule needs. This reads those two from the
/// request's text ([`Meta::record`]) and skips the rest unbuilt; like
/// rmcp's, it is an object or nothing. Only for text the guard let
/// through, which holds no member twice: the guard reads a call's `_meta`
/// itself, in its one pass, through the same [`Meta::record`].
#[derive(Debug, Default)]
pub(crate) struct Meta {
    version: Option<ProtocolVersion>,
    capabilities: bool,
}

/// A member of `_meta` the era rule reads.
#[derive(Clone, Copy)]
pub(crate) enum MetaKey {
    /// The protocol version a 2026-07-28 request names.
    Version,
    /// The client's capabilities, which 2026-07-28 requires.
    Capabilities,
}

impl MetaKey {
    /// The member named `name` (escapes decoded), if the rule reads it.
    pub(crate) fn of(name: &str) -> Option<MetaKey> {
        match name {
            "io.modelcontextprotocol/protocolVersion" => Some(MetaKey::Version),
            "io.modelcontextprotocol/clientCapabilities" => Some(MetaKey::Capabilities),
            _ => None,
        }
    }
}

impl Meta {
    /// Records the member `key`, whose value is the JSON text `value`,
    /// decoded as rmcp decodes it: one that does not decode is absent.
    pub(crate) fn record(&mut self, key: MetaKey, value: &str) {
        match key {
            MetaKey::Version => self.version = serde_json::from_str(value).ok(),
            MetaKey::Capabilities => {
                self.capabilities = serde_json::from_str::<ClientCapabilities>(value).is_ok();
            }
        }
    }
}

impl<'de> serde::Deserialize<'de> for Meta {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Meta, D::Error> {
        deserializer.deserialize_map(MetaVisitor)
    }
}

struct MetaVisitor;

impl<'de> Visitor<'de> for MetaVisitor {
    type Value = Meta;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Meta, A::Error> {
        let mut meta = Meta::default();
        while let Some(key) = map.next_key::<Key>()? {
            match key.0 {
                Some(key) => {
                    let raw: &RawValue = map.next_value()?;
                    meta.record(key, raw.get());
                }
                None => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(meta)
    }
}

/// A member's name in `_meta`, escapes decoded: a key the rule reads, or
/// another.
struct Key(Option<MetaKey>);

impl<'de> serde::Deserialize<'de> for Key {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Key, D::Error> {
        struct KeyVisitor;
        impl Visitor<'_> for KeyVisitor {
            type Value = Key;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a member name")
            }

            fn visit_str<E: de::Error>(self, name: &str) -> Result<Key, E> {
                Ok(Key(MetaKey::of(name)))
            }
        }
        deserializer.deserialize_str(KeyVisitor)
    }
}

/// Where a request a shortcut is asked to answer came from, as far as its
/// era is concerned.
#[derive(Clone, Copy)]
pub(crate) enum Asked<'a> {
    /// On stdio, in the transport's one session: the adapter's own.
    Stdio,
    /// Over HTTP without a session, with this `MCP-Protocol-Version`.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    Stateless(&'a str),
    /// Over HTTP in one of rmcp's sessions, which opened on this revision;
    /// the request's `MCP-Protocol-Version`, if it has one, names the same.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    Session(&'a ProtocolVersion),
}

impl Asked<'_> {
    /// Whether the request came over HTTP.
    pub(crate) fn over_http(self) -> bool {
        !matches!(self, Asked::Stdio)
    }

    /// The era rmcp serves a request with this `_meta` in, when it is
    /// certain; `stdio` is the adapter's session, for [`Asked::Stdio`]. The
    /// one rule for every request a shortcut answers:
    /// - a request naming a supported 2026-07-28 (or later) version with
    ///   every key that revision requires (and, over HTTP, the same version
    ///   in its header) is of the current era, except in a session, where
    ///   rmcp would weigh the session's header against it;
    /// - one naming none is of a legacy era in a session that opened on an
    ///   earlier revision, and uncertain anywhere else.
    pub(crate) fn era(self, meta: Option<&Meta>, stdio: Option<&Negotiated>) -> Option<Era> {
        let none = Meta::default();
        let meta = meta.unwrap_or(&none);
        let opened = match self {
            Asked::Stdio => stdio.and_then(Negotiated::get),
            Asked::Stateless(_) => None,
            Asked::Session(version) => Some(version),
        };
        match (&meta.version, self) {
            (Some(_), Asked::Session(_)) => None,
            (Some(version), _) => {
                let current = version.as_str() >= ProtocolVersion::V_2026_07_28.as_str();
                let known = ProtocolVersion::KNOWN_VERSIONS.contains(version);
                // The keys rmcp's `missing_required_keys` asks of 2026-07-28:
                // the version, here, and the client's capabilities.
                let complete = meta.capabilities;
                let matches = match self {
                    Asked::Stateless(header) => header == version.as_str(),
                    _ => true,
                };
                (current && known && complete && matches).then_some(Era::Current)
            }
            (None, _) => {
                (opened?.as_str() < ProtocolVersion::V_2026_07_28.as_str()).then_some(Era::Legacy)
            }
        }
    }
}
