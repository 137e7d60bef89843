//! Serving the example's table through a registry: policy, enable flags,
//! the call order, administration, pins, providers and declarations.

mod common;

use common::block_on;

use notes_server::{Store, TOOLS};
use serde_json::{Map, Value, json};
use std::sync::Arc;
use tooltable::call::{Arguments, BoxFuture, Outcome, Output};
use tooltable::pins::Pins;
use tooltable::policy::{AllOf, Caller, GrantedPermissions, MaxTier};
use tooltable::provider::{ProvidedTool, Provider};
use tooltable::registry::{DISABLED, Registry, StateError, handler};
use tooltable::state::MemoryStore;
use tooltable::{CallError, CallToolResult, Tier};

fn args(value: Value) -> Map<String, Value> {
    value.as_object().cloned().unwrap_or_default()
}

fn call(
    registry: &Registry<Store>,
    store: &Store,
    caller: &Caller,
    name: &str,
    arguments: Value,
) -> Result<CallToolResult, CallError> {
    block_on(registry.call(store, caller, name, args(arguments)))
}

fn text(result: Result<CallToolResult, CallError>) -> String {
    let result = result.expect("a result, not a protocol error");
    assert!(
        result.is_error,
        "expected a refusal, got {:?}",
        result.first_text()
    );
    result.first_text().unwrap_or_default().to_owned()
}

fn listed(registry: &Registry<Store>, caller: &Caller) -> Vec<String> {
    let list: Vec<Value> = serde_json::from_str(&registry.list(caller).json).unwrap();
    list.iter()
        .map(|d| d["name"].as_str().unwrap().to_owned())
        .collect()
}

fn read_only_server() -> Registry<Store> {
    Registry::builder(&TOOLS)
        .policy(
            AllOf::new()
                .and(
                    MaxTier::new(Tier::Read)
                        .switch(Tier::Write, "start the server with --allow-write")
                        .switch(
                            Tier::Destructive,
                            "start the server with --allow-destructive",
                        ),
                )
                .and(GrantedPermissions),
        )
        .store(MemoryStore::new())
        .build()
}

/// A provider that offers the tools it was built with.
struct Batch(&'static str, fn() -> Vec<ProvidedTool<Store>>);

impl Provider<Store> for Batch {
    fn name(&self) -> &str {
        self.0
    }
    fn tools(&self) -> Vec<ProvidedTool<Store>> {
        (self.1)()
    }
}

/// A registry over the table with the `stats` provider registered, whose
/// one tool `notes_count` has this description.
fn with_stats(description: &'static str) -> Registry<Store> {
    let registry = Registry::builder(&TOOLS).build();
    struct Stats(&'static str);
    impl Provider<Store> for Stats {
        fn name(&self) -> &str {
            "stats"
        }
        fn tools(&self) -> Vec<ProvidedTool<Store>> {
            vec![count_tool("notes_count", self.0)]
        }
    }
    registry
        .register(&Stats(description))
        .expect("the stats provider registers");
    registry
}

fn echo_handler() -> tooltable::call::DynHandler<Store> {
    handler(
        |_store: &Store, arguments: Arguments| -> BoxFuture<'_, Outcome> {
            Box::pin(async move { Ok(Output::Structured(Value::Object(arguments))) })
        },
    )
}

fn count_tool(name: &str, description: &str) -> ProvidedTool<Store> {
    let mut tool = ProvidedTool::new(
        name,
        Tier::Read,
        description,
        handler(|store: &Store, _| -> BoxFuture<'_, Outcome> {
            let count = store.count().unwrap_or_default();
            Box::pin(async move { Ok(Output::Structured(json!({"count": count}))) })
        }),
    );
    tool.world = tooltable::World::Closed;
    tool.output_schema = Some(
        json!({"type": "object", "properties": {"count": {"type": "integer"}}, "required": ["count"]}),
    );
    tool
}

#[test]
fn an_unfiltered_caller_gets_the_bytes_baked_at_build_time() {
    let registry = Registry::new(&TOOLS);
    let listing = registry.list(&Caller::anonymous());
    assert!(matches!(listing.json, std::borrow::Cow::Borrowed(_)));
    assert_eq!(listing.json, TOOLS.list_json());
    assert_eq!(listing.count, 5);
}

#[test]
fn the_policy_hides_tools_from_the_list_in_name_order() {
    let registry = read_only_server();
    assert_eq!(
        listed(&registry, &Caller::anonymous()),
        ["notes_get", "notes_search"]
    );
    let registry = Registry::builder(&TOOLS).policy(GrantedPermissions).build();
    assert_eq!(
        listed(&registry, &Caller::with_permissions(["notes.write"])),
        ["notes_create", "notes_get", "notes_search", "notes_update"]
    );
}

