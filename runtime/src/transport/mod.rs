//! The transports: bytes in, answers out, with every guard docs/security.md
//! lists.
//!
//! The guard parses each message once and refuses what is malformed or over
//! a limit before rmcp sees it; stdio and streamable HTTP (a tower service,
//! and a listener loop over it) carry what passes to the adapter; with
//! `auth`, HTTP is an OAuth 2.1 resource server. A transport depends on the
//! adapter and the registry, never the other way.

#[cfg(feature = "auth")]
pub(crate) mod auth;
#[cfg(feature = "http")]
pub(crate) mod connections;
pub(crate) mod erased;
pub(crate) mod error;
pub(crate) mod guard;
#[cfg(feature = "http")]
pub(crate) mod http;
pub(crate) mod inflight;
pub(crate) mod limits;
#[cfg(target_os = "linux")]
pub(crate) mod polled;
pub(crate) mod stdio;
