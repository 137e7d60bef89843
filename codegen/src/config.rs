//! The crate's tooltable settings, from `[package.metadata.tooltable]`.
//!
//! All build-time configuration lives in data rather than in `build.rs`, so
//! that the `tooltable` command can read a crate exactly as its build script
//! does, without compiling anything. Unknown keys are errors: a misspelt
//! setting that silently does nothing is worse than a failed build.

use crate::committed::{Declared, Requested};
use crate::diagnostic::{Diagnostic, Location};
use crate::registry::Registry;
use std::path::{Path, PathBuf};
use tooltable_rules::clients::{Client, Level, Rule};
use tooltable_rules::context::Budget;
use tooltable_rules::lowering::Lowering;
use tooltable_rules::meta_keys;
use tooltable_rules::model_text::Lint;
use tooltable_rules::names::NameProfile;

/// The `_meta` prefix used when the crate names none.
pub const DEFAULT_NAMESPACE: &str = "dev.tooltable/";

/// The keys of `[package.metadata.tooltable]`.
pub const KEYS: [&str; 19] = [
    "manifest",
    "docs",
    "docs_template",
    "names",
    "prefixes",
    "namespace",
    "inline_subschemas",
    "root",
    "allow_unconfirmed_destructive",
    "features",
    "default_features",
    "profile",
    "clients",
    "server_name",
    "client_levels",
    "lint_levels",
    "context_budget",
    "lowerings",
    "registry",
];

/// `[package.metadata.tooltable]` as serde reads it: a field per key of
/// [`KEYS`], each of a type whose error says what the key takes.
#[derive(Default, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
struct Settings {
    manifest: Option<Text>,
    docs: Option<Text>,
    docs_template: Option<Text>,
    names: Option<Names>,
    prefixes: Option<Prefixes>,
    namespace: Option<Namespace>,
    inline_subschemas: Option<Switch>,
    root: Option<Text>,
    allow_unconfirmed_destructive: Option<Switch>,
    features: Option<Features>,
    default_features: Option<Switch>,
    profile: Option<Release>,
    clients: Option<Named<Client>>,
    lowerings: Option<Named<Lowering>>,
    server_name: Option<Text>,
    client_levels: Option<Levels<Rule>>,
    lint_levels: Option<Levels<Lint>>,
    context_budget: Option<ContextBudget>,
    registry: Option<crate::registry::Settings>,
}

impl Settings {
    /// Reads the settings, or says, as a sentence naming the key, what is
    /// wrong with the first key that does not fit.
    fn read(table: toml::Table) -> Result<Settings, String> {
        serde_path_to_error::deserialize(toml::Value::Table(table)).map_err(|error| {
            let key = error.path().to_string();
            let message = error.into_inner().message().to_owned();
            let unknown = message
                .strip_prefix("unknown field `")
                .and_then(|rest| rest.split_once('`'));
            if key.starts_with("registry") {
                return match unknown {
                    Some((unknown, _)) => format!(
                        "unknown key `{unknown}` in [package.metadata.tooltable.registry]; the keys are {}",
                        crate::registry::KEYS
                    ),
                    None if key == "registry" && message.starts_with("invalid type") => {
                        "[package.metadata.tooltable] `registry` is a table: write `[package.metadata.tooltable.registry]` with `name = \"io.github.OWNER/NAME\"`".to_owned()
                    }
                    None if message == "missing field `name`" => {
                        "[package.metadata.tooltable.registry] needs `name`, the server's name in the MCP Registry, such as `name = \"io.github.OWNER/NAME\"`".to_owned()
                    }
                    None => format!("[package.metadata.tooltable] `{key}`: {message}"),
                };
            }
            match unknown {
                Some((unknown, _)) => format!(
                    "unknown key `{unknown}` in [package.metadata.tooltable]; the keys are {}",
                    KEYS.join(", ")
                ),
                // A value type that quotes the key with its value
                // (`names = "strict"`) has written the key already.
                None if message.starts_with('`') => {
                    format!("[package.metadata.tooltable] {message}")
                }
                None => format!("[package.metadata.tooltable] `{key}` {message}"),
            }
        })
    }
}