#[test]
fn a_hidden_tool_is_refused_with_a_reason_naming_the_switch() {
    let store = Store::in_memory().unwrap();
    let refusal = text(call(
        &read_only_server(),
        &store,
        &Caller::anonymous(),
        "notes_delete",
        json!({"id": 1, "confirm": true}),
    ));
    assert_eq!(
        refusal,
        "notes_delete is destructive, but this server allows tools up to read only; start the server with --allow-destructive to allow it"
    );
}

#[test]
fn a_concealing_registry_answers_a_hidden_tool_exactly_as_an_unknown_one() {
    let store = Store::in_memory().unwrap();
    let registry = Registry::builder(&TOOLS)
        .policy(MaxTier::new(Tier::Read))
        .conceal_hidden_tools(true)
        .build();
    let hidden = call(
        &registry,
        &store,
        &Caller::anonymous(),
        "notes_delete",
        json!({}),
    )
    .unwrap_err();
    let unknown = call(
        &registry,
        &store,
        &Caller::anonymous(),
        "notes_nothing",
        json!({}),
    )
    .unwrap_err();
    assert_eq!(hidden, CallError::unknown_tool("notes_delete"));
    assert_eq!(unknown.code(), hidden.code());
}

#[test]
fn the_call_order_is_unknown_then_policy_then_enabled_then_pin_then_confirm_then_arguments_then_handler()
 {
    let store = Store::in_memory().unwrap();
    let registry = Registry::builder(&TOOLS)
        .policy(GrantedPermissions)
        .store(MemoryStore::new())
        .build();
    let delete_fp = *TOOLS.get("notes_delete").unwrap().fingerprint();
    let stale_pin = Pins::new([(
        "notes_delete".to_owned(),
        tooltable::Fingerprint::from_bytes([7; 32]),
    )])
    .unwrap();
    let good_pin = Pins::new([("notes_delete".to_owned(), delete_fp)]).unwrap();
    registry.set_enabled("notes_delete", false).unwrap();

    // 1. Unknown: a protocol error, whatever else is wrong.
    assert_eq!(
        call(&registry, &store, &Caller::anonymous(), "nope", json!({}))
            .unwrap_err()
            .code(),
        -32602
    );
    // 2. Policy answers before the flag, the pin, confirmation and arguments.
    let stranger = Caller::anonymous().pinned(stale_pin.clone());
    assert!(
        text(call(
            &registry,
            &store,
            &stranger,
            "notes_delete",
            json!({"id": "x"})
        ))
        .contains("needs the permission `notes.delete`")
    );
    // 3. The flag answers before the pin.
    let admin = Caller::with_permissions(["notes.delete"]);
    assert_eq!(
        text(call(
            &registry,
            &store,
            &admin.clone().pinned(stale_pin.clone()),
            "notes_delete",
            json!({"id": "x"})
        )),
        DISABLED
    );
    registry.set_enabled("notes_delete", true).unwrap();
    // 4. The pin answers before confirmation.
    let refusal = text(call(
        &registry,
        &store,
        &admin.clone().pinned(stale_pin),
        "notes_delete",
        json!({"id": "x"}),
    ));
    assert!(
        refusal.starts_with("notes_delete changed since this conversation pinned it"),
        "{refusal}"
    );
    // 5. Confirmation answers before the arguments.
    let pinned = admin.clone().pinned(good_pin);
    assert!(
        text(call(
            &registry,
            &store,
            &pinned,
            "notes_delete",
            json!({"id": "x"})
        ))
        .contains("needs confirmation")
    );
    // 6. The arguments answer before the handler.
    assert!(
        text(call(
            &registry,
            &store,
            &pinned,
            "notes_delete",
            json!({"id": "x", "confirm": true})
        ))
        .starts_with("Invalid arguments for notes_delete: at `id`")
    );
    // 7. The handler answers last.
    assert_eq!(
        text(call(
            &registry,
            &store,
            &pinned,
            "notes_delete",
            json!({"id": 9, "confirm": true})
        )),
        "no note with id 9"
    );
}

