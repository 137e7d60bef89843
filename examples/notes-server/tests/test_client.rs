//! The example driven by `tooltable::testing::TestClient`, written from
//! docs/testing.md: what a read-only caller lists and calls, a consent
//! declined in both protocol eras, and a call followed as a task.

use notes_server::{Store, TOOLS};
use serde_json::json;
use tooltable::policy::MaxTier;
use tooltable::testing::{Answer, Revision, TestClient};
use tooltable::{Registry, Tier, serve::Server};

#[tokio::test]
async fn a_read_only_caller_can_search_but_not_delete() {
    let server = Server::new(Registry::new(&TOOLS), Store::in_memory().unwrap());
    let mut client = TestClient::connect(server).await;
    let tools = client.list_tools().await;
    assert!(!tools.iter().any(|tool| tool["name"] == "notes_delete"));
    let found = client
        .call("notes_search", json!({"query": "milk"}))
        .await
        .unwrap();
    assert!(!found.is_error(), "{}", found.text());
}

#[tokio::test]
async fn a_declined_consent_deletes_nothing_in_either_era() {
    for revision in [Revision::R2026_07_28, Revision::R2025_11_25] {
        let registry = Registry::builder(&TOOLS)
            .max_tier(MaxTier::new(Tier::Destructive))
            .build();
        let mut client = TestClient::builder()
            .revision(revision)
            .elicitation(Answer::Decline)
            .connect(Server::new(registry, Store::in_memory().unwrap()))
            .await;
        let created = client
            .call("notes_create", json!({"title": "Milk", "body": "Buy milk"}))
            .await
            .unwrap();
        let id = created.structured().unwrap()["id"].clone();
        let deleted = client
            .call("notes_delete", json!({"id": id}))
            .await
            .unwrap();
        assert!(deleted.is_error(), "{revision:?}: {}", deleted.text());
        assert_eq!(client.asked().len(), 1, "{revision:?}: one question");
        let kept = client.call("notes_get", json!({"id": id})).await.unwrap();
        assert!(!kept.is_error(), "{revision:?}: {}", kept.text());
    }
}

#[tokio::test]
async fn a_watch_that_becomes_a_task_is_followed_to_its_end() {
    let mut client = TestClient::builder()
        .tasks()
        .connect(Server::new(
            Registry::new(&TOOLS),
            Store::in_memory().unwrap(),
        ))
        .await;
    let watched = client
        .call("notes_watch", json!({"seconds": 1}))
        .await
        .unwrap();
    assert!(watched.task_id().is_some(), "{:?}", watched.result());
    assert_eq!(watched.structured(), Some(&json!({"note": null})));
}
