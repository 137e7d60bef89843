//! `"default"` values, where they can be known at build time.
//!
//! schemars writes a field's default by serializing the default value. The
//! build script cannot run code, so it evaluates what is certain from the
//! source: a type's own `Default` (`0`, `false`, `""`, `[]`, `{}`, `null`,
//! and derived `Default` of the crate's structs and enums), a
//! `#[serde(default = "path")]` function whose body is one expression (with
//! or without `return`), and a container `Default` impl made of such
//! values. An expression is a constant of a primitive type (folded by
//! [`consts`](super::consts): `1024 * 1024`, `u32::MAX`, `MAX_RESULTS`,
//! `"main".to_string()`), `Default::default()` or an empty std collection
//! (`Vec::new()`, `vec![]`), or a value built of expressions: `Some(..)`,
//! `None`, `vec![..]`, arrays, tuples, struct literals, unit variants, and
//! the crate's `const` items. Anything else is an error naming the field
//! and the way out.
//!
//! As in schemars, the value is one of the field's own type (not of a
//! schemars `with` type), a field serde never deserializes defaults to its
//! type's `Default`, and no default is written when the field's type does
//! not implement `Serialize`.

use super::attrs::{SerdeDefault, Tagging};
use super::consts::{FieldValues, Refusal, owned_string, strip};
use super::derive::{ContainerInfo, Data, FieldInfo, Style, derives};
use super::known::{self, Generic};
use super::ty::{Def, DefItem, Scope, Ty};
use super::{Generator, LowerError};
use crate::resolve::{Resolved, ResolvedValue};
use crate::scan::ModuleId;
use quote::ToTokens;
use serde_json::{Map, Value};
use std::rc::Rc;
use syn::spanned::Spanned;
use syn::{Expr, ImplItem, Item, Stmt};

const DEPTH_LIMIT: usize = 32;

/// The way out of a field default the build script cannot evaluate.
const FIELD_GUIDANCE: &str = "write the default as a literal (a `default = \"path\"` function whose body is a literal), or remove the default";

/// The way out of a container default the build script cannot evaluate.
const CONTAINER_GUIDANCE: &str =
    "derive `Default`, or write its `Default` impl with literal field values";

impl<'g, 'k> Generator<'g, 'k> {
    /// The `"default"` schemars would write for `field`, if any.
    pub fn field_default(
        &mut self,
        def: &Def<'k>,
        field: &FieldInfo<'k>,
        container: Option<&FieldValues>,
    ) -> Result<Option<Value>, LowerError> {
        if field.attrs.skip_serializing {
            return Ok(None);
        }
        let subject = format!("field `{}`", field.member);
        let err =
            |refusal: Refusal| refusal.into_error(def.module, field.span, &subject, FIELD_GUIDANCE);
        if !field.attrs.default.is_some() && container.is_none() {
            return Ok(None);
        }
        // The default is a value of the field's own type (not of a schemars
        // `with` type), serialized by serde; schemars writes none when that
        // type does not implement `Serialize`.
        let ty = self.field_ty_for_default(def, field).map_err(err)?;
        if !self.serializes(&ty, 0) {
            return Ok(None);
        }
        if field.attrs.serialize_with {
            return Err(LowerError::new(
                def.module,
                field.span,
                format!(
                    "the default of field `{}` is written by serde's `with`/`serialize_with` function, which the build script cannot run; remove the default, or the function",
                    field.member
                ),
            ));
        }
        let value = match (&field.attrs.default, container) {
            (SerdeDefault::None, None) => return Ok(None),
            (SerdeDefault::Default, _) => self.default_of(&ty, 0),
            (SerdeDefault::Path(path), _) => self.call_default_fn(def.module, path, &ty),
            (SerdeDefault::None, Some(values)) => match values.get(&field.member) {
                Some(value) => value.clone(),
                None => Err(Refusal::Unknown(
                    "the container's default does not give this field a value".into(),
                )),
            },
        }
        .map_err(err)?;
        if let Some(predicate) = &field.attrs.skip_serializing_if
            && skip_if(predicate, &value).map_err(|m| err(m.into()))?
        {
            return Ok(None);
        }
        Ok(Some(value))
    }

