//! `tooltable export`: the tools in another client's format.
//!
//! MCP gets the `tools/list` result exactly as served; OpenAI gets function
//! tools (optionally in strict mode); Anthropic gets `{name, description,
//! input_schema}`. A name the target forbids is an error naming the tool
//! and the rule: renaming silently would make the model call a tool the
//! server does not have.

use super::source::load_tools;
use super::strict::strict_schema;
use super::{Exit, ExportFormat, Failure, Outcome};
use serde_json::Value;
use std::io::Write;
use std::path::Path;
use tooltable_runtime::descriptor;
use tooltable_runtime::json_text::JsonWriter;
use tooltable_runtime::manifest::Manifest;
use tooltable_runtime::names::{NameProfile, validate_name};

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
            "--strict applies to --format openai only; leave it out for mcp and anthropic".into(),
        ));
    }
    let manifest = load_tools(source, err)?;
    let text = render(&manifest, format, strict, ttl_ms)?;
    let _ = writeln!(out, "{text}");
    Ok(Exit::Ok)
}

/// The export's text (without a trailing newline).
pub fn render(
    manifest: &Manifest,
    format: ExportFormat,
    strict: bool,
    ttl_ms: u64,
) -> Result<String, Failure> {
    let (profile, target) = match format {
        ExportFormat::Mcp => (NameProfile::Mcp, "MCP"),
        ExportFormat::Openai => (NameProfile::Portable, "OpenAI"),
        ExportFormat::Anthropic => (NameProfile::Portable, "Anthropic"),
    };
    let mut errors = Vec::new();
    for tool in &manifest.tools {
        if let Err(e) = validate_name(&tool.name, profile, &[] as &[&str]) {
            errors.push(format!(
                "tool `{}` cannot be exported to {target}: {e}",
                tool.name
            ));
        }
    }
    let mut w = JsonWriter::pretty();
    match format {
        ExportFormat::Mcp => {
            w.begin_object();
            w.key("tools");
            w.begin_array();
            for tool in &manifest.tools {
                descriptor::write(&mut w, &tool.descriptor);
            }
            w.end_array();
            w.field("ttlMs", &ttl_ms.into());
            w.field_str("cacheScope", "public");
            w.field_str("resultType", "complete");
            w.end_object();
        }
        ExportFormat::Openai | ExportFormat::Anthropic => {
            w.begin_array();
            for tool in &manifest.tools {
                let get = |key: &str| tool.descriptor.get(key).cloned().unwrap_or(Value::Null);
                let description = get("description");
                let mut schema = get("inputSchema");
                if strict {
                    match strict_schema(&schema) {
                        Ok(s) => schema = s,
                        Err(found) => errors.extend(found.into_iter().map(|e| {
                            format!(
                                "tool `{}` cannot be exported in strict mode: inputSchema {e}",
                                tool.name
                            )
                        })),
                    }
                }
                w.begin_object();
                if format == ExportFormat::Openai {
                    w.field_str("type", "function");
                    w.key("function");
                    w.begin_object();
                    w.field_str("name", &tool.name);
                    w.field("description", &description);
                    w.field("parameters", &schema);
                    if strict {
                        w.field("strict", &Value::Bool(true));
                    }
                    w.end_object();
                } else {
                    w.field_str("name", &tool.name);
                    w.field("description", &description);
                    w.field("input_schema", &schema);
                }
                w.end_object();
            }
            w.end_array();
        }
    }
    if errors.is_empty() {
        Ok(w.finish())
    } else {
        Err(Failure(errors.join("\nerror: ")))
    }
}
