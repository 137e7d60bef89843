//! Every schema the build serves is a valid JSON Schema 2020-12 document,
//! and every served `Tool` validates against the official MCP schema. The
//! example and both schema corpora are read with the build script's own
//! analysis; nothing is compiled.

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use tooltable_codegen::analysis::{CfgEnv, analyze};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn mcp_tool_validator() -> jsonschema::Validator {
    let path = workspace().join("tests/data/mcp-schema/2026-07-28/schema.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut schema: Value = serde_json::from_str(&text).unwrap();
    schema["$ref"] = json!("#/$defs/Tool");
    jsonschema::options()
        .build(&schema)
        .expect("the MCP schema compiles")
}

fn check_crate(dir: &str, features: &[&str]) -> usize {
    let cfg = CfgEnv::from_vars(features.iter().map(|f| {
        (
            format!("CARGO_FEATURE_{}", f.to_uppercase()),
            "1".to_owned(),
        )
    }));
    let analysis = analyze(&workspace().join(dir), &cfg).unwrap_or_else(|e| panic!("{dir}: {e:?}"));
    assert!(
        !analysis.has_errors(),
        "{dir}: {:?}",
        analysis.diagnostics()
    );
    let tool_validator = mcp_tool_validator();
    let meta = jsonschema::draft202012::meta::validator();
    let mut problems = Vec::new();
    let manifest = analysis.manifest();
    for tool in &manifest.tools {
        for key in ["inputSchema", "outputSchema"] {
            if let Some(schema) = tool.descriptor.get(key) {
                if let Err(e) = meta.validate(schema) {
                    problems.push(format!(
                        "{}: {key} is not valid JSON Schema 2020-12: {e}",
                        tool.name
                    ));
                }
                if let Err(e) = jsonschema::draft202012::options().build(schema) {
                    problems.push(format!(
                        "{}: {key} does not compile as JSON Schema 2020-12: {e}",
                        tool.name
                    ));
                }
            }
        }
        for error in tool_validator.iter_errors(&tool.descriptor) {
            problems.push(format!(
                "{}: the descriptor is not an MCP Tool at {}: {error}",
                tool.name,
                error.instance_path()
            ));
        }
    }
    assert!(problems.is_empty(), "{dir}:\n{}", problems.join("\n"));
    manifest.tools.len()
}

#[test]
fn the_example_s_schemas_are_valid_json_schema_and_its_tools_valid_mcp_tools() {
    assert_eq!(check_crate("examples/notes-server", &[]), 8);
}

#[test]
fn the_conformance_fixture_s_schemas_are_valid_json_schema_and_its_tools_valid_mcp_tools() {
    assert!(check_crate("examples/conformance-server", &[]) > 20);
}

#[test]
fn the_corpus_s_schemas_are_valid_json_schema_and_its_tools_valid_mcp_tools() {
    let count = check_crate("tests/corpus", &["camel"]);
    println!("validated the schemas and descriptors of {count} corpus tools");
    assert!(count >= 80);
}

#[test]
fn the_inline_corpus_s_schemas_are_valid_json_schema_and_its_tools_valid_mcp_tools() {
    assert!(check_crate("tests/corpus-inline", &["camel"]) >= 80);
}
