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
use serde_json::{Value, json};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tooltable_fixture::{Shelf, TOOLS};
use tooltable_runtime::Registry;
use tooltable_runtime::serve::Composed;
use tooltable_runtime::serve::{ServeError, Server};

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

/// Sends each line and reads the answer of each request.
async fn exchange(server: Server<Composed<Shelf, Prompts>>, lines: &[Value]) -> Vec<Value> {
    let (client, server_side) = tokio::io::duplex(1 << 20);
    let (server_read, server_write) = tokio::io::split(server_side);
    let served = tokio::spawn(server.serve_io(server_read, server_write));
    let (read, mut write) = tokio::io::split(client);
    let mut read = BufReader::new(read);
    let mut answers = Vec::new();
    for line in lines {
        write
            .write_all(format!("{line}\n").as_bytes())
            .await
            .unwrap();
        if line.get("id").is_some() {
            let mut text = String::new();
            tokio::time::timeout(Duration::from_secs(10), read.read_line(&mut text))
                .await
                .expect("an answer within 10 s")
                .unwrap();
            answers.push(serde_json::from_str(&text).unwrap());
        }
    }
    // The pipe closes when both its halves are gone.
    drop((write, read));
    let _ = served.await;
    answers
}

#[tokio::test]
async fn the_table_answers_tools_and_the_handler_the_rest_with_both_capabilities() {
    let answers = exchange(
        composed(false),
        &[
            json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-11-25", "capabilities": {},
                "clientInfo": {"name": "t", "version": "0"}}}),
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
            json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
            json!({"jsonrpc": "2.0", "id": 3, "method": "prompts/list"}),
            json!({"jsonrpc": "2.0", "id": 4, "method": "prompts/get", "params": {"name": "greet"}}),
            json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "items_list", "arguments": {}}}),
        ],
    )
    .await;
    let info = &answers[0]["result"];
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
    let tools = answers[1]["result"]["tools"].as_array().unwrap();
    assert!(!tools.is_empty(), "{}", answers[1]);
    assert_eq!(answers[2]["result"]["prompts"][0]["name"], json!("greet"));
    assert_eq!(
        answers[3]["result"]["messages"][0]["content"]["text"],
        json!("hello from greet")
    );
    assert_eq!(
        answers[4]["result"]["isError"],
        json!(false),
        "{}",
        answers[4]
    );
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
    let answers = exchange(
        server,
        &[
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {},
                "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "0"}}}}),
        ],
    )
    .await;
    let page = &answers[0]["result"];
    assert_eq!(page["tools"].as_array().unwrap().len(), 1, "{page}");
    assert!(page["nextCursor"].is_string(), "{page}");
}
