//! Exports: the tools in another client's format.
//!
//! MCP gets the `tools/list` result exactly as served; OpenAI gets function
//! tools (optionally in strict mode, see [`strict_schema`]); Anthropic gets
//! `{name, description, input_schema}`. A name the target forbids is an
//! error naming the tool and the rule: renaming silently would make the
//! model call a tool the server does not have.

mod strict;

pub use strict::strict_schema;

use serde::Serialize;
use serde_json::Value;
use tooltable_rules::names::{NameProfile, validate_name};
use tooltable_rules::wire::descriptor;
use tooltable_rules::wire::json_text::{self, sorted};
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

/// The MCP `tools/list` result, as served.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct McpList<'a> {
    tools: Vec<descriptor::Text<'a>>,
    ttl_ms: u64,
    cache_scope: &'static str,
    result_type: &'static str,
}

/// One tool as OpenAI or Anthropic takes it.
#[derive(Serialize)]
#[serde(untagged)]
enum Function<'a> {
    Openai {
        #[serde(rename = "type")]
        kind: &'static str,
        function: OpenaiFunction<'a>,
    },
    Anthropic {
        name: &'a str,
        #[serde(serialize_with = "sorted")]
        description: Value,
        #[serde(serialize_with = "sorted")]
        input_schema: Value,
    },
}

/// An OpenAI function tool's `function`.
#[derive(Serialize)]
struct OpenaiFunction<'a> {
    name: &'a str,
    #[serde(serialize_with = "sorted")]
    description: Value,
    #[serde(serialize_with = "sorted")]
    parameters: Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    strict: Option<bool>,
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
    let text = match format {
        Format::Mcp => json_text::pretty(&McpList {
            tools: manifest
                .tools
                .iter()
                .map(|tool| descriptor::Text(&tool.descriptor))
                .collect(),
            ttl_ms,
            cache_scope: "public",
            result_type: "complete",
        }),
        Format::Openai | Format::Anthropic => {
            let mut functions = Vec::new();
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
                functions.push(if format == Format::Openai {
                    Function::Openai {
                        kind: "function",
                        function: OpenaiFunction {
                            name: &tool.name,
                            description,
                            parameters: schema,
                            strict: strict.then_some(true),
                        },
                    }
                } else {
                    Function::Anthropic {
                        name: &tool.name,
                        description,
                        input_schema: schema,
                    }
                });
            }
            json_text::pretty(&functions)
        }
    };
    if errors.is_empty() {
        Ok(text)
    } else {
        Err(errors)
    }
}
