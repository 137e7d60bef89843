//! One pass over a crate: configuration, sources, tools, schemas, table.
//!
//! The build script and the `tooltable` command both call [`analyze`], so a
//! crate is read the same way whether it is being compiled or checked.

use crate::config::Config;
use crate::describe::{self, Table};
use crate::diagnostic::{self, Diagnostic};
use crate::emit;
use crate::emit::docs::DocsPage;
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

/// A file the crate commits, and what it should hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommittedFile {
    /// Its path, relative to the crate's directory.
    pub relative: PathBuf,
    /// Its expected content.
    pub content: String,
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
        emit::table::render(&self.config, &self.table, &self.manifest().inventory)
    }

    /// The Markdown docs page, through the crate's template or the built-in one.
    pub fn docs(&self) -> Result<String, Diagnostic> {
        let page = DocsPage::new(&self.config.package_name, &self.table);
        let Some(relative) = &self.config.docs_template else {
            return Ok(page.render_builtin());
        };
        let path = self.config.crate_dir.join(relative);
        let source = std::fs::read_to_string(&path).map_err(|e| {
            Diagnostic::general(format!(
                "cannot read the docs template {} (`docs_template` in [package.metadata.tooltable]): {e}; fix the path, or remove the key to use the built-in template",
                relative.display()
            ))
        })?;
        page.render_with(relative, &source)
            .map_err(Diagnostic::general)
    }

    /// The files the crate commits and the build keeps in step (the
    /// manifest, then the docs), with their expected content.
    pub fn committed_files(&self) -> Result<Vec<CommittedFile>, Diagnostic> {
        Ok(vec![
            CommittedFile {
                relative: self.config.manifest.clone(),
                content: self.manifest().render(),
            },
            CommittedFile {
                relative: self.config.docs.clone(),
                content: self.docs()?,
            },
        ])
    }

    /// Every source file read.
    pub fn files_read(&self) -> impl Iterator<Item = &PathBuf> {
        self.krate.files.iter().map(|f| &f.path)
    }
}