#[test]
fn a_disabled_tool_is_absent_from_the_list_and_refused_and_comes_back_when_enabled() {
    let store = Store::in_memory().unwrap();
    let registry = Registry::builder(&TOOLS).store(MemoryStore::new()).build();
    assert!(registry.controls_available());
    registry.set_enabled("notes_get", false).unwrap();
    assert_eq!(registry.enabled("notes_get"), Ok(false));
    assert!(!listed(&registry, &Caller::anonymous()).contains(&"notes_get".to_owned()));
    assert_eq!(
        text(call(
            &registry,
            &store,
            &Caller::anonymous(),
            "notes_get",
            json!({"id": 1})
        )),
        "Tool is disabled on this server"
    );
    registry.set_enabled("notes_get", true).unwrap();
    assert_eq!(listed(&registry, &Caller::anonymous()).len(), 5);
}

#[test]
fn enable_flags_need_a_store_and_a_known_tool() {
    let registry = Registry::new(&TOOLS);
    assert!(!registry.controls_available());
    assert_eq!(
        registry.set_enabled("notes_get", false),
        Err(StateError::NoStore)
    );
    assert_eq!(
        registry.enabled("notes_nope"),
        Err(StateError::UnknownTool("notes_nope".into()))
    );
    let registry = Registry::builder(&TOOLS).store(MemoryStore::new()).build();
    assert_eq!(
        registry.set_enabled("notes_nope", true),
        Err(StateError::UnknownTool("notes_nope".into()))
    );
}

#[test]
fn flipping_a_flag_while_many_tasks_call_never_breaks_a_call() {
    let store = Store::in_memory().unwrap();
    let id = store.create("n", "b", &[]).unwrap().id;
    let registry = Registry::builder(&TOOLS).store(MemoryStore::new()).build();
    std::thread::scope(|scope| {
        let flipper = scope.spawn(|| {
            for i in 0..500 {
                registry.set_enabled("notes_get", i % 2 == 0).unwrap();
            }
        });
        let callers: Vec<_> = (0..8)
            .map(|_| {
                scope.spawn(|| {
                    for _ in 0..200 {
                        let result = call(
                            &registry,
                            &store,
                            &Caller::anonymous(),
                            "notes_get",
                            json!({"id": id}),
                        )
                        .unwrap();
                        if result.is_error {
                            assert_eq!(result.first_text(), Some(DISABLED));
                        } else {
                            assert_eq!(result.structured_content.unwrap()["id"], id);
                        }
                    }
                })
            })
            .collect();
        flipper.join().unwrap();
        for caller in callers {
            caller.join().unwrap();
        }
    });
}

#[test]
fn describe_lists_every_tool_for_administrators_whatever_the_caller() {
    let registry = read_only_server();
    registry.set_enabled("notes_update", false).unwrap();
    let all = registry.describe();
    assert_eq!(all.len(), 5);
    let delete = all.iter().find(|d| d.name == "notes_delete").unwrap();
    assert_eq!(delete.permission.as_deref(), Some("notes.delete"));
    assert_eq!(delete.tier, Tier::Destructive);
    assert_eq!(delete.toolset.as_deref(), Some("notes"));
    assert!(delete.enabled);
    assert!(
        !all.iter()
            .find(|d| d.name == "notes_update")
            .unwrap()
            .enabled
    );
    assert_eq!(delete.descriptor["name"], "notes_delete");
    assert_eq!(delete.source, "src/notes.rs");
}

#[test]
fn a_snapshot_pins_only_safe_closed_world_tools_on_the_allowlist() {
    let registry = Registry::new(&TOOLS);
    let pins = registry
        .snapshot(
            &Caller::anonymous(),
            &["notes_get", "notes_search", "notes_delete", "notes_create"],
        )
        .unwrap();
    let names: Vec<&str> = pins.iter().map(|(n, _)| n).collect();
    assert_eq!(names, ["notes_get", "notes_search"]);
    assert_eq!(
        pins.get("notes_get"),
        Some(TOOLS.get("notes_get").unwrap().fingerprint())
    );
    let error = registry
        .snapshot(&Caller::anonymous(), &["notes_delete"])
        .unwrap_err();
    assert!(
        error
            .to_string()
            .starts_with("no tool qualifies for pinning")
    );
}

#[test]
fn a_pinned_conversation_lists_only_its_pinned_tools() {
    let registry = Registry::new(&TOOLS);
    let pins = registry
        .snapshot(&Caller::anonymous(), &["notes_get"])
        .unwrap();
    let caller = Caller::anonymous().pinned(pins);
    assert_eq!(listed(&registry, &caller), ["notes_get"]);
    let store = Store::in_memory().unwrap();
    assert_eq!(
        text(call(
            &registry,
            &store,
            &caller,
            "notes_search",
            json!({"query": "x"})
        )),
        "notes_search is not among the tools this conversation pinned; start a new conversation to use it"
    );
}

