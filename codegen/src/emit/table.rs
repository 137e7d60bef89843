//! The generated table: `$OUT_DIR/tooltable.rs`.
//!
//! The file declares one marker type per free-function tool (the shims the
//! `#[tool]` macro emits implement traits on them), the `__tooltable_seen!`
//! macro that accepts exactly the shims this file expects and fails the
//! build for any other, and the `TOOLS` static: entries sorted by name, each
//! with its metadata, descriptor text, fingerprint bytes and handler.

use crate::config::Config;
use crate::describe::{ContextType, DescribedTool, Table};
use crate::syntax::link;
use std::fmt::Write as _;
use tooltable_rules::confirm::Confirm;
use tooltable_rules::names::NameProfile;
use tooltable_rules::task::TaskSupport;
use tooltable_rules::tier::{Tier, World};
use tooltable_rules::wire::fingerprint::Fingerprint;

fn lit(text: &str) -> String {
    format!("{text:?}")
}

fn opt(text: Option<&str>) -> String {
    match text {
        Some(t) => format!("::core::option::Option::Some({})", lit(t)),
        None => "::core::option::Option::None".into(),
    }
}

fn bytes(fp: &Fingerprint) -> String {
    let parts: Vec<String> = fp.as_bytes().iter().map(|b| format!("{b:#04x}")).collect();
    format!("[{}]", parts.join(", "))
}

/// `::tooltable::__private_vN`: the one path generated code reaches the
/// runtime through.
fn private() -> String {
    format!("::tooltable::{}", link::private_module())
}

fn tier(t: Tier) -> String {
    let variant = match t {
        Tier::Read => "Read",
        Tier::Write => "Write",
        Tier::Destructive => "Destructive",
    };
    format!("{}::Tier::{variant}", private())
}

fn world(w: World) -> String {
    let variant = match w {
        World::Open => "Open",
        World::Closed => "Closed",
    };
    format!("{}::World::{variant}", private())
}

fn task(t: TaskSupport) -> String {
    let variant = match t {
        TaskSupport::Forbidden => "Forbidden",
        TaskSupport::Optional => "Optional",
        TaskSupport::Required => "Required",
    };
    format!("{}::TaskSupport::{variant}", private())
}

fn context_expr(context: &ContextType) -> String {
    match context {
        ContextType::Unit => "()".into(),
        ContextType::Marker(tool) => format!(
            "<crate::{}::{} as {}::Context>::Type",
            link::MARKERS_MODULE,
            link::marker_type(tool),
            private()
        ),
        ContextType::Path(path) => path.clone(),
    }
}

fn entry(tool: &DescribedTool, context: &str) -> String {
    let p = private();
    let platforms = tool.platforms();
    let info = tool.info(&platforms);
    let confirm = match &info.confirm {
        None => "::core::option::Option::None".to_owned(),
        Some(Confirm::Required) => format!("::core::option::Option::Some({p}::Confirm::Required)"),
        Some(Confirm::Because(text)) => format!(
            "::core::option::Option::Some({p}::Confirm::Because({p}::Cow::Borrowed({})))",
            lit(text)
        ),
    };
    let platforms = info
        .platforms
        .iter()
        .map(|s| lit(s))
        .collect::<Vec<_>>()
        .join(", ");
    let handler = if tool.decl.shape.receiver {
        format!("<{context}>::{}", link::method_handler_const(&tool.name))
    } else {
        format!(
            "<crate::{}::{} as {p}::Shim<{context}>>::SHIM",
            link::MARKERS_MODULE,
            link::marker_type(&tool.name)
        )
    };
    format!(
        "    {p}::Tool::__new(
        {p}::ToolInfo {{
            name: {name},
            title: {title},
            summary: {summary},
            tier: {tier},
            idempotent: {idempotent},
            world: {world},
            task: {task},
            confirm: {confirm},
            permission: {permission},
            toolset: {toolset},
            since: {since},
            platforms: &[{platforms}],
            source: {source},
            admin_summary: {admin_summary},
            example: {example},
        }},
        {descriptor},
        {fingerprint},
        {handler},
        {wrap},
        {validates},
    ),
",
        name = lit(info.name),
        title = opt(info.title),
        summary = lit(info.summary),
        tier = tier(info.tier),
        idempotent = info.idempotent,
        world = world(info.world),
        task = task(info.task),
        permission = opt(info.permission),
        toolset = opt(info.toolset),
        since = opt(info.since),
        source = lit(info.source),
        admin_summary = opt(info.admin_summary),
        example = opt(info.example),
        descriptor = lit(&tool.descriptor_text),
        fingerprint = bytes(&tool.fingerprint),
        wrap = tool.wrap_output,
        validates = tool.validates,
    )
}

