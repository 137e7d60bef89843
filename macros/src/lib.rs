//! The `#[tool]` attribute of tooltable.
//!
//! The attribute leaves the handler exactly as written and adds a small shim
//! beside it: a function that deserializes JSON arguments into the
//! parameter type, calls the handler and shapes its output. The build script
//! (`tooltable_codegen::build`) reads the same attribute with the same
//! grammar and writes the table that refers to each shim. Mistakes in the
//! attribute or the signature are compile errors on the offending token.
//!
//! Use it through the `tooltable` facade: `use tooltable::tool;`.

use proc_macro::TokenStream;
use proc_macro2::{Span, TokenStream as TokenStream2};
use quote::{format_ident, quote};
use syn::{ItemFn, LitStr};
use tooltable_codegen::syntax::attr::NameProfile;
use tooltable_codegen::syntax::attr::{default_name, parse_tool_attr};
use tooltable_codegen::syntax::link;
use tooltable_codegen::syntax::signature::{HandlerShape, OutputKind, handler_shape};

/// Declares a tool. See the `tooltable` crate's documentation for the keys.
///
/// ```ignore
/// /// Search notes by text.
/// #[tool(tier = read, toolset = "notes", world = closed)]
/// async fn notes_search(store: &Store, params: SearchParams) -> Result<Found, ToolError> { ... }
/// ```
#[proc_macro_attribute]
pub fn tool(args: TokenStream, item: TokenStream) -> TokenStream {
    expand(args.into(), item.into()).into()
}

