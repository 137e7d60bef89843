//! Providers: tools registered at run time, held to the build's rules.
//!
//! A provider hands the registry a batch of tools built at run time (from a
//! plugin directory, a remote catalogue). The whole batch is validated with
//! the same functions the build script uses (name profile and prefixes,
//! duplicates against the table, earlier providers and the batch itself,
//! object input schemas with local references, confirmation, declarations,
//! the descriptor size limit) and described and fingerprinted the same way.
//! Only a fully valid batch is added; a failing batch says which tool broke
//! which rule and leaves the registry exactly as it was.

use crate::call::handler::DynHandler;
use crate::rules::clients::{self, Level};
use crate::rules::confirm::{self, Confirm};
use crate::rules::declarations::validate_declaration;
use crate::rules::info::ToolInfo;
use crate::rules::limits;
use crate::rules::lowering;
use crate::rules::names::validate_name;
use crate::rules::param_headers;
use crate::rules::schema;
use crate::rules::task::TaskSupport;
use crate::rules::tier::{Annotations, Tier, World};
use crate::rules::validate::Validator;
use crate::rules::{always_listed, search_hint};
use crate::table::Settings;
use crate::wire::descriptor::{self, DescriptorParts};
use crate::wire::fingerprint::{Fingerprint, descriptor_fingerprint};
use serde_json::{Map, Value};
use std::collections::BTreeSet;
use std::fmt;

/// A tool a provider offers.
pub struct ProvidedTool<C: 'static> {
    /// The name.
    pub name: String,
    /// A display title.
    pub title: Option<String>,
    /// The description a model reads.
    pub description: String,
    /// The risk tier.
    pub tier: Tier,
    /// Whether repeating a call has no further effect.
    pub idempotent: bool,
    /// Whether it reaches beyond the server's own data.
    pub world: World,
    /// Whether calls need confirmation, and the consequence it names.
    pub confirm: Option<Confirm<'static>>,
    /// Whether a call may run as a task.
    pub task: TaskSupport,
    /// The permission a caller needs.
    pub permission: Option<String>,
    /// The toolset it belongs to.
    pub toolset: Option<String>,
    /// The input schema (an object schema).
    pub input_schema: Value,
    /// The output schema (an object schema), for structured output.
    pub output_schema: Option<Value>,
    /// Declarations carried in `_meta`.
    pub declarations: Map<String, Value>,
    /// Words a client's tool search should find the tool by, served in
    /// `_meta` as a tool's `#[tool(search_hint = "...")]` is.
    pub search_hint: Option<String>,
    /// Listed beside discovery's search tool, and served with `_meta` that
    /// tells a client deferring tools to load it at once, as a tool's
    /// `#[tool(always_listed)]` is.
    pub always_listed: bool,
    /// The handler.
    pub handler: DynHandler<C>,
}

impl<C: 'static> ProvidedTool<C> {
    /// A tool with the safe defaults: open world, not idempotent, no
    /// confirmation, no permission, an input schema accepting no arguments.
    pub fn new(
        name: impl Into<String>,
        tier: Tier,
        description: impl Into<String>,
        handler: DynHandler<C>,
    ) -> ProvidedTool<C> {
        ProvidedTool {
            name: name.into(),
            title: None,
            description: description.into(),
            tier,
            idempotent: false,
            world: World::Open,
            confirm: None,
            task: TaskSupport::Forbidden,
            permission: None,
            toolset: None,
            input_schema: schema::no_parameters(),
            output_schema: None,
            declarations: Map::new(),
            search_hint: None,
            always_listed: false,
            handler,
        }
    }
}

/// Offers tools at run time.
pub trait Provider<C: 'static>: Send + Sync {
    /// The provider's name, used in errors and as the tools' source.
    fn name(&self) -> &str;
    /// The batch of tools to register.
    fn tools(&self) -> Vec<ProvidedTool<C>>;
}

/// A provided tool, validated and described.
pub struct Registered<C: 'static> {
    pub(crate) name: String,
    title: Option<String>,
    summary: String,
    tier: Tier,
    idempotent: bool,
    world: World,
    confirm: Option<Confirm<'static>>,
    task: TaskSupport,
    permission: Option<String>,
    toolset: Option<String>,
    always_listed: bool,
    source: String,
    pub(crate) descriptor: Value,
    pub(crate) input: Validator,
    pub(crate) output: Option<Validator>,
    pub(crate) descriptor_text: String,
    pub(crate) fingerprint: Fingerprint,
    pub(crate) handler: DynHandler<C>,
}

