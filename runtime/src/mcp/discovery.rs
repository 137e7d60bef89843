//! Discovery mode: a listing of a few tools, a search tool and a call tool.
//!
//! A server of hundreds of tools costs a client its whole listing before
//! the first question. In discovery mode `tools/list` answers the tools the
//! server lists by name, and two tools of the server's own: one that
//! searches every tool the caller may see ([`Registry::search`], over the
//! index baked at build time) and answers their full descriptors, and one
//! that calls a tool by name. A call through the call tool is unwrapped
//! before anything else looks at it, so it is the same call as a
//! `tools/call` of that tool: admission, policy, flags, pins, consent,
//! argument validation, tasks and limits are the tool's own. Every tool
//! stays callable by its own name too.

use crate::call::handler::Arguments;
use crate::call::result::CallToolResult;
use crate::registry::policy::Caller;
use crate::registry::registry::Registry;
use crate::rules::names::{NameProfile, validate_name};
use crate::rules::quote;
use crate::rules::tier::Tier;
use serde_json::{Value, json};
use std::collections::BTreeSet;

/// The most tools a search answers.
pub(crate) const MAX_RESULTS: usize = 50;

/// The longest query searched, in bytes.
pub(crate) const MAX_QUERY_BYTES: usize = 1024;

/// The settings of discovery mode: which tools are listed, the names of
/// the search and call tools, and how many tools a search answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Discovery {
    pub(crate) listed: BTreeSet<String>,
    pub(crate) search: String,
    pub(crate) call: String,
    pub(crate) results: usize,
}

impl Default for Discovery {
    fn default() -> Discovery {
        Discovery::new()
    }
}

impl Discovery {
    /// Lists no tool of the registry; the search tool is `search_tools`,
    /// the call tool `call_tool`, and a search answers at most 10 tools.
    pub fn new() -> Discovery {
        Discovery {
            listed: BTreeSet::new(),
            search: "search_tools".to_owned(),
            call: "call_tool".to_owned(),
            results: 10,
        }
    }

    /// Lists these tools too, beside the search and call tools, to the
    /// callers that may see them: the ones a model needs in most
    /// conversations.
    pub fn listed(mut self, names: impl IntoIterator<Item = impl Into<String>>) -> Discovery {
        self.listed.extend(names.into_iter().map(Into::into));
        self
    }

    /// The most tools a search answers (default 10; 1 to 50),
    /// unless the search asks for fewer.
    pub fn results(mut self, results: usize) -> Discovery {
        self.results = results;
        self
    }

    /// Names the search and call tools (default `search_tools` and
    /// `call_tool`), for a server with tools of those names.
    pub fn named(mut self, search: impl Into<String>, call: impl Into<String>) -> Discovery {
        self.search = search.into();
        self.call = call.into();
        self
    }

