//! Constant expressions, folded as the compiler folds them.
//!
//! Real servers write defaults such as `1024 * 1024`, `60 * 5`, `-1`,
//! `u32::MAX`, `MAX_RESULTS` (a `const` of the crate) or
//! `"main".to_string()`. Their values are certain from the source alone, so
//! the build script folds them here, for the primitive type the value has:
//!
//! - integers at the width of their type (the literal's suffix, the
//!   `const`'s declared type, or the field's), with the compiler's checks:
//!   an overflow, a shift past the width or a division by zero is an error
//!   where it happens, never a wrapped value; a shift amount has its own
//!   type, `i32` unless its operands say otherwise, as in the compiler;
//!   `usize` and `isize` have the target's width (when the build does not
//!   say it, the value must be the same at every width where it is valid);
//! - `f32` and `f64` arithmetic in the type's own precision (a literal is
//!   rounded once, to that type), written as serde writes the value;
//! - `bool` and `char` literals, and strings from a literal through
//!   `.to_string()`, `.to_owned()`, `.into()` and `String::from`;
//! - the crate's `const` items, followed through `use` and modules (one
//!   that refers to itself, or that `#[cfg]` compiled out, is an error), and
//!   the `MIN`/`MAX` of the primitive integer types.
//!
//! [`defaults`](super::defaults) folds every value of a primitive type here;
//! what it cannot fold is a [`Refusal`].

use super::ty::{Scope, Ty};
use super::{Generator, LowerError, known};
use crate::resolve::{Resolved, ResolvedValue};
use crate::scan::ModuleId;
use proc_macro2::Span;
use quote::ToTokens;
use serde_json::Value;
use syn::spanned::Spanned;
use syn::{BinOp, Expr, ExprBinary, ExprLit, ExprUnary, ItemConst, Lit, LitInt, UnOp};

/// The serialized default value of each field of a container with
/// `#[serde(default)]`, or why it cannot be known (which matters only if
/// the value is needed).
pub type FieldValues = std::collections::HashMap<String, Result<serde_json::Value, Refusal>>;

/// Why a default is not written.
#[derive(Clone, Debug)]
pub enum Refusal {
    /// The build script cannot evaluate it: reported at the default's owner
    /// with the general way out.
    Unknown(String),
    /// The source is wrong, or cannot be evaluated as written: reported
    /// where it is, with its own way out.
    At {
        /// The module whose file holds it.
        module: ModuleId,
        /// Where.
        span: Span,
        /// What, following "the default of field `x`".
        what: String,
        /// The way out.
        way_out: String,
    },
}

impl From<String> for Refusal {
    fn from(message: String) -> Refusal {
        Refusal::Unknown(message)
    }
}

impl Refusal {
    /// A refusal located at `span` in `module`'s file.
    pub fn at(
        module: ModuleId,
        span: Span,
        what: impl Into<String>,
        way_out: impl Into<String>,
    ) -> Refusal {
        Refusal::At {
            module,
            span,
            what: what.into(),
            way_out: way_out.into(),
        }
    }

    /// The error for the default of `subject` (such as "field `limit`"),
    /// which is declared at `span` in `module`; `guidance` is the way out
    /// of a value the build script cannot evaluate.
    pub fn into_error(
        self,
        module: ModuleId,
        span: Span,
        subject: &str,
        guidance: &str,
    ) -> LowerError {
        match self {
            Refusal::Unknown(message) => LowerError::new(
                module,
                span,
                format!(
                    "the default of {subject} cannot be known at build time: {message}; {guidance}"
                ),
            ),
            Refusal::At {
                module,
                span,
                what,
                way_out,
            } => LowerError::new(
                module,
                span,
                format!("the default of {subject} {what}; {way_out}"),
            ),
        }
    }
}

/// A primitive type a constant expression can have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Prim {
    /// An integer type.
    Int(IntTy),
    /// `f32`.
    F32,
    /// `f64`.
    F64,
    /// `bool`.
    Bool,
    /// `char`.
    Char,
    /// `String`, `str`, `PathBuf` or `Path`: a string.
    Str,
}

impl Prim {
    fn name(self) -> &'static str {
        match self {
            Prim::Int(ty) => ty.name,
            Prim::F32 => "f32",
            Prim::F64 => "f64",
            Prim::Bool => "bool",
            Prim::Char => "char",
            Prim::Str => "String",
        }
    }
}

/// An integer type: its name, whether it is signed, its width in bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct IntTy {
    name: &'static str,
    signed: bool,
    bits: u32,
}

