//! [`ConformanceServer`]: the tooltable tools composed with the fixture's
//! prompts, resources, completions and list-change subscriptions into one
//! rmcp server.
//!
//! tooltable's [`McpServer`] serves only tools; a server that also serves
//! prompts and resources keeps its own handler and forwards the tools
//! methods to it (docs/serving.md, "Alongside prompts and resources"). This
//! is that handler, and `main` serves it with `Server::from_handler`.

use crate::{Fixture, TOOLS, prompts, resources};
use rmcp::model::{
    CacheScope, CallToolRequestParams, CallToolResponse, CompleteRequestParams, CompleteResult,
    CompletionInfo, CustomRequest, CustomResult, ErrorCode, GetPromptRequestParams,
    GetPromptResponse, JsonObject, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, PromptsCapability,
    ProtocolVersion, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult,
    Reference, ResourcesCapability, ServerConfig, SubscribeRequestParams, SubscriptionFilter, Tool,
    UnsubscribeRequestParams,
};
// Logging is deprecated by the 2026-07-28 revision (SEP-2577); the earlier
// revisions, which this server also serves, define it.
#[allow(deprecated)]
use rmcp::model::SetLevelRequestParams;
use rmcp::service::{
    NotificationContext, RequestContext, RoleServer, SubscriptionContext, SubscriptionSink,
};
use rmcp::{ErrorData, ServerHandler};
use std::sync::Arc;
use tokio::sync::broadcast::error::RecvError;
use tooltable::registry::MemoryStore;
use tooltable::serve::{DEFAULT_TTL_MS, McpServer};
use tooltable::{Registry, Tier};

/// The methods of the `initialize` eras that the 2026-07-28 revision
/// removed: unknown methods there (-32601).
const LEGACY_ONLY: [&str; 3] = [
    "logging/setLevel",
    "resources/subscribe",
    "resources/unsubscribe",
];

/// The methods this handler serves itself (besides [`LEGACY_ONLY`]).
const OURS: [&str; 6] = [
    "prompts/list",
    "prompts/get",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "completion/complete",
];

/// The conformance fixture as an rmcp `ServerHandler`.
///
/// Cloning it gives the handler of a new session (rmcp's HTTP transport
/// asks for one per session, and one per 2026-07-28 request): the same
/// tools and fixture, and the tools adapter's fresh per-session state (the
/// log level a client set).
#[derive(Clone)]
pub struct ConformanceServer {
    tools: McpServer<Fixture>,
    fixture: Arc<Fixture>,
}

impl ConformanceServer {
    /// Serves every tool of the table (up to tier `write`: the trigger tools
    /// change what clients see), with enable flags kept in memory so
    /// `test_trigger_tool_change` can switch a tool on and off.
    pub fn new() -> ConformanceServer {
        let registry = Registry::builder(&TOOLS)
            .max_tier(Tier::Write)
            .store(MemoryStore::new())
            .build();
        let fixture = Arc::new(Fixture::new(registry.clone()));
        let tools = McpServer::new(registry, fixture.clone()).instructions(
            "The fixture of the official MCP conformance suite: test tools, prompts and resources.",
        );
        ConformanceServer { tools, fixture }
    }

    /// Tells a 2026-07-28 subscription of every prompt-list change, if it
    /// asked, until it ends.
    async fn forward_prompt_changes(&self, sink: &SubscriptionSink) {
        if sink.accepted().prompts_list_changed != Some(true) {
            return;
        }
        let mut changes = self.fixture.prompt_changes();
        // Falling behind loses nothing: every change says "list again".
        while !matches!(changes.recv().await, Err(RecvError::Closed)) {
            if let Err(error) = sink.notify_prompt_list_changed().await {
                tracing::debug!(%error, "a listen stream closed before it heard of a prompt change");
                return;
            }
        }
    }
}

impl Default for ConformanceServer {
    fn default() -> ConformanceServer {
        ConformanceServer::new()
    }
}

/// Whether the request speaks the 2026-07-28 revision.
fn is_current(context: &RequestContext<RoleServer>) -> bool {
    context
        .protocol_version()
        .is_some_and(|v| v.as_str() >= ProtocolVersion::V_2026_07_28.as_str())
}

/// The caching hints for this request: none before 2026-07-28; after, the
/// library's default freshness, shareable (nothing here depends on the
/// caller).
fn cache_hints(context: &RequestContext<RoleServer>) -> (Option<u64>, Option<CacheScope>) {
    if is_current(context) {
        (Some(DEFAULT_TTL_MS), Some(CacheScope::Public))
    } else {
        (None, None)
    }
}

/// Everything is listed in one page, so a cursor is one this server never
/// gave out.
fn one_page(request: Option<&PaginatedRequestParams>) -> Result<(), ErrorData> {
    match request.and_then(|r| r.cursor.as_deref()) {
        None => Ok(()),
        Some(cursor) => Err(ErrorData::invalid_params(
            format!("cursor `{cursor}` is not one this server gave out"),
            None,
        )),
    }
}

/// The answer to a method the request's revision removed.
fn removed(method: &str) -> ErrorData {
    ErrorData::new(
        ErrorCode::METHOD_NOT_FOUND,
        format!("Method not found: {method}"),
        None,
    )
}

/// A subscription may name only a resource that exists.
fn subscribable(uri: &str) -> Result<(), ErrorData> {
    match resources::read(uri) {
        Some(_) => Ok(()),
        None => Err(resource_not_found(uri)),
    }
}

fn resource_not_found(uri: &str) -> ErrorData {
    ErrorData::resource_not_found(
        format!("Resource not found: {uri}"),
        Some(serde_json::json!({ "uri": uri })),
    )
}

