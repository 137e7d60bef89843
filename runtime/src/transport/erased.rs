//! The handler the transports serve, with its type erased.
//!
//! A transport is generic code: written over `H: ServerHandler`, every line
//! of it (the guard's loop, rmcp's service loop, the HTTP service, the
//! tasks they spawn) is compiled again in the user's crate for the user's
//! handler type, on every edit of that crate. Served through [`Erased`],
//! the transports are compiled once, in this crate, and the user's crate
//! compiles only the handler's own methods behind one small vtable (rmcp's
//! `DynService`). Each request pays one boxed future for it.

use rmcp::model::{ClientNotification, ClientRequest, ProtocolVersion, ServerConfig, ServerResult};
use rmcp::service::{DynService, NotificationContext, RequestContext, RoleServer, Service};
use rmcp::{ErrorData, ServerHandler};
use std::borrow::Cow;
use std::sync::Arc;

/// A server handler of any type, served by the transports.
#[derive(Clone)]
pub(crate) struct Erased(Arc<dyn DynService<RoleServer>>);

impl Erased {
    /// Erases `handler`'s type.
    pub(crate) fn new<H: ServerHandler>(handler: H) -> Erased {
        Erased(Arc::new(handler))
    }
}

impl Service<RoleServer> for Erased {
    fn handle_request(
        &self,
        request: ClientRequest,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<ServerResult, ErrorData>> + Send + '_ {
        self.0.handle_request(request, context)
    }

    fn handle_notification(
        &self,
        notification: ClientNotification,
        context: NotificationContext<RoleServer>,
    ) -> impl Future<Output = Result<(), ErrorData>> + Send + '_ {
        self.0.handle_notification(notification, context)
    }

    fn get_info(&self) -> ServerConfig {
        self.0.get_info()
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        self.0.supported_protocol_versions()
    }
}
