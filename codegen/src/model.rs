//! The tools of a crate, as declared: every `#[tool]` the build can see.
//!
//! Collecting reads the scanned module tree for functions and inherent-impl
//! methods carrying `#[tool]` (or `#[tooltable::tool]`), parses each
//! attribute with the shared grammar, reads the handler's shape, doc comment
//! and deprecation, and remembers where it all was written so later stages
//! can point at it.

use crate::diagnostic::{Diagnostic, Location};
use crate::scan::{Crate, ModuleId};
use crate::syntax::attr::{ToolAttr, parse_tool_attr};
use crate::syntax::doc::doc_text;
use crate::syntax::signature::{HandlerShape, handler_shape};
use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{Attribute, Expr, ExprLit, ImplItem, Item, Lit, Meta, Signature, Type};

/// A tool's deprecation, from `#[deprecated]` on its handler.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deprecation {
    /// `since = "..."`, when given.
    pub since: Option<String>,
    /// The note (`#[deprecated = "..."]` or `note = "..."`), when given.
    pub note: Option<String>,
}

/// One `#[tool]` handler.
#[derive(Clone, Debug)]
pub struct ToolDecl {
    /// The module that declares it.
    pub module: ModuleId,
    /// The parsed attribute.
    pub attr: ToolAttr,
    /// The tool's name: `name = ".."`, else the function's name.
    pub name: String,
    /// Where the name comes from (the literal, or the function's name).
    pub name_span: Span,
    /// The function's name.
    pub fn_ident: syn::Ident,
    /// The handler's shape.
    pub shape: HandlerShape,
    /// For a method, the type of its impl.
    pub self_ty: Option<Type>,
    /// The doc comment's text.
    pub doc: Option<String>,
    /// `#[deprecated]`, when present.
    pub deprecated: Option<Deprecation>,
}

/// The path segments of an attribute, as strings.
fn attribute_path(attr: &Attribute) -> Vec<String> {
    attr.path()
        .segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect()
}

/// Which `#[tool]` attributes of a module are tooltable's: `#[tooltable::tool]`
/// always, and a bare `#[tool]` unless the module imports another crate's
/// `tool` (rmcp's, for a server that keeps some tools on rmcp's
/// `#[tool_router]` while it moves to the table).
#[derive(Clone, Copy)]
enum BareTool {
    Ours,
    Foreign,
}

impl BareTool {
    fn of(items: &[Item]) -> BareTool {
        fn foreign(tree: &syn::UseTree, root: Option<&syn::Ident>) -> bool {
            match tree {
                syn::UseTree::Path(path) => foreign(&path.tree, root.or(Some(&path.ident))),
                syn::UseTree::Name(name) => {
                    name.ident == "tool"
                        && root.is_some_and(|r| {
                            !matches!(
                                r.to_string().as_str(),
                                "tooltable" | "crate" | "self" | "super"
                            )
                        })
                }
                syn::UseTree::Rename(rename) => {
                    rename.rename == "tool"
                        && root.is_some_and(|r| {
                            !matches!(
                                r.to_string().as_str(),
                                "tooltable" | "crate" | "self" | "super"
                            )
                        })
                }
                syn::UseTree::Group(group) => group.items.iter().any(|t| foreign(t, root)),
                syn::UseTree::Glob(_) => false,
            }
        }
        let imports_foreign = items
            .iter()
            .any(|item| matches!(item, Item::Use(u) if foreign(&u.tree, None)));
        if imports_foreign {
            BareTool::Foreign
        } else {
            BareTool::Ours
        }
    }
}

fn tool_attribute(attrs: &[Attribute], bare: BareTool) -> Option<&Attribute> {
    attrs.iter().find(|a| {
        let path = attribute_path(a);
        match path
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>()
            .as_slice()
        {
            ["tooltable", "tool"] => true,
            ["tool"] => matches!(bare, BareTool::Ours),
            _ => false,
        }
    })
}

/// Whether an impl is rmcp's `#[tool_router]`, whose `#[tool]`s are rmcp's.
fn is_tool_router(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|a| {
        attribute_path(a)
            .last()
            .is_some_and(|last| last == "tool_router")
    })
}

