//! The `tooltable` command (and `cargo tooltable`).
//!
//! It reads a crate's sources and `[package.metadata.tooltable]` with the
//! same library the build script uses, and never compiles the crate, so it
//! is fast enough for a pre-commit hook and a CI gate. Each subcommand lives
//! in its own module; this one parses the command line and maps outcomes to
//! exit codes: 0 success, 1 a finding (drift, a failing diff), 2 a usage or
//! input error. Nothing the user feeds it makes it panic: every failure is
//! a [`Failure`] with a sentence naming the file and what was wrong.

#![warn(missing_docs)]

mod check;
mod diff;
mod export;
mod generate;
mod list;
mod source;

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use tooltable_codegen::committed::Requested;
use tooltable_rules::clients::Client;

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// Success: nothing to report.
    Ok = 0,
    /// A finding: drift, or a diff that fails `--fail-on`.
    Finding = 1,
    /// A usage or input error.
    Error = 2,
}

/// A failure that ends the run with exit code 2, as a sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure(pub String);

impl<T: Into<String>> From<T> for Failure {
    fn from(message: T) -> Failure {
        Failure(message.into())
    }
}

/// What a subcommand returns.
pub type Outcome = Result<Exit, Failure>;

#[derive(Parser, Debug)]
#[command(
    name = "tooltable",
    version,
    about = "Docs, manifest, drift gate, diff and export for tooltable crates, straight from the sources.",
    long_about = "Reads a crate's #[tool] handlers and [package.metadata.tooltable] without compiling it.\n\nExit codes: 0 success, 1 a finding (drift, a failing diff), 2 a usage or input error."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Write the crate's docs and manifest.
    Generate {
        /// The crate's directory (the one holding Cargo.toml).
        #[arg(default_value = ".")]
        crate_dir: PathBuf,
        #[command(flatten)]
        configuration: Configuration,
    },
    /// Compare the committed docs and manifest with the sources; exit 1 on drift.
    ///
    /// Given a manifest file (a `tools.json` tooltable wrote) rather than a crate,
    /// check its tools against the `--clients` profiles only.
    Check {
        /// The crate's directory (the one holding Cargo.toml), or a manifest file.
        #[arg(default_value = ".")]
        crate_dir: PathBuf,
        #[command(flatten)]
        configuration: Configuration,
        /// How to report.
        #[arg(long, value_enum, default_value_t = CheckFormat::Text)]
        format: CheckFormat,
        /// Check the tools against these client profiles too (comma-separated,
        /// such as `portable` or `claude-code,cursor`), as the build checks
        /// those `clients` names.
        #[arg(long, value_delimiter = ',', value_parser = client_profile)]
        clients: Vec<Client>,
    },
    /// Classify every change between two manifests: breaking, compatible or cosmetic.
    Diff {
        /// The old manifest: a file, or a git revision and path such as `main:tools.json`.
        old: String,
        /// The new manifest: a file, or a git revision and path.
        new: String,
        /// Exit 1 when a change of this class (or a worse one) is found.
        #[arg(long, value_enum)]
        fail_on: Option<FailOn>,
        /// How to report.
        #[arg(long, value_enum, default_value_t = DiffFormat::Text)]
        format: DiffFormat,
    },
    /// Print the tools for another client format.
    Export {
        /// The target format.
        #[arg(long, value_enum)]
        format: ExportFormat,
        /// OpenAI only: strict-mode schemas (every property required, optional ones nullable).
        #[arg(long)]
        strict: bool,
        /// MCP only: the `ttlMs` of the `tools/list` result.
        #[arg(long, default_value_t = 0)]
        ttl_ms: u64,
        /// A crate's directory, or a manifest file.
        #[arg(default_value = ".")]
        source: PathBuf,
    },
    /// Show the tools as a table.
    List {
        /// A crate's directory, or a manifest file.
        #[arg(default_value = ".")]
        source: PathBuf,
    },
}

