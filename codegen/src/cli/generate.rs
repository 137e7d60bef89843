//! `tooltable generate`: write the crate's docs and manifest from its sources.
//!
//! The same files a local `cargo build` writes, with the same content, for
//! when building is slow or impossible (another target, a broken
//! dependency). Files already up to date are left untouched.

use super::source::analyze_crate;
use super::{Exit, Failure, Outcome};
use crate::emit::write::{self, Outcome as Written, WritePolicy};
use std::io::Write;
use std::path::Path;

/// Runs `generate`.
pub fn run(dir: &Path, out: &mut dyn Write, err: &mut dyn Write) -> Outcome {
    let analysis = analyze_crate(dir, err)?;
    let files = analysis
        .committed_files()
        .map_err(|d| Failure(format!("{}: {}", dir.display(), d.message)))?;
    for file in files {
        let path = dir.join(&file.relative);
        let done = write::sync(&path, &file.content, WritePolicy::Write)
            .map_err(|e| Failure(format!("cannot write {}: {e}", path.display())))?;
        let _ = match done {
            Written::Written => writeln!(out, "wrote {}", path.display()),
            _ => writeln!(out, "{} is up to date", path.display()),
        };
    }
    Ok(Exit::Ok)
}
