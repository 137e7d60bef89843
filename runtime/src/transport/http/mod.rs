//! The streamable-HTTP transport: rmcp's service behind guards, as a tower
//! service an application mounts ([`HttpService`]) or on a listener of the
//! server's own ([`listener`]), which is a loop over the same service.
//!
//! With authentication configured, every request's bearer token is checked
//! first, before its body is read: no valid token is `401` with a challenge
//! naming the Protected Resource Metadata ([`MetadataService`]). POST bodies
//! are then read, up to the size limit and within the body deadline, and
//! checked by the guard ([`super::guard`]). A call to a tool whose
//! permission the token does not grant is `403` naming the scope. A
//! `tools/list`, or a call of a tool that cannot talk back, that asks
//! nothing unusual is answered by the shortcut ([`crate::mcp::shortcut`])
//! when it is stateless (2026-07-28) or in a session whose revision the
//! transport knows ([`sessions`]). What passes is handed to rmcp, which
//! checks `Host` and `Origin` against the allow-lists given here, with the
//! authenticated caller in the request's extensions.

mod answer;
mod headers;
pub(crate) mod listener;
mod service;
mod sessions;

pub use service::HttpService;
#[cfg(feature = "auth")]
pub use service::MetadataService;
pub(crate) use service::Mount;

/// The path MCP is served at by the server's own listener; every other
/// path but the metadata's is `404` there.
pub(crate) const MCP_PATH: &str = "/mcp";

/// The permissions the served tools declare, for the `403` a call gets
/// before it reaches rmcp and for the metadata's `scopes_supported`: what
/// the transport needs of whoever holds the tools.
#[cfg(feature = "auth")]
pub(crate) trait ToolPermissions: Send + Sync {
    /// The permission the tool `name` needs, if it exists and needs one.
    fn permission(&self, name: &str) -> Option<String>;
    /// Every permission a tool declares, sorted, each once.
    fn declared(&self) -> Vec<String>;
}

/// A registry's tools declare their permissions in their metadata.
#[cfg(feature = "auth")]
impl<C: 'static> ToolPermissions for crate::registry::registry::Registry<C> {
    fn permission(&self, name: &str) -> Option<String> {
        self.get(name)?.info().permission.map(str::to_owned)
    }

    fn declared(&self) -> Vec<String> {
        let declared: std::collections::BTreeSet<String> = self
            .entries()
            .iter()
            .filter_map(|entry| entry.info().permission.map(str::to_owned))
            .collect();
        declared.into_iter().collect()
    }
}

/// Who may reach the service, and how much of it.
#[derive(Clone)]
pub(crate) struct Gate {
    #[cfg(feature = "auth")]
    pub auth: Option<crate::transport::auth::Auth>,
    /// Origins allowed besides the server's own loopback ones.
    pub origins: Vec<String>,
    /// `Host` values allowed besides loopback ones (and the listener's own
    /// address and the token audience's).
    pub hosts: Vec<String>,
    #[cfg(feature = "auth")]
    pub tools: Option<std::sync::Arc<dyn ToolPermissions>>,
    /// The operator chose to serve a non-loopback address without tokens.
    pub insecure_no_auth: bool,
    /// The listener's: how long a connection may take to send headers.
    pub header_read_timeout: std::time::Duration,
    pub body_read_timeout: std::time::Duration,
    /// The listener's: how many connections it holds.
    pub max_connections: usize,
    pub max_sessions: usize,
}

/// How long a connection may take to send a request's headers, by default.
pub(crate) const DEFAULT_HEADER_READ_TIMEOUT: std::time::Duration =
    std::time::Duration::from_secs(10);
/// How long a connection may take to send a request's body, by default.
pub(crate) const DEFAULT_BODY_READ_TIMEOUT: std::time::Duration =
    std::time::Duration::from_secs(30);
/// The most connections the server's own listener holds, by default.
pub(crate) const DEFAULT_MAX_CONNECTIONS: usize = 1024;
/// The most `initialize`-era sessions held at once, by default.
pub(crate) const DEFAULT_MAX_SESSIONS: usize = 1024;

impl Default for Gate {
    fn default() -> Gate {
        Gate {
            #[cfg(feature = "auth")]
            auth: None,
            origins: Vec::new(),
            hosts: Vec::new(),
            #[cfg(feature = "auth")]
            tools: None,
            insecure_no_auth: false,
            header_read_timeout: DEFAULT_HEADER_READ_TIMEOUT,
            body_read_timeout: DEFAULT_BODY_READ_TIMEOUT,
            max_connections: DEFAULT_MAX_CONNECTIONS,
            max_sessions: DEFAULT_MAX_SESSIONS,
        }
    }
}

impl Gate {
    pub(crate) fn authenticates(&self) -> bool {
        #[cfg(feature = "auth")]
        return self.auth.is_some();
        #[cfg(not(feature = "auth"))]
        false
    }
}
