//! Search over the baked table: ranked by the index the build wrote, and
//! only among the tools the caller may see.

use tooltable_fixture::{Shelf, TOOLS};
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
