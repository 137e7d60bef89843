//! Exports: the tools in another client's format.
//!
//! MCP gets the `tools/list` result exactly as served; OpenAI gets function
//! tools (optionally in strict mode, see [`strict_schema`]); Anthropic gets
//! `{name, description, input_schema}`; Gemini gets a tool of
//! `functionDeclarations` in the dialect of their `parameters`. Each export is
//! checked against its provider's client profile, as the build checks a
//! crate's `clients`: a tool the target refuses is an error naming the
//! tool, the rule and the fix, since renaming or dropping it silently
//! would leave the model a tool set the server does not have.
//!
//! Two rewrites are made, both meaning-preserving: an object schema
//! without `properties` gets an empty one (what OpenAI and Gemini demand,
//! and the same schema to a validator), and Gemini's `parameters` write a
//! nullable type as its dialect does (`nullable: true`).

mod gemini;
mod strict;

pub use strict::strict_schema;

use serde::Serialize;
use serde_json::{Value, json};
use tooltable_rules::clients::{self, Client};
use tooltable_rules::names::{NameProfile, validate_name};
use tooltable_rules::schema;
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
    /// A Gemini tool: `{"functionDeclarations": [...]}`.
    Gemini,
}

impl Format {
    /// The client profile the export is checked against (none for MCP,
    /// whose names the MCP name rules check).
    fn profile(self, strict: bool) -> Option<Client> {
        match self {
            Format::Mcp => None,
            Format::Openai if strict => Some(Client::OpenAiStrict),
            Format::Openai => Some(Client::OpenAi),
            Format::Anthropic => Some(Client::ClaudeApi),
            Format::Gemini => Some(Client::Gemini),
        }
    }
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
    Gemini {
        name: &'a str,
        #[serde(serialize_with = "sorted")]
        description: Value,
        #[serde(serialize_with = "sorted")]
        parameters: Value,
    },
}

/// A Gemini tool.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct GeminiTool<'a> {
    function_declarations: Vec<Function<'a>>,
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
    let mut errors = Vec::new();
    let text = match format.profile(strict) {
        None => {
            for tool in &manifest.tools {
                if let Err(e) = validate_name(&tool.name, NameProfile::Mcp, &[] as &[&str]) {
                    errors.push(format!(
                        "tool `{}` cannot be exported to MCP: {e}",
                        tool.name
                    ));
                }
            }
            json_text::pretty(&McpList {
                tools: manifest
                    .tools
                    .iter()
                    .map(|tool| descriptor::Text(&tool.descriptor))
                    .collect(),
                ttl_ms,
                cache_scope: "public",
                result_type: "complete",
            })
        }
        Some(client) => {
            if let Some(violation) = clients::count::check(client, manifest.tools.len()) {
                errors.push(format!(
                    "the tools cannot be exported to `{client}`: {violation}"
                ));
            }
            let mut functions = Vec::new();
            for tool in &manifest.tools {
                let get = |key: &str| tool.descriptor.get(key).cloned().unwrap_or(Value::Null);
                let description = get("description");
                let mut schema = get("inputSchema");
                schema::fill_properties(&mut schema);
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
                if format == Format::Gemini {
                    schema = gemini::gemini_parameters(schema);
                }
                let exported = json!({"name": tool.name, "inputSchema": schema});
                let violations = clients::check_tool(client, "", &tool.name, &exported);
                errors.extend(violations.into_iter().map(|violation| {
                    format!(
                        "tool `{}` cannot be exported to `{client}`: {violation}",
                        tool.name
                    )
                }));
                functions.push(match format {
                    Format::Openai => Function::Openai {
                        kind: "function",
                        function: OpenaiFunction {
                            name: &tool.name,
                            description,
                            parameters: schema,
                            strict: strict.then_some(true),
                        },
                    },
                    Format::Gemini => Function::Gemini {
                        name: &tool.name,
                        description,
                        parameters: schema,
                    },
                    // MCP is rendered above, from the descriptors as served.
                    Format::Anthropic | Format::Mcp => Function::Anthropic {
                        name: &tool.name,
                        description,
                        input_schema: schema,
                    },
                });
            }
            if format == Format::Gemini {
                json_text::pretty(&GeminiTool {
                    function_declarations: functions,
                })
            } else {
                json_text::pretty(&functions)
            }
        }
    };
    if errors.is_empty() {
        Ok(text)
    } else {
        Err(errors)
    }
}
