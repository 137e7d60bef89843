//! The grammar of `#[tool(...)]`, shared by the macro and the build script.
//!
//! The macro parses the attribute to give errors with spans on the offending
//! token; the build script parses the same attribute, with the same code, to
//! build the table. Every problem in one attribute is reported, not only the
//! first. Rules that need the crate's configuration (the name profile, the
//! required prefixes) are checked by the build script; here a literal name is
//! checked against the loosest profile, so a name no profile accepts fails at
//! the attribute.

use proc_macro2::extra::DelimSpan;
use proc_macro2::{Delimiter, Group, Span, TokenStream, TokenTree};
use serde_json::Value;
use syn::parse::{Parse, ParseStream, Parser};
use syn::punctuated::Punctuated;
use syn::spanned::Spanned as _;
use syn::{Expr, ExprArray, ExprLit, Ident, Lit, LitStr, Token};
use tooltable_rules::confirm::Confirm;
use tooltable_rules::icons::{self, Icon, IconPart, Theme};
pub use tooltable_rules::names::NameProfile;
use tooltable_rules::names::validate_name;
use tooltable_rules::search_hint;
use tooltable_rules::task::TaskSupport;
use tooltable_rules::tier::{Tier, World};

/// A value and where it was written.
#[derive(Clone, Debug)]
pub struct Spanned<T> {
    /// The value.
    pub value: T,
    /// Where it was written.
    pub span: Span,
}

impl<T> Spanned<T> {
    fn new(value: T, span: Span) -> Spanned<T> {
        Spanned { value, span }
    }
}

/// One `meta(key = value)` declaration.
#[derive(Clone, Debug)]
pub struct MetaDecl {
    /// The declaration's name (a `_meta` name: alphanumeric at both ends).
    pub key: Spanned<String>,
    /// Its literal value.
    pub value: Value,
}

/// A tool's name when `name = ".."` does not give one: the function's, as
/// written without a raw identifier's `r#` (`fn r#match` is the tool
/// `match`), as serde names a raw field.
pub fn default_name(function: &syn::Ident) -> String {
    syn::ext::IdentExt::unraw(function).to_string()
}

/// Everything `#[tool(...)]` can say.
#[derive(Clone, Debug)]
pub struct ToolAttr {
    /// `name = "..."`; the function's name when absent.
    pub name: Option<Spanned<String>>,
    /// `title = "..."`.
    pub title: Option<Spanned<String>>,
    /// `tier = read | write | destructive` (required).
    pub tier: Spanned<Tier>,
    /// `idempotent` or `idempotent = bool`.
    pub idempotent: Option<Spanned<bool>>,
    /// `world = open | closed`.
    pub world: Option<Spanned<World>>,
    /// `task = forbidden | optional | required`.
    pub task: Option<Spanned<TaskSupport>>,
    /// `confirm` or `confirm = "consequence"`.
    pub confirm: Option<Spanned<Confirm<'static>>>,
    /// `permission = "..."`.
    pub permission: Option<Spanned<String>>,
    /// `toolset = "..."`.
    pub toolset: Option<Spanned<String>>,
    /// `since = "..."`.
    pub since: Option<Spanned<String>>,
    /// `platforms = ["...", ...]`.
    pub platforms: Option<Spanned<Vec<String>>>,
    /// `meta(key = literal, ...)`.
    pub meta: Vec<MetaDecl>,
    /// `example = r#"{...}"#`: JSON arguments.
    pub example: Option<Spanned<Value>>,
    /// `admin_summary = "..."`.
    pub admin_summary: Option<Spanned<String>>,
    /// `search_hint = "..."`: words a client's tool search finds the tool by.
    pub search_hint: Option<Spanned<String>>,
    /// `always_listed` or `always_listed = bool`: listed beside discovery's
    /// search tool, and loaded at once by a client that defers tools.
    pub always_listed: Option<Spanned<bool>>,
    /// `icons("https://...", (src = "...", mime_type = "...", sizes = "48x48", theme = dark))`.
    pub icons: Vec<Icon>,
}

impl ToolAttr {
    /// Whether calls need `confirm: true`.
    pub fn confirms(&self) -> bool {
        self.confirm.is_some()
    }

    /// The `idempotent` flag as written (false when absent).
    pub fn idempotent(&self) -> bool {
        self.idempotent.as_ref().is_some_and(|s| s.value)
    }

    /// The `always_listed` flag as written (false when absent).
    pub fn always_listed(&self) -> bool {
        self.always_listed.as_ref().is_some_and(|s| s.value)
    }

    /// The world, `open` when absent.
    pub fn world(&self) -> World {
        self.world.as_ref().map_or(World::Open, |s| s.value)
    }

