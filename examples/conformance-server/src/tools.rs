//! The fixture's tools, as ordinary tooltable handlers.
//!
//! The conformance scenarios call these by name and check what they return:
//! one tool per content kind, a tool that fails with an error result, the
//! triggers that change the prompt and tool lists (for the stateless
//! lifecycle's subscriptions, SEP-2575), a tool whose input schema
//! uses JSON Schema 2020-12 keywords clients must pass through untouched,
//! and one whose argument is mirrored into an HTTP header (SEP-2243). Names,
//! texts and payloads are the suite's.

use crate::{Fixture, PNG, WAV};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use tooltable::{Content, ToolError, tool};

/// Returns a simple text response.
#[tool(tier = read, world = closed)]
pub fn test_simple_text() -> &'static str {
    "This is a simple text response for testing."
}

/// Returns an image: a 1×1 PNG.
#[tool(tier = read, world = closed)]
pub fn test_image_content() -> Content {
    Content::image(PNG, "image/png")
}

/// Returns audio: a minimal WAV file.
#[tool(tier = read, world = closed)]
pub fn test_audio_content() -> Content {
    Content::audio(WAV, "audio/wav")
}

/// Returns a text resource embedded in the result.
#[tool(tier = read, world = closed)]
pub fn test_embedded_resource() -> Content {
    Content::resource_text(
        "test://embedded-resource",
        "text/plain",
        "This is an embedded resource content.",
    )
}

/// Returns text, an image and an embedded resource in one result.
#[tool(tier = read, world = closed)]
pub fn test_multiple_content_types() -> Vec<Content> {
    vec![
        Content::text("Multiple content types test:"),
        Content::image(PNG, "image/png"),
        Content::resource_text(
            "test://mixed-content-resource",
            "application/json",
            r#"{"test":"data","value":123}"#,
        ),
    ]
}

/// Always fails, with an error result the model can read.
#[tool(tier = read, world = closed)]
pub fn test_error_handling() -> Result<&'static str, ToolError> {
    Err(ToolError::new(
        "This tool intentionally returns an error for testing",
    ))
}

/// Announces that the prompt list changed, to every client listening for it.
#[tool(tier = write, world = closed)]
pub async fn test_trigger_prompt_change(fixture: &Fixture) -> &'static str {
    fixture.prompts_changed().await;
    "Mutation triggered"
}

/// Changes the tool list: switches `test_toggled_tool` off if it is on, on
/// if it is off. The registry tells every client listening for changes.
#[tool(tier = write, world = closed)]
pub fn test_trigger_tool_change(fixture: &Fixture) -> Result<&'static str, ToolError> {
    let registry = fixture.registry();
    let enabled = registry
        .describe()
        .iter()
        .any(|tool| tool.name == TOGGLED && tool.enabled);
    registry.set_enabled(TOGGLED, !enabled)?;
    Ok("Mutation triggered")
}

/// The tool `test_trigger_tool_change` switches on and off.
const TOGGLED: &str = "test_toggled_tool";

/// Listed, or not: `test_trigger_tool_change` switches it on and off.
#[tool(tier = read, world = closed)]
pub fn test_toggled_tool() -> &'static str {
    "The toggled tool is on"
}

/// Echoes its arguments; its input schema uses JSON Schema 2020-12 keywords
/// ($defs with an $anchor, allOf/anyOf, if/then/else).
#[tool(tier = read, world = closed)]
pub fn json_schema_2020_12_tool(params: Contact) -> Result<String, ToolError> {
    let arguments = serde_json::to_string(&params)?;
    Ok(format!("JSON Schema 2020-12 tool called with: {arguments}"))
}

/// Echoes a region the client also sends in the `Mcp-Param-Region` header
/// (SEP-2243), which the server checks against the argument.
#[tool(tier = read, world = closed)]
pub fn test_custom_header(params: RegionParams) -> String {
    format!("Region: {}", params.region)
}

/// Where.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct RegionParams {
    /// The region, mirrored into the `Mcp-Param-Region` header.
    #[schemars(extend("x-mcp-header" = "Region"))]
    pub region: String,
}

// The types below carry no doc comments on purpose: a doc comment becomes a
// `description` in the input schema, which the suite expects verbatim.

// A way to reach someone: a name, an address, and a phone number or an
// email address as the contact method says.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schemars(extend(
    "$schema" = "https://json-schema.org/draft/2020-12/schema",
    "allOf" = [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
    "if" = {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
    "then" = {"required": ["phone"]},
    "else" = {"required": ["email"]},
))]
pub struct Contact {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Address")]
    pub address: Option<Address>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "ContactMethod")]
    pub contact_method: Option<ContactMethod>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub phone: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub email: Option<String>,
}

// A postal address, defined once under `$defs` and anchored.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[schemars(rename = "address", extend("$anchor" = "addressDef"))]
pub struct Address {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub street: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub city: Option<String>,
}

// How to reach the contact.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
#[schemars(inline)]
pub enum ContactMethod {
    Phone,
    Email,
}