fn expand(args: TokenStream2, item: TokenStream2) -> TokenStream2 {
    let handler: ItemFn = match syn::parse2(item.clone()) {
        Ok(handler) => handler,
        Err(_) => {
            let error = syn::Error::new(
                Span::call_site(),
                "#[tool] goes on a function: a free function, or a method taking `&self` in an inherent impl",
            )
            .into_compile_error();
            return quote!(#error #item);
        }
    };
    let attr = parse_tool_attr(args, Span::call_site(), Some(NameProfile::Mcp));
    let shape = handler_shape(&handler.sig);
    let (attr, shape) = match (attr, shape) {
        (Ok(attr), Ok(shape)) => (attr, shape),
        (attr, shape) => {
            let errors = [attr.err(), shape.err()]
                .into_iter()
                .flatten()
                .map(|e| e.into_compile_error());
            return quote!(#(#errors)* #item);
        }
    };
    let check = check(&shape, attr.confirms());
    let name = attr
        .name
        .map_or_else(|| default_name(&handler.sig.ident), |n| n.value);
    let shim = if shape.receiver {
        method_shim(&handler, &shape, &name, &check)
    } else {
        free_shim(&handler, &shape, &name, &check)
    };
    // A table of another contract version is refused once, by
    // `include_table!`; the shims step aside rather than add type errors.
    let cfg = format_ident!("{}", link::CONTRACT_CFG);
    let version = LitStr::new(&link::contract_cfg_value(), Span::call_site());
    quote! {
        #item
        #[cfg(#cfg = #version)]
        #shim
    }
}

/// `::tooltable::__private_vN`: where generated code reaches the runtime.
fn private() -> TokenStream2 {
    let module = format_ident!("{}", link::private_module());
    quote!(::tooltable::#module)
}

/// `::tooltable::__private_vN::reference!(..)`: schemars' schemas of the
/// parameter and return types, when the `schema-guard` feature is on.
fn reference(shape: &HandlerShape) -> TokenStream2 {
    let params = shape.params.iter();
    let output = match (&shape.output.ty, shape.output.kind) {
        (None, _) => quote!(()),
        (Some(ty), OutputKind::Structured | OutputKind::Summarized) => quote!(#ty),
        (Some(_), OutputKind::Text | OutputKind::Content | OutputKind::Result) => quote!(),
    };
    let private = private();
    quote!(#private::reference!(input: [#(#params)*], output: [#output]))
}

/// The body that turns arguments into an outcome: parse, call, shape.
fn invoke_body(call_target: TokenStream2, shape: &HandlerShape) -> TokenStream2 {
    let private = private();
    let parse = match &shape.params {
        Some(params) => quote!(let params: #params = #private::parse_args(args)?;),
        None => quote!(#private::no_args(&args)?;),
    };
    let mut arguments = Vec::new();
    if shape.context.is_some() || shape.receiver {
        arguments.push(quote!(ctx));
    }
    if shape.params.is_some() {
        arguments.push(quote!(params));
    }
    if shape.call {
        arguments.push(quote!(call));
    }
    let call = quote!(#call_target(#(#arguments),*));
    let call = if shape.is_async {
        quote!(#call.await)
    } else {
        call
    };
    // Every value is split, not only one spelt `Result`: the compiler sees
    // through an alias the macro cannot, and a `Result`'s inherent `split`
    // wins over the trait's. Likewise an error's inherent `into_failure`
    // (`String`, `&str`, `anyhow::Error`) wins over the blanket one.
    let value = quote!({
        #[allow(unused_imports)]
        use #private::{IntoFailure as _, Split as _};
        #[allow(unreachable_patterns)]
        match #private::Returned(#call).split() {
            ::core::result::Result::Ok(value) => value,
            ::core::result::Result::Err(error) => {
                return ::core::result::Result::Err(#private::Raised(error).into_failure());
            }
        }
    });
    let finish = match (&shape.output.ty, shape.output.kind) {
        (None, _) => quote!({
            let () = value;
            #private::structured(&())
        }),
        (Some(_), OutputKind::Structured) => quote!(#private::structured(&value)),
        (Some(_), OutputKind::Text) => quote!(#private::text(value)),
        (Some(_), OutputKind::Content) => quote!(#private::content(value)),
        (Some(_), OutputKind::Summarized) => quote!(#private::summarized(value)),
        (Some(_), OutputKind::Result) => quote!(#private::result(value)),
    };
    quote! {
        #parse
        let value = #value;
        #finish
    }
}

/// The name the shim binds the per-call handle to: unused unless the
/// handler takes it.
fn call_binding(shape: &HandlerShape) -> TokenStream2 {
    if shape.call {
        quote!(call)
    } else {
        quote!(_call)
    }
}

/// A confirming tool's arguments are parsed before a person is asked to
/// allow the call; the shim lends the table its parsing for that.
fn check(shape: &HandlerShape, confirms: bool) -> TokenStream2 {
    let private = private();
    match (&shape.params, confirms) {
        (_, false) => quote!(::core::option::Option::None),
        (Some(params), true) => {
            quote!(::core::option::Option::Some(#private::check_args::<#params>))
        }
        (None, true) => quote!(::core::option::Option::Some(#private::no_args)),
    }
}

fn free_shim(
    handler: &ItemFn,
    shape: &HandlerShape,
    name: &str,
    check: &TokenStream2,
) -> TokenStream2 {
    let private = private();
    let markers = format_ident!("{}", link::MARKERS_MODULE);
    let seen = format_ident!("{}", link::SEEN_MACRO);
    let marker = format_ident!("{}", link::marker_type(name));
    let key = format_ident!("{}", link::seen_key(name));
    let ident = &handler.sig.ident;
    let body = invoke_body(quote!(#ident), shape);
    let marker_path = quote!(crate::#markers::#marker);

    let (context_impl, impl_head, context_ty): (TokenStream2, TokenStream2, TokenStream2) =
        match &shape.context {
            Some(context) => (
                quote! {
                    impl #private::Context for #marker_path {
                        type Type = #context;
                    }
                },
                quote!(impl #private::Shim<#context> for #marker_path),
                quote!(#context),
            ),
            None => (
                TokenStream2::new(),
                quote!(impl<__C: 'static> #private::Shim<__C> for #marker_path),
                quote!(__C),
            ),
        };
    let generics = if shape.context.is_some() {
        quote!()
    } else {
        quote!(__C: 'static)
    };
    let ctx_binding = if shape.context.is_some() {
        quote!(ctx)
    } else {
        quote!(_ctx)
    };
    let call_binding = call_binding(shape);
    let (invoke, handler_value) = if shape.is_async {
        let generics = if shape.context.is_some() {
            quote!(<'a>)
        } else {
            quote!(<'a, #generics>)
        };
        (
            quote! {
                #[allow(deprecated, clippy::needless_question_mark)]
                fn invoke #generics (#ctx_binding: &'a #context_ty, args: #private::Arguments, #call_binding: &'a #private::Call) -> #private::BoxFuture<'a, #private::Outcome> {
                    ::std::boxed::Box::pin(async move { #body })
                }
            },
            quote!(#private::Handler::Async(invoke)),
        )
    } else {
        let generics = if shape.context.is_some() {
            quote!()
        } else {
            quote!(<#generics>)
        };
        (
            quote! {
                #[allow(deprecated, clippy::needless_question_mark)]
                fn invoke #generics (#ctx_binding: &#context_ty, args: #private::Arguments, #call_binding: &#private::Call) -> #private::Outcome {
                    #body
                }
            },
            quote!(#private::Handler::Sync(invoke)),
        )
    };
    let reference = reference(shape);
    let takes_call = shape.call;
    quote! {
        const _: () = {
            crate::#seen! { #key #name {
                #context_impl
                #impl_head {
                    const SHIM: #private::ShimFns<#context_ty> = #private::ShimFns {
                        handler: #handler_value,
                        reference: #reference,
                        takes_call: #takes_call,
                        check: #check,
                    };
                }
                #invoke
            } }
        };
    }
}

fn method_shim(
    handler: &ItemFn,
    shape: &HandlerShape,
    name: &str,
    check: &TokenStream2,
) -> TokenStream2 {
    let private = private();
    let seen = format_ident!("{}", link::SEEN_MACRO);
    let key = format_ident!("{}", link::seen_key(name));
    let constant = format_ident!("{}", link::method_handler_const(name));
    let invoke = format_ident!("__tooltable_invoke_{}", link::mangle(name));
    let ident = &handler.sig.ident;
    let body = invoke_body(quote!(Self::#ident), shape);
    let call_binding = call_binding(shape);
    let (invoke_fn, handler_value) = if shape.is_async {
        (
            quote! {
                #[doc(hidden)]
                #[allow(deprecated, clippy::needless_question_mark)]
                fn #invoke<'a>(ctx: &'a Self, args: #private::Arguments, #call_binding: &'a #private::Call) -> #private::BoxFuture<'a, #private::Outcome> {
                    ::std::boxed::Box::pin(async move { #body })
                }
            },
            quote!(#private::Handler::Async(Self::#invoke)),
        )
    } else {
        (
            quote! {
                #[doc(hidden)]
                #[allow(deprecated, clippy::needless_question_mark)]
                fn #invoke(ctx: &Self, args: #private::Arguments, #call_binding: &#private::Call) -> #private::Outcome {
                    #body
                }
            },
            quote!(#private::Handler::Sync(Self::#invoke)),
        )
    };
    let reference = reference(shape);
    let takes_call = shape.call;
    quote! {
        crate::#seen! { #key #name {
            #invoke_fn
            #[doc(hidden)]
            #[allow(non_upper_case_globals)]
            pub(crate) const #constant: #private::ShimFns<Self> = #private::ShimFns {
                handler: #handler_value,
                reference: #reference,
                takes_call: #takes_call,
                check: #check,
            };
        } }
    }
}
