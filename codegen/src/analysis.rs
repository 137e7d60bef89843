//! One pass over a crate: configuration, sources, tools, schemas, table.
//!
//! The build script and the `tooltable` command both call [`analyze`], so a
//! crate is read the same way whether it is being compiled or checked. What
//! the pass found is an [`Analysis`]: the problems, each with its place, and
//! the files the crate commits (the manifest and the docs), as they should be.

use crate::config::Config;
use crate::describe::{self, Table};
use crate::diagnostic;
use crate::emit;
use crate::emit::docs::DocsPage;
use crate::emit::write::{self, WritePolicy};
use crate::model;
use crate::scan::{self, Crate};
use std::path::{Path, PathBuf};
use tooltable_runtime::wire::manifest::Manifest;

pub use crate::diagnostic::{Diagnostic, Level, Location};
pub use crate::scan::cfg::CfgEnv;

/// What one pass over a crate found.
#[derive(Debug)]
pub struct Analysis {
    config: Config,
    krate: Crate,
    table: Table,
    diagnostics: Vec<Diagnostic>,
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

impl CommittedFile {
    /// Writes the file under `crate_dir` when its content differs,
    /// atomically. Returns whether it was written.
    pub fn write(&self, crate_dir: &Path) -> std::io::Result<bool> {
        let outcome = write::sync(
            &crate_dir.join(&self.relative),
            &self.content,
            WritePolicy::Write,
        )?;
        Ok(outcome == write::Outcome::Written)
    }
}

impl Analysis {
    /// Every problem found, sorted by place.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// The crate's package name.
    pub fn package_name(&self) -> &str {
        &self.config.package_name
    }

    /// Where the crate's manifest goes, relative to its directory.
    pub fn manifest_path(&self) -> &Path {
        &self.config.manifest
    }

    /// How many tools the crate declares.
    pub fn tool_count(&self) -> usize {
        self.table.tools.len()
    }

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

    /// The docs template the crate configured, relative to its directory.
    pub(crate) fn docs_template(&self) -> Option<&Path> {
        self.config.docs_template.as_deref()
    }

    /// The described table, for the crate's own tests.
    #[cfg(test)]
    pub(crate) fn table(&self) -> &Table {
        &self.table
    }
}
