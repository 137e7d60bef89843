//! Types as the lowering sees them: resolved, with generics substituted.
//!
//! A `syn::Type` written in some module becomes a [`Ty`]: a known leaf, one
//! of the std or foreign generic shapes schemars knows, or a struct or enum
//! of the crate instantiated with concrete arguments. Anything else (trait
//! objects, function pointers, foreign types schemars has no impl for) is an
//! error that names the construct and the way out.

use super::known::{self, Generic, Leaf};
use super::{LowerError, Lowerer};
use crate::resolve::Resolved;
use crate::scan::ModuleId;
use proc_macro2::Span;
use quote::ToTokens;
use std::rc::Rc;
use syn::spanned::Spanned;
use syn::{Expr, ExprLit, GenericArgument, ItemEnum, ItemStruct, Lit, PathArguments, Type};

/// Where a type being resolved is written, which decides the way out of a
/// type the build cannot see.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// A tool's parameter type.
    Parameter,
    /// A tool's return type.
    Return,
    /// A field's type, or a type inside another.
    Field,
}

impl Place {
    /// The way out of a type the build cannot see, here.
    fn way_out(self) -> &'static str {
        match self {
            Place::Parameter => {
                "a tool's parameter type must be a struct the build can read: declare it in this crate or in a path dependency (a workspace member), deriving `Deserialize` and `JsonSchema`"
            }
            Place::Return => {
                "declare the returned type in this crate or in a path dependency (a workspace member), deriving `Serialize` and `JsonSchema`, or return a type tooltable knows (see docs/schemas.md); to serve a text of your own beside the value, return `tooltable::Structured<T>`, and to build the whole result yourself (no output schema), return `tooltable::CallToolResult`"
            }
            Place::Field => {
                "say what it is with #[schemars(with = \"Type\")] on the field, or use a type of this crate, of a path dependency, or one tooltable knows (see docs/schemas.md)"
            }
        }
    }
}

