//! [`ConformanceServer`]: the fixture's prompts, resources, completions
//! and prompt-list subscriptions, an rmcp handler served beside the
//! tooltable tools ([`server`]): the table answers the tools methods, this
//! handler the rest, with nothing forwarded by hand.

use crate::{Fixture, TOOLS, prompts, resources};
use rmcp::model::{
    CacheScope, CompleteRequestParams, CompleteResult, CompletionInfo, CustomRequest, CustomResult,
    ErrorCode, GetPromptRequestParams, GetPromptResponse, JsonObject, ListPromptsResult,
    ListResourceTemplatesResult, ListResourcesResult, PaginatedRequestParams, PromptsCapability,
    ProtocolVersion, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult,
    Reference, ResourcesCapability, ServerCapabilities, ServerConfig, SubscribeRequestParams,
    SubscriptionFilter, UnsubscribeRequestParams,
};
use rmcp::service::{
    NotificationContext, RequestContext, RoleServer, SubscriptionContext, SubscriptionSink,
};
use rmcp::{ErrorData, ServerHandler};
use std::sync::Arc;
use tokio::sync::broadcast::error::RecvError;
use tooltable::registry::MemoryStore;
use tooltable::serve::{Composed, Server};
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

/// The conformance fixture's prompts and resources as an rmcp
/// `ServerHandler`.
#[derive(Clone)]
pub struct ConformanceServer {
    fixture: Arc<Fixture>,
}

/// Every tool of the table (up to tier `write`: the trigger tools change
/// what clients see), with enable flags kept in memory so
/// `test_trigger_tool_change` can switch a tool on and off, served beside
/// the fixture's prompts and resources.
pub fn server() -> Server<Composed<Fixture, ConformanceServer>> {
    let registry = Registry::builder(&TOOLS)
        .max_tier(Tier::Write)
        .store(MemoryStore::new())
        .build();
    let fixture = Arc::new(Fixture::new(registry.clone()));
    Server::new(registry, fixture.clone())
        .instructions(
            "The fixture of the official MCP conformance suite: test tools, prompts and resources.",
        )
        .beside(ConformanceServer { fixture })
}

impl ConformanceServer {
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

/// Whether the request speaks the 2026-07-28 revision.
fn is_current(context: &RequestContext<RoleServer>) -> bool {
    context
        .protocol_version()
        .is_some_and(|v| v.as_str() >= ProtocolVersion::V_2026_07_28.as_str())
}

/// How long a client may keep these lists: a minute, as the table's
/// listings by default (they never change while the server runs, but a
/// client should still look again now and then).
const TTL_MS: u64 = 60_000;

/// The caching hints for this request: none before 2026-07-28; after,
/// [`TTL_MS`], shareable (nothing here depends on the caller).
fn cache_hints(context: &RequestContext<RoleServer>) -> (Option<u64>, Option<CacheScope>) {
    if is_current(context) {
        (Some(TTL_MS), Some(CacheScope::Public))
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
    /// The fixture's capabilities; the table adds its tools and logging.
    fn get_info(&self) -> ServerConfig {
        let mut capabilities = ServerCapabilities::default();
        let mut prompts = PromptsCapability::default();
        prompts.list_changed = Some(true);
        capabilities.prompts = Some(prompts);
        let mut resources = ResourcesCapability::default();
        resources.subscribe = Some(true);
        capabilities.resources = Some(resources);
        capabilities.completions = Some(JsonObject::new());
        ServerConfig::new(capabilities)
    }

    /// rmcp hands over requests whose params do not parse: for the methods
    /// served here they are invalid params (-32602), or unknown methods
    /// (-32601) where the request's revision removed them; every other
    /// method is unknown (the tools methods never reach this handler).
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
        Err(removed(method))
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

    /// A session of an `initialize` era hears of prompt changes from the
    /// fixture (and of tool changes from the table).
    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        self.fixture.add_session(context.peer.clone());
    }

    /// 2026-07-28 clients listen for prompt-list changes and updates of
    /// the resources that exist (which never come: they never change); the
    /// table adds tool-list changes.
    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        let existing = requested
            .resource_subscriptions
            .iter()
            .flatten()
            .filter(|uri| resources::read(uri).is_some());
        Some(
            SubscriptionFilter::builder()
                .prompts_list_changed()
                .resource_subscriptions(existing.cloned())
                .build(),
        )
    }

    async fn listen(&self, subscription: SubscriptionContext) -> Result<(), ErrorData> {
        let sink = subscription.sink();
        let forwarding = async {
            self.forward_prompt_changes(sink).await;
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