/// The integer types, with the width of each (`0`: the target's pointer width).
const INTEGERS: [(&str, bool, u32); 12] = [
    ("i8", true, 8),
    ("i16", true, 16),
    ("i32", true, 32),
    ("i64", true, 64),
    ("i128", true, 128),
    ("isize", true, 0),
    ("u8", false, 8),
    ("u16", false, 16),
    ("u32", false, 32),
    ("u64", false, 64),
    ("u128", false, 128),
    ("usize", false, 0),
];

/// The type of an unsuffixed shift amount nothing else types.
const I32: IntTy = IntTy {
    name: "i32",
    signed: true,
    bits: 32,
};

impl IntTy {
    /// All ones in this width.
    fn mask(self) -> u128 {
        u128::MAX >> (128 - self.bits)
    }

    fn min(self) -> i128 {
        if self.signed {
            i128::MIN >> (128 - self.bits)
        } else {
            0
        }
    }

    fn max(self) -> u128 {
        if self.signed {
            self.mask() >> 1
        } else {
            self.mask()
        }
    }

    fn fits(self, value: &Folded) -> bool {
        match *value {
            Folded::Signed(v) => {
                self.signed && v >= self.min() && (v < 0 || v.cast_unsigned() <= self.max())
            }
            Folded::Unsigned(v) => !self.signed && v <= self.max(),
            _ => false,
        }
    }

    /// The value of `MIN` or `MAX`.
    fn bound(self, max: bool) -> Folded {
        match (self.signed, max) {
            (true, true) => Folded::Signed(self.max().cast_signed()),
            (true, false) => Folded::Signed(self.min()),
            (false, true) => Folded::Unsigned(self.max()),
            (false, false) => Folded::Unsigned(0),
        }
    }

    /// The way out of a value that does not fit.
    fn way_out(self) -> String {
        format!(
            "write a value that fits in `{}` ({} to {}), or use a wider type",
            self.name,
            self.min(),
            self.max()
        )
    }
}

/// A folded constant, in the representation its type calls for.
#[derive(Clone, Debug, PartialEq)]
enum Folded {
    /// A value of a signed integer type.
    Signed(i128),
    /// A value of an unsigned integer type.
    Unsigned(u128),
    /// An `f32`.
    F32(f32),
    /// An `f64`.
    F64(f64),
    /// A `bool`.
    Bool(bool),
    /// A `char`.
    Char(char),
    /// A string.
    Str(String),
}

impl std::fmt::Display for Folded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Folded::Signed(v) => write!(f, "{v}"),
            Folded::Unsigned(v) => write!(f, "{v}"),
            Folded::F32(v) => write!(f, "{v:?}"),
            Folded::F64(v) => write!(f, "{v:?}"),
            Folded::Bool(v) => write!(f, "{v}"),
            Folded::Char(v) => write!(f, "{v:?}"),
            Folded::Str(v) => write!(f, "{v:?}"),
        }
    }
}

impl Folded {
    /// The value as serde_json writes it, which is what schemars emits: an
    /// `f32` widened to `f64`, a float that is not finite as `null`.
    fn to_json(&self) -> Result<Value, Refusal> {
        let beyond = || {
            Refusal::Unknown(format!(
                "`{self}` is beyond the 64 bits serde_json writes an integer in (without its `arbitrary_precision` feature, schemars then writes no default)"
            ))
        };
        Ok(match self {
            Folded::Signed(v) => u64::try_from(*v)
                .map(Value::from)
                .or_else(|_| i64::try_from(*v).map(Value::from))
                .map_err(|_| beyond())?,
            Folded::Unsigned(v) => u64::try_from(*v).map(Value::from).map_err(|_| beyond())?,
            Folded::F32(v) => {
                serde_json::Number::from_f64(f64::from(*v)).map_or(Value::Null, Value::Number)
            }
            Folded::F64(v) => serde_json::Number::from_f64(*v).map_or(Value::Null, Value::Number),
            Folded::Bool(v) => Value::Bool(*v),
            Folded::Char(v) => Value::String(v.to_string()),
            Folded::Str(v) => Value::String(v.clone()),
        })
    }
}

/// What a path in a constant expression names.
enum ValueRef<'k> {
    /// A `const` item of the crate, in its module.
    Const(ModuleId, &'k ItemConst),
    /// `MIN` (`false`) or `MAX` (`true`) of a primitive integer type.
    Bound(IntTy, bool),
}

/// Drops what does not change a value: parentheses, invisible groups, `&`,
/// and blocks of one expression.
pub fn strip(expr: &Expr) -> &Expr {
    match expr {
        Expr::Paren(p) => strip(&p.expr),
        Expr::Group(g) => strip(&g.expr),
        Expr::Reference(r) => strip(&r.expr),
        Expr::Block(b) if b.block.stmts.len() == 1 => match &b.block.stmts[0] {
            syn::Stmt::Expr(e, None) => strip(e),
            _ => expr,
        },
        _ => expr,
    }
}