/// Reads a setting's value as TOML, then as `T`, or fails with `expected`.
fn value<'de, D, T>(
    deserializer: D,
    read: impl FnOnce(toml::Value) -> Option<T>,
    expected: &str,
) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
{
    use serde::Deserialize as _;
    let value = toml::Value::deserialize(deserializer)?;
    read(value).ok_or_else(|| serde::de::Error::custom(expected))
}

/// A non-empty string.
struct Text(String);

impl<'de> serde::Deserialize<'de> for Text {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Text, D::Error> {
        value(
            deserializer,
            |v| match v {
                toml::Value::String(s) if !s.is_empty() => Some(Text(s)),
                _ => None,
            },
            "must be a non-empty string",
        )
    }
}

/// `true` or `false`.
struct Switch(bool);

impl<'de> serde::Deserialize<'de> for Switch {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Switch, D::Error> {
        value(
            deserializer,
            |v| v.as_bool().map(Switch),
            "must be true or false",
        )
    }
}

/// A name profile.
struct Names(NameProfile);

impl<'de> serde::Deserialize<'de> for Names {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Names, D::Error> {
        let text = Text::deserialize(deserializer)?.0;
        NameProfile::parse(&text).map(Names).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "`names = \"{text}\"` is not a name profile; use \"portable\" (the default) or \"mcp\""
            ))
        })
    }
}

/// Prefixes every tool name must start with.
struct Prefixes(Vec<String>);

impl<'de> serde::Deserialize<'de> for Prefixes {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Prefixes, D::Error> {
        match toml::Value::deserialize(deserializer)? {
            toml::Value::Array(items) => items
                .into_iter()
                .map(|item| match item {
                    toml::Value::String(s) if !s.is_empty() => Ok(s),
                    _ => Err(serde::de::Error::custom(
                        "must be a list of non-empty strings, such as [\"notes_\"]",
                    )),
                })
                .collect::<Result<_, _>>()
                .map(Prefixes),
            _ => Err(serde::de::Error::custom(
                "must be a list of strings, such as [\"notes_\"]",
            )),
        }
    }
}

/// A list of names from a closed set: `clients` or `lowerings`.
struct Named<T>(Vec<T>);

/// A closed set a [`Named`] list takes its names from.
trait Spelled: Sized + PartialEq {
    /// What one name is, after "which is not".
    const ONE: &'static str;
    /// What the list is, with an example.
    const LIST: &'static str;
    /// Parses a name.
    fn parse(text: &str) -> Option<Self>;
    /// Every name, for the error.
    fn spellings() -> String;
}

impl Spelled for Client {
    const ONE: &'static str = "a client profile; the profiles are";
    const LIST: &'static str = "a list of client profiles, such as [\"claude-code\", \"cursor\"]";
    fn parse(text: &str) -> Option<Client> {
        Client::parse(text)
    }
    fn spellings() -> String {
        Client::spellings()
    }
}

impl Spelled for Lowering {
    const ONE: &'static str = "a lowering; the lowerings are";
    const LIST: &'static str = "a list of lowerings, such as [\"empty-parameters\"]";
    fn parse(text: &str) -> Option<Lowering> {
        Lowering::parse(text)
    }
    fn spellings() -> String {
        Lowering::spellings()
    }
}

impl<'de, T: Spelled> serde::Deserialize<'de> for Named<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Named<T>, D::Error> {
        let toml::Value::Array(items) = toml::Value::deserialize(deserializer)? else {
            return Err(serde::de::Error::custom(format!("must be {}", T::LIST)));
        };
        let mut names = Vec::with_capacity(items.len());
        for item in items {
            let name = item.as_str().and_then(T::parse).ok_or_else(|| {
                let named = match &item {
                    toml::Value::String(text) => format!("`\"{text}\"`"),
                    other => format!("a {}", other.type_str()),
                };
                serde::de::Error::custom(format!(
                    "names {named}, which is not {} {}",
                    T::ONE,
                    T::spellings()
                ))
            })?;
            if !names.contains(&name) {
                names.push(name);
            }
        }
        Ok(Named(names))
    }
}

