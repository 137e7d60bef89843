//! `"default"` values, where they can be known at build time.
//!
//! schemars writes a field's default by serializing the default value. The
//! build script cannot run code, so it evaluates what is plain in the
//! source: a type's own `Default` (`0`, `false`, `""`, `[]`, `{}`, `null`,
//! and derived `Default` of the crate's structs and enums), a
//! `#[serde(default = "path")]` function whose body is a literal or a
//! collection of literals, and a container `Default` impl made of such
//! values. Anything else is an error naming the field and the way out.
//!
//! As in schemars, the value is one of the field's own type (not of a
//! schemars `with` type), a field serde never deserializes defaults to its
//! type's `Default`, an `f32` is written as that `f32` widened to `f64`, and
//! no default is written when the field's type does not implement
//! `Serialize`.

use super::attrs::{SerdeDefault, Tagging};
use super::derive::{ContainerInfo, Data, FieldInfo, Style, derives};
use super::ty::{Def, DefItem, Scope, Ty};
use super::{Generator, LowerError};
use crate::resolve::Resolved;
use crate::scan::ModuleId;
use quote::ToTokens;
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::rc::Rc;
use syn::{Expr, ExprLit, ImplItem, Item, Lit, Stmt};

/// The serialized default value of each field of a container with
/// `#[serde(default)]`, or why it cannot be known (which matters only if
/// the value is needed).
pub type FieldValues = HashMap<String, Result<Value, String>>;

