//! The schemars, validator and garde attributes that change a schema, and
//! the serde items schemars hands on to serde's reader.
//!
//! schemars lets a `#[schemars(...)]` item override the serde item of the
//! same keyword, then has serde's own reader read the result; it reads
//! metadata and validation from `schemars`, `validate` and `garde`. This
//! module reads the latter into plain data and builds the `#[serde(...)]`
//! attribute in force ([`serde_attribute`]), which
//! [`serde_view`](super::serde_view) gives serde's reader. An attribute
//! whose effect cannot be known from the source (a function that produces
//! the schema, a regex held in a static) is an error that names it and says
//! how to write it so the build can read it.

use crate::syntax::doc::doc_text;
use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote};
use serde_derive_internals::attr as serde_attr;
use serde_json::Value;
use syn::parse::{Parse, ParseStream, Parser};
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Attribute, Expr, ExprLit, Ident, Lit, LitStr, Token};

/// An attribute problem, located.
#[derive(Clone, Debug)]
pub struct AttrError {
    /// Where.
    pub span: Span,
    /// What, and how to fix it.
    pub message: String,
}

fn error(span: Span, message: impl Into<String>) -> AttrError {
    AttrError {
        span,
        message: message.into(),
    }
}

type Result<T> = std::result::Result<T, AttrError>;

/// One item of an attribute list: `key`, `key = value`, or `key(...)`.
#[derive(Clone, Debug)]
struct Item {
    key: Ident,
    value: ItemValue,
}

#[derive(Clone, Debug)]
enum ItemValue {
    Flag,
    Expr(Expr),
    List(TokenStream),
}

impl Parse for Item {
    fn parse(input: ParseStream<'_>) -> syn::Result<Item> {
        use syn::ext::IdentExt;
        if input.peek(Token![!]) {
            return Err(input.error("`!keyword` in #[schemars] is not supported by tooltable; remove the serde attribute instead"));
        }
        let key = Ident::parse_any(input)?;
        let value = if input.peek(Token![=]) {
            input.parse::<Token![=]>()?;
            ItemValue::Expr(input.parse()?)
        } else if input.peek(syn::token::Paren) {
            let content;
            syn::parenthesized!(content in input);
            ItemValue::List(content.parse()?)
        } else {
            ItemValue::Flag
        };
        Ok(Item { key, value })
    }
}

