//! Build-time diagnostics: what went wrong, where, and how to fix it.
//!
//! Every problem the build script finds becomes a [`Diagnostic`] with a
//! file, line and column, so the whole table can be validated at once and
//! every mistake reported, not just the first. Cargo shows them through
//! `cargo::error=` and `cargo::warning=` lines; the `tooltable` command
//! prints them the same way.

use proc_macro2::Span;
use std::fmt;
use std::path::{Path, PathBuf};

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// The build continues; the author should look.
    Warning,
    /// The build fails.
    Error,
}

/// A place in a source file. Lines and columns count from 1.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Location {
    /// The file, relative to the crate's directory when it lies inside it.
    pub file: PathBuf,
    /// The line, from 1.
    pub line: usize,
    /// The column, from 1.
    pub column: usize,
}

impl Location {
    /// The start of `span` in `file`.
    pub fn of(file: &Path, span: Span) -> Location {
        let start = span.start();
        Location {
            file: file.to_path_buf(),
            line: start.line.max(1),
            column: start.column + 1,
        }
    }

    /// The first line of `file`, for problems with a file as a whole.
    pub fn file(file: &Path) -> Location {
        Location {
            file: file.to_path_buf(),
            line: 1,
            column: 1,
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file.display(), self.line, self.column)
    }
}

/// One problem found in a crate's tools.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error or warning.
    pub level: Level,
    /// Where; `None` for problems with the configuration as a whole.
    pub location: Option<Location>,
    /// What is wrong and how to fix it, as a sentence.
    pub message: String,
}

/// A client rule a tool breaks, as reported: the diagnostic at the tool's
/// name or parameter type, with the tool and the rule it breaks.
#[derive(Clone, Debug)]
pub struct ClientFinding {
    /// How it is reported.
    pub diagnostic: Diagnostic,
    /// The profile checked, which for `portable` is not the client the
    /// rule belongs to.
    pub profile: tooltable_rules::clients::Client,
    /// The tool: the one that breaks the rule, or for a tool set over a
    /// client's limit, the first tool past it.
    pub tool: String,
    /// The rule, its client and what the client does.
    pub violation: tooltable_rules::clients::Violation,
}

impl Diagnostic {
    /// An error at `location`.
    pub fn error(location: Location, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            level: Level::Error,
            location: Some(location),
            message: message.into(),
        }
    }

    /// A warning at `location`.
    pub fn warning(location: Location, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            level: Level::Warning,
            location: Some(location),
            message: message.into(),
        }
    }

    /// An error that belongs to no source location (the configuration, the
    /// file system).
    pub fn general(message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            level: Level::Error,
            location: None,
            message: message.into(),
        }
    }

    /// Every error of a `syn::Error` (which may hold several), located in `file`.
    pub fn from_syn(file: &Path, error: syn::Error) -> Vec<Diagnostic> {
        error
            .into_iter()
            .map(|e| Diagnostic::error(Location::of(file, e.span()), e.to_string()))
            .collect()
    }

    /// Whether this diagnostic fails the build.
    pub fn is_error(&self) -> bool {
        self.level == Level::Error
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.location {
            Some(location) => write!(f, "{location}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

/// Sorts diagnostics by place, errors of one place before its warnings, and
/// drops exact repeats.
pub fn sorted(mut diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    diagnostics.sort_by(order);
    diagnostics.dedup();
    diagnostics
}

/// The order diagnostics are reported in: by place, errors first, then by
/// message.
pub(crate) fn order(a: &Diagnostic, b: &Diagnostic) -> std::cmp::Ordering {
    a.location
        .cmp(&b.location)
        .then(b.level.cmp(&a.level))
        .then(a.message.cmp(&b.message))
}