    /// Whether serde can serialize a value of `ty` (schemars writes a
    /// default only then).
    fn serializes(&self, ty: &Ty<'k>, depth: usize) -> bool {
        if depth > DEPTH_LIMIT {
            return true;
        }
        match ty {
            // A `schema_with` schema stands for the field's own type, which
            // is what is serialized, so it never reaches here as a value's.
            Ty::Leaf(_) | Ty::Given(_) => true,
            Ty::Option(t)
            | Ty::Seq(t)
            | Ty::Set(t)
            | Ty::Array(t, _)
            | Ty::ArrayVec(t, _)
            | Ty::Range(t)
            | Ty::Bound(t) => self.serializes(t, depth + 1),
            Ty::Map(k, v) | Ty::Result(k, v) => {
                self.serializes(k, depth + 1) && self.serializes(v, depth + 1)
            }
            Ty::Tuple(items) => items.iter().all(|item| self.serializes(item, depth + 1)),
            Ty::Local(def) => {
                if derives(def.item.attrs(), "Serialize") {
                    def.args.iter().all(|arg| self.serializes(arg, depth + 1))
                } else {
                    self.find_trait_impl(def, "Serialize").is_some()
                }
            }
        }
    }

    /// The serialized value of every field of a container's default.
    pub fn container_default_fields(
        &mut self,
        def: &Def<'k>,
        default: &SerdeDefault,
    ) -> Result<FieldValues, LowerError> {
        let ident = def.item.ident();
        let subject = format!("`{ident}`");
        let err = |refusal: Refusal| {
            refusal.into_error(def.module, ident.span(), &subject, CONTAINER_GUIDANCE)
        };
        let info = self.container(def)?;
        let Data::Struct(_, fields) = &info.data else {
            return Err(err(Refusal::Unknown(
                "`#[serde(default)]` on an enum".into(),
            )));
        };
        match default {
            SerdeDefault::Path(path) => {
                let (module, expr) = self.default_fn_body(def.module, path).map_err(err)?;
                self.struct_literal_fields(def, &info, module, &expr, 0)
                    .map_err(err)
            }
            _ => self
                .default_field_values(def, &info, fields, 0)
                .map_err(err),
        }
    }

    fn default_field_values(
        &mut self,
        def: &Def<'k>,
        info: &ContainerInfo<'k>,
        fields: &[FieldInfo<'k>],
        depth: usize,
    ) -> Result<FieldValues, Refusal> {
        if derives_default(def.item.attrs()) {
            let mut values = FieldValues::new();
            for field in fields {
                let value = self
                    .field_ty_for_default(def, field)
                    .and_then(|ty| self.default_of(&ty, depth + 1));
                values.insert(field.member.clone(), value);
            }
            return Ok(values);
        }
        let (module, expr) = self.manual_default_body(def)?;
        self.struct_literal_fields(def, info, module, &expr, depth + 1)
    }

    /// The field's own type: its default is a value of that type.
    fn field_ty_for_default(
        &self,
        def: &Def<'k>,
        field: &FieldInfo<'k>,
    ) -> Result<Ty<'k>, Refusal> {
        self.lowerer
            .ty(&Scope::of_def(def), field.ty)
            .map_err(|e| Refusal::Unknown(e.message))
    }