    /// Whether a call may run as a task, `forbidden` when absent.
    pub fn task(&self) -> TaskSupport {
        self.task
            .as_ref()
            .map_or(TaskSupport::Forbidden, |s| s.value)
    }
}

/// How a key's value is read into the attribute being built.
enum Read {
    /// A non-empty string, into its field; the sentence says what it is,
    /// with an example, for the error when it is not one.
    Text(
        fn(&mut ToolAttr) -> &mut Option<Spanned<String>>,
        &'static str,
    ),
    /// Any other value, by its own function.
    With(fn(&mut Builder, &Entry) -> syn::Result<()>),
}

impl Read {
    fn read(&self, builder: &mut Builder, entry: &Entry) -> syn::Result<()> {
        match self {
            Read::Text(field, expected) => {
                *field(&mut builder.attr) = Some(non_empty_string(entry, expected)?);
                Ok(())
            }
            Read::With(read) => read(builder, entry),
        }
    }
}

/// The grammar of `#[tool]`: every key, in the order the documentation
/// lists them, and how its value is read. A new key is a line here and a
/// field of [`ToolAttr`]; a key given twice, an unknown key and a missing
/// tier are reported for every key alike.
const GRAMMAR: [(&str, Read); 17] = [
    ("name", Read::With(Builder::read_name)),
    (
        "title",
        Read::Text(
            |a| &mut a.title,
            "a display title, such as `title = \"Search notes\"`",
        ),
    ),
    (
        "icons",
        Read::With(|b, entry| {
            let RawValue::List(tokens, parens) = &entry.value else {
                return Err(syn::Error::new(
                    value_span(entry),
                    format!("`icons` takes a list of icons, such as {ICONS_EXAMPLE}"),
                ));
            };
            b.attr.icons = parse_icons(tokens.clone(), parens.join())?;
            Ok(())
        }),
    ),
    (
        "tier",
        Read::With(|b, entry| {
            let (tier, span) = choice(
                entry,
                ("tier", "read, write or destructive"),
                Tier::parse,
                ("tier", "`read`, `write` or `destructive`"),
            )?;
            b.attr.tier = Spanned::new(tier, span);
            b.tier_read = true;
            Ok(())
        }),
    ),
    (
        "idempotent",
        Read::With(|b, entry| {
            let value = flag(entry, "idempotent")?;
            b.attr.idempotent = Some(Spanned::new(value, entry.key.span()));
            Ok(())
        }),
    ),
    (
        "world",
        Read::With(|b, entry| {
            let (world, span) = choice(
                entry,
                ("world", "open or closed"),
                World::parse,
                ("world", "`open` or `closed`"),
            )?;
            b.attr.world = Some(Spanned::new(world, span));
            Ok(())
        }),
    ),
    (
        "task",
        Read::With(|b, entry| {
            let (task, span) = choice(
                entry,
                ("task", "optional, required or forbidden"),
                TaskSupport::parse,
                ("task support", "`forbidden`, `optional` or `required`"),
            )?;
            b.attr.task = Some(Spanned::new(task, span));
            Ok(())
        }),
    ),
    ("confirm", Read::With(Builder::read_confirm)),
    (
        "permission",
        Read::Text(
            |a| &mut a.permission,
            "the permission a caller needs, such as `permission = \"notes.delete\"`",
        ),
    ),
    (
        "toolset",
        Read::Text(
            |a| &mut a.toolset,
            "a toolset name, such as `toolset = \"notes\"`",
        ),
    ),
    (
        "since",
        Read::Text(
            |a| &mut a.since,
            "the version that introduced the tool, such as `since = \"0.2.0\"`",
        ),
    ),
    ("platforms", Read::With(Builder::read_platforms)),
    (
        "meta",
        Read::With(|b, entry| {
            let RawValue::List(tokens, parens) = &entry.value else {
                return Err(syn::Error::new(
                    value_span(entry),
                    "`meta` takes a list of declarations, such as `meta(audience = \"internal\", cost = 2)`",
                ));
            };
            b.attr.meta = parse_meta_decls(tokens.clone(), parens.join())?;
            Ok(())
        }),
    ),
    ("example", Read::With(Builder::read_example)),
    (
        "admin_summary",
        Read::Text(
            |a| &mut a.admin_summary,
            "a summary for administrators, such as `admin_summary = \"...\"`",
        ),
    ),
    (
        "search_hint",
        Read::With(|b, entry| {
            let hint = non_empty_string(
                entry,
                "words a tool search should find the tool by, such as `search_hint = \"memo jot remember\"`",
            )?;
            search_hint::check(&hint.value)
                .map_err(|e| syn::Error::new(hint.span, format!("`search_hint`: {e}")))?;
            b.attr.search_hint = Some(hint);
            Ok(())
        }),
    ),
    (
        "always_listed",
        Read::With(|b, entry| {
            let value = flag(entry, "always_listed")?;
            b.attr.always_listed = Some(Spanned::new(value, entry.key.span()));
            Ok(())
        }),
    ),
];

