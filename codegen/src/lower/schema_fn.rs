//! `schema_with` functions whose body is a literal schema.
//!
//! schemars calls a `#[schemars(schema_with = "path")]` function for the
//! schema of what it stands on, which the build script cannot run. Real
//! servers mostly write such a function as one literal, so its value is
//! certain from the source: the body is `json_schema!({...})` (or `true`,
//! `false`), `Schema::try_from(json!(...)).unwrap()` (or `.expect(..)`),
//! `json!(...).try_into().unwrap()`, `serde_json::from_value(json!(...))
//! .unwrap()`, `Schema::from(true)` or `Schema::default()`. The JSON is
//! read as `serde_json::json!` builds it: a later duplicate key replaces an
//! earlier one, and a value written as a Rust expression is folded by
//! [`consts`](super::consts) with the type the compiler gives it there
//! (`i32` for an unsuffixed integer, `f64` for a float). Anything else is
//! an error at the attribute that names every way out.

use super::consts::{Refusal, strip};
use super::defaults::body_expr;
use super::ty::{Given, Ty};
use super::{Contract, Generator, LowerError, Lowerer};
use crate::scan::ModuleId;
use proc_macro2::{Delimiter, Spacing, Span, TokenStream, TokenTree};
use quote::ToTokens;
use serde_json::{Map, Value};
use std::rc::Rc;
use syn::spanned::Spanned;
use syn::{Expr, ExprMacro};

/// How deeply a literal schema may nest.
const DEPTH_LIMIT: usize = 64;

/// The ways out of a function the build script cannot evaluate.
const WAYS_OUT: &str = "write the function's body as one literal schema (`json_schema!({...})`, or `Schema::try_from(json!({...})).unwrap()`), or replace `schema_with` with #[schemars(with = \"Type\")] (adding the keywords the type lacks with `extend(\"key\" = value)`), or with a type of this crate that derives `JsonSchema`";

impl<'k> Lowerer<'k> {
    /// What the `schema_with` function `path`, named at `span` in
    /// `module`'s file, returns.
    pub fn schema_fn(
        &self,
        module: ModuleId,
        path: &syn::ExprPath,
        span: Span,
    ) -> Result<Ty<'k>, LowerError> {
        let written = super::consts::written(path);
        let mut generator = Generator::new(self, Contract::Deserialize);
        let refused = |reason: String| {
            LowerError::new(
                module,
                span,
                format!(
                    "the `schema_with` function `{written}` cannot be evaluated at build time: {reason}; {WAYS_OUT}"
                ),
            )
        };
        let Some((fn_module, block)) = generator.crate_fn(module, path) else {
            return Err(refused(
                "it is not a function of this crate the build script can find".into(),
            ));
        };
        let key = std::ptr::from_ref(block) as usize;
        if let Some(given) = self.given.borrow().get(&key) {
            return Ok(Ty::Given(given.clone()));
        }
        let at = |span: Span| self.krate.location(fn_module, span);
        let body = body_expr(block).map_err(|first| {
            refused(match first {
                Some(first) => format!("its body has statements before its value ({})", at(first)),
                None => format!("its body does not end in a value ({})", at(block.span())),
            })
        })?;
        let schema = generator
            .schema_value(fn_module, &body)
            .map_err(|refusal| refused(format!("{} ({})", reason(refusal), at(body.span()))))?;
        let name = path
            .path
            .segments
            .last()
            .map_or_else(|| written.clone(), |s| s.ident.to_string());
        let given = Rc::new(Given {
            name,
            id: format!(
                "_SchemarsSchemaWithFunction/{}/{written}",
                self.krate.module_path(module)
            ),
            schema,
        });
        self.given.borrow_mut().insert(key, given.clone());
        Ok(Ty::Given(given))
    }
}

/// A refusal's reason, without its location (the message gives its own).
fn reason(refusal: Refusal) -> String {
    match refusal {
        Refusal::Unknown(message) => message,
        Refusal::At { what, way_out, .. } => format!("the value {what} ({way_out})"),
    }
}

