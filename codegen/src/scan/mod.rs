//! Reading a crate's sources the way the compiler will.
//!
//! From the crate root, follow every `mod` declaration (inline modules,
//! `foo.rs`, `foo/mod.rs`, `#[path]`), drop what `#[cfg]` compiles out and
//! apply `#[cfg_attr]`, and keep the result as a module tree of parsed items.
//! Every file read is recorded, so the build script can tell cargo to rerun
//! when any of them changes. A file that cannot be read or parsed is a
//! diagnostic with its path and the parser's message, never a panic.

pub mod cfg;

use crate::diagnostic::{Diagnostic, Location};
use cfg::CfgEnv;
use std::path::{Path, PathBuf};
use syn::spanned::Spanned;
use syn::{Attribute, Expr, ExprLit, Fields, Item, Lit, Meta, Visibility};

/// An index into [`Crate::files`].
pub type FileId = usize;
/// An index into [`Crate::modules`].
pub type ModuleId = usize;

/// A source file that was read.
#[derive(Debug)]
pub struct SourceFile {
    /// The file's path on disk.
    pub path: PathBuf,
    /// The path shown to users: relative to the crate's directory when inside it.
    pub display: PathBuf,
}

/// A module, with the items that survive `#[cfg]`.
#[derive(Debug)]
pub struct Module {
    /// The enclosing module.
    pub parent: Option<ModuleId>,
    /// The names from the crate root down to this module.
    pub segments: Vec<String>,
    /// The file that holds this module's items.
    pub file: FileId,
    /// The module's items, with cfgs applied.
    pub items: Vec<Item>,
    /// The visibility the `mod` declaration gives it.
    pub vis: Visibility,
    /// The child modules, by name.
    pub children: Vec<(String, ModuleId)>,
    /// The `const` items `#[cfg]` compiled out, kept so that a default using
    /// one is told apart from a name that was never declared.
    pub compiled_out: Vec<syn::ItemConst>,
}

/// A crate's sources as the compiler will see them.
#[derive(Debug, Default)]
pub struct Crate {
    /// Every file read, the root first.
    pub files: Vec<SourceFile>,
    /// Every module, the root first.
    pub modules: Vec<Module>,
    /// The width of `usize` and `isize` on the target, in bits, when the
    /// build says (`target_pointer_width`).
    pub pointer_width: Option<u32>,
}

impl Crate {
    /// The root module.
    pub const ROOT: ModuleId = 0;

    /// The displayed path of a module's file.
    pub fn display_path(&self, module: ModuleId) -> &Path {
        &self.files[self.modules[module].file].display
    }

    /// A location in a module's file.
    pub fn location(&self, module: ModuleId, span: proc_macro2::Span) -> Location {
        Location::of(self.display_path(module), span)
    }

    /// The Rust path of a module, such as `crate::notes::store`.
    pub fn module_path(&self, module: ModuleId) -> String {
        let mut path = String::from("crate");
        for segment in &self.modules[module].segments {
            path.push_str("::");
            path.push_str(segment);
        }
        path
    }
}

struct Walk<'a> {
    crate_dir: &'a Path,
    cfg: &'a CfgEnv,
    krate: Crate,
    diagnostics: Vec<Diagnostic>,
}

/// Where a module's children live on disk.
struct Dirs {
    /// Where `mod foo;` looks for `foo.rs` and `foo/mod.rs`.
    children: PathBuf,
    /// What `#[path = ".."]` is relative to.
    path_base: PathBuf,
}

/// Reads the crate whose root file is `root` (relative to `crate_dir`).
pub fn scan(crate_dir: &Path, root: &Path, cfg: &CfgEnv) -> (Crate, Vec<Diagnostic>) {
    let mut walk = Walk {
        crate_dir,
        cfg,
        krate: Crate {
            pointer_width: cfg.pointer_width(),
            ..Crate::default()
        },
        diagnostics: Vec::new(),
    };
    let root_path = crate_dir.join(root);
    if let Some((file, items)) = walk.read(&root_path, None) {
        let dir = root_path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        walk.module(
            "crate".into(),
            None,
            file,
            items,
            Visibility::Inherited,
            Dirs {
                children: dir.clone(),
                path_base: dir,
            },
        );
    }
    (walk.krate, walk.diagnostics)
}