/// What a table of levels names: client rules, or lints.
trait Leveled: Sized {
    /// What the table holds, and an example of it.
    const TABLE: &'static str;
    /// Reads a key, or says why it is none.
    fn read(key: &str) -> Result<Self, String>;
}

impl Leveled for Rule {
    const TABLE: &'static str =
        "a table of client rules and levels, such as { A4 = \"warn\", VS5 = \"allow\" }";

    fn read(key: &str) -> Result<Rule, String> {
        Rule::parse(key).ok_or_else(|| {
            format!(
                "names the rule `{key}`, which is not a client rule; docs/clients.md lists them"
            )
        })
    }
}

impl Leveled for Lint {
    const TABLE: &'static str = "a table of lints and levels, such as { undocumented = \"allow\" }";

    fn read(key: &str) -> Result<Lint, String> {
        Lint::parse(key).ok_or_else(|| {
            format!(
                "names the lint `{key}`, which is not one; the lints are {}",
                Lint::spellings()
            )
        })
    }
}

/// How each rule or lint named is reported (`client_levels`,
/// `lint_levels`).
struct Levels<K>(Vec<(K, Level)>);

impl<'de, K: Leveled> serde::Deserialize<'de> for Levels<K> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Levels<K>, D::Error> {
        let toml::Value::Table(table) = toml::Value::deserialize(deserializer)? else {
            return Err(serde::de::Error::custom(format!("must be {}", K::TABLE)));
        };
        let mut levels = Vec::with_capacity(table.len());
        for (key, value) in table {
            let named = K::read(&key).map_err(serde::de::Error::custom)?;
            let level = value.as_str().and_then(Level::parse).ok_or_else(|| {
                serde::de::Error::custom(format!(
                    "sets `{key}` to something other than \"error\", \"warn\" or \"allow\""
                ))
            })?;
            levels.push((named, level));
        }
        Ok(Levels(levels))
    }
}

/// `context_budget = { listing = N, tool = N }`, in tokens.
struct ContextBudget(Budget);

impl<'de> serde::Deserialize<'de> for ContextBudget {
    fn deserialize<D: serde::Deserializer<'de>>(
        deserializer: D,
    ) -> Result<ContextBudget, D::Error> {
        const EXPECTED: &str = "must be a table of token counts, such as { listing = 20000, tool = 1500 }, with `listing`, `tool` or both";
        let toml::Value::Table(table) = toml::Value::deserialize(deserializer)? else {
            return Err(serde::de::Error::custom(EXPECTED));
        };
        let mut budget = Budget::default();
        for (key, value) in table {
            let slot = match key.as_str() {
                "listing" => &mut budget.listing,
                "tool" => &mut budget.tool,
                _ => {
                    return Err(serde::de::Error::custom(format!(
                        "names `{key}`, which is not a budget; the budgets are `listing` (all tools together) and `tool` (any one tool)"
                    )));
                }
            };
            let tokens = value
                .as_integer()
                .and_then(|n| u64::try_from(n).ok())
                .filter(|n| *n > 0)
                .ok_or_else(|| {
                    serde::de::Error::custom(format!(
                        "sets `{key}` to something other than a positive number of tokens"
                    ))
                })?;
            *slot = Some(tokens);
        }
        Ok(ContextBudget(budget))
    }
}

/// A `_meta` prefix, ending in `/`.
struct Namespace(String);

impl<'de> serde::Deserialize<'de> for Namespace {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Namespace, D::Error> {
        let text = Text::deserialize(deserializer)?.0;
        let prefix = if text.ends_with('/') {
            text
        } else {
            format!("{text}/")
        };
        meta_keys::validate_prefix(&prefix)
            .map(|()| Namespace(prefix))
            .map_err(|e| serde::de::Error::custom(format!("`namespace`: {e}")))
    }
}

/// The crate's feature names.
struct Features(Vec<String>);