/// The keys `#[tool]` accepts, in the order the documentation lists them.
pub const KEYS: [&str; GRAMMAR.len()] = {
    let mut keys = [""; GRAMMAR.len()];
    let mut at = 0;
    while at < keys.len() {
        keys[at] = GRAMMAR[at].0;
        at += 1;
    }
    keys
};

/// Parses the tokens inside `#[tool(...)]`. `attr_span` locates the whole
/// attribute, for errors about what is missing from it. A literal `name` is
/// checked against `names` when given: the macro passes the loosest profile
/// (it cannot read the crate's settings); the build script passes `None`
/// and checks the name later against the crate's own profile and prefixes.
pub fn parse_tool_attr(
    tokens: TokenStream,
    attr_span: Span,
    names: Option<NameProfile>,
) -> syn::Result<ToolAttr> {
    check_size(&tokens, attr_span)?;
    let entries = parse_within(
        tokens,
        attr_span,
        Punctuated::<Entry, Token![,]>::parse_terminated,
    )?;
    let mut errors = Errors::default();
    let mut builder = Builder::new(names, attr_span);
    let mut seen: Vec<(String, Span)> = Vec::new();
    for entry in entries {
        let key = entry.key.to_string();
        if let Some((_, first)) = seen.iter().find(|(k, _)| *k == key) {
            let mut error = syn::Error::new(
                entry.key.span(),
                format!("`{key}` is given twice; keep one"),
            );
            error.combine(syn::Error::new(
                *first,
                format!("`{key}` is first given here"),
            ));
            errors.push(error);
            continue;
        }
        seen.push((key.clone(), entry.key.span()));
        let Some((_, read)) = GRAMMAR.iter().find(|(name, _)| *name == key) else {
            errors.push(syn::Error::new(
                entry.key.span(),
                format!(
                    "unknown key `{key}` in #[tool]; the keys are {}",
                    KEYS.join(", ")
                ),
            ));
            continue;
        };
        if let Err(error) = read.read(&mut builder, &entry) {
            errors.push(error);
        }
    }
    let tier_given = seen.iter().any(|(key, _)| key == "tier");
    let attr = builder.finish(tier_given, attr_span, &mut errors);
    errors.finish()?;
    attr.ok_or_else(|| syn::Error::new(attr_span, "unreachable: errors were reported"))
}

/// The most levels of brackets and tokens `#[tool(...)]` may hold. A
/// declaration needs two levels (`meta(key = [..])`) and a few dozen
/// tokens, but syn parses nested expressions by recursion, and thousands of
/// brackets or signs in a row would overflow the stack: an abort of the
/// build script or the compiler, not an error with a place.
const MAX_NESTING: usize = 16;
const MAX_TOKENS: usize = 1024;

/// Refuses an attribute past [`MAX_NESTING`] or [`MAX_TOKENS`], without
/// recursion.
fn check_size(tokens: &TokenStream, attr_span: Span) -> syn::Result<()> {
    let mut count = 0;
    let mut open = vec![(tokens.clone().into_iter(), 0)];
    while let Some((next, depth)) = open.last_mut().map(|(trees, depth)| (trees.next(), *depth)) {
        let Some(tree) = next else {
            open.pop();
            continue;
        };
        count += 1;
        if count > MAX_TOKENS {
            return Err(syn::Error::new(
                attr_span,
                format!(
                    "#[tool] holds more than {MAX_TOKENS} tokens; a declaration needs a few dozen"
                ),
            ));
        }
        if let TokenTree::Group(group) = tree {
            if depth == MAX_NESTING {
                return Err(syn::Error::new(
                    group.span(),
                    format!(
                        "#[tool] nests brackets more than {MAX_NESTING} levels deep; a declaration needs two (`meta(key = [..])`)"
                    ),
                ));
            }
            open.push((group.stream().into_iter(), depth + 1));
        }
    }
    Ok(())
}

/// A raw `key`, `key = value` or `key(...)` entry.
struct Entry {
    key: Ident,
    value: RawValue,
}

enum RawValue {
    Flag,
    Expr(Expr),
    /// `key(...)`: the tokens, and where the parentheses are.
    List(TokenStream, DelimSpan),
}

