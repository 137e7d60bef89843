//! The `#[tool(...)]` grammar on input nobody meant to write.
//!
//! The macro and the build script parse the attribute with the same code
//! (`syntax::attr`), from whatever a user's source holds. Arbitrary texts,
//! mutated real attributes and well-formed ones in any order go through both
//! paths: the macro's (the tokens alone, the name checked against the
//! loosest profile) and the build script's (the tokens of an attribute
//! parsed from a source file, as `model.rs` reads them). Each ends parsed or
//! refused, never in a panic (proptest fails a case that panics); a refusal
//! on the build script's path points inside the source, because a build
//! script error without a real line and column is one a user cannot act on.
//! Cases per property: 256, or `PROPTEST_CASES`.

use proc_macro2::{LineColumn, Span, TokenStream};
use proptest::prelude::*;
use proptest::sample::Index;
use serde_json::Value;
use std::str::FromStr;
use syn::spanned::Spanned;
use tooltable_codegen::syntax::attr::{KEYS, NameProfile, ToolAttr, parse_tool_attr};

fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(256);
    ProptestConfig::with_cases(cases)
}

/// The pieces attribute texts are made of: the grammar's own words and
/// punctuation, literals of every kind, and anything at all.
fn piece() -> impl Strategy<Value = String> {
    let words = [
        "read",
        "write",
        "destructive",
        "open",
        "closed",
        "true",
        "false",
        "r#type",
        "self",
        "crate",
        "_",
    ];
    let punctuation = [
        "=", ",", "(", ")", "[", "]", "{", "}", "-", "::", ".", "#", "!", ";", "'", "\"", "r#\"",
        "\"#", "/*", "*/", "//", "\n", "..", "=>", "&", "<", ">", "?",
    ];
    prop_oneof![
        4 => proptest::sample::select(KEYS.to_vec()).prop_map(str::to_owned),
        2 => proptest::sample::select(words.to_vec()).prop_map(str::to_owned),
        4 => proptest::sample::select(punctuation.to_vec()).prop_map(str::to_owned),
        2 => "\\PC{0,12}".prop_map(|s| format!("{s:?}")),
        1 => "[^\"\\\\]{0,12}".prop_map(|s| format!("r#\"{s}\"#")),
        1 => any::<i64>().prop_map(|n| n.to_string()),
        1 => "[0-9]{19,40}(u8|i64|f32)?",
        1 => any::<f64>().prop_map(|f| format!("{f:?}")),
        1 => "'\\PC'|b'a'|b\"\\PC{0,4}\"|c\"x\"|1e999|0x[0-9a-f]{1,20}",
        1 => "[a-z_][a-z0-9_]{0,8}",
        1 => "\\PC{0,6}",
    ]
}

fn arbitrary_text() -> impl Strategy<Value = String> {
    (prop::collection::vec(piece(), 0..24), any::<bool>())
        .prop_map(|(pieces, spaced)| pieces.join(if spaced { " " } else { "" }))
}

/// Attributes as real crates write them (the README, the example, the
/// corpus), to be mutated.
const SEEDS: [&str; 6] = [
    "tier = read, toolset = \"notes\", world = closed",
    "tier = destructive, confirm = \"deletes the note\", permission = \"notes.delete\"",
    "tier = write, idempotent = true, since = \"0.2.0\", platforms = [\"linux\", \"macos\"]",
    "name = \"notes_search\", title = \"Search notes\", tier = read, example = r#\"{\"query\": \"milk\", \"limit\": 3}\"#",
    "tier = write, meta(audience = \"internal\", cost = 2, ratio = -0.5, tags = [\"a\", \"b\"], flag = true), admin_summary = \"Writes.\"",
    "tier = destructive, confirm, idempotent, world = open, meta(\"k.x\" = [1, -2, 3.5])",
];

#[derive(Clone, Debug)]
enum Mutation {
    Delete(Index, usize),
    Insert(Index, String),
    Replace(Index, char),
    Duplicate(Index, usize),
    Truncate(Index),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<Index>(), 1usize..8).prop_map(|(at, n)| Mutation::Delete(at, n)),
        (any::<Index>(), piece()).prop_map(|(at, s)| Mutation::Insert(at, s)),
        (any::<Index>(), any::<char>()).prop_map(|(at, c)| Mutation::Replace(at, c)),
        (any::<Index>(), 1usize..16).prop_map(|(at, n)| Mutation::Duplicate(at, n)),
        any::<Index>().prop_map(Mutation::Truncate),
    ]
}

