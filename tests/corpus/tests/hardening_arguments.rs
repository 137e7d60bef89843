//! Arguments from anyone, for every tool of the corpus.
//!
//! A client may send any JSON as a tool's arguments. For each of the
//! corpus's tools (every parameter type, every construct the build lowers),
//! arguments are generated from its published input schema and around it:
//! properties present and missing, numbers and lengths at, inside and just
//! past their bounds, formats and patterns, alternatives, and at every
//! place a small chance of arbitrary JSON instead. Every call ends in a
//! result, never a panic: not in the call (proptest fails a case that
//! panics), and not in a handler either, where the runtime would catch it
//! and answer with its generic failure (a panic hook counts them). A
//! refused call is `isError` with a sentence and no structured content.
//! Each tool also gets a fixed set of hostile arguments (huge, long, deep).
//! Cases: 256, or `PROPTEST_CASES`.

use proptest::prelude::*;
use proptest::strategy::Union;
use serde_json::{Map, Number, Value};
use std::cell::Cell;
use std::future::Future;
use std::pin::pin;
use std::sync::Once;
use std::task::{Context, Poll, Waker};
use tooltable_corpus::TOOLS;

fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(256);
    ProptestConfig::with_cases(cases)
}

/// The corpus's handlers are synchronous, so their futures are ready at once.
fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(value) = future.as_mut().poll(&mut cx) {
            return value;
        }
    }
}

thread_local! {
    /// The panics on this thread so far, caught or not.
    static PANICS: Cell<usize> = const { Cell::new(0) };
}

/// Counts every panic in [`PANICS`], then reports it as usual.
fn count_panics() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let report = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            PANICS.with(|n| n.set(n.get() + 1));
            report(info);
        }));
    });
}

fn arbitrary() -> BoxedStrategy<Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_filter_map("finite", |f| Number::from_f64(f).map(Value::Number)),
        "\\PC{0,8}".prop_map(Value::String),
    ];
    leaf.prop_recursive(2, 12, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("\\PC{0,6}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
    .boxed()
}

/// An integer as JSON, however large.
fn integer(n: i128) -> Value {
    if let Ok(n) = i64::try_from(n) {
        Value::from(n)
    } else if let Ok(n) = u64::try_from(n) {
        Value::from(n)
    } else {
        Number::from_f64(n as f64).map_or(Value::Null, Value::Number)
    }
}

fn bound(schema: &Value, key: &str) -> Option<f64> {
    schema.get(key).and_then(Value::as_f64)
}

/// Integers at, inside and just past the schema's bounds, and anywhere.
fn integers(schema: &Value) -> BoxedStrategy<Value> {
    let mut edges: Vec<i128> = vec![0, 1, -1, i64::MIN.into(), i64::MAX.into(), u64::MAX.into()];
    for key in ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"] {
        if let Some(b) = bound(schema, key) {
            let b = b as i128;
            edges.extend([b - 1, b, b + 1]);
        }
    }
    prop_oneof![
        3 => proptest::sample::select(edges).prop_map(integer),
        1 => any::<i64>().prop_map(Value::from),
        // A whole number written as a float, which a schema's `integer` admits.
        1 => (-1000i32..1000).prop_map(|n| Number::from_f64(f64::from(n)).map_or(Value::Null, Value::Number)),
    ]
    .boxed()
}

fn numbers(schema: &Value) -> BoxedStrategy<Value> {
    let mut edges = vec![
        0.0,
        -0.0,
        0.5,
        1e308,
        -1e308,
        f64::from(f32::MAX) * 2.0,
        1e-310,
    ];
    for key in ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"] {
        if let Some(b) = bound(schema, key) {
            edges.extend([b - 1e-9, b, b + 1e-9, b - 1.0, b + 1.0]);
        }
    }
    prop_oneof![
        3 => proptest::sample::select(edges),
        1 => any::<f64>(),
    ]
    .prop_filter_map("finite", |f| Number::from_f64(f).map(Value::Number))
    .boxed()
}

/// Lengths at, inside and just past `min_key`..`max_key`.
fn lengths(schema: &Value, min_key: &str, max_key: &str) -> BoxedStrategy<usize> {
    let min = schema.get(min_key).and_then(Value::as_u64).unwrap_or(0) as usize;
    let max = schema
        .get(max_key)
        .and_then(Value::as_u64)
        .map(|m| m as usize);
    let mut edges = vec![min, min + 1, min.saturating_sub(1)];
    if let Some(max) = max {
        edges.extend([max, max + 1, max.saturating_sub(1)]);
    }
    let top = max.map_or(min + 4, |m| m + 1).min(min + 8);
    prop_oneof![proptest::sample::select(edges), min.min(top)..=top,]
        .prop_map(|n| n.min(64))
        .boxed()
}