    /// `Default::default()` of a type, serialized.
    fn default_of(&mut self, ty: &Ty<'k>, depth: usize) -> Result<Value, Refusal> {
        if depth > DEPTH_LIMIT {
            return Err(Refusal::Unknown("its default refers to itself".into()));
        }
        Ok(match ty {
            Ty::Leaf(leaf) => match leaf.rust_name {
                "bool" => Value::Bool(false),
                "i8" | "i16" | "i32" | "i64" | "i128" | "isize" | "u8" | "u16" | "u32" | "u64"
                | "u128" | "usize" => Value::from(0),
                "f32" | "f64" => Value::from(0.0),
                "String" | "str" | "PathBuf" | "Path" | "ArrayString" => {
                    Value::String(String::new())
                }
                "char" => Value::String("\0".into()),
                "Decimal" => Value::String("0".into()),
                "Uuid" => Value::String("00000000-0000-0000-0000-000000000000".into()),
                "Bytes" | "BytesMut" => Value::Array(Vec::new()),
                "NaiveDate" => Value::String("1970-01-01".into()),
                "NaiveDateTime" => Value::String("1970-01-01T00:00:00".into()),
                "NaiveTime" => Value::String("00:00:00".into()),
                "()" | "Value" => Value::Null,
                "Duration" => serde_json::json!({"secs": 0, "nanos": 0}),
                other => {
                    return Err(Refusal::Unknown(format!(
                        "tooltable does not know what `{other}::default()` serializes to"
                    )));
                }
            },
            Ty::Option(_) => Value::Null,
            Ty::Seq(_) | Ty::Set(_) | Ty::ArrayVec(..) => Value::Array(Vec::new()),
            Ty::Map(..) => Value::Object(Map::new()),
            Ty::Array(item, len) => {
                let item = self.default_of(item, depth + 1)?;
                Value::Array(vec![item; *len])
            }
            Ty::Tuple(items) => Value::Array(
                items
                    .iter()
                    .map(|t| self.default_of(t, depth + 1))
                    .collect::<Result<_, _>>()?,
            ),
            Ty::Result(..) => return Err(Refusal::Unknown("`Result` has no default".into())),
            Ty::Range(item) => {
                let item = self.default_of(item, depth + 1)?;
                serde_json::json!({"start": item.clone(), "end": item})
            }
            Ty::Bound(_) => Value::String("Unbounded".into()),
            Ty::Local(def) => self.local_default(def, depth + 1)?,
            Ty::Given(given) => {
                return Err(Refusal::Unknown(format!(
                    "`{}` gives a schema, not a value with a default",
                    given.name
                )));
            }
        })
    }

    fn local_default(&mut self, def: &Rc<Def<'k>>, depth: usize) -> Result<Value, Refusal> {
        let info = self
            .container(def)
            .map_err(|e| Refusal::Unknown(e.message))?;
        if info.attrs.into.is_some() {
            return Err(Refusal::Unknown(format!(
                "`{}` is serialized through another type (`into`)",
                def.item.ident()
            )));
        }
        match &info.data {
            Data::Struct(style, fields) => {
                let values = self.default_field_values(def, &info, fields, depth)?;
                self.serialize_struct(def, &info, *style, fields, &values)
            }
            Data::Enum(variants) => {
                if derives_default(def.item.attrs()) {
                    let DefItem::Enum(item) = def.item else {
                        return Err(Refusal::Unknown("internal mismatch of enum data".into()));
                    };
                    let index = item
                        .variants
                        .iter()
                        .position(|v| v.attrs.iter().any(|a| a.path().is_ident("default")))
                        .ok_or_else(|| {
                            format!(
                                "`{}` derives Default without a #[default] variant",
                                item.ident
                            )
                        })?;
                    let variant = &variants[index];
                    if variant.style != Style::Unit {
                        return Err(Refusal::Unknown(
                            "its #[default] variant is not a unit variant".into(),
                        ));
                    }
                    return Ok(unit_variant_value(&info.attrs.tagging, &variant.ser_name));
                }
                let (module, expr) = self.manual_default_body(def)?;
                self.eval(module, &expr, &Ty::Local(def.clone()), depth + 1)
            }
        }
    }

