//! `tooltable generate`: write the crate's docs and manifest from its sources.
//!
//! The same files a local `cargo build` writes, with the same content, for
//! when building is slow or impossible (another target, a broken
//! dependency). Files already up to date are left untouched.

use crate::source::analyze_crate;
use crate::{Exit, Failure, Outcome};
use std::io::Write;
use std::path::Path;
use tooltable_codegen::committed::Requested;

/// Runs `generate`.
pub fn run(
    dir: &Path,
    requested: Option<&Requested>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Outcome {
    let analysis = analyze_crate(dir, requested, err)?;
    let files = analysis
        .committed_files()
        .map_err(|d| Failure(format!("{}: {}", dir.display(), d.message)))?;
    for file in files {
        let path = dir.join(&file.relative);
        let written = file.write(dir).map_err(Failure)?;
        let _ = if written {
            writeln!(out, "wrote {}", path.display())
        } else {
            writeln!(out, "{} is up to date", path.display())
        };
    }
    Ok(Exit::Ok)
}