impl<'k> Generator<'_, 'k> {
    /// The schema a function body's value `expr`, written in `module`, makes.
    fn schema_value(&mut self, module: ModuleId, expr: &Expr) -> Result<Value, Refusal> {
        let not_literal = || {
            Refusal::Unknown(format!(
                "`{}` is not a literal schema",
                super::consts::written(expr)
            ))
        };
        let value = match strip(expr) {
            Expr::Macro(m) if ends_with(&m.mac.path, "json_schema") => {
                self.json(module, m.mac.tokens.clone(), 0)?
            }
            Expr::MethodCall(call)
                if (call.method == "unwrap" && call.args.is_empty())
                    || (call.method == "expect" && call.args.len() == 1) =>
            {
                match strip(&call.receiver) {
                    Expr::Call(inner)
                        if inner.args.len() == 1
                            && (self.is_schema_fn(module, &inner.func, "try_from")
                                || self.is_fn(module, &inner.func, "serde_json", "from_value")) =>
                    {
                        self.json_macro(module, &inner.args[0])?
                    }
                    Expr::MethodCall(inner)
                        if inner.method == "try_into" && inner.args.is_empty() =>
                    {
                        self.json_macro(module, &inner.receiver)?
                    }
                    _ => return Err(not_literal()),
                }
            }
            Expr::Call(call)
                if call.args.len() == 1 && self.is_schema_fn(module, &call.func, "from") =>
            {
                match strip(&call.args[0]) {
                    Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Bool(b),
                        ..
                    }) => Value::Bool(b.value),
                    _ => return Err(not_literal()),
                }
            }
            // schemars' `Default` is the empty object, which accepts anything.
            Expr::Call(call)
                if call.args.is_empty() && self.is_schema_fn(module, &call.func, "default") =>
            {
                Value::Object(Map::new())
            }
            _ => return Err(not_literal()),
        };
        match value {
            Value::Object(_) | Value::Bool(_) => Ok(value),
            other => Err(Refusal::Unknown(format!(
                "it makes `{other}`, which is not a schema (a schema is an object, `true` or `false`), so schemars panics on it"
            ))),
        }
    }

    /// Whether `callee` is `schemars::Schema::<function>`.
    fn is_schema_fn(&self, module: ModuleId, callee: &Expr, function: &str) -> bool {
        self.foreign_callee(module, callee, function)
            .is_some_and(|(krate, name)| krate == "schemars" && name == "Schema")
    }

    /// Whether `callee` is the function `krate::function`.
    fn is_fn(&self, module: ModuleId, callee: &Expr, krate: &str, function: &str) -> bool {
        let Expr::Path(path) = strip(callee) else {
            return false;
        };
        match self.lowerer.resolver.resolve_value(module, &path.path) {
            Ok(Some(crate::resolve::ResolvedValue::Foreign(segments))) => {
                segments.first().is_some_and(|s| s == krate)
                    && segments.last().is_some_and(|s| s == function)
            }
            _ => false,
        }
    }

    /// The value of `expr` when it is a `json!(...)` call.
    fn json_macro(&mut self, module: ModuleId, expr: &Expr) -> Result<Value, Refusal> {
        match strip(expr) {
            Expr::Macro(ExprMacro { mac, .. }) if ends_with(&mac.path, "json") => {
                self.json(module, mac.tokens.clone(), 0)
            }
            other => Err(Refusal::Unknown(format!(
                "`{}` is not a `json!(...)` literal",
                super::consts::written(other)
            ))),
        }
    }

    /// The value `json!` builds from `tokens`.
    fn json(
        &mut self,
        module: ModuleId,
        tokens: TokenStream,
        depth: usize,
    ) -> Result<Value, Refusal> {
        if depth > DEPTH_LIMIT {
            return Err(Refusal::Unknown(format!(
                "the schema nests more than {DEPTH_LIMIT} levels deep"
            )));
        }
        let trees: Vec<TokenTree> = tokens.clone().into_iter().collect();
        match trees.as_slice() {
            [TokenTree::Ident(word)] if word == "null" => return Ok(Value::Null),
            [TokenTree::Ident(word)] if word == "true" => return Ok(Value::Bool(true)),
            [TokenTree::Ident(word)] if word == "false" => return Ok(Value::Bool(false)),
            [TokenTree::Group(group)] if group.delimiter() == Delimiter::Bracket => {
                return split(group.stream(), is_comma)
                    .into_iter()
                    .map(|element| self.json(module, element, depth + 1))
                    .collect::<Result<Vec<_>, _>>()
                    .map(Value::Array);
            }
            [TokenTree::Group(group)] if group.delimiter() == Delimiter::Brace => {
                let mut object = Map::new();
                for entry in split(group.stream(), is_comma) {
                    let (key, value) = key_and_value(entry.clone()).ok_or_else(|| {
                        Refusal::Unknown(format!(
                            "`{}` is not a `\"key\": value` entry",
                            entry.to_token_stream()
                        ))
                    })?;
                    let key = self.json_key(module, key)?;
                    // As `json!`, which inserts each entry in turn.
                    let value = self.json(module, value, depth + 1)?;
                    object.insert(key, value);
                }
                return Ok(Value::Object(object));
            }
            _ => {}
        }
        let expr: Expr = syn::parse2(tokens.clone()).map_err(|_| {
            Refusal::Unknown(format!("`{tokens}` is not a JSON value or an expression"))
        })?;
        match strip(&expr) {
            Expr::Macro(ExprMacro { mac, .. }) if ends_with(&mac.path, "json") => {
                self.json(module, mac.tokens.clone(), depth + 1)
            }
            _ => self.fold_json_untyped(module, &expr),
        }
    }

    /// An object key: a string literal or a string constant.
    fn json_key(&mut self, module: ModuleId, tokens: TokenStream) -> Result<String, Refusal> {
        let expr: Expr = syn::parse2(tokens.clone())
            .map_err(|_| Refusal::Unknown(format!("`{tokens}` is not a key")))?;
        match self.fold_json_untyped(module, &expr)? {
            Value::String(key) => Ok(key),
            other => Err(Refusal::Unknown(format!(
                "the key `{tokens}` is `{other}`, not a string"
            ))),
        }
    }
}

