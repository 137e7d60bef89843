//! `tooltable diff` on manifests from anywhere.
//!
//! The manifests a CI gate compares come from a pull request or a git
//! revision, so the command must take anything: text that is not JSON,
//! JSON that is not a manifest, real manifests mutated as text, and real
//! manifests whose descriptors and fields were mutated and whose
//! fingerprints were then recomputed, so that the comparison itself runs on
//! schemas nobody wrote (unknown keywords, `$ref`s to anywhere or to
//! themselves, wrong types). Each run ends in a classification or an error
//! naming the file, never a panic (proptest fails a case that panics), and
//! `--fail-on` agrees with the report. Cases per property: 256, or
//! `PROPTEST_CASES`.

use crate::common;

use common::{TempDir, tooltable, workspace};
use proptest::prelude::*;
use proptest::sample::Index;
use serde_json::{Map, Value};
use std::sync::OnceLock;
use tooltable_rules::confirm::Confirm;
use tooltable_rules::tier::Tier;
use tooltable_rules::wire::fingerprint::descriptor_fingerprint;
use tooltable_rules::wire::manifest::{Manifest, ManifestTool};

fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(256);
    ProptestConfig::with_cases(cases)
}

/// The committed manifests of the workspace's tooltable crates.
fn real_manifests() -> &'static [Manifest] {
    static MANIFESTS: OnceLock<Vec<Manifest>> = OnceLock::new();
    MANIFESTS.get_or_init(|| {
        [
            "examples/notes-server/tools.json",
            "tests/fixture/tools.json",
        ]
        .iter()
        .map(|path| {
            let text = std::fs::read_to_string(workspace().join(path)).unwrap();
            Manifest::parse(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
        })
        .collect()
    })
}

const KEYWORDS: [&str; 28] = [
    "type",
    "properties",
    "required",
    "$ref",
    "$defs",
    "anyOf",
    "oneOf",
    "allOf",
    "items",
    "prefixItems",
    "enum",
    "const",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "pattern",
    "format",
    "default",
    "additionalProperties",
    "patternProperties",
    "uniqueItems",
    "description",
    "title",
    "nullable",
];

