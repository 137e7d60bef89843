//! `tooltable diff` classifies hand-made changes correctly, and its JSON
//! report is stable (compared with a committed snapshot).

use crate::common;
use common::{TempDir, tooltable};
use serde_json::{Value, json};
use tooltable_codegen::compat::{Class, compare};
use tooltable_rules::confirm::Confirm;
use tooltable_rules::tier::Tier;
use tooltable_rules::wire::fingerprint::descriptor_fingerprint;
use tooltable_rules::wire::manifest::{Manifest, ManifestTool};

fn base_descriptor(name: &str) -> Value {
    json!({
        "name": name,
        "description": "Search notes.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "What to find."},
                "limit": {"type": ["integer", "null"], "format": "uint32", "minimum": 1, "maximum": 100},
                "ratio": {"type": "number"},
                "count": {"type": "integer"},
                "sort": {"type": "string", "enum": ["new", "old"]},
                "tags": {"type": "array", "items": {"type": "string"}}
            },
            "required": ["query", "ratio", "count"]
        },
        "outputSchema": {
            "type": "object",
            "properties": {
                "total": {"type": "integer"},
                "state": {"type": "string", "enum": ["done", "partial"]},
                "notes": {"type": "array", "items": {"$ref": "#/$defs/Note"}}
            },
            "required": ["total", "notes"],
            "$defs": {
                "Note": {
                    "type": "object",
                    "properties": {"id": {"type": "integer"}, "title": {"type": "string"}},
                    "required": ["id", "title"]
                }
            }
        },
        "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}
    })
}

fn tool(name: &str, descriptor: Value) -> ManifestTool {
    ManifestTool {
        name: name.into(),
        tier: Tier::Read,
        toolset: Some("notes".into()),
        permission: None,
        confirm: None,
        since: Some("0.1.0".into()),
        platforms: vec![],
        source: "src/notes.rs".into(),
        fingerprint: descriptor_fingerprint(&descriptor, None),
        cost: tooltable_rules::context::Cost::of(&descriptor),
        descriptor,
    }
}

fn refresh(tool: &mut ManifestTool) {
    tool.name = tool.descriptor["name"].as_str().unwrap().to_owned();
    tool.fingerprint = descriptor_fingerprint(&tool.descriptor, tool.permission.as_deref());
    tool.cost = tooltable_rules::context::Cost::of(&tool.descriptor);
}

fn base() -> Vec<ManifestTool> {
    vec![tool("notes_search", base_descriptor("notes_search"))]
}

type Edit = fn(&mut Vec<ManifestTool>);

fn d(tools: &mut [ManifestTool]) -> &mut Value {
    &mut tools[0].descriptor
}

fn input(tools: &mut [ManifestTool]) -> &mut Value {
    &mut tools[0].descriptor["inputSchema"]
}

fn output(tools: &mut [ManifestTool]) -> &mut Value {
    &mut tools[0].descriptor["outputSchema"]
}