    /// Why these settings cannot serve `registry`, if they cannot.
    pub(crate) fn refusal<C: 'static>(&self, registry: &Registry<C>) -> Option<String> {
        if !(1..=MAX_RESULTS).contains(&self.results) {
            return Some(format!(
                "a search answers between 1 and {MAX_RESULTS} tools; got {}",
                self.results
            ));
        }
        if self.search == self.call {
            return Some(format!(
                "the search and call tools of discovery mode need two names; both are `{}`",
                quote::text(&self.search)
            ));
        }
        for name in [&self.search, &self.call] {
            if let Err(error) = validate_name::<&str>(name, NameProfile::Portable, &[]) {
                return Some(format!(
                    "`{}` cannot name a tool of discovery mode: {error}",
                    quote::text(name)
                ));
            }
            if registry.get(name).is_some() {
                return Some(format!(
                    "the registry has a tool named `{name}`, which discovery mode would hide behind its own; name discovery's tools otherwise with `Discovery::named`"
                ));
            }
        }
        self.listed
            .iter()
            .find(|name| registry.get(name).is_none())
            .map(|name| {
                format!(
                    "discovery mode lists `{}`, which the registry does not have; list only its tools",
                    quote::text(name)
                )
            })
    }

    /// Whether the tool `name` is listed.
    pub(crate) fn lists(&self, name: &str) -> bool {
        self.listed.contains(name)
    }

    /// The descriptors of the search and call tools, for a registry whose
    /// highest tier is `max_tier`: the call tool's annotations are those of
    /// the riskiest tool it may call.
    pub(crate) fn descriptors(&self, max_tier: Tier) -> [Value; 2] {
        let search = json!({
            "name": self.search,
            "title": "Search tools",
            "description": format!(
                "Find this server's tools by what they do. Answers the full descriptors (name, description, input schema) of the tools that best match the query, best first; call one with `{}`.",
                self.call
            ),
            "inputSchema": {
                "type": "object",
                "properties": {
                    "query": {"type": "string", "description": "What the tool should do, in a few words."},
                    "limit": {"type": "integer", "minimum": 1, "maximum": self.results, "description": format!("The most tools to answer (default {}).", self.results)},
                },
                "required": ["query"],
                "additionalProperties": false,
            },
            "outputSchema": {
                "type": "object",
                "properties": {"tools": {"type": "array", "items": {"type": "object"}}},
                "required": ["tools"],
            },
            "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false},
        });
        let call = json!({
            "name": self.call,
            "title": "Call a tool",
            "description": format!(
                "Call a tool of this server that `{}` found, by its name, with arguments that fit its input schema. Answers what the tool answers.",
                self.search
            ),
            "inputSchema": {
                "type": "object",
                "properties": {
                    "name": {"type": "string", "description": "The tool's name, as the search answered it."},
                    "arguments": {"type": "object", "description": "The tool's arguments."},
                },
                "required": ["name"],
                "additionalProperties": false,
            },
            "annotations": {
                "readOnlyHint": max_tier == Tier::Read,
                "destructiveHint": max_tier == Tier::Destructive,
                "idempotentHint": max_tier == Tier::Read,
                "openWorldHint": true,
            },
        });
        [search, call]
    }

    /// The answer of the search tool to `arguments`: the descriptors of the
    /// tools `caller` may see that match, or a refusal saying what was
    /// wrong with the arguments.
    pub(crate) fn search<C: 'static>(
        &self,
        registry: &Registry<C>,
        caller: &Caller,
        arguments: Option<&Arguments>,
    ) -> CallToolResult {
        let empty = Arguments::new();
        let arguments = arguments.unwrap_or(&empty);
        if let Some(key) = arguments.keys().find(|k| *k != "query" && *k != "limit") {
            return CallToolResult::error(format!(
                "{} takes `query` and `limit`, not `{}`; search with {{\"query\": \"what the tool should do\"}}",
                self.search,
                quote::text(key)
            ));
        }
        let Some(query) = arguments.get("query").and_then(Value::as_str) else {
            return CallToolResult::error(format!(
                "{} needs `query`, a string of what the tool should do; search with {{\"query\": \"...\"}}",
                self.search
            ));
        };
        if query.len() > MAX_QUERY_BYTES {
            return CallToolResult::error(format!(
                "the query is {} bytes, more than {MAX_QUERY_BYTES}; say what the tool should do in a few words",
                query.len()
            ));
        }
        let limit = match arguments.get("limit") {
            None => self.results,
            Some(limit) => match limit.as_u64().and_then(|l| usize::try_from(l).ok()) {
                Some(limit) if (1..=self.results).contains(&limit) => limit,
                _ => {
                    return CallToolResult::error(format!(
                        "`limit` is a whole number from 1 to {}; got {}",
                        self.results,
                        quote::text(&limit.to_string())
                    ));
                }
            },
        };
        let tools: Vec<Value> = registry
            .search(caller, query, limit)
            .iter()
            .map(|entry| entry.descriptor())
            .collect();
        CallToolResult::structured(json!({ "tools": tools }))
    }

    /// The tool and arguments a call of the call tool names, or a refusal
    /// saying what was wrong with its arguments.
    pub(crate) fn unwrap(
        &self,
        arguments: Option<Arguments>,
    ) -> Result<(String, Arguments), CallToolResult> {
        let mut arguments = arguments.unwrap_or_default();
        if let Some(key) = arguments.keys().find(|k| *k != "name" && *k != "arguments") {
            return Err(CallToolResult::error(format!(
                "{} takes `name` and `arguments`, not `{}`; call with {{\"name\": \"a tool's name\", \"arguments\": {{...}}}}",
                self.call,
                quote::text(key)
            )));
        }
        let name = match arguments.remove("name") {
            Some(Value::String(name)) => name,
            _ => {
                return Err(CallToolResult::error(format!(
                    "{} needs `name`, the name of the tool to call as {} answered it",
                    self.call, self.search
                )));
            }
        };
        let inner = match arguments.remove("arguments") {
            None => Arguments::new(),
            Some(Value::Object(inner)) => inner,
            Some(_) => {
                return Err(CallToolResult::error(format!(
                    "`arguments` of {} is an object of the arguments of `{}`",
                    self.call,
                    quote::text(&name)
                )));
            }
        };
        Ok((name, inner))
    }
}
