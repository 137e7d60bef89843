//! From declarations to served descriptors, validated as a whole table.
//!
//! For every tool: lower its parameter and output types to schemas, inject
//! the `confirm` argument when it confirms, assemble the descriptor exactly
//! as `tools/list` will serve it, and fingerprint it. Then check the table
//! as a whole (names under the crate's profile and prefixes, duplicates with
//! both places, one context type) and report every problem at once, each
//! with its file, line and column.

use crate::config::Config;
use crate::diagnostic::{ClientFinding, Diagnostic, Location};
use crate::lower::{Contract, LowerError, Lowerer};
use crate::model::ToolDecl;
use crate::resolve::Resolved;
use crate::scan::{Crate, ModuleId};
use crate::syntax::attr::ToolAttr;
use crate::syntax::doc;
use crate::syntax::signature::OutputKind;
use quote::ToTokens;
use serde_json::{Map, Value, json};
use syn::spanned::Spanned;
use tooltable_rules::clients::{Client, Level};
use tooltable_rules::context::Cost;
use tooltable_rules::info::ToolInfo;
use tooltable_rules::names::validate_name;
use tooltable_rules::tier::{Annotations, Tier, World};
use tooltable_rules::validate::{self, NO_VALIDATOR, SchemaError, Validator};
use tooltable_rules::wire::descriptor;
use tooltable_rules::wire::fingerprint::{self, Fingerprint};
use tooltable_rules::wire::manifest::{Manifest, ManifestTool};
use tooltable_rules::{
    always_listed, clients, confirm, limits, lowering, model_text, schema, search_hint,
};

/// One tool, ready to be baked.
#[derive(Clone, Debug)]
pub struct DescribedTool {
    /// The declaration it came from.
    pub decl: ToolDecl,
    /// The tool's name.
    pub name: String,
    /// The first paragraph of its description, on one line.
    pub summary: String,
    /// Its full description.
    pub description: String,
    /// The file that declares it, relative to the crate, with `/` separators.
    pub source: String,
    /// The descriptor exactly as served.
    pub descriptor: Value,
    /// The descriptor's served text.
    pub descriptor_text: String,
    /// What that text costs a model's context.
    pub cost: Cost,
    /// The fingerprint of descriptor and permission.
    pub fingerprint: Fingerprint,
    /// Whether structured output is wrapped as `{"result": ..}`.
    pub wrap_output: bool,
    /// Whether the input schema promises more than the parameter type
    /// enforces, so the server validates arguments against it.
    pub validates: bool,
    /// The declared example arguments, as compact JSON text.
    pub example: Option<String>,
}

impl DescribedTool {
    /// The tier.
    pub fn tier(&self) -> Tier {
        self.decl.attr.tier.value
    }

    /// The world.
    pub fn world(&self) -> World {
        self.decl.attr.world()
    }

    /// The permission, if any.
    pub fn permission(&self) -> Option<&str> {
        self.decl.attr.permission.as_ref().map(|p| p.value.as_str())
    }

    /// The declared platforms, borrowed, for [`DescribedTool::info`].
    pub fn platforms(&self) -> Vec<&str> {
        self.decl
            .attr
            .platforms
            .as_ref()
            .map(|p| p.value.iter().map(String::as_str).collect())
            .unwrap_or_default()
    }

    /// The tool's metadata, as the runtime's table will hold it (with the
    /// platforms from [`DescribedTool::platforms`]).
    pub fn info<'a>(&'a self, platforms: &'a [&'a str]) -> ToolInfo<'a> {
        let attr = &self.decl.attr;
        let text = |s: &'a Option<crate::syntax::attr::Spanned<String>>| {
            s.as_ref().map(|s| s.value.as_str())
        };
        ToolInfo {
            name: &self.name,
            title: text(&attr.title),
            summary: &self.summary,
            tier: self.tier(),
            idempotent: attr.idempotent(),
            world: self.world(),
            task: attr.task(),
            confirm: attr.confirm.as_ref().map(|c| c.value.borrowed()),
            permission: text(&attr.permission),
            toolset: text(&attr.toolset),
            always_listed: attr.always_listed(),
            since: text(&attr.since),
            platforms,
            source: &self.source,
            admin_summary: text(&attr.admin_summary),
            example: self.example.as_deref(),
        }
    }

    /// The manifest entry of this tool.
    pub fn manifest_tool(&self) -> ManifestTool {
        let platforms = self.platforms();
        ManifestTool::new(
            &self.info(&platforms),
            self.fingerprint,
            self.descriptor.clone(),
        )
    }
}

