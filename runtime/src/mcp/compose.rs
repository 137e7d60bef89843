//! [`Composed`]: the table's tools beside an rmcp handler of the
//! application's own, which serves the rest (prompts, resources,
//! completions, instructions), without forwarding by hand.
//!
//! The tools methods, the log level and the tool-list changes are the
//! table's ([`McpServer`]); every other method is the application's
//! handler's. The capabilities are the handler's with the table's tools
//! and logging, so `initialize` and `server/discover` describe both. A
//! handler that declares tools of its own is refused when the server
//! starts: two answers to `tools/list` cannot both be served.

use crate::mcp::adapter::{McpServer, is_tools_method};
use rmcp::ServerHandler;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, CancelledNotificationParam,
    CompleteRequestParams, CompleteResult, CustomNotification, CustomRequest, CustomResult,
    ErrorData, GetPromptRequestParams, GetPromptResponse, GetSkillRequestParams, GetSkillResult,
    GetTaskParams, GetTaskResult, InitializeRequestParams, InitializeResult, ListPromptsResult,
    ListResourceTemplatesResult, ListResourcesResult, ListSkillsResult, ListToolsResult,
    PaginatedRequestParams, ProgressNotificationParam, ReadResourceDirectoryRequestParams,
    ReadResourceDirectoryResult, ReadResourceRequestParams, ReadResourceResponse, ServerConfig,
    SubscribeRequestParams, SubscriptionFilter, Tool, UnsubscribeRequestParams, UpdateTaskParams,
};
use rmcp::service::{NotificationContext, RequestContext, RoleServer, SubscriptionContext};

/// A registry's tools served beside an rmcp [`ServerHandler`] of your own,
/// made by [`Server::beside`](crate::server::Server::beside).
pub struct Composed<C: Send + Sync + 'static, U> {
    tools: McpServer<C>,
    other: U,
}

impl<C: Send + Sync + 'static, U: Clone> Clone for Composed<C, U> {
    fn clone(&self) -> Self {
        Composed {
            tools: self.tools.clone(),
            other: self.other.clone(),
        }
    }
}

impl<C: Send + Sync + 'static, U: ServerHandler> Composed<C, U> {
    /// The table's tools beside `other`.
    pub(crate) fn new(tools: McpServer<C>, other: U) -> Composed<C, U> {
        Composed { tools, other }
    }

    /// The sentence refusing a handler that declares tools of its own.
    pub(crate) fn check(&self) -> Result<(), String> {
        if self.other.get_info().capabilities.tools.is_some() {
            return Err(format!(
                "the handler `{}` declares the tools capability, and the table answers tools/list and tools/call: a handler composed beside it serves prompts, resources and completions. Take `enable_tools()` out of its get_info, and move its tools into the table (or serve its rmcp ToolRouter beside the table)",
                std::any::type_name::<U>()
            ));
        }
        Ok(())
    }

    /// The table's side.
    pub(crate) fn tools(&self) -> &McpServer<C> {
        &self.tools
    }

    /// The application's handler.
    pub fn handler(&self) -> &U {
        &self.other
    }
}

impl<C: Send + Sync + 'static, U: ServerHandler + Clone> ServerHandler for Composed<C, U> {
    fn get_info(&self) -> ServerConfig {
        let ours = self.tools.get_info();
        let mut config = self.other.get_info();
        config.capabilities.tools = ours.capabilities.tools;
        #[allow(deprecated)] // logging/setLevel: the `initialize` eras' way
        {
            config.capabilities.logging = ours.capabilities.logging;
        }
        if self.tools.serves_tasks() {
            config
                .capabilities
                .extensions
                .get_or_insert_with(Default::default)
                .extend(ours.capabilities.extensions.unwrap_or_default());
        }
        config.server_info = ours.server_info;
        config.instructions = config.instructions.or(ours.instructions);
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

    #[allow(deprecated)] // logging/setLevel: the `initialize` eras' way
    async fn set_level(
        &self,
        request: rmcp::model::SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.tools.set_level(request, context).await
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        self.tools.open(self, request, context)
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        self.other.on_initialized(context.clone()).await;
        self.tools.on_initialized(context).await;
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        let ours = self.tools.accepted_subscription_filter(requested);
        let mut accepted = self
            .other
            .accepted_subscription_filter(requested)
            .unwrap_or_default();
        accepted.tools_list_changed = ours.and_then(|ours| ours.tools_list_changed);
        Some(accepted)
    }

    /// The table forwards tool-list changes while the handler listens for
    /// what it serves; the subscription ends when both are done, or at
    /// once when the handler's side fails.
    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        let cancelled = context.request_context().ct.clone();
        let sink = context.sink().clone();
        let ours = async {
            tokio::select! {
                () = self.tools.forward_tool_changes(sink) => {}
                () = cancelled.cancelled() => {}
            }
            Ok(())
        };
        tokio::try_join!(ours, self.other.listen(context)).map(|_| ())
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        if is_tools_method(&request.method) {
            return self.tools.on_custom_request(request, context).await;
        }
        self.other.on_custom_request(request, context).await
    }

    async fn ping(&self, context: RequestContext<RoleServer>) -> Result<(), ErrorData> {
        self.other.ping(context).await
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        self.other.complete(request, context).await
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        self.other.get_prompt(request, context).await
    }

    async fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        self.other.list_prompts(request, context).await
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        self.other.list_resources(request, context).await
    }

    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        self.other.list_resource_templates(request, context).await
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        self.other.read_resource(request, context).await
    }

    #[allow(deprecated)] // resources/subscribe: the `initialize` eras' way
    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.other.subscribe(request, context).await
    }

    #[allow(deprecated)] // resources/unsubscribe: the `initialize` eras' way
    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.other.unsubscribe(request, context).await
    }

    async fn on_cancelled(
        &self,
        notification: CancelledNotificationParam,
        context: NotificationContext<RoleServer>,
    ) {
        self.other.on_cancelled(notification, context).await
    }

    async fn on_progress(
        &self,
        notification: ProgressNotificationParam,
        context: NotificationContext<RoleServer>,
    ) {
        self.other.on_progress(notification, context).await
    }

    async fn on_roots_list_changed(&self, context: NotificationContext<RoleServer>) {
        self.other.on_roots_list_changed(context).await
    }

    async fn on_custom_notification(
        &self,
        notification: CustomNotification,
        context: NotificationContext<RoleServer>,
    ) {
        self.other
            .on_custom_notification(notification, context)
            .await
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        // The table's tasks are the table's; a handler of its own serves
        // the rest.
        if self.tools.serves_tasks() {
            return self.tools.get_task(request, context).await;
        }
        self.other.get_task(request, context).await
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        // The table's tasks are the table's; a handler of its own serves
        // the rest.
        if self.tools.serves_tasks() {
            return self.tools.update_task(request, context).await;
        }
        self.other.update_task(request, context).await
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        // The table's tasks are the table's; a handler of its own serves
        // the rest.
        if self.tools.serves_tasks() {
            return self.tools.cancel_task(request, context).await;
        }
        self.other.cancel_task(request, context).await
    }

    async fn list_skills(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListSkillsResult, ErrorData> {
        self.other.list_skills(request, context).await
    }

    async fn get_skill(
        &self,
        request: GetSkillRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetSkillResult, ErrorData> {
        self.other.get_skill(request, context).await
    }

    async fn read_resource_directory(
        &self,
        request: ReadResourceDirectoryRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceDirectoryResult, ErrorData> {
        self.other.read_resource_directory(request, context).await
    }
}