/// Whether the foreign type `krate::name` is an owned string std makes from
/// a `&str` (`String::from`) or makes empty (`String::new`).
pub fn owned_string(krate: &str, name: &str) -> bool {
    known::leaf(krate, name).is_some_and(|leaf| matches!(leaf.rust_name, "String" | "PathBuf"))
}

/// Source written back as a person writes it (`Duration::from_secs(5)`),
/// for messages: proc_macro2 spaces every token apart.
pub(crate) fn written(tokens: &impl ToTokens) -> String {
    let spaced = tokens.to_token_stream().to_string();
    [
        (" :: ", "::"),
        (":: ", "::"),
        (" (", "("),
        ("( ", "("),
        (" )", ")"),
        (" ,", ","),
        (" . ", "."),
        (" [", "["),
        ("[ ", "["),
        (" ]", "]"),
        (" !", "!"),
        ("::< ", "::<"),
        ("& '", "&'"),
        (" >(", ">("),
        (" >::", ">::"),
    ]
    .iter()
    .fold(spaced, |text, (from, to)| text.replace(from, to))
}

impl<'k> Generator<'_, 'k> {
    /// The primitive type of `ty`, if it is one.
    fn prim_of(&self, ty: &Ty<'k>) -> Result<Option<Prim>, Refusal> {
        match ty {
            Ty::Leaf(leaf) => self.prim_named(leaf.rust_name),
            _ => Ok(None),
        }
    }

    fn prim_named(&self, name: &str) -> Result<Option<Prim>, Refusal> {
        if let Some(&(name, signed, bits)) = INTEGERS.iter().find(|(n, ..)| *n == name) {
            let bits = match bits {
                0 => self.pointer_width.ok_or_else(|| {
                    Refusal::Unknown(format!(
                        "the build does not say the target's pointer width, so the range of `{name}` is not known"
                    ))
                })?,
                bits => bits,
            };
            return Ok(Some(Prim::Int(IntTy { name, signed, bits })));
        }
        Ok(match name {
            "f32" => Some(Prim::F32),
            "f64" => Some(Prim::F64),
            "bool" => Some(Prim::Bool),
            "char" => Some(Prim::Char),
            "String" | "str" | "PathBuf" | "Path" => Some(Prim::Str),
            _ => None,
        })
    }

    /// The foreign type a call such as `String::from(..)` or `Vec::new()`
    /// goes through, as the crate and the name [`known`] looks types up by,
    /// when `callee` is `Type::<function>`.
    pub fn foreign_callee(
        &self,
        module: ModuleId,
        callee: &Expr,
        function: &str,
    ) -> Option<(String, String)> {
        let Expr::Path(path) = strip(callee) else {
            return None;
        };
        let mut prefix = path.path.clone();
        if prefix.segments.pop()?.ident != function || prefix.segments.is_empty() {
            return None;
        }
        prefix.segments.pop_punct();
        match self.lowerer.resolver.resolve(module, &prefix) {
            Ok(Resolved::Foreign(segments)) => {
                let name = segments.last()?.clone();
                let krate = if segments.len() == 1 {
                    String::new()
                } else {
                    segments[0].clone()
                };
                Some((krate, name))
            }
            _ => None,
        }
    }

    /// The `const` item a path names, if it names one: an error when
    /// `#[cfg]` compiled it out of this build.
    pub fn const_item(
        &self,
        module: ModuleId,
        path: &syn::Path,
    ) -> Result<Option<(ModuleId, &'k ItemConst)>, Refusal> {
        match self.lowerer.resolver.resolve_value(module, path) {
            Ok(Some(ResolvedValue::Const(m, item))) => Ok(Some((m, item))),
            Ok(Some(ResolvedValue::CompiledOut(m, item))) => Err(Refusal::at(
                module,
                path.span(),
                format!(
                    "uses the const `{}`, which `#[cfg]` compiles out of this build (it is declared at {})",
                    item.ident,
                    self.lowerer.krate.location(m, item.ident.span())
                ),
                format!(
                    "declare `{}` for this build too, or write the default without it",
                    item.ident
                ),
            )),
            _ => Ok(None),
        }
    }

    /// Runs `evaluate` on the value of the const `item`, used at `used_at`
    /// in `module`: an error when its value refers to itself.
    pub fn within_const<T>(
        &mut self,
        item: &'k ItemConst,
        module: ModuleId,
        used_at: Span,
        evaluate: impl FnOnce(&mut Self) -> Result<T, Refusal>,
    ) -> Result<T, Refusal> {
        let key = std::ptr::from_ref(item) as usize;
        if let Some(start) = self.consts.iter().position(|(k, _)| *k == key) {
            let cycle: Vec<String> = self.consts[start..]
                .iter()
                .map(|(_, name)| format!("`{name}`"))
                .chain([format!("`{}`", item.ident)])
                .collect();
            return Err(Refusal::at(
                module,
                used_at,
                format!(
                    "uses the const `{}`, whose value refers to itself ({})",
                    item.ident,
                    cycle.join(" → ")
                ),
                format!("give `{}` a value that does not use itself", item.ident),
            ));
        }
        self.consts.push((key, item.ident.to_string()));
        let result = evaluate(self);
        self.consts.pop();
        result
    }

    /// The type a `const` item declares, resolved in its module.
    pub fn const_ty(&self, module: ModuleId, item: &ItemConst) -> Result<Ty<'k>, Refusal> {
        self.lowerer
            .ty(&Scope::module(module), &item.ty)
            .map_err(|e| Refusal::Unknown(e.message))
    }

    fn value_ref(
        &self,
        module: ModuleId,
        path: &syn::Path,
    ) -> Result<Option<ValueRef<'k>>, Refusal> {
        if let Some((m, item)) = self.const_item(module, path)? {
            return Ok(Some(ValueRef::Const(m, item)));
        }
        let Ok(Some(ResolvedValue::Foreign(segments))) =
            self.lowerer.resolver.resolve_value(module, path)
        else {
            return Ok(None);
        };
        let (ty, bound) = match segments.as_slice() {
            [ty, bound] => (ty, bound),
            [krate, ty, bound] if known::leaf(krate, ty).is_some() => (ty, bound),
            _ => return Ok(None),
        };
        Ok(match (self.prim_named(ty)?, bound.as_str()) {
            (Some(Prim::Int(ty)), "MIN") => Some(ValueRef::Bound(ty, false)),
            (Some(Prim::Int(ty)), "MAX") => Some(ValueRef::Bound(ty, true)),
            _ => None,
        })
    }

    /// Folds `expr`, written in `module`, as a value of `ty` written as
    /// serde_json writes it, when `ty` is primitive. When the build does not
    /// say the target's pointer width, the value must be the same at every
    /// width where it is valid (where it is not, the compiler refuses it).
    pub fn fold_json(
        &mut self,
        module: ModuleId,
        expr: &Expr,
        ty: &Ty<'k>,
    ) -> Result<Option<Value>, Refusal> {
        self.at_every_width(expr, |g| g.fold_json_at_width(module, expr, ty))
    }

    /// Folds `expr`, written in `module`, as `serde_json::json!` writes a
    /// value nothing around it gives a type: the type a suffixed literal, a
    /// `const` or `u32::MAX` in it has, else `i32` for an integer and `f64`
    /// for a float, as the compiler's inference falls back.
    pub fn fold_json_untyped(&mut self, module: ModuleId, expr: &Expr) -> Result<Value, Refusal> {
        let value = self.at_every_width(expr, |g| {
            let Some(prim) = g.own_prim(module, expr)?.or_else(|| fallback_prim(expr)) else {
                return Ok(None);
            };
            g.fold(module, expr, prim)?.to_json().map(Some)
        })?;
        value.ok_or_else(|| {
            Refusal::Unknown(format!(
                "`{}` is not a constant the build script can evaluate",
                written(expr)
            ))
        })
    }

    /// `fold` at the target's pointer width, or, when the build does not say
    /// it, at every width where the value is valid, which must agree.
    fn at_every_width(
        &mut self,
        expr: &Expr,
        mut fold: impl FnMut(&mut Self) -> Result<Option<Value>, Refusal>,
    ) -> Result<Option<Value>, Refusal> {
        if self.lowerer.krate.pointer_width.is_some() {
            return fold(self);
        }
        let mut values = Vec::new();
        let mut refusals = Vec::new();
        for width in [64, 32, 16] {
            self.pointer_width = Some(width);
            match fold(self) {
                Ok(value) => values.push(value),
                Err(refusal) => refusals.push(refusal),
            }
        }
        self.pointer_width = None;
        match values.split_first() {
            Some((first, rest)) if rest.iter().all(|v| v == first) => Ok(first.clone()),
            Some(_) => Err(Refusal::Unknown(format!(
                "the value of `{}` depends on the width of `usize` and `isize`, which the build does not say",
                written(expr)
            ))),
            None => Err(refusals.swap_remove(0)),
        }
    }

    /// The type `expr` says it has by itself: a suffixed literal, a `const`,
    /// `MIN` or `MAX` of an integer type, or a string, `bool` or `char`.
    fn own_prim(&self, module: ModuleId, expr: &Expr) -> Result<Option<Prim>, Refusal> {
        if let Some(ty) = self.int_type_of(module, expr)? {
            return Ok(Some(Prim::Int(ty)));
        }
        Ok(match strip(expr) {
            Expr::Lit(ExprLit { lit, .. }) => match lit {
                Lit::Float(f) if f.suffix() == "f32" => Some(Prim::F32),
                Lit::Float(f) if f.suffix() == "f64" => Some(Prim::F64),
                Lit::Str(_) => Some(Prim::Str),
                Lit::Bool(_) => Some(Prim::Bool),
                Lit::Char(_) => Some(Prim::Char),
                _ => None,
            },
            Expr::Unary(unary) => self.own_prim(module, &unary.expr)?,
            Expr::Binary(binary) => match self.own_prim(module, &binary.left)? {
                Some(prim) => Some(prim),
                None if matches!(binary.op, BinOp::Shl(_) | BinOp::Shr(_)) => None,
                None => self.own_prim(module, &binary.right)?,
            },
            Expr::Path(path) if path.qself.is_none() => match self.value_ref(module, &path.path)? {
                Some(ValueRef::Const(m, item)) => Some(self.const_prim(m, item)?),
                Some(ValueRef::Bound(ty, _)) => Some(Prim::Int(ty)),
                None => None,
            },
            Expr::MethodCall(_) | Expr::Call(_) => Some(Prim::Str),
            _ => None,
        })
    }

    fn fold_json_at_width(
        &mut self,
        module: ModuleId,
        expr: &Expr,
        ty: &Ty<'k>,
    ) -> Result<Option<Value>, Refusal> {
        let Some(prim) = self.prim_of(ty)? else {
            return Ok(None);
        };
        self.fold(module, expr, prim)?.to_json().map(Some)
    }

    /// Folds `expr`, written in `module`, as a value of type `want`.
    fn fold(&mut self, module: ModuleId, expr: &Expr, want: Prim) -> Result<Folded, Refusal> {
        let refuse = || {
            Refusal::Unknown(format!(
                "`{}` is not a constant the build script can evaluate",
                written(expr)
            ))
        };
        let is_conversion =
            |method: &syn::Ident| method == "to_string" || method == "to_owned" || method == "into";
        match strip(expr) {
            Expr::Lit(ExprLit {
                lit: Lit::Int(lit), ..
            }) => self.int_literal(module, lit, want, None),
            Expr::Lit(ExprLit { lit, .. }) => self.literal(module, lit, want),
            Expr::Unary(unary) => self.unary(module, unary, want),
            Expr::Binary(binary) => self.binary(module, binary, want),
            Expr::Path(path) if path.qself.is_none() => {
                match self.value_ref(module, &path.path)? {
                    Some(ValueRef::Const(m, item)) => {
                        let declared = self.const_prim(m, item)?;
                        if declared != want {
                            return Err(mismatch(&path.path, declared, want));
                        }
                        self.within_const(item, module, path.span(), |g| {
                            g.fold(m, &item.expr, declared)
                        })
                    }
                    Some(ValueRef::Bound(ty, max)) => {
                        if Prim::Int(ty) != want {
                            return Err(mismatch(&path.path, Prim::Int(ty), want));
                        }
                        Ok(ty.bound(max))
                    }
                    None => Err(refuse()),
                }
            }
            Expr::MethodCall(call)
                if want == Prim::Str && call.args.is_empty() && is_conversion(&call.method) =>
            {
                self.fold(module, &call.receiver, Prim::Str)
            }
            Expr::Call(call)
                if want == Prim::Str
                    && call.args.len() == 1
                    && self
                        .foreign_callee(module, &call.func, "from")
                        .is_some_and(|(krate, name)| owned_string(&krate, &name)) =>
            {
                self.fold(module, &call.args[0], Prim::Str)
            }
            _ => Err(refuse()),
        }
    }

    /// The primitive type a `const` item declares.
    fn const_prim(&self, module: ModuleId, item: &ItemConst) -> Result<Prim, Refusal> {
        let ty = self.const_ty(module, item)?;
        self.prim_of(&ty)?.ok_or_else(|| {
            Refusal::Unknown(format!(
                "the const `{}` is a `{}`, not a number, `bool`, `char` or string",
                item.ident,
                written(&item.ty)
            ))
        })
    }

    fn literal(&self, module: ModuleId, lit: &Lit, want: Prim) -> Result<Folded, Refusal> {
        let mismatched = |ty: &str| {
            Refusal::Unknown(format!(
                "`{}` is a `{ty}` literal, but the value here is a `{}`",
                written(lit),
                want.name()
            ))
        };
        match (lit, want) {
            (Lit::Float(float), Prim::F32 | Prim::F64) => {
                let own = match float.suffix() {
                    "" => want,
                    "f32" => Prim::F32,
                    _ => Prim::F64,
                };
                if own != want {
                    return Err(mismatched(own.name()));
                }
                let (value, finite) = if want == Prim::F32 {
                    let v: f32 = float.base10_parse().map_err(|_| mismatched("float"))?;
                    (Folded::F32(v), v.is_finite())
                } else {
                    let v: f64 = float.base10_parse().map_err(|_| mismatched("float"))?;
                    (Folded::F64(v), v.is_finite())
                };
                if !finite {
                    return Err(Refusal::at(
                        module,
                        float.span(),
                        format!(
                            "overflows: the literal `{float}` does not fit in `{}`",
                            want.name()
                        ),
                        format!(
                            "write a value that fits in `{}`, or use a wider type",
                            want.name()
                        ),
                    ));
                }
                Ok(value)
            }
            (Lit::Bool(b), Prim::Bool) => Ok(Folded::Bool(b.value)),
            (Lit::Char(c), Prim::Char) => Ok(Folded::Char(c.value())),
            (Lit::Str(s), Prim::Str) => Ok(Folded::Str(s.value())),
            (Lit::Float(_), _) => Err(mismatched("float")),
            (Lit::Bool(_), _) => Err(mismatched("bool")),
            (Lit::Char(_), _) => Err(mismatched("char")),
            (Lit::Str(_), _) => Err(mismatched("&str")),
            _ => Err(Refusal::Unknown(format!(
                "`{}` is not a literal the build script can evaluate",
                written(lit)
            ))),
        }
    }

    /// An integer literal, negated when `negated` holds the `-`'s span (so
    /// that `-128i8` fits, as in the compiler).
    fn int_literal(
        &self,
        module: ModuleId,
        lit: &LitInt,
        want: Prim,
        negated: Option<Span>,
    ) -> Result<Folded, Refusal> {
        let Prim::Int(ty) = want else {
            return Err(Refusal::Unknown(format!(
                "`{lit}` is an integer literal, but the value here is a `{}`",
                want.name()
            )));
        };
        if !lit.suffix().is_empty() && self.prim_named(lit.suffix())? != Some(want) {
            return Err(Refusal::Unknown(format!(
                "`{lit}` is a `{}`, but the value here is a `{}`",
                lit.suffix(),
                ty.name
            )));
        }
        let sign = if negated.is_some() { "-" } else { "" };
        let span = negated.unwrap_or_else(|| lit.span());
        let magnitude: Option<u128> = lit.base10_digits().parse().ok();
        let value = match (magnitude, negated, ty.signed) {
            (_, Some(_), false) => return Err(negates_unsigned(module, span, ty)),
            (Some(m), Some(_), true) => 0_i128.checked_sub_unsigned(m).map(Folded::Signed),
            (Some(m), None, true) => i128::try_from(m).ok().map(Folded::Signed),
            (Some(m), None, false) => Some(Folded::Unsigned(m)),
            (None, ..) => None,
        };
        value.filter(|v| ty.fits(v)).ok_or_else(|| {
            Refusal::at(
                module,
                span,
                format!(
                    "overflows: the literal `{sign}{lit}` does not fit in `{}`",
                    ty.name
                ),
                ty.way_out(),
            )
        })
    }

    fn unary(
        &mut self,
        module: ModuleId,
        unary: &ExprUnary,
        want: Prim,
    ) -> Result<Folded, Refusal> {
        let refuse = || {
            Refusal::Unknown(format!(
                "`{}` is not a constant the build script can evaluate",
                written(unary)
            ))
        };
        match unary.op {
            UnOp::Neg(minus) => {
                if let Expr::Lit(ExprLit {
                    lit: Lit::Int(lit), ..
                }) = strip(&unary.expr)
                {
                    return self.int_literal(module, lit, want, Some(minus.span));
                }
                let value = self.fold(module, &unary.expr, want)?;
                match (value, want) {
                    (Folded::Signed(v), Prim::Int(ty)) => v
                        .checked_neg()
                        .map(Folded::Signed)
                        .filter(|v| ty.fits(v))
                        .ok_or_else(|| {
                            Refusal::at(
                                module,
                                minus.span,
                                format!("overflows: `-({v})` does not fit in `{}`", ty.name),
                                ty.way_out(),
                            )
                        }),
                    (Folded::Unsigned(_), Prim::Int(ty)) => {
                        Err(negates_unsigned(module, minus.span, ty))
                    }
                    (Folded::F32(v), _) => Ok(Folded::F32(-v)),
                    (Folded::F64(v), _) => Ok(Folded::F64(-v)),
                    _ => Err(refuse()),
                }
            }
            UnOp::Not(_) => match (self.fold(module, &unary.expr, want)?, want) {
                (Folded::Signed(v), _) => Ok(Folded::Signed(!v)),
                (Folded::Unsigned(v), Prim::Int(ty)) => Ok(Folded::Unsigned(!v & ty.mask())),
                (Folded::Bool(v), _) => Ok(Folded::Bool(!v)),
                _ => Err(refuse()),
            },
            _ => Err(refuse()),
        }
    }

    fn binary(
        &mut self,
        module: ModuleId,
        binary: &ExprBinary,
        want: Prim,
    ) -> Result<Folded, Refusal> {
        let refuse = || {
            Refusal::Unknown(format!(
                "`{}` is not a constant the build script can evaluate",
                written(binary)
            ))
        };
        let op = &binary.op;
        let at = op.span();
        if let BinOp::Shl(_) | BinOp::Shr(_) = op {
            let Prim::Int(ty) = want else {
                return Err(refuse());
            };
            let value = self.fold(module, &binary.left, want)?;
            let amount_ty = self.int_type_of(module, &binary.right)?.unwrap_or(I32);
            let amount = self.fold(module, &binary.right, Prim::Int(amount_ty))?;
            return shift(ty, op, &value, &amount).ok_or_else(|| {
                Refusal::at(
                    module,
                    at,
                    format!(
                        "overflows: `{value} {} {amount}` shifts by {amount}, but `{}` has {} bits",
                        written(op),
                        ty.name,
                        ty.bits
                    ),
                    format!("shift by less than {}", ty.bits),
                )
            });
        }
        if !matches!(
            op,
            BinOp::Add(_)
                | BinOp::Sub(_)
                | BinOp::Mul(_)
                | BinOp::Div(_)
                | BinOp::Rem(_)
                | BinOp::BitAnd(_)
                | BinOp::BitOr(_)
                | BinOp::BitXor(_)
                | BinOp::And(_)
                | BinOp::Or(_)
        ) {
            return Err(refuse());
        }
        let lhs = self.fold(module, &binary.left, want)?;
        let rhs = self.fold(module, &binary.right, want)?;
        let by_zero = matches!(op, BinOp::Div(_) | BinOp::Rem(_))
            && matches!(rhs, Folded::Signed(0) | Folded::Unsigned(0));
        if by_zero {
            return Err(Refusal::at(
                module,
                at,
                format!("divides by zero: `{lhs} {} 0`", written(op)),
                "write a divisor that is not zero",
            ));
        }
        if let Prim::Int(ty) = want {
            return integer(ty, op, &lhs, &rhs)
                .ok_or_else(refuse)?
                .filter(|v| ty.fits(v))
                .ok_or_else(|| {
                    Refusal::at(
                        module,
                        at,
                        format!(
                            "overflows: `{lhs} {} {rhs}` does not fit in `{}`",
                            written(op),
                            ty.name
                        ),
                        ty.way_out(),
                    )
                });
        }
        Ok(match (lhs, rhs, op) {
            (Folded::F32(a), Folded::F32(b), _) => Folded::F32(float(op, a, b).ok_or_else(refuse)?),
            (Folded::F64(a), Folded::F64(b), _) => Folded::F64(float(op, a, b).ok_or_else(refuse)?),
            (Folded::Bool(a), Folded::Bool(b), BinOp::BitAnd(_) | BinOp::And(_)) => {
                Folded::Bool(a && b)
            }
            (Folded::Bool(a), Folded::Bool(b), BinOp::BitOr(_) | BinOp::Or(_)) => {
                Folded::Bool(a || b)
            }
            (Folded::Bool(a), Folded::Bool(b), BinOp::BitXor(_)) => Folded::Bool(a ^ b),
            _ => return Err(refuse()),
        })
    }

    /// The integer type an expression has without an expected type (a
    /// shift amount), if its suffixes, consts or bounds say one.
    fn int_type_of(&self, module: ModuleId, expr: &Expr) -> Result<Option<IntTy>, Refusal> {
        let int = |prim: Option<Prim>| match prim {
            Some(Prim::Int(ty)) => Some(ty),
            _ => None,
        };
        Ok(match strip(expr) {
            Expr::Lit(ExprLit {
                lit: Lit::Int(lit), ..
            }) if !lit.suffix().is_empty() => int(self.prim_named(lit.suffix())?),
            Expr::Unary(unary) => self.int_type_of(module, &unary.expr)?,
            Expr::Binary(binary) => match (&binary.op, self.int_type_of(module, &binary.left)?) {
                (BinOp::Shl(_) | BinOp::Shr(_), left) | (_, left @ Some(_)) => left,
                _ => self.int_type_of(module, &binary.right)?,
            },
            Expr::Path(path) if path.qself.is_none() => match self.value_ref(module, &path.path)? {
                Some(ValueRef::Const(m, item)) => int(Some(self.const_prim(m, item)?)),
                Some(ValueRef::Bound(ty, _)) => Some(ty),
                None => None,
            },
            _ => None,
        })
    }
}