impl<C: 'static> Registered<C> {
    /// The tool's metadata.
    pub fn info(&self) -> ToolInfo<'_> {
        ToolInfo {
            name: &self.name,
            title: self.title.as_deref(),
            summary: &self.summary,
            tier: self.tier,
            idempotent: self.idempotent,
            world: self.world,
            confirm: self.confirm.as_ref().map(Confirm::borrowed),
            task: self.task,
            permission: self.permission.as_deref(),
            toolset: self.toolset.as_deref(),
            always_listed: self.always_listed,
            since: None,
            platforms: &[],
            source: &self.source,
            admin_summary: None,
            example: None,
        }
    }
}

/// Why a provider's batch was refused: which provider, which tool, which rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BatchError {
    /// The provider.
    pub provider: String,
    /// The tool that broke the rule.
    pub tool: String,
    /// The rule, as a sentence.
    pub rule: String,
}

impl fmt::Display for BatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "provider `{}` was not registered: its tool `{}` is refused: {}; none of its tools were added",
            self.provider, self.tool, self.rule
        )
    }
}

impl std::error::Error for BatchError {}

/// The first client rule the tool breaks at the level of an error, among
/// the profiles the crate names: the build's check, so a tool registered at
/// run time cannot load where a baked one could not.
fn unfit(settings: &Settings, name: &str, descriptor: &Value) -> Option<String> {
    settings.clients.iter().find_map(|&profile| {
        clients::check_tool(profile, settings.server_name, name, descriptor)
            .into_iter()
            .find(|v| settings.level(v.rule) == Level::Error)
            .map(|v| format!("it does not fit `{profile}`: {v}"))
    })
}

