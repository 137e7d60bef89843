//! Search: the table's tools ranked by the index the build wrote, tools
//! registered at run time ranked with them, and only among the tools the
//! caller may see.

use tooltable_fixture::{Shelf, TOOLS};
use tooltable_runtime::Call;
use tooltable_runtime::provider::{BoxFuture, Outcome, Output, ProvidedTool, Provider, handler};
use tooltable_runtime::registry::{MemoryStore, Pins};
use tooltable_runtime::{Caller, Fingerprint, Registry, Tier};

fn everything() -> Registry<Shelf> {
    Registry::builder(&TOOLS)
        .max_tier(Tier::Destructive)
        .store(MemoryStore::new())
        .build()
}

fn found(registry: &Registry<Shelf>, caller: &Caller, query: &str, limit: usize) -> Vec<String> {
    registry
        .search(caller, query, limit)
        .iter()
        .map(|entry| entry.info().name.to_owned())
        .collect()
}

#[test]
fn the_tool_whose_words_match_the_query_best_comes_first() {
    let registry = everything();
    let operator = Caller::operator();
    assert_eq!(
        found(&registry, &operator, "destroy an item for good", 3)
            .first()
            .map(String::as_str),
        Some("items_destroy")
    );
    assert_eq!(
        found(&registry, &operator, "give the item a new name", 3)
            .first()
            .map(String::as_str),
        Some("items_rename"),
        "a parameter's doc is searched as the tool's own words"
    );
    assert_eq!(
        found(&registry, &operator, "Renamed", 1),
        ["items_rename"],
        "case and endings do not matter"
    );
    assert_eq!(
        found(&registry, &operator, "items", 2).len(),
        2,
        "at most the limit"
    );
    assert!(found(&registry, &operator, "zebra quantum", 10).is_empty());
    assert!(found(&registry, &operator, "", 10).is_empty());
}

#[test]
fn a_tool_the_caller_may_not_see_is_never_found() {
    let registry = everything();
    let query = "destroy an item for good";
    assert!(found(&registry, &Caller::operator(), query, 20).contains(&"items_destroy".to_owned()));
    let without_permission = Caller::with_permissions(["items.write"]);
    assert!(
        !found(&registry, &without_permission, query, 20).contains(&"items_destroy".to_owned())
    );
    let read_only = Registry::builder(&TOOLS).build();
    assert!(
        !found(&read_only, &Caller::operator(), query, 20).contains(&"items_destroy".to_owned())
    );
    registry.set_enabled("items_destroy", false).unwrap();
    assert!(
        !found(&registry, &Caller::operator(), query, 20).contains(&"items_destroy".to_owned())
    );
    registry.set_enabled("items_destroy", true).unwrap();
    let stale =
        Pins::new([("items_destroy".to_owned(), Fingerprint::from_bytes([7; 32]))]).unwrap();
    assert!(
        !found(&registry, &Caller::operator().pinned(stale), query, 20)
            .contains(&"items_destroy".to_owned())
    );
}

/// A provider of tools registered at run time.
struct Weather;

impl Provider<Shelf> for Weather {
    fn name(&self) -> &str {
        "weather"
    }
    fn tools(&self) -> Vec<ProvidedTool<Shelf>> {
        let tool = |name: &str, description: &str| {
            ProvidedTool::new(
                name,
                Tier::Read,
                description,
                handler(|_: &Shelf, _, _: &Call| -> BoxFuture<'_, Outcome> {
                    Box::pin(async { Ok(Output::Text("sunny".into())) })
                }),
            )
        };
        let mut forecast = tool("items_forecast", "Tell tomorrow's weather for a city.");
        forecast.search_hint = Some("rain umbrella".into());
        vec![
            forecast,
            tool("items_zz_hidden", "Tell the weather secretly."),
        ]
    }
}

#[test]
fn tools_registered_at_run_time_are_ranked_with_the_tables() {
    let registry = everything();
    let operator = Caller::operator();
    assert!(found(&registry, &operator, "weather", 10).is_empty());
    registry.register(&Weather).unwrap();
    assert_eq!(
        found(&registry, &operator, "will it rain tomorrow", 1),
        ["items_forecast"],
        "a provided tool's search hint is searched too"
    );
    assert_eq!(
        found(&registry, &operator, "destroy an item for good", 1),
        ["items_destroy"],
        "the table's tools are still found once the index holds both"
    );
    registry.set_enabled("items_zz_hidden", false).unwrap();
    assert_eq!(
        found(&registry, &operator, "weather", 10),
        ["items_forecast"]
    );
}
