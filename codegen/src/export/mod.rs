//! Exports: the tools in another client's format.
//!
//! MCP gets the `tools/list` result exactly as served; OpenAI gets function
//! tools (optionally in strict mode, see [`strict_schema`]); Anthropic gets
//! `{name, description, input_schema}`. A name the target forbids is an
//! error naming the tool and the rule: renaming silently would make the
//! model call a tool the server does not have.

mod strict;

pub use strict::strict_schema;

use serde_json::Value;
use tooltable_rules::names::{NameProfile, validate_name};
use tooltable_rules::wire::descriptor;
use tooltable_rules::wire::json_text::JsonWriter;
use tooltable_rules::wire::manifest::Manifest;

/// A target format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// The MCP `tools/list` result.
    Mcp,
    /// OpenAI function-calling tools.
    Openai,
    /// Anthropic tools.
    Anthropic,
}

/// The export's text (without a trailing newline), or every reason it
/// cannot be made, one sentence each. `strict` applies to OpenAI only;
/// `ttl_ms` to MCP only.
pub fn render(
    manifest: &Manifest,
    format: Format,
    strict: bool,
    ttl_ms: u64,
) -> Result<String, Vec<String>> {
    let (profile, target) = match format {
        Format::Mcp => (NameProfile::Mcp, "MCP"),
        Format::Openai => (NameProfile::Portable, "OpenAI"),
        Format::Anthropic => (NameProfile::Portable, "Anthropic"),
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
        Format::Mcp => {
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
        Format::Openai | Format::Anthropic => {
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
                if format == Format::Openai {
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
        Err(errors)
    }
}
