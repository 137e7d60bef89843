//! [`ServeError`]: why a server could not start or stopped, which every
//! entry point and transport returns.

use std::fmt;

/// Why a server could not start or stopped with an error.
#[derive(Debug)]
pub enum ServeError {
    /// A setting is out of range; the sentence names it and the range.
    Config(String),
    /// An I/O operation failed (binding an address, reading or writing).
    Io {
        /// What was being done.
        doing: String,
        /// The error.
        source: std::io::Error,
    },
    /// rmcp could not start or run the session.
    Protocol(String),
    /// Serving HTTP on an address other than loopback was refused: anyone
    /// who reaches it could call the tools, and no authentication is
    /// configured.
    Unauthenticated {
        /// The address it would have served.
        address: std::net::SocketAddr,
    },
}

impl ServeError {
    pub(crate) fn io(doing: impl Into<String>, source: std::io::Error) -> ServeError {
        ServeError::Io {
            doing: doing.into(),
            source,
        }
    }

    pub(crate) fn protocol(message: impl Into<String>) -> ServeError {
        ServeError::Protocol(message.into())
    }
}

impl fmt::Display for ServeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServeError::Config(message) | ServeError::Protocol(message) => f.write_str(message),
            ServeError::Io { doing, source } => write!(f, "{doing}: {source}"),
            ServeError::Unauthenticated { address } => write!(
                f,
                "refusing to serve {address} without authentication: anyone who can reach it could call the tools. Configure bearer tokens with `Server::auth`, serve a loopback address, or, behind a proxy that authenticates, call `Server::insecure_no_auth(true)`"
            ),
        }
    }
}

impl std::error::Error for ServeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ServeError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}
