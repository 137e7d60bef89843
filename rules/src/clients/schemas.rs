//! The input and output schemas each client sends on to a model, or
//! validates itself.
//!
//! Every tool's input schema is already an object schema whose `$ref`s
//! resolve (the rules of [`crate::schema`]), which is what the Anthropic
//! API's root `type` rule and the MCP TypeScript SDK's `$ref` compilation
//! ask; the rules here are the ones a valid MCP schema can still break. A
//! rule broken in many places of one schema is reported once, at the first
//! place, with the count of the others.

use super::{Client, Effect, Rule, Violation};
use serde_json::{Map, Value};

/// The checks of `client` on a tool's descriptor. For
/// [`Client::Portable`], every client's.
pub fn check(client: Client, descriptor: &Value) -> Vec<Violation> {
    if client == Client::Portable {
        let mut found: Vec<Violation> = Vec::new();
        for each in Client::ALL.into_iter().filter(|c| c.in_portable()) {
            for violation in check(each, descriptor) {
                if !found
                    .iter()
                    .any(|v| v.rule == violation.rule && v.pointer == violation.pointer)
                {
                    found.push(violation);
                }
            }
        }
        return found;
    }
    let input = descriptor.get("inputSchema").unwrap_or(&Value::Null);
    let output = descriptor.get("outputSchema");
    let mut found = Findings::default();
    match client {
        Client::Portable | Client::Windsurf | Client::Cursor | Client::Codex => {}
        // Anthropic: no `oneOf`, `anyOf` or `allOf` at the top of
        // `input_schema` (anthropics/claude-code#5973, #45106), and
        // top-level property keys of `^[a-zA-Z0-9_.-]{1,64}$`
        // (decocms/studio#6874). Claude Code forwards schemas as they are.
        Client::ClaudeApi | Client::ClaudeCode => {
            root_combinators(&mut found, Rule::A4, input);
            property_keys(&mut found, input);
        }
        // Claude Desktop's validator of output schemas takes the 2020-12
        // dialect only (modelcontextprotocol/typescript-sdk#2534).
        Client::ClaudeDesktop => {
            if let Some(output) = output {
                foreign_dialect(
                    &mut found,
                    Rule::CD2,
                    Effect::CallFails,
                    "/outputSchema",
                    output,
                );
            }
        }
        // VS Code: every array has `items` (enforced from 1.112), and the
        // 2020-12 dialect's `$schema`, `$dynamicRef`, `$dynamicAnchor` and
        // `unevaluatedProperties` fail its draft-07 validator
        // (microsoft/vscode-copilot-chat `toolSchemaNormalizer.ts`).
        Client::VsCode => {
            walk(input, "/inputSchema", &mut |node, pointer| {
                array_without_items(&mut found, Rule::VS4, Effect::ToolDropped, node, pointer);
                for keyword in ["$dynamicRef", "$dynamicAnchor", "unevaluatedProperties"] {
                    if node.contains_key(keyword) {
                        found.add(
                            Rule::VS5,
                            Effect::ToolDropped,
                            format!("{pointer}/{keyword}"),
                            format!(
                                "the schema uses `{keyword}`, which its draft-07 validator refuses"
                            ),
                            "write the type so that its schema needs no 2020-12 keyword",
                        );
                    }
                }
            });
            if input.get("$schema").is_some() {
                found.add(
                    Rule::VS5,
                    Effect::ToolDropped,
                    "/inputSchema/$schema".into(),
                    "the input schema names its dialect with `$schema`".into(),
                    "serve the schema without `$schema` (tooltable's own schemas never carry one)",
                );
            }
        }
        Client::Gemini => gemini(&mut found, input),
        // gemini-cli sends schemas as `parametersJsonSchema`, where a node
        // with `$ref` may carry only other `$` keywords
        // (ai.google.dev structured-output JSON Schema subset).
        Client::GeminiCli => {
            walk(input, "/inputSchema", &mut |node, pointer| {
                if node.contains_key("$ref")
                    && let Some(other) = node.keys().find(|k| !k.starts_with('$'))
                {
                    found.add(
                        Rule::GJ2,
                        Effect::RequestRefused,
                        format!("{pointer}/{other}"),
                        format!("a `$ref` stands beside `{other}`, and Gemini takes only `$` keywords beside a `$ref`"),
                        "set `inline_subschemas = true` in [package.metadata.tooltable], so the type's schema is written in place, or remove the doc comment or attribute that adds the keyword to the field",
                    );
                }
            });
        }
        // OpenAI: an object schema carries `properties`, and every array
        // `items` (openai/openai-python#1659 and the function-calling
        // errors `object schema missing properties`, `array schema missing
        // items`).
        Client::OpenAi => {
            root_properties(&mut found, input);
            walk(input, "/inputSchema", &mut |node, pointer| {
                array_without_items(&mut found, Rule::O5, Effect::RequestRefused, node, pointer);
            });
        }
        // OpenAI's Structured Outputs, "Supported schemas".
        Client::OpenAiStrict => {
            root_properties(&mut found, input);
            root_combinators(&mut found, Rule::OS1, input);
            walk(input, "/inputSchema", &mut |node, pointer| {
                array_without_items(&mut found, Rule::O5, Effect::RequestRefused, node, pointer);
                strict(&mut found, node, pointer);
            });
        }
    }
    found.violations(client)
}