/// JSON that looks like schemas: their keywords, types, formats and
/// references (`#`, `#/$defs/..`, pointers to nowhere) among arbitrary values.
fn schema_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_filter_map("finite", |f| serde_json::Number::from_f64(f)
            .map(Value::Number)),
        proptest::sample::select(vec![
            "object",
            "string",
            "integer",
            "number",
            "boolean",
            "array",
            "null",
            "int32",
            "uint8",
            "date-time",
            "#",
            "#/$defs/A",
            "#/$defs/Note",
            "#/properties",
            "#/nowhere",
            "",
        ])
        .prop_map(|s| Value::String(s.to_owned())),
        "\\PC{0,8}".prop_map(Value::String),
    ];
    let key = prop_oneof![
        3 => proptest::sample::select(KEYWORDS.to_vec()).prop_map(str::to_owned),
        1 => proptest::sample::select(vec!["A", "Note", "query", "limit", "id"]).prop_map(str::to_owned),
        1 => "\\PC{0,6}",
    ];
    leaf.prop_recursive(4, 48, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::btree_map(key.clone(), inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// An edit at some place inside a descriptor.
#[derive(Clone, Debug)]
enum Edit {
    Replace(Value),
    Remove,
    Insert(String, Value),
    /// `{"$ref": ..}` in place of the node: to itself, to the root, or to a definition.
    Reference(String),
    /// The node as one alternative of `anyOf`, beside `null`.
    Nullable,
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        3 => schema_json().prop_map(Edit::Replace),
        2 => Just(Edit::Remove),
        3 => (proptest::sample::select(KEYWORDS.to_vec()), schema_json())
            .prop_map(|(k, v)| Edit::Insert(k.to_owned(), v)),
        2 => proptest::sample::select(vec!["#", "#/$defs/A", "#/$defs/Note", "#/inputSchema", "#/properties/id", "https://example.com/x"])
            .prop_map(|r| Edit::Reference(r.to_owned())),
        1 => Just(Edit::Nullable),
    ]
}

/// Applies `edit` at the node `path` leads to (each index picks a child
/// of an object or an array; the walk stops at a leaf).
fn apply(node: &mut Value, path: &[Index], edit: &Edit) {
    let children = match node {
        Value::Object(map) => map.len(),
        Value::Array(items) => items.len(),
        _ => 0,
    };
    if let (Some((index, rest)), true) = (path.split_first(), children > 0) {
        let i = index.index(children);
        if rest.is_empty() && matches!(edit, Edit::Remove) {
            match node {
                Value::Object(map) => {
                    let key = map.keys().nth(i).cloned();
                    if let Some(key) = key {
                        map.remove(&key);
                    }
                }
                Value::Array(items) => {
                    items.remove(i);
                }
                _ => {}
            }
            return;
        }
        let child = match node {
            Value::Object(map) => map.values_mut().nth(i),
            Value::Array(items) => items.get_mut(i),
            _ => None,
        };
        if let Some(child) = child {
            apply(child, rest, edit);
        }
        return;
    }
    match edit {
        Edit::Replace(value) => *node = value.clone(),
        Edit::Remove => *node = Value::Null,
        Edit::Insert(key, value) => match node {
            Value::Object(map) => {
                map.insert(key.clone(), value.clone());
            }
            other => *other = Value::Object(Map::from_iter([(key.clone(), value.clone())])),
        },
        Edit::Reference(target) => *node = serde_json::json!({ "$ref": target }),
        Edit::Nullable => {
            let inner = node.take();
            *node = serde_json::json!({ "anyOf": [inner, {"type": "null"}] });
        }
    }
}

/// A change to a whole tool, beside its descriptor.
#[derive(Clone, Debug)]
enum ToolEdit {
    /// An edit under one of the descriptor's keys, or anywhere (`None`).
    Descriptor(Option<&'static str>, Vec<Index>, Edit),
    Drop,
    /// A copy under another name (in the descriptor too).
    Copy(String),
    /// Another name in the manifest entry only: the descriptor no longer agrees.
    Rename(String),
    Tier(Tier),
    Permission(Option<String>),
    Confirm(Option<Option<String>>),
    Platforms(Vec<String>),
}

fn tool_edit() -> impl Strategy<Value = ToolEdit> {
    prop_oneof![
        8 => (
            proptest::sample::select(vec!["inputSchema", "outputSchema", "annotations", "description", "_meta"]),
            prop::collection::vec(any::<Index>(), 0..6),
            edit(),
        )
            .prop_map(|(key, path, edit)| ToolEdit::Descriptor(Some(key), path, edit)),
        1 => (prop::collection::vec(any::<Index>(), 0..6), edit())
            .prop_map(|(path, edit)| ToolEdit::Descriptor(None, path, edit)),
        1 => Just(ToolEdit::Drop),
        1 => "[a-z_]{1,12}".prop_map(ToolEdit::Copy),
        1 => "[a-z_]{1,12}".prop_map(ToolEdit::Rename),
        1 => proptest::sample::select(vec![Tier::Read, Tier::Write, Tier::Destructive])
            .prop_map(ToolEdit::Tier),
        1 => prop::option::of("\\PC{0,10}").prop_map(ToolEdit::Permission),
        1 => prop::option::of(prop::option::of("\\PC{0,10}")).prop_map(ToolEdit::Confirm),
        1 => prop::collection::vec("\\PC{0,6}", 0..3).prop_map(ToolEdit::Platforms),
    ]
}

/// `base` with `edits` applied to its tools and every fingerprint recomputed.
fn resealed(base: &Manifest, edits: &[(Index, ToolEdit)]) -> Manifest {
    let mut tools: Vec<ManifestTool> = base.tools.clone();
    for (index, edit) in edits {
        if tools.is_empty() {
            break;
        }
        let i = index.index(tools.len());
        match edit {
            ToolEdit::Descriptor(None, path, edit) => apply(&mut tools[i].descriptor, path, edit),
            ToolEdit::Descriptor(Some(key), path, edit) => {
                if let Some(map) = tools[i].descriptor.as_object_mut() {
                    apply(map.entry(*key).or_insert(Value::Null), path, edit);
                }
            }
            ToolEdit::Drop => {
                tools.remove(i);
            }
            ToolEdit::Copy(name) => {
                let mut copy = tools[i].clone();
                copy.name.clone_from(name);
                if let Some(map) = copy.descriptor.as_object_mut() {
                    map.insert("name".into(), Value::String(name.clone()));
                }
                tools.push(copy);
            }
            ToolEdit::Rename(name) => tools[i].name.clone_from(name),
            ToolEdit::Tier(tier) => tools[i].tier = *tier,
            ToolEdit::Permission(permission) => tools[i].permission.clone_from(permission),
            ToolEdit::Confirm(confirm) => {
                tools[i].confirm = confirm.as_ref().map(|reason| match reason {
                    Some(text) => Confirm::Because(text.clone().into()),
                    None => Confirm::Required,
                })
            }
            ToolEdit::Platforms(platforms) => tools[i].platforms.clone_from(platforms),
        }
    }
    for tool in &mut tools {
        tool.fingerprint = descriptor_fingerprint(&tool.descriptor, tool.permission.as_deref());
    }
    Manifest::new(base.crate_name.clone(), tools)
}

/// What `tooltable diff` is asked: a format and a `--fail-on`.
fn options() -> impl Strategy<Value = (&'static str, Option<&'static str>)> {
    (
        proptest::sample::select(vec!["text", "json", "markdown"]),
        prop::option::of(proptest::sample::select(vec![
            "breaking",
            "compatible",
            "any",
        ])),
    )
}

/// Runs `tooltable diff OLD NEW` on two texts and checks how it ended: a
/// report (and, for JSON, one whose summary agrees with `--fail-on`), or
/// an error that names the file at fault.
fn diff(
    old: &str,
    new: &str,
    (format, fail_on): (&str, Option<&str>),
) -> Result<i32, TestCaseError> {
    let dir = TempDir::new("hardening-diff");
    dir.write("old.json", old);
    dir.write("new.json", new);
    let old_path = dir.path().join("old.json").display().to_string();
    let new_path = dir.path().join("new.json").display().to_string();
    let mut args = vec!["diff", &old_path, &new_path, "--format", format];
    if let Some(class) = fail_on {
        args.extend(["--fail-on", class]);
    }
    let run = tooltable(&args);
    match run.code {
        2 => {
            prop_assert!(run.stdout.is_empty(), "{}", run.stdout);
            prop_assert!(
                run.stderr.starts_with(&format!("error: {old_path}: "))
                    || run.stderr.starts_with(&format!("error: {new_path}: ")),
                "the error names neither file: {}",
                run.stderr
            );
        }
        0 | 1 => {
            prop_assert!(run.stderr.is_empty(), "{}", run.stderr);
            prop_assert!(!run.stdout.is_empty());
            if format == "json" {
                let report: Value = serde_json::from_str(&run.stdout).map_err(|e| {
                    TestCaseError::fail(format!("the JSON report is not JSON: {e}"))
                })?;
                let summary = &report["summary"];
                let count = |class: &str| summary[class].as_u64().unwrap_or(0);
                let expected = match fail_on {
                    None => false,
                    Some("breaking") => count("breaking") > 0,
                    Some("compatible") => count("breaking") + count("compatible") > 0,
                    Some(_) => count("breaking") + count("compatible") + count("cosmetic") > 0,
                };
                prop_assert_eq!(run.code == 1, expected, "{}", run.stdout);
            }
        }
        other => prop_assert!(false, "exit code {other}"),
    }
    Ok(run.code)
}

/// Text that is not a manifest: arbitrary JSON, or arbitrary text.
fn not_a_manifest() -> impl Strategy<Value = String> {
    prop_oneof![
        schema_json().prop_map(|v| v.to_string()),
        "\\PC{0,64}",
        Just(String::new()),
    ]
}

#[derive(Clone, Debug)]
enum TextEdit {
    Delete(Index, usize),
    Insert(Index, String),
    Truncate(Index),
}

fn text_edit() -> impl Strategy<Value = TextEdit> {
    prop_oneof![
        (any::<Index>(), 1usize..32).prop_map(|(at, n)| TextEdit::Delete(at, n)),
        (
            any::<Index>(),
            prop_oneof![
                "\\PC{0,4}",
                Just("\"".to_owned()),
                Just("}".to_owned()),
                Just(",".to_owned())
            ]
        )
            .prop_map(|(at, s)| TextEdit::Insert(at, s)),
        any::<Index>().prop_map(TextEdit::Truncate),
    ]
}

fn edit_text(text: &str, edits: &[TextEdit]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for edit in edits {
        let at = |i: &Index| i.index(chars.len() + 1);
        match edit {
            TextEdit::Delete(i, n) => {
                let start = at(i).min(chars.len());
                let end = (start + n).min(chars.len());
                chars.drain(start..end);
            }
            TextEdit::Insert(i, s) => {
                let start = at(i);
                chars.splice(start..start, s.chars());
            }
            TextEdit::Truncate(i) => {
                let end = at(i);
                chars.truncate(end);
            }
        }
    }
    chars.into_iter().collect()
}

/// A manifest of one tool whose parameter `a` is the definition `D0`, where
/// each `Di` references `D(i+1)` `fan` times (as properties, or as
/// alternatives under `key`) and the last is `{"type": leaf}`.
fn entangled(levels: usize, fan: usize, key: &str, leaf: &str) -> String {
    let mut defs = Map::new();
    for i in 0..levels {
        let next = serde_json::json!({ "$ref": format!("#/$defs/D{}", i + 1) });
        let node = if key == "properties" {
            let properties: Map<String, Value> =
                (0..fan).map(|k| (format!("p{k}"), next.clone())).collect();
            serde_json::json!({ "type": "object", "properties": properties })
        } else {
            serde_json::json!({ key: vec![next; fan] })
        };
        defs.insert(format!("D{i}"), node);
    }
    defs.insert(format!("D{levels}"), serde_json::json!({ "type": leaf }));
    let descriptor = serde_json::json!({
        "name": "tangle",
        "description": "Entangled.",
        "inputSchema": {"type": "object", "properties": {"a": {"$ref": "#/$defs/D0"}}, "$defs": defs},
    });
    let tool = ManifestTool {
        name: "tangle".into(),
        tier: Tier::Read,
        toolset: None,
        permission: None,
        confirm: None,
        since: None,
        platforms: Vec::new(),
        source: "src/lib.rs".into(),
        fingerprint: descriptor_fingerprint(&descriptor, None),
        cost: tooltable_rules::context::Cost::of(&descriptor),
        descriptor,
    };
    Manifest::new("tangle", vec![tool]).render()
}

fn diff_text(old: &str, new: &str) -> common::Run {
    let dir = TempDir::new("hardening-diff");
    dir.write("old.json", old);
    dir.write("new.json", new);
    let path = |name: &str| dir.path().join(name).display().to_string();
    tooltable(&[
        "diff",
        &path("old.json"),
        &path("new.json"),
        "--fail-on",
        "breaking",
    ])
}

#[test]
fn definitions_that_each_reference_the_next_twice_end_in_a_bounded_report_that_fails_the_gate() {
    // 2^30 paths lead to the changed type; walking each would take days.
    let run = diff_text(
        &entangled(30, 2, "properties", "string"),
        &entangled(30, 2, "properties", "integer"),
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("too entangled to compare in full"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.lines().count() < 20_000, "the report is bounded");
}

#[test]
fn alternatives_that_each_reference_the_next_ten_times_are_typed_without_walking_every_path() {
    // 10^15 paths lead to the changed type; its type is still found.
    let run = diff_text(
        &entangled(15, 10, "anyOf", "string"),
        &entangled(15, 10, "anyOf", "integer"),
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("type of parameter `a` changed from string to integer"),
        "{}",
        run.stdout
    );
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn text_that_is_not_a_manifest_is_refused_naming_its_file(
        text in not_a_manifest(),
        base in any::<Index>(),
        old_is_bad in any::<bool>(),
        options in options(),
    ) {
        let good = real_manifests()[base.index(real_manifests().len())].render();
        let (old, new) = if old_is_bad { (text.as_str(), good.as_str()) } else { (good.as_str(), text.as_str()) };
        prop_assert_eq!(diff(old, new, options)?, 2);
    }

    #[test]
    fn a_real_manifest_mutated_as_text_is_refused_naming_its_file_or_compared(
        base in any::<Index>(),
        edits in prop::collection::vec(text_edit(), 1..4),
        options in options(),
    ) {
        let good = real_manifests()[base.index(real_manifests().len())].render();
        diff(&good, &edit_text(&good, &edits), options)?;
    }

    #[test]
    fn a_real_manifest_with_mutated_tools_and_recomputed_fingerprints_is_classified_or_refused(
        base in any::<Index>(),
        edits in prop::collection::vec((any::<Index>(), tool_edit()), 1..6),
        options in options(),
        reversed in any::<bool>(),
    ) {
        let base = &real_manifests()[base.index(real_manifests().len())];
        let mutated = resealed(base, &edits);
        let (old, new) = (base.render(), mutated.render());
        let (old, new) = if reversed { (new, old) } else { (old, new) };
        diff(&old, &new, options)?;
    }
}