/// Parses `tokens` with `parser` as the contents of a group spanning
/// `scope`. `Parser::parse2` would place an "unexpected end of input" at
/// the call site, which is the attribute in the macro but the first line
/// of the file in the build script; inside a group, syn places it at the
/// group's end.
fn parse_within<T>(
    tokens: TokenStream,
    scope: Span,
    parser: fn(ParseStream<'_>) -> syn::Result<T>,
) -> syn::Result<T> {
    let mut group = Group::new(Delimiter::Parenthesis, tokens);
    group.set_span(scope);
    let within = |input: ParseStream<'_>| {
        let content;
        syn::parenthesized!(content in input);
        parser(&content)
    };
    within.parse2(TokenStream::from(TokenTree::Group(group)))
}

impl Parse for Entry {
    fn parse(input: ParseStream<'_>) -> syn::Result<Entry> {
        use syn::ext::IdentExt;
        let key = Ident::parse_any(input).map_err(|e| {
            syn::Error::new(
                e.span(),
                format!("expected a key of #[tool], one of: {}", KEYS.join(", ")),
            )
        })?;
        let value = if input.peek(Token![=]) {
            input.parse::<Token![=]>()?;
            RawValue::Expr(input.parse()?)
        } else if input.peek(syn::token::Paren) {
            let content;
            let paren = syn::parenthesized!(content in input);
            RawValue::List(content.parse()?, paren.span)
        } else {
            RawValue::Flag
        };
        Ok(Entry { key, value })
    }
}

#[derive(Default)]
struct Errors(Option<syn::Error>);

impl Errors {
    fn push(&mut self, error: syn::Error) {
        match &mut self.0 {
            Some(all) => all.combine(error),
            None => self.0 = Some(error),
        }
    }

    fn finish(self) -> syn::Result<()> {
        self.0.map_or(Ok(()), Err)
    }
}

/// The attribute as its keys are read: [`ToolAttr`] itself, its tier a
/// placeholder until `tier` is read (without one, nothing is built).
struct Builder {
    names: Option<NameProfile>,
    tier_read: bool,
    attr: ToolAttr,
}

impl Builder {
    fn new(names: Option<NameProfile>, attr_span: Span) -> Builder {
        Builder {
            names,
            tier_read: false,
            attr: ToolAttr {
                name: None,
                title: None,
                tier: Spanned::new(Tier::Read, attr_span),
                idempotent: None,
                world: None,
                task: None,
                confirm: None,
                permission: None,
                toolset: None,
                since: None,
                platforms: None,
                meta: Vec::new(),
                example: None,
                admin_summary: None,
                search_hint: None,
                always_listed: None,
                icons: Vec::new(),
            },
        }
    }

    fn read_name(&mut self, entry: &Entry) -> syn::Result<()> {
        let lit = string(entry, "the tool's name, such as `name = \"notes_search\"`")?;
        if let Some(profile) = self.names {
            validate_name(&lit.value(), profile, &[] as &[&str])
                .map_err(|e| syn::Error::new(lit.span(), e))?;
        }
        self.attr.name = Some(Spanned::new(lit.value(), lit.span()));
        Ok(())
    }

    fn read_confirm(&mut self, entry: &Entry) -> syn::Result<()> {
        let decl = match &entry.value {
            RawValue::Flag => Confirm::Required,
            RawValue::Expr(Expr::Lit(ExprLit {
                lit: Lit::Str(s), ..
            })) => {
                let text = s.value();
                if text.trim().is_empty() {
                    return Err(syn::Error::new(
                        s.span(),
                        "the consequence is empty; say what the tool does, such as `confirm = \"deletes the note for good\"`, or write `confirm` alone",
                    ));
                }
                Confirm::Because(text.into())
            }
            _ => {
                return Err(syn::Error::new(
                    value_span(entry),
                    "`confirm` takes no value, or a string naming the consequence, such as `confirm = \"deletes the note for good\"`",
                ));
            }
        };
        self.attr.confirm = Some(Spanned::new(decl, entry.key.span()));
        Ok(())
    }

    fn read_platforms(&mut self, entry: &Entry) -> syn::Result<()> {
        let expected = "a list of platform names, such as `platforms = [\"linux\", \"macos\"]`";
        let RawValue::Expr(Expr::Array(ExprArray { elems, .. })) = &entry.value else {
            return Err(syn::Error::new(
                value_span(entry),
                format!("`platforms` takes {expected}"),
            ));
        };
        let mut list = Vec::new();
        for elem in elems {
            match elem {
                Expr::Lit(ExprLit {
                    lit: Lit::Str(s), ..
                }) if !s.value().is_empty() => list.push(s.value()),
                other => {
                    return Err(syn::Error::new(
                        other.span(),
                        format!("`platforms` takes {expected}"),
                    ));
                }
            }
        }
        self.attr.platforms = Some(Spanned::new(list, entry.key.span()));
        Ok(())
    }