/// Collects every tool of the crate, in source order.
pub fn collect_tools(krate: &Crate) -> (Vec<ToolDecl>, Vec<Diagnostic>) {
    let mut tools = Vec::new();
    let mut diagnostics = Vec::new();
    // A path dependency's tools are its own table's, not this crate's.
    for (module_id, module) in krate
        .modules
        .iter()
        .enumerate()
        .filter(|(id, _)| krate.is_own(*id))
    {
        let file = krate.display_path(module_id).to_path_buf();
        let bare = BareTool::of(&module.items);
        for item in &module.items {
            match item {
                Item::Fn(f) => {
                    if let Some(attr) = tool_attribute(&f.attrs, bare) {
                        match read_tool(module_id, attr, &f.attrs, &f.sig, None) {
                            Ok(tool) => tools.push(tool),
                            Err(e) => diagnostics.extend(Diagnostic::from_syn(&file, e)),
                        }
                    }
                }
                Item::Impl(imp) if !is_tool_router(&imp.attrs) => {
                    for impl_item in &imp.items {
                        let ImplItem::Fn(f) = impl_item else { continue };
                        let Some(attr) = tool_attribute(&f.attrs, bare) else {
                            continue;
                        };
                        let at = Location::of(&file, attr.span());
                        if let Some((trait_path, _)) = &imp.trait_ {
                            diagnostics.push(Diagnostic::error(
                                at,
                                format!(
                                    "#[tool] is on a method of a trait impl (`{}`); put tools in an inherent impl (`impl Type {{ .. }}`) or make them free functions",
                                    quote::ToTokens::to_token_stream(trait_path)
                                ),
                            ));
                            continue;
                        }
                        if !imp.generics.params.is_empty() {
                            diagnostics.push(Diagnostic::error(
                                at,
                                "#[tool] is on a method of a generic impl; the context type of a tool table must be concrete",
                            ));
                            continue;
                        }
                        if f.sig.receiver().is_none() {
                            diagnostics.push(Diagnostic::error(
                                Location::of(&file, f.sig.ident.span()),
                                "a tool in an impl must take `&self` (the impl's type is its context); move it out of the impl to make a free-function tool",
                            ));
                            continue;
                        }
                        match read_tool(
                            module_id,
                            attr,
                            &f.attrs,
                            &f.sig,
                            Some((*imp.self_ty).clone()),
                        ) {
                            Ok(tool) => tools.push(tool),
                            Err(e) => diagnostics.extend(Diagnostic::from_syn(&file, e)),
                        }
                    }
                }
                _ => {}
            }
        }
    }
    (tools, diagnostics)
}

fn read_tool(
    module: ModuleId,
    attr: &Attribute,
    attrs: &[Attribute],
    sig: &Signature,
    self_ty: Option<Type>,
) -> syn::Result<ToolDecl> {
    let tokens = match &attr.meta {
        Meta::List(list) => list.tokens.clone(),
        Meta::Path(_) => proc_macro2::TokenStream::new(),
        Meta::NameValue(nv) => {
            return Err(syn::Error::new(
                nv.span(),
                "write `#[tool(tier = ..)]`, not `#[tool = ..]`",
            ));
        }
    };
    let parsed = parse_tool_attr(tokens, attr.span(), None);
    let shape = handler_shape(sig);
    let doc = doc_text(attrs);
    let deprecated = deprecation(attrs);
    let (parsed, shape, doc, deprecated) = match (parsed, shape, doc, deprecated) {
        (Ok(p), Ok(s), Ok(d), Ok(dep)) => (p, s, d, dep),
        (p, s, d, dep) => {
            let mut errors = [p.err(), s.err(), d.err(), dep.err()].into_iter().flatten();
            let mut first = errors
                .next()
                .unwrap_or_else(|| syn::Error::new(attr.span(), "invalid tool"));
            first.extend(errors);
            return Err(first);
        }
    };
    let (name, name_span) = match &parsed.name {
        Some(name) => (name.value.clone(), name.span),
        None => (
            crate::syntax::attr::default_name(&sig.ident),
            sig.ident.span(),
        ),
    };
    Ok(ToolDecl {
        module,
        attr: parsed,
        name,
        name_span,
        fn_ident: sig.ident.clone(),
        shape,
        self_ty,
        doc,
        deprecated,
    })
}

fn deprecation(attrs: &[Attribute]) -> syn::Result<Option<Deprecation>> {
    let Some(attr) = attrs.iter().find(|a| a.path().is_ident("deprecated")) else {
        return Ok(None);
    };
    let mut found = Deprecation {
        since: None,
        note: None,
    };
    match &attr.meta {
        Meta::Path(_) => {}
        Meta::NameValue(nv) => found.note = Some(literal(&nv.value)?),
        Meta::List(list) => {
            list.parse_nested_meta(|meta| {
                let value: Expr = meta.value()?.parse()?;
                if meta.path.is_ident("since") {
                    found.since = Some(literal(&value)?);
                } else if meta.path.is_ident("note") {
                    found.note = Some(literal(&value)?);
                }
                Ok(())
            })?;
        }
    }
    Ok(Some(found))
}

fn literal(expr: &Expr) -> syn::Result<String> {
    match expr {
        Expr::Lit(ExprLit {
            lit: Lit::Str(s), ..
        }) => Ok(s.value()),
        other => Err(syn::Error::new(other.span(), "expected a string literal")),
    }
}
