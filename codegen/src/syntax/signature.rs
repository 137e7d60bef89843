//! The shapes a tool handler may take, read from its signature.
//!
//! The macro needs the shape to write the shim that calls the handler; the
//! build script needs it to know the context, parameter and output types.
//! Both read it here. A handler is a free function or a method of an inherent
//! impl, sync or async, taking an optional context (`&C`, or `&self` for a
//! method), an optional parameter type `P` and an optional per-call handle
//! (`&Call`), in that order, and returning `T` or `Result<T, E>`.

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{FnArg, GenericArgument, PathArguments, ReturnType, Signature, Type};

/// How a tool's output is served.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputKind {
    /// A serializable value: `structuredContent`, an output schema, and the
    /// same JSON as text.
    Structured,
    /// Text only (`String`, `&str`, `Cow<str>`, `Box<str>`): no output schema.
    Text,
    /// Raw content blocks (`tooltable::Content` or `Vec<Content>`): no output schema.
    Content,
    /// `tooltable::Structured<T>`: `T` as `structuredContent` with its
    /// output schema, and a text of the handler's own as the content block.
    Summarized,
    /// `tooltable::CallToolResult`: a whole result the handler built,
    /// served as it is; no output schema.
    Result,
}

/// A handler's return type, classified.
#[derive(Clone, Debug)]
pub struct OutputShape {
    /// How `T` is served (`T` of a `Result<T, E>` spelt so; the shim lets
    /// the compiler split a `Result` reached through an alias).
    pub kind: OutputKind,
    /// `T` (for [`OutputKind::Summarized`], the `T` of `Structured<T>`,
    /// whose schema is the output schema); `None` for a handler that
    /// returns nothing (served as `null`).
    pub ty: Option<Type>,
}

/// A handler's signature, classified.
#[derive(Clone, Debug)]
pub struct HandlerShape {
    /// `async fn`.
    pub is_async: bool,
    /// A method taking `&self`; the impl's type is the context.
    pub receiver: bool,
    /// The `C` of a free function's `&C` argument.
    pub context: Option<Type>,
    /// The parameter type.
    pub params: Option<Type>,
    /// Whether it takes the per-call handle, `&Call`.
    pub call: bool,
    /// The return type.
    pub output: OutputShape,
}

/// Whether `ty` is the per-call handle: `&Call` or `&tooltable::Call`,
/// recognised by its spelling (a context type cannot be named `Call`).
pub fn is_call_handle(ty: &Type) -> bool {
    let Type::Reference(reference) = ty else {
        return false;
    };
    let Type::Path(path) = &*reference.elem else {
        return false;
    };
    path.qself.is_none()
        && path
            .path
            .segments
            .last()
            .is_some_and(|last| last.ident == "Call" && last.arguments.is_empty())
}

/// Reads the shape of a handler's signature, reporting every problem.
pub fn handler_shape(sig: &Signature) -> syn::Result<HandlerShape> {
    let mut errors: Vec<syn::Error> = Vec::new();
    let mut refuse = |span: Span, message: &str| errors.push(syn::Error::new(span, message));

    if let Some(constness) = &sig.constness {
        refuse(constness.span(), "a tool handler cannot be a `const fn`");
    }
    if let syn::Safety::Unsafe(unsafety) = &sig.safety {
        refuse(
            unsafety.span(),
            "a tool handler cannot be `unsafe`: the server calls it with untrusted arguments",
        );
    }
    if let Some(abi) = &sig.abi {
        refuse(abi.span(), "a tool handler cannot have an `extern` ABI");
    }
    if let Some(variadic) = &sig.variadic {
        refuse(variadic.span(), "a tool handler cannot be variadic");
    }
    // Lifetimes name borrows (`fn f<'a>(ctx: &'a Ctx)`) and change no type
    // the build writes a schema for; type and const parameters do.
    let only_lifetimes = sig
        .generics
        .params
        .iter()
        .all(|param| matches!(param, syn::GenericParam::Lifetime(_)));
    if !only_lifetimes || sig.generics.where_clause.is_some() {
        refuse(
            sig.generics.span(),
            "a tool handler cannot be generic over types or constants: its context and parameter types must be concrete so the build can write their schemas (lifetimes are fine)",
        );
    }

    let mut receiver = false;
    let mut context = None;
    let mut params = None;
    let mut call = false;
    for (index, input) in sig.inputs.iter().enumerate() {
        if call {
            refuse(
                input.span(),
                "the per-call handle comes last: write `fn tool(ctx: &C, params: P, call: &Call)`",
            );
            continue;
        }
        match input {
            FnArg::Typed(typed) if is_call_handle(&typed.ty) => {
                if let Type::Reference(reference) = &*typed.ty
                    && reference.mutability.is_some()
                {
                    refuse(
                        reference.span(),
                        "the per-call handle is taken as `&Call`, not `&mut Call`",
                    );
                }
                call = true;
            }
            FnArg::Receiver(r) => {
                if !matches!(r.kind, syn::ReceiverKind::Reference(_, _, None)) {
                    refuse(
                        r.span(),
                        "a tool method takes `&self`: calls run concurrently and share the context; use interior mutability for state",
                    );
                }
                receiver = true;
            }
            FnArg::Typed(typed) => match &*typed.ty {
                Type::Reference(reference) => {
                    if reference.mutability.is_some() {
                        refuse(
                            reference.span(),
                            "a tool's context is shared by concurrent calls, so it is taken as `&C`, not `&mut C`; use interior mutability for state",
                        );
                    } else if receiver || context.is_some() {
                        refuse(
                            typed.ty.span(),
                            "a tool handler takes one context: `&self` or one `&C` argument",
                        );
                    } else if params.is_some() {
                        refuse(
                            typed.ty.span(),
                            "the context comes first: write `fn tool(ctx: &C, params: P)`",
                        );
                    } else {
                        context = Some((*reference.elem).clone());
                    }
                }
                Type::ImplTrait(_) => refuse(
                    typed.ty.span(),
                    "a tool's parameter type must be named (a struct with named fields), not `impl Trait`",
                ),
                other => {
                    if params.is_some() {
                        refuse(
                            other.span(),
                            "a tool handler takes one parameter type; gather the arguments into one struct with named fields",
                        );
                    } else if index > 1 {
                        refuse(
                            other.span(),
                            "a tool handler takes at most a context and a parameter type",
                        );
                    } else {
                        params = Some(other.clone());
                    }
                }
            },
        }
    }

    let output = match &sig.output {
        ReturnType::Default => Ok(OutputShape {
            kind: OutputKind::Structured,
            ty: None,
        }),
        ReturnType::Type(_, ty) => output_shape(ty),
    };
    let output = match output {
        Ok(output) => Some(output),
        Err(error) => {
            errors.push(error);
            None
        }
    };

    let mut errors = errors.into_iter();
    if let Some(mut first) = errors.next() {
        first.extend(errors);
        return Err(first);
    }
    Ok(HandlerShape {
        is_async: sig.asyncness.is_some(),
        receiver,
        context,
        params,
        call,
        output: output.unwrap_or(OutputShape {
            kind: OutputKind::Structured,
            ty: None,
        }),
    })
}