impl<'de> serde::Deserialize<'de> for Features {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Features, D::Error> {
        value(
            deserializer,
            |v| {
                v.as_array()?
                    .iter()
                    .map(|item| item.as_str().map(str::to_owned))
                    .collect::<Option<Vec<_>>>()
                    .map(Features)
            },
            "must be a list of the crate's feature names, such as [\"extra\"]",
        )
    }
}

/// `profile`: the release profile (`true`) or the dev one.
struct Release(bool);

impl<'de> serde::Deserialize<'de> for Release {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Release, D::Error> {
        value(
            deserializer,
            |v| match v.as_str()? {
                "dev" => Some(Release(false)),
                "release" => Some(Release(true)),
                _ => None,
            },
            "must be \"dev\" (debug_assertions on, the default) or \"release\"",
        )
    }
}

/// Where each setting is written in Cargo.toml, for errors with a line and
/// a column.
struct Places(std::collections::BTreeMap<String, Location>);

impl Places {
    /// The places of `[package.metadata.tooltable]`'s keys in `text` (none
    /// when the file does not read as such).
    fn of(text: &str) -> Places {
        #[derive(Default, serde::Deserialize)]
        #[serde(default)]
        struct Document {
            package: Package,
        }
        #[derive(Default, serde::Deserialize)]
        #[serde(default)]
        struct Package {
            metadata: Metadata,
        }
        #[derive(Default, serde::Deserialize)]
        #[serde(default)]
        struct Metadata {
            tooltable: std::collections::BTreeMap<String, toml::Spanned<toml::Value>>,
        }
        let keys = toml::from_str::<Document>(text)
            .map(|doc| doc.package.metadata.tooltable)
            .unwrap_or_default();
        Places(
            keys.into_iter()
                .map(|(key, value)| {
                    let before = text.get(..value.span().start).unwrap_or(text);
                    let line = before.matches('\n').count() + 1;
                    let line_start = before.rfind('\n').map_or(0, |at| at + 1);
                    // Columns count characters, as the source diagnostics' do.
                    let column = before[line_start..].chars().count() + 1;
                    let place = Location {
                        file: PathBuf::from("Cargo.toml"),
                        line,
                        column,
                    };
                    (key, place)
                })
                .collect(),
        )
    }

    /// `message` about `key`, at its value when its place is known.
    fn error(&self, key: &str, message: String) -> Diagnostic {
        match self.0.get(key) {
            Some(place) => Diagnostic::error(place.clone(), message),
            None => Diagnostic::general(format!("Cargo.toml: {message}")),
        }
    }
}

/// A crate's settings, with defaults filled in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// The package name.
    pub package_name: String,
    /// The package version (`0.0.0` when the manifest inherits or omits it
    /// and cargo does not say).
    pub package_version: String,
    /// The directory holding Cargo.toml.
    pub crate_dir: PathBuf,
    /// The root of the crate that holds the table (the one that invokes
    /// `include_table!`), relative to `crate_dir`.
    pub root: PathBuf,
    /// Where the manifest goes, relative to `crate_dir` (`tools.json`).
    pub manifest: PathBuf,
    /// Where the Markdown docs go, relative to `crate_dir` (`docs/tools.md`).
    pub docs: PathBuf,
    /// A user template for the docs, relative to `crate_dir`.
    pub docs_template: Option<PathBuf>,
    /// Which tool names are accepted.
    pub names: NameProfile,
    /// Prefixes every tool name must start with (none required when empty).
    pub prefixes: Vec<String>,
    /// The `_meta` prefix of the crate's declarations, ending in `/`.
    pub namespace: String,
    /// Inline every subschema instead of using `$ref`, as schemars' setting of that name.
    pub inline_subschemas: bool,
    /// The rewrites of served input schemas the crate opts into.
    pub lowerings: Vec<Lowering>,
    /// Accept destructive tools without `confirm` without a warning.
    pub allow_unconfirmed_destructive: bool,
    /// The build configuration the committed manifest and docs describe.
    pub committed: Declared,
    /// The client profiles every tool must fit (none when empty).
    pub clients: Vec<Client>,
    /// The name clients know the server by, which several put before each
    /// tool's name (the package name unless set).
    pub server_name: String,
    /// The client rules reported otherwise than as errors.
    pub client_levels: Vec<(Rule, Level)>,
    /// The lints of what the model reads reported otherwise than at their
    /// own level.
    pub lint_levels: Vec<(Lint, Level)>,
    /// The most tokens of a model's context the tools may cost.
    pub context_budget: Budget,
    /// Where `context_budget` is written, for the error of a listing over
    /// it.
    pub context_budget_at: Option<Location>,
    /// The crate's entry in the MCP Registry, when it names one.
    pub registry: Option<Registry>,
}

