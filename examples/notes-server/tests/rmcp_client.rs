//! The example server, served by the library's guarded stdio transport and
//! driven by rmcp's own client over an in-process duplex pipe, in both
//! protocol eras.

use notes_server::Store;
use notes_server::serve::registry;
use rmcp::ClientHandler;
use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, Implementation, ProtocolVersion,
};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RoleClient, RunningService};
use serde_json::{Map, Value, json};
use std::sync::Arc;
use tooltable::Tier;
use tooltable::policy::Consent;
use tooltable::registry::MemoryStore;
use tooltable::serve::Server;

#[derive(Clone)]
struct Client;

impl ClientHandler for Client {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(
            ClientCapabilities::default(),
            Implementation::new("tooltable-tests", "0"),
        )
    }
}

async fn connect(
    store: Arc<Store>,
    max: Tier,
    lifecycle: ClientLifecycleMode,
) -> RunningService<RoleClient, Client> {
    let (server_side, client_side) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        let (read, write) = tokio::io::split(server_side);
        Server::new(
            registry(max.into(), Consent::person(), MemoryStore::new()),
            store,
        )
        .handle_signals(false)
        .serve_io(read, write)
        .await
        .expect("the server serves until the client leaves");
    });
    Client
        .serve_with_lifecycle(client_side, lifecycle)
        .await
        .expect("the client connects")
}

fn eras() -> Vec<(&'static str, ClientLifecycleMode)> {
    vec![
        ("legacy", ClientLifecycleMode::Initialize),
        (
            "2026-07-28",
            ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            },
        ),
    ]
}

fn arguments(value: Value) -> Map<String, Value> {
    value.as_object().cloned().unwrap_or_default()
}

#[tokio::test]
async fn both_eras_list_the_tools_the_policy_allows_with_the_server_s_own_name() {
    for (era, lifecycle) in eras() {
        let client = connect(Arc::new(Store::in_memory().unwrap()), Tier::Read, lifecycle).await;
        let info = client
            .peer_info()
            .and_then(|i| i.server_info.clone())
            .expect("the server says who it is");
        assert_eq!(info.name, "notes-server", "{era}");
        assert_eq!(info.version, env!("CARGO_PKG_VERSION"), "{era}");
        let tools = client.list_all_tools().await.expect("tools/list answers");
        let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
        assert_eq!(
            names,
            [
                "notes_export",
                "notes_get",
                "notes_search",
                "notes_stats",
                "notes_watch"
            ],
            "{era}"
        );
        let get = &tools[0];
        let hints = get
            .annotations
            .as_ref()
            .expect("annotations are always sent");
        assert_eq!(hints.read_only_hint, Some(true));
        assert_eq!(hints.destructive_hint, Some(false));
        assert_eq!(hints.idempotent_hint, Some(true));
        assert_eq!(hints.open_world_hint, Some(false));
        client.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn both_eras_call_tools_and_get_results_refusals_and_protocol_errors() {
    for (era, lifecycle) in eras() {
        let client = connect(
            Arc::new(Store::in_memory().unwrap()),
            Tier::Destructive,
            lifecycle,
        )
        .await;
        let mut create = CallToolRequestParams::new("notes_create");
        create.arguments = Some(arguments(json!({"title": "Milk", "body": "Buy milk"})));
        let created = client
            .call_tool(create)
            .await
            .expect("notes_create answers");
        assert_eq!(created.is_error, Some(false), "{era}");
        let note = created.structured_content.expect("structured content");
        assert_eq!(note["title"], "Milk");

        let mut delete = CallToolRequestParams::new("notes_delete");
        delete.arguments = Some(arguments(json!({"id": note["id"]})));
        let refused = client
            .call_tool(delete)
            .await
            .expect("a refusal is a result");
        assert_eq!(refused.is_error, Some(true), "{era}");

        let unknown = client
            .call_tool(CallToolRequestParams::new("notes_burn"))
            .await
            .expect_err("unknown tool");
        let text = unknown.to_string();
        assert!(
            text.contains("-32602") || text.contains("Unknown tool: notes_burn"),
            "{era}: {text}"
        );
        client.cancel().await.unwrap();
    }
}
