//! [`RouterTools`]: the tools of an rmcp `ToolRouter` as a provider, so a
//! server written for rmcp moves to the table one tool at a time.
//!
//! Each router tool is registered like any provided tool, under the same
//! rules (the name profile, a name the table already has refused, object
//! input schemas) and served under the same policy, permissions, pins,
//! enable flags, limits and consent. Its tier is what its annotations say,
//! and the operator's where they say nothing; a tool whose annotations say
//! nothing and that the operator did not place is `destructive`, as MCP's
//! defaults read it, never `read`. The call runs through the router itself,
//! with the rmcp request context the transport handed over.

use crate::call::content::{Content, ResourceLink};
use crate::call::error::ToolError;
use crate::call::handle::Call;
use crate::call::handler::{Arguments, BoxFuture, DynHandler, Failure, Outcome, Output};
use crate::registry::provider::{ProvidedTool, Provider};
use crate::rules::tier::{Tier, World};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ContentBlock, ErrorCode, ResourceContents, Tool,
    ToolAnnotations,
};
use rmcp::service::{RequestContext, RoleServer};
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The tools of an rmcp [`ToolRouter`] over its service `S`, as a
/// [`Provider`] the registry serves beside the table.
///
/// ```ignore
/// let router = RouterTools::new("legacy", LegacyServer::new(), LegacyServer::tool_router())
///     .tier("legacy_sync", Tier::Write);
/// let registry = Registry::builder(&TOOLS).build();
/// registry.register(&router)?;
/// ```
pub struct RouterTools<S: Send + Sync + 'static> {
    name: String,
    service: Arc<S>,
    router: ToolRouter<S>,
    tiers: BTreeMap<String, Tier>,
}

impl<S: Send + Sync + 'static> RouterTools<S> {
    /// The tools of `router`, called on `service`; `name` names the
    /// provider in errors and as the tools' source.
    pub fn new(name: impl Into<String>, service: S, router: ToolRouter<S>) -> RouterTools<S> {
        RouterTools {
            name: name.into(),
            service: Arc::new(service),
            router,
            tiers: BTreeMap::new(),
        }
    }

    /// The tier of the tool `name` when its annotations say nothing of
    /// reading or destroying (what they say wins).
    pub fn tier(mut self, name: impl Into<String>, tier: Tier) -> RouterTools<S> {
        self.tiers.insert(name.into(), tier);
        self
    }
}

/// The tier a router tool's annotations say, or `None` when they say
/// nothing of reading or destroying. Read as MCP defines the hints: not
/// read-only unless said, and then destructive unless said otherwise.
fn annotated_tier(annotations: Option<&ToolAnnotations>) -> Option<Tier> {
    let annotations = annotations?;
    match (annotations.read_only_hint, annotations.destructive_hint) {
        (Some(true), _) => Some(Tier::Read),
        (_, Some(true)) => Some(Tier::Destructive),
        (_, Some(false)) => Some(Tier::Write),
        (Some(false), None) => Some(Tier::Destructive),
        (None, None) => None,
    }
}

impl<S: Send + Sync + 'static> RouterTools<S> {
    fn provided<C: 'static>(&self, tool: Tool) -> ProvidedTool<C> {
        let annotations = tool.annotations.as_ref();
        let tier = annotated_tier(annotations)
            .or_else(|| self.tiers.get(tool.name.as_ref()).copied())
            .unwrap_or(Tier::Destructive);
        let mut provided = ProvidedTool::new(
            tool.name.to_string(),
            tier,
            tool.description.as_deref().unwrap_or_default(),
            self.handler(tool.name.to_string()),
        );
        provided.title = tool
            .title
            .clone()
            .or_else(|| annotations.and_then(|a| a.title.clone()));
        provided.idempotent = annotations.and_then(|a| a.idempotent_hint) == Some(true);
        provided.world = match annotations.and_then(|a| a.open_world_hint) {
            Some(false) => World::Closed,
            _ => World::Open,
        };
        provided.input_schema = Value::Object((*tool.input_schema).clone());
        provided.output_schema = tool
            .output_schema
            .as_ref()
            .map(|schema| Value::Object((**schema).clone()));
        provided
    }

    fn handler<C: 'static>(&self, name: String) -> DynHandler<C> {
        let service = self.service.clone();
        let router = self.router.clone();
        Arc::new(
            move |_: &C, arguments: Arguments, call: &Call| -> BoxFuture<'_, Outcome> {
                let service = service.clone();
                let router = router.clone();
                let name = name.clone();
                let context = call.transport::<RequestContext<RoleServer>>().cloned();
                Box::pin(async move {
                    let Some(context) = context else {
                        return Err(Failure::Tool(ToolError::new(format!(
                            "{name} is a tool of an rmcp ToolRouter, which runs only in a call served through rmcp"
                        ))));
                    };
                    let request =
                        CallToolRequestParams::new(name.clone()).with_arguments(arguments);
                    let called = router
                        .call(ToolCallContext::new(&*service, request, context))
                        .await;
                    outcome(&name, called)
                })
            },
        )
    }
}

