//! The features a plain `cargo build` enables: `[features] default`, transitively.
//!
//! The command reads a crate without cargo, so it works out the cfgs itself:
//! the host's target cfgs (see [`tooltable_codegen::analysis::CfgEnv::host`]) and the
//! crate's default features, following features that enable other
//! features. `dep:x` and `x/feature` entries concern dependencies, not the
//! crate's own cfgs, except that `x/feature` on an optional dependency
//! `x` also turns on its implicit feature `x` (`x?/feature` does not).

use std::collections::BTreeSet;

/// The default features of the package whose Cargo.toml is `manifest`.
pub fn default_features(manifest: &toml::Table) -> BTreeSet<String> {
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
    let mut pending = vec!["default".to_owned()];
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

    #[test]
    fn default_features_are_followed_transitively() {
        let manifest: toml::Table = r#"
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
        .unwrap();
        let features: Vec<String> = default_features(&manifest).into_iter().collect();
        assert_eq!(features, ["a", "b", "extra"]);
    }

    #[test]
    fn a_crate_without_features_has_none() {
        let manifest: toml::Table = "[package]\nname = \"x\"\n".parse().unwrap();
        assert!(default_features(&manifest).is_empty());
    }
}