#[test]
fn a_provider_tool_joins_the_list_and_is_called_like_a_baked_one() {
    let store = Store::in_memory().unwrap();
    let registry = with_stats("Count the notes.");
    assert_eq!(listed(&registry, &Caller::anonymous())[0], "notes_count");
    let result = call(
        &registry,
        &store,
        &Caller::anonymous(),
        "notes_count",
        json!({}),
    )
    .unwrap();
    assert_eq!(result.structured_content, Some(json!({"count": 0})));
    let described = registry.describe();
    assert_eq!(
        described
            .iter()
            .find(|d| d.name == "notes_count")
            .unwrap()
            .source,
        "provider:stats"
    );
}

#[test]
fn a_disabled_provider_is_not_registered_by_a_refresh() {
    let registry = Registry::builder(&TOOLS)
        .provider(
            Batch("stats", || vec![count_tool("notes_count", "Count.")]),
            false,
        )
        .build();
    assert_eq!(registry.refresh(), vec![]);
    assert_eq!(listed(&registry, &Caller::anonymous()).len(), 5);
}

fn assert_batch_leaves_registry_unchanged(
    batch: fn() -> Vec<ProvidedTool<Store>>,
    tool: &str,
    rule_starts: &str,
) {
    let registry = Registry::builder(&TOOLS)
        .provider(
            Batch("good", || vec![count_tool("notes_count", "Count.")]),
            true,
        )
        .build();
    assert_eq!(registry.refresh(), vec![]);
    let list_before = registry.list(&Caller::anonymous()).json.into_owned();
    let describe_before = format!("{:?}", registry.describe());
    let error = registry.register(&Batch("bad", batch)).unwrap_err();
    assert_eq!(error.provider, "bad");
    assert_eq!(error.tool, tool);
    assert!(error.rule.starts_with(rule_starts), "{}", error.rule);
    assert_eq!(registry.list(&Caller::anonymous()).json, list_before);
    assert_eq!(format!("{:?}", registry.describe()), describe_before);
}

#[test]
fn a_batch_with_a_bad_name_leaves_the_registry_byte_identical() {
    assert_batch_leaves_registry_unchanged(
        || {
            vec![
                count_tool("notes_fine", "Fine."),
                count_tool("notes bad", "Bad."),
            ]
        },
        "notes bad",
        "tool name `notes bad` contains ' '",
    );
}

#[test]
fn a_batch_that_duplicates_a_table_tool_leaves_the_registry_byte_identical() {
    assert_batch_leaves_registry_unchanged(
        || {
            vec![
                count_tool("notes_fine", "Fine."),
                count_tool("notes_get", "Shadow."),
            ]
        },
        "notes_get",
        "the name is already taken",
    );
}

#[test]
fn a_batch_that_duplicates_an_earlier_provider_leaves_the_registry_byte_identical() {
    assert_batch_leaves_registry_unchanged(
        || vec![count_tool("notes_count", "Again.")],
        "notes_count",
        "the name is already taken",
    );
}

#[test]
fn a_batch_with_a_name_twice_leaves_the_registry_byte_identical() {
    assert_batch_leaves_registry_unchanged(
        || {
            vec![
                count_tool("notes_twice", "One."),
                count_tool("notes_twice", "Two."),
            ]
        },
        "notes_twice",
        "the name appears twice in the batch",
    );
}

#[test]
fn a_batch_with_a_non_object_schema_leaves_the_registry_byte_identical() {
    assert_batch_leaves_registry_unchanged(
        || {
            let mut tool = count_tool("notes_odd", "Odd.");
            tool.input_schema = json!({"type": "array"});
            vec![tool]
        },
        "notes_odd",
        "an input schema must have `\"type\": \"object\"`",
    );
}

#[test]
fn provider_tools_must_follow_the_crate_prefixes() {
    assert_batch_leaves_registry_unchanged(
        || vec![count_tool("stats_count", "Count.")],
        "stats_count",
        "tool name `stats_count` does not start with a required prefix",
    );
}

#[test]
fn changing_a_provider_tool_after_a_snapshot_refuses_the_pinned_session_but_not_a_fresh_one() {
    let store = Store::in_memory().unwrap();
    let old = with_stats("Count the notes.");
    let pins = old
        .snapshot(&Caller::anonymous(), &["notes_count"])
        .unwrap();
    let session = Caller::anonymous().pinned(pins);
    assert!(
        !call(&old, &store, &session, "notes_count", json!({}))
            .unwrap()
            .is_error
    );

    // The provider now describes the tool differently (a redeploy, a plugin update).
    let new = with_stats("Count every note.");
    let refusal = text(call(&new, &store, &session, "notes_count", json!({})));
    assert!(
        refusal.starts_with("notes_count changed since this conversation pinned it"),
        "{refusal}"
    );
    assert!(!listed(&new, &session).contains(&"notes_count".to_owned()));
    let fresh = Caller::anonymous().pinned(
        new.snapshot(&Caller::anonymous(), &["notes_count"])
            .unwrap(),
    );
    assert!(
        !call(&new, &store, &fresh, "notes_count", json!({}))
            .unwrap()
            .is_error
    );
}