/// How the generated table names its context type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ContextType {
    /// No tool takes a context: `()`.
    Unit,
    /// Through a free-function tool's marker (works whatever the privacy of the type's module).
    Marker(String),
    /// By path from the crate root (method tools only).
    Path(String),
}

/// A whole table, described.
#[derive(Clone, Debug)]
pub struct Table {
    /// The tools, sorted by name.
    pub tools: Vec<DescribedTool>,
    /// The context type.
    pub context: ContextType,
}

impl Table {
    /// The manifest of the table.
    pub fn manifest(&self, config: &Config) -> Manifest {
        Manifest::new(
            config.package_name.clone(),
            self.tools
                .iter()
                .map(DescribedTool::manifest_tool)
                .collect(),
        )
    }
}

/// The `x-mcp-header` problems of a tool's input schema, each at the
/// `extend` that wrote it when the build can find it, else at the
/// parameter type (`fallback`).
fn header_errors(
    krate: &Crate,
    lowerer: &Lowerer<'_>,
    tool: &str,
    schema: &serde_json::Value,
    fallback: crate::diagnostic::Location,
) -> Vec<Diagnostic> {
    use tooltable_rules::param_headers::{HeaderRule, check};
    let written = lowerer.header_extensions();
    check(schema)
        .into_iter()
        .map(|problem| {
            let matching = written.iter().filter(|(header, ..)| {
                problem
                    .header
                    .as_ref()
                    .is_some_and(|h| h.eq_ignore_ascii_case(header))
            });
            // A name used twice is the later one's problem.
            let found = if problem.rule == HeaderRule::Unique {
                matching.clone().next_back()
            } else {
                matching
                    .clone()
                    .find(|(header, ..)| problem.header.as_deref() == Some(header.as_str()))
            };
            let at = found.map_or_else(
                || fallback.clone(),
                |(_, module, span)| krate.location(*module, *span),
            );
            Diagnostic::error(
                at,
                format!(
                    "{} (tool `{tool}`, its input schema at `{}`)",
                    problem.message,
                    if problem.pointer.is_empty() {
                        "/"
                    } else {
                        &problem.pointer
                    }
                ),
            )
        })
        .collect()
}

fn lower_error(krate: &Crate, e: LowerError) -> Diagnostic {
    Diagnostic::error(krate.location(e.module, e.span), e.message)
}

/// Describes and validates every tool; returns the table and every problem found.
pub fn describe(config: &Config, krate: &Crate, decls: Vec<ToolDecl>) -> (Table, Vec<Diagnostic>) {
    let lowerer = Lowerer::new(krate, config.inline_subschemas);
    let mut diagnostics = Vec::new();
    let mut tools = Vec::with_capacity(decls.len());
    for decl in decls {
        match describe_tool(config, krate, &lowerer, decl) {
            Ok((tool, warnings)) => {
                diagnostics.extend(warnings);
                tools.push(tool);
            }
            Err(errors) => diagnostics.extend(errors),
        }
    }
    tools.sort_by(|a, b| a.name.cmp(&b.name));
    check_duplicates(krate, &tools, &mut diagnostics);
    diagnostics.extend(
        check_clients(&config.clients, config, krate, &tools)
            .into_iter()
            .map(|finding| finding.diagnostic),
    );
    check_model_text(config, krate, &tools, &mut diagnostics);
    check_context_budget(config, krate, &tools, &mut diagnostics);
    let context = context_type(krate, &lowerer, &tools, &mut diagnostics);
    (Table { tools, context }, diagnostics)
}

