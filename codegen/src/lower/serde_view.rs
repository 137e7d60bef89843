//! What serde makes of a type's `#[serde(...)]` attributes, read by serde's
//! own reader.
//!
//! schemars does not read serde's attributes itself: it copies every serde
//! keyword a `#[schemars(...)]` item overrides into one `#[serde(...)]`
//! attribute per container, variant and field, drops the serde items those
//! override, and hands the type to `serde_derive_internals`, the reader
//! serde's derive is built on, with serde's checks of a deserializable
//! type. The build does the same (the copying is
//! [`attrs::serde_attribute`](super::attrs::serde_attribute)), so every
//! name after `rename` and `rename_all`, every skip, default, flatten and
//! tagging is exactly serde's and schemars' reading, and an attribute serde
//! refuses is refused with serde's own sentence at its place.

use super::attrs::{AttrError, serde_attribute};
use super::ty::DefItem;
use proc_macro2::Span;
use serde_derive_internals::{Ctxt, Derive, ast, attr};
use syn::punctuated::Punctuated;

/// serde's reading of a struct or an enum.
pub struct SerdeView {
    /// The container's attributes.
    pub container: attr::Container,
    /// The fields of a struct, or the variants of an enum with theirs, in
    /// the order they are written.
    pub body: Body,
}

/// serde's reading of a body.
pub enum Body {
    /// A struct's fields.
    Struct(Vec<attr::Field>),
    /// An enum's variants, each with its fields.
    Enum(Vec<(attr::Variant, Vec<attr::Field>)>),
}

/// Reads `item` as serde does, after schemars' overrides; the errors are
/// every attribute the build cannot read and everything serde refuses.
pub fn read(item: DefItem<'_>) -> Result<SerdeView, Vec<AttrError>> {
    let mut errors = Vec::new();
    let input = as_serde_sees_it(item, &mut errors);
    if !errors.is_empty() {
        return Err(errors);
    }
    let cx = Ctxt::new();
    // serde's private module is named only in code serde would generate.
    let private = syn::Ident::new("__private", Span::call_site());
    let view = ast::Container::from_ast(&cx, &input, Derive::Deserialize, &private).map(|c| {
        let body = match c.data {
            ast::Data::Struct(_, fields) => Body::Struct(owned(fields)),
            ast::Data::Enum(variants) => Body::Enum(
                variants
                    .into_iter()
                    .map(|v| (v.attrs, owned(v.fields)))
                    .collect(),
            ),
        };
        SerdeView {
            container: c.attrs,
            body,
        }
    });
    match (cx.check(), view) {
        (Ok(()), Some(view)) => Ok(view),
        (Err(found), _) => Err(found
            .into_iter()
            .map(|e| AttrError {
                span: e.span(),
                message: format!("serde refuses this: {e}"),
            })
            .collect()),
        (Ok(()), None) => Err(vec![AttrError {
            span: item.ident().span(),
            message: "serde cannot read this type".into(),
        }]),
    }
}

fn owned(fields: Vec<ast::Field<'_>>) -> Vec<attr::Field> {
    fields.into_iter().map(|f| f.attrs).collect()
}

/// The item as serde's reader is given it: each attribute list replaced by
/// the one `#[serde(...)]` attribute in force.
fn as_serde_sees_it(item: DefItem<'_>, errors: &mut Vec<AttrError>) -> syn::DeriveInput {
    let mut attrs = |written: &[syn::Attribute]| match serde_attribute(written) {
        Ok(attribute) => attribute.into_iter().collect(),
        Err(e) => {
            errors.push(e);
            Vec::new()
        }
    };
    let mut fields = |written: &syn::Fields| {
        let mut fields = written.clone();
        for field in fields.iter_mut() {
            field.attrs = attrs(&field.attrs);
        }
        fields
    };
    let data = match item {
        DefItem::Struct(s) => syn::Data::Struct(syn::DataStruct {
            struct_token: s.struct_token,
            fields: fields(&s.fields),
            semi_token: s.semi_token,
        }),
        DefItem::Enum(e) => syn::Data::Enum(syn::DataEnum {
            enum_token: e.enum_token,
            brace_token: e.brace_token,
            variants: e
                .variants
                .iter()
                .map(|v| syn::Variant {
                    attrs: Vec::new(),
                    ident: v.ident.clone(),
                    fields: fields(&v.fields),
                    discriminant: v.discriminant.clone(),
                })
                .collect::<Punctuated<_, _>>(),
        }),
    };
    let mut input = syn::DeriveInput {
        attrs: Vec::new(),
        vis: syn::Visibility::Inherited,
        ident: item.ident().clone(),
        generics: item.generics().clone(),
        data,
    };
    input.attrs = attrs(item.attrs());
    if let (syn::Data::Enum(data), DefItem::Enum(e)) = (&mut input.data, item) {
        for (variant, written) in data.variants.iter_mut().zip(&e.variants) {
            variant.attrs = attrs(&written.attrs);
        }
    }
    input
}