impl Walk<'_> {
    fn display(&self, path: &Path) -> PathBuf {
        path.strip_prefix(self.crate_dir)
            .map(Path::to_path_buf)
            .unwrap_or_else(|_| path.to_path_buf())
    }

    /// Reads and parses a file; `declared_at` locates the `mod` that asked for it.
    fn read(&mut self, path: &Path, declared_at: Option<Location>) -> Option<(FileId, Vec<Item>)> {
        let display = self.display(path);
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) => {
                let message = format!("cannot read {}: {e}", display.display());
                self.diagnostics.push(match declared_at {
                    Some(at) => Diagnostic::error(at, message),
                    None => Diagnostic::general(message),
                });
                return None;
            }
        };
        let file = self.krate.files.len();
        self.krate.files.push(SourceFile {
            path: path.to_path_buf(),
            display: display.clone(),
        });
        match syn::parse_file(&text) {
            Ok(parsed) => Some((file, parsed.items)),
            Err(e) => {
                self.diagnostics.push(Diagnostic::error(
                    Location::of(&display, e.span()),
                    format!("cannot parse {}: {e}", display.display()),
                ));
                None
            }
        }
    }

    fn module(
        &mut self,
        name: String,
        parent: Option<ModuleId>,
        file: FileId,
        items: Vec<Item>,
        vis: Visibility,
        dirs: Dirs,
    ) -> ModuleId {
        let id = self.krate.modules.len();
        let segments = match parent {
            Some(p) => {
                let mut s = self.krate.modules[p].segments.clone();
                s.push(name);
                s
            }
            None => Vec::new(),
        };
        self.krate.modules.push(Module {
            parent,
            segments,
            file,
            items: Vec::new(),
            vis,
            children: Vec::new(),
            compiled_out: Vec::new(),
        });
        let display = self.krate.files[file].display.clone();
        let mut kept = Vec::with_capacity(items.len());
        for item in items {
            let constant = match &item {
                Item::Const(c) => Some(c.clone()),
                _ => None,
            };
            match prune_item(item, self.cfg) {
                Ok(Some(Item::Mod(module))) => {
                    if let Some(child) = self.child_module(id, file, &display, &module, &dirs) {
                        self.krate.modules[id]
                            .children
                            .push((module.ident.to_string(), child));
                    }
                    kept.push(Item::Mod(syn::ItemMod {
                        content: None,
                        ..module
                    }));
                }
                Ok(Some(item)) => kept.push(item),
                Ok(None) => self.krate.modules[id].compiled_out.extend(constant),
                Err(e) => self.diagnostics.extend(Diagnostic::from_syn(&display, e)),
            }
        }
        self.krate.modules[id].items = kept;
        id
    }

    fn child_module(
        &mut self,
        parent: ModuleId,
        parent_file: FileId,
        display: &Path,
        module: &syn::ItemMod,
        dirs: &Dirs,
    ) -> Option<ModuleId> {
        let name = module.ident.to_string();
        let path_attr = match path_attribute(&module.attrs) {
            Ok(path) => path,
            Err(e) => {
                self.diagnostics.extend(Diagnostic::from_syn(display, e));
                return None;
            }
        };
        if let Some((_, items)) = &module.content {
            let children = match &path_attr {
                Some(path) => dirs.path_base.join(path),
                None => dirs.children.join(&name),
            };
            return Some(self.module(
                name,
                Some(parent),
                parent_file,
                items.clone(),
                module.vis.clone(),
                Dirs {
                    path_base: children.clone(),
                    children,
                },
            ));
        }
        let at = Location::of(display, module.ident.span());
        let (path, children) = match path_attr {
            Some(path) => {
                let path = dirs.path_base.join(path);
                let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
                (path, dir)
            }
            None => {
                let flat = dirs.children.join(format!("{name}.rs"));
                let nested = dirs.children.join(&name).join("mod.rs");
                match (flat.is_file(), nested.is_file()) {
                    (true, false) => (flat, dirs.children.join(&name)),
                    (false, true) => (nested, dirs.children.join(&name)),
                    (true, true) => {
                        self.diagnostics.push(Diagnostic::error(
                            at,
                            format!(
                                "module `{name}` is found at both {} and {}; delete one",
                                self.display(&flat).display(),
                                self.display(&nested).display()
                            ),
                        ));
                        return None;
                    }
                    (false, false) => {
                        self.diagnostics.push(Diagnostic::error(
                            at,
                            format!(
                                "cannot find module `{name}`: neither {} nor {} exists",
                                self.display(&flat).display(),
                                self.display(&nested).display()
                            ),
                        ));
                        return None;
                    }
                }
            }
        };
        let (file, items) = self.read(&path, Some(at))?;
        let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
        Some(self.module(
            name,
            Some(parent),
            file,
            items,
            module.vis.clone(),
            Dirs {
                children,
                path_base: base,
            },
        ))
    }
}