/// The lint of what the model reads, on every tool: each finding at the
/// handler (its description) or its parameter type (a parameter's), at the
/// level `lint_levels` gives it.
fn check_model_text(
    config: &Config,
    krate: &Crate,
    tools: &[DescribedTool],
    diagnostics: &mut Vec<Diagnostic>,
) {
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    for tool in tools {
        let others: Vec<&str> = names
            .iter()
            .copied()
            .filter(|name| *name != tool.name)
            .collect();
        for finding in model_text::check(&tool.descriptor, &others) {
            let Some(report) = reported(config.lint_level(finding.lint)) else {
                continue;
            };
            let span = place_of(tool, &finding.pointer, tool.decl.fn_ident.span());
            diagnostics.push(report(
                krate.location(tool.decl.module, span),
                format!("tool `{}`: {finding}", tool.name),
            ));
        }
    }
}

/// The tools against `context_budget`: a tool over its part at its name,
/// a listing over its part at the budget in Cargo.toml, naming the
/// costliest tools.
fn check_context_budget(
    config: &Config,
    krate: &Crate,
    tools: &[DescribedTool],
    diagnostics: &mut Vec<Diagnostic>,
) {
    let budget = &config.context_budget;
    let costs: Vec<(&str, Cost)> = tools.iter().map(|t| (t.name.as_str(), t.cost)).collect();
    for (tool, (name, cost)) in tools.iter().zip(&costs) {
        if let Some(over) = budget.check_tool(name, *cost) {
            diagnostics.push(Diagnostic::error(
                krate.location(tool.decl.module, tool.decl.name_span),
                over,
            ));
        }
    }
    if let Some(over) = budget.check_listing(costs) {
        diagnostics.push(match &config.context_budget_at {
            Some(at) => Diagnostic::error(at.clone(), over),
            None => Diagnostic::general(over),
        });
    }
}

/// Where a problem at `pointer` in a tool's descriptor is reported: one in
/// the input schema at the parameter type, any other at `otherwise`.
fn place_of(
    tool: &DescribedTool,
    pointer: &str,
    otherwise: proc_macro2::Span,
) -> proc_macro2::Span {
    match &tool.decl.shape.params {
        Some(params) if pointer.starts_with("/inputSchema") => params.span(),
        _ => otherwise,
    }
}

/// How a broken client rule at `level` is reported, if at all.
fn reported(level: Level) -> Option<fn(crate::diagnostic::Location, String) -> Diagnostic> {
    match level {
        Level::Error => Some(Diagnostic::error),
        Level::Warn => Some(Diagnostic::warning),
        Level::Allow => None,
    }
}

/// Every tool against every client profile of `profiles` (the crate's
/// `clients`, or the command's): each rule a tool breaks is reported at its
/// name or its parameter type, a tool set over a client's limit at the
/// first tool past it, each at the level `client_levels` gives it.
pub(crate) fn check_clients(
    profiles: &[Client],
    config: &Config,
    krate: &Crate,
    tools: &[DescribedTool],
) -> Vec<ClientFinding> {
    let set: Vec<(&str, &Value)> = tools
        .iter()
        .map(|t| (t.name.as_str(), &t.descriptor))
        .collect();
    let mut found = Vec::new();
    for &profile in profiles {
        for finding in clients::check_set(profile, &config.server_name, &set) {
            let tool = &tools[finding.tool];
            let span = if finding.violation.rule.is_count() {
                tool.decl.name_span
            } else {
                place_of(tool, &finding.violation.pointer, tool.decl.name_span)
            };
            if let Some(report) = reported(config.level(finding.violation.rule)) {
                found.push(ClientFinding {
                    diagnostic: report(
                        krate.location(tool.decl.module, span),
                        finding.sentence(profile, &tool.name),
                    ),
                    profile,
                    tool: tool.name.clone(),
                    violation: finding.violation,
                });
            }
        }
    }
    found
}

