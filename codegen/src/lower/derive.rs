//! Structs and enums of the crate, rendered as `#[derive(JsonSchema)]` renders them.
//!
//! Every case of schemars' derive is reproduced: named, tuple, newtype and
//! unit structs; enums in the four serde representations with unit,
//! newtype, tuple and struct variants; `transparent`, `with`, `flatten`,
//! `default`, the skips, renames, validation attributes and doc comments;
//! and the contract (what deserializing accepts, what serializing gives).

use super::attrs::{
    ContainerAttrs, FieldAttrs, SerdeDefault, Tagging, Validation, VariantAttrs, With,
};
use super::schema_ops as ops;
use super::serde_view::{self, Body};
use super::ty::{Def, DefItem, Scope, Ty};
use super::{Contract, Generator, LowerError};
use crate::syntax::doc::title_and_description;
use proc_macro2::Span;
use quote::ToTokens;
use serde_derive_internals::attr as serde_attr;
use serde_json::{Map, Value, json};
use std::rc::Rc;
use syn::spanned::Spanned;
use syn::{Fields, Type};

/// serde's shape of a struct or variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// `struct S;` or `V`.
    Unit,
    /// `struct S(T);` or `V(T)`.
    Newtype,
    /// `struct S(A, B);` or `V(A, B)`.
    Tuple,
    /// `struct S { .. }` or `V { .. }`.
    Struct,
}

/// A field, with its serde names.
#[derive(Clone, Debug)]
pub struct FieldInfo<'k> {
    /// The field's name (or index, for tuple fields) in Rust.
    pub member: String,
    /// Its type as written.
    pub ty: &'k Type,
    /// Its attributes.
    pub attrs: FieldAttrs,
    /// Its name when serializing.
    pub ser_name: String,
    /// Its name when deserializing.
    pub de_name: String,
    /// Where it is written.
    pub span: Span,
}

/// The name serde uses under `contract`.
fn contract_name<'a>(contract: Contract, ser: &'a str, de: &'a str) -> &'a str {
    match contract {
        Contract::Serialize => ser,
        Contract::Deserialize => de,
    }
}

/// Whether serde reads (deserialize) or writes (serialize) the item at all.
fn in_contract(contract: Contract, skip_serializing: bool, skip_deserializing: bool) -> bool {
    match contract {
        Contract::Serialize => !skip_serializing,
        Contract::Deserialize => !skip_deserializing,
    }
}

impl FieldInfo<'_> {
    fn name(&self, contract: Contract) -> &str {
        contract_name(contract, &self.ser_name, &self.de_name)
    }

    fn in_contract(&self, contract: Contract) -> bool {
        in_contract(
            contract,
            self.attrs.skip_serializing,
            self.attrs.skip_deserializing,
        )
    }
}

/// A variant, with its serde names.
#[derive(Clone, Debug)]
pub struct VariantInfo<'k> {
    /// Its attributes.
    pub attrs: VariantAttrs,
    /// Its shape.
    pub style: Style,
    /// Its fields.
    pub fields: Vec<FieldInfo<'k>>,
    /// Its name when serializing.
    pub ser_name: String,
    /// Its name when deserializing.
    pub de_name: String,
}

impl VariantInfo<'_> {
    fn name(&self, contract: Contract) -> &str {
        contract_name(contract, &self.ser_name, &self.de_name)
    }

    fn in_contract(&self, contract: Contract) -> bool {
        in_contract(
            contract,
            self.attrs.skip_serializing,
            self.attrs.skip_deserializing,
        )
    }
}

/// A struct's or enum's body.
#[derive(Clone, Debug)]
pub enum Data<'k> {
    /// A struct.
    Struct(Style, Vec<FieldInfo<'k>>),
    /// An enum.
    Enum(Vec<VariantInfo<'k>>),
}

/// A local type's attributes and body, read once.
#[derive(Clone, Debug)]
pub struct ContainerInfo<'k> {
    /// The module that declares it.
    pub module: crate::scan::ModuleId,
    /// Its attributes.
    pub attrs: ContainerAttrs,
    /// Its body.
    pub data: Data<'k>,
    /// serde's name for it (after `rename`).
    pub serde_name: String,
    /// The type parameters that reach its schema (schemars'
    /// `relevant_type_params`), sorted by name as schemars sorts them: its
    /// `schema_id` names the arguments of these only.
    pub relevant_params: Vec<String>,
    /// The integer type of a `JsonSchema_repr` enum's `#[repr(..)]`: its
    /// schema is then the variants' discriminants.
    pub repr: Option<Type>,
}

fn unraw(ident: &syn::Ident) -> String {
    let text = ident.to_string();
    text.strip_prefix("r#").map(str::to_owned).unwrap_or(text)
}

fn style_of(fields: &Fields) -> Style {
    match fields {
        Fields::Unit => Style::Unit,
        Fields::Unnamed(u) if u.unnamed.len() == 1 => Style::Newtype,
        Fields::Unnamed(_) => Style::Tuple,
        Fields::Named(_) => Style::Struct,
    }
}