fn mutate(seed: &str, mutations: &[Mutation]) -> String {
    let mut chars: Vec<char> = seed.chars().collect();
    for m in mutations {
        let len = chars.len();
        let at = |i: &Index| if len == 0 { 0 } else { i.index(len + 1) };
        match m {
            Mutation::Delete(i, n) => {
                let start = at(i).min(len);
                chars.drain(start..(start + n).min(len));
            }
            Mutation::Insert(i, s) => {
                let start = at(i);
                chars.splice(start..start, s.chars());
            }
            Mutation::Replace(i, c) if len > 0 => chars[i.index(len)] = *c,
            Mutation::Replace(_, c) => chars.push(*c),
            Mutation::Duplicate(i, n) => {
                let start = at(i).min(len);
                let copy: Vec<char> = chars[start..(start + n).min(len)].to_vec();
                chars.splice(start..start, copy);
            }
            Mutation::Truncate(i) => chars.truncate(at(i)),
        }
    }
    chars.into_iter().collect()
}

fn mutated_text() -> impl Strategy<Value = String> {
    (
        proptest::sample::select(SEEDS.to_vec()),
        prop::collection::vec(mutation(), 1..5),
    )
        .prop_map(|(seed, mutations)| mutate(seed, &mutations))
}

/// A stretch of source, from its first line and column to its last.
type Stretch = (LineColumn, LineColumn);

/// Whether every error of `error` starts within `stretch`.
fn inside(error: &syn::Error, (from, to): Stretch) -> bool {
    let key = |at: LineColumn| (at.line, at.column);
    error.clone().into_iter().all(|e| {
        let at = key(e.span().start());
        key(from) <= at && at <= key(to)
    })
}

/// The macro's path: the tokens alone. Text the compiler cannot lex never
/// reaches the macro. A refusal may point at the whole attribute (the call
/// site), which the compiler shows where the attribute is written.
fn through_the_macro(args: &str) -> Option<syn::Result<ToolAttr>> {
    let tokens = TokenStream::from_str(args).ok()?;
    Some(parse_tool_attr(
        tokens,
        Span::call_site(),
        Some(NameProfile::Mcp),
    ))
}

/// The build script's path: a source file holding the attribute, parsed,
/// and the attribute's tokens read as `model.rs` reads them. `Ok(None)`
/// when the text closes the attribute early and what remains holds no
/// `#[tool]`. With the outcome comes where its errors belong: the
/// attribute, or the whole source when it does not parse as a function.
fn through_the_build_script(args: &str) -> (syn::Result<Option<ToolAttr>>, Stretch) {
    let source = format!("/// Does it.\n#[tool({args})]\nfn handler() {{}}\n");
    let whole = (
        LineColumn { line: 1, column: 0 },
        LineColumn {
            line: source.lines().count(),
            column: source.lines().map(|l| l.chars().count()).max().unwrap_or(0),
        },
    );
    let handler = match syn::parse_str::<syn::ItemFn>(&source) {
        Ok(handler) => handler,
        Err(e) => return (Err(e), whole),
    };
    let Some(attr) = handler.attrs.iter().find(|a| a.path().is_ident("tool")) else {
        return (Ok(None), whole);
    };
    let stretch = (attr.span().start(), attr.span().end());
    let parsed = match &attr.meta {
        syn::Meta::List(list) => parse_tool_attr(list.tokens.clone(), attr.span(), None),
        syn::Meta::Path(_) => parse_tool_attr(TokenStream::new(), attr.span(), None),
        syn::Meta::NameValue(nv) => Err(syn::Error::new(nv.span(), "not a list")),
    };
    (parsed.map(Some), stretch)
}

fn parsed_or_located(args: &str) -> Result<(), TestCaseError> {
    through_the_macro(args);
    let (parsed, stretch) = through_the_build_script(args);
    if let Err(error) = parsed {
        prop_assert!(
            inside(&error, stretch),
            "a refusal of `{args}` points outside {stretch:?}: {:?}",
            error
                .into_iter()
                .map(|e| (e.to_string(), e.span().start()))
                .collect::<Vec<_>>()
        );
    }
    Ok(())
}

