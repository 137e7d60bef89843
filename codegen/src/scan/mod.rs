//! Reading a crate's sources the way the compiler will.
//!
//! From the crate root, follow every `mod` declaration (inline modules,
//! `foo.rs`, `foo/mod.rs`, `#[path]`), drop what `#[cfg]` compiles out and
//! apply `#[cfg_attr]`, and keep the result as a module tree of parsed items.
//! Every file read is recorded, so the build script can tell cargo to rerun
//! when any of them changes. A file that cannot be read or parsed is a
//! diagnostic with its path and the parser's message, never a panic.
//!
//! The crate's path dependencies (workspace members and other local crates,
//! found by [`deps`]) are read the same way into the same [`Crate`], each
//! under its own root module, so that a type the crate names from one of
//! them resolves to its declaration.

pub mod cfg;
pub mod deps;
pub mod roots;

use crate::diagnostic::{Diagnostic, Location};
use cfg::CfgEnv;
use proc_macro2::{Span, TokenStream, TokenTree};
use std::path::{Path, PathBuf};
use syn::ext::IdentExt;
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
    /// The root module of the crate this module belongs to: [`Crate::ROOT`]
    /// for the crate's own, another for a path dependency's.
    pub root: ModuleId,
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
    /// The path dependencies read, by the crate that depends on them.
    pub externs: Vec<Extern>,
    /// The manifests of the path dependencies read, whose changes (of
    /// features, of the library's path) change what is read.
    pub manifests: Vec<PathBuf>,
}

/// A path dependency of one of the crates read.
#[derive(Debug)]
pub struct Extern {
    /// The root module of the crate that depends on it.
    pub from: ModuleId,
    /// The name that crate's code gives it (`contracts`).
    pub name: String,
    /// Its root module.
    pub root: ModuleId,
}

impl Crate {
    /// The root module.
    pub const ROOT: ModuleId = 0;

    /// The root module of the path dependency that code in `module` calls
    /// `name`, if it is one.
    pub fn extern_root(&self, module: ModuleId, name: &str) -> Option<ModuleId> {
        let from = self.modules[module].root;
        self.externs
            .iter()
            .find(|e| e.from == from && e.name == name)
            .map(|e| e.root)
    }

    /// Whether `module` is the crate's own, not a path dependency's.
    pub fn is_own(&self, module: ModuleId) -> bool {
        self.modules[module].root == Crate::ROOT
    }

    /// The displayed path of a module's file.
    pub fn display_path(&self, module: ModuleId) -> &Path {
        &self.files[self.modules[module].file].display
    }

    /// A location in a module's file.
    pub fn location(&self, module: ModuleId, span: proc_macro2::Span) -> Location {
        Location::of(self.display_path(module), span)
    }