    fn read_example(&mut self, entry: &Entry) -> syn::Result<()> {
        let lit = string(
            entry,
            "the example's JSON arguments as a string, such as `example = r#\"{\"query\": \"milk\"}\"#`",
        )?;
        let value: Value = serde_json::from_str(&lit.value()).map_err(|e| {
            syn::Error::new(lit.span(), format!("the example is not valid JSON: {e}"))
        })?;
        if !value.is_object() {
            return Err(syn::Error::new(
                lit.span(),
                "the example must be a JSON object of arguments, such as `{\"query\": \"milk\"}`",
            ));
        }
        self.attr.example = Some(Spanned::new(value, lit.span()));
        Ok(())
    }

    fn finish(self, tier_given: bool, attr_span: Span, errors: &mut Errors) -> Option<ToolAttr> {
        if !self.tier_read {
            if !tier_given {
                errors.push(syn::Error::new(
                    attr_span,
                    "#[tool] needs a tier: add `tier = read`, `tier = write` or `tier = destructive`",
                ));
            }
            return None;
        }
        let attr = self.attr;
        if let (Tier::Read, Some(confirm)) = (attr.tier.value, &attr.confirm) {
            errors.push(syn::Error::new(
                confirm.span,
                "a `read` tool cannot require confirmation: it changes nothing; remove `confirm`, or raise the tier",
            ));
        }
        Some(attr)
    }
}

/// A flag's value: `key` alone is `true`, or `key = true` / `key = false`.
fn flag(entry: &Entry, key: &str) -> syn::Result<bool> {
    match &entry.value {
        RawValue::Flag => Ok(true),
        RawValue::Expr(Expr::Lit(ExprLit {
            lit: Lit::Bool(b), ..
        })) => Ok(b.value),
        _ => Err(syn::Error::new(
            value_span(entry),
            format!("`{key}` takes no value, or `true` or `false`"),
        )),
    }
}

fn value_span(entry: &Entry) -> Span {
    match &entry.value {
        RawValue::Flag => entry.key.span(),
        RawValue::Expr(expr) => expr.span(),
        RawValue::List(_, parens) => parens.join(),
    }
}

fn string(entry: &Entry, expected: &str) -> syn::Result<LitStr> {
    match &entry.value {
        RawValue::Expr(Expr::Lit(ExprLit {
            lit: Lit::Str(s), ..
        })) => Ok(s.clone()),
        _ => Err(syn::Error::new(
            value_span(entry),
            format!("`{}` takes a string: {expected}", entry.key),
        )),
    }
}

fn non_empty_string(entry: &Entry, expected: &str) -> syn::Result<Spanned<String>> {
    let lit = string(entry, expected)?;
    if lit.value().trim().is_empty() {
        return Err(syn::Error::new(
            lit.span(),
            format!("`{}` is empty: {expected}", entry.key),
        ));
    }
    Ok(Spanned::new(lit.value(), lit.span()))
}

fn word(entry: &Entry, key: &str, choices: &str) -> syn::Result<(String, Span)> {
    match &entry.value {
        RawValue::Expr(Expr::Path(path)) if path.path.get_ident().is_some() => {
            let ident = path
                .path
                .get_ident()
                .map(Ident::to_string)
                .unwrap_or_default();
            Ok((ident, path.span()))
        }
        RawValue::Expr(Expr::Lit(ExprLit {
            lit: Lit::Str(s), ..
        })) => Ok((s.value(), s.span())),
        _ => Err(syn::Error::new(
            value_span(entry),
            format!(
                "`{key}` takes one of {choices}, such as `{key} = {}`",
                choices.split([',', ' ']).next().unwrap_or_default()
            ),
        )),
    }
}

/// A key whose value is one word of a closed set: `(key, choices)` name
/// them when the value is no word, `(what, expected)` when it is a word
/// `parse` does not know.
fn choice<T>(
    entry: &Entry,
    (key, choices): (&str, &str),
    parse: fn(&str) -> Option<T>,
    (what, expected): (&str, &str),
) -> syn::Result<(T, Span)> {
    let (word, span) = word(entry, key, choices)?;
    let value = parse(&word).ok_or_else(|| {
        syn::Error::new(
            span,
            format!("unknown {what} `{word}`; expected {expected}"),
        )
    })?;
    Ok((value, span))
}

