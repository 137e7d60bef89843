//! rmcp's streamable HTTP service on hyper, one task per connection: how
//! every rmcp server of the benchmarks is served over HTTP (`harness
//! serve`, the rmcp server of the `servers` crate that benches/peers.sh
//! loads, and notes-server's twin that benches/load.sh loads).

use rmcp::ServerHandler;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use std::convert::Infallible;
use std::sync::Arc;

/// Serves `server` on `listener` until the process ends.
pub async fn serve<S: ServerHandler + Clone + Send + Sync + 'static>(
    listener: tokio::net::TcpListener,
    server: S,
) {
    // The settings tooltable's transport gives the same service: no
    // keep-alive pings, and a one-message reply as JSON.
    let config = StreamableHttpServerConfig::default()
        .with_sse_keep_alive(None)
        .with_json_response(true);
    // rmcp's service asks its factory for a handler per request; the router
    // is built once and cloned, as tooltable's transport clones its adapter.
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            continue;
        };
        // A reply rmcp streams (one that sends progress first) ends with a
        // chunk written on its own, which with Nagle on waits for the
        // client's delayed ACK; tooltable's transport turns Nagle off too.
        let _ = stream.set_nodelay(true);
        let service = service.clone();
        tokio::spawn(async move {
            let handler = hyper::service::service_fn(move |request| {
                let service = service.clone();
                async move { Ok::<_, Infallible>(service.handle(request).await) }
            });
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(hyper_util::rt::TokioIo::new(stream), handler)
                .await;
        });
    }
}