impl ToTokens for Item {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let key = &self.key;
        tokens.extend(match &self.value {
            ItemValue::Flag => quote!(#key),
            ItemValue::Expr(expr) => quote!(#key = #expr),
            ItemValue::List(list) => quote!(#key(#list)),
        });
    }
}

impl Item {
    fn name(&self) -> String {
        self.key.to_string()
    }

    fn span(&self) -> Span {
        self.key.span()
    }

    fn lit_str(&self) -> Result<String> {
        match &self.value {
            ItemValue::Expr(Expr::Lit(ExprLit {
                lit: Lit::Str(s), ..
            })) => Ok(s.value()),
            _ => Err(error(
                self.span(),
                format!("`{}` takes a string literal here", self.key),
            )),
        }
    }

    fn list(&self) -> Result<Vec<Item>> {
        match &self.value {
            ItemValue::List(tokens) => Punctuated::<Item, Token![,]>::parse_terminated
                .parse2(tokens.clone())
                .map(|p| p.into_iter().collect())
                .map_err(|e| error(e.span(), e.to_string())),
            _ => Err(error(
                self.span(),
                format!("`{}` takes a list here: `{}(...)`", self.key, self.key),
            )),
        }
    }
}

fn items(attrs: &[Attribute], name: &str) -> Result<Vec<Item>> {
    let mut out = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident(name)) {
        let syn::Meta::List(list) = &attr.meta else {
            continue;
        };
        // Parsed within the attribute's parentheses, so that an unfinished
        // list is refused at its end, not on the first line of the file.
        let parsed = list
            .parse_args_with(Punctuated::<Item, Token![,]>::parse_terminated)
            .map_err(|e| error(e.span(), format!("cannot read #[{name}(...)]: {e}")))?;
        out.extend(parsed);
    }
    Ok(out)
}

/// The serde keywords a `#[schemars(...)]` item of the same name overrides.
const SCHEMARS_OVERRIDES: [&str; 18] = [
    "rename",
    "rename_all",
    "rename_all_fields",
    "deny_unknown_fields",
    "tag",
    "content",
    "untagged",
    "default",
    "skip",
    "skip_serializing",
    "skip_serializing_if",
    "skip_deserializing",
    "flatten",
    "remote",
    "transparent",
    "into",
    "from",
    "try_from",
];

/// The serde keywords that change a schema, which serde's reader is given:
/// those a `#[schemars]` item overrides, and serde's own `with` and
/// `serialize_with` (which schemars never copies from its own items).
fn changes_a_schema(keyword: &str) -> bool {
    SCHEMARS_OVERRIDES.contains(&keyword) || matches!(keyword, "with" | "serialize_with")
}

/// The serde attribute items in force, after `#[schemars]` overrides.
fn effective_serde(schemars: &[Item], attrs: &[Attribute]) -> Result<Vec<Item>> {
    let mut overridden: Vec<String> = schemars
        .iter()
        .map(Item::name)
        .filter(|k| SCHEMARS_OVERRIDES.contains(&k.as_str()))
        .collect();
    if overridden.iter().any(|k| k == "skip") {
        overridden.push("skip_serializing".into());
        overridden.push("skip_deserializing".into());
    }
    let mut effective: Vec<Item> = schemars
        .iter()
        .filter(|i| SCHEMARS_OVERRIDES.contains(&i.name().as_str()))
        .cloned()
        .collect();
    for item in items(attrs, "serde")? {
        let key = item.name();
        if !overridden.contains(&key) {
            effective.push(item);
        }
    }
    Ok(effective)
}

/// The one `#[serde(...)]` attribute serde's reader is given for a
/// container's, variant's or field's attributes, as schemars builds it:
/// the keywords that change a schema, a `#[schemars]` item in place of the
/// serde item it overrides. `None` when no such keyword is written. A
/// function serde would read or write the value through, without a
/// `#[schemars]` item that says what it is, is refused here.
pub fn serde_attribute(attrs: &[Attribute]) -> Result<Option<Attribute>> {
    let schemars = items(attrs, "schemars")?;
    let has_schemars_with = schemars
        .iter()
        .any(|i| matches!(i.name().as_str(), "with" | "schema_with"));
    let effective = effective_serde(&schemars, attrs)?;
    for item in &effective {
        refuse_unknowable(item, has_schemars_with)?;
    }
    let passed: Vec<&Item> = effective
        .iter()
        .filter(|i| changes_a_schema(&i.name()))
        .collect();
    if passed.is_empty() {
        return Ok(None);
    }
    Attribute::parse_outer
        .parse2(quote!(#[serde(#(#passed),*)]))
        .map(|mut parsed| parsed.pop())
        .map_err(|e| error(e.span(), format!("cannot read #[serde(...)]: {e}")))
}

/// serde's `default` on a container or field.
#[derive(Clone, Debug, Default)]
pub enum SerdeDefault {
    /// None given.
    #[default]
    None,
    /// `#[serde(default)]`: the type's `Default`.
    Default,
    /// `#[serde(default = "path")]`.
    Path(syn::ExprPath),
}

impl SerdeDefault {
    /// Whether a default is given.
    pub fn is_some(&self) -> bool {
        !matches!(self, SerdeDefault::None)
    }
}

impl From<&serde_attr::Default> for SerdeDefault {
    fn from(default: &serde_attr::Default) -> SerdeDefault {
        match default {
            serde_attr::Default::None => SerdeDefault::None,
            serde_attr::Default::Default => SerdeDefault::Default,
            serde_attr::Default::Path(path) => SerdeDefault::Path(path.clone()),
        }
    }
}

/// The documentation and metadata every container, variant and field can carry.
#[derive(Clone, Debug, Default)]
pub struct Common {
    /// The doc comment's text.
    pub doc: Option<String>,
    /// `#[deprecated]`.
    pub deprecated: bool,
    /// `#[schemars(title = "..")]`.
    pub title: Option<String>,
    /// `#[schemars(description = "..")]`.
    pub description: Option<String>,
    /// `#[schemars(example = ..)]` values.
    pub examples: Vec<Value>,
    /// `#[schemars(extend("key" = value))]` entries.
    pub extensions: Vec<Extension>,
}

/// One `extend("key" = value)` entry.
#[derive(Clone, Debug)]
pub struct Extension {
    /// The keyword.
    pub key: String,
    /// Its value.
    pub value: Value,
    /// Where the value is written.
    pub span: Span,
}

impl Common {
    /// Whether nothing is set (schemars then forwards a transparent type entirely).
    pub fn is_default(&self) -> bool {
        self.doc.is_none()
            && !self.deprecated
            && self.title.is_none()
            && self.description.is_none()
            && self.examples.is_empty()
            && self.extensions.is_empty()
    }

    fn read(attrs: &[Attribute], schemars: &[Item], serde: &[Item]) -> Result<Common> {
        let mut common = Common {
            doc: doc_text(attrs).map_err(|e| error(e.span(), e.to_string()))?,
            deprecated: attrs.iter().any(|a| a.path().is_ident("deprecated")),
            ..Common::default()
        };
        for item in schemars.iter().chain(serde) {
            match item.name().as_str() {
                "title" => common.title = Some(literal_string(item)?),
                "description" => common.description = Some(literal_string(item)?),
                "example" => common.examples.push(literal_value(item)?),
                "extend" => {
                    let ItemValue::List(tokens) = &item.value else {
                        return Err(error(
                            item.span(),
                            "`extend` takes a list: `extend(\"key\" = value)`",
                        ));
                    };
                    for extension in parse_extensions(tokens.clone())? {
                        if common.extensions.iter().any(|e| e.key == extension.key) {
                            return Err(error(
                                item.span(),
                                format!("extension key `{}` is given twice", extension.key),
                            ));
                        }
                        common.extensions.push(extension);
                    }
                }
                "transform" => {
                    return Err(error(
                        item.span(),
                        "`transform` runs a function on the schema, which the build script cannot run; express the change with `extend(..)`, or with attributes tooltable reads",
                    ));
                }
                _ => {}
            }
        }
        Ok(common)
    }
}

fn literal_string(item: &Item) -> Result<String> {
    item.lit_str().map_err(|_| {
        error(
            item.span(),
            format!(
                "`{}` must be a string literal for the build script to read it",
                item.key
            ),
        )
    })
}

fn literal_value(item: &Item) -> Result<Value> {
    match &item.value {
        ItemValue::Expr(expr) => expr_value(expr).ok_or_else(|| {
            error(
                item.span(),
                format!("`{}` must be a literal (a string, number, boolean or list of them) for the build script to read it", item.key),
            )
        }),
        _ => Err(error(item.span(), format!("`{}` takes a value", item.key))),
    }
}

/// A JSON value from a literal expression: strings, numbers, booleans,
/// arrays of these, `&"str"`, and negative numbers.
pub fn expr_value(expr: &Expr) -> Option<Value> {
    match expr {
        Expr::Lit(ExprLit { lit, .. }) => match lit {
            Lit::Str(s) => Some(Value::String(s.value())),
            Lit::Bool(b) => Some(Value::Bool(b.value)),
            Lit::Int(i) => i
                .base10_parse::<u64>()
                .map(Value::from)
                .or_else(|_| i.base10_parse::<i64>().map(Value::from))
                .ok(),
            // An `f32` literal is written as that `f32` widened to `f64`.
            Lit::Float(f) if f.suffix() == "f32" => f
                .base10_parse::<f32>()
                .ok()
                .and_then(|f| serde_json::Number::from_f64(f64::from(f)))
                .map(Value::Number),
            Lit::Float(f) => f
                .base10_parse::<f64>()
                .ok()
                .and_then(serde_json::Number::from_f64)
                .map(Value::Number),
            Lit::Char(c) => Some(Value::String(c.value().to_string())),
            _ => None,
        },
        Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => match expr_value(&u.expr)? {
            Value::Number(n) => {
                if let Some(i) = n.as_u64() {
                    i64::try_from(-i128::from(i)).ok().map(Value::from)
                } else {
                    n.as_f64()
                        .and_then(|f| serde_json::Number::from_f64(-f))
                        .map(Value::Number)
                }
            }
            _ => None,
        },
        Expr::Reference(r) => expr_value(&r.expr),
        Expr::Paren(p) => expr_value(&p.expr),
        Expr::Group(g) => expr_value(&g.expr),
        Expr::Array(a) => a
            .elems
            .iter()
            .map(expr_value)
            .collect::<Option<Vec<_>>>()
            .map(Value::Array),
        Expr::Macro(m) if m.mac.path.is_ident("vec") => {
            let elems = m
                .mac
                .parse_body_with(Punctuated::<Expr, Token![,]>::parse_terminated)
                .ok()?;
            elems
                .iter()
                .map(expr_value)
                .collect::<Option<Vec<_>>>()
                .map(Value::Array)
        }
        _ => None,
    }
}

fn parse_extensions(tokens: TokenStream) -> Result<Vec<Extension>> {
    // As schemars reads them: `"key" = <tokens up to the next comma>`, the
    // tokens being the body of a `json!` call.
    struct Ext(LitStr, TokenStream);
    impl Parse for Ext {
        fn parse(input: ParseStream<'_>) -> syn::Result<Ext> {
            let key: LitStr = input.parse()?;
            input.parse::<Token![=]>()?;
            let mut value = TokenStream::new();
            while !input.is_empty() && !input.peek(Token![,]) {
                value.extend([input.parse::<proc_macro2::TokenTree>()?]);
            }
            if value.is_empty() {
                return Err(input.error("expected an extension value"));
            }
            Ok(Ext(key, value))
        }
    }
    let parsed = Punctuated::<Ext, Token![,]>::parse_terminated
        .parse2(tokens)
        .map_err(|e| error(e.span(), format!("cannot read `extend(..)`: {e}")))?;
    parsed
        .into_iter()
        .map(|Ext(key, value)| {
            let span = value
                .clone()
                .into_iter()
                .next()
                .map_or_else(|| key.span(), |t| t.span());
            let tokens: Vec<proc_macro2::TokenTree> = value.into_iter().collect();
            let json = json_tokens(&tokens).ok_or_else(|| {
                error(span, "an `extend` value must be a literal, or JSON written with literals (`{\"k\": [1, true, null]}`), for the build script to read it")
            })?;
            Ok(Extension {
                key: key.value(),
                value: json,
                span,
            })
        })
        .collect()
}

/// The value of `json!(<tokens>)` when the tokens are JSON written with
/// Rust literals: `null`, booleans, numbers, strings, `[..]` and `{"k": v}`.
/// Anything else (a variable, a call) is not knowable and gives `None`.
fn json_tokens(tokens: &[proc_macro2::TokenTree]) -> Option<Value> {
    use proc_macro2::{Delimiter, TokenTree};
    match tokens {
        [TokenTree::Ident(ident)] => match ident.to_string().as_str() {
            "null" => Some(Value::Null),
            "true" => Some(Value::Bool(true)),
            "false" => Some(Value::Bool(false)),
            _ => None,
        },
        [TokenTree::Group(group)] if group.delimiter() == Delimiter::None => {
            json_tokens(&group.stream().into_iter().collect::<Vec<_>>())
        }
        [TokenTree::Group(group)] if group.delimiter() == Delimiter::Bracket => {
            let inner: Vec<TokenTree> = group.stream().into_iter().collect();
            split_commas(&inner)
                .into_iter()
                .map(json_tokens)
                .collect::<Option<Vec<_>>>()
                .map(Value::Array)
        }
        [TokenTree::Group(group)] if group.delimiter() == Delimiter::Brace => {
            let inner: Vec<TokenTree> = group.stream().into_iter().collect();
            let mut map = serde_json::Map::new();
            for entry in split_commas(&inner) {
                let colon = entry
                    .iter()
                    .position(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ':'))?;
                let key = match &entry[..colon] {
                    [TokenTree::Literal(lit)] => match Lit::new(lit.clone()) {
                        Lit::Str(s) => s.value(),
                        _ => return None,
                    },
                    _ => return None,
                };
                map.insert(key, json_tokens(&entry[colon + 1..])?);
            }
            Some(Value::Object(map))
        }
        _ => {
            let expr: Expr = syn::parse2(tokens.iter().cloned().collect()).ok()?;
            expr_value(&expr)
        }
    }
}

/// Splits tokens at top-level commas, dropping a trailing empty part.
fn split_commas(tokens: &[proc_macro2::TokenTree]) -> Vec<&[proc_macro2::TokenTree]> {
    let mut parts: Vec<&[proc_macro2::TokenTree]> = tokens
        .split(|t| matches!(t, proc_macro2::TokenTree::Punct(p) if p.as_char() == ','))
        .collect();
    if parts.last().is_some_and(|p| p.is_empty()) {
        parts.pop();
    }
    parts
}

/// A length or range bound: `min`, `max`, `equal`.
#[derive(Clone, Debug, Default)]
pub struct Bounds {
    /// `min = ..`.
    pub min: Option<Value>,
    /// `max = ..`.
    pub max: Option<Value>,
    /// `equal = ..`.
    pub equal: Option<Value>,
}

/// Validation attributes schemars turns into keywords.
#[derive(Clone, Debug, Default)]
pub struct Validation {
    /// `length(..)`.
    pub length: Option<Bounds>,
    /// `range(..)`.
    pub range: Option<Bounds>,
    /// `regex(pattern = ..)` or garde's `pattern(..)`.
    pub pattern: Option<String>,
    /// `contains(..)`.
    pub contains: Option<String>,
    /// `required`.
    pub required: bool,
    /// `email`, `url`, `ip`, `ipv4`, `ipv6`: the `format` it sets.
    pub format: Option<&'static str>,
    /// `inner(..)`: validation of a collection's items.
    pub inner: Option<Box<Validation>>,
}

impl Validation {
    fn read(schemars: &[Item], validate: &[Item], garde: &[Item]) -> Result<Validation> {
        let mut v = Validation::default();
        v.absorb(schemars, "schemars")?;
        v.absorb(validate, "validate")?;
        v.absorb(garde, "garde")?;
        Ok(v)
    }

    fn absorb(&mut self, items: &[Item], kind: &str) -> Result<()> {
        for item in items {
            let name = item.name();
            let format = match name.as_str() {
                "email" => Some("email"),
                "url" => Some("uri"),
                "ip" => Some("ip"),
                "ipv4" => Some("ipv4"),
                "ipv6" => Some("ipv6"),
                _ => None,
            };
            if let Some(format) = format {
                self.format.get_or_insert(format);
                continue;
            }
            match name.as_str() {
                "length" => self.length = Some(bounds(item, kind)?),
                "range" => self.range = Some(bounds(item, kind)?),
                "required" => self.required = true,
                "pattern" if kind != "validate" => {
                    self.pattern = Some(pattern_literal(item, &item.value)?)
                }
                "regex" if kind != "garde" => {
                    let mut found = None;
                    for inner in item.list()? {
                        match inner.name().as_str() {
                            "pattern" => found = Some(pattern_literal(&inner, &inner.value)?),
                            "path" => {
                                return Err(error(
                                    inner.span(),
                                    "a regex given by `path` lives in a static the build script cannot read; give the pattern as a literal with #[schemars(regex(pattern = r\"...\"))]",
                                ));
                            }
                            _ => {}
                        }
                    }
                    self.pattern = Some(found.ok_or_else(|| {
                        error(item.span(), "`regex(..)` needs `pattern = r\"...\"`")
                    })?);
                }
                "contains" => {
                    let text = match &item.value {
                        ItemValue::List(tokens) => {
                            let list = Punctuated::<Item, Token![,]>::parse_terminated
                                .parse2(tokens.clone());
                            match list {
                                Ok(list) if list.iter().any(|i| i.name() == "pattern") => list
                                    .iter()
                                    .find(|i| i.name() == "pattern")
                                    .map(|i| i.lit_str())
                                    .transpose()?,
                                _ => {
                                    let expr: Expr = syn::parse2(tokens.clone())
                                        .map_err(|e| error(e.span(), e.to_string()))?;
                                    match expr_value(&expr) {
                                        Some(Value::String(s)) => Some(s),
                                        _ => None,
                                    }
                                }
                            }
                        }
                        _ => None,
                    };
                    self.contains = Some(text.ok_or_else(|| {
                        error(item.span(), "`contains` must give its text as a string literal for the build script to read it")
                    })?);
                }
                "inner" if kind != "validate" => {
                    let mut inner = self.inner.take().map(|b| *b).unwrap_or_default();
                    inner.absorb(&item.list()?, kind)?;
                    self.inner = Some(Box::new(inner));
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Whether nothing is set.
    pub fn is_default(&self) -> bool {
        self.length.is_none()
            && self.range.is_none()
            && self.pattern.is_none()
            && self.contains.is_none()
            && !self.required
            && self.format.is_none()
            && self.inner.is_none()
    }
}

fn pattern_literal(item: &Item, value: &ItemValue) -> Result<String> {
    let expr = match value {
        ItemValue::Expr(e) => e.clone(),
        ItemValue::List(tokens) => {
            syn::parse2::<Expr>(tokens.clone()).map_err(|e| error(e.span(), e.to_string()))?
        }
        ItemValue::Flag => return Err(error(item.span(), "`pattern` needs a value")),
    };
    match expr_value(&expr) {
        Some(Value::String(s)) => Ok(s),
        _ => Err(error(
            expr.span(),
            "the pattern must be a string literal for the build script to read it, such as r\"^[a-z]+$\"",
        )),
    }
}

fn bounds(item: &Item, kind: &str) -> Result<Bounds> {
    let mut b = Bounds::default();
    for inner in item.list()? {
        let name = inner.name();
        if !matches!(name.as_str(), "min" | "max" | "equal") {
            // schemars rejects other items in its own attribute, and ignores
            // them (`message`, `code`, garde's modes) in validator's and garde's.
            if kind == "schemars" {
                return Err(error(
                    inner.span(),
                    format!("unknown bound `{name}`; use `min`, `max` or `equal`"),
                ));
            }
            continue;
        }
        let value = match &inner.value {
            ItemValue::Expr(Expr::Lit(ExprLit {
                lit: Lit::Str(s), ..
            })) => s.parse::<Expr>().ok().as_ref().and_then(expr_value),
            ItemValue::Expr(e) => expr_value(e),
            _ => None,
        }
        .ok_or_else(|| {
            error(
                inner.span(),
                format!(
                    "`{}` in `{}(..)` must be a number literal for the build script to read it (not a constant or an expression)",
                    inner.key, item.key
                ),
            )
        })?;
        match name.as_str() {
            "min" => b.min = Some(value),
            "max" => b.max = Some(value),
            _ => b.equal = Some(value),
        }
    }
    Ok(b)
}

/// How an enum is tagged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tagging {
    /// `{"Variant": content}` (serde's default).
    External,
    /// `{"tag": "Variant", ..fields}`.
    Internal(String),
    /// `{"tag": "Variant", "content": content}`.
    Adjacent(String, String),
    /// The content alone.
    Untagged,
}

impl From<&serde_attr::TagType> for Tagging {
    fn from(tag: &serde_attr::TagType) -> Tagging {
        match tag {
            serde_attr::TagType::External => Tagging::External,
            serde_attr::TagType::Internal { tag } => Tagging::Internal(tag.clone()),
            serde_attr::TagType::Adjacent { tag, content } => {
                Tagging::Adjacent(tag.clone(), content.clone())
            }
            serde_attr::TagType::None => Tagging::Untagged,
        }
    }
}

/// What a container (struct or enum) says about itself. The schemars
/// items are read by [`ContainerAttrs::read`]; serde's reading is added by
/// [`ContainerAttrs::take_serde`].
#[derive(Clone, Debug)]
pub struct ContainerAttrs {
    /// Metadata.
    pub common: Common,
    /// `#[schemars(rename = "..")]`, which may hold `{T}` placeholders.
    pub rename_format: Option<String>,
    /// `deny_unknown_fields`.
    pub deny_unknown_fields: bool,
    /// The tagging of an enum.
    pub tagging: Tagging,
    /// `default` on the container.
    pub default: SerdeDefault,
    /// `transparent`.
    pub transparent: bool,
    /// `#[schemars(inline)]`.
    pub inline: bool,
    /// `#[schemars(with = "Type")]` or `#[schemars(schema_with = "path")]`.
    pub with: Option<With>,
    /// serde's `from` or `try_from`: what deserializing goes through.
    pub from: Option<syn::Type>,
    /// serde's `into`: what serializing goes through.
    pub into: Option<syn::Type>,
    /// The last segment of serde's `remote = "path"`: the type this one
    /// stands in for, whose name schemars gives the schema.
    pub remote: Option<String>,
}

/// What a variant says about itself.
#[derive(Clone, Debug, Default)]
pub struct VariantAttrs {
    /// Metadata.
    pub common: Common,
    /// `skip_serializing`.
    pub skip_serializing: bool,
    /// `skip_deserializing`.
    pub skip_deserializing: bool,
    /// `untagged` on this variant.
    pub untagged: bool,
    /// `#[schemars(with = "Type")]` or `#[schemars(schema_with = "path")]`.
    pub with: Option<With>,
}

impl VariantAttrs {
    /// Whether the variant has no metadata and no `with` (schemars then
    /// lists a unit variant in the plain string `enum`).
    pub fn is_default(&self) -> bool {
        self.common.is_default() && self.with.is_none()
    }
}

/// What a field says about itself.
#[derive(Clone, Debug, Default)]
pub struct FieldAttrs {
    /// Metadata.
    pub common: Common,
    /// Validation.
    pub validation: Validation,
    /// `skip_serializing`.
    pub skip_serializing: bool,
    /// `skip_deserializing`.
    pub skip_deserializing: bool,
    /// `skip_serializing_if = "path"`.
    pub skip_serializing_if: Option<syn::ExprPath>,
    /// `default`, or the type's `Default` serde gives a field it never
    /// deserializes.
    pub default: SerdeDefault,
    /// `flatten`.
    pub flatten: bool,
    /// `#[schemars(with = "Type")]` or `#[schemars(schema_with = "path")]`.
    pub with: Option<With>,
    /// serde's `with` or `serialize_with`: serde writes the field through a
    /// function (allowed only beside a schemars `with`).
    pub serialize_with: bool,
}

/// What a schemars `with` or `schema_with` puts in place of a type's own
/// schema.
#[derive(Clone, Debug)]
pub enum With {
    /// `with = "Type"`: that type's schema.
    Type(syn::Type),
    /// `schema_with = "path"`: what the function returns, which the build
    /// evaluates when its body is a literal schema.
    Function {
        /// The function.
        path: syn::ExprPath,
        /// Where the attribute names it.
        span: Span,
    },
}

/// The `with` or `schema_with` among schemars' items (schemars accepts one).
fn read_with(schemars: &[Item]) -> Result<Option<With>> {
    let mut found = None;
    for item in schemars {
        let with = match item.name().as_str() {
            "with" => With::Type(parse_type(item)?),
            "schema_with" => {
                let text = item.lit_str()?;
                let path = syn::parse_str(&text).map_err(|_| {
                    error(
                        item.span(),
                        format!("`schema_with = \"{text}\"` does not name a function"),
                    )
                })?;
                With::Function {
                    path,
                    span: item.span(),
                }
            }
            _ => continue,
        };
        if found.is_some() {
            return Err(error(
                item.span(),
                "schemars takes one `with` or `schema_with` here; remove all but one",
            ));
        }
        found = Some(with);
    }
    Ok(found)
}

fn parse_type(item: &Item) -> Result<syn::Type> {
    let text = item.lit_str()?;
    syn::parse_str(&text).map_err(|_| {
        error(
            item.span(),
            format!("`{} = \"{text}\"` does not name a type", item.key),
        )
    })
}

fn refuse_unknowable(item: &Item, has_schemars_with: bool) -> Result<()> {
    let name = item.name();
    if matches!(
        name.as_str(),
        "with" | "serialize_with" | "deserialize_with"
    ) && !has_schemars_with
    {
        return Err(error(
            item.span(),
            format!(
                "`{name}` makes serde read or write this through a function, so the build script cannot know its schema from the type; say what it is with #[schemars(with = \"Type\")]"
            ),
        ));
    }
    Ok(())
}

impl ContainerAttrs {
    /// Reads a struct's or enum's schemars attributes.
    pub fn read(attrs: &[Attribute]) -> Result<ContainerAttrs> {
        let schemars = items(attrs, "schemars")?;
        if let Some(item) = schemars
            .iter()
            .find(|i| i.name() == "_unstable_ref_variants")
        {
            return Err(error(
                item.span(),
                "`_unstable_ref_variants` is an unstable schemars setting that tooltable does not render; remove it",
            ));
        }
        Ok(ContainerAttrs {
            common: Common::read(attrs, &schemars, &[])?,
            rename_format: schemars
                .iter()
                .find(|i| i.name() == "rename")
                .map(Item::lit_str)
                .transpose()?,
            deny_unknown_fields: false,
            tagging: Tagging::External,
            default: SerdeDefault::None,
            transparent: false,
            inline: schemars.iter().any(|i| i.name() == "inline"),
            with: read_with(&schemars)?,
            from: None,
            into: None,
            remote: None,
        })
    }

    /// Takes serde's reading of the container. `span` locates the type,
    /// for the one tagging serde accepts and schemars does not describe.
    pub fn take_serde(
        &mut self,
        serde: &serde_attr::Container,
        is_enum: bool,
        span: Span,
    ) -> Result<()> {
        self.deny_unknown_fields = serde.deny_unknown_fields();
        self.tagging = serde.tag().into();
        self.default = serde.default().into();
        self.transparent = serde.transparent();
        // serde takes one of `from` and `try_from`.
        self.from = serde.type_from().or(serde.type_try_from()).cloned();
        self.into = serde.type_into().cloned();
        self.remote = serde
            .remote()
            .and_then(|path| path.segments.last())
            .map(|s| s.ident.to_string());
        if !is_enum && matches!(self.tagging, Tagging::Internal(_)) {
            return Err(error(
                span,
                "`tag` on a struct adds a field when serializing that schemars does not describe; the build script refuses to guess, so move the tag into a field",
            ));
        }
        Ok(())
    }
}

impl VariantAttrs {
    /// Reads a variant's schemars attributes.
    pub fn read(attrs: &[Attribute]) -> Result<VariantAttrs> {
        let schemars = items(attrs, "schemars")?;
        Ok(VariantAttrs {
            common: Common::read(attrs, &schemars, &[])?,
            with: read_with(&schemars)?,
            ..VariantAttrs::default()
        })
    }

    /// Takes serde's reading of the variant.
    pub fn take_serde(&mut self, serde: &serde_attr::Variant) {
        self.skip_serializing = serde.skip_serializing();
        self.skip_deserializing = serde.skip_deserializing();
        self.untagged = serde.untagged();
    }
}

impl FieldAttrs {
    /// Reads a field's schemars, validator and garde attributes.
    pub fn read(attrs: &[Attribute]) -> Result<FieldAttrs> {
        let schemars = items(attrs, "schemars")?;
        let validate = items(attrs, "validate")?;
        let garde = items(attrs, "garde")?;
        Ok(FieldAttrs {
            common: Common::read(attrs, &schemars, &[])?,
            validation: Validation::read(&schemars, &validate, &garde)?,
            with: read_with(&schemars)?,
            ..FieldAttrs::default()
        })
    }

    /// Takes serde's reading of the field.
    pub fn take_serde(&mut self, serde: &serde_attr::Field) {
        self.skip_serializing = serde.skip_serializing();
        self.skip_deserializing = serde.skip_deserializing();
        self.skip_serializing_if = serde.skip_serializing_if().cloned();
        self.default = serde.default().into();
        self.flatten = serde.flatten();
        self.serialize_with = serde.serialize_with().is_some();
    }
}