fn parse_meta_decls(tokens: TokenStream, scope: Span) -> syn::Result<Vec<MetaDecl>> {
    let entries = parse_within(
        tokens,
        scope,
        Punctuated::<MetaEntry, Token![,]>::parse_terminated,
    )?;
    let mut errors = Errors::default();
    let mut decls: Vec<MetaDecl> = Vec::new();
    for entry in entries {
        if let Err(e) = tooltable_rules::meta_keys::validate_name(&entry.key.value) {
            errors.push(syn::Error::new(entry.key.span, e));
            continue;
        }
        if decls.iter().any(|d| d.key.value == entry.key.value) {
            errors.push(syn::Error::new(
                entry.key.span,
                format!(
                    "`{}` is declared twice in `meta(...)`; keep one",
                    entry.key.value
                ),
            ));
            continue;
        }
        match literal_json(&entry.value) {
            Ok(value) => decls.push(MetaDecl {
                key: entry.key,
                value,
            }),
            Err(e) => errors.push(e),
        }
    }
    errors.finish()?;
    Ok(decls)
}

/// How `icons(..)` is written, for its errors.
const ICONS_EXAMPLE: &str = "`icons(\"https://example.com/search.png\", (src = \"https://example.com/search.svg\", mime_type = \"image/svg+xml\", sizes = \"any\", theme = dark))`";

/// An icon as written: its source alone, or `(key = value, ..)`.
enum IconEntry {
    Src(LitStr),
    Keys(Vec<Entry>, Span),
}

impl Parse for IconEntry {
    fn parse(input: ParseStream<'_>) -> syn::Result<IconEntry> {
        if input.peek(LitStr) {
            return Ok(IconEntry::Src(input.parse()?));
        }
        if input.peek(syn::token::Paren) {
            let content;
            let paren = syn::parenthesized!(content in input);
            let entries = Punctuated::<Entry, Token![,]>::parse_terminated(&content)?;
            return Ok(IconEntry::Keys(
                entries.into_iter().collect(),
                paren.span.join(),
            ));
        }
        Err(input.error(format!(
            "an icon is its source as a string, or `(src = \"...\", mime_type = \"...\", sizes = \"48x48\", theme = light)`; such as {ICONS_EXAMPLE}"
        )))
    }
}

/// Reads `icons(..)`; every mistake in it is an error of its own.
fn parse_icons(tokens: TokenStream, scope: Span) -> syn::Result<Vec<Icon>> {
    let written = parse_within(
        tokens,
        scope,
        Punctuated::<IconEntry, Token![,]>::parse_terminated,
    )?;
    let mut errors = Errors::default();
    let mut found = Vec::new();
    if written.is_empty() {
        errors.push(syn::Error::new(
            scope,
            format!("`icons()` lists no icon; list at least one, such as {ICONS_EXAMPLE}, or remove the key"),
        ));
    }
    for entry in written {
        let (icon, spans) = match entry {
            IconEntry::Src(lit) => (
                Icon {
                    src: lit.value(),
                    mime_type: None,
                    sizes: Vec::new(),
                    theme: None,
                },
                IconSpans {
                    src: lit.span(),
                    mime_type: lit.span(),
                    sizes: lit.span(),
                },
            ),
            IconEntry::Keys(entries, span) => match icon_of_keys(entries, span) {
                Ok(read) => read,
                Err(e) => {
                    errors.push(e);
                    continue;
                }
            },
        };
        for problem in icons::check(&icon) {
            let at = match problem.part {
                IconPart::Src => spans.src,
                IconPart::MimeType => spans.mime_type,
                IconPart::Size(_) => spans.sizes,
            };
            errors.push(syn::Error::new(at, problem.message));
        }
        if found.contains(&icon) {
            errors.push(syn::Error::new(
                spans.src,
                format!("the icon `{}` is listed twice; keep one", icon.src),
            ));
        }
        found.push(icon);
    }
    errors.finish()?;
    Ok(found)
}

/// Where an icon's parts are written, to place their errors.
struct IconSpans {
    src: Span,
    mime_type: Span,
    sizes: Span,
}