impl ServerHandler for ConformanceServer {
    /// The adapter's capabilities (tools, their list changes, logging), and
    /// the fixture's.
    fn get_info(&self) -> ServerConfig {
        let mut config = self.tools.get_info();
        let capabilities = &mut config.capabilities;
        let mut prompts = PromptsCapability::default();
        prompts.list_changed = Some(true);
        capabilities.prompts = Some(prompts);
        let mut resources = ResourcesCapability::default();
        resources.subscribe = Some(true);
        capabilities.resources = Some(resources);
        capabilities.completions = Some(JsonObject::new());
        config
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        self.tools.list_tools(request, context).await
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.tools.call_tool(request, context).await
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools.get_tool(name)
    }

    /// rmcp hands over requests whose params do not parse: for the methods
    /// served here they are invalid params (-32602), or unknown methods
    /// (-32601) where the request's revision removed them; the tools
    /// methods and unknown methods are the adapter's.
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        let method = request.method.as_str();
        if LEGACY_ONLY.contains(&method) && is_current(&context) {
            return Err(removed(method));
        }
        if LEGACY_ONLY.contains(&method) || OURS.contains(&method) {
            return Err(ErrorData::invalid_params(
                format!("Invalid params for {method}: they do not fit the request's schema"),
                None,
            ));
        }
        self.tools.on_custom_request(request, context).await
    }

    async fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        one_page(request.as_ref())?;
        let mut result = ListPromptsResult::with_all_items(prompts::list(is_current(&context)));
        (result.ttl_ms, result.cache_scope) = cache_hints(&context);
        Ok(result)
    }

    /// The prompt that asks first does so on 2026-07-28 only: an
    /// `initialize` era has no input-required results.
    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        if request.name == prompts::ASKS_FIRST && is_current(&context) {
            let can_elicit = context
                .client_capabilities()
                .is_some_and(|c| c.elicitation.is_some());
            return prompts::ask_first(request.input_responses.as_ref(), can_elicit);
        }
        Ok(prompts::get(&request.name, request.arguments.as_ref())?.into())
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        one_page(request.as_ref())?;
        let mut result = ListResourcesResult::with_all_items(resources::list());
        (result.ttl_ms, result.cache_scope) = cache_hints(&context);
        Ok(result)
    }

    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        one_page(request.as_ref())?;
        let mut result = ListResourceTemplatesResult::with_all_items(resources::templates());
        (result.ttl_ms, result.cache_scope) = cache_hints(&context);
        Ok(result)
    }

    /// An unknown URI is an error carrying it (rmcp answers -32002 before
    /// 2026-07-28 and -32602 after, as each revision says).
    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let contents =
            resources::read(&request.uri).ok_or_else(|| resource_not_found(&request.uri))?;
        let mut result = ReadResourceResult::new(vec![contents]);
        (result.ttl_ms, result.cache_scope) = cache_hints(&context);
        Ok(result.into())
    }

    /// The resources never change, so a subscription is accepted and never
    /// notified.
    #[allow(deprecated)] // resources/subscribe: the `initialize` eras' way
    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        subscribable(&request.uri)
    }

    #[allow(deprecated)] // resources/unsubscribe: the `initialize` eras' way
    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        subscribable(&request.uri)
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        let argument = &request.argument;
        let values = match &request.r#ref {
            Reference::Prompt(prompt) => {
                prompts::complete(&prompt.name, &argument.name, &argument.value)
            }
            // Any id reads; there is nothing to suggest.
            Reference::Resource(template)
                if template.uri == resources::TEMPLATE && argument.name == "id" =>
            {
                Some(Vec::new())
            }
            _ => None,
        }
        .ok_or_else(|| {
            ErrorData::invalid_params(
                format!("nothing to complete for the argument `{}`", argument.name),
                None,
            )
        })?;
        let completion = CompletionInfo::with_all_values(values)
            .map_err(|e| ErrorData::internal_error(e, None))?;
        Ok(CompleteResult::new(completion))
    }

    /// The tools adapter keeps the level for the session's log messages (and
    /// refuses the method on 2026-07-28, which removed it).
    #[allow(deprecated)] // logging/setLevel: the `initialize` eras' way
    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.tools.set_level(request, context).await
    }

    /// A session of an `initialize` era hears of tool changes from the
    /// adapter and of prompt changes from the fixture.
    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        self.fixture.add_session(context.peer.clone());
        self.tools.on_initialized(context).await;
    }

    /// 2026-07-28 clients listen for tool-list changes (the adapter's),
    /// prompt-list changes, and updates of the resources that exist (which
    /// never come: they never change).
    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        let existing = requested
            .resource_subscriptions
            .iter()
            .flatten()
            .filter(|uri| resources::read(uri).is_some());
        let mut accepted = SubscriptionFilter::builder()
            .prompts_list_changed()
            .resource_subscriptions(existing.cloned())
            .build();
        accepted.tools_list_changed = self
            .tools
            .accepted_subscription_filter(requested)
            .and_then(|tools| tools.tools_list_changed);
        Some(accepted)
    }

    async fn listen(&self, subscription: SubscriptionContext) -> Result<(), ErrorData> {
        let sink = subscription.sink();
        let forwarding = async {
            tokio::join!(
                self.tools.forward_tool_changes(sink.clone()),
                self.forward_prompt_changes(sink),
            );
            // Nothing (left) to forward: the stream stays open until the
            // client ends it.
            std::future::pending::<()>().await;
        };
        tokio::select! {
            () = subscription.cancelled() => {}
            () = forwarding => {}
        }
        Ok(())
    }
}
