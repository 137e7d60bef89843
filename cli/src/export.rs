//! `tooltable export`: the tools in another client's format, rendered by
//! [`tooltable_codegen::export`].

use crate::source::load_tools;
use crate::{Exit, ExportFormat, Failure, Outcome};
use std::io::Write;
use std::path::Path;
use tooltable_codegen::export::{self, Format};

/// Runs `export`.
pub fn run(
    source: &Path,
    format: ExportFormat,
    strict: bool,
    ttl_ms: u64,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Outcome {
    if strict && format != ExportFormat::Openai {
        return Err(Failure(
            "--strict applies to --format openai only; leave it out for mcp, anthropic and gemini"
                .into(),
        ));
    }
    let manifest = load_tools(source, err)?;
    let format = match format {
        ExportFormat::Mcp => Format::Mcp,
        ExportFormat::Openai => Format::Openai,
        ExportFormat::Anthropic => Format::Anthropic,
        ExportFormat::Gemini => Format::Gemini,
    };
    let text = export::render(&manifest, format, strict, ttl_ms)
        .map_err(|errors| Failure(errors.join("\nerror: ")))?;
    let _ = writeln!(out, "{text}");
    Ok(Exit::Ok)
}