fn describe_tool(
    config: &Config,
    krate: &Crate,
    lowerer: &Lowerer<'_>,
    decl: ToolDecl,
) -> Result<(DescribedTool, Vec<Diagnostic>), Vec<Diagnostic>> {
    let module = decl.module;
    let at = |span: proc_macro2::Span| krate.location(module, span);
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    let attr = &decl.attr;

    if let Err(e) = validate_name(&decl.name, config.names, &config.prefixes) {
        errors.push(Diagnostic::error(at(decl.name_span), e.to_string()));
    }
    let description = match &decl.doc {
        Some(text) if !doc::description(text).is_empty() => doc::description(text),
        _ => {
            errors.push(Diagnostic::error(
                at(decl.fn_ident.span()),
                format!(
                    "tool `{}` has no doc comment; its description is what a model reads to decide when to call it, so write one (`/// Search notes by text.`)",
                    decl.name
                ),
            ));
            String::new()
        }
    };
    if attr.tier.value == Tier::Destructive
        && attr.confirm.is_none()
        && !config.allow_unconfirmed_destructive
    {
        warnings.push(Diagnostic::warning(
            at(attr.tier.span),
            format!(
                "destructive tool `{}` does not require confirmation; add `confirm = \"<what it destroys>\"`, or set `allow_unconfirmed_destructive = true` in [package.metadata.tooltable]",
                decl.name
            ),
        ));
    }

    let mut input_schema = match &decl.shape.params {
        None => schema::no_parameters(),
        Some(params) => match lowerer.root_schema(module, params, Contract::Deserialize) {
            Ok(schema) => {
                errors.extend(header_errors(
                    krate,
                    lowerer,
                    &decl.name,
                    &schema,
                    at(params.span()),
                ));
                if let Err(e) = schema::check_input_schema(&schema) {
                    errors.push(Diagnostic::error(
                        at(params.span()),
                        format!(
                            "the parameter type `{}` of tool `{}` cannot be served: {e}",
                            params.to_token_stream(),
                            decl.name
                        ),
                    ));
                }
                schema
            }
            Err(found) => {
                errors.extend(found.into_iter().map(|e| lower_error(krate, e)));
                Value::Null
            }
        },
    };
    lowering::lower_input(&config.lowerings, &mut input_schema);
    if let Some(c) = &attr.confirm
        && input_schema.is_object()
        && let Err(e) = confirm::inject(&mut input_schema, &c.value)
    {
        let span = decl.shape.params.as_ref().map_or(c.span, |p| p.span());
        errors.push(Diagnostic::error(
            at(span),
            format!("tool `{}` confirms, but {e}", decl.name),
        ));
    }

    let constraint = validate::first_constraint(&input_schema);
    let validates = constraint.is_some();
    if errors.is_empty() {
        errors.extend(check_enforceable(
            &decl,
            attr,
            &input_schema,
            constraint.as_ref(),
            &at,
        ));
    }

    let (output_schema, wrap_output) = match (decl.shape.output.kind, &decl.shape.output.ty) {
        (OutputKind::Text | OutputKind::Content | OutputKind::Result, _) => (None, false),
        (OutputKind::Structured | OutputKind::Summarized, None) => {
            (Some(schema::wrap_output(json!({"type": "null"}))), true)
        }
        (OutputKind::Structured | OutputKind::Summarized, Some(ty)) => {
            match lowerer.output_schema(module, ty) {
                Ok(schema) if schema::is_object_schema(&schema) => (Some(schema), false),
                Ok(schema) => (Some(schema::wrap_output(schema)), true),
                Err(found) => {
                    errors.extend(found.into_iter().map(|e| lower_error(krate, e)));
                    (None, false)
                }
            }
        }
    };

    let mut meta = Map::new();
    let mut declarations = Map::new();
    for decl_meta in &attr.meta {
        declarations.insert(decl_meta.key.value.clone(), decl_meta.value.clone());
    }
    if let Some(deprecated) = &decl.deprecated {
        let value = match &deprecated.note {
            Some(note) => Value::String(note.clone()),
            None => Value::Bool(true),
        };
        declarations.insert("deprecated".into(), value);
    }
    if !declarations.is_empty() {
        meta.insert(config.declarations_key(), Value::Object(declarations));
    }
    if let Some(hint) = &attr.search_hint {
        meta.insert(search_hint::KEY.into(), Value::String(hint.value.clone()));
    }
    if attr.always_listed() {
        meta.insert(always_listed::KEY.into(), Value::Bool(true));
    }

    if !errors.is_empty() {
        return Err(errors);
    }
    let descriptor = descriptor::build(descriptor::DescriptorParts {
        name: &decl.name,
        title: attr.title.as_ref().map(|t| t.value.as_str()),
        icons: &attr.icons,
        description: &description,
        input_schema,
        output_schema,
        annotations: Annotations::derive(attr.tier.value, attr.idempotent(), attr.world()),
        task: attr.task(),
        meta,
    });
    let descriptor_text = descriptor::to_text(&descriptor);
    if let Err(message) = limits::check_descriptor_size(&decl.name, &descriptor_text) {
        return Err(vec![Diagnostic::error(at(decl.fn_ident.span()), message)]);
    }
    let fingerprint = fingerprint::descriptor_fingerprint(
        &descriptor,
        attr.permission.as_ref().map(|p| p.value.as_str()),
    );
    let source = krate
        .display_path(module)
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/");
    Ok((
        DescribedTool {
            name: decl.name.clone(),
            summary: doc::summary(&description),
            description,
            source,
            descriptor,
            cost: Cost::of_text(&descriptor_text),
            descriptor_text,
            fingerprint,
            wrap_output,
            validates,
            example: attr.example.as_ref().map(|e| e.value.to_string()),
            decl,
        },
        warnings,
    ))
}

