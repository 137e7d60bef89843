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
//!
//! What is listed beside the two is the author's choice: tools marked
//! `#[tool(always_listed)]`, tools named here, whole toolsets, and the
//! cheapest tools under a budget of tokens. In [`DiscoveryMode::Reveal`]
//! the tools a search finds join the session's own listing instead, and
//! the client is told with `notifications/tools/list_changed`.

use crate::call::handler::Arguments;
use crate::call::result::CallToolResult;
use crate::registry::policy::Caller;
use crate::registry::registry::Entry;
use crate::registry::registry::Registry;
use crate::rules::context::Cost;
use crate::rules::names::{NameProfile, validate_name};
use crate::rules::quote;
use crate::rules::tier::Tier;
use serde_json::{Value, json};
use std::collections::BTreeSet;

/// The most tools a search answers.
pub(crate) const MAX_RESULTS: usize = 50;

/// The longest query searched, in bytes.
pub(crate) const MAX_QUERY_BYTES: usize = 1024;

/// What discovery mode does with the tools a search finds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DiscoveryMode {
    /// The search answers their descriptors and the model calls them
    /// through the call tool. Every client can do this.
    #[default]
    Proxy,
    /// They also join the session's listing, and the client is told with
    /// `notifications/tools/list_changed`, so the model calls them by their
    /// own names, with their own annotations. Only an `initialize`-era
    /// session has a listing of its own: on a 2026-07-28 request, or a
    /// session that never initialized (stateless HTTP), discovery serves
    /// as in [`Proxy`](DiscoveryMode::Proxy). For clients that re-list
    /// when told to.
    Reveal,
}

/// The settings of discovery mode: which tools are listed, the names of
/// the search and call tools, how many tools a search answers, and what
/// becomes of the tools it finds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Discovery {
    pub(crate) listed: BTreeSet<String>,
    toolsets: BTreeSet<String>,
    budget: Option<u64>,
    /// The tools the budget chose, when serving starts.
    cheapest: BTreeSet<String>,
    pub(crate) search: String,
    pub(crate) call: String,
    pub(crate) results: usize,
    pub(crate) mode: DiscoveryMode,
}

impl Default for Discovery {
    fn default() -> Discovery {
        Discovery::new()
    }
}

impl Discovery {
    /// Lists the tools marked `#[tool(always_listed)]` (and provided tools
    /// with `ProvidedTool::always_listed`) beside the search and call
    /// tools; the search tool is `search_tools`, the call tool
    /// `call_tool`; a search answers at most 10 tools, and the model calls
    /// them through the call tool.
    pub fn new() -> Discovery {
        Discovery {
            listed: BTreeSet::new(),
            toolsets: BTreeSet::new(),
            budget: None,
            cheapest: BTreeSet::new(),
            search: "search_tools".to_owned(),
            call: "call_tool".to_owned(),
            results: 10,
            mode: DiscoveryMode::Proxy,
        }
    }

    /// Lists these tools too, to the callers that may see them: the ones a
    /// model needs in most conversations.
    pub fn listed(mut self, names: impl IntoIterator<Item = impl Into<String>>) -> Discovery {
        self.listed.extend(names.into_iter().map(Into::into));
        self
    }

    /// Lists every tool of these toolsets too (`#[tool(toolset = "...")]`),
    /// to the callers that may see them.
    pub fn toolsets(mut self, toolsets: impl IntoIterator<Item = impl Into<String>>) -> Discovery {
        self.toolsets.extend(toolsets.into_iter().map(Into::into));
        self
    }

    /// Lists, beyond the tools listed otherwise, the cheapest tools whose
    /// descriptors together take at most `tokens` estimated tokens (the
    /// estimate of `tooltable list` and `context_budget`), cheapest first.
    /// They are chosen among the registry's tools when serving starts; a
    /// tool registered later is listed only by the other rules.
    pub fn budget(mut self, tokens: u64) -> Discovery {
        self.budget = Some(tokens);
        self
    }

    /// What becomes of the tools a search finds (default
    /// [`DiscoveryMode::Proxy`]).
    pub fn mode(mut self, mode: DiscoveryMode) -> Discovery {
        self.mode = mode;
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
        if let Some(name) = self.listed.iter().find(|name| registry.get(name).is_none()) {
            return Some(format!(
                "discovery mode lists `{}`, which the registry does not have; list only its tools",
                quote::text(name)
            ));
        }
        let entries = registry.entries();
        self.toolsets
            .iter()
            .find(|toolset| {
                !entries
                    .iter()
                    .any(|entry| entry.info().toolset == Some(toolset.as_str()))
            })
            .map(|toolset| {
                format!(
                    "discovery mode lists the toolset `{}`, to which no tool of the registry belongs; list a toolset its tools declare with `#[tool(toolset = \"...\")]`",
                    quote::text(toolset)
                )
            })
    }