fn path_attribute(attrs: &[Attribute]) -> syn::Result<Option<String>> {
    for attr in attrs {
        if attr.path().is_ident("path") {
            if let Meta::NameValue(nv) = &attr.meta
                && let Expr::Lit(ExprLit {
                    lit: Lit::Str(s), ..
                }) = &nv.value
            {
                return Ok(Some(s.value()));
            }
            return Err(syn::Error::new(
                attr.span(),
                "`#[path]` takes a string: `#[path = \"file.rs\"]`",
            ));
        }
    }
    Ok(None)
}

/// Applies cfgs to an item and to the parts of it that can carry their own
/// (fields, variants, impl items). `None` means the item is compiled out.
pub fn prune_item(item: Item, cfg: &CfgEnv) -> syn::Result<Option<Item>> {
    macro_rules! attrs {
        ($node:expr) => {
            match cfg.active_attrs(&$node.attrs)? {
                Some(attrs) => $node.attrs = attrs,
                None => return Ok(None),
            }
        };
    }
    let mut item = item;
    match &mut item {
        Item::Struct(s) => {
            attrs!(s);
            prune_fields(&mut s.fields, cfg)?;
        }
        Item::Enum(e) => {
            attrs!(e);
            let mut variants = syn::punctuated::Punctuated::new();
            for mut variant in std::mem::take(&mut e.variants) {
                if let Some(attrs) = cfg.active_attrs(&variant.attrs)? {
                    variant.attrs = attrs;
                    prune_fields(&mut variant.fields, cfg)?;
                    variants.push(variant);
                }
            }
            e.variants = variants;
        }
        Item::Impl(i) => {
            attrs!(i);
            let mut kept = Vec::with_capacity(i.items.len());
            for mut impl_item in std::mem::take(&mut i.items) {
                let attrs = match &mut impl_item {
                    syn::ImplItem::Fn(f) => Some(&mut f.attrs),
                    syn::ImplItem::Const(c) => Some(&mut c.attrs),
                    syn::ImplItem::Type(t) => Some(&mut t.attrs),
                    _ => None,
                };
                match attrs {
                    Some(attrs) => {
                        if let Some(active) = cfg.active_attrs(attrs)? {
                            *attrs = active;
                            kept.push(impl_item);
                        }
                    }
                    None => kept.push(impl_item),
                }
            }
            i.items = kept;
        }
        Item::Fn(f) => attrs!(f),
        Item::Mod(m) => attrs!(m),
        Item::Use(u) => attrs!(u),
        Item::Type(t) => attrs!(t),
        Item::Const(c) => attrs!(c),
        Item::Static(s) => attrs!(s),
        Item::Trait(t) => attrs!(t),
        Item::Union(u) => attrs!(u),
        Item::Macro(m) => attrs!(m),
        Item::ExternCrate(e) => attrs!(e),
        _ => {}
    }
    Ok(Some(item))
}

fn prune_fields(fields: &mut Fields, cfg: &CfgEnv) -> syn::Result<()> {
    let list = match fields {
        Fields::Named(named) => &mut named.named,
        Fields::Unnamed(unnamed) => &mut unnamed.unnamed,
        Fields::Unit => return Ok(()),
    };
    let mut kept = syn::punctuated::Punctuated::new();
    for mut field in std::mem::take(list) {
        if let Some(attrs) = cfg.active_attrs(&field.attrs)? {
            field.attrs = attrs;
            kept.push(field);
        }
    }
    *list = kept;
    Ok(())
}