#[test]
fn a_refresh_never_replaces_a_registered_tool() {
    let registry = Registry::builder(&TOOLS)
        .provider(
            Batch("stats", || vec![count_tool("notes_count", "Count.")]),
            true,
        )
        .build();
    assert_eq!(registry.refresh(), vec![]);
    let before = registry.list(&Caller::anonymous()).json.into_owned();
    assert_eq!(registry.refresh(), vec![]);
    assert_eq!(registry.list(&Caller::anonymous()).json, before);
    assert!(
        registry
            .register(&Batch("stats", || vec![count_tool(
                "notes_count2",
                "Count."
            )]))
            .is_err()
    );
}

#[test]
fn a_provider_tool_s_arguments_are_checked_against_its_input_schema() {
    let store = Store::in_memory().unwrap();
    let registry = Registry::new(&TOOLS);
    struct Echo;
    impl Provider<Store> for Echo {
        fn name(&self) -> &str {
            "echo"
        }
        fn tools(&self) -> Vec<ProvidedTool<Store>> {
            let mut tool =
                ProvidedTool::new("notes_echo", Tier::Read, "Echo a number.", echo_handler());
            tool.input_schema = json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"], "additionalProperties": false});
            vec![tool]
        }
    }
    registry.register(&Echo).unwrap();
    let refusal = text(call(
        &registry,
        &store,
        &Caller::anonymous(),
        "notes_echo",
        json!({"n": "x"}),
    ));
    assert!(
        refusal.starts_with("Invalid arguments for notes_echo: at `/n`"),
        "{refusal}"
    );
    let ok = call(
        &registry,
        &store,
        &Caller::anonymous(),
        "notes_echo",
        json!({"n": 3}),
    )
    .unwrap();
    assert_eq!(ok.structured_content, Some(json!({"n": 3})));
}

#[test]
fn a_provider_tool_that_panics_is_answered_generically() {
    let store = Store::in_memory().unwrap();
    let registry = Registry::new(&TOOLS);
    let boom = ProvidedTool::new(
        "notes_boom",
        Tier::Read,
        "Panics.",
        handler(|_: &Store, _| -> BoxFuture<'_, Outcome> {
            Box::pin(async { panic!("secret internal detail") })
        }),
    );
    struct One(std::sync::Mutex<Option<ProvidedTool<Store>>>);
    impl Provider<Store> for One {
        fn name(&self) -> &str {
            "one"
        }
        fn tools(&self) -> Vec<ProvidedTool<Store>> {
            self.0.lock().unwrap().take().into_iter().collect()
        }
    }
    registry
        .register(&One(std::sync::Mutex::new(Some(boom))))
        .unwrap();
    let result = call(
        &registry,
        &store,
        &Caller::anonymous(),
        "notes_boom",
        json!({}),
    )
    .unwrap();
    assert!(result.is_error);
    assert_eq!(
        result.first_text(),
        Some("Tool execution failed; consult the server log.")
    );
}

#[test]
fn declarations_travel_under_the_namespace_key_and_the_bag_is_omitted_when_empty() {
    let registry = Registry::new(&TOOLS);
    let mut tool = ProvidedTool::new("notes_echo", Tier::Read, "Echo.", echo_handler());
    tool.declarations
        .insert("audience".into(), json!("internal"));
    let shared = Arc::new(std::sync::Mutex::new(Some(tool)));
    struct Shared(Arc<std::sync::Mutex<Option<ProvidedTool<Store>>>>);
    impl Provider<Store> for Shared {
        fn name(&self) -> &str {
            "echo"
        }
        fn tools(&self) -> Vec<ProvidedTool<Store>> {
            self.0.lock().unwrap().take().into_iter().collect()
        }
    }
    registry.register(&Shared(shared)).unwrap();
    let echo = registry.get("notes_echo").unwrap().descriptor();
    assert_eq!(
        echo["_meta"],
        json!({"dev.tooltable.notes/declarations": {"audience": "internal"}})
    );
    let get = registry.get("notes_get").unwrap().descriptor();
    assert!(get.get("_meta").is_none());
    assert!(get.get("annotations").is_some());
}
