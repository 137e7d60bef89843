//! The rmcp adapter: a registry as an rmcp `ServerHandler`.
//!
//! [`McpServer`] implements rmcp's `ServerHandler`: `tools/list` and
//! `tools/call` go through the [`Registry`] (so its policy, flags, pins and
//! call order apply), `get_tool` answers rmcp's HTTP transport, and the
//! server identifies itself with the user crate's own name and version,
//! never rmcp's. rmcp speaks both protocol eras (the 2026-07-28 stateless
//! revision and the `initialize` era) and shapes each result for the era the
//! peer negotiated; this adapter supplies what the current revision adds to
//! a listing, `ttlMs` and `cacheScope`.

use crate::call::content::Content;
use crate::call::result::CallToolResult;
use crate::serve::policy::Caller;
use crate::serve::registry::{Entry, Registry};
use crate::wire::fingerprint::Fingerprint;
use rmcp::model::{
    CacheScope, CallToolRequestParams, CallToolResponse, CallToolResult as McpCallToolResult,
    ContentBlock, CustomRequest, CustomResult, ErrorCode, Implementation, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler};
use std::collections::HashMap;
use std::sync::{Arc, RwLock};

/// Decides who is calling, from the request (its `_meta`, or the HTTP
/// request parts rmcp's HTTP transport stores in its extensions).
pub type CallerFn = Arc<dyn Fn(&RequestContext<RoleServer>) -> Caller + Send + Sync>;

/// An rmcp `ServerHandler` serving a [`Registry`].
pub struct McpServer<C: Send + Sync + 'static> {
    registry: Registry<C>,
    context: Arc<C>,
    implementation: Implementation,
    instructions: Option<String>,
    caller: CallerFn,
    ttl_ms: u64,
    page_size: Option<usize>,
    tools: Arc<RwLock<HashMap<String, (Fingerprint, Tool)>>>,
}

impl<C: Send + Sync + 'static> Clone for McpServer<C> {
    fn clone(&self) -> McpServer<C> {
        McpServer {
            registry: self.registry.clone(),
            context: self.context.clone(),
            implementation: self.implementation.clone(),
            instructions: self.instructions.clone(),
            caller: self.caller.clone(),
            ttl_ms: self.ttl_ms,
            page_size: self.page_size,
            tools: self.tools.clone(),
        }
    }
}

/// How long a client may treat an unfiltered listing as fresh, by default.
pub const DEFAULT_TTL_MS: u64 = 60_000;

impl<C: Send + Sync + 'static> McpServer<C> {
    /// Serves `registry` with `context` handed to every handler. The server
    /// names itself after the crate that declared the tools.
    pub fn new(registry: Registry<C>, context: Arc<C>) -> McpServer<C> {
        let table = registry.table();
        McpServer {
            implementation: Implementation::new(table.crate_name(), table.crate_version()),
            registry,
            context,
            instructions: None,
            caller: Arc::new(|_| Caller::anonymous()),
            ttl_ms: DEFAULT_TTL_MS,
            page_size: None,
            tools: Arc::new(RwLock::new(HashMap::new())),
        }
    }

    /// Names the server differently (the default is the declaring crate's name and version).
    pub fn implementation(
        mut self,
        name: impl Into<String>,
        version: impl Into<String>,
    ) -> McpServer<C> {
        self.implementation = Implementation::new(name, version);
        self
    }

    /// Instructions sent to clients at initialization.
    pub fn instructions(mut self, text: impl Into<String>) -> McpServer<C> {
        self.instructions = Some(text.into());
        self
    }

    /// How each request's caller is determined (the default: anonymous).
    pub fn caller(
        mut self,
        f: impl Fn(&RequestContext<RoleServer>) -> Caller + Send + Sync + 'static,
    ) -> McpServer<C> {
        self.caller = Arc::new(f);
        self
    }

    /// The same caller for every request (a local stdio server's operator).
    pub fn fixed_caller(self, caller: Caller) -> McpServer<C> {
        self.caller(move |_| caller.clone())
    }

    /// How long, in milliseconds, a client may treat a listing as fresh.
    pub fn ttl_ms(mut self, ttl_ms: u64) -> McpServer<C> {
        self.ttl_ms = ttl_ms;
        self
    }

    /// Lists at most `size` tools per page (the default: all in one page).
    pub fn page_size(mut self, size: usize) -> McpServer<C> {
        self.page_size = Some(size.max(1));
        self
    }

    /// The registry served.
    pub fn registry(&self) -> &Registry<C> {
        &self.registry
    }

    /// rmcp's view of a tool, parsed from its descriptor once per fingerprint.
    fn rmcp_tool(&self, entry: &Entry<C>) -> Result<Tool, ErrorData> {
        let name = entry.name();
        {
            let cache = self.tools.read().unwrap_or_else(|p| p.into_inner());
            if let Some((fingerprint, tool)) = cache.get(name)
                && fingerprint == entry.fingerprint()
            {
                return Ok(tool.clone());
            }
        }
        let tool: Tool = serde_json::from_str(entry.descriptor_json()).map_err(|e| {
            tracing::error!(tool = name, error = %e, "a descriptor does not fit rmcp's Tool");
            ErrorData::internal_error(
                "a tool's descriptor could not be served; consult the server log",
                None,
            )
        })?;
        let mut cache = self.tools.write().unwrap_or_else(|p| p.into_inner());
        cache.insert(name.to_owned(), (*entry.fingerprint(), tool.clone()));
        Ok(tool)
    }

    fn cache_scope(&self, caller: &Caller) -> CacheScope {
        if caller.pins.is_none() && self.registry.is_unrestricted() {
            CacheScope::Public
        } else {
            CacheScope::Private
        }
    }
}