/// A resolved type.
#[derive(Clone, Debug)]
pub enum Ty<'k> {
    /// A type schemars renders from a fixed table.
    Leaf(&'static Leaf),
    /// `Option<T>`.
    Option(Box<Ty<'k>>),
    /// A sequence of `T`.
    Seq(Box<Ty<'k>>),
    /// A set of `T`.
    Set(Box<Ty<'k>>),
    /// A map from `K` to `V`.
    Map(Box<Ty<'k>>, Box<Ty<'k>>),
    /// `[T; N]`.
    Array(Box<Ty<'k>>, usize),
    /// `ArrayVec<T, CAP>`.
    ArrayVec(Box<Ty<'k>>, usize),
    /// A tuple of at least one element.
    Tuple(Vec<Ty<'k>>),
    /// `Result<T, E>`.
    Result(Box<Ty<'k>>, Box<Ty<'k>>),
    /// `Range<T>` or `RangeInclusive<T>`.
    Range(Box<Ty<'k>>),
    /// `Bound<T>`.
    Bound(Box<Ty<'k>>),
    /// A struct or enum of the crate.
    Local(Rc<Def<'k>>),
    /// What a `schema_with` function returns: always inlined, as schemars'
    /// wrapper for the function is.
    Given(Rc<Given>),
}

/// The schema a `schema_with` function returns, evaluated at build time.
#[derive(Debug)]
pub struct Given {
    /// schemars' name for it: the function's name.
    pub name: String,
    /// schemars' id for it: the function's module and path.
    pub id: String,
    /// The schema.
    pub schema: serde_json::Value,
}

/// A struct or enum of the crate, instantiated.
#[derive(Clone, Debug)]
pub struct Def<'k> {
    /// The module that declares it.
    pub module: ModuleId,
    /// The item.
    pub item: DefItem<'k>,
    /// Its type parameters' names, bound to `args` in order.
    pub params: Vec<String>,
    /// The concrete arguments.
    pub args: Vec<Ty<'k>>,
}

/// The declaration of a local type.
#[derive(Clone, Copy, Debug)]
pub enum DefItem<'k> {
    /// A struct.
    Struct(&'k ItemStruct),
    /// An enum.
    Enum(&'k ItemEnum),
}

impl<'k> DefItem<'k> {
    /// The type's name as written.
    pub fn ident(&self) -> &'k syn::Ident {
        match self {
            DefItem::Struct(s) => &s.ident,
            DefItem::Enum(e) => &e.ident,
        }
    }

    /// The type's attributes.
    pub fn attrs(&self) -> &'k [syn::Attribute] {
        match self {
            DefItem::Struct(s) => &s.attrs,
            DefItem::Enum(e) => &e.attrs,
        }
    }

    /// The type's generics.
    pub fn generics(&self) -> &'k syn::Generics {
        match self {
            DefItem::Struct(s) => &s.generics,
            DefItem::Enum(e) => &e.generics,
        }
    }
}

/// Where a type is written: its module, and the type parameters in scope.
#[derive(Clone, Debug)]
pub struct Scope<'k> {
    /// The module the type is written in.
    pub module: ModuleId,
    /// The generic parameters in scope and their arguments.
    pub generics: Vec<(String, Ty<'k>)>,
    /// What `Self` names: the type whose body this is.
    pub self_ty: Option<Ty<'k>>,
}

impl<'k> Scope<'k> {
    /// A scope without generic parameters.
    pub fn module(module: ModuleId) -> Scope<'k> {
        Scope {
            module,
            generics: Vec::new(),
            self_ty: None,
        }
    }

    /// The scope of a local type's own body.
    pub fn of_def(def: &Def<'k>) -> Scope<'k> {
        Scope {
            module: def.module,
            generics: def
                .params
                .iter()
                .cloned()
                .zip(def.args.iter().cloned())
                .collect(),
            self_ty: Some(Ty::Local(Rc::new(def.clone()))),
        }
    }
}

fn type_args(arguments: &PathArguments) -> Vec<&GenericArgument> {
    match arguments {
        PathArguments::AngleBracketed(args) => args.args.iter().collect(),
        _ => Vec::new(),
    }
}

fn only_types<'a>(args: &[&'a GenericArgument]) -> Vec<&'a Type> {
    args.iter()
        .filter_map(|a| match a {
            GenericArgument::Type(t) => Some(t),
            _ => None,
        })
        .collect()
}

fn const_usize(expr: &Expr) -> Option<usize> {
    match expr {
        Expr::Lit(ExprLit {
            lit: Lit::Int(i), ..
        }) => i.base10_parse().ok(),
        Expr::Block(b) if b.block.stmts.len() == 1 => match &b.block.stmts[0] {
            syn::Stmt::Expr(e, None) => const_usize(e),
            _ => None,
        },
        _ => None,
    }
}

impl<'k> Lowerer<'k> {
    /// Resolves a type written in `scope`.
    pub fn ty(&self, scope: &Scope<'k>, ty: &Type) -> Result<Ty<'k>, LowerError> {
        self.ty_depth(scope, ty, 0)
    }

    fn ty_depth(&self, scope: &Scope<'k>, ty: &Type, depth: usize) -> Result<Ty<'k>, LowerError> {
        let err = |span: Span, message: String| LowerError::new(scope.module, span, message);
        if depth > 64 {
            return Err(err(
                ty.span(),
                "this type nests too deeply (a type alias that refers to itself?)".into(),
            ));
        }
        match ty {
            Type::Reference(r) => self.ty_depth(scope, &r.elem, depth + 1),
            Type::Paren(p) => self.ty_depth(scope, &p.elem, depth + 1),
            Type::Group(g) => self.ty_depth(scope, &g.elem, depth + 1),
            Type::Slice(s) => Ok(Ty::Seq(Box::new(self.ty_depth(
                scope,
                &s.elem,
                depth + 1,
            )?))),
            Type::Array(a) => {
                let len = const_usize(&a.len).ok_or_else(|| {
                    err(a.len.span(), "the length of this array is not an integer literal, so its schema's `minItems`/`maxItems` cannot be known at build time; write the length as a literal".into())
                })?;
                Ok(Ty::Array(
                    Box::new(self.ty_depth(scope, &a.elem, depth + 1)?),
                    len,
                ))
            }
            Type::Tuple(t) if t.elems.is_empty() => Ok(Ty::Leaf(&known::UNIT)),
            Type::Tuple(t) => Ok(Ty::Tuple(
                t.elems
                    .iter()
                    .map(|e| self.ty_depth(scope, e, depth + 1))
                    .collect::<Result<_, _>>()?,
            )),
            Type::Path(p) if p.qself.is_some() => Err(err(
                p.span(),
                format!(
                    "the build script cannot resolve the associated type `{}`; use a concrete type, or say what the schema is with #[schemars(with = \"Type\")]",
                    p.to_token_stream()
                ),
            )),
            Type::Path(p) => self.path_ty(scope, &p.path, depth),
            other => {
                let what = match other {
                    Type::TraitObject(_) => "a trait object",
                    Type::ImplTrait(_) => "`impl Trait`",
                    Type::FnPtr(_) => "a function pointer",
                    Type::Never(_) => "`!`",
                    Type::Ptr(_) => "a raw pointer",
                    Type::Infer(_) => "`_`",
                    Type::Macro(_) => "a macro in type position",
                    _ => "this kind of type",
                };
                Err(err(
                    other.span(),
                    format!(
                        "{what} (`{}`) has no JSON Schema; use a concrete serializable type, or say what the schema is with #[schemars(with = \"Type\")]",
                        other.to_token_stream()
                    ),
                ))
            }
        }
    }

    fn path_ty(
        &self,
        scope: &Scope<'k>,
        path: &syn::Path,
        depth: usize,
    ) -> Result<Ty<'k>, LowerError> {
        let err = |span: Span, message: String| LowerError::new(scope.module, span, message);
        let written = path.to_token_stream().to_string().replace(' ', "");
        if path.leading_colon.is_none() && path.segments.len() == 1 {
            let segment = &path.segments[0];
            if let Some((_, bound)) = scope
                .generics
                .iter()
                .find(|(name, _)| segment.ident == name)
            {
                return Ok(bound.clone());
            }
            if segment.ident == "Self" && segment.arguments.is_none() {
                return scope.self_ty.clone().ok_or_else(|| {
                    err(
                        path.span(),
                        "`Self` names no type here; write the type's name".into(),
                    )
                });
            }
        }
        let Some(last) = path.segments.last() else {
            return Err(err(path.span(), "an empty path names no type".into()));
        };
        let args = type_args(&last.arguments);
        let resolved = self.resolver.resolve(scope.module, path).map_err(|e| {
            err(
                path.span(),
                format!("{}; {}", e.0, self.place.get().way_out()),
            )
        })?;
        // A crate schemars knows, read from a path (a fork, a vendored
        // copy), keeps the schema schemars' own impl gives its types.
        if let Resolved::Struct(module, _) | Resolved::Enum(module, _) = &resolved
            && !self.krate.is_own(*module)
        {
            let krate = self.krate.module_path(self.krate.modules[*module].root);
            let name = last.ident.to_string();
            if known::leaf(&krate, &name).is_some() || known::generic(&krate, &name).is_some() {
                return self.foreign(scope, &[krate, name], &args, path, depth);
            }
        }
        match resolved {
            Resolved::Struct(module, item) => {
                self.local(scope, module, DefItem::Struct(item), &args, path, depth)
            }
            Resolved::Enum(module, item) => {
                self.local(scope, module, DefItem::Enum(item), &args, path, depth)
            }
            Resolved::Alias(module, alias) => {
                let types = only_types(&args);
                let params: Vec<String> = alias
                    .generics
                    .type_params()
                    .map(|p| p.ident.to_string())
                    .collect();
                if types.len() != params.len() {
                    return Err(err(
                        path.span(),
                        format!(
                            "type alias `{}` takes {} type arguments, but {} are given",
                            alias.ident,
                            params.len(),
                            types.len()
                        ),
                    ));
                }
                let mut generics = Vec::with_capacity(params.len());
                for (name, ty) in params.into_iter().zip(types) {
                    generics.push((name, self.ty_depth(scope, ty, depth + 1)?));
                }
                let scope = Scope {
                    module,
                    generics,
                    self_ty: None,
                };
                self.ty_depth(&scope, &alias.ty, depth + 1)
            }
            Resolved::Foreign(segments) => self.foreign(scope, &segments, &args, path, depth),
            Resolved::Module(_) => Err(err(
                path.span(),
                format!("`{written}` is a module, not a type"),
            )),
            Resolved::NotAType(what) => Err(err(
                path.span(),
                format!(
                    "`{written}` is {what}, not a type with a JSON Schema; use a concrete type"
                ),
            )),
        }
    }

    fn local(
        &self,
        scope: &Scope<'k>,
        module: ModuleId,
        item: DefItem<'k>,
        args: &[&GenericArgument],
        path: &syn::Path,
        depth: usize,
    ) -> Result<Ty<'k>, LowerError> {
        let err = |message: String| LowerError::new(scope.module, path.span(), message);
        let generics = item.generics();
        if let Some(param) = generics.const_params().next() {
            return Err(LowerError::new(
                module,
                param.span(),
                format!(
                    "`{}` has a const parameter, which the build script cannot render yet; use a concrete type",
                    item.ident()
                ),
            ));
        }
        let params: Vec<String> = generics
            .type_params()
            .map(|p| p.ident.to_string())
            .collect();
        let types = only_types(args);
        let defaults: Vec<Option<&Type>> = generics
            .type_params()
            .map(|p| p.default.as_ref().map(|(_, ty)| ty))
            .collect();
        let required = defaults.iter().take_while(|d| d.is_none()).count();
        if types.len() > params.len() || types.len() < required {
            return Err(err(format!(
                "`{}` takes {} type arguments, but {} are given",
                item.ident(),
                params.len(),
                types.len()
            )));
        }
        let mut bound = Vec::with_capacity(params.len());
        for ty in types {
            bound.push(self.ty_depth(scope, ty, depth + 1)?);
        }
        // Parameters left out take their defaults, written in the type's own
        // module, where earlier parameters are in scope.
        let given = bound.len();
        for (index, default) in defaults.iter().enumerate().skip(given) {
            let Some(default) = default else {
                return Err(err(format!(
                    "`{}` takes {} type arguments, but {} are given",
                    item.ident(),
                    params.len(),
                    index
                )));
            };
            let default_scope = Scope {
                module,
                generics: params.iter().cloned().zip(bound.iter().cloned()).collect(),
                self_ty: None,
            };
            let ty = self.ty_depth(&default_scope, default, depth + 1)?;
            bound.push(ty);
        }
        Ok(Ty::Local(Rc::new(Def {
            module,
            item,
            params,
            args: bound,
        })))
    }

    fn foreign(
        &self,
        scope: &Scope<'k>,
        segments: &[String],
        args: &[&GenericArgument],
        path: &syn::Path,
        depth: usize,
    ) -> Result<Ty<'k>, LowerError> {
        let err = |message: String| LowerError::new(scope.module, path.span(), message);
        let krate = if segments.len() == 1 {
            ""
        } else {
            segments[0].as_str()
        };
        let name = segments.last().map(String::as_str).unwrap_or_default();
        let types = only_types(args);
        let arg = |index: usize| -> Result<Ty<'k>, LowerError> {
            let ty = types
                .get(index)
                .ok_or_else(|| err(format!("`{name}` needs a type argument here")))?;
            self.ty_depth(scope, ty, depth + 1)
        };
        if let Some(shape) = known::generic(krate, name) {
            return Ok(match shape {
                Generic::Option => Ty::Option(Box::new(arg(0)?)),
                Generic::Seq if name == "SmallVec" => match types.first() {
                    Some(Type::Array(a)) => {
                        Ty::Seq(Box::new(self.ty_depth(scope, &a.elem, depth + 1)?))
                    }
                    _ => {
                        return Err(err(
                            "`SmallVec` takes an array type, such as `SmallVec<[T; 4]>`".into(),
                        ));
                    }
                },
                Generic::Seq => Ty::Seq(Box::new(arg(0)?)),
                Generic::Set => Ty::Set(Box::new(arg(0)?)),
                Generic::Map if name == "Map" => Ty::Map(
                    Box::new(Ty::Leaf(&known::STRING)),
                    Box::new(Ty::Leaf(&known::ANY_VALUE)),
                ),
                Generic::Map => Ty::Map(Box::new(arg(0)?), Box::new(arg(1)?)),
                Generic::Wrapper => arg(if name == "Cow" {
                    types.len().saturating_sub(1)
                } else {
                    0
                })?,
                Generic::Phantom => Ty::Leaf(&known::UNIT),
                Generic::Result => Ty::Result(Box::new(arg(0)?), Box::new(arg(1)?)),
                Generic::Range => Ty::Range(Box::new(arg(0)?)),
                Generic::Bound => Ty::Bound(Box::new(arg(0)?)),
                Generic::NonZero => {
                    let primitive = match arg(0)? {
                        Ty::Leaf(leaf) => leaf.rust_name,
                        _ => "",
                    };
                    known::non_zero(primitive).map(Ty::Leaf).ok_or_else(|| {
                        err("`NonZero` takes an integer type, such as `NonZero<u32>`".into())
                    })?
                }
                Generic::ArrayVec => {
                    let cap = args
                        .iter()
                        .find_map(|a| match a {
                            GenericArgument::Const(e) => const_usize(e),
                            GenericArgument::Type(Type::Path(p)) => p.path.get_ident().and_then(|i| i.to_string().parse().ok()),
                            _ => None,
                        })
                        .ok_or_else(|| err("the capacity of this `ArrayVec` is not an integer literal; write it as a literal".into()))?;
                    Ty::ArrayVec(Box::new(arg(0)?), cap)
                }
                Generic::DateTime => Ty::Leaf(&known::DATE_TIME),
            });
        }
        if let Some(leaf) = known::leaf(krate, name) {
            return Ok(Ty::Leaf(leaf));
        }
        Err(err(format!(
            "tooltable does not know the JSON Schema of `{}`, a type from outside this crate and its path dependencies; {}",
            segments.join("::"),
            self.place.get().way_out()
        )))
    }
}