/// Whether the server will be able to enforce the input schema, and
/// whether the declared example fits it. Both need the JSON Schema
/// validator; a build without it refuses, at the tool, what only the
/// validator could check, so no published constraint goes unchecked.
fn check_enforceable(
    decl: &ToolDecl,
    attr: &ToolAttr,
    input_schema: &Value,
    constraint: Option<&validate::Constraint>,
    at: &dyn Fn(proc_macro2::Span) -> Location,
) -> Vec<Diagnostic> {
    let name = &decl.name;
    let validator = match Validator::new(input_schema) {
        Ok(validator) => Some(validator),
        Err(SchemaError::NoValidator) => None,
        Err(e) => {
            return vec![Diagnostic::error(
                at(decl.fn_ident.span()),
                format!("the input schema of tool `{name}` cannot be enforced: {e}"),
            )];
        }
    };
    let mut errors = Vec::new();
    if validator.is_none()
        && let Some(constraint) = constraint
    {
        errors.push(Diagnostic::error(
            at(decl.fn_ident.span()),
            format!(
                "tool `{name}` has {constraint} in its input schema, a constraint its parameter type does not enforce, which the server checks before the handler runs: {NO_VALIDATOR}"
            ),
        ));
    }
    if let Some(example) = &attr.example {
        match &validator {
            None => errors.push(Diagnostic::error(
                at(example.span),
                format!(
                    "the example of tool `{name}` is checked against its input schema at build time: {NO_VALIDATOR}; or remove the example"
                ),
            )),
            Some(validator) => {
                if let Err(violations) = validator.check(&example.value) {
                    errors.extend(violations.iter().map(|v| {
                        Diagnostic::error(
                            at(example.span),
                            format!(
                                "the example of tool `{name}` does not fit its input schema: {v}; correct the example or the parameter type"
                            ),
                        )
                    }));
                }
            }
        }
    }
    errors
}

fn check_duplicates(krate: &Crate, tools: &[DescribedTool], diagnostics: &mut Vec<Diagnostic>) {
    for pair in tools.windows(2) {
        let (first, second) = (&pair[0], &pair[1]);
        if first.name == second.name {
            let here = krate.location(second.decl.module, second.decl.name_span);
            let there = krate.location(first.decl.module, first.decl.name_span);
            diagnostics.push(Diagnostic::error(
                here.clone(),
                format!(
                    "tool name `{}` is declared twice: here and at {there}; rename one of them",
                    second.name
                ),
            ));
            diagnostics.push(Diagnostic::error(
                there,
                format!(
                    "tool name `{}` is declared twice: here and at {here}; rename one of them",
                    first.name
                ),
            ));
        }
    }
}

/// The identity of a context type (to compare tools) and how to name it from the root.
struct ContextOf {
    key: String,
    written: String,
    path_from_root: Option<String>,
}