/// The fields as written, each with serde's reading of it when there is
/// one (`serde` is empty when serde's reading failed; the errors of the
/// fields' own attributes are still collected).
fn read_fields<'k>(
    module: crate::scan::ModuleId,
    fields: &'k Fields,
    serde: &[serde_attr::Field],
    errors: &mut Vec<LowerError>,
) -> Vec<FieldInfo<'k>> {
    fields
        .iter()
        .enumerate()
        .filter_map(|(index, field)| {
            let mut attrs = match FieldAttrs::read(&field.attrs) {
                Ok(attrs) => attrs,
                Err(e) => {
                    errors.push(LowerError::new(module, e.span, e.message));
                    return None;
                }
            };
            let serde = serde.get(index)?;
            attrs.take_serde(serde);
            let member = field
                .ident
                .as_ref()
                .map_or_else(|| index.to_string(), unraw);
            Some(FieldInfo {
                member,
                ty: &field.ty,
                attrs,
                ser_name: serde.name().serialize_name().value.clone(),
                de_name: serde.name().deserialize_name().value.clone(),
                span: field.span(),
            })
        })
        .collect()
}

/// Reads a local type's attributes and body; the errors are every one its
/// attributes hold.
pub fn read_container<'k>(
    module: crate::scan::ModuleId,
    item: DefItem<'k>,
) -> Result<ContainerInfo<'k>, Vec<LowerError>> {
    let err = |e: super::attrs::AttrError| LowerError::new(module, e.span, e.message);
    let is_enum = matches!(item, DefItem::Enum(_));
    let mut errors = Vec::new();
    let mut attrs = ContainerAttrs::read(item.attrs()).map_err(|e| vec![err(e)])?;
    let serde = match serde_view::read(item) {
        Ok(view) => Some(view),
        Err(found) => {
            errors.extend(found.into_iter().map(err));
            None
        }
    };
    if let Some(view) = &serde
        && let Err(e) = attrs.take_serde(&view.container, is_enum, item.ident().span())
    {
        errors.push(err(e));
    }
    // schemars names a serde `remote` stand-in after the type it stands in
    // for, unless its own `rename` says otherwise.
    let serde_name = match (&attrs.remote, &attrs.rename_format, &serde) {
        (Some(remote), None, _) => remote.clone(),
        (_, _, Some(view)) => view.container.name().deserialize_name().value.clone(),
        (_, _, None) => unraw(item.ident()),
    };
    let data = match (item, serde.as_ref().map(|view| &view.body)) {
        (DefItem::Struct(s), body) => {
            let serde = match body {
                Some(Body::Struct(fields)) => fields.as_slice(),
                _ => &[],
            };
            Data::Struct(
                style_of(&s.fields),
                read_fields(module, &s.fields, serde, &mut errors),
            )
        }
        (DefItem::Enum(e), body) => {
            let serde = match body {
                Some(Body::Enum(variants)) => variants.as_slice(),
                _ => &[],
            };
            let mut variants = Vec::with_capacity(e.variants.len());
            for (index, variant) in e.variants.iter().enumerate() {
                let mut vattrs = match VariantAttrs::read(&variant.attrs) {
                    Ok(vattrs) => vattrs,
                    Err(e) => {
                        errors.push(err(e));
                        continue;
                    }
                };
                let (serde_variant, serde_fields) = match serde.get(index) {
                    Some((v, fields)) => (Some(v), fields.as_slice()),
                    None => (None, &[][..]),
                };
                let fields = read_fields(module, &variant.fields, serde_fields, &mut errors);
                let Some(serde_variant) = serde_variant else {
                    continue;
                };
                vattrs.take_serde(serde_variant);
                variants.push(VariantInfo {
                    style: style_of(&variant.fields),
                    fields,
                    attrs: vattrs,
                    ser_name: serde_variant.name().serialize_name().value.clone(),
                    de_name: serde_variant.name().deserialize_name().value.clone(),
                });
            }
            Data::Enum(variants)
        }
    };
    let repr = if derives(item.attrs(), "JsonSchema_repr") {
        read_repr(module, item, &data).map_err(|e| vec![e])?
    } else {
        None
    };
    if !errors.is_empty() {
        return Err(errors);
    }
    let relevant_params = relevant_type_params(item.generics(), &attrs, &data);
    Ok(ContainerInfo {
        module,
        attrs,
        data,
        serde_name,
        relevant_params,
        repr,
    })
}

