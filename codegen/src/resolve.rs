//! Name resolution within the crate: which item a type path names.
//!
//! A parameter type is written as a path in some module (`SearchParams`,
//! `crate::store::Note`, `super::Tag`, `chrono::DateTime<Utc>`). To lower it
//! to a schema the build script must find the struct, enum or alias it
//! names, or learn that it is foreign (another crate, std) and which one.
//! The rules follow the compiler's for the cases that matter to types:
//! items declared in the module, `use` imports (renames, groups, `self`,
//! globs), `self`/`super`/`crate`, `pub use` re-exports, the extern prelude
//! and the std prelude. What cannot be decided is an error, never a guess.
//!
//! Values live in a namespace of their own: a default written as a `const`
//! or a function (`MAX_RESULTS`, `limits::MAX`, `default_port`) is looked up
//! among the `const` and `fn` items, through the same imports.

use crate::scan::{Crate, ModuleId};
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use syn::{Item, ItemConst, ItemEnum, ItemFn, ItemStruct, ItemType, UseTree, Visibility};

/// What a path names.
#[derive(Clone, Debug)]
pub enum Resolved<'k> {
    /// A module of the crate.
    Module(ModuleId),
    /// A struct of the crate.
    Struct(ModuleId, &'k ItemStruct),
    /// An enum of the crate.
    Enum(ModuleId, &'k ItemEnum),
    /// A type alias of the crate.
    Alias(ModuleId, &'k ItemType),
    /// Something of another crate (or std, or a primitive), by its path as
    /// written after resolving imports, such as `["std", "collections", "HashMap"]`.
    Foreign(Vec<String>),
    /// An item of the crate that is not a type (a trait, a union, a function...).
    NotAType(&'static str),
}

/// What a path in value position names.
#[derive(Clone, Debug)]
pub enum ResolvedValue<'k> {
    /// A `const` item of the crate.
    Const(ModuleId, &'k ItemConst),
    /// A `const` item of the crate that `#[cfg]` compiled out of this build.
    CompiledOut(ModuleId, &'k ItemConst),
    /// A function of the crate.
    Fn(ModuleId, &'k ItemFn),
    /// An associated item (`Type::NAME`) of a struct or enum of the crate,
    /// by the type's module, name, and the item's name.
    Associated(ModuleId, &'k syn::Ident, String),
    /// A value of another crate, std or a primitive type (`u32::MAX`), by
    /// its path as written after resolving imports.
    Foreign(Vec<String>),
}

/// Why a path could not be resolved; the message is a sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResolveError(pub String);

/// The most plain aliases followed from a path to the item it names.
const MAX_ALIASES: usize = 16;

const PRIMITIVES: [&str; 17] = [
    "bool", "char", "str", "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64",
    "i128", "isize", "f32", "f64",
];

/// The std prelude's types, by the name they are used under.
fn prelude(name: &str) -> Option<Vec<String>> {
    let path: &[&str] = match name {
        "String" => &["std", "string", "String"],
        "Vec" => &["std", "vec", "Vec"],
        "Option" => &["std", "option", "Option"],
        "Box" => &["std", "boxed", "Box"],
        "Result" => &["std", "result", "Result"],
        _ if PRIMITIVES.contains(&name) => return Some(vec![name.to_owned()]),
        _ => return None,
    };
    Some(path.iter().map(|s| (*s).to_owned()).collect())
}

enum Entry<'k> {
    Item(Resolved<'k>),
    Import(Vec<String>),
}

#[derive(Default)]
struct Scope<'k> {
    names: HashMap<String, Entry<'k>>,
    values: HashMap<String, ResolvedValue<'k>>,
    globs: Vec<Glob>,
    /// The names of `names` declared or imported without `pub`.
    private_names: HashSet<String>,
    /// The names of `values` declared without `pub`.
    private_values: HashSet<String>,
}

/// `use path::*`.
struct Glob {
    path: Vec<String>,
    public: bool,
}

impl<'k> Scope<'k> {
    fn declare(&mut self, name: String, entry: Entry<'k>, public: bool) {
        mark(&mut self.private_names, &name, public);
        self.names.insert(name, entry);
    }

    fn declare_value(&mut self, name: String, value: ResolvedValue<'k>, public: bool) {
        mark(&mut self.private_values, &name, public);
        self.values.insert(name, value);
    }
}

fn mark(private: &mut HashSet<String>, name: &str, public: bool) {
    if public {
        private.remove(name);
    } else {
        private.insert(name.to_owned());
    }
}

fn is_public(vis: &Visibility) -> bool {
    !matches!(vis, Visibility::Inherited)
}

/// Resolves paths in a scanned crate.
pub struct Resolver<'k> {
    krate: &'k Crate,
    scopes: Vec<Scope<'k>>,
    /// The globs whose paths are being resolved, by module and index: a
    /// glob cannot import the name its own path goes through
    /// (`pub use clap_builder::*` and the crate `clap_builder`), so
    /// resolving that path skips it instead of going round.
    resolving_globs: RefCell<Vec<(ModuleId, usize)>>,
}

impl<'k> Resolver<'k> {
    /// Indexes every module's declared items and imports.
    pub fn new(krate: &'k Crate) -> Resolver<'k> {
        let mut scopes: Vec<Scope<'k>> = Vec::with_capacity(krate.modules.len());
        for (id, module) in krate.modules.iter().enumerate() {
            let mut scope = Scope::default();
            for (name, child) in &module.children {
                scope.declare(
                    name.clone(),
                    Entry::Item(Resolved::Module(*child)),
                    is_public(&krate.modules[*child].vis),
                );
            }
            for item in &module.items {
                let (name, resolved, vis) = match item {
                    Item::Struct(s) => (s.ident.to_string(), Resolved::Struct(id, s), &s.vis),
                    Item::Enum(e) => (e.ident.to_string(), Resolved::Enum(id, e), &e.vis),
                    Item::Type(t) => (t.ident.to_string(), Resolved::Alias(id, t), &t.vis),
                    Item::Const(c) => {
                        scope.declare_value(
                            c.ident.to_string(),
                            ResolvedValue::Const(id, c),
                            is_public(&c.vis),
                        );
                        continue;
                    }
                    Item::Fn(f) => {
                        scope.declare_value(
                            f.sig.ident.to_string(),
                            ResolvedValue::Fn(id, f),
                            is_public(&f.vis),
                        );
                        continue;
                    }
                    Item::Trait(t) => (t.ident.to_string(), Resolved::NotAType("a trait"), &t.vis),
                    Item::Union(u) => (u.ident.to_string(), Resolved::NotAType("a union"), &u.vis),
                    Item::ExternCrate(e) => {
                        let name = e.rename.as_ref().map_or(&e.ident, |(_, r)| r).to_string();
                        scope.declare(
                            name,
                            Entry::Import(vec![e.ident.to_string()]),
                            is_public(&e.vis),
                        );
                        continue;
                    }
                    Item::Use(u) => {
                        let mut prefix = Vec::new();
                        if u.leading_colon.is_some() {
                            prefix.push("::".to_owned());
                        }
                        collect_use(&u.tree, &mut prefix, is_public(&u.vis), &mut scope);
                        continue;
                    }
                    _ => continue,
                };
                scope.declare(name, Entry::Item(resolved), is_public(vis));
            }
            scopes.push(scope);
        }
        Resolver {
            krate,
            scopes,
            resolving_globs: RefCell::new(Vec::new()),
        }
    }

    /// Resolves a path written in `module`.
    pub fn resolve(
        &self,
        module: ModuleId,
        path: &syn::Path,
    ) -> Result<Resolved<'k>, ResolveError> {
        let mut segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        if path.leading_colon.is_some() {
            segments.insert(0, "::".into());
        }
        self.resolve_segments(module, &segments, 0)
    }

    /// Resolves a path written in `module`, following plain aliases
    /// (`type State = crate::Ctx`, without type parameters) to the item
    /// they name; at most 16 of them, so an alias of itself
    /// stops.
    pub fn resolve_through_aliases(
        &self,
        module: ModuleId,
        path: &syn::Path,
    ) -> Result<Resolved<'k>, ResolveError> {
        let mut resolved = self.resolve(module, path)?;
        for _ in 0..MAX_ALIASES {
            let Resolved::Alias(module, alias) = resolved else {
                break;
            };
            let syn::Type::Path(target) = &*alias.ty else {
                break;
            };
            if !alias.generics.params.is_empty() {
                break;
            }
            resolved = self.resolve(module, &target.path)?;
        }
        Ok(resolved)
    }

    /// Resolves a path in value position (a `const`, a function, an
    /// associated item) written in `module`; `None` when it names no value
    /// the crate declares or imports.
    pub fn resolve_value(
        &self,
        module: ModuleId,
        path: &syn::Path,
    ) -> Result<Option<ResolvedValue<'k>>, ResolveError> {
        let mut segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        if path.leading_colon.is_some() {
            segments.insert(0, "::".into());
        }
        self.value_segments(module, &segments, 0)
    }

    fn value_segments(
        &self,
        module: ModuleId,
        segments: &[String],
        depth: usize,
    ) -> Result<Option<ResolvedValue<'k>>, ResolveError> {
        let Some((name, prefix)) = segments.split_last() else {
            return Err(ResolveError("an empty path names nothing".into()));
        };
        if prefix.is_empty() {
            return self.lookup_value(module, name, depth);
        }
        let prefix = match self.resolve_segments(module, prefix, depth) {
            // `serde_json::from_value`: a first segment nothing in scope
            // names is a crate, as it is in a type's path.
            Err(_) if prefix.len() == 1 => self.crate_named(module, &prefix[0]),
            other => other?,
        };
        Ok(match prefix {
            Resolved::Module(m) => self.lookup_value(m, name, depth)?,
            Resolved::Struct(m, s) => Some(ResolvedValue::Associated(m, &s.ident, name.clone())),
            Resolved::Enum(m, e) => Some(ResolvedValue::Associated(m, &e.ident, name.clone())),
            Resolved::Foreign(mut path) => {
                path.push(name.clone());
                Some(ResolvedValue::Foreign(path))
            }
            Resolved::Alias(..) | Resolved::NotAType(_) => None,
        })
    }

    /// Looks a value up in one module's scope: its items, its imports, its
    /// globs, and last the `const` items `#[cfg]` compiled out of it.
    fn lookup_value(
        &self,
        module: ModuleId,
        name: &str,
        depth: usize,
    ) -> Result<Option<ResolvedValue<'k>>, ResolveError> {
        self.lookup_value_in(module, module, name, depth, &mut Vec::new())
    }

    /// [`Self::lookup_value`] as seen from `viewer`, skipping the modules in
    /// `searched` (see [`Self::lookup_in`]).
    fn lookup_value_in(
        &self,
        module: ModuleId,
        viewer: ModuleId,
        name: &str,
        depth: usize,
        searched: &mut Vec<ModuleId>,
    ) -> Result<Option<ResolvedValue<'k>>, ResolveError> {
        if depth > 32 {
            return Err(ResolveError(format!(
                "`{name}` goes through too many imports (a `use` cycle?)"
            )));
        }
        if searched.contains(&module) {
            return Ok(None);
        }
        searched.push(module);
        let scope = &self.scopes[module];
        let hidden = !self.inside(viewer, module);
        if let Some(found) = scope.values.get(name)
            && !(hidden && scope.private_values.contains(name))
        {
            return Ok(Some(found.clone()));
        }
        // A single-segment import names a crate, never a value.
        if let Some(Entry::Import(target)) = scope.names.get(name)
            && !(hidden && scope.private_names.contains(name))
            && target.len() > 1
            && let Some(found) = self.value_segments(module, target, depth + 1)?
        {
            return Ok(Some(found));
        }
        let mut compiled_out = self.krate.modules[module]
            .compiled_out
            .iter()
            .find(|c| c.ident == name && (!hidden || is_public(&c.vis)))
            .map(|c| ResolvedValue::CompiledOut(module, c));
        for (index, glob) in scope.globs.iter().enumerate() {
            if hidden && !glob.public {
                continue;
            }
            if let Some(Resolved::Module(m)) = self.glob(module, index, depth)? {
                match self.lookup_value_in(m, module, name, depth + 1, searched)? {
                    Some(found @ ResolvedValue::CompiledOut(..)) => {
                        compiled_out = compiled_out.or(Some(found));
                    }
                    Some(found) => return Ok(Some(found)),
                    None => {}
                }
            }
        }
        Ok(compiled_out)
    }

    fn resolve_segments(
        &self,
        module: ModuleId,
        segments: &[String],
        depth: usize,
    ) -> Result<Resolved<'k>, ResolveError> {
        if depth > 32 {
            return Err(ResolveError(format!(
                "`{}` goes through too many imports (a `use` cycle?)",
                segments.join("::")
            )));
        }
        let (first, mut rest) = segments
            .split_first()
            .ok_or_else(|| ResolveError("an empty path names nothing".into()))?;
        let mut current = match first.as_str() {
            "::" => {
                let (krate, after) = rest
                    .split_first()
                    .ok_or_else(|| ResolveError("`::` alone names nothing".into()))?;
                match self.krate.extern_root(module, krate) {
                    Some(root) => {
                        rest = after;
                        Resolved::Module(root)
                    }
                    None => {
                        return Ok(Resolved::Foreign(
                            std::iter::once(krate).chain(after).cloned().collect(),
                        ));
                    }
                }
            }
            "crate" => Resolved::Module(self.krate.modules[module].root),
            "self" => Resolved::Module(module),
            "super" => Resolved::Module(self.parent(module)?),
            name => {
                match self.lookup_in(module, module, name, depth, &mut Vec::new(), leading(rest))? {
                    Some(found) => found,
                    None if !rest.is_empty() => self.crate_named(module, name),
                    None => match (self.krate.extern_root(module, name), prelude(name)) {
                        (Some(root), _) => Resolved::Module(root),
                        (None, Some(path)) => Resolved::Foreign(path),
                        (None, None) => return Err(self.not_found(module, name)),
                    },
                }
            }
        };
        for segment in rest {
            current = match current {
                Resolved::Module(m) => match segment.as_str() {
                    "super" => Resolved::Module(self.parent(m)?),
                    "self" => Resolved::Module(m),
                    name => self.lookup(m, name, depth)?.ok_or_else(|| {
                        ResolveError(format!(
                            "cannot find `{name}` in module `{}`",
                            self.krate.module_path(m)
                        ))
                    })?,
                },
                Resolved::Foreign(mut path) => {
                    path.push(segment.clone());
                    Resolved::Foreign(path)
                }
                _ => {
                    return Err(ResolveError(format!(
                        "`{}` goes through an item that is not a module",
                        segments.join("::")
                    )));
                }
            };
        }
        Ok(current)
    }

    fn parent(&self, module: ModuleId) -> Result<ModuleId, ResolveError> {
        self.krate.modules[module]
            .parent
            .ok_or_else(|| ResolveError("`super` at the crate root names nothing".into()))
    }

    /// What the import of `name` in `module` names. A single-segment target
    /// (`use serde_json;`, `use semver::{self}`, `extern crate uuid as id;`,
    /// `use Local as Alias;`) is an item of the module's scope or else a
    /// crate; resolving it as a path would look it up in the scope that
    /// holds the import, find the import again, and go round until the
    /// depth limit.
    fn import(
        &self,
        module: ModuleId,
        name: &str,
        target: &[String],
        depth: usize,
    ) -> Result<Resolved<'k>, ResolveError> {
        let [only] = target else {
            return self.resolve_segments(module, target, depth + 1);
        };
        if matches!(only.as_str(), "crate" | "self" | "super" | "::") {
            return self.resolve_segments(module, target, depth + 1);
        }
        if only != name
            && let Some(found) = self.lookup_in(
                module,
                module,
                only,
                depth + 1,
                &mut Vec::new(),
                Unknown::Crate,
            )?
        {
            return Ok(found);
        }
        Ok(match self.krate.extern_root(module, only) {
            Some(root) => Resolved::Module(root),
            None => Resolved::Foreign(prelude(only).unwrap_or_else(|| target.to_vec())),
        })
    }

    /// The crate code in `module` calls `name`: a path dependency's root
    /// module when it is one, else another crate, by name.
    fn crate_named(&self, module: ModuleId, name: &str) -> Resolved<'k> {
        match self.krate.extern_root(module, name) {
            Some(root) => Resolved::Module(root),
            None => Resolved::Foreign(vec![name.to_owned()]),
        }
    }

    /// What the `index`th glob of `module` imports from; `None` while that
    /// glob's own path is being resolved.
    fn glob(
        &self,
        module: ModuleId,
        index: usize,
        depth: usize,
    ) -> Result<Option<Resolved<'k>>, ResolveError> {
        if self.resolving_globs.borrow().contains(&(module, index)) {
            return Ok(None);
        }
        self.resolving_globs.borrow_mut().push((module, index));
        // A path through no glob of this module: `use serde::*` names the
        // crate, as `use serde;` does.
        let resolved = self.import(module, "*", &self.scopes[module].globs[index].path, depth);
        self.resolving_globs.borrow_mut().pop();
        resolved.map(Some)
    }

    fn not_found(&self, module: ModuleId, name: &str) -> ResolveError {
        ResolveError(format!(
            "cannot find type `{name}` in module `{}`; it is not declared there, imported with `use`, or in the prelude",
            self.krate.module_path(module)
        ))
    }

    /// Looks `name` up in one module's scope: its items, its imports, then its globs.
    fn lookup(
        &self,
        module: ModuleId,
        name: &str,
        depth: usize,
    ) -> Result<Option<Resolved<'k>>, ResolveError> {
        self.lookup_in(
            module,
            module,
            name,
            depth,
            &mut Vec::new(),
            Unknown::FromGlob,
        )
    }

    /// Whether `viewer` is `module` or inside it, and so sees what `module`
    /// declares or imports without `pub`.
    fn inside(&self, viewer: ModuleId, module: ModuleId) -> bool {
        let mut current = Some(viewer);
        while let Some(m) = current {
            if m == module {
                return true;
            }
            current = self.krate.modules[m].parent;
        }
        false
    }

    /// [`Self::lookup`], skipping the modules in `searched`: those this
    /// lookup already entered through globs. Globs often import each other
    /// (`pub use types::*` above a `use super::*`); following one back into
    /// a module being searched finds nothing new, and would otherwise go
    /// round until the depth limit and report a `use` cycle the compiler
    /// accepts. `viewer` is the module looking: a glob imports only what
    /// its module sees (`pub use types::*` leaves out the private
    /// `use super::X` of `types`). `unknown` says what a name nothing
    /// declares is taken for.
    fn lookup_in(
        &self,
        module: ModuleId,
        viewer: ModuleId,
        name: &str,
        depth: usize,
        searched: &mut Vec<ModuleId>,
        unknown: Unknown,
    ) -> Result<Option<Resolved<'k>>, ResolveError> {
        if depth > 32 {
            return Err(ResolveError(format!(
                "`{name}` goes through too many imports (a `use` cycle?)"
            )));
        }
        if searched.contains(&module) {
            return Ok(None);
        }
        searched.push(module);
        let scope = &self.scopes[module];
        let hidden = !self.inside(viewer, module);
        match scope.names.get(name) {
            Some(_) if hidden && scope.private_names.contains(name) => {}
            Some(Entry::Item(found)) => return Ok(Some(found.clone())),
            // Leading a path, the name of `use serde_json;` or of
            // `use anyhow::anyhow;` is the crate: the import is the crate
            // again, or an item spelt like it (a macro, a function) that
            // cannot lead a path; following it would find it again.
            Some(Entry::Import(target))
                if unknown == Unknown::Crate && target.first().is_some_and(|f| f == name) =>
            {
                return Ok(Some(Resolved::Foreign(vec![name.to_owned()])));
            }
            Some(Entry::Import(target)) => {
                return self.import(module, name, target, depth).map(Some);
            }
            None => {}
        }
        let mut foreign = Vec::new();
        for (index, glob) in scope.globs.iter().enumerate() {
            if hidden && !glob.public {
                continue;
            }
            match self.glob(module, index, depth)? {
                Some(Resolved::Module(m)) => {
                    if let Some(found) =
                        self.lookup_in(m, module, name, depth + 1, searched, unknown)?
                    {
                        return Ok(Some(found));
                    }
                }
                Some(Resolved::Foreign(path)) => foreign.push(path),
                _ => {}
            }
        }
        if unknown == Unknown::Crate || foreign.is_empty() || prelude(name).is_some() {
            return Ok(None);
        }
        if foreign.len() == 1 {
            let mut path = foreign.remove(0);
            path.push(name.to_owned());
            return Ok(Some(Resolved::Foreign(path)));
        }
        Err(ResolveError(format!(
            "`{name}` may come from any of the glob imports {} in module `{}`; import it by name",
            foreign
                .iter()
                .map(|p| format!("`{}::*`", p.join("::")))
                .collect::<Vec<_>>()
                .join(", "),
            self.krate.module_path(module)
        )))
    }
}

