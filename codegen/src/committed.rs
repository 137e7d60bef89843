//! The one build configuration the committed manifest and docs describe.
//!
//! Features and cfgs change more than which tools exist: a field, a variant
//! or a `rename_all` can be gated too, so a tool's schema and fingerprint
//! can differ between feature sets. If every build wrote the committed
//! files, `tools.json` in git would follow whoever built last (`--features
//! extra`, `--all-features`, an editor's settings), and `tooltable check`
//! would disagree with one of them. So the committed files describe one
//! declared configuration: the default features and the dev profile
//! (`debug_assertions` on), unless `[package.metadata.tooltable]` names
//! others (`features`, `default_features`, `profile`). Every build bakes
//! its own table, and writes the committed files as the declared
//! configuration would have them, whatever its own features and profile;
//! `tooltable check` checks the same configuration.

use std::collections::BTreeSet;

/// The features and profile the committed files describe.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Declared {
    /// The crate's own features enabled, following features that enable
    /// others.
    pub features: BTreeSet<String>,
    /// Whether `debug_assertions` is on (the dev profile) or off (release).
    pub debug_assertions: bool,
}

/// A build configuration asked for by name, as on cargo's command line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Requested {
    /// Features to enable besides the defaults.
    pub features: Vec<String>,
    /// Leave the default features off (`--no-default-features`).
    pub no_default_features: bool,
    /// Every feature the crate declares (`--all-features`).
    pub all_features: bool,
    /// The release profile (`debug_assertions` off).
    pub release: bool,
}

impl Requested {
    /// The same configuration as cargo's command-line flags (none for the
    /// default features in the dev profile).
    pub fn flags(&self) -> Vec<String> {
        let mut flags = Vec::new();
        if !self.features.is_empty() {
            flags.push(format!("--features={}", self.features.join(",")));
        }
        for (on, flag) in [
            (self.all_features, "--all-features"),
            (self.no_default_features, "--no-default-features"),
            (self.release, "--release"),
        ] {
            if on {
                flags.push(flag.to_owned());
            }
        }
        flags
    }

    /// The configuration this asks for of the crate whose Cargo.toml is
    /// `manifest`.
    pub fn resolve(&self, manifest: &toml::Table) -> Declared {
        let mut roots: Vec<String> = self.features.clone();
        if !self.no_default_features {
            roots.push("default".to_owned());
        }
        if self.all_features {
            roots.extend(declared_features(manifest));
        }
        Declared {
            features: enabled_features(manifest, roots),
            debug_assertions: !self.release,
        }
    }
}

/// The names of the features `[features]` declares.
pub(crate) fn declared_features(manifest: &toml::Table) -> Vec<String> {
    manifest
        .get("features")
        .and_then(toml::Value::as_table)
        .map(|features| features.keys().cloned().collect())
        .unwrap_or_default()
}

/// The crate's own features that `roots` enable, transitively. `dep:x` and
/// `x/feature` entries concern dependencies, not the crate's own cfgs,
/// except that `x/feature` on an optional dependency `x` also turns on its
/// implicit feature `x` (`x?/feature` does not).
fn enabled_features(manifest: &toml::Table, roots: Vec<String>) -> BTreeSet<String> {
    let empty = toml::Table::new();
    let features = manifest
        .get("features")
        .and_then(toml::Value::as_table)
        .unwrap_or(&empty);
    let optional_deps: BTreeSet<&str> = ["dependencies", "build-dependencies"]
        .iter()
        .filter_map(|key| manifest.get(*key).and_then(toml::Value::as_table))
        .flat_map(|deps| deps.iter())
        .filter(|(_, spec)| spec.get("optional").and_then(toml::Value::as_bool) == Some(true))
        .map(|(name, _)| name.as_str())
        .collect();
    let mut enabled = BTreeSet::new();
    let mut pending = roots;
    while let Some(feature) = pending.pop() {
        // `dep:x` enables a dependency, not a feature; `x?/f` enables
        // nothing unless `x` is on for another reason.
        if feature.starts_with("dep:") || feature.contains("?/") {
            continue;
        }
        let own = match feature.split_once('/') {
            Some((dep, _)) => dep.to_owned(),
            None => feature.clone(),
        };
        if feature.contains('/') && !optional_deps.contains(own.as_str()) {
            continue;
        }
        if !enabled.insert(own.clone()) {
            continue;
        }
        if let Some(list) = features.get(&own).and_then(toml::Value::as_array) {
            pending.extend(
                list.iter()
                    .filter_map(toml::Value::as_str)
                    .map(str::to_owned),
            );
        }
    }
    enabled.remove("default");
    enabled
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest() -> toml::Table {
        r#"
            [features]
            default = ["a", "dep:hidden", "serde/derive", "extra/x", "weak?/x"]
            a = ["b"]
            b = []
            c = []
            [dependencies]
            serde = "1"
            extra = { version = "1", optional = true }
            hidden = { version = "1", optional = true }
            weak = { version = "1", optional = true }
        "#
        .parse()
        .unwrap()
    }

    #[test]
    fn default_features_are_followed_transitively() {
        let declared = Requested::default().resolve(&manifest());
        let features: Vec<&str> = declared.features.iter().map(String::as_str).collect();
        assert_eq!(features, ["a", "b", "extra"]);
        assert!(declared.debug_assertions, "the dev profile");
    }

    #[test]
    fn a_requested_configuration_is_resolved_as_cargo_would() {
        let manifest = manifest();
        let only_c = Requested {
            features: vec!["c".into()],
            no_default_features: true,
            release: true,
            ..Requested::default()
        }
        .resolve(&manifest);
        assert_eq!(only_c.features, BTreeSet::from(["c".to_owned()]));
        assert!(!only_c.debug_assertions);
        let all = Requested {
            all_features: true,
            ..Requested::default()
        }
        .resolve(&manifest);
        let features: Vec<&str> = all.features.iter().map(String::as_str).collect();
        assert_eq!(features, ["a", "b", "c", "extra"]);
    }

    #[test]
    fn a_configuration_is_written_back_as_cargos_flags() {
        let requested = Requested {
            features: vec!["a".into(), "c".into()],
            release: true,
            ..Requested::default()
        };
        assert_eq!(requested.flags(), ["--features=a,c", "--release"]);
        assert!(Requested::default().flags().is_empty());
    }

    #[test]
    fn a_crate_without_features_has_none() {
        let manifest: toml::Table = "[package]\nname = \"x\"\n".parse().unwrap();
        assert!(Requested::default().resolve(&manifest).features.is_empty());
    }
}