/// (what, the edit, the expected class of the tool's change, a phrase the report holds)
const CASES: &[(&str, Edit, Class, &str)] = &[
    (
        "tool removed",
        |t| t.clear(),
        Class::Breaking,
        "tool removed",
    ),
    (
        "tool renamed",
        |t| d(t)["name"] = json!("notes_find"),
        Class::Breaking,
        "renamed from `notes_search`",
    ),
    (
        "tool added",
        |t| t.push(tool("notes_other", base_descriptor("notes_other"))),
        Class::Compatible,
        "tool added",
    ),
    (
        "required parameter added",
        |t| {
            input(t)["properties"]["page"] = json!({"type": "integer"});
            input(t)["required"]
                .as_array_mut()
                .unwrap()
                .push(json!("page"));
        },
        Class::Breaking,
        "parameter `page` added as required",
    ),
    (
        "optional parameter added",
        |t| input(t)["properties"]["page"] = json!({"type": "integer"}),
        Class::Compatible,
        "parameter `page` added as optional",
    ),
    (
        "parameter removed",
        |t| {
            input(t)["properties"]
                .as_object_mut()
                .unwrap()
                .remove("tags");
        },
        Class::Breaking,
        "parameter `tags` removed",
    ),
    (
        "optional parameter made required",
        |t| {
            input(t)["required"]
                .as_array_mut()
                .unwrap()
                .push(json!("sort"))
        },
        Class::Breaking,
        "parameter `sort` is now required",
    ),
    (
        "required parameter made optional",
        |t| input(t)["required"] = json!(["query", "ratio"]),
        Class::Compatible,
        "parameter `count` is now optional",
    ),
    (
        "parameter type changed",
        |t| input(t)["properties"]["query"]["type"] = json!("integer"),
        Class::Breaking,
        "type of parameter `query` changed from string to integer",
    ),
    (
        "parameter type narrowed",
        |t| input(t)["properties"]["ratio"]["type"] = json!("integer"),
        Class::Breaking,
        "narrowed from number to integer",
    ),
    (
        "parameter type widened",
        |t| input(t)["properties"]["count"]["type"] = json!("number"),
        Class::Compatible,
        "widened from integer to number",
    ),
    (
        "parameter made nullable",
        |t| input(t)["properties"]["query"]["type"] = json!(["string", "null"]),
        Class::Compatible,
        "widened from string to null or string",
    ),
    (
        "parameter no longer nullable",
        |t| input(t)["properties"]["limit"]["type"] = json!("integer"),
        Class::Breaking,
        "narrowed from integer or null to integer",
    ),
    (
        "enum value removed",
        |t| input(t)["properties"]["sort"]["enum"] = json!(["new"]),
        Class::Breaking,
        "value \"old\" of parameter `sort` removed",
    ),
    (
        "enum value added",
        |t| input(t)["properties"]["sort"]["enum"] = json!(["new", "old", "best"]),
        Class::Compatible,
        "value \"best\" of parameter `sort` added",
    ),
    (
        "maximum lowered",
        |t| input(t)["properties"]["limit"]["maximum"] = json!(50),
        Class::Breaking,
        "`maximum` of parameter `limit` tightened from 100 to 50",
    ),
    (
        "maximum raised",
        |t| input(t)["properties"]["limit"]["maximum"] = json!(500),
        Class::Compatible,
        "`maximum` of parameter `limit` loosened from 100 to 500",
    ),
    (
        "length limit added",
        |t| input(t)["properties"]["query"]["minLength"] = json!(3),
        Class::Breaking,
        "`minLength` of parameter `query` tightened from none to 3",
    ),
    (
        "bound removed",
        |t| {
            input(t)["properties"]["limit"]
                .as_object_mut()
                .unwrap()
                .remove("minimum");
        },
        Class::Compatible,
        "`minimum` of parameter `limit` loosened from 1 to none",
    ),
    (
        "pattern added",
        |t| input(t)["properties"]["query"]["pattern"] = json!("^[a-z]+$"),
        Class::Breaking,
        "`pattern` of parameter `query` tightened",
    ),
    (
        "integer format narrowed",
        |t| input(t)["properties"]["limit"]["format"] = json!("uint16"),
        Class::Breaking,
        "format of parameter `limit` changed from `uint32` to `uint16`",
    ),
    (
        "integer format widened",
        |t| input(t)["properties"]["limit"]["format"] = json!("uint64"),
        Class::Compatible,
        "format of parameter `limit` changed from `uint32` to `uint64`",
    ),
    (
        "item type changed",
        |t| input(t)["properties"]["tags"]["items"]["type"] = json!("integer"),
        Class::Breaking,
        "type of parameter `tags[]` changed from string to integer",
    ),
    (
        "unknown properties refused",
        |t| input(t)["additionalProperties"] = json!(false),
        Class::Breaking,
        "unknown properties are now refused",
    ),
    (
        "tier raised",
        |t| {
            t[0].tier = Tier::Write;
            d(t)["annotations"]["readOnlyHint"] = json!(false);
        },
        Class::Breaking,
        "tier raised from read to write",
    ),
    (
        "tier lowered",
        |t| t[0].tier = Tier::Read,
        Class::Compatible,
        "tier lowered from destructive to read",
    ),
    (
        "hint made less safe",
        |t| d(t)["annotations"]["openWorldHint"] = json!(true),
        Class::Breaking,
        "`openWorldHint` changed from false to true (less safe)",
    ),
    (
        "permission added",
        |t| t[0].permission = Some("notes.read".into()),
        Class::Breaking,
        "permission changed from none to `notes.read`",
    ),
    (
        "confirmation added",
        |t| {
            t[0].confirm = Some(Confirm::Because("wipes it".into()));
            input(t)["properties"]["confirm"] = json!({"type": "boolean", "default": false});
        },
        Class::Breaking,
        "confirmation added",
    ),
    (
        "confirmation removed",
        |t| t[0].confirm = None,
        Class::Compatible,
        "confirmation removed",
    ),
    (
        "description reworded",
        |t| d(t)["description"] = json!("Find notes."),
        Class::Cosmetic,
        "description reworded",
    ),
    (
        "title added",
        |t| d(t)["title"] = json!("Search"),
        Class::Cosmetic,
        "title added",
    ),
    (
        "parameter description reworded",
        |t| input(t)["properties"]["query"]["description"] = json!("Text to find."),
        Class::Cosmetic,
        "description of parameter `query` reworded",
    ),
    (
        "output field removed",
        |t| {
            output(t)["properties"]
                .as_object_mut()
                .unwrap()
                .remove("total");
        },
        Class::Breaking,
        "output field `total` removed",
    ),
    (
        "output field added",
        |t| output(t)["properties"]["page"] = json!({"type": "integer"}),
        Class::Compatible,
        "output field `page` added",
    ),
    (
        "output enum value added",
        |t| output(t)["properties"]["state"]["enum"] = json!(["done", "partial", "failed"]),
        Class::Breaking,
        "value \"failed\" of output field `state` added",
    ),
    (
        "output field of a named type removed",
        |t| {
            output(t)["$defs"]["Note"]["properties"]
                .as_object_mut()
                .unwrap()
                .remove("title");
        },
        Class::Breaking,
        "output field `notes[].title` removed",
    ),
    (
        "output field may now be absent",
        |t| output(t)["required"] = json!(["notes"]),
        Class::Breaking,
        "output field `total` may now be absent",
    ),
    (
        "structured output removed",
        |t| {
            d(t).as_object_mut().unwrap().remove("outputSchema");
        },
        Class::Breaking,
        "structured output removed",
    ),
    (
        "platforms narrowed",
        |t| t[0].platforms = vec!["linux".into()],
        Class::Breaking,
        "platforms changed from all to linux",
    ),
    (
        "since changed",
        |t| t[0].since = Some("0.2.0".into()),
        Class::Cosmetic,
        "`since` changed from `0.1.0` to `0.2.0`",
    ),
    (
        "named type renamed without a change in meaning",
        |t| {
            let note = output(t)["$defs"]["Note"].take();
            output(t)["$defs"] = json!({"Entry": note});
            output(t)["properties"]["notes"]["items"]["$ref"] = json!("#/$defs/Entry");
        },
        Class::Cosmetic,
        "descriptor rewritten without a change in meaning",
    ),
];