    fn serialize_struct(
        &mut self,
        def: &Def<'k>,
        info: &ContainerInfo<'k>,
        style: Style,
        fields: &[FieldInfo<'k>],
        values: &FieldValues,
    ) -> Result<Value, Refusal> {
        let value_of = |field: &FieldInfo<'k>| {
            if field.attrs.serialize_with {
                return Err(Refusal::Unknown(format!(
                    "field `{}` of `{}` is written by serde's `with`/`serialize_with` function",
                    field.member,
                    def.item.ident()
                )));
            }
            values.get(&field.member).cloned().unwrap_or_else(|| {
                Err(Refusal::Unknown(format!(
                    "no value for field `{}`",
                    field.member
                )))
            })
        };
        if info.attrs.into.is_some() {
            return Err(Refusal::Unknown(format!(
                "`{}` is serialized through another type (`into`)",
                def.item.ident()
            )));
        }
        if let Some(field) = info.transparent_field() {
            return value_of(field);
        }
        Ok(match style {
            Style::Unit => Value::Null,
            Style::Newtype => value_of(&fields[0])?,
            Style::Tuple => Value::Array(
                fields
                    .iter()
                    .filter(|f| !f.attrs.skip_serializing)
                    .map(value_of)
                    .collect::<Result<_, _>>()?,
            ),
            Style::Struct => {
                let mut map = Map::new();
                for field in fields.iter().filter(|f| !f.attrs.skip_serializing) {
                    if field.attrs.flatten {
                        return Err(Refusal::Unknown(format!(
                            "field `{}` is flattened",
                            field.member
                        )));
                    }
                    let value = value_of(field)?;
                    if let Some(predicate) = &field.attrs.skip_serializing_if
                        && skip_if(predicate, &value)?
                    {
                        continue;
                    }
                    map.insert(field.ser_name.clone(), value);
                }
                Value::Object(map)
            }
        })
    }

    /// The crate's `impl <trait_name> for <def>`, and the module it is in.
    fn find_trait_impl(
        &self,
        def: &Def<'k>,
        trait_name: &str,
    ) -> Option<(ModuleId, &'k syn::ItemImpl)> {
        let krate: &'k crate::scan::Crate = self.lowerer.krate;
        for (module_id, module) in krate.modules.iter().enumerate() {
            for item in &module.items {
                let Item::Impl(imp) = item else { continue };
                let Some((trait_path, _)) = &imp.trait_ else {
                    continue;
                };
                if trait_path
                    .segments
                    .last()
                    .is_none_or(|s| s.ident != trait_name)
                {
                    continue;
                }
                let syn::Type::Path(self_path) = &*imp.self_ty else {
                    continue;
                };
                let same = match self.lowerer.resolver.resolve(module_id, &self_path.path) {
                    Ok(Resolved::Struct(m, s)) => {
                        matches!(def.item, DefItem::Struct(d) if std::ptr::eq(d, s))
                            && m == def.module
                    }
                    Ok(Resolved::Enum(m, e)) => {
                        matches!(def.item, DefItem::Enum(d) if std::ptr::eq(d, e))
                            && m == def.module
                    }
                    _ => false,
                };
                if same {
                    return Some((module_id, imp));
                }
            }
        }
        None
    }

    /// The value the crate's `impl Default for <def>` returns, and the
    /// module it is written in.
    fn manual_default_body(&self, def: &Def<'k>) -> Result<(ModuleId, Expr), Refusal> {
        let Some((module, imp)) = self.find_trait_impl(def, "Default") else {
            return Err(Refusal::Unknown(format!(
                "`{}` neither derives nor implements `Default` in this crate",
                def.item.ident()
            )));
        };
        for impl_item in &imp.items {
            if let ImplItem::Fn(f) = impl_item
                && f.sig.ident == "default"
            {
                let by = format!("`<{} as Default>::default`", def.item.ident());
                return body_value(module, &f.block, &by).map(|expr| (module, expr));
            }
        }
        Err(Refusal::Unknown(format!(
            "the `Default` impl of `{}` has no `default` function",
            def.item.ident()
        )))
    }

    /// The value the function a `default = "path"` names returns, and the
    /// module it is written in.
    fn default_fn_body(
        &self,
        module: ModuleId,
        path: &syn::ExprPath,
    ) -> Result<(ModuleId, Expr), Refusal> {
        let written = path.to_token_stream().to_string().replace(' ', "");
        let (m, block) = self.crate_fn(module, path).ok_or_else(|| {
            Refusal::Unknown(format!(
                "`{written}` is not a function the build script can find in this crate"
            ))
        })?;
        body_value(m, block, &format!("`{written}`")).map(|expr| (m, expr))
    }

