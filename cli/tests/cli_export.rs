//! `tooltable export`: MCP exports validate against the official MCP
//! schemas, OpenAI strict exports pass a checker written from OpenAI's
//! documented strict-mode rules, and names a target forbids are errors.

use crate::common;
use common::{TempDir, example, example_without_lowerings, tooltable};
use serde_json::{Value, json};
use std::path::PathBuf;

/// The official MCP schemas, copied into tests/data/mcp-schema (with their licence).
fn mcp_schema(version: &str) -> Value {
    let path: PathBuf = common::workspace()
        .join("tests/data/mcp-schema")
        .join(version)
        .join("schema.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "the MCP schema {} cannot be read ({e}); it is committed under tests/data/mcp-schema/",
            path.display()
        )
    });
    serde_json::from_str(&text).unwrap()
}

/// A validator for the definition `name` of an MCP schema document.
fn validator(version: &str, definitions: &str, name: &str) -> jsonschema::Validator {
    let mut schema = mcp_schema(version);
    assert!(
        schema[definitions][name].is_object(),
        "{version} defines {name}"
    );
    schema["$ref"] = json!(format!("#/{definitions}/{name}"));
    jsonschema::validator_for(&schema).unwrap()
}

fn assert_valid(validator: &jsonschema::Validator, instance: &Value, what: &str) {
    let errors: Vec<String> = validator
        .iter_errors(instance)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "{what} is invalid:\n{}",
        errors.join("\n")
    );
}

/// A crate exercising many schema shapes.
const RICH: &str = r#"
use std::collections::HashMap;

/// How to sort.
#[derive(serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Order { Newest, Oldest }

/// A filter.
#[derive(serde::Deserialize, serde::Serialize)]
pub struct Filter {
    /// Only this tag.
    pub tag: Option<String>,
    /// Only after this many days.
    pub days: Option<u16>,
}

/// What to find.
#[derive(serde::Deserialize)]
pub struct FindParams {
    /// The text.
    pub query: String,
    /// The order.
    pub order: Option<Order>,
    /// Filters, all of which must hold.
    #[serde(default)]
    pub filters: Vec<Filter>,
    /// A nested filter.
    pub main: Option<Filter>,
    /// A ratio.
    pub ratio: f64,
    /// A flag.
    #[serde(default)]
    pub exact: bool,
}

/// What was found.
#[derive(serde::Serialize)]
pub struct Found {
    /// Counts per tag.
    pub counts: HashMap<String, u32>,
    /// The order used.
    pub order: Order,
    /// A pair.
    pub pair: (u8, String),
}

/// Find things.
///
/// With every kind of field.
#[tool(tier = read, world = closed, toolset = "find", title = "Find")]
pub fn rich_find(p: FindParams) -> Found { unimplemented!() }

/// Ping the server.
#[tool(tier = read)]
pub fn rich_ping() -> String { String::new() }

/// Wipe everything.
#[deprecated(since = "0.2.0", note = "use rich_reset")]
#[tool(tier = destructive, confirm = "wipes all data", permission = "admin", meta(owner = "ops"))]
pub fn rich_wipe() -> String { String::new() }
"#;

fn rich_crate() -> TempDir {
    let dir = TempDir::new("rich");
    dir.write(
        "Cargo.toml",
        "[package]\nname = \"rich\"\nversion = \"0.1.0\"\n\n[package.metadata.tooltable]\nnamespace = \"com.example.rich\"\n",
    );
    dir.write("src/lib.rs", RICH);
    dir
}

fn export(source: &std::path::Path, format: &str, strict: bool) -> common::Run {
    let mut args = vec!["export", "--format", format];
    if strict {
        args.push("--strict");
    }
    args.push(source.to_str().unwrap());
    tooltable(&args)
}