fn output_shape(ty: &Type) -> syn::Result<OutputShape> {
    if let Type::ImplTrait(implemented) = ty {
        let future = implemented.bounds.iter().any(|bound| {
            matches!(bound, syn::TypeParamBound::Trait(t)
                if t.path.segments.last().is_some_and(|s| s.ident == "Future"))
        });
        return Err(syn::Error::new(
            ty.span(),
            if future {
                "a tool handler must name its return type; for async work write `async fn` rather than returning `impl Future`"
            } else {
                "a tool handler must name its return type: the build writes the output schema from it, which `impl Trait` hides; return the concrete type"
            },
        ));
    }
    let inner = result_ok_type(ty).unwrap_or(ty);
    let unit = matches!(inner, Type::Tuple(t) if t.elems.is_empty());
    let kind = classify(inner);
    let ty = match kind {
        OutputKind::Summarized => type_arguments(inner).first().map(|t| (*t).clone()),
        _ => (!unit).then(|| inner.clone()),
    };
    Ok(OutputShape { kind, ty })
}

/// The type arguments of a path type's last segment (`T` of `Vec<T>`).
fn type_arguments(ty: &Type) -> Vec<&Type> {
    let Type::Path(path) = ty else {
        return Vec::new();
    };
    match path.path.segments.last().map(|last| &last.arguments) {
        Some(PathArguments::AngleBracketed(a)) => a
            .args
            .iter()
            .filter_map(|arg| match arg {
                GenericArgument::Type(t) => Some(t),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// `T` of `Result<T, E>` or of a one-argument `Result<T>` alias.
fn result_ok_type(ty: &Type) -> Option<&Type> {
    let Type::Path(path) = ty else { return None };
    let last = path.path.segments.last()?;
    if last.ident != "Result" {
        return None;
    }
    let PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    args.args.iter().find_map(|arg| match arg {
        GenericArgument::Type(t) => Some(t),
        _ => None,
    })
}

/// Classifies a handler's success type by its spelling. The build script
/// and the macro both call this, so they agree on which types are text.
pub fn classify(ty: &Type) -> OutputKind {
    match ty {
        Type::Reference(r) if is_path_named(&r.elem, "str") => OutputKind::Text,
        Type::Path(path) => {
            let Some(last) = path.path.segments.last() else {
                return OutputKind::Structured;
            };
            match (
                last.ident.to_string().as_str(),
                type_arguments(ty).as_slice(),
            ) {
                ("String", []) => OutputKind::Text,
                ("Cow" | "Box", [inner]) if is_path_named(inner, "str") => OutputKind::Text,
                ("Content", []) => OutputKind::Content,
                ("Vec", [inner]) if is_path_named(inner, "Content") => OutputKind::Content,
                ("Structured", [_]) => OutputKind::Summarized,
                ("CallToolResult", []) => OutputKind::Result,
                _ => OutputKind::Structured,
            }
        }
        _ => OutputKind::Structured,
    }
}

fn is_path_named(ty: &Type, name: &str) -> bool {
    matches!(ty, Type::Path(p) if p.qself.is_none() && p.path.segments.last().is_some_and(|s| s.ident == name && s.arguments.is_none()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::ToTokens;
    use syn::parse_quote;

    fn shape(sig: Signature) -> HandlerShape {
        handler_shape(&sig).unwrap()
    }

    fn refusals(sig: Signature) -> Vec<String> {
        handler_shape(&sig)
            .unwrap_err()
            .into_iter()
            .map(|e| e.to_string())
            .collect()
    }

    fn text(ty: &Option<Type>) -> String {
        ty.as_ref()
            .map(|t| t.to_token_stream().to_string())
            .unwrap_or_default()
    }

    #[test]
    fn a_free_function_with_context_and_parameters_is_read_in_order() {
        let s = shape(
            parse_quote!(async fn notes_search(store: &Store, params: SearchParams) -> Result<Found, ToolError>),
        );
        assert!(s.is_async && !s.receiver);
        assert_eq!(text(&s.context), "Store");
        assert_eq!(text(&s.params), "SearchParams");
        assert_eq!(s.output.kind, OutputKind::Structured);
        assert_eq!(text(&s.output.ty), "Found");
    }

    #[test]
    fn a_method_takes_its_impl_as_context() {
        let s = shape(parse_quote!(fn get(&self, p: GetParams) -> Note));
        assert!(s.receiver && s.context.is_none());
        assert_eq!(text(&s.output.ty), "Note");
    }

    #[test]
    fn handlers_without_context_or_parameters_are_accepted() {
        let s = shape(parse_quote!(fn now() -> String));
        assert!(s.context.is_none() && s.params.is_none());
        assert_eq!(s.output.kind, OutputKind::Text);
        let s = shape(parse_quote!(fn ping(ctx: &App)));
        assert!(s.output.ty.is_none());
    }

    #[test]
    fn text_and_content_returns_are_recognised_by_their_spelling() {
        for ty in [
            "String",
            "&'static str",
            "Cow<'static, str>",
            "Box<str>",
            "std::string::String",
        ] {
            let ty: Type = syn::parse_str(ty).unwrap();
            assert_eq!(classify(&ty), OutputKind::Text, "{}", ty.to_token_stream());
        }
        for ty in ["Content", "tooltable::Content", "Vec<Content>"] {
            let ty: Type = syn::parse_str(ty).unwrap();
            assert_eq!(classify(&ty), OutputKind::Content);
        }
        for ty in ["Note", "Vec<Note>", "u32", "Option<String>"] {
            let ty: Type = syn::parse_str(ty).unwrap();
            assert_eq!(classify(&ty), OutputKind::Structured);
        }
    }

    #[test]
    fn impl_serialize_is_told_to_name_its_type_and_impl_future_to_be_async() {
        let errors = refusals(parse_quote!(fn f() -> impl Serialize));
        assert!(errors[0].contains("return the concrete type"), "{errors:?}");
        assert!(!errors[0].contains("Future"), "{errors:?}");
        let errors = refusals(parse_quote!(fn f() -> impl std::future::Future<Output = Note>));
        assert!(errors[0].contains("write `async fn`"), "{errors:?}");
    }

    #[test]
    fn a_handler_may_name_its_lifetimes() {
        let s =
            shape(parse_quote!(async fn f<'a>(ctx: &'a Store, p: Params, call: &'a Call) -> Note));
        assert_eq!(text(&s.context), "Store");
        assert_eq!(text(&s.params), "Params");
        assert!(s.call);
    }

    #[test]
    fn a_handler_generic_over_a_type_is_refused_and_told_lifetimes_are_fine() {
        let errors = refusals(parse_quote!(fn f<'a, T>(ctx: &'a T) -> Note));
        assert!(
            errors[0].contains("cannot be generic over types"),
            "{errors:?}"
        );
        assert!(errors[0].contains("lifetimes are fine"), "{errors:?}");
    }

    #[test]
    fn a_one_argument_result_alias_serves_its_success_type() {
        let s = shape(parse_quote!(fn f() -> anyhow::Result<String>));
        assert_eq!(text(&s.output.ty), "String");
        assert_eq!(s.output.kind, OutputKind::Text);
    }

    #[test]
    fn mutable_contexts_and_receivers_are_refused() {
        assert!(
            refusals(parse_quote!(fn f(&mut self)))[0].starts_with("a tool method takes `&self`")
        );
        assert!(refusals(parse_quote!(fn f(self)))[0].starts_with("a tool method takes `&self`"));
        assert!(refusals(parse_quote!(fn f(c: &mut C)))[0].contains("not `&mut C`"));
    }

    #[test]
    fn parameters_before_the_context_are_refused() {
        assert_eq!(
            refusals(parse_quote!(fn f(p: P, c: &C))),
            ["the context comes first: write `fn tool(ctx: &C, params: P)`"]
        );
    }

    #[test]
    fn every_problem_of_a_signature_is_reported() {
        let found = refusals(parse_quote!(unsafe fn f<T>(a: A, b: B) -> impl Future<Output = ()>));
        assert_eq!(found.len(), 4, "{found:?}");
    }
}