fn strings(schema: &Value) -> BoxedStrategy<Value> {
    let mut options: Vec<BoxedStrategy<String>> = Vec::new();
    if let Some(pattern) = schema.get("pattern").and_then(Value::as_str)
        && let Ok(matching) = proptest::string::string_regex(pattern)
    {
        options.push(matching.boxed());
    }
    if let Some(format) = schema.get("format").and_then(Value::as_str) {
        let samples: &[&str] = match format {
            "date-time" => &[
                "2024-02-29T12:00:00Z",
                "2024-13-01T00:00:00Z",
                "2024-01-01T00:00:00+25:00",
            ],
            "date" => &["2024-02-29", "2023-02-29", "2024-1-1"],
            "time" => &["23:59:60Z", "12:00:00", "24:00:00Z"],
            "uuid" => &[
                "67e55044-10b1-426f-9247-bb680e5fe0c8",
                "67e55044-10b1-426f-9247",
                "zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz",
            ],
            "uri" => &["https://example.com/a?b=c", "not a uri", "mailto:x@y"],
            "email" => &["a@b.c", "@", "a@"],
            "ipv4" => &["127.0.0.1", "256.0.0.1", "1.2.3"],
            "ipv6" => &["::1", ":::", "fe80::1%eth0"],
            _ => &["", "0", "1.2.3", "x"],
        };
        options.push(
            proptest::sample::select(samples.to_vec())
                .prop_map(str::to_owned)
                .boxed(),
        );
    }
    options.push(
        lengths(schema, "minLength", "maxLength")
            .prop_flat_map(|n| prop::collection::vec(any::<char>(), n..=n))
            .prop_map(String::from_iter)
            .boxed(),
    );
    options.push("\\PC{0,12}".boxed());
    Union::new(options).prop_map(Value::String).boxed()
}

/// Values of `schema` (a node of `root`), mostly fitting and sometimes not.
/// `refs` counts the `$ref`s followed to get here: recursive types are cut
/// off after a few levels.
fn around(schema: &Value, root: &Value, refs: usize) -> BoxedStrategy<Value> {
    prop_oneof![
        12 => fitting(schema, root, refs),
        1 => arbitrary(),
    ]
    .boxed()
}

fn fitting(schema: &Value, root: &Value, refs: usize) -> BoxedStrategy<Value> {
    let Some(map) = schema.as_object() else {
        return arbitrary();
    };
    if let Some(reference) = map.get("$ref").and_then(Value::as_str) {
        let target = reference
            .strip_prefix('#')
            .and_then(|pointer| root.pointer(pointer));
        return match target {
            Some(target) if refs < 3 => around(target, root, refs + 1),
            _ => Just(Value::Null).boxed(),
        };
    }
    if let Some(constant) = map.get("const") {
        return Just(constant.clone()).boxed();
    }
    if let Some(values) = map.get("enum").and_then(Value::as_array)
        && !values.is_empty()
    {
        return proptest::sample::select(values.clone()).boxed();
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(alternatives) = map.get(key).and_then(Value::as_array)
            && !alternatives.is_empty()
        {
            return Union::new(alternatives.iter().map(|a| around(a, root, refs))).boxed();
        }
    }
    let types: Vec<&str> = match map.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ if map.contains_key("properties") => vec!["object"],
        _ => return arbitrary(),
    };
    let options: Vec<BoxedStrategy<Value>> = types
        .into_iter()
        .map(|t| match t {
            "null" => Just(Value::Null).boxed(),
            "boolean" => any::<bool>().prop_map(Value::Bool).boxed(),
            "integer" => integers(schema),
            "number" => numbers(schema),
            "string" => strings(schema),
            "array" => array(schema, root, refs),
            "object" => object(schema, root, refs),
            _ => arbitrary(),
        })
        .collect();
    if options.is_empty() {
        return arbitrary();
    }
    Union::new(options).boxed()
}

fn array(schema: &Value, root: &Value, refs: usize) -> BoxedStrategy<Value> {
    if let Some(prefix) = schema.get("prefixItems").and_then(Value::as_array) {
        let items: Vec<BoxedStrategy<Value>> =
            prefix.iter().map(|item| around(item, root, refs)).collect();
        return (items, any::<bool>())
            .prop_map(|(mut items, shorter)| {
                if shorter {
                    items.pop();
                }
                Value::Array(items)
            })
            .boxed();
    }
    let item = schema
        .get("items")
        .map_or_else(arbitrary, |item| around(item, root, refs));
    lengths(schema, "minItems", "maxItems")
        .prop_flat_map(move |n| prop::collection::vec(item.clone(), n..=n))
        .prop_map(Value::Array)
        .boxed()
}