#[test]
fn every_mcp_export_validates_against_both_mcp_schemas() {
    let list_2026 = validator("2026-07-28", "$defs", "ListToolsResult");
    let tool_2025 = validator("2025-06-18", "definitions", "Tool");
    let list_2025 = validator("2025-06-18", "definitions", "ListToolsResult");
    let rich = rich_crate();
    let sources = [
        example(),
        example().join("tools.json"),
        rich.path().to_path_buf(),
    ];
    for source in sources {
        let run = export(&source, "mcp", false);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let result: Value = serde_json::from_str(&run.stdout).unwrap();
        assert_valid(
            &list_2026,
            &result,
            &format!("the export of {}", source.display()),
        );
        assert_valid(
            &list_2025,
            &result,
            &format!("the export of {}", source.display()),
        );
        let tools = result["tools"].as_array().unwrap();
        assert!(!tools.is_empty());
        for tool in tools {
            assert_valid(&tool_2025, tool, &format!("tool {}", tool["name"]));
        }
    }
}

#[test]
fn the_mcp_export_of_a_crate_equals_the_export_of_its_manifest() {
    let from_crate = export(&example(), "mcp", false);
    let from_manifest = export(&example().join("tools.json"), "mcp", false);
    assert_eq!(from_crate.stdout, from_manifest.stdout);
}

/// OpenAI's documented strict-mode rules, checked on one function's parameters.
/// `original` is the schema before the export, to know which properties were optional.
fn strict_violations(schema: &Value, original: &Value) -> Vec<String> {
    const KEYWORDS: [&str; 21] = [
        "type",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "enum",
        "const",
        "anyOf",
        "$ref",
        "$defs",
        "description",
        "title",
        "pattern",
        "format",
        "multipleOf",
        "maximum",
        "exclusiveMaximum",
        "minimum",
        "exclusiveMinimum",
        "minItems",
        "maxItems",
    ];
    const FORMATS: [&str; 9] = [
        "date-time",
        "time",
        "date",
        "duration",
        "email",
        "hostname",
        "ipv4",
        "ipv6",
        "uuid",
    ];
    let mut found = Vec::new();
    if schema["type"] != "object" || schema.get("anyOf").is_some() {
        found.push("the root must be an object, not anyOf".to_owned());
    }
    let mut properties_total = 0;
    fn accepts_null(root: &Value, s: &Value) -> bool {
        if let Some(r) = s.get("$ref").and_then(Value::as_str) {
            return accepts_null(root, root.pointer(&r[1..]).unwrap_or(&Value::Null));
        }
        match s.get("type") {
            Some(Value::String(t)) if t == "null" => return true,
            Some(Value::Array(ts)) if ts.contains(&json!("null")) => return true,
            _ => {}
        }
        s.get("anyOf")
            .and_then(Value::as_array)
            .is_some_and(|a| a.iter().any(|x| accepts_null(root, x)))
    }
    fn walk(
        root: &Value,
        s: &Value,
        original: Option<&Value>,
        at: String,
        depth: usize,
        total: &mut usize,
        found: &mut Vec<String>,
    ) {
        let Some(map) = s.as_object() else {
            found.push(format!("{at}: a schema must be an object"));
            return;
        };
        if depth > 10 {
            found.push(format!("{at}: nested more than 10 levels"));
        }
        for key in map.keys() {
            if !KEYWORDS.contains(&key.as_str()) {
                found.push(format!("{at}: keyword `{key}` is not supported"));
            }
        }
        if let Some(f) = map.get("format").and_then(Value::as_str)
            && !FORMATS.contains(&f)
        {
            found.push(format!("{at}: format `{f}` is not supported"));
        }
        let resolves =
            |r: &str| r == "#" || (r.starts_with("#/$defs/") && root.pointer(&r[1..]).is_some());
        if let Some(r) = map.get("$ref").and_then(Value::as_str)
            && !resolves(r)
        {
            found.push(format!("{at}: `$ref` {r} does not resolve in the schema"));
        }
        let is_object = map.get("type") == Some(&json!("object")) || map.contains_key("properties");
        if is_object {
            if map.get("additionalProperties") != Some(&json!(false)) {
                found.push(format!("{at}: an object needs additionalProperties: false"));
            }
            let props = map
                .get("properties")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default();
            *total += props.len();
            let required: Vec<&str> = map
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let mut keys: Vec<&str> = props.keys().map(String::as_str).collect();
            let mut req = required.clone();
            keys.sort();
            req.sort();
            if keys != req {
                found.push(format!(
                    "{at}: every property must be required ({keys:?} vs {req:?})"
                ));
            }
            let original_required: Vec<&str> = original
                .and_then(|o| o.get("required"))
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            for (name, p) in &props {
                let was = original
                    .and_then(|o| o.get("properties"))
                    .and_then(|o| o.get(name));
                if original.is_some()
                    && !original_required.contains(&name.as_str())
                    && !accepts_null(root, p)
                {
                    found.push(format!(
                        "{at}/properties/{name}: an optional property must accept null"
                    ));
                }
                walk(
                    root,
                    p,
                    was,
                    format!("{at}/properties/{name}"),
                    depth + 1,
                    total,
                    found,
                );
            }
        }
        if let Some(items) = map.get("items") {
            walk(
                root,
                items,
                original.and_then(|o| o.get("items")),
                format!("{at}/items"),
                depth + 1,
                total,
                found,
            );
        }
        for (i, alt) in map
            .get("anyOf")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            walk(
                root,
                alt,
                None,
                format!("{at}/anyOf/{i}"),
                depth,
                total,
                found,
            );
        }
        for (name, def) in map
            .get("$defs")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            let was = original
                .and_then(|o| o.get("$defs"))
                .and_then(|d| d.get(name));
            walk(
                root,
                def,
                was,
                format!("{at}/$defs/{name}"),
                depth,
                total,
                found,
            );
        }
    }
    walk(
        schema,
        schema,
        Some(original),
        String::new(),
        0,
        &mut properties_total,
        &mut found,
    );
    if properties_total > 5000 {
        found.push("more than 5000 object properties in all".into());
    }
    found
}

