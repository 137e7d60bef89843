//! Who a request's caller is: the one the transport established, a fixed
//! one, or a function of rmcp's request context. The adapter decides with
//! it, and the baked listing path reads it to know when it may answer.

use crate::registry::policy::Caller;
use rmcp::service::{RequestContext, RoleServer};
use std::sync::Arc;

/// Decides who is calling, from the request (its `_meta`, or the HTTP
/// request parts rmcp's HTTP transport stores in its extensions).
pub type CallerFn = Arc<dyn Fn(&RequestContext<RoleServer>) -> Caller + Send + Sync>;

/// Who the caller of a request is, as the adapter was told to decide it.
#[derive(Clone)]
pub(crate) enum CallerSource {
    /// The caller the transport established: the token's holder when HTTP
    /// authenticates, otherwise the operator.
    Transport,
    /// The same caller for every request.
    Fixed(Caller),
    /// A function of rmcp's request context, which only rmcp can build: a
    /// listing for such a caller always goes through rmcp.
    Custom(CallerFn),
}

impl CallerSource {
    /// The caller of a request the transport established `transport` for,
    /// when it is known without rmcp's request context (what a transport
    /// answers before rmcp needs); `None` for a custom function.
    pub(crate) fn without_context<'a>(&'a self, transport: &'a Caller) -> Option<&'a Caller> {
        match self {
            CallerSource::Transport => Some(transport),
            CallerSource::Fixed(caller) => Some(caller),
            CallerSource::Custom(_) => None,
        }
    }
}

/// The caller the transport established for a request: the holder of the
/// bearer token the HTTP transport validated, when it authenticates;
/// otherwise the operator who started the server, who holds every
/// permission. A [`Server::caller`](crate::server::Server::caller) function can start from it.
#[cfg_attr(not(feature = "http"), allow(unused_variables))]
pub fn transport_caller(context: &RequestContext<RoleServer>) -> Caller {
    #[cfg(feature = "http")]
    if let Some(caller) = context
        .extensions
        .get::<http::request::Parts>()
        .and_then(|parts| parts.extensions.get::<Caller>())
    {
        return caller.clone();
    }
    Caller::operator()
}
