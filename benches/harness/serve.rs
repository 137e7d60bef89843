//! `harness serve`: one server process for the served-CPU suite.
//!
//! `harness serve --side tooltable|rmcp|write --n N --transport stdio|http
//! [--reply FILE --content-type TYPE --parse]` serves the generated crates with `n`
//! tools until its input closes (stdio) or it is killed (HTTP). The suite
//! ([`crate::served`]) starts one process per side and reads each one's CPU
//! time from outside, so everything a server spends is counted: its
//! transport, its runtime's threads, the kernel's work on its behalf.
//!
//! - `tooltable`: the library's own transports,
//!   `tooltable::serve::Server::new(registry, ctx).stdio()` and `.http_on()`,
//!   over `Registry::builder(&TOOLS).max_tier(Tier::Destructive)`.
//! - `rmcp`: the rmcp crate that stores its router, served by rmcp itself:
//!   `ServiceExt::serve(rmcp::transport::stdio())`, and
//!   `StreamableHttpService` on hyper with the settings tooltable's HTTP
//!   transport gives it (no SSE keep-alive, default session mode, so a
//!   2026-07-28 request is served statelessly).
//! - `tower-mcp`, `turbomcp`, `turbomcp-4`, `pmcp`: that framework's twin,
//!   served as its documentation serves it (see the twin's `serve_stdio` and
//!   `serve_http`).
//! - `write`: the floor. It reads each request and writes back `FILE`, the
//!   bytes tooltable answered the same request with, without looking at the
//!   request (with `--parse`, having parsed it as JSON, as any server of a
//!   call must): a line on stdout with blocking standard I/O, or an HTTP
//!   200 with `TYPE` through hyper on the same runtime as the others.
//!
//! Over HTTP the process binds 127.0.0.1 on a port the system chooses and
//! prints `ADDRESS` on a line of stdout before serving.

use crate::crates::Framework;
use crate::peers::{PeerServer, VisitPeers};
use crate::suite::{Crates, Visit};
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use rmcp::{ServerHandler, ServiceExt};
use std::convert::Infallible;
use std::io::{BufRead, Write};
use std::sync::Arc;
use tooltable::serve::Server;
use tooltable::{Registry, Tier};

/// Which server a process runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// tooltable's library transports.
    Tooltable,
    /// rmcp's stored router on rmcp's own transports.
    Rmcp,
    /// Writes back fixed bytes.
    Write,
    /// Another framework's twin on that framework's own transports.
    Peer(Framework),
}

impl Side {
    /// Every side.
    pub fn all() -> impl Iterator<Item = Side> {
        [Side::Tooltable, Side::Rmcp, Side::Write]
            .into_iter()
            .chain(Framework::ALL.map(Side::Peer))
    }

    /// The word on the command line and in metric names.
    pub fn word(self) -> &'static str {
        match self {
            Side::Tooltable => "tooltable",
            Side::Rmcp => "rmcp",
            Side::Write => "write",
            Side::Peer(framework) => framework.word(),
        }
    }
}

/// Which transport.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transport {
    /// Newline-delimited JSON-RPC on stdin and stdout.
    Stdio,
    /// Streamable HTTP at `/mcp`.
    Http,
}

impl Transport {
    /// Both transports.
    pub const ALL: [Transport; 2] = [Transport::Stdio, Transport::Http];

    /// The word on the command line and in metric names.
    pub fn word(self) -> &'static str {
        match self {
            Transport::Stdio => "stdio",
            Transport::Http => "http",
        }
    }
}

/// What `harness serve` was asked to do.
struct Options {
    side: Side,
    n: usize,
    transport: Transport,
    reply: Option<Bytes>,
    content_type: String,
    parse: bool,
}

const USAGE: &str = "usage: harness serve --side tooltable|rmcp|write|tower-mcp|turbomcp|turbomcp-4|pmcp --n N --transport stdio|http [--reply FILE] [--content-type TYPE] [--parse]";

