//! The crate's tooltable settings, from `[package.metadata.tooltable]`.
//!
//! All build-time configuration lives in data rather than in `build.rs`, so
//! that the `tooltable` command can read a crate exactly as its build script
//! does, without compiling anything. Unknown keys are errors: a misspelt
//! setting that silently does nothing is worse than a failed build.

use crate::committed::{Declared, Requested};
use crate::diagnostic::Diagnostic;
use std::path::{Path, PathBuf};
use tooltable_rules::meta_keys;
use tooltable_rules::names::NameProfile;

/// The `_meta` prefix used when the crate names none.
pub const DEFAULT_NAMESPACE: &str = "dev.tooltable/";

/// The keys of `[package.metadata.tooltable]`.
pub const KEYS: [&str; 12] = [
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
];

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
    /// Accept destructive tools without `confirm` without a warning.
    pub allow_unconfirmed_destructive: bool,
    /// The build configuration the committed manifest and docs describe.
    pub committed: Declared,
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
        let package_version = match package.get("version") {
            Some(toml::Value::String(version)) => version.clone(),
            Some(toml::Value::Table(t))
                if t.get("workspace").and_then(toml::Value::as_bool) == Some(true) =>
            {
                workspace_version(crate_dir).unwrap_or_else(|| "0.0.0".to_owned())
            }
            _ => "0.0.0".to_owned(),
        };
        let empty = toml::Table::new();
        let settings = package
            .get("metadata")
            .and_then(|m| m.get("tooltable"))
            .map(|t| {
                t.as_table()
                    .ok_or_else(|| vec![at("[package.metadata.tooltable] must be a table".into())])
            })
            .transpose()?
            .unwrap_or(&empty);

        let mut errors = Vec::new();
        for key in settings.keys() {
            if !KEYS.contains(&key.as_str()) {
                errors.push(at(format!(
                    "unknown key `{key}` in [package.metadata.tooltable]; the keys are {}",
                    KEYS.join(", ")
                )));
            }
        }
        let mut string = |key: &str| -> Option<String> {
            match settings.get(key) {
                None => None,
                Some(toml::Value::String(s)) if !s.is_empty() => Some(s.clone()),
                Some(_) => {
                    errors.push(at(format!(
                        "[package.metadata.tooltable] `{key}` must be a non-empty string"
                    )));
                    None
                }
            }
        };
        let manifest = string("manifest").unwrap_or_else(|| "tools.json".into());
        let docs = string("docs").unwrap_or_else(|| "docs/tools.md".into());
        let docs_template = string("docs_template");
        let root_setting = string("root");
        let names_text = string("names");
        let namespace_text = string("namespace");
        let names = match names_text {
            None => NameProfile::Portable,
            Some(text) => NameProfile::parse(&text).unwrap_or_else(|| {
                errors.push(at(format!(
                    "[package.metadata.tooltable] `names = \"{text}\"` is not a name profile; use \"portable\" (the default) or \"mcp\""
                )));
                NameProfile::Portable
            }),
        };
        let namespace = match namespace_text {
            None => DEFAULT_NAMESPACE.to_owned(),
            Some(text) => {
                let prefix = if text.ends_with('/') {
                    text
                } else {
                    format!("{text}/")
                };
                if let Err(e) = meta_keys::validate_prefix(&prefix) {
                    errors.push(at(format!("[package.metadata.tooltable] `namespace`: {e}")));
                }
                prefix
            }
        };
        let mut boolean = |key: &str| match settings.get(key) {
            None => false,
            Some(toml::Value::Boolean(b)) => *b,
            Some(_) => {
                errors.push(at(format!(
                    "[package.metadata.tooltable] `{key}` must be true or false"
                )));
                false
            }
        };
        let inline_subschemas = boolean("inline_subschemas");
        let allow_unconfirmed_destructive = boolean("allow_unconfirmed_destructive");
        let no_default_features = match settings.get("default_features") {
            None => false,
            Some(toml::Value::Boolean(b)) => !*b,
            Some(_) => {
                errors.push(at(
                    "[package.metadata.tooltable] `default_features` must be true or false".into(),
                ));
                false
            }
        };
        let features: Vec<String> = match settings.get("features") {
            None => Vec::new(),
            Some(toml::Value::Array(items)) if items.iter().all(toml::Value::is_str) => items
                .iter()
                .filter_map(toml::Value::as_str)
                .map(str::to_owned)
                .collect(),
            Some(_) => {
                errors.push(at(
                    "[package.metadata.tooltable] `features` must be a list of the crate's feature names, such as [\"extra\"]".into(),
                ));
                Vec::new()
            }
        };
        let declared_features = crate::committed::declared_features(&doc);
        for feature in &features {
            if !declared_features.contains(feature) {
                errors.push(at(format!(
                    "[package.metadata.tooltable] `features` names `{feature}`, which [features] does not declare"
                )));
            }
        }
        let release = match settings.get("profile").map(toml::Value::as_str) {
            None | Some(Some("dev")) => false,
            Some(Some("release")) => true,
            Some(_) => {
                errors.push(at(
                    "[package.metadata.tooltable] `profile` must be \"dev\" (debug_assertions on, the default) or \"release\"".into(),
                ));
                false
            }
        };
        let committed = Requested {
            features,
            no_default_features,
            all_features: false,
            release,
        }
        .resolve(&doc);
        let prefixes = match settings.get("prefixes") {
            None => Vec::new(),
            Some(toml::Value::Array(items)) => items
                .iter()
                .filter_map(|item| match item.as_str() {
                    Some(s) if !s.is_empty() => Some(s.to_owned()),
                    _ => {
                        errors.push(at(
                            "[package.metadata.tooltable] `prefixes` must be a list of non-empty strings, such as [\"notes_\"]".into(),
                        ));
                        None
                    }
                })
                .collect(),
            Some(_) => {
                errors.push(at(
                    "[package.metadata.tooltable] `prefixes` must be a list of strings, such as [\"notes_\"]".into(),
                ));
                Vec::new()
            }
        };
        let root = match root_setting {
            Some(root) => PathBuf::from(root),
            None => {
                let targets = crate::scan::roots::Targets::of(&doc, crate_dir);
                crate::scan::roots::table_root(&targets, crate_dir).unwrap_or_else(|why| {
                    errors.push(at(why));
                    PathBuf::from("src/lib.rs")
                })
            }
        };
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(Config {
            package_name,
            package_version,
            crate_dir: crate_dir.to_path_buf(),
            root,
            manifest: PathBuf::from(manifest),
            docs: PathBuf::from(docs),
            docs_template: docs_template.map(PathBuf::from),
            names,
            prefixes,
            namespace,
            inline_subschemas,
            allow_unconfirmed_destructive,
            committed,
        })
    }

    /// The `_meta` key that carries the crate's declarations.
    pub fn declarations_key(&self) -> String {
        format!("{}declarations", self.namespace)
    }
}

/// `[workspace.package] version` of the nearest enclosing workspace, for a
/// package that inherits its version.
fn workspace_version(crate_dir: &Path) -> Option<String> {
    crate_dir.ancestors().skip(1).find_map(|dir| {
        let text = std::fs::read_to_string(dir.join("Cargo.toml")).ok()?;
        let doc: toml::Table = text.parse().ok()?;
        doc.get("workspace")?
            .get("package")?
            .get("version")?
            .as_str()
            .map(str::to_owned)
    })
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
            "#;
        for key in KEYS {
            assert!(
                settings.contains(&format!("\n            {key} = ")),
                "the test sets every key, and not `{key}`"
            );
        }
        let c = config(&format!(
            "[package]\nname = \"demo\"\n[features]\ndefault = [\"plain\"]\nplain = []\nextra = []\n[package.metadata.tooltable]\n{settings}"
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
            errors[0].starts_with("Cargo.toml: unknown key `name` in [package.metadata.tooltable]")
        );
        assert!(
            errors
                .iter()
                .any(|e| e.contains("`names = \"strict\"` is not a name profile"))
        );
        assert!(errors.iter().any(|e| e.contains("is reserved for MCP")));
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
