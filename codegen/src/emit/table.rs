//! The generated table: `$OUT_DIR/tooltable.rs`.
//!
//! The file declares one marker type per free-function tool (the shims the
//! `#[tool]` macro emits implement traits on them), the `__tooltable_seen!`
//! macro that accepts exactly the shims this file expects and fails the
//! build for any other, and the `TOOLS` static: entries sorted by name, each
//! with its metadata, descriptor text, fingerprint bytes and handler, and
//! the search index over their words. Each
//! item is written with `quote!`, as the macro writes its shims, one item
//! (and one table entry) per line.

use crate::config::Config;
use crate::describe::{ContextType, DescribedTool, Table};
use crate::syntax::link;
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{format_ident, quote};
use tooltable_rules::confirm::Confirm;
use tooltable_rules::names::NameProfile;
use tooltable_rules::search::{IndexBuilder, Searchable};
use tooltable_rules::task::TaskSupport;
use tooltable_rules::tier::{Tier, World};
use tooltable_rules::wire::fingerprint::Fingerprint;

fn ident(name: &str) -> Ident {
    Ident::new(name, Span::call_site())
}

/// `::tooltable::__private_vN`: the one path generated code reaches the
/// runtime through.
fn private() -> TokenStream {
    let module = ident(&link::private_module());
    quote!(::tooltable::#module)
}

/// Rust source the build made itself (a `cfg` predicate, a type's path
/// from the crate root), as tokens; text that does not lex, which the
/// build never makes, fails the crate's build saying so.
fn source(text: &str) -> TokenStream {
    text.parse().unwrap_or_else(|_| {
        let message = format!("tooltable generated `{text}`, which is not Rust; report this");
        quote!(::core::compile_error!(#message))
    })
}

fn opt(text: Option<&str>) -> TokenStream {
    match text {
        Some(text) => quote!(::core::option::Option::Some(#text)),
        None => quote!(::core::option::Option::None),
    }
}

fn bytes(fp: &Fingerprint) -> TokenStream {
    let bytes = fp.as_bytes().iter().map(|b| Literal::u8_unsuffixed(*b));
    quote!([#(#bytes),*])
}

fn tier(t: Tier) -> TokenStream {
    let p = private();
    let variant = ident(match t {
        Tier::Read => "Read",
        Tier::Write => "Write",
        Tier::Destructive => "Destructive",
    });
    quote!(#p::Tier::#variant)
}

fn world(w: World) -> TokenStream {
    let p = private();
    let variant = ident(match w {
        World::Open => "Open",
        World::Closed => "Closed",
    });
    quote!(#p::World::#variant)
}

fn task(t: TaskSupport) -> TokenStream {
    let p = private();
    let variant = ident(match t {
        TaskSupport::Forbidden => "Forbidden",
        TaskSupport::Optional => "Optional",
        TaskSupport::Required => "Required",
    });
    quote!(#p::TaskSupport::#variant)
}

fn context_type(context: &ContextType) -> TokenStream {
    match context {
        ContextType::Unit => quote!(()),
        ContextType::Marker(tool) => {
            let markers = ident(link::MARKERS_MODULE);
            let marker = ident(&link::marker_type(tool));
            let p = private();
            quote!(<crate::#markers::#marker as #p::Context>::Type)
        }
        ContextType::Path(path) => source(path),
    }
}

fn entry(tool: &DescribedTool, context: &TokenStream) -> TokenStream {
    let p = private();
    let platforms = tool.platforms();
    let info = tool.info(&platforms);
    let confirm = match &info.confirm {
        None => quote!(::core::option::Option::None),
        Some(Confirm::Required) => quote!(::core::option::Option::Some(#p::Confirm::Required)),
        Some(Confirm::Because(text)) => {
            let text = text.as_ref();
            quote!(::core::option::Option::Some(#p::Confirm::Because(#p::Cow::Borrowed(#text))))
        }
    };
    let handler = if tool.decl.shape.receiver {
        let handler = ident(&link::method_handler_const(&tool.name));
        quote!(<#context>::#handler)
    } else {
        let markers = ident(link::MARKERS_MODULE);
        let marker = ident(&link::marker_type(&tool.name));
        quote!(<crate::#markers::#marker as #p::Shim<#context>>::SHIM)
    };
    let name = info.name;
    let title = opt(info.title);
    let summary = info.summary;
    let tier = tier(info.tier);
    let idempotent = info.idempotent;
    let world = world(info.world);
    let task = task(info.task);
    let permission = opt(info.permission);
    let toolset = opt(info.toolset);
    let always_listed = info.always_listed;
    let since = opt(info.since);
    let platforms = info.platforms;
    let source = info.source;
    let admin_summary = opt(info.admin_summary);
    let example = opt(info.example);
    let descriptor = tool.descriptor_text.as_str();
    let fingerprint = bytes(&tool.fingerprint);
    let wrap = tool.wrap_output;
    let validates = tool.validates;
    quote! {
        #p::Tool::__new(
            #p::ToolInfo {
                name: #name,
                title: #title,
                summary: #summary,
                tier: #tier,
                idempotent: #idempotent,
                world: #world,
                task: #task,
                confirm: #confirm,
                permission: #permission,
                toolset: #toolset,
                always_listed: #always_listed,
                since: #since,
                platforms: &[#(#platforms),*],
                source: #source,
                admin_summary: #admin_summary,
                example: #example,
            },
            #descriptor,
            #fingerprint,
            #handler,
            #wrap,
            #validates,
        )
    }
}

/// The search index over the tools' words, in the table's order: every
/// word with its postings, and each tool's number of words.
fn search_index(table: &Table) -> TokenStream {
    let p = private();
    let documents: Vec<Vec<String>> = table
        .tools
        .iter()
        .map(|tool| {
            let platforms = tool.platforms();
            Searchable::of_descriptor(&tool.descriptor, tool.info(&platforms).toolset).words()
        })
        .collect();
    let index = match IndexBuilder::new(&documents) {
        Ok(index) => index,
        Err(error) => {
            let message = error.to_string();
            return quote!(::core::compile_error!(#message));
        }
    };
    let words = index.words().iter().map(|(word, postings)| {
        let postings = postings
            .iter()
            .map(|&(tool, count)| quote!((#tool, #count)));
        quote!((#word, &[#(#postings),*]))
    });
    let lengths = index.lengths();
    quote!(#p::SearchIndex { words: &[#(#words),*], lengths: &[#(#lengths),*] })
}

/// The `compile_error!` for a shim the build script did not see, before
/// and after the tool's name.
fn unseen(root: &str) -> (&'static str, String) {
    (
        "tooltable's build script did not see the #[tool] `",
        format!(
            "`, so the generated table cannot include it. It read {root} (the root of the crate that \
invokes `include_table!()`, or `root` in [package.metadata.tooltable]) and the modules it declares. The tool may be \
inside `include!`, inside another macro, inside a function body, under the attribute imported by another name \
(`use tooltable::tool as ..`: the build reads `#[tool]` and `#[tooltable::tool]`), or in a module the build script \
did not follow (behind a `#[cfg]` it evaluated as false, or declared somewhere other than a plain `mod` reached \
from that root). Move the tool to a plain module's top level, spell the attribute `#[tool]`, invoke \
`include_table!()` in the crate that holds the tools (or set `root`), and check that `build.rs` calls \
`tooltable_codegen::build()`."
        ),
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
    let p = private();
    let gate = cfg.map(|predicate| {
        let predicate = source(predicate);
        quote!(#[cfg(#predicate)])
    });
    let markers = ident(link::MARKERS_MODULE);
    let marker_types = table
        .tools
        .iter()
        .filter(|t| !t.decl.shape.receiver)
        .map(|tool| ident(&link::marker_type(&tool.name)));
    // The crate's own markers: a shim's trait impl on a marker may then name
    // a context type that is the crate's own too.
    let markers_module = quote! {
        #gate
        #[doc(hidden)]
        #[allow(non_camel_case_types, dead_code)]
        pub(crate) mod #markers {
            #(pub(crate) struct #marker_types;)*
        }
    };
    let seen = ident(link::SEEN_MACRO);
    let seen_keys = table
        .tools
        .iter()
        .map(|tool| ident(&link::seen_key(&tool.name)));
    let (before_name, after_name) = unseen(&config.root.display().to_string());
    let seen_macro = quote! {
        #gate
        #[doc(hidden)]
        macro_rules! #seen {
            #((#seen_keys $name:literal { $($body:tt)* }) => { $($body)* };)*
            ($key:ident $name:literal { $($body:tt)* }) => {
                ::core::compile_error!(::core::concat!(#before_name, $name, #after_name));
            };
        }
        #gate
        #[doc(hidden)]
        pub(crate) use #seen;
    };
    let context = context_type(&table.context);
    let entries_static = ident(link::ENTRIES_STATIC);
    let count = table.tools.len();
    let entries: Vec<TokenStream> = table.tools.iter().map(|t| entry(t, &context)).collect();
    let list_json = format!(
        "[{}]",
        table
            .tools
            .iter()
            .map(|t| t.descriptor_text.as_str())
            .collect::<Vec<_>>()
            .join(",")
    );
    let search = search_index(table);
    let names: Vec<&str> = table.tools.iter().map(|t| t.name.as_str()).collect();
    let slots = tooltable_rules::wire::name_index::build(&names)
        .into_iter()
        .map(Literal::u32_unsuffixed);
    let tools_macro = ident(link::TOOLS_MACRO);
    let crate_name = config.package_name.as_str();
    let version = config.package_version.as_str();
    let inventory = bytes(inventory);
    let profile = ident(match config.names {
        NameProfile::Portable => "Portable",
        NameProfile::Mcp => "Mcp",
    });
    let prefixes = &config.prefixes;
    let declarations_key = config.declarations_key();
    let inline_subschemas = config.inline_subschemas;
    // Each value's variant, named as the runtime's enum names it.
    let variant = |name: String| format_ident!("{name}");
    let clients = config.clients.iter().map(|c| variant(format!("{c:?}")));
    let server_name = &config.server_name;
    let lowerings = config.lowerings.iter().map(|l| variant(format!("{l:?}")));
    let level_rules = config
        .client_levels
        .iter()
        .map(|(r, _)| variant(format!("{r:?}")));
    let levels = config
        .client_levels
        .iter()
        .map(|(_, l)| variant(format!("{l:?}")));
    // `TOOLS` is made by a macro that `include_table!` calls with the
    // visibility its author chose (`pub` unless told otherwise). Its type
    // names the context through a marker the crate keeps to itself (so
    // that a context type of the crate's own can be named), which the
    // `private_interfaces` lint would take for the context's visibility.
    let tools = quote! {
        #gate
        #[doc(hidden)]
        macro_rules! #tools_macro {
            ($vis:vis) => {
                /// The tools of this crate, sorted by name, generated by tooltable from the `#[tool]` handlers.
                #[allow(private_interfaces)]
                $vis static TOOLS: #p::Table<#context> = #p::Table::__new(
                    #crate_name,
                    #version,
                    #inventory,
                    &#entries_static,
                    #p::NameIndex::__new(&[#(#names),*], &[#(#slots),*]),
                    #list_json,
                    #search,
                    #p::Settings {
                        names: #p::NameProfile::#profile,
                        prefixes: &[#(#prefixes),*],
                        declarations_key: #declarations_key,
                        inline_subschemas: #inline_subschemas,
                        clients: &[#(#p::Client::#clients),*],
                        server_name: #server_name,
                        client_levels: &[#((#p::Rule::#level_rules, #p::Level::#levels)),*],
                        lowerings: &[#(#p::Lowering::#lowerings),*],
                    },
                );
            };
        }
    };
    let mut out = format!(
        "// @generated by tooltable-codegen from the #[tool] handlers of `{crate_name}`. Do not edit.\n\n{markers_module}\n\n{seen_macro}\n\n"
    );
    // The entries are a static of their own: a tool's metadata owns text
    // (`Cow`), and a slice of such values cannot be a temporary of a static.
    // Its tokens are written one entry to a line, for a reader of the file.
    let head = quote! {
        #gate
        #[doc(hidden)]
        static #entries_static: [#p::Tool<#context>; #count] =
    };
    out.push_str(&format!("{head} [\n"));
    for entry in &entries {
        out.push_str(&format!("    {entry},\n"));
    }
    out.push_str("];\n\n");
    out.push_str(&tools.to_string());
    out.push('\n');
    out
}