fn icon_of_keys(entries: Vec<Entry>, span: Span) -> syn::Result<(Icon, IconSpans)> {
    let mut errors = Errors::default();
    let mut src = None;
    let mut mime_type = None;
    let mut sizes = None;
    let mut theme = None;
    for entry in &entries {
        let key = entry.key.to_string();
        let seen = match key.as_str() {
            "src" => src.is_some(),
            "mime_type" => mime_type.is_some(),
            "sizes" => sizes.is_some(),
            "theme" => theme.is_some(),
            _ => false,
        };
        if seen {
            errors.push(syn::Error::new(
                entry.key.span(),
                format!("`{key}` is given twice for this icon; keep one"),
            ));
            continue;
        }
        let read = match key.as_str() {
            "src" => string(entry, "the image's `https:` URL or `data:` URI")
                .map(|lit| src = Some(lit)),
            "mime_type" => string(entry, "the image's type, such as `mime_type = \"image/png\"`")
                .map(|lit| mime_type = Some(lit)),
            "sizes" => string(
                entry,
                "the sizes it can be drawn at, separated by spaces, such as `sizes = \"48x48 96x96\"`",
            )
            .map(|lit| sizes = Some(lit)),
            "theme" => word(entry, "theme", "light or dark").and_then(|(word, at)| {
                let parsed = Theme::parse(&word).ok_or_else(|| {
                    syn::Error::new(
                        at,
                        format!("unknown theme `{word}`; expected `light` or `dark`"),
                    )
                })?;
                theme = Some(parsed);
                Ok(())
            }),
            other => Err(syn::Error::new(
                entry.key.span(),
                format!("unknown key `{other}` in an icon; the keys are src, mime_type, sizes, theme"),
            )),
        };
        if let Err(e) = read {
            errors.push(e);
        }
    }
    let Some(src_lit) = src else {
        let mut missing = syn::Error::new(
            span,
            "this icon has no `src`; add the image's `https:` URL or `data:` URI, as `src = \"https://example.com/icon.png\"`",
        );
        if let Err(others) = errors.finish() {
            missing.combine(others);
        }
        return Err(missing);
    };
    errors.finish()?;
    let spans = IconSpans {
        src: src_lit.span(),
        mime_type: mime_type.as_ref().map_or(src_lit.span(), LitStr::span),
        sizes: sizes.as_ref().map_or(src_lit.span(), LitStr::span),
    };
    let icon = Icon {
        src: src_lit.value(),
        mime_type: mime_type.map(|m| m.value()),
        sizes: sizes
            .map(|s| s.value().split_whitespace().map(str::to_owned).collect())
            .unwrap_or_default(),
        theme,
    };
    Ok((icon, spans))
}

struct MetaEntry {
    key: Spanned<String>,
    value: Expr,
}

impl Parse for MetaEntry {
    fn parse(input: ParseStream<'_>) -> syn::Result<MetaEntry> {
        use syn::ext::IdentExt;
        let key = if input.peek(LitStr) {
            let lit: LitStr = input.parse()?;
            Spanned::new(lit.value(), lit.span())
        } else {
            let ident = Ident::parse_any(input)?;
            Spanned::new(ident.to_string(), ident.span())
        };
        input.parse::<Token![=]>()?;
        Ok(MetaEntry {
            key,
            value: input.parse()?,
        })
    }
}