/// The source of `$OUT_DIR/tooltable.rs`: the table of one reading of the
/// crate; under `cfg`, every item is compiled only where that predicate
/// holds (one such part per distinct reading, see `crate::variants`).
pub fn render(
    config: &Config,
    table: &Table,
    inventory: &Fingerprint,
    cfg: Option<&str>,
) -> String {
    let crate_name = config.package_name.as_str();
    let gate = cfg.map(|p| format!("#[cfg({p})]\n")).unwrap_or_default();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "// @generated by tooltable-codegen from the #[tool] handlers of `{crate_name}`. Do not edit.\n"
    );
    let _ = writeln!(
        out,
        "{gate}#[doc(hidden)]\n#[allow(non_camel_case_types, dead_code)]\npub(crate) mod {} {{",
        link::MARKERS_MODULE
    );
    for tool in table.tools.iter().filter(|t| !t.decl.shape.receiver) {
        // The crate's own: a shim's trait impl on a marker may then name a
        // context type that is the crate's own too.
        let _ = writeln!(
            out,
            "    pub(crate) struct {};",
            link::marker_type(&tool.name)
        );
    }
    out.push_str("}\n\n");
    let _ = writeln!(
        out,
        "{gate}#[doc(hidden)]\nmacro_rules! {} {{",
        link::SEEN_MACRO
    );
    for tool in &table.tools {
        let _ = writeln!(
            out,
            "    ({} $name:literal {{ $($body:tt)* }}) => {{ $($body)* }};",
            link::seen_key(&tool.name)
        );
    }
    let root = format!("{:?}", config.root.display().to_string());
    let _ = write!(
        out,
        "    ($key:ident $name:literal {{ $($body:tt)* }}) => {{
        ::core::compile_error!(::core::concat!(
            \"tooltable's build script did not see the #[tool] `\", $name,
            \"`, so the generated table cannot include it. It read \", {root}, \" (the root of the crate that \
invokes `include_table!()`, or `root` in [package.metadata.tooltable]) and the modules it declares. The tool may be \
inside `include!`, inside another macro, inside a function body, under the attribute imported by another name \
(`use tooltable::tool as ..`: the build reads `#[tool]` and `#[tooltable::tool]`), or in a module the build script \
did not follow (behind a `#[cfg]` it evaluated as false, or declared somewhere other than a plain `mod` reached \
from that root). Move the tool to a plain module's top level, spell the attribute `#[tool]`, invoke \
`include_table!()` in the crate that holds the tools (or set `root`), and check that `build.rs` calls \
`tooltable_codegen::build()`.\"
        ));
    }};
}}
",
    );
    let _ = writeln!(
        out,
        "{gate}#[doc(hidden)]\npub(crate) use {};\n",
        link::SEEN_MACRO
    );
    let context = context_expr(&table.context);
    let list_json = format!(
        "[{}]",
        table
            .tools
            .iter()
            .map(|t| t.descriptor_text.as_str())
            .collect::<Vec<_>>()
            .join(",")
    );
    // The entries are a static of their own: a tool's metadata owns text
    // (`Cow`), and a slice of such values cannot be a temporary of a static.
    let _ = writeln!(
        out,
        "{gate}#[doc(hidden)]\nstatic {}: [{p}::Tool<{context}>; {}] = [",
        link::ENTRIES_STATIC,
        table.tools.len(),
        p = private()
    );
    for tool in &table.tools {
        out.push_str(&entry(tool, &context));
    }
    out.push_str("];\n\n");
    // `TOOLS` is made by a macro that `include_table!` calls with the
    // visibility its author chose (`pub` unless told otherwise). Its type
    // names the context through a marker the crate keeps to itself (so
    // that a context type of the crate's own can be named), which the
    // `private_interfaces` lint would take for the context's visibility.
    let _ = writeln!(
        out,
        "{gate}#[doc(hidden)]\nmacro_rules! {} {{\n    ($vis:vis) => {{",
        link::TOOLS_MACRO
    );
    let _ = writeln!(
        out,
        "/// The tools of this crate, sorted by name, generated by tooltable from the `#[tool]` handlers.\n#[allow(private_interfaces)]"
    );
    let _ = writeln!(
        out,
        "$vis static TOOLS: {p}::Table<{context}> = {p}::Table::__new(",
        p = private()
    );
    let _ = writeln!(out, "    {},", lit(crate_name));
    let _ = writeln!(out, "    {},", lit(&config.package_version));
    let _ = writeln!(out, "    {},", bytes(inventory));
    let _ = writeln!(out, "    &{},", link::ENTRIES_STATIC);
    let names: Vec<&str> = table.tools.iter().map(|t| t.name.as_str()).collect();
    let literals = names.iter().map(|n| lit(n)).collect::<Vec<_>>().join(", ");
    let slots = tooltable_rules::wire::name_index::build(&names)
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    let _ = writeln!(
        out,
        "    {}::NameIndex::__new(&[{literals}], &[{slots}]),",
        private()
    );
    let _ = writeln!(out, "    {},", lit(&list_json));
    let prefixes = config
        .prefixes
        .iter()
        .map(|p| lit(p))
        .collect::<Vec<_>>()
        .join(", ");
    let _ = writeln!(
        out,
        "    {p}::Settings {{ names: {p}::NameProfile::{}, prefixes: &[{prefixes}], declarations_key: {}, inline_subschemas: {} }},",
        match config.names {
            NameProfile::Portable => "Portable",
            NameProfile::Mcp => "Mcp",
        },
        lit(&config.declarations_key()),
        config.inline_subschemas,
        p = private()
    );
    out.push_str(");\n    };\n}\n");
    out
}
