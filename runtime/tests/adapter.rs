//! The rmcp adapter, driven by rmcp's own client in both protocol eras,
//! through the library's guarded transport.

use crate::client;

use client::{Client, lifecycles};
use rmcp::model::{CacheScope, CallToolRequestParams, ProtocolVersion};
use rmcp::service::{ClientLifecycleMode, RoleClient, RunningService};
use serde_json::json;
use tooltable_fixture::{Shelf, TOOLS};
use tooltable_runtime::Caller;
use tooltable_runtime::Registry;
use tooltable_runtime::Tier;
use tooltable_runtime::serve::McpServer;
use tooltable_runtime::serve::Server;

/// A client that declares nothing, connected to `server`.
async fn connect(
    server: Server<McpServer<Shelf>>,
    lifecycle: ClientLifecycleMode,
) -> RunningService<RoleClient, Client> {
    client::connect(server, Client::default(), lifecycle).await
}

/// Each era, and whether it is the current one.
fn eras() -> Vec<(bool, ClientLifecycleMode)> {
    lifecycles()
        .into_iter()
        .map(|(era, lifecycle)| (era == "2026-07-28", lifecycle))
        .collect()
}

#[tokio::test]
async fn the_server_names_itself_after_the_crate_that_declared_the_tools() {
    for (_, lifecycle) in eras() {
        let client = connect(Server::new(Registry::new(&TOOLS), Shelf::new()), lifecycle).await;
        let info = client
            .peer_info()
            .and_then(|i| i.server_info.clone())
            .unwrap();
        assert_eq!(
            (info.name.as_str(), info.version.as_str()),
            ("tooltable-fixture", "0.1.0")
        );
        client.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn only_the_current_era_gets_caching_hints_and_they_are_private_when_the_list_depends_on_the_caller()
 {
    for (current, lifecycle) in eras() {
        let open = Registry::builder(&TOOLS)
            .max_tier(Tier::Destructive)
            .build();
        let client = connect(Server::new(open, Shelf::new()), lifecycle).await;
        let listed = client.list_tools(None).await.unwrap();
        assert_eq!(listed.tools.len(), 14);
        if current {
            assert_eq!(listed.ttl_ms, Some(60_000));
            assert_eq!(listed.cache_scope, Some(CacheScope::Public));
        } else {
            assert_eq!((listed.ttl_ms, listed.cache_scope), (None, None));
        }
        client.cancel().await.unwrap();

        let client = connect(
            Server::new(Registry::new(&TOOLS), Shelf::new()),
            lifecycle_of(current),
        )
        .await;
        let listed = client.list_tools(None).await.unwrap();
        assert_eq!(listed.tools.len(), 11, "read tools only");
        if current {
            assert_eq!(listed.cache_scope, Some(CacheScope::Private));
        }
        client.cancel().await.unwrap();
    }
}

fn lifecycle_of(current: bool) -> ClientLifecycleMode {
    if current {
        ClientLifecycleMode::Discover {
            preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        }
    } else {
        ClientLifecycleMode::Initialize
    }
}

#[tokio::test]
async fn the_caller_function_decides_what_each_request_may_call() {
    for (_, lifecycle) in eras() {
        let registry = Registry::builder(&TOOLS).max_tier(Tier::Write).build();
        let server = Server::new(registry, Shelf::new())
            .fixed_caller(Caller::with_permissions(["items.write"]));
        let client = connect(server, lifecycle).await;
        let mut create = CallToolRequestParams::new("items_create");
        create.arguments = Some(json!({"name": "lamp"}).as_object().cloned().unwrap());
        let created = client.call_tool(create).await.unwrap();
        assert_eq!(created.is_error, Some(false));
        assert_eq!(
            created.structured_content,
            Some(json!({"id": 1, "name": "lamp"}))
        );
        let unknown = client
            .call_tool(CallToolRequestParams::new("items_burn"))
            .await
            .expect_err("an unknown tool is a protocol error");
        assert!(
            unknown.to_string().contains("Unknown tool: items_burn"),
            "{unknown}"
        );
        client.cancel().await.unwrap();
    }
}

/// On a multi-threaded runtime a served synchronous handler runs at once,
/// in place on the worker polling its call; on a runtime of one thread it
/// runs on the blocking pool, through the call's future. The answers are
/// the same: results, a broken constraint, a handler's own error, a panic.
#[test]
fn a_synchronous_handler_answers_alike_in_place_and_on_the_blocking_pool() {
    let calls = [
        json!({"name": "items_create", "arguments": {"name": "lamp"}}),
        json!({"name": "items_get", "arguments": {"id": 1}}),
        json!({"name": "items_label", "arguments": {"copies": 11, "text": "lamp", "code": "LMP001", "notify": "a@b.example", "shelves": [1, 2]}}),
        json!({"name": "items_get", "arguments": {"id": 999}}),
        json!({"name": "items_fault", "arguments": {"kind": "panic"}}),
        json!({"name": "items_list", "arguments": {}}),
    ];
    let answers = |runtime: tokio::runtime::Runtime| {
        runtime.block_on(async {
            let mut answers = Vec::new();
            for (_, lifecycle) in eras() {
                let open = Registry::builder(&TOOLS)
                    .max_tier(Tier::Destructive)
                    .build();
                let client = connect(Server::new(open, Shelf::new()), lifecycle).await;
                for call in &calls {
                    let params: CallToolRequestParams =
                        serde_json::from_value(call.clone()).unwrap();
                    let result = client.call_tool(params).await.unwrap();
                    answers.push(serde_json::to_value(result).unwrap());
                }
                client.cancel().await.unwrap();
            }
            answers
        })
    };
    let one_thread = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let workers = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let (on_the_pool, in_place) = (answers(one_thread), answers(workers));
    assert_eq!(in_place, on_the_pool);
    assert_eq!(
        in_place[2]["isError"], true,
        "copies over the maximum are refused: {}",
        in_place[2]
    );
    assert_eq!(
        in_place[4]["content"][0]["text"],
        "Tool execution failed; consult the server log."
    );
}