    /// The body of the crate's function `path` names (free, or inherent to
    /// one of its types), and the module it is written in.
    pub(super) fn crate_fn(
        &self,
        module: ModuleId,
        path: &syn::ExprPath,
    ) -> Option<(ModuleId, &'k syn::Block)> {
        let krate: &'k crate::scan::Crate = self.lowerer.krate;
        match self.lowerer.resolver.resolve_value(module, &path.path) {
            Ok(Some(ResolvedValue::Fn(m, f))) => Some((m, &*f.block)),
            Ok(Some(ResolvedValue::Associated(m, ty, name))) => {
                krate.modules[m].items.iter().find_map(|item| {
                    let Item::Impl(imp) = item else { return None };
                    let syn::Type::Path(p) = &*imp.self_ty else {
                        return None;
                    };
                    if imp.trait_.is_some() || p.path.segments.last().is_none_or(|s| s.ident != *ty)
                    {
                        return None;
                    }
                    imp.items.iter().find_map(|impl_item| match impl_item {
                        ImplItem::Fn(f) if f.sig.ident == name => Some((m, &f.block)),
                        _ => None,
                    })
                })
            }
            _ => None,
        }
    }

    fn call_default_fn(
        &mut self,
        module: ModuleId,
        path: &syn::ExprPath,
        ty: &Ty<'k>,
    ) -> Result<Value, Refusal> {
        let (module, body) = self.default_fn_body(module, path)?;
        self.eval(module, &body, ty, 0)
    }

    /// The values a struct literal written in `module` gives the fields of `def`.
    fn struct_literal_fields(
        &mut self,
        def: &Def<'k>,
        info: &ContainerInfo<'k>,
        module: ModuleId,
        expr: &Expr,
        depth: usize,
    ) -> Result<FieldValues, Refusal> {
        let Data::Struct(_, fields) = &info.data else {
            return Err(Refusal::Unknown("an enum has no fields".into()));
        };
        let Expr::Struct(literal) = strip(expr) else {
            return Err(Refusal::Unknown(format!(
                "`{}` is not a struct literal",
                expr.to_token_stream()
            )));
        };
        let mut values = FieldValues::new();
        for field_value in &literal.fields {
            let member = match &field_value.member {
                syn::Member::Named(ident) => ident.to_string().trim_start_matches("r#").to_owned(),
                syn::Member::Unnamed(index) => index.index.to_string(),
            };
            let field = fields.iter().find(|f| f.member == member).ok_or_else(|| {
                Refusal::Unknown(format!("the literal sets `{member}`, which is not a field"))
            })?;
            let value = self
                .field_ty_for_default(def, field)
                .and_then(|ty| self.eval(module, &field_value.expr, &ty, depth + 1));
            values.insert(member, value);
        }
        if let Some(rest) = &literal.rest {
            if !self.is_default_call(module, rest) || !derives_default(def.item.attrs()) {
                return Err(Refusal::Unknown("`..rest` in a default is only understood as `..Default::default()` on a type that derives Default".into()));
            }
            for field in fields {
                if !values.contains_key(&field.member) {
                    let value = self
                        .field_ty_for_default(def, field)
                        .and_then(|ty| self.default_of(&ty, depth + 1));
                    values.insert(field.member.clone(), value);
                }
            }
        }
        for field in fields {
            if !values.contains_key(&field.member) {
                return Err(Refusal::Unknown(format!(
                    "the literal does not set field `{}`",
                    field.member
                )));
            }
        }
        Ok(values)
    }