/// Runs `harness serve ARGS` and exits.
pub fn main(args: &[String]) -> ! {
    let options = parse(args).unwrap_or_else(|e| fail(&format!("{e}\n{USAGE}")));
    if options.transport == Transport::Http {
        // Over HTTP, stdin carries nothing but the client's lifetime: when
        // the client goes (even killed), the server goes too.
        std::thread::spawn(|| {
            let _ = std::io::copy(&mut std::io::stdin().lock(), &mut std::io::sink());
            std::process::exit(0);
        });
    }
    if options.side == Side::Write {
        let Some(reply) = options.reply.clone() else {
            fail("the write side needs --reply FILE");
        };
        match options.transport {
            Transport::Stdio => write_stdio(&reply, options.parse),
            Transport::Http => {
                runtime().block_on(write_http(reply, options.content_type, options.parse))
            }
        }
        std::process::exit(0);
    }
    let mut serve = Serve {
        options,
        found: false,
    };
    crate::crates::each(&mut serve);
    if !serve.found {
        fail(&format!(
            "the harness was not generated with n = {}",
            serve.options.n
        ));
    }
    std::process::exit(0);
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut side = None;
    let mut n = None;
    let mut transport = None;
    let mut reply = None;
    let mut content_type = "application/json".to_owned();
    let mut parse = false;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut value = || {
            args.next()
                .cloned()
                .ok_or_else(|| format!("{arg} needs a value"))
        };
        match arg.as_str() {
            "--side" => {
                let word = value()?;
                side = Some(
                    Side::all()
                        .find(|s| s.word() == word)
                        .ok_or_else(|| format!("there is no side `{word}`"))?,
                );
            }
            "--n" => {
                let text = value()?;
                n = Some(
                    text.parse::<usize>()
                        .map_err(|_| format!("`{text}` is not a number of tools"))?,
                );
            }
            "--transport" => {
                let word = value()?;
                transport = Some(
                    Transport::ALL
                        .into_iter()
                        .find(|t| t.word() == word)
                        .ok_or_else(|| format!("there is no transport `{word}`"))?,
                );
            }
            "--reply" => {
                let path = value()?;
                let bytes = std::fs::read(&path).map_err(|e| format!("cannot read {path}: {e}"))?;
                reply = Some(Bytes::from(bytes));
            }
            "--content-type" => content_type = value()?,
            "--parse" => parse = true,
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    Ok(Options {
        side: side.ok_or("--side is missing")?,
        n: n.ok_or("--n is missing")?,
        transport: transport.ok_or("--transport is missing")?,
        reply,
        content_type,
        parse,
    })
}

fn fail(message: &str) -> ! {
    eprintln!("harness serve: {message}");
    std::process::exit(2);
}

/// The runtime every served side runs on: tokio's multi-threaded runtime
/// with its defaults, as a server's `#[tokio::main]` makes.
fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap_or_else(|e| fail(&format!("cannot start a tokio runtime: {e}")))
}

/// Binds a loopback port and says which on stdout.
async fn listen() -> tokio::net::TcpListener {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .unwrap_or_else(|e| fail(&format!("cannot listen on 127.0.0.1: {e}")));
    let address = listener
        .local_addr()
        .unwrap_or_else(|e| fail(&format!("cannot read the listening address: {e}")));
    let mut out = std::io::stdout().lock();
    if writeln!(out, "{address}")
        .and_then(|()| out.flush())
        .is_err()
    {
        fail("cannot say the listening address on stdout");
    }
    listener
}

/// Serves the tooltable or rmcp side of the size asked for.
struct Serve {
    options: Options,
    found: bool,
}