/// Validates and describes a whole batch. `taken` names the tool that
/// already holds a name (of the table or of an earlier provider), if any.
pub(crate) fn validate_batch<C: 'static>(
    settings: &Settings,
    provider: &str,
    batch: Vec<ProvidedTool<C>>,
    taken: impl Fn(&str) -> Option<String>,
) -> Result<Vec<Registered<C>>, BatchError> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::with_capacity(batch.len());
    for tool in batch {
        let refuse = |rule: String| BatchError {
            provider: provider.to_owned(),
            tool: tool.name.clone(),
            rule,
        };
        validate_name(&tool.name, settings.names, settings.prefixes)
            .map_err(|e| refuse(e.to_string()))?;
        if let Some(holder) = taken(&tool.name) {
            return Err(refuse(format!(
                "the name is already taken by {holder}; a provider never replaces a tool, so rename one of the two (or leave this one out until the other is gone)"
            )));
        }
        if !seen.insert(tool.name.clone()) {
            return Err(refuse("the name appears twice in the batch".into()));
        }
        if tool.description.trim().is_empty() {
            return Err(refuse(
                "the description is empty; a model reads it to decide when to call the tool".into(),
            ));
        }
        if tool.tier == Tier::Read && tool.confirm.is_some() {
            return Err(refuse("a `read` tool cannot require confirmation".into()));
        }
        let mut input = tool.input_schema.clone();
        schema::check_input_schema(&input).map_err(|e| refuse(e.to_string()))?;
        let headers = param_headers::check(&input);
        if !headers.is_empty() {
            let problems: Vec<String> = headers
                .iter()
                .map(|p| format!("at `{}`, {}", p.pointer, p.message))
                .collect();
            return Err(refuse(problems.join("; ")));
        }
        lowering::lower_input(settings.lowerings, &mut input);
        if let Some(required) = &tool.confirm {
            confirm::inject(&mut input, required).map_err(|e| refuse(e.to_string()))?;
        }
        if let Some(output) = &tool.output_schema {
            if !schema::is_object_schema(output) {
                return Err(refuse(
                    "the output schema must have `\"type\": \"object\"` at its root".into(),
                ));
            }
            schema::check_refs(output).map_err(|e| refuse(e.to_string()))?;
        }
        for (name, value) in &tool.declarations {
            validate_declaration(name, value).map_err(|e| refuse(e.to_string()))?;
        }
        let mut meta = Map::new();
        if !tool.declarations.is_empty() {
            meta.insert(
                settings.declarations_key.to_owned(),
                Value::Object(tool.declarations.clone()),
            );
        }
        if let Some(hint) = &tool.search_hint {
            search_hint::check(hint)
                .map_err(|e| refuse(format!("its search hint cannot be served: {e}")))?;
            meta.insert(search_hint::KEY.into(), Value::String(hint.clone()));
        }
        if tool.always_listed {
            meta.insert(always_listed::KEY.into(), Value::Bool(true));
        }
        let input_validator = Validator::new(&input)
            .map_err(|e| refuse(format!("its input schema cannot be enforced: {e}")))?;
        let output_validator = match &tool.output_schema {
            Some(output) => Some(
                Validator::new(output)
                    .map_err(|e| refuse(format!("its output schema cannot be enforced: {e}")))?,
            ),
            None => None,
        };
        let descriptor = descriptor::build(DescriptorParts {
            name: &tool.name,
            title: tool.title.as_deref(),
            icons: &[],
            description: tool.description.trim(),
            input_schema: input,
            output_schema: tool.output_schema.clone(),
            annotations: Annotations::derive(tool.tier, tool.idempotent, tool.world),
            task: tool.task,
            meta,
        });
        if let Some(violation) = unfit(settings, &tool.name, &descriptor) {
            return Err(refuse(violation));
        }
        let descriptor_text = descriptor::to_text(&descriptor);
        limits::check_descriptor_size(&tool.name, &descriptor_text).map_err(refuse)?;
        let fingerprint = descriptor_fingerprint(&descriptor, tool.permission.as_deref());
        let summary = descriptor::summary(&tool.description);
        out.push(Registered {
            name: tool.name,
            title: tool.title,
            summary,
            tier: tool.tier,
            idempotent: tool.idempotent,
            world: tool.world,
            confirm: tool.confirm,
            task: tool.task,
            permission: tool.permission,
            toolset: tool.toolset,
            always_listed: tool.always_listed,
            source: format!("provider:{provider}"),
            descriptor,
            input: input_validator,
            output: output_validator,
            descriptor_text,
            fingerprint,
            handler: tool.handler,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::call::handle::Call;
    use crate::call::handler::{BoxFuture, Outcome, Output};
    use crate::rules::clients::Client;
    use crate::rules::lowering::Lowering;
    use crate::rules::names::NameProfile;
    use serde_json::json;

    fn settings(lowerings: &'static [Lowering]) -> Settings {
        Settings {
            names: NameProfile::Portable,
            prefixes: &[],
            declarations_key: "dev.tooltable.test/declarations",
            inline_subschemas: false,
            clients: &[Client::Gemini, Client::OpenAi],
            server_name: "test",
            client_levels: &[],
            lowerings,
        }
    }

    fn tools() -> Vec<ProvidedTool<()>> {
        let nothing = || {
            crate::registry::registry::handler(|_: &(), _, _: &Call| -> BoxFuture<'_, Outcome> {
                Box::pin(async { Ok(Output::Text(String::new())) })
            })
        };
        let mut tagged = ProvidedTool::new("tagged", Tier::Read, "Tagged.", nothing());
        tagged.input_schema =
            json!({"type": "object", "properties": {"tag": {"type": ["string", "null"]}}});
        vec![
            ProvidedTool::new("bare", Tier::Read, "Bare.", nothing()),
            tagged,
        ]
    }

    #[test]
    fn a_provided_tool_is_lowered_as_the_crate_asks_before_its_clients_are_checked() {
        let refused = validate_batch(&settings(&[]), "p", tools(), |_| None)
            .err()
            .expect("without the lowerings, Gemini and OpenAI refuse the tools");
        assert!(refused.rule.contains("does not fit `gemini`"), "{refused}");

        let lowered = validate_batch(
            &settings(&[Lowering::EmptyParameters, Lowering::OptionalNotNull]),
            "p",
            tools(),
            |_| None,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            lowered[0].descriptor["inputSchema"],
            json!({"type": "object", "properties": {}})
        );
        assert_eq!(
            lowered[1].descriptor["inputSchema"],
            json!({"type": "object", "properties": {"tag": {"type": "string"}}})
        );
    }
}