    /// The Rust path of a module, such as `crate::notes::store`, or
    /// `contracts::tickets` in a path dependency.
    pub fn module_path(&self, module: ModuleId) -> String {
        let root = self.modules[module].root;
        let mut path = match self.externs.iter().find(|e| e.root == root) {
            Some(dependency) => dependency.name.clone(),
            None => String::from("crate"),
        };
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
    /// The files of the modules being read, the root first: a `#[path]`
    /// back to one of them would be read forever.
    open: Vec<PathBuf>,
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
    let mut krate = Crate {
        pointer_width: cfg.pointer_width(),
        ..Crate::default()
    };
    let diagnostics = scan_root(&mut krate, crate_dir, &crate_dir.join(root), cfg);
    (krate, diagnostics)
}

/// Reads the crate whose root file is `root_path` into `krate`, under a
/// root module of its own; `crate_dir` is what displayed paths are
/// relative to. The root is the next module, when its file could be read.
fn scan_root(
    krate: &mut Crate,
    crate_dir: &Path,
    root_path: &Path,
    cfg: &CfgEnv,
) -> Vec<Diagnostic> {
    let mut walk = Walk {
        crate_dir,
        cfg,
        krate: std::mem::take(krate),
        diagnostics: Vec::new(),
        open: Vec::new(),
    };
    if let Some((file, items)) = walk.read(root_path, None) {
        walk.open.push(canonical(root_path));
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
    *krate = walk.krate;
    walk.diagnostics
}

/// Reads the path dependencies of the crate's own root (and theirs, once
/// each) into `krate`, with `cfg`'s target and each dependency's features.
/// When the table is a binary's (`root` is not the package's library), the
/// package's library is read too, as the crate the binary names it: a bin
/// whose tools return the lib's types is how most servers are laid out.
/// What cannot be read in them is not this crate's problem (their own
/// builds report it), so it is left out silently; a type the tools need
/// from what was left out is then an error where the tool names it.
pub fn scan_dependencies(
    krate: &mut Crate,
    crate_dir: &Path,
    root: &Path,
    manifest: &toml::Table,
    cfg: &CfgEnv,
) {
    let mut read: Vec<(PathBuf, ModuleId)> = Vec::new();
    let mut pending = vec![(
        Crate::ROOT,
        crate_dir.to_path_buf(),
        manifest.clone(),
        cfg.clone(),
    )];
    let targets = roots::Targets::of(manifest, crate_dir);
    if let Some(lib) = targets.lib
        && canonical(&crate_dir.join(&lib)) != canonical(&crate_dir.join(root))
    {
        let lib_root = krate.modules.len();
        let lib_cfg = cfg.with_names(&[("test", false), ("doc", false)]);
        scan_root(krate, crate_dir, &crate_dir.join(&lib), &lib_cfg);
        if let Some(name) = deps::lib_name(manifest)
            && krate.modules.len() > lib_root
        {
            krate.externs.push(Extern {
                from: Crate::ROOT,
                name,
                root: lib_root,
            });
            pending.push((lib_root, crate_dir.to_path_buf(), manifest.clone(), lib_cfg));
        }
    }
    while let Some((from, dir, manifest, own)) = pending.pop() {
        for dependency in deps::path_dependencies(&dir, &manifest, &own) {
            let identity = canonical(&dependency.dir);
            let root = match read.iter().find(|(d, _)| *d == identity) {
                Some((_, root)) => *root,
                None => {
                    let root = krate.modules.len();
                    let dep_cfg = cfg
                        .with_features(dependency.features.iter().cloned())
                        .with_names(&[("test", false), ("doc", false)]);
                    krate.manifests.push(dependency.dir.join("Cargo.toml"));
                    scan_root(krate, crate_dir, &dependency.root, &dep_cfg);
                    if krate.modules.len() == root {
                        continue;
                    }
                    read.push((identity, root));
                    pending.push((root, dependency.dir.clone(), dependency.manifest, dep_cfg));
                    root
                }
            };
            krate.externs.push(Extern {
                from,
                name: dependency.name,
                root,
            });
        }
    }
}

impl Walk<'_> {
    /// A path as shown to users: relative to the crate's directory, and a
    /// path dependency's file beside it relative too (`../contracts/src/lib.rs`).
    fn display(&self, path: &Path) -> PathBuf {
        self.crate_dir
            .ancestors()
            .take(4)
            .enumerate()
            .find_map(|(up, dir)| {
                let rest = path.strip_prefix(dir).ok()?;
                Some(
                    std::iter::repeat_n(Path::new(".."), up)
                        .collect::<PathBuf>()
                        .join(rest),
                )
            })
            .unwrap_or_else(|| path.to_path_buf())
    }

    /// Reads and parses a file; `declared_at` locates the `mod` that asked for it.
    fn read(&mut self, path: &Path, declared_at: Option<Location>) -> Option<(FileId, Vec<Item>)> {
        let display = self.display(path);
        let text = match std::fs::read_to_string(path) {
            // rustc reads a source file with its CRLF line ends as LF, so
            // docs and string literals hold no `\r` (and a checkout with
            // Windows line ends bakes the same descriptors); lines and
            // columns are unchanged by dropping a line's last character.
            Ok(text) if text.contains("\r\n") => text.replace("\r\n", "\n"),
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
        if let Some(span) = too_deep(&text) {
            self.diagnostics.push(Diagnostic::error(
                Location::of(&display, span),
                format!(
                    "cannot parse {}: brackets nest more than {MAX_NESTING} levels deep here; flatten it",
                    display.display()
                ),
            ));
            return None;
        }
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
        let root = parent.map_or(id, |p| self.krate.modules[p].root);
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
            root,
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
        // `mod r#ref;` is read from `ref.rs`, as the compiler reads it.
        let stem = module.ident.unraw().to_string();
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
                None => dirs.children.join(&stem),
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
                let flat = dirs.children.join(format!("{stem}.rs"));
                let nested = dirs.children.join(&stem).join("mod.rs");
                match (flat.is_file(), nested.is_file()) {
                    (true, false) => (flat, dirs.children.join(&stem)),
                    (false, true) => (nested, dirs.children.join(&stem)),
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
        let identity = canonical(&path);
        if self.open.contains(&identity) {
            self.diagnostics.push(Diagnostic::error(
                at,
                format!(
                    "circular modules: `mod {name}` reads {}, which holds this module or one enclosing it; fix its `#[path]`",
                    self.display(&path).display()
                ),
            ));
            return None;
        }
        let (file, items) = self.read(&path, Some(at))?;
        let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
        self.open.push(identity);
        let id = self.module(
            name,
            Some(parent),
            file,
            items,
            module.vis.clone(),
            Dirs {
                children,
                path_base: base,
            },
        );
        self.open.pop();
        Some(id)
    }
}

/// The most levels of brackets a source file may nest. syn parses by
/// recursion, and a file nested much deeper (about a thousand parentheses,
/// in a build script compiled without optimisation) overflows the stack,
/// which aborts the build script instead of reporting a place. Real code
/// stays far below this.
const MAX_NESTING: usize = 128;

/// The first bracket of `text` nested past [`MAX_NESTING`], found without
/// recursion; `None` when there is none, or when the text does not lex
/// (the parser then says where).
fn too_deep(text: &str) -> Option<Span> {
    let tokens: TokenStream = text.parse().ok()?;
    let mut open = vec![(tokens.into_iter(), 0)];
    while let Some((next, depth)) = open.last_mut().map(|(trees, depth)| (trees.next(), *depth)) {
        match next {
            None => {
                open.pop();
            }
            Some(TokenTree::Group(group)) if depth == MAX_NESTING => {
                return Some(group.span_open());
            }
            Some(TokenTree::Group(group)) => open.push((group.stream().into_iter(), depth + 1)),
            Some(_) => {}
        }
    }
    None
}

/// A file's identity, however its path was spelt (`a/../lib.rs`, a symlink).
fn canonical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A directory removed when dropped.
    struct TempDir(PathBuf);

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn crate_of(tag: &str, files: &[(&str, &str)]) -> TempDir {
        let dir = std::env::temp_dir().join(format!("tooltable-scan-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for (path, content) in files {
            let path = dir.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, content).unwrap();
        }
        TempDir(dir)
    }

    #[test]
    fn a_module_with_a_raw_name_is_read_from_the_file_named_without_the_prefix() {
        let dir = crate_of(
            "raw-name",
            &[
                ("src/lib.rs", "mod r#ref;\n"),
                ("src/ref.rs", "mod r#type;\n"),
                ("src/ref/type.rs", "pub struct Inner;\n"),
            ],
        );
        let (krate, diagnostics) = scan(&dir.0, Path::new("src/lib.rs"), &CfgEnv::default());
        assert!(diagnostics.is_empty(), "{diagnostics:#?}");
        assert_eq!(krate.module_path(2), "crate::r#ref::r#type");
        assert_eq!(krate.display_path(2), Path::new("src/ref/type.rs"));
    }

    #[test]
    fn a_file_nested_thousands_of_brackets_deep_is_a_located_error_not_a_stack_overflow() {
        let deep = format!(
            "pub struct Kept;\npub fn f() -> u32 {{\n{}1{}\n}}\n",
            "(".repeat(10_000),
            ")".repeat(10_000)
        );
        let dir = crate_of(
            "deep",
            &[("src/lib.rs", "mod deep;\n"), ("src/deep.rs", &deep)],
        );
        let (krate, diagnostics) = scan(&dir.0, Path::new("src/lib.rs"), &CfgEnv::default());
        let errors: Vec<String> = diagnostics.iter().map(ToString::to_string).collect();
        // The function's braces are the first level: the 128th parenthesis
        // is the 129th, the first past the limit.
        assert_eq!(
            errors,
            [
                "src/deep.rs:3:128: cannot parse src/deep.rs: brackets nest more than 128 levels deep here; flatten it"
            ]
        );
        assert_eq!(krate.files.len(), 2, "the file was read");
    }

    #[test]
    fn a_module_that_includes_itself_through_path_is_a_located_error_not_a_stack_overflow() {
        let dir = crate_of(
            "path-cycle",
            &[
                (
                    "src/lib.rs",
                    "pub struct Root;\n#[path = \"lib.rs\"]\nmod again;\nmod a;\n",
                ),
                ("src/a.rs", "#[path = \"b.rs\"]\nmod b;\n"),
                ("src/b.rs", "#[path = \"a.rs\"]\nmod a;\n"),
            ],
        );
        let (krate, diagnostics) = scan(&dir.0, Path::new("src/lib.rs"), &CfgEnv::default());
        let errors: Vec<String> = diagnostics.iter().map(ToString::to_string).collect();
        assert_eq!(errors.len(), 2, "{errors:#?}");
        assert!(errors[0].starts_with("src/lib.rs:3:5: "), "{}", errors[0]);
        assert!(errors[1].starts_with("src/b.rs:2:5: "), "{}", errors[1]);
        assert!(errors.iter().all(|e| e.contains("circular")), "{errors:#?}");
        assert_eq!(krate.modules.len(), 3, "the root, `a` and `a::b`");
    }
}