#[test]
fn openai_strict_exports_pass_the_strict_mode_checker() {
    let rich = rich_crate();
    for source in [example(), rich.path().to_path_buf()] {
        let listed: Value = serde_json::from_str(&export(&source, "mcp", false).stdout).unwrap();
        let run = export(&source, "openai", true);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let tools: Value = serde_json::from_str(&run.stdout).unwrap();
        let tools = tools.as_array().unwrap();
        let originals = listed["tools"].as_array().unwrap();
        assert_eq!(tools.len(), originals.len());
        for (tool, original) in tools.iter().zip(originals) {
            assert_eq!(tool["type"], "function");
            assert_eq!(tool["function"]["strict"], true);
            assert_eq!(tool["function"]["name"], original["name"]);
            let problems =
                strict_violations(&tool["function"]["parameters"], &original["inputSchema"]);
            assert!(
                problems.is_empty(),
                "{}: {problems:?}",
                tool["function"]["name"]
            );
        }
    }
}

#[test]
fn the_checker_catches_a_schema_that_is_not_strict() {
    let schema = json!({"type": "object", "properties": {"a": {"type": "string", "minLength": 1}}, "required": []});
    let problems = strict_violations(&schema, &schema);
    assert_eq!(problems.len(), 4, "{problems:?}");
}

#[test]
fn strict_mode_names_each_construct_it_cannot_express() {
    let dir = TempDir::new("unstrict");
    dir.write(
        "Cargo.toml",
        "[package]\nname = \"u\"\nversion = \"0.1.0\"\n[package.metadata.tooltable]\n",
    );
    dir.write(
        "src/lib.rs",
        "/// P.\n#[derive(serde::Deserialize)]\npub struct P {\n    /// A map.\n    pub counts: std::collections::HashMap<String, u32>,\n    /// A letter.\n    pub letter: char,\n}\n/// Go.\n#[tool(tier = read)]\npub fn go(p: P) -> String { String::new() }\n",
    );
    let run = export(dir.path(), "openai", true);
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(run.stdout.is_empty());
    assert!(run.stderr.contains("tool `go` cannot be exported in strict mode: inputSchema at /properties/counts/additionalProperties: strict mode cannot express a map"), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("at /properties/letter/maxLength: strict mode does not support `maxLength`"),
        "{}",
        run.stderr
    );
    let lax = export(dir.path(), "openai", false);
    assert_eq!(lax.code, 0, "{}", lax.stderr);
}

