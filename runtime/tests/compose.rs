//! The table's tools beside an rmcp handler of the application's own: the
//! table answers the tools methods, the handler the rest, the capabilities
//! are both's, and a handler that would also answer tools is refused.

use rmcp::ServerHandler;
use rmcp::model::{
    GetPromptRequestParams, GetPromptResult, ListPromptsResult, PaginatedRequestParams, Prompt,
    PromptMessage, PromptsCapability, Role, ServerCapabilities, ServerConfig,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData, model::GetPromptResponse};
use serde_json::json;
use tooltable_fixture::{Shelf, TOOLS};
use tooltable_runtime::Registry;
use tooltable_runtime::serve::Composed;
use tooltable_runtime::serve::{ServeError, Server};
use tooltable_runtime::testing::{Revision, TestClient};

/// An application's handler serving one prompt.
#[derive(Clone)]
struct Prompts {
    also_tools: bool,
}

impl ServerHandler for Prompts {
    fn get_info(&self) -> ServerConfig {
        let mut capabilities = ServerCapabilities::default();
        capabilities.prompts = Some(PromptsCapability::default());
        if self.also_tools {
            capabilities.tools = Some(Default::default());
        }
        let mut config = ServerConfig::new(capabilities);
        config.instructions = Some("The application's own instructions.".to_owned());
        config
    }

    async fn list_prompts(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(ListPromptsResult::with_all_items(vec![Prompt::new(
            "greet",
            Some("Says hello."),
            None,
        )]))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        Ok(GetPromptResult::new(vec![PromptMessage::new_text(
            Role::User,
            format!("hello from {}", request.name),
        )])
        .into())
    }
}

fn composed(also_tools: bool) -> Server<Composed<Shelf, Prompts>> {
    Server::new(Registry::new(&TOOLS), Shelf::new())
        .handle_signals(false)
        .beside(Prompts { also_tools })
}

#[tokio::test]
async fn the_table_answers_tools_and_the_handler_the_rest_with_both_capabilities() {
    let mut client = TestClient::builder()
        .revision(Revision::R2025_11_25)
        .connect(composed(false))
        .await;
    let info = client.initialized().unwrap().clone();
    assert!(info["capabilities"]["tools"].is_object(), "{info}");
    assert!(info["capabilities"]["prompts"].is_object(), "{info}");
    assert_eq!(
        info["serverInfo"]["name"],
        json!(TOOLS.crate_name()),
        "{info}"
    );
    assert_eq!(
        info["instructions"],
        json!("The application's own instructions.")
    );
    assert!(!client.list_tools().await.is_empty());
    assert_eq!(client.list_prompts().await[0]["name"], json!("greet"));
    let prompt = client.get_prompt("greet", json!({})).await.unwrap();
    assert_eq!(
        prompt["messages"][0]["content"]["text"],
        json!("hello from greet")
    );
    let listed = client.call("items_list", json!({})).await.unwrap();
    assert!(!listed.is_error(), "{}", listed.text());
}

#[tokio::test]
async fn a_composed_handler_that_declares_tools_is_refused_at_start_naming_it() {
    let Err(ServeError::Config(why)) = composed(true)
        .serve_io(tokio::io::empty(), tokio::io::sink())
        .await
    else {
        panic!("a handler declaring tools beside the table is refused");
    };
    assert!(
        why.contains("compose::Prompts") && why.contains("declares the tools capability"),
        "{why}"
    );
    assert!(why.contains("tools/list"), "{why}");
}

#[tokio::test]
async fn the_tables_settings_hold_beside_a_handler() {
    let server = Server::new(Registry::new(&TOOLS), Shelf::new())
        .handle_signals(false)
        .page_size(1)
        .beside(Prompts { also_tools: false });
    let mut client = TestClient::connect(server).await;
    let page = client.request("tools/list", json!({})).await.unwrap();
    assert_eq!(page["tools"].as_array().unwrap().len(), 1, "{page}");
    assert!(page["nextCursor"].is_string(), "{page}");
}
