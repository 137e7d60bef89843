//! The registry over a baked table: the safe default, policy, enable
//! flags, the call order, administration, pins, providers and declarations.

use crate::common;

use common::block_on;

use serde_json::{Map, Value, json};
use std::sync::Arc;
use tooltable_fixture::{Shelf, TOOLS};
use tooltable_runtime::Call;
use tooltable_runtime::Caller;
use tooltable_runtime::Fingerprint;
use tooltable_runtime::Registry;
use tooltable_runtime::policy::Consent;
use tooltable_runtime::policy::MaxTier;
use tooltable_runtime::provider::handler;
use tooltable_runtime::provider::{Arguments, BoxFuture, Outcome, Output};
use tooltable_runtime::provider::{ProvidedTool, Provider};
use tooltable_runtime::registry::Pins;
use tooltable_runtime::registry::{FlagError, MemoryStore};
use tooltable_runtime::{CallError, CallToolResult};
use tooltable_runtime::{Tier, World};

/// What a call to a disabled tool answers, as docs/serving.md promises.
const DISABLED: &str = "Tool is disabled on this server";

fn args(value: Value) -> Map<String, Value> {
    value.as_object().cloned().unwrap_or_default()
}

fn call(
    registry: &Registry<Shelf>,
    store: &Shelf,
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

fn listed(registry: &Registry<Shelf>, caller: &Caller) -> Vec<String> {
    let list: Vec<Value> = serde_json::from_str(&registry.list(caller).json).unwrap();
    list.iter()
        .map(|d| d["name"].as_str().unwrap().to_owned())
        .collect()
}

fn read_only_server() -> Registry<Shelf> {
    Registry::builder(&TOOLS)
        .max_tier(
            MaxTier::new(Tier::Read)
                .switch(Tier::Write, "start the server with --allow-write")
                .switch(
                    Tier::Destructive,
                    "start the server with --allow-destructive",
                ),
        )
        .store(MemoryStore::new())
        .build()
}

/// A registry that serves every tier, with `policy` and a flag store.
fn everything() -> tooltable_runtime::registry::RegistryBuilder<Shelf> {
    Registry::builder(&TOOLS).max_tier(Tier::Destructive)
}

/// A provider that offers the tools it was built with.
struct Batch(&'static str, fn() -> Vec<ProvidedTool<Shelf>>);

impl Provider<Shelf> for Batch {
    fn name(&self) -> &str {
        self.0
    }
    fn tools(&self) -> Vec<ProvidedTool<Shelf>> {
        (self.1)()
    }
}

/// A registry over the table with the `stats` provider registered, whose
/// one tool `items_count` has this description.
fn with_stats(description: &'static str) -> Registry<Shelf> {
    let registry = Registry::builder(&TOOLS).build();
    struct Stats(&'static str);
    impl Provider<Shelf> for Stats {
        fn name(&self) -> &str {
            "stats"
        }
        fn tools(&self) -> Vec<ProvidedTool<Shelf>> {
            vec![count_tool("items_count", self.0)]
        }
    }
    registry
        .register(&Stats(description))
        .expect("the stats provider registers");
    registry
}

fn echo_handler() -> tooltable_runtime::provider::DynHandler<Shelf> {
    handler(
        |_store: &Shelf, arguments: Arguments, _call: &Call| -> BoxFuture<'_, Outcome> {
            Box::pin(async move { Ok(Output::Structured(Value::Object(arguments))) })
        },
    )
}

fn count_tool(name: &str, description: &str) -> ProvidedTool<Shelf> {
    let mut tool = ProvidedTool::new(
        name,
        Tier::Read,
        description,
        handler(|store: &Shelf, _, _: &Call| -> BoxFuture<'_, Outcome> {
            let count = store.count();
            Box::pin(async move { Ok(Output::Structured(json!({"count": count}))) })
        }),
    );
    tool.world = World::Closed;
    tool.output_schema = Some(
        json!({"type": "object", "properties": {"count": {"type": "integer"}}, "required": ["count"]}),
    );
    tool
}

#[test]
fn an_unfiltered_caller_gets_the_bytes_baked_at_build_time() {
    let registry = everything().build();
    let listing = registry.list(&Caller::operator());
    assert!(matches!(listing.json, std::borrow::Cow::Borrowed(_)));
    assert_eq!(listing.json, TOOLS.list_json());
    assert_eq!(listing.count, 14);
}

#[test]
fn a_registry_nobody_configured_serves_read_tools_only() {
    let registry = Registry::new(&TOOLS);
    assert_eq!(registry.max_tier(), Tier::Read);
    assert_eq!(
        listed(&registry, &Caller::operator()),
        [
            "items_fault",
            "items_get",
            "items_greet",
            "items_label",
            "items_link_account",
            "items_list",
            "items_pause",
            "items_progress",
            "items_put_and_name",
            "items_survey",
            "items_wait"
        ]
    );
    let shelf = Shelf::new();
    let refusal = text(call(
        &registry,
        &shelf,
        &Caller::with_permissions(["items.write"]),
        "items_create",
        json!({"name": "x"}),
    ));
    assert_eq!(
        refusal,
        "items_create is a write tool, but this server allows tools up to read only; raise the server's maximum tier to write to allow it"
    );
    assert_eq!(shelf.count(), 0);
}

#[test]
fn raising_the_tier_is_one_call_and_a_raised_registry_serves_the_baked_bytes() {
    let registry = Registry::builder(&TOOLS).max_tier(Tier::Write).build();
    assert_eq!(
        listed(&registry, &Caller::operator()),
        [
            "items_create",
            "items_fault",
            "items_get",
            "items_greet",
            "items_label",
            "items_link_account",
            "items_list",
            "items_pause",
            "items_progress",
            "items_put_and_name",
            "items_rename",
            "items_survey",
            "items_wait"
        ]
    );
    assert!(!registry.is_unrestricted());
    let raised = everything().build();
    assert_eq!(
        raised.list(&Caller::operator()).json,
        TOOLS.list_json(),
        "the operator, who holds every permission, gets the baked bytes"
    );
    assert!(
        !raised.is_unrestricted(),
        "a token holder may lack a permission a tool declares"
    );
}

#[test]
fn a_caller_sees_and_calls_only_the_tools_whose_permissions_it_holds() {
    let store = Shelf::new();
    let item = store.put("lamp");
    let registry = everything().consent(Consent::person_or_argument()).build();
    let reader = Caller::with_permissions(["items.write"]);
    assert!(!listed(&registry, &reader).contains(&"items_destroy".to_owned()));
    assert_eq!(
        text(call(
            &registry,
            &store,
            &reader,
            "items_destroy",
            json!({"id": item.id, "confirm": true})
        )),
        "items_destroy needs the permission `items.delete`, which this caller has not been granted; ask for it to be granted"
    );
    assert_eq!(store.count(), 1);
    assert!(listed(&registry, &Caller::operator()).contains(&"items_destroy".to_owned()));
}

#[test]
fn the_policy_hides_tools_from_the_list_in_name_order() {
    let registry = read_only_server();
    assert_eq!(
        listed(&registry, &Caller::operator()),
        [
            "items_fault",
            "items_get",
            "items_greet",
            "items_label",
            "items_link_account",
            "items_list",
            "items_pause",
            "items_progress",
            "items_put_and_name",
            "items_survey",
            "items_wait"
        ]
    );
    let registry = everything().build();
    assert_eq!(
        listed(&registry, &Caller::with_permissions(["items.write"])),
        [
            "items_create",
            "items_fault",
            "items_get",
            "items_greet",
            "items_label",
            "items_link_account",
            "items_list",
            "items_pause",
            "items_progress",
            "items_put_and_name",
            "items_rename",
            "items_survey",
            "items_wait"
        ]
    );
}

#[test]
fn a_hidden_tool_is_refused_with_a_reason_naming_the_switch() {
    let store = Shelf::new();
    let refusal = text(call(
        &read_only_server(),
        &store,
        &Caller::operator(),
        "items_destroy",
        json!({"id": 1, "confirm": true}),
    ));
    assert_eq!(
        refusal,
        "items_destroy is destructive, but this server allows tools up to read only; start the server with --allow-destructive to allow it"
    );
}

#[test]
fn a_concealing_registry_answers_a_hidden_tool_exactly_as_an_unknown_one() {
    let store = Shelf::new();
    let registry = Registry::builder(&TOOLS).conceal_hidden_tools(true).build();
    let hidden = call(
        &registry,
        &store,
        &Caller::operator(),
        "items_destroy",
        json!({}),
    )
    .unwrap_err();
    let unknown = call(
        &registry,
        &store,
        &Caller::operator(),
        "items_nothing",
        json!({}),
    )
    .unwrap_err();
    assert_eq!(hidden, CallError::unknown_tool("items_destroy"));
    assert_eq!(unknown.code(), hidden.code());
}

#[test]
fn the_call_order_is_unknown_then_policy_then_enabled_then_pin_then_arguments_then_consent_then_handler()
 {
    let store = Shelf::new();
    let registry = everything()
        .consent(Consent::person_or_argument())
        .store(MemoryStore::new())
        .build();
    let delete_fp = *TOOLS.get("items_destroy").unwrap().fingerprint();
    let stale_pin =
        Pins::new([("items_destroy".to_owned(), Fingerprint::from_bytes([7; 32]))]).unwrap();
    let good_pin = Pins::new([("items_destroy".to_owned(), delete_fp)]).unwrap();
    registry.set_enabled("items_destroy", false).unwrap();

    // 1. Unknown: a protocol error, whatever else is wrong.
    assert_eq!(
        call(&registry, &store, &Caller::operator(), "nope", json!({}))
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
            "items_destroy",
            json!({"id": "x"})
        ))
        .contains("needs the permission `items.delete`")
    );
    // 3. The flag answers before the pin.
    let admin = Caller::with_permissions(["items.delete"]);
    assert_eq!(
        text(call(
            &registry,
            &store,
            &admin.clone().pinned(stale_pin.clone()),
            "items_destroy",
            json!({"id": "x"})
        )),
        DISABLED
    );
    registry.set_enabled("items_destroy", true).unwrap();
    // 4. The pin answers before confirmation.
    let refusal = text(call(
        &registry,
        &store,
        &admin.clone().pinned(stale_pin),
        "items_destroy",
        json!({"id": "x"}),
    ));
    assert!(
        refusal.starts_with("items_destroy changed since this conversation pinned it"),
        "{refusal}"
    );
    // 5. The arguments answer before consent.
    let pinned = admin.clone().pinned(good_pin);
    assert!(
        text(call(
            &registry,
            &store,
            &pinned,
            "items_destroy",
            json!({"id": "x", "confirm": true})
        ))
        .starts_with("Invalid arguments for items_destroy: at `id`, invalid type")
    );
    // 6. Consent answers before the handler.
    assert!(
        text(call(
            &registry,
            &store,
            &pinned,
            "items_destroy",
            json!({"id": 9})
        ))
        .contains("needs confirmation")
    );
    // 7. The handler answers last.
    assert_eq!(
        text(call(
            &registry,
            &store,
            &pinned,
            "items_destroy",
            json!({"id": 9, "confirm": true})
        )),
        "no item with id 9"
    );
}