/// The type the compiler falls back to for an expression whose literals
/// have no suffix: `f64` when the first is a float, otherwise `i32`.
fn fallback_prim(expr: &Expr) -> Option<Prim> {
    match strip(expr) {
        Expr::Lit(ExprLit {
            lit: Lit::Int(_), ..
        }) => Some(Prim::Int(I32)),
        Expr::Lit(ExprLit {
            lit: Lit::Float(_), ..
        }) => Some(Prim::F64),
        Expr::Unary(unary) => fallback_prim(&unary.expr),
        Expr::Binary(binary) => fallback_prim(&binary.left),
        _ => None,
    }
}

fn mismatch(path: &syn::Path, own: Prim, want: Prim) -> Refusal {
    Refusal::Unknown(format!(
        "`{}` is a `{}`, but the value here is a `{}`",
        written(path).replace(' ', ""),
        own.name(),
        want.name()
    ))
}

fn negates_unsigned(module: ModuleId, span: Span, ty: IntTy) -> Refusal {
    Refusal::at(
        module,
        span,
        format!("negates a value of the unsigned type `{}`", ty.name),
        format!(
            "write a value that fits in `{}` (0 to {}), or use a signed type",
            ty.name,
            ty.max()
        ),
    )
}

/// `lhs op rhs` on integers of type `ty` (a divisor is not zero): `None`
/// when `op` is not an integer operation, `Some(None)` when it overflows.
fn integer(ty: IntTy, op: &BinOp, lhs: &Folded, rhs: &Folded) -> Option<Option<Folded>> {
    Some(match (lhs, rhs) {
        (&Folded::Signed(a), &Folded::Signed(b)) => match op {
            BinOp::Add(_) => a.checked_add(b),
            BinOp::Sub(_) => a.checked_sub(b),
            BinOp::Mul(_) => a.checked_mul(b),
            BinOp::Div(_) => a.checked_div(b),
            // `MIN % -1` overflows in the compiler, though its value is 0.
            BinOp::Rem(_) if a == ty.min() && b == -1 => None,
            BinOp::Rem(_) => a.checked_rem(b),
            BinOp::BitAnd(_) => Some(a & b),
            BinOp::BitOr(_) => Some(a | b),
            BinOp::BitXor(_) => Some(a ^ b),
            _ => return None,
        }
        .map(Folded::Signed),
        (&Folded::Unsigned(a), &Folded::Unsigned(b)) => match op {
            BinOp::Add(_) => a.checked_add(b),
            BinOp::Sub(_) => a.checked_sub(b),
            BinOp::Mul(_) => a.checked_mul(b),
            BinOp::Div(_) => a.checked_div(b),
            BinOp::Rem(_) => a.checked_rem(b),
            BinOp::BitAnd(_) => Some(a & b),
            BinOp::BitOr(_) => Some(a | b),
            BinOp::BitXor(_) => Some(a ^ b),
            _ => return None,
        }
        .map(Folded::Unsigned),
        _ => return None,
    })
}