/// Converts a tooltable result to rmcp's. Plain text maps directly (the
/// common case, on the dispatch path); every other block goes through its
/// MCP JSON, which rmcp's types read.
pub(crate) fn to_rmcp_result(result: CallToolResult) -> McpCallToolResult {
    let content: Vec<ContentBlock> = result
        .content
        .into_iter()
        .filter_map(|block| match block {
            Content::Text {
                text,
                annotations: None,
            } => Some(ContentBlock::text(text)),
            other => serde_json::from_value(other.to_json())
                .inspect_err(|e| tracing::error!(error = %e, "a content block does not fit rmcp's"))
                .ok(),
        })
        .collect();
    let mut out = if result.is_error {
        McpCallToolResult::error(content)
    } else {
        McpCallToolResult::success(content)
    };
    out.structured_content = result.structured_content;
    out
}

impl<C: Send + Sync + 'static> ServerHandler for McpServer<C> {
    fn get_info(&self) -> ServerConfig {
        let mut config = ServerConfig::new(ServerCapabilities::builder().enable_tools().build());
        config.server_info = self.implementation.clone();
        config.instructions = self.instructions.clone();
        config
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let caller = (self.caller)(&context);
        let entries = self.registry.visible_entries(&caller);
        let start = match request.as_ref().and_then(|r| r.cursor.as_deref()) {
            None => 0,
            Some(cursor) => cursor
                .parse::<usize>()
                .ok()
                .filter(|i| *i <= entries.len())
                .ok_or_else(|| {
                    ErrorData::invalid_params(
                        format!("cursor `{cursor}` is not one this server gave out"),
                        None,
                    )
                })?,
        };
        let end = self.page_size.map_or(entries.len(), |size| {
            start.saturating_add(size).min(entries.len())
        });
        let tools = entries[start..end]
            .iter()
            .map(|e| self.rmcp_tool(e))
            .collect::<Result<Vec<_>, _>>()?;
        let mut result = ListToolsResult::with_all_items(tools);
        if end < entries.len() {
            result.next_cursor = Some(end.to_string());
        }
        // Caching hints are part of the 2026-07-28 revision; earlier peers get
        // the listing exactly as their revision defines it.
        let current = context
            .protocol_version()
            .is_some_and(|v| v.as_str() >= rmcp::model::ProtocolVersion::V_2026_07_28.as_str());
        if current {
            result.ttl_ms = Some(self.ttl_ms);
            result.cache_scope = Some(self.cache_scope(&caller));
        }
        Ok(result)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let caller = (self.caller)(&context);
        let arguments = request.arguments.unwrap_or_default();
        match self
            .registry
            .call(&self.context, &caller, &request.name, arguments)
            .await
        {
            Ok(result) => Ok(to_rmcp_result(result).into()),
            Err(error) => Err(ErrorData::new(
                rmcp::model::ErrorCode(error.code()),
                error.message().to_owned(),
                None,
            )),
        }
    }

    /// rmcp hands a request whose params do not fit the method's schema
    /// here, as a custom request. For a method MCP defines that is an
    /// invalid-params error (-32602), not an unknown method (-32601).
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        let known = matches!(request.method.as_str(), "tools/call" | "tools/list");
        if known {
            let hint = if request.method == "tools/call" {
                "give `name` as a string and `arguments` as an object"
            } else {
                "give `cursor`, if any, as a string"
            };
            return Err(ErrorData::invalid_params(
                format!(
                    "Invalid params for {}: they do not fit the request's schema; {hint}",
                    request.method
                ),
                None,
            ));
        }
        Err(ErrorData::new(
            ErrorCode::METHOD_NOT_FOUND,
            format!("Method not found: {}", request.method),
            None,
        ))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        let entry = self.registry.get(name)?;
        self.rmcp_tool(&entry).ok()
    }
}