#[test]
fn a_disabled_tool_is_absent_from_the_list_and_refused_and_comes_back_when_enabled() {
    let store = Shelf::new();
    let registry = everything().store(MemoryStore::new()).build();
    assert!(registry.controls_available());
    registry.set_enabled("items_get", false).unwrap();
    assert_eq!(registry.enabled("items_get"), Ok(false));
    assert!(!listed(&registry, &Caller::operator()).contains(&"items_get".to_owned()));
    assert_eq!(
        text(call(
            &registry,
            &store,
            &Caller::operator(),
            "items_get",
            json!({"id": 1})
        )),
        "Tool is disabled on this server"
    );
    registry.set_enabled("items_get", true).unwrap();
    assert_eq!(listed(&registry, &Caller::operator()).len(), 14);
}

#[test]
fn enable_flags_need_a_store_and_a_known_tool() {
    let registry = Registry::new(&TOOLS);
    assert!(!registry.controls_available());
    assert_eq!(
        registry.set_enabled("items_get", false),
        Err(FlagError::NoStore)
    );
    assert_eq!(
        registry.enabled("items_nope"),
        Err(FlagError::UnknownTool("items_nope".into()))
    );
    let registry = Registry::builder(&TOOLS).store(MemoryStore::new()).build();
    assert_eq!(
        registry.set_enabled("items_nope", true),
        Err(FlagError::UnknownTool("items_nope".into()))
    );
}