impl Config {
    /// Reads `crate_dir/Cargo.toml`.
    pub fn load(crate_dir: &Path) -> Result<Config, Vec<Diagnostic>> {
        let path = crate_dir.join("Cargo.toml");
        let text = std::fs::read_to_string(&path).map_err(|e| {
            vec![Diagnostic::general(format!(
                "cannot read {}: {e}; run tooltable in a crate's directory, the one holding Cargo.toml",
                path.display()
            ))]
        })?;
        Config::from_manifest_text(crate_dir, &text)
    }

    /// Reads the settings from the text of a Cargo.toml.
    pub fn from_manifest_text(crate_dir: &Path, text: &str) -> Result<Config, Vec<Diagnostic>> {
        let at = |message: String| Diagnostic::general(format!("Cargo.toml: {message}"));
        let doc: toml::Table = text
            .parse()
            .map_err(|e| vec![at(format!("is not valid TOML: {e}"))])?;
        let package = doc
            .get("package")
            .and_then(toml::Value::as_table)
            .ok_or_else(|| {
                vec![at(
                    "has no [package] table; tooltable reads a package's Cargo.toml".into(),
                )]
            })?;
        let package_name = package
            .get("name")
            .and_then(toml::Value::as_str)
            .ok_or_else(|| vec![at("[package] has no `name`".into())])?
            .to_owned();
        let known_version = package_text(package, "version", crate_dir);
        let package_version = known_version.clone().unwrap_or_else(|| "0.0.0".to_owned());
        let settings = match package.get("metadata").and_then(|m| m.get("tooltable")) {
            None => toml::Table::new(),
            Some(toml::Value::Table(settings)) => settings.clone(),
            Some(_) => {
                return Err(vec![at(
                    "[package.metadata.tooltable] must be a table".into()
                )]);
            }
        };
        let places = Places::of(text);
        // serde stops at the first error; each key read alone reports them
        // all, and the keys that read well are read together.
        let mut errors = Vec::new();
        let mut settings = settings;
        settings.retain(|key, value| {
            let alone = toml::Table::from_iter([(key.to_owned(), value.clone())]);
            match Settings::read(alone) {
                Ok(_) => true,
                Err(error) => {
                    errors.push(places.error(key, error));
                    false
                }
            }
        });
        let read = Settings::read(settings).unwrap_or_else(|error| {
            errors.push(at(error));
            Settings::default()
        });
        let declared_features = crate::committed::declared_features(&doc);
        let features = read.features.map(|f| f.0).unwrap_or_default();
        for feature in &features {
            if !declared_features.contains(feature) {
                errors.push(places.error(
                    "features",
                    format!(
                        "[package.metadata.tooltable] `features` names `{feature}`, which [features] does not declare"
                    ),
                ));
            }
        }
        let committed = Requested {
            features,
            no_default_features: read.default_features.is_some_and(|on| !on.0),
            all_features: false,
            release: read.profile.is_some_and(|profile| profile.0),
        }
        .resolve(&doc);
        let root = match read.root {
            Some(root) => PathBuf::from(root.0),
            None => {
                let targets = crate::scan::roots::Targets::of(&doc, crate_dir);
                crate::scan::roots::table_root(&targets, crate_dir).unwrap_or_else(|why| {
                    errors.push(at(why));
                    PathBuf::from("src/lib.rs")
                })
            }
        };
        let registry = read.registry.and_then(|settings| {
            let inherited = |key: &str| package_text(package, key, crate_dir);
            let (description, repository, homepage) = (
                inherited("description"),
                inherited("repository"),
                inherited("homepage"),
            );
            let facts = crate::registry::Package {
                name: &package_name,
                version: known_version.as_deref(),
                description: description.as_deref(),
                repository: repository.as_deref(),
                homepage: homepage.as_deref(),
                readme: package.get("readme"),
            };
            Registry::new(settings, &facts, crate_dir)
                .map_err(|why| {
                    errors.extend(why.into_iter().map(|why| places.error("registry", why)));
                })
                .ok()
        });
        if !errors.is_empty() {
            return Err(errors);
        }
        let text = |value: Option<Text>, default: &str| {
            PathBuf::from(value.map_or(default.to_owned(), |t| t.0))
        };
        let server_name = read
            .server_name
            .map_or_else(|| package_name.clone(), |t| t.0);
        Ok(Config {
            package_name,
            package_version,
            crate_dir: crate_dir.to_path_buf(),
            root,
            manifest: text(read.manifest, "tools.json"),
            docs: text(read.docs, "docs/tools.md"),
            docs_template: read.docs_template.map(|t| PathBuf::from(t.0)),
            names: read.names.map_or(NameProfile::Portable, |n| n.0),
            prefixes: read.prefixes.map(|p| p.0).unwrap_or_default(),
            namespace: read
                .namespace
                .map_or_else(|| DEFAULT_NAMESPACE.to_owned(), |n| n.0),
            inline_subschemas: read.inline_subschemas.is_some_and(|on| on.0),
            allow_unconfirmed_destructive: read
                .allow_unconfirmed_destructive
                .is_some_and(|on| on.0),
            committed,
            clients: read.clients.map(|c| c.0).unwrap_or_default(),
            lowerings: read.lowerings.map(|l| l.0).unwrap_or_default(),
            server_name,
            client_levels: read.client_levels.map(|l| l.0).unwrap_or_default(),
            lint_levels: read.lint_levels.map(|l| l.0).unwrap_or_default(),
            context_budget: read.context_budget.map(|b| b.0).unwrap_or_default(),
            context_budget_at: places.0.get("context_budget").cloned(),
            registry,
        })
    }