impl Visit for Serve {
    fn visit<C, S, R>(&mut self, crates: &Crates<C, S, R>)
    where
        C: Send + Sync + 'static,
        S: ServerHandler + Clone + Send + Sync + 'static,
        R: ServerHandler + Clone + Send + Sync + 'static,
    {
        if crates.n != self.options.n {
            return;
        }
        self.found = true;
        let runtime = runtime();
        match (self.options.side, self.options.transport) {
            (Side::Tooltable, transport) => {
                let registry = Registry::builder(crates.table)
                    .max_tier(Tier::Destructive)
                    .build();
                let server = Server::new(registry, Arc::new((crates.context)()));
                let served = runtime.block_on(async move {
                    match transport {
                        Transport::Stdio => server.stdio().await,
                        Transport::Http => server.http_on(listen().await).await,
                    }
                });
                if let Err(e) = served {
                    fail(&format!("tooltable stopped serving: {e}"));
                }
            }
            (Side::Rmcp, Transport::Stdio) => {
                let stored = crates.stored;
                runtime.block_on(async move {
                    let running = stored()
                        .serve(rmcp::transport::stdio())
                        .await
                        .unwrap_or_else(|e| fail(&format!("rmcp did not start on stdio: {e}")));
                    let _ = running.waiting().await;
                });
            }
            (Side::Rmcp, Transport::Http) => runtime
                .block_on(async { crate::rmcp_http::serve(listen().await, (crates.stored)()).await }),
            (Side::Peer(framework), transport) => {
                if !crate::crates::peers_at(crates.n).contains(&framework) {
                    fail(&format!(
                        "this harness links no {} twin with {} tools",
                        framework.word(),
                        crates.n
                    ));
                }
                let mut twin = Twin {
                    framework,
                    transport,
                    runtime,
                };
                crate::crates::each_peer(crates.n, &mut twin);
            }
            (Side::Write, _) => unreachable!("the write side serves no crate"),
        }
    }
}

/// Serves one framework's twin on that framework's own transport (never
/// made in the harness that links no twin).
#[allow(dead_code)]
struct Twin {
    framework: Framework,
    transport: Transport,
    runtime: tokio::runtime::Runtime,
}

impl VisitPeers for Twin {
    fn peer<P: PeerServer>(&mut self, framework: Framework) {
        if framework != self.framework {
            return;
        }
        match self.transport {
            Transport::Stdio => self.runtime.block_on(P::serve_stdio()),
            Transport::Http => self.runtime.block_on(async {
                let listener = listen().await.into_std().unwrap_or_else(|e| {
                    fail(&format!("cannot hand the listener to {}: {e}", framework.word()))
                });
                P::serve_http(listener).await
            }),
        }
    }
}

/// Whether `request` is JSON, read as a server reads it when `parse`.
fn parsed(request: &[u8], parse: bool) -> bool {
    !parse || serde_json::from_slice::<serde_json::Value>(request).is_ok()
}

/// Per line read on stdin, writes `reply` to stdout.
fn write_stdio(reply: &[u8], parse: bool) {
    let mut input = std::io::stdin().lock();
    let mut output = std::io::stdout().lock();
    let mut line = Vec::new();
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) => return,
            Ok(_) => {}
            Err(e) => fail(&format!("cannot read stdin: {e}")),
        }
        if !parsed(&line, parse) {
            fail("a request that is not JSON");
        }
        if output
            .write_all(reply)
            .and_then(|()| output.flush())
            .is_err()
        {
            return;
        }
    }
}

/// Per request read, answers 200 with `reply`.
async fn write_http(reply: Bytes, content_type: String, parse: bool) {
    let listener = listen().await;
    let content_type =
        http::HeaderValue::from_str(&content_type).unwrap_or_else(|_| fail("a bad --content-type"));
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            continue;
        };
        let _ = stream.set_nodelay(true);
        let (reply, content_type) = (reply.clone(), content_type.clone());
        tokio::spawn(async move {
            let handler =
                hyper::service::service_fn(move |request: http::Request<hyper::body::Incoming>| {
                    let (reply, content_type) = (reply.clone(), content_type.clone());
                    async move {
                        // Read the whole request, as a server must.
                        let body = request.into_body().collect().await.map(|b| b.to_bytes());
                        if !body.is_ok_and(|body| parsed(&body, parse)) {
                            fail("a request that is not JSON");
                        }
                        let mut response = http::Response::new(Full::new(reply));
                        response
                            .headers_mut()
                            .insert(http::header::CONTENT_TYPE, content_type);
                        Ok::<_, Infallible>(response)
                    }
                });
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(hyper_util::rt::TokioIo::new(stream), handler)
                .await;
        });
    }
}