#[test]
fn flipping_a_flag_while_many_tasks_call_never_breaks_a_call() {
    let store = Shelf::new();
    let id = store.put("n").id;
    let registry = Registry::builder(&TOOLS).store(MemoryStore::new()).build();
    std::thread::scope(|scope| {
        let flipper = scope.spawn(|| {
            for i in 0..500 {
                registry.set_enabled("items_get", i % 2 == 0).unwrap();
            }
        });
        let callers: Vec<_> = (0..8)
            .map(|_| {
                scope.spawn(|| {
                    for _ in 0..200 {
                        let result = call(
                            &registry,
                            &store,
                            &Caller::operator(),
                            "items_get",
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
    registry.set_enabled("items_rename", false).unwrap();
    let all = registry.describe();
    assert_eq!(all.len(), 14);
    let delete = all.iter().find(|d| d.name == "items_destroy").unwrap();
    assert_eq!(delete.permission.as_deref(), Some("items.delete"));
    assert_eq!(delete.tier, Tier::Destructive);
    assert_eq!(delete.toolset.as_deref(), Some("items"));
    assert!(delete.enabled);
    assert!(
        !all.iter()
            .find(|d| d.name == "items_rename")
            .unwrap()
            .enabled
    );
    assert_eq!(delete.descriptor["name"], "items_destroy");
    assert_eq!(delete.source, "src/items.rs");
}

#[test]
fn a_snapshot_pins_only_safe_closed_world_tools_on_the_allowlist() {
    let registry = everything().build();
    let pins = registry
        .snapshot(
            &Caller::operator(),
            &["items_get", "items_list", "items_destroy", "items_create"],
        )
        .unwrap();
    let names: Vec<&str> = pins.iter().map(|(n, _)| n).collect();
    assert_eq!(names, ["items_get"], "items_list reaches an open world");
    let open = everything().pin_open_world("items_list").build();
    let pins = open
        .snapshot(&Caller::operator(), &["items_get", "items_list"])
        .unwrap();
    assert_eq!(pins.len(), 2);
    assert_eq!(
        pins.get("items_get"),
        Some(TOOLS.get("items_get").unwrap().fingerprint())
    );
    let error = registry
        .snapshot(&Caller::operator(), &["items_destroy"])
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
        .snapshot(&Caller::operator(), &["items_get"])
        .unwrap();
    let caller = Caller::operator().pinned(pins);
    assert_eq!(listed(&registry, &caller), ["items_get"]);
    let store = Shelf::new();
    assert_eq!(
        text(call(
            &registry,
            &store,
            &caller,
            "items_list",
            json!({"query": "x"})
        )),
        "items_list is not among the tools this conversation pinned; start a new conversation to use it"
    );
}

#[test]
fn a_provider_tool_joins_the_list_and_is_called_like_a_baked_one() {
    let store = Shelf::new();
    let registry = with_stats("Count the items.");
    assert_eq!(listed(&registry, &Caller::operator())[0], "items_count");
    let result = call(
        &registry,
        &store,
        &Caller::operator(),
        "items_count",
        json!({}),
    )
    .unwrap();
    assert_eq!(result.structured_content, Some(json!({"count": 0})));
    let described = registry.describe();
    assert_eq!(
        described
            .iter()
            .find(|d| d.name == "items_count")
            .unwrap()
            .source,
        "provider:stats"
    );
}

#[test]
fn a_disabled_provider_is_not_registered_by_a_refresh() {
    let registry = everything()
        .provider(
            Batch("stats", || vec![count_tool("items_count", "Count.")]),
            false,
        )
        .build();
    assert_eq!(registry.refresh(), vec![]);
    assert_eq!(listed(&registry, &Caller::operator()).len(), 14);
}

fn assert_batch_leaves_registry_unchanged(
    batch: fn() -> Vec<ProvidedTool<Shelf>>,
    tool: &str,
    rule_starts: &str,
) {
    let registry = Registry::builder(&TOOLS)
        .provider(
            Batch("good", || vec![count_tool("items_count", "Count.")]),
            true,
        )
        .build();
    assert_eq!(registry.refresh(), vec![]);
    let list_before = registry.list(&Caller::operator()).json.into_owned();
    let describe_before = format!("{:?}", registry.describe());
    let error = registry.register(&Batch("bad", batch)).unwrap_err();
    assert_eq!(error.provider, "bad");
    assert_eq!(error.tool, tool);
    assert!(error.rule.starts_with(rule_starts), "{}", error.rule);
    assert_eq!(registry.list(&Caller::operator()).json, list_before);
    assert_eq!(format!("{:?}", registry.describe()), describe_before);
}

#[test]
fn a_batch_with_a_bad_name_leaves_the_registry_byte_identical() {
    assert_batch_leaves_registry_unchanged(
        || {
            vec![
                count_tool("items_fine", "Fine."),
                count_tool("notes bad", "Bad."),
            ]
        },
        "notes bad",
        "tool name `notes bad` contains ' '",
    );
}

#[test]
fn a_batch_with_an_x_mcp_header_clients_would_drop_is_refused_by_the_same_rule_as_the_build() {
    assert_batch_leaves_registry_unchanged(
        || {
            let mut mirrored = ProvidedTool::new("items_near", Tier::Read, "Near.", echo_handler());
            mirrored.input_schema = json!({"type": "object", "properties": {
                "ratio": {"type": "number", "x-mcp-header": "Ratio"}
            }});
            vec![count_tool("items_fine", "Fine."), mirrored]
        },
        "items_near",
        "at `/properties/ratio`, `x-mcp-header: Ratio` stands on a `number`",
    );
}

#[test]
fn a_batch_that_duplicates_a_table_tool_leaves_the_registry_byte_identical() {
    assert_batch_leaves_registry_unchanged(
        || {
            vec![
                count_tool("items_fine", "Fine."),
                count_tool("items_get", "Shadow."),
            ]
        },
        "items_get",
        "the name is already taken",
    );
}

#[test]
fn a_batch_that_duplicates_an_earlier_provider_leaves_the_registry_byte_identical() {
    assert_batch_leaves_registry_unchanged(
        || vec![count_tool("items_count", "Again.")],
        "items_count",
        "the name is already taken",
    );
}

#[test]
fn a_batch_with_a_name_twice_leaves_the_registry_byte_identical() {
    assert_batch_leaves_registry_unchanged(
        || {
            vec![
                count_tool("items_twice", "One."),
                count_tool("items_twice", "Two."),
            ]
        },
        "items_twice",
        "the name appears twice in the batch",
    );
}

#[test]
fn a_batch_with_a_non_object_schema_leaves_the_registry_byte_identical() {
    assert_batch_leaves_registry_unchanged(
        || {
            let mut tool = count_tool("items_odd", "Odd.");
            tool.input_schema = json!({"type": "array"});
            vec![tool]
        },
        "items_odd",
        "an input schema must have `\"type\": \"object\"`",
    );
}

#[test]
fn a_batch_with_a_search_hint_of_two_lines_is_refused_by_the_same_rule_as_the_build() {
    assert_batch_leaves_registry_unchanged(
        || {
            let mut hinted = count_tool("items_hinted", "Hinted.");
            hinted.search_hint = Some("count\ntally".into());
            vec![count_tool("items_fine", "Fine."), hinted]
        },
        "items_hinted",
        "its search hint cannot be served: a search hint is one line of words, but character 6 is `\\n`",
    );
}

#[test]
fn a_batch_with_a_tool_a_named_client_cannot_take_is_refused_by_the_same_rule_as_the_build() {
    assert_batch_leaves_registry_unchanged(
        || {
            let long = format!("items_{}", "x".repeat(47));
            vec![
                count_tool("items_fine", "Fine."),
                count_tool(&long, "Long."),
            ]
        },
        &format!("items_{}", "x".repeat(47)),
        "it does not fit `cursor`: the server's name `fixture` and the tool's name",
    );
}

#[test]
fn a_client_rule_the_crate_lowered_to_a_warning_does_not_refuse_a_provided_tool() {
    let registry = Registry::new(&TOOLS);
    // An array without `items`: VS Code's VS4, which the fixture lowers to a warning.
    let pairs = Batch("pairs", || {
        let mut tuple = ProvidedTool::new("items_pair", Tier::Read, "Pair.", echo_handler());
        tuple.input_schema = json!({"type": "object", "properties": {
            "pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}]}
        }});
        vec![tuple]
    });
    assert_eq!(registry.register(&pairs).unwrap(), 1);
    assert!(registry.get("items_pair").is_some());
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
    let store = Shelf::new();
    let old = with_stats("Count the items.");
    let pins = old.snapshot(&Caller::operator(), &["items_count"]).unwrap();
    let session = Caller::operator().pinned(pins);
    assert!(
        !call(&old, &store, &session, "items_count", json!({}))
            .unwrap()
            .is_error
    );

    // The provider now describes the tool differently (a redeploy, a plugin update).
    let new = with_stats("Count every item.");
    let refusal = text(call(&new, &store, &session, "items_count", json!({})));
    assert!(
        refusal.starts_with("items_count changed since this conversation pinned it"),
        "{refusal}"
    );
    assert!(!listed(&new, &session).contains(&"items_count".to_owned()));
    let fresh =
        Caller::operator().pinned(new.snapshot(&Caller::operator(), &["items_count"]).unwrap());
    assert!(
        !call(&new, &store, &fresh, "items_count", json!({}))
            .unwrap()
            .is_error
    );
}

#[test]
fn a_refresh_never_replaces_a_registered_tool() {
    let registry = Registry::builder(&TOOLS)
        .provider(
            Batch("stats", || vec![count_tool("items_count", "Count.")]),
            true,
        )
        .build();
    assert_eq!(registry.refresh(), vec![]);
    let before = registry.list(&Caller::operator()).json.into_owned();
    assert_eq!(registry.refresh(), vec![]);
    assert_eq!(registry.list(&Caller::operator()).json, before);
    assert!(
        registry
            .register(&Batch("stats", || vec![count_tool(
                "items_count2",
                "Count."
            )]))
            .is_err()
    );
}

#[test]
fn a_provider_tool_s_arguments_are_checked_against_its_input_schema() {
    let store = Shelf::new();
    let registry = Registry::new(&TOOLS);
    struct Echo;
    impl Provider<Shelf> for Echo {
        fn name(&self) -> &str {
            "echo"
        }
        fn tools(&self) -> Vec<ProvidedTool<Shelf>> {
            let mut tool =
                ProvidedTool::new("items_echo", Tier::Read, "Echo a number.", echo_handler());
            tool.input_schema = json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"], "additionalProperties": false});
            vec![tool]
        }
    }
    registry.register(&Echo).unwrap();
    let refusal = text(call(
        &registry,
        &store,
        &Caller::operator(),
        "items_echo",
        json!({"n": "x"}),
    ));
    assert!(
        refusal.starts_with("Invalid arguments for items_echo: at `/n`"),
        "{refusal}"
    );
    let ok = call(
        &registry,
        &store,
        &Caller::operator(),
        "items_echo",
        json!({"n": 3}),
    )
    .unwrap();
    assert_eq!(ok.structured_content, Some(json!({"n": 3})));
}

#[test]
fn a_provider_tool_that_panics_is_answered_generically() {
    let store = Shelf::new();
    let registry = Registry::new(&TOOLS);
    let boom = ProvidedTool::new(
        "items_boom",
        Tier::Read,
        "Panics.",
        handler(|_: &Shelf, _, _: &Call| -> BoxFuture<'_, Outcome> {
            Box::pin(async { panic!("secret internal detail") })
        }),
    );
    struct One(std::sync::Mutex<Option<ProvidedTool<Shelf>>>);
    impl Provider<Shelf> for One {
        fn name(&self) -> &str {
            "one"
        }
        fn tools(&self) -> Vec<ProvidedTool<Shelf>> {
            self.0.lock().unwrap().take().into_iter().collect()
        }
    }
    registry
        .register(&One(std::sync::Mutex::new(Some(boom))))
        .unwrap();
    let result = call(
        &registry,
        &store,
        &Caller::operator(),
        "items_boom",
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
fn declarations_a_search_hint_and_the_always_listed_mark_travel_in_meta_and_the_bag_is_omitted_when_empty()
 {
    let registry = Registry::new(&TOOLS);
    let mut tool = ProvidedTool::new("items_echo", Tier::Read, "Echo.", echo_handler());
    tool.declarations
        .insert("audience".into(), json!("internal"));
    tool.search_hint = Some("repeat parrot".into());
    tool.always_listed = true;
    let shared = Arc::new(std::sync::Mutex::new(Some(tool)));
    struct Shared(Arc<std::sync::Mutex<Option<ProvidedTool<Shelf>>>>);
    impl Provider<Shelf> for Shared {
        fn name(&self) -> &str {
            "echo"
        }
        fn tools(&self) -> Vec<ProvidedTool<Shelf>> {
            self.0.lock().unwrap().take().into_iter().collect()
        }
    }
    registry.register(&Shared(shared)).unwrap();
    let echo = registry.get("items_echo").unwrap().descriptor();
    assert_eq!(
        echo["_meta"],
        json!({
            "dev.tooltable.fixture/declarations": {"audience": "internal"},
            "anthropic/searchHint": "repeat parrot",
            "anthropic/alwaysLoad": true,
        })
    );
    assert!(registry.get("items_echo").unwrap().info().always_listed);
    let get = registry.get("items_rename").unwrap().descriptor();
    assert!(get.get("_meta").is_none());
    assert!(get.get("annotations").is_some());
}

#[test]
fn a_person_only_registry_refuses_a_client_that_cannot_ask_even_with_confirm_true() {
    let store = Shelf::new();
    let item = store.put("lamp");
    let registry = everything()
        .consent(Consent::person().switch("start the server with --confirm-by-argument"))
        .build();
    let refusal = text(call(
        &registry,
        &store,
        &Caller::operator(),
        "items_destroy",
        json!({"id": item.id, "confirm": true}),
    ));
    assert_eq!(
        refusal,
        "items_destroy destroys the item for good, so a person must allow it, but this client cannot ask its user (it did not declare the elicitation capability); nothing was done. To let such clients confirm with `confirm: true`, start the server with --confirm-by-argument."
    );
    assert_eq!(store.count(), 1, "the refused call changed the shelf");
}

#[test]
fn a_registry_that_accepts_the_argument_runs_a_call_confirmed_with_confirm_true() {
    let store = Shelf::new();
    let item = store.put("lamp");
    let registry = everything().consent(Consent::person_or_argument()).build();
    let refusal = text(call(
        &registry,
        &store,
        &Caller::operator(),
        "items_destroy",
        json!({"id": item.id, "confirm": false}),
    ));
    assert!(
        refusal.contains("call it again with `confirm: true`"),
        "{refusal}"
    );
    assert_eq!(store.count(), 1);
    let done = call(
        &registry,
        &store,
        &Caller::operator(),
        "items_destroy",
        json!({"id": item.id, "confirm": true}),
    )
    .unwrap();
    assert!(!done.is_error, "{:?}", done.first_text());
    assert_eq!(store.count(), 0);
}

#[test]
fn a_kept_filtered_listing_follows_later_flags_and_providers() {
    let registry = Registry::builder(&TOOLS).store(MemoryStore::new()).build();
    let names = |registry: &Registry<Shelf>| -> Vec<String> {
        let list: Vec<Value> =
            serde_json::from_str(&registry.list(&Caller::operator()).json).unwrap();
        list.iter()
            .map(|tool| tool["name"].as_str().unwrap().to_owned())
            .collect()
    };
    let read_tier = names(&registry);
    assert!(read_tier.contains(&"items_get".to_owned()));
    registry.set_enabled("items_get", false).unwrap();
    let without = names(&registry);
    assert!(!without.contains(&"items_get".to_owned()), "{without:?}");
    registry.set_enabled("items_get", true).unwrap();
    assert_eq!(
        names(&registry),
        read_tier,
        "the kept read-tier listing is reused"
    );
    registry
        .register(&Batch("stats", || {
            vec![count_tool("items_count", "Counts.")]
        }))
        .unwrap();
    let with_provider = names(&registry);
    assert!(
        with_provider.contains(&"items_count".to_owned()),
        "{with_provider:?}"
    );
    assert_eq!(with_provider.len(), read_tier.len() + 1);
}