fn context_of(
    krate: &Crate,
    lowerer: &Lowerer<'_>,
    tool: &DescribedTool,
) -> Result<Option<ContextOf>, Diagnostic> {
    let decl = &tool.decl;
    let ty = match (&decl.shape.context, &decl.self_ty) {
        (Some(ty), _) => ty,
        (None, Some(ty)) => ty,
        (None, None) => return Ok(None),
    };
    let written = ty.to_token_stream().to_string().replace(' ', "");
    let syn::Type::Path(path) = ty else {
        return Err(Diagnostic::error(
            krate.location(decl.module, ty.span()),
            format!(
                "the context type `{written}` of tool `{}` must be a named type",
                tool.name
            ),
        ));
    };
    let unresolved = |e: crate::resolve::ResolveError| {
        Diagnostic::error(
            krate.location(decl.module, ty.span()),
            format!(
                "cannot resolve the context type of tool `{}`: {}",
                tool.name, e.0
            ),
        )
    };
    // A context named through an alias (`type State = crate::Ctx`) is the
    // type it names, as rustc sees it.
    let resolved = lowerer
        .resolver
        .resolve_through_aliases(decl.module, &path.path)
        .map_err(unresolved)?;
    let (key, item_module, ident, public) = match resolved {
        Resolved::Struct(m, s) => (
            format!("{}::{}", krate.module_path(m), s.ident),
            Some(m),
            s.ident.to_string(),
            !matches!(s.vis, syn::Visibility::Inherited),
        ),
        Resolved::Enum(m, e) => (
            format!("{}::{}", krate.module_path(m), e.ident),
            Some(m),
            e.ident.to_string(),
            !matches!(e.vis, syn::Visibility::Inherited),
        ),
        Resolved::Foreign(segments) => (segments.join("::"), None, String::new(), true),
        _ => (written.clone(), None, String::new(), false),
    };
    let path_from_root = match item_module {
        Some(m) if reachable_from_root(krate, m) && (public || m == Crate::ROOT) => {
            Some(format!("{}::{ident}", krate.module_path(m)))
        }
        Some(_) => None,
        None if key.contains("::") => Some(format!("::{key}")),
        None => Some(key.clone()),
    };
    Ok(Some(ContextOf {
        key,
        written,
        path_from_root,
    }))
}

fn reachable_from_root(krate: &Crate, module: ModuleId) -> bool {
    let mut current = module;
    while let Some(parent) = krate.modules[current].parent {
        if parent != Crate::ROOT && matches!(krate.modules[current].vis, syn::Visibility::Inherited)
        {
            return false;
        }
        current = parent;
    }
    true
}

fn context_type(
    krate: &Crate,
    lowerer: &Lowerer<'_>,
    tools: &[DescribedTool],
    diagnostics: &mut Vec<Diagnostic>,
) -> ContextType {
    let mut groups: Vec<(ContextOf, Vec<&DescribedTool>)> = Vec::new();
    for tool in tools {
        match context_of(krate, lowerer, tool) {
            Ok(Some(ctx)) => match groups.iter_mut().find(|(c, _)| c.key == ctx.key) {
                Some((_, members)) => members.push(tool),
                None => groups.push((ctx, vec![tool])),
            },
            Ok(None) => {}
            Err(d) => diagnostics.push(d),
        }
    }
    if groups.len() > 1 {
        let sides = groups
            .iter()
            .map(|(ctx, members)| {
                format!(
                    "`{}` ({})",
                    ctx.written,
                    members
                        .iter()
                        .map(|t| t.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })
            .collect::<Vec<_>>()
            .join(" and ");
        for (_, members) in &groups {
            for tool in members {
                diagnostics.push(Diagnostic::error(
                    krate.location(tool.decl.module, tool.decl.fn_ident.span()),
                    format!("the tools of a table share one context type, but these disagree: {sides}; give them the same context"),
                ));
            }
        }
        return ContextType::Unit;
    }
    let Some((ctx, members)) = groups.into_iter().next() else {
        return ContextType::Unit;
    };
    if let Some(free) = members.iter().find(|t| t.decl.shape.context.is_some()) {
        return ContextType::Marker(free.name.clone());
    }
    match ctx.path_from_root {
        Some(path) => ContextType::Path(path),
        None => {
            let tool = members[0];
            diagnostics.push(Diagnostic::error(
                krate.location(tool.decl.module, tool.decl.fn_ident.span()),
                format!(
                    "the table names its context type `{}` from the crate root, but it is private to its module; make the type and the modules that hold it `pub(crate)`, or add a free-function tool that takes `&{}`",
                    ctx.written, ctx.written
                ),
            ));
            ContextType::Unit
        }
    }
}