/// What a name that no item or import of a scope declares is taken for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Unknown {
    /// An item of the one other crate a glob imports (`use chrono::*;`,
    /// then `Utc`).
    FromGlob,
    /// A crate, where a name leads a longer path or an import
    /// (`serde_json::Value`, `use serde::*`): that is what it almost always
    /// is, and taking it from another crate's glob would make globs depend
    /// on each other (`use serde::*; use std::collections::*;`).
    Crate,
}

/// What the first segment of a path is taken for, by what follows it.
fn leading(rest: &[String]) -> Unknown {
    if rest.is_empty() {
        Unknown::FromGlob
    } else {
        Unknown::Crate
    }
}

fn collect_use(tree: &UseTree, prefix: &mut Vec<String>, public: bool, scope: &mut Scope<'_>) {
    match tree {
        UseTree::Path(path) => {
            prefix.push(path.ident.to_string());
            collect_use(&path.tree, prefix, public, scope);
            prefix.pop();
        }
        UseTree::Name(name) => {
            let ident = name.ident.to_string();
            if ident == "self" {
                if let Some(last) = prefix.last() {
                    scope.declare(last.clone(), Entry::Import(prefix.clone()), public);
                }
            } else {
                let mut target = prefix.clone();
                target.push(ident.clone());
                scope.declare(ident, Entry::Import(target), public);
            }
        }
        UseTree::Rename(rename) => {
            let ident = rename.ident.to_string();
            let target = if ident == "self" {
                prefix.clone()
            } else {
                let mut t = prefix.clone();
                t.push(ident);
                t
            };
            if rename.rename != "_" {
                scope.declare(rename.rename.to_string(), Entry::Import(target), public);
            }
        }
        UseTree::Glob(_) => scope.globs.push(Glob {
            path: prefix.clone(),
            public,
        }),
        UseTree::Group(group) => {
            for tree in &group.items {
                collect_use(tree, prefix, public, scope);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::{Module, SourceFile};
    use std::path::PathBuf;

    /// A crate whose modules are given as `(name, parent, source)`, the root first.
    fn krate(modules: &[(&str, Option<ModuleId>, &str)]) -> Crate {
        let mut krate = Crate::default();
        for (id, (name, parent, source)) in modules.iter().enumerate() {
            krate.files.push(SourceFile {
                path: PathBuf::from(format!("{name}.rs")),
                display: PathBuf::from(format!("{name}.rs")),
            });
            let segments = match parent {
                Some(p) => {
                    let mut s = krate.modules[*p].segments.clone();
                    s.push((*name).to_owned());
                    krate.modules[*p].children.push(((*name).to_owned(), id));
                    s
                }
                None => Vec::new(),
            };
            krate.modules.push(Module {
                parent: *parent,
                root: Crate::ROOT,
                segments,
                file: id,
                items: syn::parse_file(source).unwrap().items,
                vis: syn::Visibility::Inherited,
                children: Vec::new(),
                compiled_out: Vec::new(),
            });
        }
        krate
    }

    fn resolve<'k>(resolver: &Resolver<'k>, module: ModuleId, path: &str) -> Resolved<'k> {
        resolver
            .resolve(module, &syn::parse_str(path).unwrap())
            .unwrap_or_else(|e| panic!("`{path}` does not resolve: {}", e.0))
    }

    fn foreign(resolved: Resolved<'_>) -> Vec<String> {
        match resolved {
            Resolved::Foreign(path) => path,
            other => panic!("expected a foreign path, got {other:?}"),
        }
    }

    #[test]
    fn a_single_segment_use_names_the_crate_and_does_not_loop() {
        let krate = krate(&[(
            "lib",
            None,
            "use serde_json; use semver::{self}; extern crate chrono;",
        )]);
        let resolver = Resolver::new(&krate);
        for (path, expected) in [
            ("serde_json::Value", ["serde_json", "Value"]),
            ("semver::Version", ["semver", "Version"]),
            ("chrono::Utc", ["chrono", "Utc"]),
        ] {
            assert_eq!(foreign(resolve(&resolver, Crate::ROOT, path)), expected);
        }
        let value = resolver
            .resolve_value(Crate::ROOT, &syn::parse_str("serde_json::MAX").unwrap())
            .unwrap();
        assert!(
            matches!(value, Some(ResolvedValue::Foreign(path)) if path == ["serde_json", "MAX"])
        );
    }

    #[test]
    fn an_import_spelt_like_its_crate_leaves_the_crate_reachable() {
        let krate = krate(&[(
            "lib",
            None,
            "use anyhow::anyhow; use smallvec::{smallvec, SmallVec};",
        )]);
        let resolver = Resolver::new(&krate);
        assert_eq!(
            foreign(resolve(&resolver, Crate::ROOT, "anyhow::Result")),
            ["anyhow", "Result"]
        );
        assert_eq!(
            foreign(resolve(&resolver, Crate::ROOT, "SmallVec")),
            ["smallvec", "SmallVec"]
        );
    }

    #[test]
    fn a_crate_imported_under_another_name_resolves_through_that_name() {
        let krate = krate(&[(
            "lib",
            None,
            "use serde_json as json; extern crate uuid as id; pub struct Local; use Local as Alias;",
        )]);
        let resolver = Resolver::new(&krate);
        assert_eq!(
            foreign(resolve(&resolver, Crate::ROOT, "json::Value")),
            ["serde_json", "Value"]
        );
        assert_eq!(
            foreign(resolve(&resolver, Crate::ROOT, "id::Uuid")),
            ["uuid", "Uuid"]
        );
        assert!(matches!(
            resolve(&resolver, Crate::ROOT, "Alias"),
            Resolved::Struct(Crate::ROOT, s) if s.ident == "Local"
        ));
    }

    #[test]
    fn renames_that_import_each_other_are_a_use_cycle_not_a_stack_overflow() {
        let krate = krate(&[("lib", None, "use A as B; use B as A;")]);
        let error = Resolver::new(&krate)
            .resolve(Crate::ROOT, &syn::parse_str("A").unwrap())
            .unwrap_err();
        assert!(error.0.contains("a `use` cycle"), "{}", error.0);
    }

    #[test]
    fn a_glob_from_a_crate_does_not_go_through_itself_or_the_other_globs() {
        let krate = krate(&[(
            "lib",
            None,
            "pub use clap_builder::*; pub use std::collections::*;",
        )]);
        let resolver = Resolver::new(&krate);
        assert_eq!(
            foreign(resolve(&resolver, Crate::ROOT, "clap_builder::Command")),
            ["clap_builder", "Command"]
        );
        assert_eq!(
            foreign(resolve(&resolver, Crate::ROOT, "std::path::PathBuf")),
            ["std", "path", "PathBuf"]
        );
        let ambiguous = resolver
            .resolve(Crate::ROOT, &syn::parse_str("Command").unwrap())
            .unwrap_err();
        assert!(
            ambiguous
                .0
                .contains("may come from any of the glob imports"),
            "{}",
            ambiguous.0
        );
    }

    #[test]
    fn a_glob_leaves_out_what_its_module_imports_privately() {
        // hyper-util's and rmcp's shape: a child imports from its parent a
        // name the parent has from another glob, and the parent re-exports
        // the child by glob; the child's private import is not re-exported,
        // so it cannot lead back to itself.
        let krate = krate(&[
            ("lib", None, "pub use errors::*; use messages::*;"),
            ("errors", Some(Crate::ROOT), "use super::Status;"),
            ("messages", Some(Crate::ROOT), "pub struct Status;"),
        ]);
        let resolver = Resolver::new(&krate);
        for module in [Crate::ROOT, 1] {
            assert!(matches!(
                resolve(&resolver, module, "Status"),
                Resolved::Struct(2, s) if s.ident == "Status"
            ));
        }
    }

    #[test]
    fn globs_that_import_each_other_are_searched_once_and_are_not_a_use_cycle() {
        // The common shape: the root re-exports a module's items, and the
        // module imports everything of its parent.
        let krate = krate(&[
            ("lib", None, "pub use types::*; pub struct Root;"),
            (
                "types",
                Some(Crate::ROOT),
                "use super::*; pub struct Params;",
            ),
        ]);
        let resolver = Resolver::new(&krate);
        let types = 1;
        assert!(matches!(
            resolve(&resolver, types, "Root"),
            Resolved::Struct(..)
        ));
        assert!(matches!(
            resolve(&resolver, Crate::ROOT, "Params"),
            Resolved::Struct(..)
        ));
        assert_eq!(
            foreign(resolve(&resolver, types, "serde_json::Value")),
            ["serde_json", "Value"]
        );
        let missing = resolver
            .resolve(types, &syn::parse_str("Missing").unwrap())
            .unwrap_err();
        assert!(
            missing.0.starts_with("cannot find type `Missing`"),
            "{}",
            missing.0
        );
        assert!(
            resolver
                .resolve_value(types, &syn::parse_str("MISSING").unwrap())
                .unwrap()
                .is_none()
        );
    }
}