/// One well-formed entry, as text, with what it must parse to.
#[derive(Clone, Debug)]
enum Entry {
    Tier(&'static str),
    Name(String),
    Title(String),
    Idempotent(Option<bool>),
    World(&'static str),
    Confirm(Option<String>),
    Permission(String),
    Toolset(String),
    Since(String),
    Platforms(Vec<String>),
    Meta(Vec<(String, Value)>),
    Example(Value),
    AdminSummary(String),
}

impl Entry {
    fn text(&self) -> String {
        match self {
            Entry::Tier(t) => format!("tier = {t}"),
            Entry::Name(s) => format!("name = {s:?}"),
            Entry::Title(s) => format!("title = {s:?}"),
            Entry::Idempotent(None) => "idempotent".into(),
            Entry::Idempotent(Some(b)) => format!("idempotent = {b}"),
            Entry::World(w) => format!("world = {w}"),
            Entry::Confirm(None) => "confirm".into(),
            Entry::Confirm(Some(s)) => format!("confirm = {s:?}"),
            Entry::Permission(s) => format!("permission = {s:?}"),
            Entry::Toolset(s) => format!("toolset = {s:?}"),
            Entry::Since(s) => format!("since = {s:?}"),
            Entry::Platforms(list) => format!(
                "platforms = [{}]",
                list.iter()
                    .map(|p| format!("{p:?}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Entry::Meta(decls) => format!(
                "meta({})",
                decls
                    .iter()
                    .map(|(k, v)| format!("{k} = {}", literal(v)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Entry::Example(value) => format!("example = {:?}", value.to_string()),
            Entry::AdminSummary(s) => format!("admin_summary = {s:?}"),
        }
    }
}

/// A `meta` value as a Rust literal.
fn literal(value: &Value) -> String {
    match value {
        Value::String(s) => format!("{s:?}"),
        Value::Array(items) => format!(
            "[{}]",
            items.iter().map(literal).collect::<Vec<_>>().join(", ")
        ),
        other => other.to_string(),
    }
}

fn non_empty() -> impl Strategy<Value = String> {
    "\\PC{1,16}".prop_filter("not blank", |s| !s.trim().is_empty())
}

fn meta_value() -> impl Strategy<Value = Value> {
    // i64::MIN is left out: written `-9223372036854775808`, its digits do
    // not fit in 64 bits before the sign applies, and the grammar refuses it.
    let scalar = prop_oneof![
        "\\PC{0,8}".prop_map(Value::String),
        (i64::MIN + 1..=i64::MAX).prop_map(Value::from),
        any::<bool>().prop_map(Value::Bool),
        (-1e6f64..1e6).prop_map(|f| Value::from((f * 8.0).round() / 8.0 + 0.5)),
    ];
    prop_oneof![
        3 => scalar.clone(),
        1 => prop::collection::vec(scalar, 0..4).prop_map(Value::Array),
    ]
}

fn example_value() -> impl Strategy<Value = Value> {
    prop::collection::btree_map("\\PC{0,6}", "\\PC{0,6}".prop_map(Value::String), 0..4)
        .prop_map(|m| Value::Object(m.into_iter().collect()))
}

/// A well-formed attribute: the tier and any of the other keys, each once,
/// in any order.
fn well_formed() -> impl Strategy<Value = Vec<Entry>> {
    let optional = (
        prop::option::of("[A-Za-z0-9_-]{1,64}".prop_map(Entry::Name)),
        prop::option::of(non_empty().prop_map(Entry::Title)),
        prop::option::of(prop::option::of(any::<bool>()).prop_map(Entry::Idempotent)),
        prop::option::of(proptest::sample::select(vec!["open", "closed"]).prop_map(Entry::World)),
        prop::option::of(prop::option::of(non_empty()).prop_map(Entry::Confirm)),
        prop::option::of(non_empty().prop_map(Entry::Permission)),
        prop::option::of(non_empty().prop_map(Entry::Toolset)),
        prop::option::of(non_empty().prop_map(Entry::Since)),
        prop::option::of(prop::collection::vec(non_empty(), 0..3).prop_map(Entry::Platforms)),
        prop::option::of(
            prop::collection::btree_map("[a-z][a-z0-9]{0,6}", meta_value(), 0..4)
                .prop_map(|m| Entry::Meta(m.into_iter().collect())),
        ),
        prop::option::of(example_value().prop_map(Entry::Example)),
        prop::option::of(non_empty().prop_map(Entry::AdminSummary)),
    );
    (
        proptest::sample::select(vec!["read", "write", "destructive"]),
        optional,
    )
        .prop_flat_map(|(tier, (a, b, c, d, e, f, g, h, i, j, k, l))| {
            let entries: Vec<Entry> = std::iter::once(Entry::Tier(tier))
                .chain([a, b, c, d, e, f, g, h, i, j, k, l].into_iter().flatten())
                // A `read` tool cannot confirm: that refusal has tests of its own.
                .filter(|entry| tier != "read" || !matches!(entry, Entry::Confirm(_)))
                .collect();
            Just(entries).prop_shuffle()
        })
}

fn check_parsed(attr: &ToolAttr, entries: &[Entry]) -> Result<(), TestCaseError> {
    for entry in entries {
        match entry {
            Entry::Tier(t) => prop_assert_eq!(attr.tier.value.as_str(), *t),
            Entry::Name(n) => prop_assert_eq!(&attr.name.as_ref().unwrap().value, n),
            Entry::Title(s) => prop_assert_eq!(&attr.title.as_ref().unwrap().value, s),
            Entry::Idempotent(b) => prop_assert_eq!(attr.idempotent(), b.unwrap_or(true)),
            Entry::World(w) => prop_assert_eq!(attr.world().as_str(), *w),
            Entry::Confirm(_) => prop_assert!(attr.confirms()),
            Entry::Permission(s) => prop_assert_eq!(&attr.permission.as_ref().unwrap().value, s),
            Entry::Toolset(s) => prop_assert_eq!(&attr.toolset.as_ref().unwrap().value, s),
            Entry::Since(s) => prop_assert_eq!(&attr.since.as_ref().unwrap().value, s),
            Entry::Platforms(list) => {
                prop_assert_eq!(&attr.platforms.as_ref().unwrap().value, list)
            }
            Entry::Meta(decls) => {
                let got: Vec<(String, Value)> = attr
                    .meta
                    .iter()
                    .map(|d| (d.key.value.clone(), d.value.clone()))
                    .collect();
                prop_assert_eq!(&got, decls);
            }
            Entry::Example(value) => prop_assert_eq!(&attr.example.as_ref().unwrap().value, value),
            Entry::AdminSummary(s) => {
                prop_assert_eq!(&attr.admin_summary.as_ref().unwrap().value, s)
            }
        }
    }
    Ok(())
}

#[test]
fn an_unfinished_attribute_is_refused_at_its_end_not_on_the_first_line_of_the_file() {
    // Line 2 is `#[tool(..)]`; columns count from 0.
    for (args, column) in [("tier =", 14), ("tier = read, meta(a =)", 28)] {
        let (parsed, _) = through_the_build_script(args);
        let errors: Vec<(String, LineColumn)> = parsed
            .unwrap_err()
            .into_iter()
            .map(|e| (e.to_string(), e.span().start()))
            .collect();
        assert_eq!(
            errors,
            [(
                "unexpected end of input, expected an expression".to_owned(),
                LineColumn { line: 2, column }
            )],
            "{args}"
        );
    }
}

#[test]
fn an_attribute_nested_or_repeated_thousands_of_times_is_refused_not_a_stack_overflow() {
    // The stack of a build script's (and the compiler's) main thread, 8 MiB,
    // rather than a test thread's 2 MiB.
    std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(refuse_the_oversized)
        .unwrap()
        .join()
        .unwrap();
}

fn refuse_the_oversized() {
    for (args, refusal) in [
        (
            format!(
                "tier = read, platforms = {}{}",
                "[".repeat(10_000),
                "]".repeat(10_000)
            ),
            "#[tool] nests brackets more than 16 levels deep",
        ),
        (
            format!(
                "tier = read, title = {}1{}",
                "(".repeat(10_000),
                ")".repeat(10_000)
            ),
            "#[tool] nests brackets more than 16 levels deep",
        ),
        (
            format!("tier = read, meta(a = {}1)", "-".repeat(10_000)),
            "#[tool] holds more than 1024 tokens",
        ),
        (
            format!("tier = read, title = {}1", "& mut ".repeat(10_000)),
            "#[tool] holds more than 1024 tokens",
        ),
    ] {
        let by_macro = through_the_macro(&args).expect("it lexes").unwrap_err();
        assert!(by_macro.to_string().starts_with(refusal), "{by_macro}");
        let (by_build, stretch) = through_the_build_script(&args);
        let by_build = by_build.unwrap_err();
        assert!(by_build.to_string().starts_with(refusal), "{by_build}");
        assert!(inside(&by_build, stretch));
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn arbitrary_attribute_text_is_parsed_or_refused_with_a_location(args in arbitrary_text()) {
        parsed_or_located(&args)?;
    }

    #[test]
    fn mutated_real_attributes_are_parsed_or_refused_with_a_location(args in mutated_text()) {
        parsed_or_located(&args)?;
    }

    #[test]
    fn well_formed_attributes_in_any_order_parse_to_what_they_say(entries in well_formed()) {
        let text = entries.iter().map(Entry::text).collect::<Vec<_>>().join(", ");
        let by_macro = through_the_macro(&text).expect("a well-formed attribute lexes");
        let by_macro = by_macro.map_err(|e| TestCaseError::fail(format!("the macro refused `{text}`: {e}")))?;
        check_parsed(&by_macro, &entries)?;
        let (by_build, _) = through_the_build_script(&text);
        let by_build = by_build
            .map_err(|e| TestCaseError::fail(format!("the build script refused `{text}`: {e}")))?
            .expect("the attribute is there");
        check_parsed(&by_build, &entries)?;
    }
}
