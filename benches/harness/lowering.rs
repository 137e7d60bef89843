//! The build script's analysis on a generated crate: time per parameter type.
//!
//! `tooltable_codegen::analysis::analyze` is the whole pass the build script
//! and `tooltable check` make over a crate: read and parse every file,
//! resolve types, lower each parameter and output type to JSON Schema,
//! describe and validate the table. Each generated tool has its own
//! parameter type, so the time divided by the number of tools is the cost
//! per type; measured at several sizes it shows whether the cost is linear.

use crate::measure::{Settings, batch, compare};
use crate::results::Results;
use crate::suite::{Crates, Visit};
use rmcp::ServerHandler;
use std::path::Path;
use tooltable_codegen::analysis::{CfgEnv, analyze};

/// Measures the analysis for each size.
pub struct Lowering<'r> {
    /// How long to measure.
    pub settings: Settings,
    /// Where the numbers go.
    pub results: &'r mut Results,
}

impl Visit for Lowering<'_> {
    fn visit<C, S, R>(&mut self, crates: &Crates<C, S, R>)
    where
        C: Send + Sync + 'static,
        S: ServerHandler + Clone + Send + Sync + 'static,
        R: ServerHandler + Clone + Send + Sync + 'static,
    {
        let dir = Path::new(crates.dir);
        let cfg = CfgEnv::host(Vec::<String>::new());
        match analyze(dir, &cfg) {
            Ok(analysis) if !analysis.has_errors() && analysis.tool_count() == crates.n => {}
            Ok(analysis) => {
                eprintln!(
                    "the analysis of {} found {} tools and these problems: {:?}",
                    dir.display(),
                    analysis.tool_count(),
                    analysis.diagnostics()
                );
                std::process::exit(2);
            }
            Err(diagnostics) => {
                eprintln!("cannot analyze {}: {diagnostics:?}", dir.display());
                std::process::exit(2);
            }
        }
        let mut candidates = vec![batch(|| analyze(dir, &cfg).map(|a| a.tool_count()))];
        let time = compare(self.settings, &mut candidates)[0];
        let n = crates.n;
        self.results.record(&format!("lowering/{n}/analyze"), time);
        self.results
            .record(&format!("lowering/{n}/per-type"), time / n as f64);
    }
}