/// A declaration's value: a string, number or boolean literal, or a list of them.
fn literal_json(expr: &Expr) -> syn::Result<Value> {
    let refuse = |span: Span| {
        syn::Error::new(
            span,
            "a `meta` value must be a literal: a string, a number, `true`, `false`, or a list of these",
        )
    };
    match expr {
        Expr::Lit(ExprLit { lit, .. }) => match lit {
            Lit::Str(s) => Ok(Value::String(s.value())),
            Lit::Bool(b) => Ok(Value::Bool(b.value)),
            Lit::Int(i) => i
                .base10_parse::<i64>()
                .map(Value::from)
                .map_err(|_| syn::Error::new(i.span(), "this integer does not fit in 64 bits")),
            Lit::Float(f) => {
                let n: f64 = f.base10_parse()?;
                serde_json::Number::from_f64(n)
                    .map(Value::Number)
                    .ok_or_else(|| refuse(f.span()))
            }
            other => Err(refuse(other.span())),
        },
        Expr::Unary(unary) if matches!(unary.op, syn::UnOp::Neg(_)) => {
            match literal_json(&unary.expr)? {
                Value::Number(n) if n.as_i64().is_some() => {
                    Ok(Value::from(-n.as_i64().unwrap_or_default()))
                }
                Value::Number(n) => serde_json::Number::from_f64(-n.as_f64().unwrap_or_default())
                    .map(Value::Number)
                    .ok_or_else(|| refuse(expr.span())),
                _ => Err(refuse(expr.span())),
            }
        }
        Expr::Array(array) => array
            .elems
            .iter()
            .map(|e| match e {
                Expr::Array(_) => Err(refuse(e.span())),
                other => literal_json(other),
            })
            .collect::<syn::Result<Vec<_>>>()
            .map(Value::Array),
        other => Err(refuse(other.span())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    fn parse(tokens: TokenStream) -> syn::Result<ToolAttr> {
        parse_tool_attr(tokens, Span::call_site(), Some(NameProfile::Mcp))
    }

    fn messages(tokens: TokenStream) -> Vec<String> {
        parse(tokens)
            .unwrap_err()
            .into_iter()
            .map(|e| e.to_string())
            .collect()
    }

    #[test]
    fn every_key_is_understood() {
        let attr = parse(quote! {
            name = "notes_delete", title = "Delete a note", tier = destructive, idempotent,
            world = closed, confirm = "deletes the note", permission = "notes.delete",
            toolset = "notes", since = "0.2.0", platforms = ["linux", "macos"],
            meta(audience = "internal", cost = 2, ratio = -0.5, tags = ["a", "b"], flag = true),
            example = r#"{"id": 3}"#, admin_summary = "Removes a note."
        })
        .unwrap();
        assert_eq!(attr.name.as_ref().unwrap().value, "notes_delete");
        assert_eq!(attr.tier.value, Tier::Destructive);
        assert!(attr.idempotent());
        assert_eq!(attr.world(), World::Closed);
        assert_eq!(
            attr.confirm.unwrap().value,
            Confirm::Because("deletes the note".into())
        );
        assert_eq!(attr.platforms.unwrap().value, ["linux", "macos"]);
        let meta: Vec<(String, Value)> = attr
            .meta
            .into_iter()
            .map(|d| (d.key.value, d.value))
            .collect();
        assert_eq!(meta[1], ("cost".into(), Value::from(2)));
        assert_eq!(meta[2], ("ratio".into(), Value::from(-0.5)));
        assert_eq!(attr.example.unwrap().value, serde_json::json!({"id": 3}));
    }

    #[test]
    fn the_tier_is_required() {
        assert_eq!(
            messages(quote! { name = "x" }),
            ["#[tool] needs a tier: add `tier = read`, `tier = write` or `tier = destructive`"]
        );
    }

    #[test]
    fn unknown_and_repeated_keys_are_all_reported() {
        let found = messages(quote! { tier = read, colour = "red", tier = write });
        assert!(
            found[0].starts_with("unknown key `colour` in #[tool]"),
            "{found:?}"
        );
        assert_eq!(found[1], "`tier` is given twice; keep one");
        assert_eq!(found[2], "`tier` is first given here");
    }

    #[test]
    fn task_support_is_one_of_three_words() {
        let attr = parse(quote! { tier = read, task = required }).unwrap();
        assert_eq!(attr.task(), TaskSupport::Required);
        let attr = parse(quote! { tier = read }).unwrap();
        assert_eq!(attr.task(), TaskSupport::Forbidden);
        assert_eq!(
            messages(quote! { tier = read, task = sometimes }),
            ["unknown task support `sometimes`; expected `forbidden`, `optional` or `required`"]
        );
        assert_eq!(
            messages(quote! { tier = read, task = 1 }),
            ["`task` takes one of optional, required or forbidden, such as `task = optional`"]
        );
        assert_eq!(
            messages(quote! { tier = read, task = optional, task = required })[0],
            "`task` is given twice; keep one"
        );
    }

    #[test]
    fn wrong_value_kinds_are_refused() {
        assert_eq!(
            messages(quote! { tier = 3 })[0],
            "`tier` takes one of read, write or destructive, such as `tier = read`"
        );
        assert_eq!(
            messages(quote! { tier = admin })[0],
            "unknown tier `admin`; expected `read`, `write` or `destructive`"
        );
        assert!(
            messages(quote! { tier = read, name = notes })[0].starts_with("`name` takes a string")
        );
        assert!(
            messages(quote! { tier = write, confirm = 1 })[0]
                .starts_with("`confirm` takes no value, or a string")
        );
        assert!(
            messages(quote! { tier = read, example = "{" })[0]
                .starts_with("the example is not valid JSON")
        );
        assert!(
            messages(quote! { tier = read, meta(x = y) })[0]
                .starts_with("a `meta` value must be a literal")
        );
    }

    #[test]
    fn confirm_on_a_read_tool_is_refused() {
        assert_eq!(
            messages(quote! { tier = read, confirm }),
            [
                "a `read` tool cannot require confirmation: it changes nothing; remove `confirm`, or raise the tier"
            ]
        );
    }

    #[test]
    fn idempotent_on_a_read_tool_is_accepted() {
        assert!(parse(quote! { tier = read, idempotent }).is_ok());
    }

    #[test]
    fn a_literal_name_no_profile_accepts_is_refused() {
        assert_eq!(
            messages(quote! { name = "bad name", tier = read }),
            [
                "tool name `bad name` contains ' ' at character 4, which the mcp profile does not allow; use only ASCII letters, digits, `_`, `-` and `.`"
            ]
        );
    }

    #[test]
    fn meta_names_follow_the_meta_key_grammar() {
        assert!(
            messages(quote! { tier = read, meta("-x" = 1) })[0]
                .contains("must start and end with an ASCII letter or digit")
        );
    }
}