    /// These settings with the budget's tools chosen among `registry`'s,
    /// when serving starts.
    pub(crate) fn resolved<C: 'static>(mut self, registry: &Registry<C>) -> Discovery {
        let Some(budget) = self.budget else {
            return self;
        };
        let mut candidates: Vec<(u64, String)> = registry
            .entries()
            .iter()
            .filter(|entry| !self.lists(entry))
            .map(|entry| {
                let cost = Cost::of_text(entry.descriptor_json());
                (cost.tokens, entry.name().to_owned())
            })
            .collect();
        candidates.sort();
        let mut spent = 0u64;
        for (tokens, name) in candidates {
            spent = spent.saturating_add(tokens);
            if spent > budget {
                break;
            }
            self.cheapest.insert(name);
        }
        self
    }

    /// Whether `entry` is listed: by its mark, its name, its toolset or the
    /// budget.
    pub(crate) fn lists<C: 'static>(&self, entry: &Entry<C>) -> bool {
        let info = entry.info();
        info.always_listed
            || self.listed.contains(info.name)
            || self.cheapest.contains(info.name)
            || info
                .toolset
                .is_some_and(|toolset| self.toolsets.contains(toolset))
    }

    /// The descriptors of the search tool and, when `calls`, the call tool,
    /// for a registry whose highest tier is `max_tier`: the call tool's
    /// annotations are those of the riskiest tool it may call.
    pub(crate) fn descriptors(&self, max_tier: Tier, calls: bool) -> Vec<Value> {
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
        if calls {
            vec![search, call]
        } else {
            vec![search]
        }
    }

    /// The answer of the search tool to `arguments`: the descriptors of the
    /// tools `caller` may see that match, or a refusal saying what was
    /// wrong with the arguments; and the names of the tools found.
    pub(crate) fn search<C: 'static>(
        &self,
        registry: &Registry<C>,
        caller: &Caller,
        arguments: Option<&Arguments>,
    ) -> (CallToolResult, Vec<String>) {
        let (query, limit) = match self.query(arguments) {
            Ok(query) => query,
            Err(refusal) => return (refusal, Vec::new()),
        };
        let found = registry.search(caller, query, limit);
        let tools: Vec<Value> = found.iter().map(Entry::descriptor).collect();
        let names = found.iter().map(|entry| entry.name().to_owned()).collect();
        (CallToolResult::structured(json!({ "tools": tools })), names)
    }

    /// The query and limit `arguments` of the search tool give, or a
    /// refusal saying what was wrong with them.
    fn query<'a>(
        &self,
        arguments: Option<&'a Arguments>,
    ) -> Result<(&'a str, usize), CallToolResult> {
        let needs_query = || {
            CallToolResult::error(format!(
                "{} needs `query`, a string of what the tool should do; search with {{\"query\": \"...\"}}",
                self.search
            ))
        };
        let arguments = arguments.ok_or_else(needs_query)?;
        if let Some(key) = arguments.keys().find(|k| *k != "query" && *k != "limit") {
            return Err(CallToolResult::error(format!(
                "{} takes `query` and `limit`, not `{}`; search with {{\"query\": \"what the tool should do\"}}",
                self.search,
                quote::text(key)
            )));
        }
        let query = arguments
            .get("query")
            .and_then(Value::as_str)
            .ok_or_else(needs_query)?;
        if query.len() > MAX_QUERY_BYTES {
            return Err(CallToolResult::error(format!(
                "the query is {} bytes, more than {MAX_QUERY_BYTES}; say what the tool should do in a few words",
                query.len()
            )));
        }
        let limit = match arguments.get("limit") {
            None => self.results,
            Some(limit) => match limit.as_u64().and_then(|l| usize::try_from(l).ok()) {
                Some(limit) if (1..=self.results).contains(&limit) => limit,
                _ => {
                    return Err(CallToolResult::error(format!(
                        "`limit` is a whole number from 1 to {}; got {}",
                        self.results,
                        quote::text(&limit.to_string())
                    )));
                }
            },
        };
        Ok((query, limit))
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