/// The `#[repr(..)]` integer type of an enum deriving `JsonSchema_repr`,
/// which schemars requires, as it requires unit variants.
fn read_repr(
    module: crate::scan::ModuleId,
    item: DefItem<'_>,
    data: &Data<'_>,
) -> Result<Option<Type>, LowerError> {
    let name = item.ident();
    let Data::Enum(variants) = data else {
        return Err(LowerError::new(
            module,
            name.span(),
            format!(
                "`{name}` derives `JsonSchema_repr`, which applies to enums only; derive `JsonSchema`"
            ),
        ));
    };
    if let (DefItem::Enum(e), Some(index)) =
        (item, variants.iter().position(|v| v.style != Style::Unit))
    {
        let variant = &e.variants[index];
        return Err(LowerError::new(
            module,
            variant.ident.span(),
            format!(
                "`{name}` derives `JsonSchema_repr`, which describes unit variants only, but `{}` has fields; make it a unit variant, or derive `JsonSchema` (and serde's own derives)",
                variant.ident
            ),
        ));
    }
    let repr = item
        .attrs()
        .iter()
        .filter(|a| a.path().is_ident("repr"))
        .find_map(|a| {
            a.parse_args_with(
                syn::punctuated::Punctuated::<syn::Ident, syn::Token![,]>::parse_terminated,
            )
            .ok()?
            .into_iter()
            .find(|i| i != "C")
        });
    match repr {
        Some(ty) => Ok(Some(syn::parse_quote!(#ty))),
        None => Err(LowerError::new(
            module,
            name.span(),
            format!(
                "`{name}` derives `JsonSchema_repr`, which needs the enum's integer type; add #[repr(u8)] (or the integer type its discriminants have)"
            ),
        )),
    }
}

/// The type parameters used in a schemars `rename` format (`{T}`).
fn rename_format_params(format: &str) -> Vec<String> {
    let text = format.replace("{{", "").replace("}}", "");
    text.split('{')
        .skip(1)
        .filter_map(|segment| segment.split_once('}').map(|(param, _)| param.to_owned()))
        .collect()
}

/// schemars' `relevant_type_params`: the parameters named in the `rename`
/// format, and those written in the (schema) types of fields that are not
/// skipped both ways, outside `PhantomData`.
fn relevant_type_params(
    generics: &syn::Generics,
    attrs: &ContainerAttrs,
    data: &Data<'_>,
) -> Vec<String> {
    let all: Vec<String> = generics
        .type_params()
        .map(|p| p.ident.to_string())
        .collect();
    let mut relevant = std::collections::BTreeSet::new();
    if let Some(format) = &attrs.rename_format {
        relevant.extend(
            rename_format_params(format)
                .into_iter()
                .filter(|p| all.contains(p)),
        );
    }
    let mut visit_field = |field: &FieldInfo<'_>| {
        if field.attrs.skip_serializing && field.attrs.skip_deserializing {
            return;
        }
        // A `schema_with` function's schema names no type parameter.
        match &field.attrs.with {
            None => visit_type_params(field.ty, &all, &mut relevant),
            Some(With::Type(ty)) => visit_type_params(ty, &all, &mut relevant),
            Some(With::Function { .. }) => {}
        }
    };
    match data {
        Data::Struct(_, fields) => fields.iter().for_each(&mut visit_field),
        Data::Enum(variants) => {
            for variant in variants {
                if variant.attrs.skip_serializing && variant.attrs.skip_deserializing {
                    continue;
                }
                variant.fields.iter().for_each(&mut visit_field);
            }
        }
    }
    relevant.into_iter().collect()
}

fn visit_type_params(ty: &Type, all: &[String], found: &mut std::collections::BTreeSet<String>) {
    let visit_path = |path: &syn::Path, found: &mut std::collections::BTreeSet<String>| {
        if path
            .segments
            .last()
            .is_some_and(|s| s.ident == "PhantomData")
        {
            return;
        }
        if path.leading_colon.is_none()
            && let Some(first) = path.segments.first()
        {
            let name = first.ident.to_string();
            if all.contains(&name) {
                found.insert(name);
            }
        }
        for segment in &path.segments {
            match &segment.arguments {
                syn::PathArguments::None => {}
                syn::PathArguments::AngleBracketed(args) => {
                    for arg in &args.args {
                        match arg {
                            syn::GenericArgument::Type(t) => visit_type_params(t, all, found),
                            syn::GenericArgument::AssocType(a) => {
                                visit_type_params(&a.ty, all, found);
                            }
                            _ => {}
                        }
                    }
                }
                syn::PathArguments::Parenthesized(args) => {
                    for input in &args.inputs {
                        visit_type_params(&input.ty, all, found);
                    }
                    if let syn::ReturnType::Type(_, output) = &args.output {
                        visit_type_params(output, all, found);
                    }
                }
            }
        }
    };
    match ty {
        Type::Array(t) => visit_type_params(&t.elem, all, found),
        Type::Group(t) => visit_type_params(&t.elem, all, found),
        Type::Paren(t) => visit_type_params(&t.elem, all, found),
        Type::Ptr(t) => visit_type_params(&t.elem, all, found),
        Type::Reference(t) => visit_type_params(&t.elem, all, found),
        Type::Slice(t) => visit_type_params(&t.elem, all, found),
        Type::Tuple(t) => t
            .elems
            .iter()
            .for_each(|e| visit_type_params(e, all, found)),
        Type::Path(t) => {
            if let Some(qself) = &t.qself {
                visit_type_params(&qself.ty, all, found);
            }
            visit_path(&t.path, found);
        }
        Type::FnPtr(t) => {
            for input in &t.inputs {
                visit_type_params(&input.ty, all, found);
            }
            if let syn::ReturnType::Type(_, output) = &t.output {
                visit_type_params(output, all, found);
            }
        }
        Type::ImplTrait(t) => {
            for bound in &t.bounds {
                if let syn::TypeParamBound::Trait(b) = bound {
                    visit_path(&b.path, found);
                }
            }
        }
        Type::TraitObject(t) => {
            for bound in &t.bounds {
                if let syn::TypeParamBound::Trait(b) = bound {
                    visit_path(&b.path, found);
                }
            }
        }
        _ => {}
    }
}

impl<'k> ContainerInfo<'k> {
    /// The field serde treats as the transparent one, for `#[serde(transparent)]`.
    pub fn transparent_field(&self) -> Option<&FieldInfo<'k>> {
        if !self.attrs.transparent {
            return None;
        }
        let Data::Struct(_, fields) = &self.data else {
            return None;
        };
        fields.iter().find(|f| {
            let phantom = matches!(f.ty, Type::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "PhantomData"));
            !phantom && !f.attrs.skip_deserializing && !f.attrs.default.is_some()
        })
    }

    /// Every metadata a local type holds: its own, its fields' and its
    /// variants'.
    fn commons(&self) -> Vec<&super::attrs::Common> {
        let mut all = vec![&self.attrs.common];
        match &self.data {
            Data::Struct(_, fields) => all.extend(fields.iter().map(|f| &f.attrs.common)),
            Data::Enum(variants) => {
                for variant in variants {
                    all.push(&variant.attrs.common);
                    all.extend(variant.fields.iter().map(|f| &f.attrs.common));
                }
            }
        }
        all
    }

    /// Where each `extend("x-mcp-header" = ..)` of the type is written: the
    /// header's name, the module and the place.
    pub fn header_extensions(&self) -> Vec<(String, crate::scan::ModuleId, Span)> {
        self.commons()
            .into_iter()
            .flat_map(|common| &common.extensions)
            .filter(|e| e.key == tooltable_rules::param_headers::KEY)
            .filter_map(|e| Some((e.value.as_str()?.to_owned(), self.module, e.span)))
            .collect()
    }
}