/// `value << amount` or `value >> amount` in type `ty`: `None` when the
/// amount is negative or not less than the width. Bits shifted out are
/// lost, as in the compiler; `>>` of a signed value keeps its sign.
fn shift(ty: IntTy, op: &BinOp, value: &Folded, amount: &Folded) -> Option<Folded> {
    let amount = match *amount {
        Folded::Signed(n) => u32::try_from(n).ok()?,
        Folded::Unsigned(n) => u32::try_from(n).ok()?,
        _ => return None,
    };
    if amount >= ty.bits {
        return None;
    }
    let left = matches!(op, BinOp::Shl(_));
    Some(match *value {
        Folded::Unsigned(v) if left => Folded::Unsigned((v << amount) & ty.mask()),
        Folded::Unsigned(v) => Folded::Unsigned(v >> amount),
        Folded::Signed(v) if left => {
            // Shift the bits of the type's width, then read them back signed.
            let bits = (v.cast_unsigned() << amount) & ty.mask();
            let spare = 128 - ty.bits;
            Folded::Signed((bits << spare).cast_signed() >> spare)
        }
        Folded::Signed(v) => Folded::Signed(v >> amount),
        _ => return None,
    })
}

/// `a op b` on floats of one type, rounded once, as the compiler computes it.
fn float<F>(op: &BinOp, a: F, b: F) -> Option<F>
where
    F: std::ops::Add<Output = F>
        + std::ops::Sub<Output = F>
        + std::ops::Mul<Output = F>
        + std::ops::Div<Output = F>
        + std::ops::Rem<Output = F>,
{
    Some(match op {
        BinOp::Add(_) => a + b,
        BinOp::Sub(_) => a - b,
        BinOp::Mul(_) => a * b,
        BinOp::Div(_) => a / b,
        BinOp::Rem(_) => a % b,
        _ => return None,
    })
}