/// Raw findings, one rule per place, gathered into one violation a rule.
#[derive(Default)]
struct Findings(Vec<(Rule, Effect, String, String, String, usize)>);

impl Findings {
    fn add(
        &mut self,
        rule: Rule,
        effect: Effect,
        pointer: String,
        problem: String,
        fix: impl Into<String>,
    ) {
        match self
            .0
            .iter_mut()
            .find(|(r, _, _, p, ..)| *r == rule && *p == problem)
        {
            Some(first) => first.5 += 1,
            None => self.0.push((rule, effect, pointer, problem, fix.into(), 0)),
        }
    }

    fn violations(self, client: Client) -> Vec<Violation> {
        self.0
            .into_iter()
            .map(|(rule, effect, pointer, problem, fix, others)| Violation {
                client,
                rule,
                effect,
                pointer,
                problem: match others {
                    0 => problem,
                    1 => format!("{problem} (and in 1 other place)"),
                    n => format!("{problem} (and in {n} other places)"),
                },
                fix,
            })
            .collect()
    }
}

/// Visits every schema object under `schema` (itself included), with its
/// pointer; boolean subschemas are left out.
fn walk(schema: &Value, pointer: &str, visit: &mut dyn FnMut(&Map<String, Value>, &str)) {
    let Value::Object(node) = schema else {
        return;
    };
    visit(node, pointer);
    for (here, child) in subschemas(node, pointer) {
        walk(child, &here, visit);
    }
}

/// The schemas `node` holds under its keywords, each with its pointer.
fn subschemas<'a>(node: &'a Map<String, Value>, pointer: &str) -> Vec<(String, &'a Value)> {
    let mut found = Vec::new();
    for (key, value) in node {
        let here = format!("{pointer}/{}", escape(key));
        match key.as_str() {
            "properties" | "patternProperties" | "$defs" | "definitions" | "dependentSchemas" => {
                for (name, child) in value.as_object().into_iter().flatten() {
                    found.push((format!("{here}/{}", escape(name)), child));
                }
            }
            "allOf" | "anyOf" | "oneOf" | "prefixItems" => {
                for (index, child) in value.as_array().into_iter().flatten().enumerate() {
                    found.push((format!("{here}/{index}"), child));
                }
            }
            "items"
            | "additionalProperties"
            | "not"
            | "if"
            | "then"
            | "else"
            | "contains"
            | "propertyNames"
            | "unevaluatedProperties"
            | "unevaluatedItems" => found.push((here, value)),
            _ => {}
        }
    }
    found
}

/// A subschema written as `true` or `false` where a client takes only
/// schema objects; `additionalProperties`, which strict mode demands as
/// `false`, is left to the rules on that keyword.
fn boolean_subschemas(found: &mut Findings, rule: Rule, node: &Map<String, Value>, pointer: &str) {
    for (here, child) in subschemas(node, pointer) {
        if let Value::Bool(value) = child
            && !here.ends_with("/additionalProperties")
        {
            found.add(
                rule,
                Effect::RequestRefused,
                here,
                format!("a subschema is the boolean `{value}`, not a schema object"),
                "a `serde_json::Value` (alone or in a `Vec`) writes `true`: give the field a concrete type",
            );
        }
    }
}

/// A key as a JSON pointer writes it.
fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

