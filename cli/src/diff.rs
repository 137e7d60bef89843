//! `tooltable diff OLD NEW`: what a change to the tool surface does to clients.
//!
//! Loads two manifests (files, or `REV:PATH` through git), classifies every
//! change (with [`tooltable_codegen::compat`]), and reports it as text, as stable JSON,
//! or as Markdown for a pull-request comment. `--fail-on` turns a class of
//! change into exit code 1.

use crate::source::load_manifest;
use crate::{DiffFormat, Exit, FailOn, Outcome};
use std::io::Write;
use tooltable_codegen::compat::{self, Class, ToolChange, compare};

/// Runs `diff`.
pub fn run(
    old: &str,
    new: &str,
    fail_on: Option<FailOn>,
    format: DiffFormat,
    out: &mut dyn Write,
) -> Outcome {
    let before = load_manifest(old)?;
    let after = load_manifest(new)?;
    let tools = compare(&before, &after);
    let _ = match format {
        DiffFormat::Text => write!(out, "{}", compat::text(&before, &after, &tools)),
        DiffFormat::Json => write!(out, "{}", compat::json(&before, &after, &tools)),
        DiffFormat::Markdown => write!(out, "{}", compat::markdown(&before, &after, &tools)),
    };
    let worst = tools.iter().map(ToolChange::class).max();
    let fails = match (fail_on, worst) {
        (None, _) | (_, None) => false,
        (Some(FailOn::Any), Some(_)) => true,
        (Some(FailOn::Compatible), Some(class)) => class >= Class::Compatible,
        (Some(FailOn::Breaking), Some(class)) => class == Class::Breaking,
    };
    Ok(if fails { Exit::Finding } else { Exit::Ok })
}