/// Which build configuration to read the crate in: by default the one its
/// committed files describe (`[package.metadata.tooltable]` `features`,
/// `default_features`, `profile`; otherwise default features, dev profile).
#[derive(Args, Debug, Default)]
struct Configuration {
    /// Read the crate with these features (and the defaults), as `cargo build --features`.
    #[arg(long, value_delimiter = ',', value_name = "FEATURES")]
    features: Vec<String>,
    /// Read the crate with every feature it declares.
    #[arg(long)]
    all_features: bool,
    /// Read the crate without its default features.
    #[arg(long)]
    no_default_features: bool,
    /// Read the crate as the release profile builds it (`debug_assertions` off).
    #[arg(long)]
    release: bool,
}

impl Configuration {
    /// The configuration asked for, `None` for the declared one.
    fn requested(&self) -> Option<Requested> {
        let asked = !self.features.is_empty()
            || self.all_features
            || self.no_default_features
            || self.release;
        asked.then(|| Requested {
            features: self.features.clone(),
            no_default_features: self.no_default_features,
            all_features: self.all_features,
            release: self.release,
        })
    }
}

/// A client profile named on the command line.
fn client_profile(text: &str) -> Result<Client, String> {
    Client::parse(text).ok_or_else(|| {
        format!(
            "`{text}` is not a client profile; the profiles are {}",
            Client::spellings()
        )
    })
}

/// `check --format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CheckFormat {
    /// A unified diff per drifted file and the command that fixes it.
    Text,
    /// One JSON document.
    Json,
    /// GitHub Actions workflow commands: an error annotation per drifted file.
    Github,
}

/// `diff --format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DiffFormat {
    /// For a terminal.
    Text,
    /// One stable JSON document.
    Json,
    /// For a pull-request comment.
    Markdown,
}

/// `diff --fail-on`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    /// Breaking changes.
    Breaking,
    /// Breaking or compatible changes.
    Compatible,
    /// Any change at all, cosmetic ones included.
    Any,
}

/// `export --format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    /// The MCP `tools/list` result.
    Mcp,
    /// OpenAI function-calling tools.
    Openai,
    /// Anthropic tools.
    Anthropic,
    /// A Gemini tool of function declarations.
    Gemini,
}

/// Runs the command with `args` (the first is the program name) and the
/// process's streams.
pub fn main<I, T>(args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    use std::io::IsTerminal;
    let colour = list::use_colour(
        std::io::stdout().is_terminal(),
        std::env::var_os("NO_COLOR"),
    );
    let code = run(
        args,
        colour,
        &mut std::io::stdout().lock(),
        &mut std::io::stderr().lock(),
    );
    ExitCode::from(code as u8)
}

/// Runs the command with `args` (the first is the program name), writing
/// results to `out` and problems to `err`; `colour` allows colour in `list`.
pub fn run<I, T>(args: I, colour: bool, out: &mut dyn Write, err: &mut dyn Write) -> Exit
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let text = e.render().to_string();
            return if e.use_stderr() {
                let _ = write!(err, "{text}");
                Exit::Error
            } else {
                let _ = write!(out, "{text}");
                Exit::Ok
            };
        }
    };
    let outcome = match cli.command {
        Command::Generate {
            crate_dir,
            configuration,
        } => generate::run(&crate_dir, configuration.requested().as_ref(), out, err),
        Command::Check {
            crate_dir,
            configuration,
            format,
            clients,
        } => check::run(
            &crate_dir,
            configuration.requested().as_ref(),
            format,
            &clients,
            out,
            err,
        ),
        Command::Diff {
            old,
            new,
            fail_on,
            format,
        } => diff::run(&old, &new, fail_on, format, out),
        Command::Export {
            format,
            strict,
            ttl_ms,
            source,
        } => export::run(&source, format, strict, ttl_ms, out, err),
        Command::List { source } => list::run(&source, colour, out, err),
    };
    match outcome {
        Ok(exit) => exit,
        Err(Failure(message)) => {
            let _ = writeln!(err, "error: {message}");
            Exit::Error
        }
    }
}