/// Cases whose starting point differs from the base tool.
fn start(what: &str) -> Vec<ManifestTool> {
    let mut tools = base();
    match what {
        "tier lowered" => tools[0].tier = Tier::Destructive,
        "confirmation removed" => tools[0].confirm = Some(Confirm::Required),
        _ => {}
    }
    tools
}

#[test]
fn every_hand_made_change_is_classified_as_expected() {
    assert!(CASES.len() >= 25);
    let mut failures = Vec::new();
    for (what, edit, class, phrase) in CASES {
        let old_tools = start(what);
        let mut new_tools = old_tools.clone();
        edit(&mut new_tools);
        new_tools.iter_mut().for_each(refresh);
        let old = Manifest::new("demo", old_tools);
        let new = Manifest::new("demo", new_tools);
        let report = compare(&old, &new);
        let worst = report.iter().map(|t| t.class()).max();
        let messages: Vec<&str> = report
            .iter()
            .flat_map(|t| t.changes.iter().map(|c| c.message.as_str()))
            .collect();
        if worst != Some(*class) || !messages.iter().any(|m| m.contains(phrase)) {
            failures.push(format!(
                "{what}: expected {class:?} with `{phrase}`, got {worst:?}: {messages:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn identical_manifests_have_no_changes_and_pass_any_gate() {
    let m = Manifest::new("demo", base());
    assert!(compare(&m, &m).is_empty());
    let dir = TempDir::new("same");
    dir.write("a.json", &m.render());
    let a = dir.path().join("a.json");
    let run = tooltable(&[
        "diff",
        a.to_str().unwrap(),
        a.to_str().unwrap(),
        "--fail-on",
        "any",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.starts_with("no changes to the tool surface"));
}

fn snapshot_pair() -> (Manifest, Manifest) {
    let old = Manifest::new(
        "demo",
        vec![
            tool("notes_search", base_descriptor("notes_search")),
            tool("notes_gone", base_descriptor("notes_gone")),
        ],
    );
    let mut tools = vec![
        tool("notes_search", base_descriptor("notes_search")),
        tool("notes_new", base_descriptor("notes_new")),
    ];
    tools[0].descriptor["description"] = json!("Find notes.");
    tools[0].descriptor["inputSchema"]["properties"]["sort"]["enum"] = json!(["new"]);
    tools[0].descriptor["inputSchema"]["properties"]["page"] = json!({"type": "integer"});
    tools[1].descriptor["description"] = json!("Something new.");
    tools.iter_mut().for_each(refresh);
    (old, Manifest::new("demo", tools))
}

/// [`snapshot_pair`] written to files, with their paths.
fn snapshot_pair_on_disk(tag: &str) -> (TempDir, [String; 2]) {
    let (old, new) = snapshot_pair();
    let dir = TempDir::new(tag);
    dir.write("old.json", &old.render());
    dir.write("new.json", &new.render());
    let paths = ["old.json", "new.json"].map(|f| dir.path().join(f).to_str().unwrap().to_owned());
    (dir, paths)
}

#[test]
fn the_json_report_is_stable_and_matches_the_snapshot() {
    let (_dir, [a, b]) = snapshot_pair_on_disk("snapshot");
    let args = ["diff", &a, &b, "--format", "json"];
    let first = tooltable(&args);
    let second = tooltable(&args);
    assert_eq!(first.code, 0);
    assert_eq!(first.stdout, second.stdout);
    let snapshot =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/diff.json");
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&snapshot, &first.stdout).unwrap();
    }
    let expected = std::fs::read_to_string(&snapshot).unwrap_or_else(|e| {
        panic!(
            "cannot read {}: {e}; run with UPDATE_SNAPSHOTS=1 to write it",
            snapshot.display()
        )
    });
    assert_eq!(
        first.stdout, expected,
        "the JSON report changed; review it and run with UPDATE_SNAPSHOTS=1"
    );
}

#[test]
fn the_text_and_markdown_reports_say_what_the_change_adds_to_the_context() {
    let (old, new) = snapshot_pair();
    let (before, after) = (old.cost(), new.cost());
    assert!(after.tokens > before.tokens, "{before:?} {after:?}");
    let (_dir, [a, b]) = snapshot_pair_on_disk("context");
    let text = tooltable(&["diff", &a, &b]);
    assert!(
        text.stdout.contains(&format!(
            "context: {before} -> {after}, +{} tokens\n",
            after.tokens - before.tokens
        )),
        "{}",
        text.stdout
    );
    let markdown = tooltable(&["diff", &a, &b, "--format", "markdown"]);
    assert!(
        markdown
            .stdout
            .contains(&format!("The tools' context: {before} → {after}, +")),
        "{}",
        markdown.stdout
    );
}

#[test]
fn fail_on_sets_the_exit_code_by_class() {
    let (old, new) = snapshot_pair();
    let dir = TempDir::new("fail-on");
    dir.write("old.json", &old.render());
    dir.write("new.json", &new.render());
    let (a, b) = (dir.path().join("old.json"), dir.path().join("new.json"));
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    assert_eq!(tooltable(&["diff", a, b]).code, 0);
    assert_eq!(tooltable(&["diff", a, b, "--fail-on", "breaking"]).code, 1);
    assert_eq!(tooltable(&["diff", b, b, "--fail-on", "breaking"]).code, 0);

    let cosmetic = {
        let mut tools = base();
        tools[0].descriptor["description"] = json!("Reworded.");
        tools.iter_mut().for_each(refresh);
        Manifest::new("demo", tools)
    };
    dir.write("cosmetic.json", &cosmetic.render());
    dir.write("base.json", &Manifest::new("demo", base()).render());
    let (c, o) = (
        dir.path().join("cosmetic.json"),
        dir.path().join("base.json"),
    );
    let (c, o) = (c.to_str().unwrap(), o.to_str().unwrap());
    assert_eq!(
        tooltable(&["diff", o, c, "--fail-on", "compatible"]).code,
        0
    );
    assert_eq!(tooltable(&["diff", o, c, "--fail-on", "any"]).code, 1);
}

#[test]
fn the_text_and_markdown_reports_list_classes_and_fingerprints() {
    let (old, new) = snapshot_pair();
    let dir = TempDir::new("formats");
    dir.write("old.json", &old.render());
    dir.write("new.json", &new.render());
    let (a, b) = (dir.path().join("old.json"), dir.path().join("new.json"));
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let text = tooltable(&["diff", a, b]).stdout;
    assert!(text.contains("notes_gone: removed (breaking)"), "{text}");
    assert!(text.contains("  fingerprint sha256:"), "{text}");
    assert!(
        text.contains("summary: 2 breaking, 2 compatible, 1 cosmetic changes in 3 tools"),
        "{text}"
    );
    let markdown = tooltable(&["diff", a, b, "--format", "markdown"]).stdout;
    assert!(
        markdown
            .starts_with("### Tool surface changes\n\n**This change breaks existing clients.**"),
        "{markdown}"
    );
    assert!(
        markdown.contains(
            "| `notes_gone` | removed | breaking | tool removed: clients calling it fail |"
        ),
        "{markdown}"
    );
}

#[test]
fn diff_reads_a_manifest_at_a_git_revision() {
    let dir = TempDir::new("git");
    let m = Manifest::new("demo", base());
    dir.write("tools.json", &m.render());
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .current_dir(dir.path())
            .env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@example.com")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@example.com")
            .output()
            .unwrap()
    };
    git(&["init", "-q"]);
    git(&["add", "tools.json"]);
    assert!(git(&["commit", "-q", "-m", "m"]).status.success());
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tooltable"))
        .args(["diff", "HEAD:tools.json", "tools.json", "--fail-on", "any"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bad = std::process::Command::new(env!("CARGO_BIN_EXE_tooltable"))
        .args(["diff", "nope:tools.json", "tools.json"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&bad.stderr)
            .contains("nope:tools.json is not a file, and git cannot read it")
    );
}