    /// Whether `expr` is a call whose value is its type's `Default`:
    /// `Default::default()`, `T::default()`, or `new()` of a std collection
    /// or string type.
    fn is_default_call(&self, module: ModuleId, expr: &Expr) -> bool {
        let Expr::Call(call) = strip(expr) else {
            return false;
        };
        let Expr::Path(callee) = strip(&call.func) else {
            return false;
        };
        if !call.args.is_empty() {
            return false;
        }
        if callee
            .path
            .segments
            .last()
            .is_some_and(|s| s.ident == "default")
        {
            // Unless it names a function of the crate (an inherent
            // `T::default` comes before the trait's).
            return self.crate_fn(module, callee).is_none();
        }
        self.foreign_callee(module, &call.func, "new")
            .is_some_and(|(krate, name)| {
                matches!(
                    known::generic(&krate, &name),
                    Some(Generic::Seq | Generic::Set | Generic::Map | Generic::ArrayVec)
                ) || owned_string(&krate, &name)
            })
    }

    /// Evaluates an expression written in `module` as a value of type `ty`,
    /// serialized.
    fn eval(
        &mut self,
        module: ModuleId,
        expr: &Expr,
        ty: &Ty<'k>,
        depth: usize,
    ) -> Result<Value, Refusal> {
        if depth > DEPTH_LIMIT {
            return Err(Refusal::Unknown("the expression nests too deeply".into()));
        }
        let refuse = || {
            Refusal::Unknown(format!(
                "`{}` is not a constant the build script can evaluate",
                super::consts::written(expr)
            ))
        };
        if self.is_default_call(module, expr) {
            return self.default_of(ty, depth + 1);
        }
        if let Some(value) = self.fold_json(module, expr, ty)? {
            return Ok(value);
        }
        match strip(expr) {
            Expr::Macro(m) if m.mac.path.is_ident("vec") => {
                let item = element_type(ty).ok_or_else(refuse)?;
                let elems = m
                    .mac
                    .parse_body_with(
                        syn::punctuated::Punctuated::<Expr, syn::Token![,]>::parse_terminated,
                    )
                    .map_err(|_| refuse())?;
                elems
                    .iter()
                    .map(|e| self.eval(module, e, &item, depth + 1))
                    .collect::<Result<Vec<_>, _>>()
                    .map(Value::Array)
            }
            Expr::Array(array) => {
                let item = element_type(ty).ok_or_else(refuse)?;
                array
                    .elems
                    .iter()
                    .map(|e| self.eval(module, e, &item, depth + 1))
                    .collect::<Result<Vec<_>, _>>()
                    .map(Value::Array)
            }
            Expr::Call(call) => match (strip(&call.func), ty, call.args.len()) {
                (Expr::Path(callee), Ty::Option(inner), 1) if callee.path.is_ident("Some") => {
                    self.eval(module, &call.args[0], inner, depth + 1)
                }
                _ => Err(refuse()),
            },
            Expr::Path(path) => {
                if let Some((m, item)) = self.const_item(module, &path.path)? {
                    let declared = self.const_ty(m, item)?;
                    return self.within_const(item, module, path.span(), |g| {
                        g.eval(m, &item.expr, &declared, depth + 1)
                    });
                }
                match ty {
                    Ty::Option(_) if path.path.is_ident("None") => Ok(Value::Null),
                    Ty::Local(def) => self.unit_variant(def, &path.path).ok_or_else(refuse),
                    _ => Err(refuse()),
                }
            }
            Expr::Tuple(tuple) => match ty {
                Ty::Tuple(items) if items.len() == tuple.elems.len() => tuple
                    .elems
                    .iter()
                    .zip(items)
                    .map(|(e, t)| self.eval(module, e, t, depth + 1))
                    .collect::<Result<Vec<_>, _>>()
                    .map(Value::Array),
                _ => Err(refuse()),
            },
            literal @ Expr::Struct(_) => match ty {
                Ty::Local(def) => {
                    let info = self
                        .container(def)
                        .map_err(|e| Refusal::Unknown(e.message))?;
                    let Data::Struct(style, fields) = &info.data else {
                        return Err(refuse());
                    };
                    let values =
                        self.struct_literal_fields(def, &info, module, literal, depth + 1)?;
                    self.serialize_struct(def, &info, *style, fields, &values)
                }
                _ => Err(refuse()),
            },
            _ => Err(refuse()),
        }
    }