impl<'g, 'k> Generator<'g, 'k> {
    /// A local type's attributes and body (read once per type).
    pub fn container(&self, def: &Def<'k>) -> Result<Rc<ContainerInfo<'k>>, LowerError> {
        self.lowerer.container(def.module, def.item)
    }

    /// The type a local type forwards to entirely (schemars' transparent
    /// impls), if any.
    pub fn forwarded(&self, def: &Def<'k>) -> Result<Option<Ty<'k>>, LowerError> {
        let info = self.container(def)?;
        // schemars forwards to a `with` type, but a `schema_with` function
        // stands only for the container's `json_schema`.
        if let Some(With::Type(with)) = &info.attrs.with
            && info.attrs.common.is_default()
        {
            return self.lowerer.ty(&Scope::of_def(def), with).map(Some);
        }
        if let Some(field) = info.transparent_field()
            && info.attrs.common.is_default()
            && field.attrs.common.is_default()
            && field.attrs.validation.is_default()
            && field.attrs.with.is_none()
        {
            return self.lowerer.ty(&Scope::of_def(def), field.ty).map(Some);
        }
        Ok(None)
    }

    /// schemars' name for a local type: serde's name, or the schemars
    /// `rename` format with `{T}` filled in.
    pub fn container_name(&self, def: &Def<'k>) -> Result<String, LowerError> {
        let info = self.container(def)?;
        let name = info.serde_name.clone();
        if info.attrs.rename_format.is_none() || !name.contains('{') {
            return Ok(name);
        }
        // As `format!(name, T = <T's schema name>, ..)`.
        let mut out = String::with_capacity(name.len());
        let mut rest = name.as_str();
        while let Some(c) = rest.chars().next() {
            if let Some(after) = rest.strip_prefix("{{") {
                out.push('{');
                rest = after;
            } else if let Some(after) = rest.strip_prefix("}}") {
                out.push('}');
                rest = after;
            } else if let (Some(after), Some(end)) = (rest.strip_prefix('{'), rest.find('}')) {
                let param = &after[..end - 1];
                match def.params.iter().position(|p| p == param) {
                    Some(index) => out.push_str(&self.name(&def.args[index])?),
                    None => out.push_str(&rest[..=end]),
                }
                rest = &rest[end + 1..];
            } else {
                out.push(c);
                rest = &rest[c.len_utf8()..];
            }
        }
        Ok(out)
    }

    fn field_ty(&self, def: &Def<'k>, field: &FieldInfo<'k>) -> Result<Ty<'k>, LowerError> {
        // The shim deserializes parameters from JSON it owns, which a
        // borrowing field cannot outlive (rustc would say only that
        // `Deserialize` "is not general enough").
        if self.contract == Contract::Deserialize
            && let Some(reference) = borrowed(field.ty)
        {
            return Err(LowerError::new(
                def.module,
                reference.span(),
                format!(
                    "field `{}` of `{}` borrows (`{}`), but a tool's parameters are deserialized from JSON the call owns, which a handler cannot borrow from; use an owned type (`String` for `&str`, `Vec<T>` for `&[T]`, `T` for `&T`)",
                    field.member,
                    def.item.ident(),
                    super::consts::written(reference)
                ),
            ));
        }
        match &field.attrs.with {
            Some(with) => self.with_ty(def, with),
            None => self.lowerer.ty(&Scope::of_def(def), field.ty),
        }
    }

    /// The type a schemars `with` or `schema_with` written in `def` stands for.
    fn with_ty(&self, def: &Def<'k>, with: &With) -> Result<Ty<'k>, LowerError> {
        match with {
            With::Type(ty) => self.lowerer.ty(&Scope::of_def(def), ty),
            With::Function { path, span } => self.lowerer.schema_fn(def.module, path, *span),
        }
    }

    /// The schema of a local type, as its derived `json_schema` gives it.
    pub fn local_schema(&mut self, def: &Rc<Def<'k>>) -> Result<Value, LowerError> {
        if let Some(inner) = self.forwarded(def)? {
            // schemars' derive forwards every method to the inner type.
            return self.json_schema(&inner);
        }
        let info = self.container(def)?;
        let mut schema = if let Some(repr) = &info.repr {
            self.repr_schema(def, repr)?
        } else if let Some(with) = &info.attrs.with {
            let ty = self.with_ty(def, with)?;
            self.json_schema(&ty)?
        } else if let Some(field) = info.transparent_field() {
            self.field_schema(def, field, false)?
        } else if let Some(through) = match self.contract {
            // serde's `from`/`try_from` and `into`: the other type's schema
            // on the side that goes through it.
            Contract::Deserialize => info.attrs.from.as_ref(),
            Contract::Serialize => info.attrs.into.as_ref(),
        } {
            let ty = self.lowerer.ty(&Scope::of_def(def), through)?;
            self.json_schema(&ty)?
        } else {
            match &info.data {
                Data::Struct(Style::Unit, _) => json!({"type": "null"}),
                Data::Struct(Style::Newtype, fields) => {
                    self.field_schema(def, &fields[0], false)?
                }
                Data::Struct(Style::Tuple, fields) => self.tuple_schema(def, fields)?,
                Data::Struct(Style::Struct, fields) => self.struct_schema(
                    def,
                    fields,
                    &info.attrs.default,
                    info.attrs.deny_unknown_fields,
                )?,
                Data::Enum(variants) => self.enum_schema(def, &info, variants)?,
            }
        };
        apply_common(&mut schema, &info.attrs.common);
        apply_extensions(&mut schema, &info.attrs.common);
        Ok(schema)
    }

    /// schemars' `expr_for_repr`: the discriminants of a `JsonSchema_repr`
    /// enum, each `as` its `#[repr(..)]` type, as serde_repr writes them.
    fn repr_schema(&mut self, def: &Def<'k>, repr: &Type) -> Result<Value, LowerError> {
        let DefItem::Enum(item) = def.item else {
            return Ok(json!({"type": "integer", "enum": []}));
        };
        let ty = self.lowerer.ty(&Scope::module(def.module), repr)?;
        let mut values = Vec::with_capacity(item.variants.len());
        let mut next: Option<i128> = Some(0);
        for variant in &item.variants {
            let value = match &variant.discriminant {
                Some((_, expr)) => {
                    let folded = self.fold_json(def.module, expr, &ty).map_err(|refusal| {
                        refusal.into_error(
                            def.module,
                            expr.span(),
                            &format!("variant `{}`", variant.ident),
                            "write the discriminant as an integer literal or a `const` of this crate",
                        )
                    })?;
                    folded.ok_or_else(|| {
                        LowerError::new(
                            def.module,
                            def.item.ident().span(),
                            format!("`#[repr({})]` is not an integer type", repr.to_token_stream()),
                        )
                    })?
                }
                None => next.and_then(integer).ok_or_else(|| {
                    LowerError::new(
                        def.module,
                        variant.ident.span(),
                        format!("the discriminant of variant `{}` is beyond what the build script counts to", variant.ident),
                    )
                })?,
            };
            next = value
                .as_i64()
                .map(i128::from)
                .or_else(|| value.as_u64().map(i128::from))
                .and_then(|v| v.checked_add(1));
            values.push(value);
        }
        Ok(json!({"type": "integer", "enum": values}))
    }

    /// schemars' `expr_for_field`: the field's type's subschema with the
    /// field's metadata and validation applied.
    fn field_schema(
        &mut self,
        def: &Def<'k>,
        field: &FieldInfo<'k>,
        internal_newtype: bool,
    ) -> Result<Value, LowerError> {
        self.field_schema_with_default(def, field, internal_newtype, None)
    }

    fn field_schema_with_default(
        &mut self,
        def: &Def<'k>,
        field: &FieldInfo<'k>,
        internal_newtype: bool,
        default: Option<Value>,
    ) -> Result<Value, LowerError> {
        let ty = self.field_ty(def, field)?;
        let mut schema = if field.attrs.validation.required {
            self.non_optional_json_schema(&ty)?
        } else if internal_newtype {
            self.internally_tagged_newtype(&ty)?
        } else {
            self.subschema_for(&ty)?
        };
        apply_common(&mut schema, &field.attrs.common);
        apply_validation(&mut schema, &field.attrs.validation);
        if field.attrs.skip_deserializing {
            ops::insert(&mut schema, "readOnly", Value::Bool(true));
        }
        if field.attrs.skip_serializing {
            ops::insert(&mut schema, "writeOnly", Value::Bool(true));
        }
        if let Some(default) = default {
            ops::insert(&mut schema, "default", default);
        }
        apply_extensions(&mut schema, &field.attrs.common);
        Ok(schema)
    }

    fn internally_tagged_newtype(&mut self, ty: &Ty<'k>) -> Result<Value, LowerError> {
        let mut schema = self.json_schema(ty)?;
        let modified = ops::allow_unknown_in_immediate_subschemas(&mut schema);
        if self.inline(ty)?
            || self.lowerer.inline_subschemas
            || schema.get("type").and_then(Value::as_str) == Some("null")
            || schema.get("additionalProperties").and_then(Value::as_bool) == Some(false)
            || schema.get("unevaluatedProperties").and_then(Value::as_bool) == Some(false)
            || modified
        {
            return Ok(schema);
        }
        self.subschema_for(ty)
    }

    fn tuple_schema(
        &mut self,
        def: &Def<'k>,
        fields: &[FieldInfo<'k>],
    ) -> Result<Value, LowerError> {
        let mut prefix = Vec::with_capacity(fields.len());
        let contract = self.contract;
        for field in fields.iter().filter(|f| f.in_contract(contract)) {
            let rendered = self.field_schema(def, field, false);
            prefix.push(self.lowerer.report(rendered).unwrap_or(Value::Bool(true)));
        }
        let mut map = Map::new();
        map.insert("type".into(), "array".into());
        let len = prefix.len();
        if !prefix.is_empty() {
            map.insert("prefixItems".into(), Value::Array(prefix));
            map.insert("minItems".into(), len.into());
        }
        map.insert("maxItems".into(), len.into());
        Ok(Value::Object(map))
    }

    fn struct_schema(
        &mut self,
        def: &Def<'k>,
        fields: &[FieldInfo<'k>],
        container_default: &SerdeDefault,
        deny_unknown_fields: bool,
    ) -> Result<Value, LowerError> {
        let mut schema = json!({"type": "object"});
        if deny_unknown_fields {
            ops::insert(&mut schema, "additionalProperties", Value::Bool(false));
        }
        let container_values = match container_default {
            SerdeDefault::None => None,
            other => Some(self.container_default_fields(def, other)?),
        };
        let contract = self.contract;
        for field in fields.iter().filter(|f| f.in_contract(contract)) {
            // A field that cannot be rendered is reported, and its siblings
            // still are looked at, so that one build names every problem.
            let rendered = self.struct_field(def, field, container_values.as_ref(), &mut schema);
            self.lowerer.report(rendered);
        }
        Ok(schema)
    }

    /// Adds one field of a struct to its schema.
    fn struct_field(
        &mut self,
        def: &Def<'k>,
        field: &FieldInfo<'k>,
        container_values: Option<&super::consts::FieldValues>,
        schema: &mut Value,
    ) -> Result<(), LowerError> {
        let ty = self.field_ty(def, field)?;
        if field.attrs.flatten {
            let flat = self.flatten_schema(&ty, field.attrs.validation.required)?;
            ops::flatten(schema, flat);
            return Ok(());
        }
        let default = self.field_default(def, field, container_values)?;
        let sub = self.field_schema_with_default(def, field, false, default)?;
        let has_default = container_values.is_some() || field.attrs.default.is_some();
        let has_skip_if = field.attrs.skip_serializing_if.is_some();
        let required_attr = field.attrs.validation.required;
        let deserialize = self.contract == Contract::Deserialize;
        let optional = if has_skip_if && has_default {
            true
        } else if !has_skip_if && !has_default && !required_attr {
            deserialize && self.is_option(&ty)?
        } else if deserialize {
            has_default || (!required_attr && self.is_option(&ty)?)
        } else {
            has_skip_if
        };
        ops::insert_object_property(schema, field.name(self.contract), optional, sub);
        Ok(())
    }

    /// schemars' `json_schema_for_flatten`.
    fn flatten_schema(&mut self, ty: &Ty<'k>, required: bool) -> Result<Value, LowerError> {
        let mut schema = self.non_optional_json_schema(ty)?;
        let optional = self.is_option(ty)? && !required;
        if let Some(units) = remove_unit_variants(&mut schema) {
            let obj = ops::ensure_object(&mut schema);
            if let Value::Array(one_of) = obj.entry("oneOf").or_insert(Value::Array(Vec::new())) {
                one_of.extend(units.iter().filter_map(Value::as_str).map(|variant| {
                    let mut properties = Map::new();
                    properties.insert(variant.to_owned(), json!({"type": "null"}));
                    json!({"type": "object", "properties": Value::Object(properties), "required": [variant]})
                }));
            }
        }
        if optional {
            if let Value::Object(obj) = &mut schema {
                obj.remove("required");
            }
            let one_of = match &mut schema {
                Value::Object(obj) => obj.remove("oneOf"),
                _ => None,
            };
            if let Some(one_of) = one_of {
                ops::flatten(&mut schema, json!({"anyOf": [{"oneOf": one_of}, {}]}));
            }
            if let Some(Value::Array(any_of)) = schema.get_mut("anyOf") {
                let empty = Value::Object(Map::new());
                if !any_of.contains(&empty) {
                    any_of.push(empty);
                }
            }
        }
        ops::allow_unknown_properties(&mut schema);
        Ok(schema)
    }

    fn enum_schema(
        &mut self,
        def: &Def<'k>,
        info: &ContainerInfo<'k>,
        variants: &[VariantInfo<'k>],
    ) -> Result<Value, LowerError> {
        if variants.is_empty() {
            return Ok(Value::Bool(false));
        }
        let deny = info.attrs.deny_unknown_fields;
        let contract = self.contract;
        let active: Vec<&VariantInfo<'k>> = variants
            .iter()
            .filter(|v| v.in_contract(contract))
            .collect();
        let any_untagged = variants.iter().any(|v| v.attrs.untagged);
        match &info.attrs.tagging {
            Tagging::External => {
                let (units, complex): (Vec<&VariantInfo<'k>>, Vec<&VariantInfo<'k>>) =
                    variants.iter().partition(|v| {
                        v.style == Style::Unit && v.attrs.is_default() && !v.attrs.untagged
                    });
                let unit_names: Vec<Value> = units
                    .iter()
                    .filter(|v| v.in_contract(contract))
                    .map(|v| Value::String(v.name(contract).to_owned()))
                    .collect();
                let unit_schema = json!({"type": "string", "enum": unit_names});
                if complex.is_empty() {
                    return Ok(unit_schema);
                }
                let mut schemas = Vec::new();
                if !units.is_empty() {
                    schemas.push(unit_schema);
                }
                for variant in complex.into_iter().filter(|v| v.in_contract(contract)) {
                    if variant.attrs.untagged {
                        schemas.push(self.untagged_variant(def, variant, deny, true)?);
                        continue;
                    }
                    let name = variant.name(contract).to_owned();
                    let mut schema = if variant.style == Style::Unit && variant.attrs.with.is_none()
                    {
                        ops::unit_variant(&name)
                    } else {
                        let sub = self.untagged_variant(def, variant, deny, false)?;
                        ops::externally_tagged_variant(&name, sub)
                    };
                    apply_common(&mut schema, &variant.attrs.common);
                    apply_extensions(&mut schema, &variant.attrs.common);
                    schemas.push(schema);
                }
                Ok(one_or_any(!any_untagged, schemas))
            }
            Tagging::Internal(tag) => {
                let mut schemas = Vec::new();
                for variant in active {
                    if variant.attrs.untagged {
                        schemas.push(self.untagged_variant(def, variant, deny, true)?);
                        continue;
                    }
                    let mut schema = if let Some(with) = &variant.attrs.with {
                        let ty = self.with_ty(def, with)?;
                        self.json_schema(&ty)?
                    } else {
                        match variant.style {
                            Style::Unit => json!({"type": "null"}),
                            Style::Newtype => self.field_schema(def, &variant.fields[0], true)?,
                            Style::Tuple => self.tuple_schema(def, &variant.fields)?,
                            Style::Struct => {
                                self.struct_schema(def, &variant.fields, &SerdeDefault::None, deny)?
                            }
                        }
                    };
                    ops::apply_internal_tag(&mut schema, tag, variant.name(contract), deny);
                    apply_common(&mut schema, &variant.attrs.common);
                    apply_extensions(&mut schema, &variant.attrs.common);
                    schemas.push(schema);
                }
                Ok(one_or_any(!any_untagged, schemas))
            }
            Tagging::Untagged => {
                let mut schemas = Vec::new();
                for variant in active {
                    schemas.push(self.untagged_variant(def, variant, deny, true)?);
                }
                Ok(one_or_any(false, schemas))
            }
            Tagging::Adjacent(tag, content) => {
                let mut schemas = Vec::new();
                for variant in active {
                    if variant.attrs.untagged {
                        schemas.push(self.untagged_variant(def, variant, deny, true)?);
                        continue;
                    }
                    let content_schema =
                        if variant.style == Style::Unit && variant.attrs.with.is_none() {
                            None
                        } else {
                            Some(self.untagged_variant(def, variant, deny, false)?)
                        };
                    let mut properties = Map::new();
                    properties.insert(
                        tag.clone(),
                        json!({"type": "string", "const": variant.name(contract)}),
                    );
                    let mut required = vec![Value::String(tag.clone())];
                    if let Some(content_schema) = content_schema {
                        properties.insert(content.clone(), content_schema);
                        required.push(Value::String(content.clone()));
                    }
                    let mut schema = json!({"type": "object", "properties": Value::Object(properties), "required": required});
                    if deny {
                        ops::insert(&mut schema, "additionalProperties", Value::Bool(false));
                    }
                    apply_common(&mut schema, &variant.attrs.common);
                    apply_extensions(&mut schema, &variant.attrs.common);
                    schemas.push(schema);
                }
                Ok(one_or_any(!any_untagged, schemas))
            }
        }
    }

    fn untagged_variant(
        &mut self,
        def: &Def<'k>,
        variant: &VariantInfo<'k>,
        deny: bool,
        actually_untagged: bool,
    ) -> Result<Value, LowerError> {
        let mut schema = if let Some(with) = &variant.attrs.with {
            let ty = self.with_ty(def, with)?;
            self.subschema_for(&ty)?
        } else {
            match variant.style {
                Style::Unit => json!({"type": "null"}),
                Style::Newtype => self.field_schema(def, &variant.fields[0], false)?,
                Style::Tuple => self.tuple_schema(def, &variant.fields)?,
                Style::Struct => {
                    self.struct_schema(def, &variant.fields, &SerdeDefault::None, deny)?
                }
            }
        };
        if actually_untagged {
            apply_common(&mut schema, &variant.attrs.common);
            apply_extensions(&mut schema, &variant.attrs.common);
        }
        Ok(schema)
    }
}

/// The first reference written in `ty`, if it has one.
fn borrowed(ty: &Type) -> Option<&syn::TypeReference> {
    match ty {
        Type::Reference(reference) => Some(reference),
        Type::Paren(inner) => borrowed(&inner.elem),
        Type::Group(inner) => borrowed(&inner.elem),
        Type::Array(array) => borrowed(&array.elem),
        Type::Slice(slice) => borrowed(&slice.elem),
        Type::Tuple(tuple) => tuple.elems.iter().find_map(borrowed),
        Type::Path(path) => path.path.segments.iter().find_map(|segment| {
            let syn::PathArguments::AngleBracketed(args) = &segment.arguments else {
                return None;
            };
            args.args.iter().find_map(|arg| match arg {
                syn::GenericArgument::Type(ty) => borrowed(ty),
                _ => None,
            })
        }),
        _ => None,
    }
}

/// An integer as serde_json holds it, if it fits.
fn integer(value: i128) -> Option<Value> {
    i64::try_from(value)
        .map(Value::from)
        .or_else(|_| u64::try_from(value).map(Value::from))
        .ok()
}

/// Whether `#[derive(..)]` names `trait_name`.
pub fn derives(attrs: &[syn::Attribute], trait_name: &str) -> bool {
    attrs
        .iter()
        .filter(|a| a.path().is_ident("derive"))
        .any(|a| {
            a.parse_args_with(
                syn::punctuated::Punctuated::<syn::Path, syn::Token![,]>::parse_terminated,
            )
            .is_ok_and(|paths| {
                paths
                    .iter()
                    .any(|p| p.segments.last().is_some_and(|s| s.ident == trait_name))
            })
        })
}

fn one_or_any(unique: bool, schemas: Vec<Value>) -> Value {
    let mut map = Map::new();
    map.insert(
        if unique { "oneOf" } else { "anyOf" }.into(),
        Value::Array(schemas),
    );
    Value::Object(map)
}

fn remove_unit_variants(schema: &mut Value) -> Option<Vec<Value>> {
    if schema.get("type").and_then(Value::as_str) == Some("string")
        && let Value::Object(obj) = schema
        && let Some(Value::Array(values)) = obj.remove("enum")
    {
        obj.remove("type");
        return Some(values);
    }
    let one_of = schema.get_mut("oneOf")?.as_array_mut()?;
    let first = one_of.get_mut(0)?;
    if first.get("type").and_then(Value::as_str) == Some("string")
        && let Value::Object(obj) = first
        && let Some(Value::Array(values)) = obj.remove("enum")
    {
        one_of.remove(0);
        return Some(values);
    }
    None
}

/// Title, description, deprecation and examples, as schemars' common mutators apply them.
pub fn apply_common(schema: &mut Value, common: &super::attrs::Common) {
    let (doc_title, doc_description) = match &common.doc {
        Some(doc) => {
            let (t, d) = title_and_description(doc);
            (Some(t), Some(d))
        }
        None => (None, None),
    };
    if let Some(title) = common.title.clone().or(doc_title) {
        ops::insert_metadata_if_nonempty(schema, "title", &title);
    }
    if let Some(description) = common.description.clone().or(doc_description) {
        ops::insert_metadata_if_nonempty(schema, "description", &description);
    }
    if common.deprecated {
        ops::insert(schema, "deprecated", Value::Bool(true));
    }
    if !common.examples.is_empty() {
        ops::insert(schema, "examples", Value::Array(common.examples.clone()));
    }
}

/// `extend(..)` entries, applied last, as schemars' post-mutators.
pub fn apply_extensions(schema: &mut Value, common: &super::attrs::Common) {
    for extension in &common.extensions {
        ops::insert(schema, &extension.key, extension.value.clone());
    }
}

/// Validation keywords, as schemars' validation mutators apply them.
pub fn apply_validation(schema: &mut Value, v: &Validation) {
    if let Some(length) = &v.length {
        if let Some(min) = length.min.as_ref().or(length.equal.as_ref()) {
            ops::insert_validation(schema, "string", "minLength", min.clone());
            ops::insert_validation(schema, "array", "minItems", min.clone());
        }
        if let Some(max) = length.max.as_ref().or(length.equal.as_ref()) {
            ops::insert_validation(schema, "string", "maxLength", max.clone());
            ops::insert_validation(schema, "array", "maxItems", max.clone());
        }
    }
    if let Some(range) = &v.range {
        if let Some(min) = range.min.as_ref().or(range.equal.as_ref()) {
            ops::insert_validation(schema, "number", "minimum", min.clone());
        }
        if let Some(max) = range.max.as_ref().or(range.equal.as_ref()) {
            ops::insert_validation(schema, "number", "maximum", max.clone());
        }
    }
    if let Some(pattern) = &v.pattern {
        ops::insert_validation(schema, "string", "pattern", Value::String(pattern.clone()));
    }
    if let Some(contains) = &v.contains {
        ops::insert_validation(
            schema,
            "string",
            "pattern",
            Value::String(ops::escape_regex(contains)),
        );
    }
    if let Some(format) = v.format {
        ops::insert(schema, "format", Value::String(format.to_owned()));
    }
    if let Some(inner) = &v.inner
        && let Some(items) = schema.get_mut("items")
        && (items.is_object() || items.is_boolean())
    {
        apply_validation(items, inner);
    }
}
