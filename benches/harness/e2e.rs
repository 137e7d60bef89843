//! `tools/list` and `tools/call` end to end: rmcp's client and server over
//! an in-process duplex pipe, tooltable's adapter against rmcp's macros.
//!
//! Everything a real session does is in the loop: the client serialises the
//! request, rmcp frames it, the server parses it, the handler answers, rmcp
//! serialises the result, and the client parses it back into typed values.
//! All of it runs on one thread (a current-thread runtime), so the numbers
//! are the work done, not scheduling across cores.

use crate::connect::connect;
use crate::crates::{REGULAR_ARGUMENTS, REGULAR_TOOL};
use crate::measure::{Settings, batch_on, compare};
use crate::results::Results;
use crate::suite::{Crates, Visit};
use rmcp::ServerHandler;
use rmcp::model::CallToolRequestParams;
use std::sync::Arc;
use tooltable::serve::McpServer;
use tooltable::{Registry, Tier};

/// Measures sessions for each size.
pub struct EndToEnd<'r> {
    /// How long to measure.
    pub settings: Settings,
    /// Where the numbers go.
    pub results: &'r mut Results,
    /// The runtime both ends run on.
    pub runtime: &'r tokio::runtime::Runtime,
}

impl Visit for EndToEnd<'_> {
    fn visit<C, S, R>(&mut self, crates: &Crates<C, S, R>)
    where
        C: Send + Sync + 'static,
        S: ServerHandler + Clone + Send + Sync + 'static,
        R: ServerHandler + Clone + Send + Sync + 'static,
    {
        let rt = self.runtime;
        let tooltable = McpServer::new(Registry::builder(crates.table).max_tier(Tier::Destructive).build(), Arc::new((crates.context)()));
        let sessions = rt.block_on(async {
            [
                connect(tooltable).await,
                connect((crates.stored)()).await,
                connect((crates.rebuild)()).await,
            ]
        });
        let names = ["tooltable", "rmcp-stored", "rmcp-rebuild"];
        rt.block_on(async {
            for (name, session) in names.iter().zip(&sessions) {
                let tools = session.client.list_tools(None).await;
                match tools {
                    Ok(list) if list.tools.len() == crates.n && list.next_cursor.is_none() => {}
                    other => {
                        eprintln!(
                            "{name} did not list its {} tools in one page: {other:?}",
                            crates.n
                        );
                        std::process::exit(2);
                    }
                }
            }
        });
        let mut params = CallToolRequestParams::new(REGULAR_TOOL);
        params.arguments = serde_json::from_str(REGULAR_ARGUMENTS).ok();
        let mut lists = Vec::new();
        let mut calls = Vec::new();
        for session in &sessions {
            let client = &session.client;
            lists.push(batch_on(rt, move || client.list_tools(None)));
            let params = params.clone();
            calls.push(batch_on(rt, move || client.call_tool(params.clone())));
        }
        let n = crates.n;
        for (kind, candidates) in [("e2e-list", &mut lists), ("e2e-call", &mut calls)] {
            let times = compare(self.settings, candidates);
            for (name, time) in names.iter().zip(times) {
                self.results.record(&format!("{kind}/{n}/{name}"), time);
            }
        }
        drop((lists, calls));
        rt.block_on(async {
            for session in sessions {
                let _ = session.client.cancel().await;
            }
        });
    }
}