    /// How a broken client rule is reported.
    pub fn level(&self, rule: Rule) -> Level {
        tooltable_rules::clients::level(&self.client_levels, rule)
    }

    /// How a finding of `lint` is reported.
    pub fn lint_level(&self, lint: Lint) -> Level {
        tooltable_rules::model_text::level(&self.lint_levels, lint)
    }

    /// The `_meta` key that carries the crate's declarations.
    pub fn declarations_key(&self) -> String {
        format!("{}declarations", self.namespace)
    }
}

/// `[workspace.package] version` of the nearest enclosing workspace, for a
/// package that inherits its version.
/// `[workspace.package] KEY` of the nearest enclosing workspace.
fn workspace_package(crate_dir: &Path, key: &str) -> Option<String> {
    crate_dir.ancestors().skip(1).find_map(|dir| {
        let text = std::fs::read_to_string(dir.join("Cargo.toml")).ok()?;
        let doc: toml::Table = text.parse().ok()?;
        doc.get("workspace")?
            .get("package")?
            .get(key)?
            .as_str()
            .map(str::to_owned)
    })
}

/// `[package] KEY` as a string, followed to the workspace when inherited
/// (`KEY.workspace = true`).
fn package_text(package: &toml::Table, key: &str, crate_dir: &Path) -> Option<String> {
    match package.get(key)? {
        toml::Value::String(text) => Some(text.clone()),
        toml::Value::Table(t)
            if t.get("workspace").and_then(toml::Value::as_bool) == Some(true) =>
        {
            workspace_package(crate_dir, key)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(text: &str) -> Result<Config, Vec<String>> {
        Config::from_manifest_text(Path::new("/nowhere"), text)
            .map_err(|errors| errors.into_iter().map(|e| e.to_string()).collect())
    }

    #[test]
    fn defaults_apply_when_the_crate_says_nothing() {
        let c = config(
            "[package]\nname = \"demo\"\n[package.metadata.tooltable]\nroot = \"src/lib.rs\"\n",
        )
        .unwrap();
        assert_eq!(c.package_name, "demo");
        assert_eq!(c.manifest, PathBuf::from("tools.json"));
        assert_eq!(c.docs, PathBuf::from("docs/tools.md"));
        assert_eq!(c.names, NameProfile::Portable);
        assert_eq!(c.namespace, "dev.tooltable/");
        assert_eq!(c.declarations_key(), "dev.tooltable/declarations");
        assert_eq!(c.clients, []);
        assert_eq!(c.server_name, "demo");
    }

    #[test]
    fn a_registry_entry_is_checked_at_its_key_and_its_unknown_keys_named() {
        let errors = config(
            "[package]\nname = \"demo\"\nversion = \"0.1.0\"\n[package.metadata.tooltable]\nroot = \"src/lib.rs\"\nregistry = { name = \"demo\", description = \"Demo.\" }\n",
        )
        .unwrap_err();
        assert_eq!(
            errors,
            [
                "Cargo.toml:6:12: registry `name` `demo` has no `/` between its namespace and its name; name the server as the registry does, `io.github.OWNER/NAME` for a GitHub account or a reverse domain you own (`com.example/NAME`)"
            ]
        );
        let errors = config(
            "[package]\nname = \"demo\"\n[package.metadata.tooltable]\nroot = \"src/lib.rs\"\n[package.metadata.tooltable.registry]\nname = \"io.github.octo/demo\"\nsummary = \"Demo.\"\n",
        )
        .unwrap_err();
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(
            errors[0].contains("unknown key `summary` in [package.metadata.tooltable.registry]; the keys are name, title, description, file, subfolder, arguments, remotes, icons"),
            "{errors:?}"
        );
        let errors = config(
            "[package]\nname = \"demo\"\n[package.metadata.tooltable]\nroot = \"src/lib.rs\"\nregistry = \"io.github.octo/demo\"\n",
        )
        .unwrap_err();
        assert_eq!(
            errors,
            [
                "Cargo.toml:5:12: [package.metadata.tooltable] `registry` is a table: write `[package.metadata.tooltable.registry]` with `name = \"io.github.OWNER/NAME\"`"
            ]
        );
        let errors = config(
            "[package]\nname = \"demo\"\n[package.metadata.tooltable]\nroot = \"src/lib.rs\"\nregistry = { title = \"Demo\" }\n",
        )
        .unwrap_err();
        assert_eq!(
            errors,
            [
                "Cargo.toml:5:12: [package.metadata.tooltable.registry] needs `name`, the server's name in the MCP Registry, such as `name = \"io.github.OWNER/NAME\"`"
            ]
        );
    }

    #[test]
    fn every_setting_is_read() {
        let settings = r#"
            manifest = "contract/tools.json"
            docs = "TOOLS.md"
            docs_template = "docs/tools.md.j2"
            names = "mcp"
            prefixes = ["notes_", "admin_"]
            namespace = "com.example.notes"
            inline_subschemas = true
            root = "src/server.rs"
            allow_unconfirmed_destructive = true
            features = ["extra"]
            default_features = false
            profile = "release"
            clients = ["cursor", "portable", "cursor"]
            server_name = "notes"
            client_levels = { A4 = "warn", VS5 = "allow" }
            lint_levels = { undocumented = "allow", too-long = "error" }
            context_budget = { listing = 20000, tool = 1500 }
            lowerings = ["optional-not-null", "empty-parameters", "optional-not-null"]
            registry = { name = "io.github.octo/notes", description = "Notes." }
            "#;
        for key in KEYS {
            assert!(
                settings.contains(&format!("\n            {key} = ")),
                "the test sets every key, and not `{key}`"
            );
        }
        let c = config(&format!(
            "[package]\nname = \"demo\"\nversion = \"0.1.0\"\n[features]\ndefault = [\"plain\"]\nplain = []\nextra = []\n[package.metadata.tooltable]\n{settings}"
        ))
        .unwrap();
        assert_eq!(c.manifest, PathBuf::from("contract/tools.json"));
        assert_eq!(c.docs, PathBuf::from("TOOLS.md"));
        assert_eq!(c.docs_template, Some(PathBuf::from("docs/tools.md.j2")));
        assert_eq!(c.names, NameProfile::Mcp);
        assert_eq!(c.prefixes, ["notes_", "admin_"]);
        assert_eq!(c.namespace, "com.example.notes/");
        assert!(c.inline_subschemas);
        assert_eq!(c.root, PathBuf::from("src/server.rs"));
        assert!(c.allow_unconfirmed_destructive);
        assert_eq!(c.clients, [Client::Cursor, Client::Portable]);
        assert_eq!(c.server_name, "notes");
        assert_eq!(c.level(Rule::A4), Level::Warn);
        assert_eq!(c.level(Rule::VS5), Level::Allow);
        assert_eq!(c.level(Rule::CU1), Level::Error);
        assert_eq!(c.lint_level(Lint::Undocumented), Level::Allow);
        assert_eq!(c.lint_level(Lint::TooLong), Level::Error);
        assert_eq!(c.lint_level(Lint::Invisible), Level::Error);
        assert_eq!(
            c.context_budget,
            Budget {
                listing: Some(20000),
                tool: Some(1500)
            }
        );
        assert_eq!(c.context_budget_at.map(|at| at.line), Some(26));
        assert_eq!(
            c.lowerings,
            [Lowering::OptionalNotNull, Lowering::EmptyParameters],
            "in the order named, each once"
        );
        assert_eq!(c.registry.unwrap().name, "io.github.octo/notes");
        assert_eq!(
            c.committed,
            Declared {
                features: ["extra".to_owned()].into(),
                debug_assertions: false,
            },
            "features, default_features and profile choose the committed build"
        );
    }

    #[test]
    fn unknown_keys_and_bad_values_are_all_reported() {
        let errors = config(
            "[package]\nname = \"d\"\n[package.metadata.tooltable]\nroot = \"r.rs\"\nname = \"x\"\nnames = \"strict\"\nnamespace = \"io.mcp\"\nprefixes = [1]\n",
        )
        .unwrap_err();
        assert_eq!(errors.len(), 4, "{errors:?}");
        assert!(
            errors[0]
                .starts_with("Cargo.toml:5:8: unknown key `name` in [package.metadata.tooltable]"),
            "{errors:?}"
        );
        assert!(
            errors
                .iter()
                .any(|e| e.contains("`names = \"strict\"` is not a name profile"))
        );
        assert!(errors.iter().any(|e| e.contains("is reserved for MCP")));
    }

    #[test]
    fn a_context_budget_that_is_not_positive_token_counts_is_refused_at_its_value() {
        let errors = |budget: &str| {
            config(&format!(
                "[package]\nname = \"d\"\n[package.metadata.tooltable]\nroot = \"r.rs\"\ncontext_budget = {budget}\n"
            ))
            .unwrap_err()
        };
        assert_eq!(
            errors("{ tools = 5 }"),
            [
                "Cargo.toml:5:18: [package.metadata.tooltable] `context_budget` names `tools`, which is not a budget; the budgets are `listing` (all tools together) and `tool` (any one tool)"
            ]
        );
        assert!(
            errors("{ tool = 0 }")[0]
                .ends_with("sets `tool` to something other than a positive number of tokens")
        );
        assert!(errors("2000")[0].contains("must be a table of token counts"));
    }

    #[test]
    fn a_mistake_is_located_in_characters_not_bytes() {
        let errors = config(
            "[package]\nname = \"d\"\n[package.metadata.tooltable]\n\"ключ\" = 1\nroot = \"r.rs\"\n",
        )
        .unwrap_err();
        assert!(
            errors[0].starts_with("Cargo.toml:4:10: unknown key `ключ`"),
            "{errors:?}"
        );
    }

    #[test]
    fn a_manifest_that_is_not_toml_is_refused() {
        let errors = config("[package\n").unwrap_err();
        assert!(
            errors[0].starts_with("Cargo.toml: is not valid TOML"),
            "{errors:?}"
        );
    }
}