const DEPTH_LIMIT: usize = 32;

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
        let err = |message: String| {
            LowerError::new(
                def.module,
                field.span,
                format!(
                    "the default of field `{}` cannot be known at build time: {message}; write the default as a literal (a `default = \"path\"` function whose body is a literal), or remove the default",
                    field.member
                ),
            )
        };
        if !field.attrs.default.is_some() && container.is_none() {
            return Ok(None);
        }
        // The default is a value of the field's own type (not of a schemars
        // `with` type), serialized by serde; schemars writes none when that
        // type does not implement `Serialize`.
        let ty = self.field_ty_for_default(def, field).map_err(err)?;
        if !self.serializes(&ty, 0).map_err(err)? {
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
            (SerdeDefault::Default, _) => self.default_of(&ty, 0).map_err(err)?,
            (SerdeDefault::Path(path), _) => {
                self.call_default_fn(def.module, path, &ty).map_err(err)?
            }
            (SerdeDefault::None, Some(values)) => match values.get(&field.member) {
                Some(Ok(value)) => value.clone(),
                Some(Err(message)) => return Err(err(message.clone())),
                None => {
                    return Err(err(
                        "the container's default does not give this field a value".into(),
                    ));
                }
            },
        };
        if let Some(predicate) = &field.attrs.skip_serializing_if
            && skip_if(predicate, &value).map_err(err)?
        {
            return Ok(None);
        }
        Ok(Some(value))
    }

    /// Whether serde can serialize a value of `ty` (schemars writes a
    /// default only then).
    fn serializes(&self, ty: &Ty<'k>, depth: usize) -> Result<bool, String> {
        if depth > DEPTH_LIMIT {
            return Ok(true);
        }
        Ok(match ty {
            Ty::Leaf(_) => true,
            Ty::Option(t)
            | Ty::Seq(t)
            | Ty::Set(t)
            | Ty::Array(t, _)
            | Ty::ArrayVec(t, _)
            | Ty::Range(t)
            | Ty::Bound(t) => self.serializes(t, depth + 1)?,
            Ty::Map(k, v) | Ty::Result(k, v) => {
                self.serializes(k, depth + 1)? && self.serializes(v, depth + 1)?
            }
            Ty::Tuple(items) => {
                for item in items {
                    if !self.serializes(item, depth + 1)? {
                        return Ok(false);
                    }
                }
                true
            }
            Ty::Local(def) => {
                if derives(def.item.attrs(), "Serialize") {
                    for arg in &def.args {
                        if !self.serializes(arg, depth + 1)? {
                            return Ok(false);
                        }
                    }
                    true
                } else {
                    self.find_trait_impl(def, "Serialize").is_some()
                }
            }
        })
    }

    /// The serialized value of every field of a container's default.
    pub fn container_default_fields(
        &mut self,
        def: &Def<'k>,
        default: &SerdeDefault,
    ) -> Result<FieldValues, LowerError> {
        let err = |message: String| {
            LowerError::new(
                def.module,
                def.item.ident().span(),
                format!(
                    "the default of `{}` cannot be known at build time: {message}; derive `Default`, or write its `Default` impl with literal field values",
                    def.item.ident()
                ),
            )
        };
        let info = self.container(def)?;
        let Data::Struct(_, fields) = &info.data else {
            return Err(err("`#[serde(default)]` on an enum".into()));
        };
        match default {
            SerdeDefault::Path(path) => {
                let expr = self.default_fn_body(def.module, path).map_err(err)?;
                self.struct_literal_fields(def, &info, &expr, 0)
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
    ) -> Result<FieldValues, String> {
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
        let expr = self.manual_default_body(def)?;
        self.struct_literal_fields(def, info, &expr, depth + 1)
    }

    /// The field's own type: its default is a value of that type.
    fn field_ty_for_default(&self, def: &Def<'k>, field: &FieldInfo<'k>) -> Result<Ty<'k>, String> {
        self.lowerer
            .ty(&Scope::of_def(def), field.ty)
            .map_err(|e| e.message)
    }

    /// `Default::default()` of a type, serialized.
    fn default_of(&mut self, ty: &Ty<'k>, depth: usize) -> Result<Value, String> {
        if depth > DEPTH_LIMIT {
            return Err("its default refers to itself".into());
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
                    return Err(format!(
                        "tooltable does not know what `{other}::default()` serializes to"
                    ));
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
            Ty::Result(..) => return Err("`Result` has no default".into()),
            Ty::Range(item) => {
                let item = self.default_of(item, depth + 1)?;
                serde_json::json!({"start": item.clone(), "end": item})
            }
            Ty::Bound(_) => Value::String("Unbounded".into()),
            Ty::Local(def) => self.local_default(def, depth + 1)?,
        })
    }

    fn local_default(&mut self, def: &Rc<Def<'k>>, depth: usize) -> Result<Value, String> {
        let info = self.container(def).map_err(|e| e.message)?;
        if info.attrs.into.is_some() {
            return Err(format!(
                "`{}` is serialized through another type (`into`)",
                def.item.ident()
            ));
        }
        match &info.data {
            Data::Struct(style, fields) => {
                let values = self.default_field_values(def, &info, fields, depth)?;
                self.serialize_struct(def, &info, *style, fields, &values)
            }
            Data::Enum(variants) => {
                if derives_default(def.item.attrs()) {
                    let DefItem::Enum(item) = def.item else {
                        return Err("internal mismatch of enum data".into());
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
                        return Err("its #[default] variant is not a unit variant".into());
                    }
                    return Ok(unit_variant_value(&info.attrs.tagging, &variant.ser_name));
                }
                let expr = self.manual_default_body(def)?;
                self.eval(def.module, &expr, &Ty::Local(def.clone()), depth + 1)
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
    ) -> Result<Value, String> {
        let value_of = |field: &FieldInfo<'k>| {
            if field.attrs.serialize_with {
                return Err(format!(
                    "field `{}` of `{}` is written by serde's `with`/`serialize_with` function",
                    field.member,
                    def.item.ident()
                ));
            }
            values
                .get(&field.member)
                .cloned()
                .unwrap_or_else(|| Err(format!("no value for field `{}`", field.member)))
        };
        if info.attrs.into.is_some() {
            return Err(format!(
                "`{}` is serialized through another type (`into`)",
                def.item.ident()
            ));
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
                        return Err(format!("field `{}` is flattened", field.member));
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

    /// The crate's `impl <trait_name> for <def>`, if any.
    fn find_trait_impl(&self, def: &Def<'k>, trait_name: &str) -> Option<&'k syn::ItemImpl> {
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
                    return Some(imp);
                }
            }
        }
        None
    }

    /// The body of the crate's `impl Default for <def>`.
    fn manual_default_body(&self, def: &Def<'k>) -> Result<Expr, String> {
        let Some(imp) = self.find_trait_impl(def, "Default") else {
            return Err(format!(
                "`{}` neither derives nor implements `Default` in this crate",
                def.item.ident()
            ));
        };
        for impl_item in &imp.items {
            if let ImplItem::Fn(f) = impl_item
                && f.sig.ident == "default"
            {
                return tail_expr(&f.block)
                    .ok_or_else(|| "its `Default` impl is not a single expression".into());
            }
        }
        Err(format!(
            "the `Default` impl of `{}` has no `default` function",
            def.item.ident()
        ))
    }

    fn default_fn_body(&self, module: ModuleId, path: &syn::ExprPath) -> Result<Expr, String> {
        let written = path.to_token_stream().to_string().replace(' ', "");
        let segments: Vec<String> = path
            .path
            .segments
            .iter()
            .map(|s| s.ident.to_string())
            .collect();
        let (container, name) = match segments.as_slice() {
            [name] => (module, name.clone()),
            [.., _] => {
                let mut parent = path.path.clone();
                let last = parent
                    .segments
                    .pop()
                    .map(|p| p.ident.to_string())
                    .unwrap_or_default();
                match self.lowerer.resolver.resolve(module, &parent) {
                    Ok(Resolved::Module(m)) => (m, last),
                    Ok(Resolved::Struct(m, s)) => {
                        return self.assoc_fn_body(m, &s.ident, &last, &written);
                    }
                    Ok(Resolved::Enum(m, e)) => {
                        return self.assoc_fn_body(m, &e.ident, &last, &written);
                    }
                    _ => return Err(format!("`{written}` is not a function of this crate")),
                }
            }
            [] => return Err("an empty path".into()),
        };
        for item in &self.lowerer.krate.modules[container].items {
            if let Item::Fn(f) = item
                && f.sig.ident == name
            {
                return tail_expr(&f.block)
                    .ok_or_else(|| format!("`{written}` is not a single expression"));
            }
        }
        Err(format!(
            "`{written}` is not a function the build script can find in this crate"
        ))
    }

    fn assoc_fn_body(
        &self,
        module: ModuleId,
        ty: &syn::Ident,
        name: &str,
        written: &str,
    ) -> Result<Expr, String> {
        for item in &self.lowerer.krate.modules[module].items {
            let Item::Impl(imp) = item else { continue };
            if imp.trait_.is_some() {
                continue;
            }
            let syn::Type::Path(p) = &*imp.self_ty else {
                continue;
            };
            if p.path.segments.last().is_none_or(|s| s.ident != *ty) {
                continue;
            }
            for impl_item in &imp.items {
                if let ImplItem::Fn(f) = impl_item
                    && f.sig.ident == name
                {
                    return tail_expr(&f.block)
                        .ok_or_else(|| format!("`{written}` is not a single expression"));
                }
            }
        }
        Err(format!(
            "`{written}` is not a function the build script can find in this crate"
        ))
    }

    fn call_default_fn(
        &mut self,
        module: ModuleId,
        path: &syn::ExprPath,
        ty: &Ty<'k>,
    ) -> Result<Value, String> {
        let body = self.default_fn_body(module, path)?;
        self.eval(module, &body, ty, 0)
    }

    fn struct_literal_fields(
        &mut self,
        def: &Def<'k>,
        info: &ContainerInfo<'k>,
        expr: &Expr,
        depth: usize,
    ) -> Result<FieldValues, String> {
        let Data::Struct(_, fields) = &info.data else {
            return Err("an enum has no fields".into());
        };
        let Expr::Struct(literal) = strip(expr) else {
            return Err(format!(
                "`{}` is not a struct literal",
                expr.to_token_stream()
            ));
        };
        let mut values = FieldValues::new();
        for field_value in &literal.fields {
            let member = match &field_value.member {
                syn::Member::Named(ident) => ident.to_string().trim_start_matches("r#").to_owned(),
                syn::Member::Unnamed(index) => index.index.to_string(),
            };
            let field = fields
                .iter()
                .find(|f| f.member == member)
                .ok_or_else(|| format!("the literal sets `{member}`, which is not a field"))?;
            let value = self
                .field_ty_for_default(def, field)
                .and_then(|ty| self.eval(def.module, &field_value.expr, &ty, depth + 1));
            values.insert(member, value);
        }
        if let Some(rest) = &literal.rest {
            if !is_default_call(rest) || !derives_default(def.item.attrs()) {
                return Err("`..rest` in a default is only understood as `..Default::default()` on a type that derives Default".into());
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
                return Err(format!("the literal does not set field `{}`", field.member));
            }
        }
        Ok(values)
    }

    /// Evaluates a plain expression as a value of type `ty`, serialized.
    fn eval(
        &mut self,
        module: ModuleId,
        expr: &Expr,
        ty: &Ty<'k>,
        depth: usize,
    ) -> Result<Value, String> {
        let value = self.eval_untyped(module, expr, ty, depth)?;
        Ok(match ty {
            // serde writes an `f32` as that `f32` widened to `f64`.
            Ty::Leaf(leaf) if leaf.rust_name == "f32" => round_to_f32(value),
            _ => value,
        })
    }

    fn eval_untyped(
        &mut self,
        module: ModuleId,
        expr: &Expr,
        ty: &Ty<'k>,
        depth: usize,
    ) -> Result<Value, String> {
        if depth > DEPTH_LIMIT {
            return Err("the expression nests too deeply".into());
        }
        let refuse = || {
            format!(
                "`{}` is not a literal the build script can evaluate",
                expr.to_token_stream()
            )
        };
        let expr = strip(expr);
        if let Ty::Local(def) = ty
            && let Some(inner) = self.forwarded(def).map_err(|e| e.message)?
        {
            return self.eval(module, expr, &inner, depth + 1);
        }
        match expr {
            Expr::Lit(ExprLit { lit, .. }) => match (lit, ty) {
                (Lit::Int(i), Ty::Leaf(leaf)) if matches!(leaf.rust_name, "f32" | "f64") => i
                    .base10_parse::<f64>()
                    .ok()
                    .and_then(serde_json::Number::from_f64)
                    .map(Value::Number)
                    .ok_or_else(refuse),
                (Lit::Float(f), _) => f
                    .base10_parse::<f64>()
                    .ok()
                    .and_then(serde_json::Number::from_f64)
                    .map(Value::Number)
                    .ok_or_else(refuse),
                _ => super::attrs::expr_value(expr).ok_or_else(refuse),
            },
            Expr::Unary(_) => {
                super::attrs::expr_value(expr)
                    .ok_or_else(refuse)
                    .map(|v| match (ty, &v) {
                        (Ty::Leaf(leaf), Value::Number(n))
                            if matches!(leaf.rust_name, "f32" | "f64") =>
                        {
                            n.as_f64()
                                .and_then(serde_json::Number::from_f64)
                                .map(Value::Number)
                                .unwrap_or(v)
                        }
                        _ => v,
                    })
            }
            Expr::MethodCall(call)
                if call.args.is_empty()
                    && matches!(
                        call.method.to_string().as_str(),
                        "to_string" | "to_owned" | "into" | "clone"
                    ) =>
            {
                self.eval(module, &call.receiver, ty, depth + 1)
            }
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
            Expr::Call(call) => {
                let Expr::Path(callee) = strip(&call.func) else {
                    return Err(refuse());
                };
                let segments: Vec<String> = callee
                    .path
                    .segments
                    .iter()
                    .map(|s| s.ident.to_string())
                    .collect();
                let last = segments.last().map(String::as_str).unwrap_or_default();
                match (last, call.args.len()) {
                    ("Some", 1) => match ty {
                        Ty::Option(inner) => self.eval(module, &call.args[0], inner, depth + 1),
                        _ => Err(refuse()),
                    },
                    ("from", 1) => self.eval(module, &call.args[0], ty, depth + 1),
                    ("new" | "default", 0) => self.default_of(ty, depth + 1),
                    _ => Err(refuse()),
                }
            }
            Expr::Path(path) => {
                let segments: Vec<String> = path
                    .path
                    .segments
                    .iter()
                    .map(|s| s.ident.to_string())
                    .collect();
                match (segments.as_slice(), ty) {
                    ([none], Ty::Option(_)) if none == "None" => Ok(Value::Null),
                    ([.., variant], Ty::Local(def)) => {
                        let info = self.container(def).map_err(|e| e.message)?;
                        let Data::Enum(variants) = &info.data else {
                            return Err(refuse());
                        };
                        if info.attrs.into.is_some() {
                            return Err(refuse());
                        }
                        let DefItem::Enum(item) = def.item else {
                            return Err(refuse());
                        };
                        let index = item
                            .variants
                            .iter()
                            .position(|v| v.ident == variant)
                            .ok_or_else(refuse)?;
                        if variants[index].style != Style::Unit {
                            return Err(refuse());
                        }
                        Ok(unit_variant_value(
                            &info.attrs.tagging,
                            &variants[index].ser_name,
                        ))
                    }
                    ([name], _) => {
                        for item in &self.lowerer.krate.modules[module].items {
                            if let Item::Const(c) = item
                                && c.ident == name
                            {
                                let value = (*c.expr).clone();
                                return self.eval(module, &value, ty, depth + 1);
                            }
                        }
                        Err(refuse())
                    }
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
            Expr::Struct(_) => match ty {
                Ty::Local(def) => {
                    let info = self.container(def).map_err(|e| e.message)?;
                    let Data::Struct(style, fields) = &info.data else {
                        return Err(refuse());
                    };
                    let values = self.struct_literal_fields(def, &info, expr, depth + 1)?;
                    self.serialize_struct(def, &info, *style, fields, &values)
                }
                _ => Err(refuse()),
            },
            _ => Err(refuse()),
        }
    }
}

/// A number as serde writes it for an `f32`: the `f32` nearest to it, widened.
fn round_to_f32(value: Value) -> Value {
    match value.as_f64() {
        #[allow(clippy::cast_possible_truncation)]
        Some(f) => serde_json::Number::from_f64(f64::from(f as f32)).map_or(value, Value::Number),
        None => value,
    }
}

fn strip(expr: &Expr) -> &Expr {
    match expr {
        Expr::Paren(p) => strip(&p.expr),
        Expr::Group(g) => strip(&g.expr),
        Expr::Reference(r) => strip(&r.expr),
        Expr::Block(b) if b.block.stmts.len() == 1 => match &b.block.stmts[0] {
            Stmt::Expr(e, None) => strip(e),
            _ => expr,
        },
        _ => expr,
    }
}

fn tail_expr(block: &syn::Block) -> Option<Expr> {
    match block.stmts.as_slice() {
        [Stmt::Expr(e, None)] => Some(e.clone()),
        _ => None,
    }
}

fn is_default_call(expr: &Expr) -> bool {
    matches!(strip(expr), Expr::Call(c) if c.args.is_empty() && matches!(strip(&c.func), Expr::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "default")))
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
