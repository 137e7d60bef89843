//! Discovery mode, as a client sees it through the stdio transport: the
//! listing is the listed tools and the search and call tools; a search
//! answers the descriptors of the tools the caller may see; a call through
//! the call tool is the tool's own call.

use crate::client::{everything, read_only};
use serde_json::{Value, json};
use tooltable_fixture::Shelf;
use tooltable_rules::context::Cost;
use tooltable_runtime::serve::{Discovery, DiscoveryMode, McpServer, Server};
use tooltable_runtime::testing::{Answer, Revision, TestClient};

const ERAS: [Revision; 2] = [Revision::R2026_07_28, Revision::R2025_11_25];

fn names(tools: &[Value]) -> Vec<&str> {
    tools.iter().filter_map(|t| t["name"].as_str()).collect()
}

fn discovering(registry: tooltable_runtime::Registry<Shelf>) -> Server<McpServer<Shelf>> {
    Server::new(registry, Shelf::new()).discovery(Discovery::new().listed(["items_get"]))
}

async fn client(era: Revision, server: Server<McpServer<Shelf>>) -> TestClient {
    TestClient::builder().revision(era).connect(server).await
}

fn found(called: &tooltable_runtime::testing::Called) -> Vec<String> {
    called.structured().unwrap()["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn the_listing_is_the_listed_tools_and_the_search_and_call_tools() {
    for era in ERAS {
        let mut client = client(era, discovering(everything())).await;
        let listed = client.list_tools().await;
        assert_eq!(
            names(&listed),
            ["search_tools", "call_tool", "items_get"],
            "{era:?}"
        );
        assert_eq!(
            listed[1]["annotations"]["destructiveHint"],
            json!(true),
            "it may call items_destroy"
        );
        let mut reader = self::client(era, discovering(read_only())).await;
        let listed = reader.list_tools().await;
        assert_eq!(
            listed[1]["annotations"]["readOnlyHint"],
            json!(true),
            "it may call only read tools"
        );
        assert_eq!(listed[1]["annotations"]["destructiveHint"], json!(false));
    }
}

#[tokio::test]
async fn a_search_answers_the_full_descriptors_of_the_tools_the_caller_may_see() {
    for era in ERAS {
        let mut client = client(era, Server::new(everything(), Shelf::new())).await;
        let full = client.list_tools().await;
        let mut client = self::client(era, discovering(everything())).await;
        let called = client
            .call(
                "search_tools",
                json!({"query": "destroy an item for good", "limit": 3}),
            )
            .await
            .unwrap();
        assert!(!called.is_error(), "{era:?}: {}", called.text());
        let tools = called.structured().unwrap()["tools"]
            .as_array()
            .unwrap()
            .clone();
        assert_eq!(tools.len(), 3);
        assert_eq!(tools[0]["name"], "items_destroy");
        let listed = full.iter().find(|t| t["name"] == "items_destroy").unwrap();
        assert_eq!(
            &tools[0], listed,
            "{era:?}: the descriptor a full listing serves"
        );
        let mut reader = self::client(era, discovering(read_only())).await;
        let called = reader
            .call("search_tools", json!({"query": "destroy an item for good"}))
            .await
            .unwrap();
        assert!(
            !found(&called).contains(&"items_destroy".to_owned()),
            "{era:?}"
        );
    }
}

#[tokio::test]
async fn a_call_through_the_call_tool_is_the_tools_own_call() {
    for era in ERAS {
        let mut client = client(era, discovering(everything())).await;
        let direct = client
            .call("items_create", json!({"name": "lamp"}))
            .await
            .unwrap();
        let through = client
            .call(
                "call_tool",
                json!({"name": "items_create", "arguments": {"name": "lamp"}}),
            )
            .await
            .unwrap();
        assert!(!through.is_error(), "{era:?}: {}", through.text());
        assert_eq!(through.structured().unwrap()["name"], "lamp");
        assert_eq!(
            through.structured().unwrap()["id"].as_i64(),
            direct.structured().unwrap()["id"].as_i64().map(|id| id + 1)
        );
        let bad = client
            .call(
                "call_tool",
                json!({"name": "items_create", "arguments": {"name": 7}}),
            )
            .await
            .unwrap();
        let own = client
            .call("items_create", json!({"name": 7}))
            .await
            .unwrap();
        assert!(bad.is_error());
        assert_eq!(
            bad.text(),
            own.text(),
            "{era:?}: the tool's own argument check"
        );
    }
}

#[tokio::test]
async fn a_tool_the_caller_may_not_see_is_refused_through_the_call_tool_as_by_its_own_name() {
    for era in ERAS {
        let mut client = client(era, discovering(read_only())).await;
        let own = client.call("items_destroy", json!({"id": 1})).await;
        let through = client
            .call(
                "call_tool",
                json!({"name": "items_destroy", "arguments": {"id": 1}}),
            )
            .await;
        match (own, through) {
            (Ok(own), Ok(through)) => {
                assert!(own.is_error() && through.is_error(), "{era:?}");
                assert_eq!(own.text(), through.text(), "{era:?}");
            }
            (Err(own), Err(through)) => assert_eq!(own.to_string(), through.to_string(), "{era:?}"),
            (own, through) => panic!("{era:?}: {own:?} against {through:?}"),
        }
    }
}

#[tokio::test]
async fn a_confirming_tool_called_through_the_call_tool_asks_the_person_first() {
    for era in ERAS {
        let mut client = TestClient::builder()
            .revision(era)
            .elicitation(Answer::Decline)
            .connect(discovering(everything()))
            .await;
        let item = client
            .call("items_create", json!({"name": "lamp"}))
            .await
            .unwrap();
        let id = item.structured().unwrap()["id"].clone();
        let refused = client
            .call(
                "call_tool",
                json!({"name": "items_destroy", "arguments": {"id": id}}),
            )
            .await
            .unwrap();
        assert!(refused.is_error(), "{era:?}: {}", refused.text());
        assert_eq!(client.asked().len(), 1, "{era:?}");
        let still = client.call("items_get", json!({"id": id})).await.unwrap();
        assert!(!still.is_error(), "{era:?}: the item was not destroyed");
    }
}

#[tokio::test]
async fn arguments_the_search_and_call_tools_do_not_take_are_refused_saying_what_to_send() {
    let mut client = client(Revision::R2026_07_28, discovering(everything())).await;
    for (tool, arguments, says) in [
        ("search_tools", json!({}), "needs `query`"),
        (
            "search_tools",
            json!({"query": "x", "page": 2}),
            "not `page`",
        ),
        (
            "search_tools",
            json!({"query": "x", "limit": 0}),
            "`limit` is a whole number from 1 to 10",
        ),
        (
            "search_tools",
            json!({"query": "x".repeat(2000)}),
            "more than 1024",
        ),
        ("call_tool", json!({}), "needs `name`"),
        (
            "call_tool",
            json!({"name": "items_get", "arguments": [1]}),
            "`arguments` of call_tool is an object",
        ),
        ("call_tool", json!({"tool": "items_get"}), "not `tool`"),
    ] {
        let called = client.call(tool, arguments.clone()).await.unwrap();
        assert!(
            called.is_error() && called.text().contains(says),
            "{arguments}: {}",
            called.text()
        );
    }
    let nothing = client
        .call("search_tools", json!({"query": "zebra quantum"}))
        .await
        .unwrap();
    assert!(found(&nothing).is_empty());
}

#[tokio::test]
async fn settings_discovery_cannot_serve_are_refused_when_serving_starts() {
    for (discovery, says) in [
        (
            Discovery::new().listed(["nope"]),
            "lists `nope`, which the registry does not have",
        ),
        (
            Discovery::new().named("items_get", "call_tool"),
            "has a tool named `items_get`",
        ),
        (Discovery::new().named("same", "same"), "need two names"),
        (
            Discovery::new().named("bad name", "call"),
            "cannot name a tool",
        ),
        (Discovery::new().results(0), "between 1 and 50"),
        (
            Discovery::new().toolsets(["itemz"]),
            "the toolset `itemz`, to which no tool of the registry belongs",
        ),
    ] {
        let server = Server::new(everything(), Shelf::new()).discovery(discovery);
        let error = server
            .serve_io(tokio::io::empty(), tokio::io::sink())
            .await
            .unwrap_err();
        assert!(error.to_string().contains(says), "{error}");
    }
}

#[tokio::test]
async fn a_tool_marked_always_listed_is_listed_without_being_named() {
    for era in ERAS {
        let mut client = client(
            era,
            Server::new(everything(), Shelf::new()).discovery(Discovery::new()),
        )
        .await;
        assert_eq!(
            names(&client.list_tools().await),
            ["search_tools", "call_tool", "items_get"],
            "{era:?}"
        );
    }
}

#[tokio::test]
async fn a_toolset_lists_every_tool_it_holds() {
    let server =
        Server::new(everything(), Shelf::new()).discovery(Discovery::new().toolsets(["faults"]));
    let mut client = client(Revision::R2025_11_25, server).await;
    assert_eq!(
        names(&client.list_tools().await),
        [
            "search_tools",
            "call_tool",
            "items_fault",
            "items_get",
            "items_pause"
        ]
    );
}

#[tokio::test]
async fn a_budget_lists_the_cheapest_tools_that_fit_it() {
    let mut full = client(
        Revision::R2025_11_25,
        Server::new(everything(), Shelf::new()),
    )
    .await;
    let mut costs: Vec<(u64, String)> = full
        .list_tools()
        .await
        .iter()
        .filter(|t| t["name"] != "items_get")
        .map(|t| (Cost::of(t).tokens, t["name"].as_str().unwrap().to_owned()))
        .collect();
    costs.sort();
    let budget = costs[0].0 + costs[1].0 + costs[2].0;
    let server = Server::new(everything(), Shelf::new()).discovery(Discovery::new().budget(budget));
    let mut client = client(Revision::R2025_11_25, server).await;
    let listed = client.list_tools().await;
    let mut chosen: Vec<&str> = names(&listed)[2..].to_vec();
    chosen.retain(|name| *name != "items_get");
    let mut cheapest: Vec<&str> = costs[..3].iter().map(|(_, name)| name.as_str()).collect();
    cheapest.sort();
    assert_eq!(
        chosen, cheapest,
        "the three cheapest of {costs:?} fit {budget} tokens"
    );
    let server =
        Server::new(everything(), Shelf::new()).discovery(Discovery::new().budget(budget - 1));
    let mut client = self::client(Revision::R2025_11_25, server).await;
    assert_eq!(
        client.list_tools().await.len(),
        2 + 1 + 2,
        "one token less leaves the third out"
    );
}

#[tokio::test]
async fn in_reveal_mode_a_search_adds_the_found_tools_to_the_sessions_listing_and_says_so() {
    let reveal = || {
        Server::new(everything(), Shelf::new())
            .discovery(Discovery::new().mode(DiscoveryMode::Reveal))
    };
    let mut client = client(Revision::R2025_11_25, reveal()).await;
    assert_eq!(
        names(&client.list_tools().await),
        ["search_tools", "items_get"]
    );
    client.take_notifications();
    let called = client
        .call(
            "search_tools",
            json!({"query": "rename an item", "limit": 2}),
        )
        .await
        .unwrap();
    let found = found(&called);
    assert_eq!(found.len(), 2, "{}", called.text());
    let told: Vec<Value> = client.take_notifications();
    assert_eq!(
        told.iter()
            .filter(|n| n["method"] == "notifications/tools/list_changed")
            .count(),
        1,
        "{told:?}"
    );
    let listed = client.list_tools().await;
    for name in &found {
        assert!(
            names(&listed).contains(&name.as_str()),
            "{name} in {:?}",
            names(&listed)
        );
    }
    assert!(found.contains(&"items_rename".to_owned()), "{found:?}");
    let renamed = client
        .call("items_rename", json!({"id": 1, "name": "spoon"}))
        .await
        .unwrap();
    assert_eq!(
        renamed.text(),
        "no item with id 1",
        "the tool itself answered"
    );
    let again = client
        .call(
            "search_tools",
            json!({"query": "rename an item", "limit": 2}),
        )
        .await
        .unwrap();
    assert!(!again.is_error());
    assert!(
        client.take_notifications().is_empty(),
        "a search that finds nothing new changes no listing"
    );
    let mut other = self::client(Revision::R2025_11_25, reveal()).await;
    assert_eq!(
        names(&other.list_tools().await),
        ["search_tools", "items_get"],
        "another session's listing is its own"
    );
}

#[tokio::test]
async fn in_reveal_mode_a_stateless_request_is_served_through_the_call_tool() {
    let server = Server::new(everything(), Shelf::new())
        .discovery(Discovery::new().mode(DiscoveryMode::Reveal));
    let mut client = client(Revision::R2026_07_28, server).await;
    assert_eq!(
        names(&client.list_tools().await),
        ["search_tools", "call_tool", "items_get"]
    );
    client
        .call("search_tools", json!({"query": "rename an item"}))
        .await
        .unwrap();
    assert_eq!(
        names(&client.list_tools().await),
        ["search_tools", "call_tool", "items_get"],
        "a 2026-07-28 request has no session whose listing could grow"
    );
}