/// What a router tool's answer is as a handler's outcome.
fn outcome(name: &str, called: Result<CallToolResponse, rmcp::ErrorData>) -> Outcome {
    let result = match called {
        Ok(CallToolResponse::Complete(result)) => result,
        Ok(_) => {
            return Err(Failure::Tool(ToolError::new(format!(
                "{name} asked for input or made a task, which a tool of an rmcp ToolRouter cannot do here; port it to #[tool], whose handlers ask through their Call"
            ))));
        }
        Err(error) if error.code == ErrorCode::INVALID_PARAMS => {
            return Err(Failure::Arguments(error.message.into_owned()));
        }
        Err(error) => return Err(Failure::Tool(ToolError::new(error.message.into_owned()))),
    };
    let Some(content) = result
        .content
        .into_iter()
        .map(content)
        .collect::<Option<Vec<_>>>()
    else {
        return Err(Failure::Tool(ToolError::new(format!(
            "{name} returned a kind of content block this version of tooltable does not know"
        ))));
    };
    if result.is_error == Some(true) {
        let text: Vec<String> = content
            .iter()
            .filter_map(|block| match block {
                Content::Text { text, .. } => Some(text.clone()),
                _ => None,
            })
            .collect();
        return Err(Failure::Tool(ToolError::new(text.join("\n"))));
    }
    Ok(match result.structured_content {
        Some(value) => Output::Structured(value),
        None => Output::Content(content),
    })
}

/// One of rmcp's content blocks as the table's; `None` for a kind rmcp
/// added since.
fn content(block: ContentBlock) -> Option<Content> {
    Some(match block {
        ContentBlock::Text(text) => Content::text(text.text),
        ContentBlock::Image(image) => Content::image(image.data, image.mime_type),
        ContentBlock::Audio(audio) => Content::audio(audio.data, audio.mime_type),
        ContentBlock::Resource(embedded) => match embedded.resource {
            ResourceContents::TextResourceContents {
                uri,
                mime_type,
                text,
                ..
            } => Content::Resource {
                uri,
                mime_type,
                body: crate::call::content::ResourceBody::Text(text),
                annotations: None,
            },
            ResourceContents::BlobResourceContents {
                uri,
                mime_type,
                blob,
                ..
            } => Content::Resource {
                uri,
                mime_type,
                body: crate::call::content::ResourceBody::Blob(blob),
                annotations: None,
            },
            _ => return None,
        },
        ContentBlock::ResourceLink(link) => Content::ResourceLink(Box::new(ResourceLink {
            uri: link.uri,
            name: link.name,
            title: link.title,
            description: link.description,
            mime_type: link.mime_type,
            size: link.size,
            annotations: None,
        })),
        _ => return None,
    })
}

impl<C: 'static, S: Send + Sync + 'static> Provider<C> for RouterTools<S> {
    fn name(&self) -> &str {
        &self.name
    }

    fn tools(&self) -> Vec<ProvidedTool<C>> {
        self.router
            .list_all()
            .into_iter()
            .map(|tool| self.provided(tool))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hints(read_only: Option<bool>, destructive: Option<bool>) -> ToolAnnotations {
        let mut annotations = ToolAnnotations::new();
        annotations.read_only_hint = read_only;
        annotations.destructive_hint = destructive;
        annotations
    }

    #[test]
    fn a_router_tool_is_read_only_when_its_annotations_say_so_and_never_by_default() {
        assert_eq!(annotated_tier(None), None);
        assert_eq!(annotated_tier(Some(&hints(None, None))), None);
        assert_eq!(
            annotated_tier(Some(&hints(Some(true), None))),
            Some(Tier::Read)
        );
        assert_eq!(
            annotated_tier(Some(&hints(Some(false), None))),
            Some(Tier::Destructive)
        );
        assert_eq!(
            annotated_tier(Some(&hints(None, Some(false)))),
            Some(Tier::Write)
        );
        assert_eq!(
            annotated_tier(Some(&hints(None, Some(true)))),
            Some(Tier::Destructive)
        );
    }
}