    /// The serialized value of the unit variant of the enum `def` that
    /// `path` ends with, if it is one.
    fn unit_variant(&self, def: &Def<'k>, path: &syn::Path) -> Option<Value> {
        let variant = &path.segments.last()?.ident;
        let info = self.container(def).ok()?;
        let (Data::Enum(variants), DefItem::Enum(item)) = (&info.data, def.item) else {
            return None;
        };
        if info.attrs.into.is_some() {
            return None;
        }
        let index = item.variants.iter().position(|v| v.ident == *variant)?;
        (variants[index].style == Style::Unit)
            .then(|| unit_variant_value(&info.attrs.tagging, &variants[index].ser_name))
    }
}

/// The value a function body returns: its one expression, with or without
/// `return`. `by` names the function.
fn body_value(module: ModuleId, block: &syn::Block, by: &str) -> Result<Expr, Refusal> {
    match body_expr(block) {
        Ok(expr) => Ok(expr),
        Err(Some(first)) => Err(Refusal::at(
            module,
            first,
            format!(
                "is given by {by}, whose body has statements before its value, which the build script cannot evaluate"
            ),
            "write the body as a single expression, such as `10 * 1024 * 1024` (a `const` item can name a part of it), or remove the default",
        )),
        Err(None) => Err(Refusal::Unknown(format!(
            "{by} does not end in a value the build script can read"
        ))),
    }
}

/// A function body's one expression, with or without `return`; otherwise
/// where its first statement is, when it has statements before its value.
pub(super) fn body_expr(block: &syn::Block) -> Result<Expr, Option<proc_macro2::Span>> {
    let value = |expr: &Expr| match expr {
        Expr::Return(r) => r.expr.as_deref().cloned(),
        other => Some(other.clone()),
    };
    match block.stmts.as_slice() {
        [Stmt::Expr(expr, None)] => value(expr).ok_or(None),
        [Stmt::Expr(expr @ Expr::Return(_), Some(_))] => value(expr).ok_or(None),
        [first, _, ..] => Err(Some(first.span())),
        _ => Err(None),
    }
}

fn derives_default(attrs: &[syn::Attribute]) -> bool {
    derives(attrs, "Default")
}

fn element_type<'k>(ty: &Ty<'k>) -> Option<Ty<'k>> {
    match ty {
        Ty::Seq(item) | Ty::Set(item) | Ty::Array(item, _) | Ty::ArrayVec(item, _) => {
            Some((**item).clone())
        }
        _ => None,
    }
}

fn unit_variant_value(tagging: &Tagging, name: &str) -> Value {
    match tagging {
        Tagging::External => Value::String(name.to_owned()),
        Tagging::Internal(tag) | Tagging::Adjacent(tag, _) => {
            let mut map = Map::new();
            map.insert(tag.clone(), Value::String(name.to_owned()));
            Value::Object(map)
        }
        Tagging::Untagged => Value::Null,
    }
}

/// Evaluates a `skip_serializing_if` predicate the build script knows.
fn skip_if(predicate: &syn::ExprPath, value: &Value) -> Result<bool, String> {
    let last = predicate
        .path
        .segments
        .last()
        .map(|s| s.ident.to_string())
        .unwrap_or_default();
    match last.as_str() {
        "is_none" => Ok(value.is_null()),
        "is_empty" => Ok(match value {
            Value::String(s) => s.is_empty(),
            Value::Array(a) => a.is_empty(),
            Value::Object(o) => o.is_empty(),
            _ => {
                return Err(format!(
                    "`{}` does not apply to this value",
                    predicate.to_token_stream()
                ));
            }
        }),
        "not" => Ok(value == &Value::Bool(false)),
        _ => Err(format!(
            "the build script cannot evaluate `skip_serializing_if = \"{}\"` on the default; it knows `Option::is_none`, `is_empty` and `std::ops::Not::not`",
            predicate.to_token_stream().to_string().replace(' ', "")
        )),
    }
}