/// Whether `path` ends with the segment `name`.
fn ends_with(path: &syn::Path, name: &str) -> bool {
    path.segments.last().is_some_and(|s| s.ident == name)
}

fn is_comma(tree: &TokenTree) -> bool {
    matches!(tree, TokenTree::Punct(p) if p.as_char() == ',')
}

/// `tokens` cut at each tree `at` accepts, without empty parts (a trailing
/// comma).
fn split(tokens: TokenStream, at: fn(&TokenTree) -> bool) -> Vec<TokenStream> {
    let mut parts = vec![TokenStream::new()];
    for tree in tokens {
        if at(&tree) {
            parts.push(TokenStream::new());
        } else if let Some(last) = parts.last_mut() {
            last.extend([tree]);
        }
    }
    parts.retain(|p| !p.is_empty());
    parts
}

/// An entry `key: value` cut at its first `:` that is not part of a `::`.
fn key_and_value(entry: TokenStream) -> Option<(TokenStream, TokenStream)> {
    let trees: Vec<TokenTree> = entry.into_iter().collect();
    let mut index = 0;
    while index < trees.len() {
        if let TokenTree::Punct(p) = &trees[index]
            && p.as_char() == ':'
        {
            let joined = p.spacing() == Spacing::Joint
                && matches!(trees.get(index + 1), Some(TokenTree::Punct(n)) if n.as_char() == ':');
            if joined {
                index += 2;
                continue;
            }
            let key: TokenStream = trees[..index].iter().cloned().collect();
            let value: TokenStream = trees[index + 1..].iter().cloned().collect();
            return (!key.is_empty() && !value.is_empty()).then_some((key, value));
        }
        index += 1;
    }
    None
}
