//! Arbitrary JSON never breaks the server: as arguments to every tool, as
//! `confirm`, and as `_meta` declarations to ingest.

use crate::common;

use common::block_on;

use notes_server::{Store, TOOLS};
use proptest::collection::{btree_map, vec};
use proptest::prelude::*;
use serde_json::{Map, Number, Value, json};
use tooltable::declarations::{FieldKind, FieldRule, Ingest, validate_declaration};
use tooltable::policy::Consent;
use tooltable::{Caller, Registry, Tier};

fn json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_filter_map("finite", |f| Number::from_f64(f).map(Value::Number)),
        "\\PC{0,12}".prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 32, 6, |inner| {
        prop_oneof![
            vec(inner.clone(), 0..6).prop_map(Value::Array),
            btree_map("\\PC{0,8}", inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Arguments: known keys (with arbitrary values) mixed with arbitrary ones.
fn arguments() -> impl Strategy<Value = Map<String, Value>> {
    let key = prop_oneof![
        Just("id".to_owned()),
        Just("title".to_owned()),
        Just("body".to_owned()),
        Just("tags".to_owned()),
        Just("query".to_owned()),
        Just("tag".to_owned()),
        Just("limit".to_owned()),
        Just("confirm".to_owned()),
        "\\PC{0,8}",
    ];
    btree_map(key, json(), 0..6).prop_map(|m| m.into_iter().collect())
}

fn seeded_store() -> Store {
    let store = Store::in_memory().unwrap();
    store.create("first", "one", &["a".into()]).unwrap();
    store.create("second", "two", &[]).unwrap();
    store
}

fn contents(store: &Store) -> String {
    format!("{:?}", store.search("", None, 100).unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn arbitrary_arguments_never_panic_and_a_refused_call_changes_nothing(tool in 0usize..7, arguments in arguments()) {
        let store = seeded_store();
        let registry = Registry::builder(&TOOLS).max_tier(Tier::Destructive).build();
        // `notes_watch` waits on a timer, which this runtime-free loop cannot drive.
        let name = TOOLS.tools().iter().map(|t| t.name()).filter(|n| *n != "notes_watch").nth(tool).unwrap();
        let before = contents(&store);
        let result = block_on(registry.call(&store, &Caller::operator(), name, arguments)).expect("a known tool answers with a result");
        prop_assert!(!result.content.is_empty(), "every result carries content");
        let wire = result.to_json();
        prop_assert!(wire["isError"].is_boolean());
        if result.is_error {
            // A tool error carries structured data only when the tool gave
            // some: a missing note's `not_found`, naming the id asked for.
            if let Some(data) = &result.structured_content {
                prop_assert_eq!(&data["code"], "not_found", "{}", data);
            }
            prop_assert_eq!(contents(&store), before);
        } else {
            prop_assert!(result.structured_content.is_some() || name == "notes_export");
        }
    }

    #[test]
    fn under_confirm_by_argument_only_a_confirm_of_true_deletes_and_anything_else_changes_nothing(confirm in json()) {
        let store = seeded_store();
        let registry = Registry::builder(&TOOLS).max_tier(Tier::Destructive).consent(Consent::person_or_argument()).build();
        let before = contents(&store);
        let arguments = json!({"id": 1, "confirm": confirm.clone()}).as_object().cloned().unwrap_or_default();
        let result = block_on(registry.call(&store, &Caller::operator(), "notes_delete", arguments)).unwrap();
        if confirm == Value::Bool(true) {
            prop_assert!(!result.is_error);
            prop_assert_eq!(store.count().unwrap(), 1);
        } else {
            prop_assert!(result.is_error);
            prop_assert_eq!(contents(&store), before);
        }
    }

    #[test]
    fn without_a_person_to_ask_no_confirm_deletes(confirm in json()) {
        let store = seeded_store();
        let registry = Registry::builder(&TOOLS).max_tier(Tier::Destructive).build();
        let before = contents(&store);
        let arguments = json!({"id": 1, "confirm": confirm}).as_object().cloned().unwrap_or_default();
        let result = block_on(registry.call(&store, &Caller::operator(), "notes_delete", arguments)).unwrap();
        prop_assert!(result.is_error);
        prop_assert_eq!(contents(&store), before);
    }

    #[test]
    fn arbitrary_meta_bags_are_ingested_without_panicking_and_keep_only_valid_known_fields(meta in json(), bag in json()) {
        let ingest = Ingest::new();
        let known = [FieldRule::new("audience", FieldKind::String), FieldRule::new("deprecated", FieldKind::BoolOrString), FieldRule::new("cost", FieldKind::Literal)];
        for meta in [meta, json!({"k/declarations": bag})] {
            let got = ingest.read("server", "tool", &meta, "k/declarations", &known);
            for (name, value) in &got.fields {
                prop_assert!(known.iter().any(|r| &r.name == name));
                prop_assert!(validate_declaration(name, value).is_ok());
            }
        }
    }
}