fn types(node: &Map<String, Value>) -> Vec<&str> {
    match node.get("type") {
        Some(Value::String(one)) => vec![one.as_str()],
        Some(Value::Array(many)) => many.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

fn array_without_items(
    found: &mut Findings,
    rule: Rule,
    effect: Effect,
    node: &Map<String, Value>,
    pointer: &str,
) {
    if types(node).contains(&"array") && !node.contains_key("items") {
        let fix = if node.contains_key("prefixItems") {
            "a tuple writes `prefixItems` and no `items`: make the parameter a struct with named fields, or a `Vec<T>`"
        } else {
            "give the array an item type (`Vec<T>`)"
        };
        found.add(
            rule,
            effect,
            pointer.into(),
            "an array schema has no `items`".into(),
            fix,
        );
    }
}

fn root_combinators(found: &mut Findings, rule: Rule, input: &Value) {
    for keyword in ["oneOf", "anyOf", "allOf"] {
        if input.get(keyword).is_some() {
            found.add(
                rule,
                Effect::RequestRefused,
                format!("/inputSchema/{keyword}"),
                format!("the input schema has `{keyword}` at its top"),
                "an enum as the parameter type writes it: make the parameters a struct with the enum as a field",
            );
        }
    }
}

/// The fix for the schema of a tool without parameters.
const NO_PARAMETERS: &str = "a tool without parameters is served the schema the MCP specification recommends, `{\"type\": \"object\", \"additionalProperties\": false}`: take as parameters an empty struct that adds them, `#[schemars(extend(\"properties\" = {}))] struct Params {}`";

fn root_properties(found: &mut Findings, input: &Value) {
    if input.get("properties").is_none() {
        found.add(
            Rule::O4,
            Effect::RequestRefused,
            "/inputSchema".into(),
            "the input schema has no `properties`".into(),
            NO_PARAMETERS,
        );
    }
}

fn property_keys(found: &mut Findings, input: &Value) {
    for key in input
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(Map::keys)
    {
        let fits = (1..=64).contains(&key.chars().count())
            && key
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'));
        if !fits {
            found.add(
                Rule::A7,
                Effect::RequestRefused,
                format!("/inputSchema/properties/{}", escape(key)),
                format!("the parameter `{key}` is not 1 to 64 of `A-Z a-z 0-9 _ . -`"),
                "rename the field (`#[serde(rename = \"...\")]`)",
            );
        }
    }
}

fn foreign_dialect(found: &mut Findings, rule: Rule, effect: Effect, at: &str, schema: &Value) {
    if let Some(dialect) = schema.get("$schema").and_then(Value::as_str)
        && dialect != "https://json-schema.org/draft/2020-12/schema"
    {
        found.add(
            rule,
            effect,
            format!("{at}/$schema"),
            format!("the schema declares the dialect `{dialect}`"),
            "serve the schema without `$schema`, or in the 2020-12 dialect",
        );
    }
}

/// The keywords a Gemini function declaration's `parameters` take (an
/// OpenAPI 3.0 subset); any other is an unknown field of the request
/// (ai.google.dev `Schema`; google-gemini/gemini-cli#5330).
const GEMINI_KEYWORDS: [&str; 22] = [
    "type",
    "format",
    "title",
    "description",
    "nullable",
    "enum",
    "maxItems",
    "minItems",
    "properties",
    "required",
    "minProperties",
    "maxProperties",
    "minLength",
    "maxLength",
    "pattern",
    "example",
    "anyOf",
    "propertyOrdering",
    "default",
    "items",
    "minimum",
    "maximum",
];

fn gemini(found: &mut Findings, input: &Value) {
    walk(input, "/inputSchema", &mut |node, pointer| {
        boolean_subschemas(found, Rule::G3, node, pointer);
        for key in node
            .keys()
            .filter(|k| !GEMINI_KEYWORDS.contains(&k.as_str()))
        {
            let no_parameters = pointer == "/inputSchema" && !node.contains_key("properties");
            let fix = match key.as_str() {
                "additionalProperties" if no_parameters => NO_PARAMETERS,
                "$ref" | "$defs" => {
                    "set `inline_subschemas = true` in [package.metadata.tooltable], so every type is written in place (a recursive type cannot be)"
                }
                "additionalProperties" => {
                    "a map (`HashMap`, `BTreeMap`) or `#[serde(deny_unknown_fields)]` writes it, and Gemini has no counterpart: use a list of key-value structs, or drop `deny_unknown_fields`"
                }
                "const" | "oneOf" => {
                    "an enum whose variants carry data or doc comments writes it: use a unit-only enum without variant docs, or a string"
                }
                _ => {
                    "change the type or attribute that writes it, or serve this tool to other clients"
                }
            };
            found.add(
                Rule::G3,
                Effect::RequestRefused,
                format!("{pointer}/{}", escape(key)),
                format!(
                    "the schema uses `{key}`, which Gemini's function declarations do not take"
                ),
                fix,
            );
        }
        if let Some(Value::Array(_)) = node.get("type") {
            found.add(
                Rule::G4,
                Effect::RequestRefused,
                format!("{pointer}/type"),
                "a schema's `type` is a list".into(),
                "an `Option<T>` writes `[T, \"null\"]`: make the field required, or give it a plain type with `#[serde(default)]`",
            );
        }
        let object = types(node).contains(&"object");
        for keyword in ["properties", "required"] {
            if node.contains_key(keyword) && !object {
                found.add(
                    Rule::G5,
                    Effect::RequestRefused,
                    format!("{pointer}/{keyword}"),
                    format!("`{keyword}` stands on a schema whose `type` is not `object`"),
                    "write the schema's `type` as `object`",
                );
            }
        }
        if let Some(Value::Array(values)) = node.get("enum")
            && !values
                .iter()
                .all(|v| v.as_str().is_some_and(|s| !s.is_empty()))
        {
            found.add(
                Rule::G7,
                Effect::RequestRefused,
                format!("{pointer}/enum"),
                "an `enum` holds a value that is not a non-empty string".into(),
                "make the enum's values strings (unit variants, renamed as needed)",
            );
        }
    });
}

/// The keywords strict mode refuses, and its demands on every object
/// (OpenAI Structured Outputs, "Supported schemas").
fn strict(found: &mut Findings, node: &Map<String, Value>, pointer: &str) {
    boolean_subschemas(found, Rule::OS5, node, pointer);
    // A `$ref` stands alone: strict mode refuses keywords beside it, such
    // as the `description` a doc comment on a field of a named type adds
    // (openai/openai-python `_ensure_strict_json_schema` inlines such a
    // reference for that reason, as the Agents SDK does).
    if node.contains_key("$ref")
        && let Some(other) = node.keys().find(|k| *k != "$ref")
    {
        found.add(
            Rule::OS5,
            Effect::RequestRefused,
            format!("{pointer}/{other}"),
            format!("a `$ref` stands beside `{other}`, which strict mode refuses"),
            "set `inline_subschemas = true` in [package.metadata.tooltable], so the type's schema is written in place, or remove the doc comment or attribute that adds the keyword to the field",
        );
    }
    for keyword in [
        "allOf",
        "not",
        "dependentRequired",
        "dependentSchemas",
        "if",
        "then",
        "else",
        "oneOf",
        "default",
    ] {
        if node.contains_key(keyword) {
            found.add(
                Rule::OS5,
                Effect::RequestRefused,
                format!("{pointer}/{keyword}"),
                format!("the schema uses `{keyword}`, which strict mode refuses"),
                "export the tools with `tooltable export --format openai --strict`, which rewrites them for strict mode, or serve them to OpenAI without `strict`",
            );
        }
    }
    if !types(node).contains(&"object") {
        return;
    }
    if node.get("additionalProperties") != Some(&Value::Bool(false)) {
        found.add(
            Rule::OS3,
            Effect::RequestRefused,
            pointer.into(),
            "an object schema does not set `additionalProperties: false`".into(),
            "add `#[serde(deny_unknown_fields)]` to the struct, or export the tools with `tooltable export --format openai --strict`",
        );
    }
    let required: Vec<&str> = node
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    if let Some(optional) = node
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(Map::keys)
        .find(|k| !required.contains(&k.as_str()))
    {
        found.add(
            Rule::OS2,
            Effect::RequestRefused,
            format!("{pointer}/properties/{}", escape(optional)),
            format!("the property `{optional}` is not required"),
            "make every field required (strict mode writes an optional one as a union with `null`), or export the tools with `tooltable export --format openai --strict`",
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rules(client: Client, input: Value) -> Vec<(Rule, String)> {
        check(client, &json!({"name": "t", "inputSchema": input}))
            .into_iter()
            .map(|v| (v.rule, v.pointer))
            .collect()
    }

    #[test]
    fn a_plain_object_of_strings_fits_every_client_and_portable_but_strict_mode() {
        let input =
            json!({"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]});
        for client in Client::ALL {
            let found = rules(client, input.clone());
            match client {
                Client::OpenAiStrict => assert_eq!(found, [(Rule::OS3, "/inputSchema".into())]),
                _ => assert_eq!(found, [], "{client}"),
            }
        }
    }

    #[test]
    fn an_option_and_a_reference_are_what_gemini_refuses() {
        let input = json!({
            "type": "object",
            "properties": {
                "tag": {"type": ["string", "null"]},
                "page": {"$ref": "#/$defs/Page"},
            },
            "$defs": {"Page": {"type": "object", "properties": {"n": {"type": ["integer", "null"]}}}},
        });
        let found = check(Client::Gemini, &json!({"inputSchema": input}));
        let summary: Vec<_> = found.iter().map(|v| (v.rule, v.pointer.as_str())).collect();
        assert_eq!(
            summary,
            [
                (Rule::G3, "/inputSchema/$defs"),
                (Rule::G4, "/inputSchema/$defs/Page/properties/n/type"),
                (Rule::G3, "/inputSchema/properties/page/$ref"),
            ]
        );
        assert_eq!(
            found[1].to_string(),
            "a schema's `type` is a list (and in 1 other place), so the Gemini API refuses every request that carries it (HTTP 400), until the server is removed (rule G4, at `/inputSchema/$defs/Page/properties/n/type`); an `Option<T>` writes `[T, \"null\"]`: make the field required, or give it a plain type with `#[serde(default)]`"
        );
    }

    #[test]
    fn a_boolean_subschema_is_refused_by_gemini_and_strict_mode() {
        let input = json!({
            "type": "object",
            "properties": {"any": {"type": "array", "items": true}},
            "required": ["any"],
            "additionalProperties": false,
        });
        let pointer = "/inputSchema/properties/any/items".to_owned();
        assert_eq!(
            rules(Client::Gemini, input.clone()),
            [
                (Rule::G3, "/inputSchema/additionalProperties".into()),
                (Rule::G3, pointer.clone())
            ]
        );
        assert_eq!(rules(Client::OpenAiStrict, input), [(Rule::OS5, pointer)]);
    }

    #[test]
    fn a_reference_beside_a_description_is_refused_by_strict_mode_alone() {
        let input = json!({
            "type": "object",
            "properties": {"page": {"$ref": "#/$defs/Page", "description": "Which page."}},
            "required": ["page"],
            "additionalProperties": false,
            "$defs": {"Page": {"type": "object", "properties": {}, "additionalProperties": false}},
        });
        assert_eq!(
            rules(Client::OpenAiStrict, input.clone()),
            [(Rule::OS5, "/inputSchema/properties/page/description".into())]
        );
        assert_eq!(rules(Client::OpenAi, input), []);
    }

    #[test]
    fn a_tuple_is_an_array_without_items_for_vs_code_and_openai() {
        let input = json!({"type": "object", "properties": {
            "pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "minItems": 2, "maxItems": 2},
        }});
        let pointer = "/inputSchema/properties/pair".to_owned();
        assert_eq!(
            rules(Client::VsCode, input.clone()),
            [(Rule::VS4, pointer.clone())]
        );
        assert_eq!(rules(Client::OpenAi, input), [(Rule::O5, pointer)]);
    }

    #[test]
    fn an_enum_as_the_parameters_is_refused_at_the_top_by_anthropic() {
        let input = json!({"type": "object", "oneOf": [{"properties": {"a": {"type": "string"}}}]});
        assert_eq!(
            rules(Client::ClaudeCode, input),
            [(Rule::A4, "/inputSchema/oneOf".into())]
        );
    }

    #[test]
    fn a_parameter_name_anthropic_refuses_is_named() {
        let input = json!({"type": "object", "properties": {"a b": {"type": "string"}}});
        assert_eq!(
            rules(Client::ClaudeApi, input),
            [(Rule::A7, "/inputSchema/properties/a b".into())]
        );
    }

    #[test]
    fn claude_desktop_fails_calls_of_a_tool_whose_output_schema_is_draft_07() {
        let descriptor = json!({
            "inputSchema": {"type": "object", "properties": {}},
            "outputSchema": {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"},
        });
        let found = check(Client::ClaudeDesktop, &descriptor);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].effect, Effect::CallFails);
        assert_eq!(found[0].pointer, "/outputSchema/$schema");
    }
}