#[test]
fn anthropic_and_openai_exports_carry_name_description_and_schema() {
    let anthropic: Value =
        serde_json::from_str(&export(&example(), "anthropic", false).stdout).unwrap();
    let first = &anthropic[0];
    assert_eq!(first["name"], "notes_create");
    assert!(
        first["description"]
            .as_str()
            .unwrap()
            .starts_with("Create a note.")
    );
    assert_eq!(first["input_schema"]["type"], "object");
    let openai: Value = serde_json::from_str(&export(&example(), "openai", false).stdout).unwrap();
    assert_eq!(openai[0]["function"]["parameters"], first["input_schema"]);
    assert!(openai[0]["function"].get("strict").is_none());
}

#[test]
fn the_gemini_export_writes_nullable_types_and_parameterless_tools_in_geminis_dialect() {
    let dir = example_without_lowerings();
    let run = export(dir.path(), "gemini", false);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let gemini: Value = serde_json::from_str(&run.stdout).unwrap();
    let declarations = gemini["functionDeclarations"].as_array().unwrap();
    let find = |name: &str| declarations.iter().find(|d| d["name"] == name).unwrap();
    assert_eq!(
        find("notes_create")["parameters"]["properties"]["title"]["type"],
        "string"
    );
    assert_eq!(
        find("notes_create")["parameters"]["properties"]["title"]["nullable"],
        true
    );
    assert_eq!(
        find("notes_stats")["parameters"],
        json!({"type": "object", "properties": {}})
    );
    let openai: Value = serde_json::from_str(&export(dir.path(), "openai", false).stdout).unwrap();
    let stats = openai
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["function"]["name"] == "notes_stats")
        .unwrap();
    assert_eq!(
        stats["function"]["parameters"],
        json!({"type": "object", "properties": {}, "additionalProperties": false}),
        "OpenAI refuses an object schema without `properties`"
    );
}

#[test]
fn a_schema_gemini_refuses_is_an_error_naming_the_rule_and_the_fix() {
    let dir = TempDir::new("gemini");
    dir.write(
        "Cargo.toml",
        "[package]\nname = \"g\"\nversion = \"0.1.0\"\n[package.metadata.tooltable]\n",
    );
    dir.write(
        "src/lib.rs",
        "#[derive(serde::Deserialize, schemars::JsonSchema)]\npub struct Page {\n    /// Which.\n    pub n: u32,\n}\n#[derive(serde::Deserialize, schemars::JsonSchema)]\npub struct Params {\n    /// The page.\n    pub page: Page,\n}\n/// Go.\n#[tool(tier = read)]\npub fn go(_p: Params) -> String { String::new() }\n",
    );
    let run = export(dir.path(), "gemini", false);
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(run.stdout.is_empty());
    assert!(
        run.stderr.contains("error: tool `go` cannot be exported to `gemini`: the schema uses `$defs`, which Gemini's function declarations do not take, so the Gemini API refuses every request that carries it (HTTP 400)")
            && run.stderr.contains("(rule G3, at `/inputSchema/$defs`); set `inline_subschemas = true` in [package.metadata.tooltable]"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_name_the_target_forbids_is_an_error_not_a_rename() {
    let dir = TempDir::new("dotted");
    dir.write("Cargo.toml", "[package]\nname = \"d\"\nversion = \"0.1.0\"\n[package.metadata.tooltable]\nnames = \"mcp\"\n");
    dir.write("src/lib.rs", "/// Go.\n#[tool(name = \"notes.get\", tier = read)]\npub fn go() -> String { String::new() }\n");
    let mcp = export(dir.path(), "mcp", false);
    assert_eq!(mcp.code, 0, "{}", mcp.stderr);
    for format in ["openai", "anthropic"] {
        let run = export(dir.path(), format, false);
        assert_eq!(run.code, 2);
        assert!(
            run.stderr
                .contains("tool `notes.get` cannot be exported to"),
            "{}",
            run.stderr
        );
        assert!(run.stdout.is_empty());
    }
}

#[test]
fn strict_is_refused_for_other_targets() {
    let run = export(&example(), "mcp", true);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("--strict applies to --format openai only")
    );
}
