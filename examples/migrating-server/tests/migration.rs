//! A server halfway through its move: the table's two tools and the
//! router's three are listed and called as one, in both eras, under the
//! registry's rules.

use migrating_server::{Counter, TOOLS, registry};
use rmcp::handler::server::router::tool::ToolRouter;
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tooltable::Tier;
use tooltable::provider::RouterTools;
use tooltable::serve::Server;

const CURRENT: &str = "2026-07-28";
const LEGACY: &str = "2025-11-25";

/// The `_meta` a 2026-07-28 request carries.
fn meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": CURRENT,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "migration", "version": "0"},
    })
}

/// The requests of one era, as lines: the handshake first on a legacy one.
fn session(era: &str, requests: &[(&str, Value)]) -> Vec<Value> {
    let mut lines = Vec::new();
    if era == LEGACY {
        lines.push(json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "migration", "version": "0"}}}));
        lines.push(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    }
    for (i, (method, params)) in requests.iter().enumerate() {
        let mut params = params.clone();
        if era == CURRENT {
            params["_meta"] = meta();
        }
        lines.push(json!({"jsonrpc": "2.0", "id": i + 1, "method": method, "params": params}));
    }
    lines
}

/// Serves `max_tier` on a pipe; the answers to the requests, in order.
async fn serve(max_tier: Tier, lines: Vec<Value>) -> Vec<Value> {
    let counter = Arc::new(Counter::default());
    let registry = registry(counter.clone(), max_tier).unwrap();
    let server = Server::new(registry, counter).handle_signals(false);
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
        if line.get("id").is_none() {
            continue;
        }
        let mut text = String::new();
        tokio::time::timeout(Duration::from_secs(10), read.read_line(&mut text))
            .await
            .expect("an answer within 10 s")
            .unwrap();
        let answer: Value = serde_json::from_str(&text).unwrap();
        if answer["id"] != json!(0) {
            answers.push(answer);
        }
    }
    drop((write, read));
    let _ = served.await;
    answers
}

fn names(listing: &Value) -> Vec<String> {
    listing["result"]["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("{listing}"))
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn the_tables_two_tools_and_the_routers_three_are_served_as_one_in_both_eras() {
    for era in [LEGACY, CURRENT] {
        let answers = serve(
            Tier::Destructive,
            session(
                era,
                &[
                    ("tools/list", json!({})),
                    (
                        "tools/call",
                        json!({"name": "counter_add", "arguments": {"by": 2}}),
                    ),
                    (
                        "tools/call",
                        json!({"name": "legacy_echo", "arguments": {"text": "hi"}}),
                    ),
                    (
                        "tools/call",
                        json!({"name": "legacy_reset", "arguments": {}}),
                    ),
                    (
                        "tools/call",
                        json!({"name": "counter_get", "arguments": {}}),
                    ),
                    (
                        "tools/call",
                        json!({"name": "legacy_echo", "arguments": {"text": 7}}),
                    ),
                ],
            ),
        )
        .await;
        assert_eq!(
            names(&answers[0]),
            [
                "counter_add",
                "counter_get",
                "legacy_echo",
                "legacy_reset",
                "legacy_touch"
            ],
            "{era}"
        );
        let echo = answers[0]["result"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == "legacy_echo")
            .unwrap();
        assert_eq!(echo["annotations"]["readOnlyHint"], json!(true), "{echo}");
        assert_eq!(
            answers[1]["result"]["structuredContent"]["value"],
            json!(2),
            "{era}"
        );
        assert_eq!(
            answers[2]["result"]["content"][0]["text"],
            json!("hi"),
            "{era}"
        );
        assert_eq!(
            answers[3]["result"]["isError"],
            json!(false),
            "{era}: {}",
            answers[3]
        );
        assert_eq!(
            answers[4]["result"]["structuredContent"]["value"],
            json!(0),
            "{era}: the router's reset reached the table's counter"
        );
        let refused = &answers[5];
        assert!(
            refused.to_string().contains("text"),
            "{era}: arguments that break the router tool's schema are refused naming the field: {refused}"
        );
    }
}

#[tokio::test]
async fn a_router_tool_whose_annotations_say_nothing_is_not_served_to_a_read_only_policy() {
    let counter = Arc::new(Counter::default());
    let unplaced = RouterTools::new(
        "legacy",
        migrating_server::legacy::Legacy::for_tests(counter.clone()),
        migrating_server::legacy::Legacy::tool_router(),
    );
    let registry = tooltable::Registry::builder(&TOOLS).build();
    registry.register(&unplaced).unwrap();
    let touch = registry.get("legacy_touch").unwrap();
    assert_eq!(
        touch.info().tier,
        Tier::Destructive,
        "unannotated and unplaced"
    );
    let answers = serve(
        Tier::Read,
        session(
            CURRENT,
            &[
                ("tools/list", json!({})),
                (
                    "tools/call",
                    json!({"name": "legacy_touch", "arguments": {}}),
                ),
            ],
        ),
    )
    .await;
    assert_eq!(names(&answers[0]), ["counter_get", "legacy_echo"]);
    assert!(
        answers[1].to_string().contains("legacy_touch"),
        "a call is refused naming the tool: {}",
        answers[1]
    );
}

#[test]
fn a_router_tool_named_like_a_table_tool_is_refused_naming_both() {
    #[derive(Clone)]
    struct Clash;
    #[rmcp::tool_router]
    impl Clash {
        #[rmcp::tool(
            description = "Also reads the counter.",
            annotations(read_only_hint = true)
        )]
        async fn counter_get(&self) -> String {
            String::new()
        }
    }
    let registry = tooltable::Registry::builder(&TOOLS).build();
    let clash: ToolRouter<Clash> = Clash::tool_router();
    let error = registry
        .register(&RouterTools::new("clash", Clash, clash))
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("`clash`")
            && error.contains("counter_get")
            && error.contains("the table's tool `counter_get` (declared in src/counter.rs"),
        "{error}"
    );
}

#[test]
fn a_router_tool_that_breaks_the_name_rules_is_refused_with_its_name_and_the_rule() {
    #[derive(Clone)]
    struct Unprefixed;
    #[rmcp::tool_router]
    impl Unprefixed {
        #[rmcp::tool(
            description = "Has no prefix of this server.",
            annotations(read_only_hint = true)
        )]
        async fn stray(&self) -> String {
            String::new()
        }
    }
    let registry = tooltable::Registry::builder(&TOOLS).build();
    let error = registry
        .register(&RouterTools::new(
            "unprefixed",
            Unprefixed,
            Unprefixed::tool_router(),
        ))
        .unwrap_err();
    assert_eq!(error.tool, "stray");
    assert!(error.rule.contains("prefix"), "{error}");
}
