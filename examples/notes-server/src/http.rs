//! Streamable HTTP: rmcp's service behind hyper, with a JSON check in front.
//!
//! rmcp's service answers a body that is not JSON with `415 Unsupported
//! Media Type` and a plain-text message. The MCP specification wants a
//! JSON-RPC parse error (`-32700`) for that, so POST bodies are read here
//! first (up to the configured limit), refused with `400` and a parse error
//! when they do not parse, refused with `413` when too large, and otherwise
//! handed to rmcp unchanged.

use crate::Store;
use bytes::Bytes;
use http::{Method, Request, Response, StatusCode};
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use rmcp::transport::streamable_http_server::StreamableHttpService;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use serde_json::json;
use std::convert::Infallible;
use std::sync::Arc;
use tooltable::adapter::McpServer;

/// rmcp's HTTP service for the notes server.
pub type Service = StreamableHttpService<McpServer<Store>, LocalSessionManager>;

fn json_rpc_error(
    status: StatusCode,
    code: i64,
    message: String,
) -> Response<BoxBody<Bytes, Infallible>> {
    let body = json!({"jsonrpc": "2.0", "id": null, "error": {"code": code, "message": message}})
        .to_string();
    let mut response = Response::new(Full::new(Bytes::from(body)).boxed());
    *response.status_mut() = status;
    response.headers_mut().insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static("application/json"),
    );
    response
}

/// Answers one HTTP request.
pub async fn route(
    service: Arc<Service>,
    max_bytes: usize,
    request: Request<Incoming>,
) -> Result<Response<BoxBody<Bytes, Infallible>>, Infallible> {
    if request.method() != Method::POST {
        return Ok(service.handle(request).await);
    }
    let (parts, body) = request.into_parts();
    let bytes = match Limited::new(body, max_bytes).collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(error)
            if error
                .downcast_ref::<http_body_util::LengthLimitError>()
                .is_some() =>
        {
            return Ok(json_rpc_error(
                StatusCode::PAYLOAD_TOO_LARGE,
                -32600,
                format!("the request is larger than this server's limit of {max_bytes} bytes"),
            ));
        }
        Err(error) => {
            return Ok(json_rpc_error(
                StatusCode::BAD_REQUEST,
                -32700,
                format!("Parse error: cannot read the request body: {error}"),
            ));
        }
    };
    if let Err(error) = serde_json::from_slice::<serde::de::IgnoredAny>(&bytes) {
        return Ok(json_rpc_error(
            StatusCode::BAD_REQUEST,
            -32700,
            format!("Parse error: the request body is not JSON: {error}"),
        ));
    }
    Ok(service
        .handle(Request::from_parts(parts, Full::new(bytes)))
        .await)
}
