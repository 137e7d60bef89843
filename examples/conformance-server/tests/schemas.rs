//! The baked schemas equal schemars', and the JSON Schema 2020-12 tool
//! serves exactly the schema the conformance suite expects.

use conformance_server::TOOLS;
use serde_json::json;

/// The guard ignores a root `$schema` the build keeps (the 2020-12 tool's
/// parameters set one, which the suite checks): every schema matches.
#[test]
fn every_baked_schema_equals_schemars() {
    let compared = tooltable::testing::assert_schemas_match(&TOOLS);
    assert!(compared > 0, "no schema compared");
}

#[test]
fn the_2020_12_tool_serves_the_suites_schema_verbatim() {
    let tool = TOOLS
        .get("json_schema_2020_12_tool")
        .expect("json_schema_2020_12_tool is baked");
    let expected = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$defs": {
            "address": {
                "$anchor": "addressDef",
                "type": "object",
                "properties": {"street": {"type": "string"}, "city": {"type": "string"}}
            }
        },
        "properties": {
            "name": {"type": "string"},
            "address": {"$ref": "#/$defs/address"},
            "contactMethod": {"type": "string", "enum": ["phone", "email"]},
            "phone": {"type": "string"},
            "email": {"type": "string"}
        },
        "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
        "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
        "then": {"required": ["phone"]},
        "else": {"required": ["email"]},
        "additionalProperties": false
    });
    assert_eq!(tool.descriptor()["inputSchema"], expected);
}
