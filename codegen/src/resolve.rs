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
use std::collections::HashMap;
use syn::{Item, ItemConst, ItemEnum, ItemFn, ItemStruct, ItemType, UseTree};

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
    globs: Vec<Vec<String>>,
}

/// Resolves paths in a scanned crate.
pub struct Resolver<'k> {
    krate: &'k Crate,
    scopes: Vec<Scope<'k>>,
}

impl<'k> Resolver<'k> {
    /// Indexes every module's declared items and imports.
    pub fn new(krate: &'k Crate) -> Resolver<'k> {
        let mut scopes: Vec<Scope<'k>> = Vec::with_capacity(krate.modules.len());
        for (id, module) in krate.modules.iter().enumerate() {
            let mut scope = Scope::default();
            for (name, child) in &module.children {
                scope
                    .names
                    .insert(name.clone(), Entry::Item(Resolved::Module(*child)));
            }
            for item in &module.items {
                let (name, resolved) = match item {
                    Item::Struct(s) => (s.ident.to_string(), Resolved::Struct(id, s)),
                    Item::Enum(e) => (e.ident.to_string(), Resolved::Enum(id, e)),
                    Item::Type(t) => (t.ident.to_string(), Resolved::Alias(id, t)),
                    Item::Const(c) => {
                        scope
                            .values
                            .insert(c.ident.to_string(), ResolvedValue::Const(id, c));
                        continue;
                    }
                    Item::Fn(f) => {
                        scope
                            .values
                            .insert(f.sig.ident.to_string(), ResolvedValue::Fn(id, f));
                        continue;
                    }
                    Item::Trait(t) => (t.ident.to_string(), Resolved::NotAType("a trait")),
                    Item::Union(u) => (u.ident.to_string(), Resolved::NotAType("a union")),
                    Item::ExternCrate(e) => {
                        let name = e.rename.as_ref().map_or(&e.ident, |(_, r)| r).to_string();
                        scope
                            .names
                            .insert(name, Entry::Import(vec![e.ident.to_string()]));
                        continue;
                    }
                    Item::Use(u) => {
                        let mut prefix = Vec::new();
                        if u.leading_colon.is_some() {
                            prefix.push("::".to_owned());
                        }
                        collect_use(&u.tree, &mut prefix, &mut scope);
                        continue;
                    }
                    _ => continue,
                };
                scope.names.insert(name, Entry::Item(resolved));
            }
            scopes.push(scope);
        }
        Resolver { krate, scopes }
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
        Ok(match self.resolve_segments(module, prefix, depth)? {
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
        if depth > 32 {
            return Err(ResolveError(format!(
                "`{name}` goes through too many imports (a `use` cycle?)"
            )));
        }
        let scope = &self.scopes[module];
        if let Some(found) = scope.values.get(name) {
            return Ok(Some(found.clone()));
        }
        // A single-segment import names a crate, never a value.
        if let Some(Entry::Import(target)) = scope.names.get(name)
            && target.len() > 1
            && let Some(found) = self.value_segments(module, target, depth + 1)?
        {
            return Ok(Some(found));
        }
        let mut compiled_out = self.krate.modules[module]
            .compiled_out
            .iter()
            .find(|c| c.ident == name)
            .map(|c| ResolvedValue::CompiledOut(module, c));
        for glob in &scope.globs {
            if let Resolved::Module(m) = self.resolve_segments(module, glob, depth + 1)? {
                match self.lookup_value(m, name, depth + 1)? {
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
        let (first, rest) = segments
            .split_first()
            .ok_or_else(|| ResolveError("an empty path names nothing".into()))?;
        let mut current = match first.as_str() {
            "::" => {
                let (krate, rest) = rest
                    .split_first()
                    .ok_or_else(|| ResolveError("`::` alone names nothing".into()))?;
                return Ok(Resolved::Foreign(
                    std::iter::once(krate).chain(rest).cloned().collect(),
                ));
            }
            "crate" => Resolved::Module(Crate::ROOT),
            "self" => Resolved::Module(module),
            "super" => Resolved::Module(self.parent(module)?),
            name => match self.lookup(module, name, depth)? {
                Some(found) => found,
                None if !rest.is_empty() => Resolved::Foreign(vec![name.to_owned()]),
                None => match prelude(name) {
                    Some(path) => Resolved::Foreign(path),
                    None => return Err(self.not_found(module, name)),
                },
            },
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
        let scope = &self.scopes[module];
        match scope.names.get(name) {
            Some(Entry::Item(found)) => return Ok(Some(found.clone())),
            Some(Entry::Import(target)) => {
                return self.resolve_segments(module, target, depth + 1).map(Some);
            }
            None => {}
        }
        let mut foreign = Vec::new();
        for glob in &scope.globs {
            match self.resolve_segments(module, glob, depth + 1)? {
                Resolved::Module(m) => {
                    if let Some(found) = self.lookup(m, name, depth + 1)? {
                        return Ok(Some(found));
                    }
                }
                Resolved::Enum(..) => {}
                Resolved::Foreign(path) => foreign.push(path),
                _ => {}
            }
        }
        if foreign.is_empty() || prelude(name).is_some() {
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

fn collect_use(tree: &UseTree, prefix: &mut Vec<String>, scope: &mut Scope<'_>) {
    match tree {
        UseTree::Path(path) => {
            prefix.push(path.ident.to_string());
            collect_use(&path.tree, prefix, scope);
            prefix.pop();
        }
        UseTree::Name(name) => {
            let ident = name.ident.to_string();
            if ident == "self" {
                if let Some(last) = prefix.last() {
                    scope
                        .names
                        .insert(last.clone(), Entry::Import(prefix.clone()));
                }
            } else {
                let mut target = prefix.clone();
                target.push(ident.clone());
                scope.names.insert(ident, Entry::Import(target));
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
                scope
                    .names
                    .insert(rename.rename.to_string(), Entry::Import(target));
            }
        }
        UseTree::Glob(_) => scope.globs.push(prefix.clone()),
        UseTree::Group(group) => {
            for tree in &group.items {
                collect_use(tree, prefix, scope);
            }
        }
    }
}
