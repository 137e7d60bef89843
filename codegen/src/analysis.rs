//! One pass over a crate: configuration, sources, tools, schemas, table.
//!
//! The build script and the `tooltable` command both call [`analyze`], so a
//! crate is read the same way whether it is being compiled or checked.

use crate::config::Config;
use crate::describe::{self, Table};
use crate::diagnostic::{self, Diagnostic};
use crate::emit;
use crate::model;
use crate::scan::{self, Crate, cfg::CfgEnv};
use std::path::{Path, PathBuf};
use tooltable_runtime::manifest::Manifest;

/// What one pass over a crate found.
#[derive(Debug)]
pub struct Analysis {
    /// The crate's settings.
    pub config: Config,
    /// Its sources as the compiler sees them.
    pub krate: Crate,
    /// Its tools, described.
    pub table: Table,
    /// Every problem found, sorted by place.
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads and describes the crate in `crate_dir` under the cfgs of `cfg`.
/// Fails only when the configuration itself cannot be read.
pub fn analyze(crate_dir: &Path, cfg: &CfgEnv) -> Result<Analysis, Vec<Diagnostic>> {
    let config = Config::load(crate_dir)?;
    let (krate, mut diagnostics) = scan::scan(crate_dir, &config.root, cfg);
    let (decls, found) = model::collect_tools(&krate);
    diagnostics.extend(found);
    let (table, found) = describe::describe(&config, &krate, decls);
    diagnostics.extend(found);
    Ok(Analysis {
        config,
        krate,
        table,
        diagnostics: diagnostic::sorted(diagnostics),
    })
}

impl Analysis {
    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// The manifest of the table.
    pub fn manifest(&self) -> Manifest {
        self.table.manifest(&self.config)
    }

    /// The source of the generated table file.
    pub fn table_source(&self) -> String {
        emit::table::render(
            &self.config.package_name,
            &self.table,
            &self.manifest().inventory,
            self.config.inline_subschemas,
        )
    }

    /// Every source file read.
    pub fn files_read(&self) -> impl Iterator<Item = &PathBuf> {
        self.krate.files.iter().map(|f| &f.path)
    }
}