fn object(schema: &Value, root: &Value, refs: usize) -> BoxedStrategy<Value> {
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut entries: Vec<BoxedStrategy<Option<(String, Value)>>> = Vec::new();
    if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
        for (name, property) in properties {
            let presence = if required.contains(&name.as_str()) {
                0.95
            } else {
                0.5
            };
            let name = name.clone();
            entries.push(
                prop::option::weighted(presence, around(property, root, refs))
                    .prop_map(move |value| value.map(|v| (name.clone(), v)))
                    .boxed(),
            );
        }
    }
    if let Some(patterns) = schema.get("patternProperties").and_then(Value::as_object) {
        for (pattern, value) in patterns {
            if let Ok(key) = proptest::string::string_regex(pattern) {
                entries.push(prop::option::weighted(0.5, (key, around(value, root, refs))).boxed());
            }
        }
    }
    let extra = match schema.get("additionalProperties") {
        Some(Value::Object(_)) => around(&schema["additionalProperties"], root, refs),
        _ => arbitrary(),
    };
    entries.push(prop::option::weighted(0.1, ("\\PC{0,8}", extra)).boxed());
    entries
        .prop_map(|entries| Value::Object(entries.into_iter().flatten().collect()))
        .boxed()
}

/// Every tool of the corpus with its arguments' strategy.
fn calls() -> impl Strategy<Value = (&'static str, Map<String, Value>)> {
    let per_tool: Vec<BoxedStrategy<(&'static str, Map<String, Value>)>> = TOOLS
        .tools()
        .iter()
        .map(|tool| {
            let name = tool.name();
            let schema = tool.descriptor()["inputSchema"].clone();
            // The arguments of a call are always an object.
            object(&schema, &schema, 0)
                .prop_map(move |value| match value {
                    Value::Object(map) => (name, map),
                    _ => (name, Map::new()),
                })
                .boxed()
        })
        .collect();
    Union::new(per_tool)
}

/// Arguments none of the corpus's schemas asks for: nothing, nulls, every
/// kind of value, numbers past every width, long strings and arrays, and
/// values nested as deep as a server accepts (128 levels).
fn hostile() -> Vec<Map<String, Value>> {
    let nested = |wrap: fn(Value) -> Value| (0..128).fold(Value::from(1), |inner, _| wrap(inner));
    let values = vec![
        Value::Null,
        Value::Bool(true),
        Value::from(-1),
        Value::from(u64::MAX),
        Value::from(i64::MIN),
        Value::from(1e308),
        Value::from(0.5),
        Value::from(""),
        Value::from("\u{0}\u{10ffff}"),
        Value::from("x".repeat(100_000)),
        Value::Array(Vec::new()),
        Value::Array(vec![Value::from(1); 10_000]),
        Value::Array((0..10_000).map(Value::from).collect()),
        Value::Object(Map::new()),
        serde_json::json!({"": null, "value": null, "kind": "nope"}),
        nested(|inner| Value::Array(vec![inner])),
        nested(|inner| serde_json::json!({ "value": inner })),
    ];
    let mut all: Vec<Map<String, Value>> = vec![Map::new()];
    for value in values {
        all.push(Map::from_iter([("value".to_owned(), value.clone())]));
        all.push(Map::from_iter([
            ("value".to_owned(), Value::from(1)),
            ("extra".to_owned(), value),
        ]));
    }
    all
}

#[test]
fn every_tool_of_the_corpus_answers_hostile_arguments_with_a_result_and_no_panic() {
    count_panics();
    let arguments = hostile();
    let mut refused = 0;
    for tool in TOOLS.tools() {
        for given in &arguments {
            let panics = PANICS.with(Cell::get);
            let result = block_on(TOOLS.call(&(), tool.name(), given.clone()))
                .unwrap_or_else(|e| panic!("{} is a known tool, yet: {e:?}", tool.name()));
            assert_eq!(PANICS.with(Cell::get), panics, "{} panicked", tool.name());
            if result.is_error {
                refused += 1;
                assert!(result.structured_content.is_none(), "{}", tool.name());
            }
            assert!(!result.content.is_empty(), "{}", tool.name());
        }
    }
    println!(
        "{} tools × {} hostile argument sets: {refused} refused",
        TOOLS.len(),
        arguments.len()
    );
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn arguments_from_and_around_each_input_schema_get_a_result_and_a_refusal_is_an_error_result(
        (name, arguments) in calls()
    ) {
        count_panics();
        let panics = PANICS.with(Cell::get);
        let result = block_on(TOOLS.call(&(), name, arguments.clone()))
            .map_err(|e| TestCaseError::fail(format!("{name} is a known tool, yet: {e:?}")))?;
        prop_assert_eq!(PANICS.with(Cell::get), panics, "{} panicked on {:?}", name, arguments);
        let wire = result.to_json();
        let text = wire["content"][0]["text"].as_str().unwrap_or_default();
        if result.is_error {
            prop_assert!(result.structured_content.is_none());
            prop_assert!(!text.is_empty(), "a refusal says why");
        } else {
            prop_assert!(!result.content.is_empty());
        }
    }
}
