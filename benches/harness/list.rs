//! `tools/list` in process: the bytes of a listing, ready to send.
//!
//! tooltable's unfiltered listing is the JSON array baked at build time; a
//! filtered one (a read-only policy hides the write tools, half of them)
//! joins the baked descriptor texts. rmcp's is `ToolRouter::list_all()`
//! (clone every `Tool`, sort by name) plus serialising the result, from the
//! stored router, from the router its default handler rebuilds per request,
//! and from a stored router with the same half disabled. Every candidate
//! ends with an owned `String`, so tooltable pays for copying its bytes
//! exactly as rmcp pays for writing its own.

use crate::measure::{Settings, batch, compare};
use crate::results::Results;
use crate::suite::{Crates, Visit};
use rmcp::ServerHandler;
use tooltable::{Caller, Registry, Tier};

/// Measures listings for each size.
pub struct List<'r> {
    /// How long to measure.
    pub settings: Settings,
    /// Where the numbers go.
    pub results: &'r mut Results,
}

impl Visit for List<'_> {
    fn visit<C, S, R>(&mut self, crates: &Crates<C, S, R>)
    where
        C: Send + Sync + 'static,
        S: ServerHandler + Clone + Send + Sync + 'static,
        R: ServerHandler + Clone + Send + Sync + 'static,
    {
        let n = crates.n;
        let caller = Caller::operator();
        let unfiltered = Registry::builder(crates.table).max_tier(Tier::Destructive).build();
        let filtered = Registry::builder(crates.table).max_tier(Tier::Read).build();
        let stored = (crates.stored_router)();
        let mut half = (crates.stored_router)();
        for tool in crates.table.tools() {
            if tool.info().tier != Tier::Read {
                half.disable_route(tool.name().to_owned());
            }
        }
        let rebuild = crates.rebuild_router;
        let sizes = [
            unfiltered.list(&caller).json.len(),
            filtered.list(&caller).json.len(),
            serialize(&stored.list_all()).len(),
            serialize(&half.list_all()).len(),
        ];
        let mut candidates = vec![
            batch(|| unfiltered.list(&caller).json.into_owned()),
            batch(|| filtered.list(&caller).json.into_owned()),
            batch(|| serialize(&stored.list_all())),
            batch(|| serialize(&half.list_all())),
            batch(|| serialize(&rebuild().list_all())),
        ];
        let times = compare(self.settings, &mut candidates);
        let names = [
            "tooltable-unfiltered",
            "tooltable-filtered",
            "rmcp-stored",
            "rmcp-stored-filtered",
            "rmcp-rebuild",
        ];
        for (name, time) in names.iter().zip(&times) {
            self.results.record(&format!("list/{n}/{name}"), *time);
        }
        for (name, size) in names.iter().zip(sizes) {
            self.results
                .record(&format!("bytes/{n}/{name}"), size as f64);
        }
    }
}

fn serialize(tools: &[rmcp::model::Tool]) -> String {
    serde_json::to_string(tools).unwrap_or_else(|e| {
        eprintln!("rmcp's tools do not serialize: {e}");
        std::process::exit(2);
    })
}
