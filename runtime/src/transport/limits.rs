//! The transports' bounds, which the server's settings fill in and every
//! transport reads.

/// The transports' bounds: what every message is checked against before
/// rmcp sees it, how many requests of a stdio session rmcp may hold, and
/// how long requests in flight get to finish at shutdown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Limits {
    pub max_request_bytes: usize,
    pub max_depth: usize,
    pub max_in_flight: usize,
    pub shutdown_grace: std::time::Duration,
}
