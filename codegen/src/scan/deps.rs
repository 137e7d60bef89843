//! A crate's path dependencies: where their sources are, what the crate
//! calls them, and which of their features the build enables.
//!
//! Workspaces often keep their contract types in a crate of their own, and
//! a tool's parameters then name `contracts::Ticket`. Such a crate's sources
//! are on disk beside the server's, so the build reads them as it reads the
//! server's own. Read from `[dependencies]`: an entry with `path`, directly
//! or through `workspace = true` and the workspace's
//! `[workspace.dependencies]`. Its name in code is the entry's key when it
//! renames the package, else the library's name (`[lib] name`, or the
//! package's with `-` as `_`). Its features are those cargo enables from
//! here: the entry's `features`, `default` unless `default-features =
//! false`, and `dep/feature` items of the crate's enabled features, closed
//! over the dependency's own `[features]` table. (Another crate of the
//! build may enable more; cargo unifies them, which this crate's build
//! cannot see.) An optional dependency counts when one of the crate's
//! enabled features enables it. Registry and git dependencies are not read:
//! their types are those of [`known`](crate::lower::known); nor are
//! tooltable's own crates (a workspace may depend on them by path), which
//! hold no parameter types.

use super::cfg::CfgEnv;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// tooltable's own packages.
const TOOLTABLE: [&str; 5] = [
    "tooltable",
    "tooltable-rules",
    "tooltable-runtime",
    "tooltable-macros",
    "tooltable-codegen",
];

/// A path dependency to read.
#[derive(Debug)]
pub struct PathDependency {
    /// What the depending crate's code calls it.
    pub name: String,
    /// Its directory.
    pub dir: PathBuf,
    /// Its library's root file.
    pub root: PathBuf,
    /// Its manifest.
    pub manifest: toml::Table,
    /// The features enabled for it.
    pub features: BTreeSet<String>,
}

/// What code calls the library of the package whose manifest is
/// `manifest`, unless a dependency entry renames it: `[lib] name`, else
/// the package's name, with `-` as `_`.
pub fn lib_name(manifest: &toml::Table) -> Option<String> {
    let lib = manifest
        .get("lib")
        .and_then(|l| l.get("name"))
        .and_then(toml::Value::as_str);
    let package = manifest
        .get("package")
        .and_then(|p| p.get("name"))
        .and_then(toml::Value::as_str);
    lib.or(package).map(|name| name.replace('-', "_"))
}

/// The path dependencies of the crate in `dir` whose manifest is
/// `manifest`, built with `cfg`'s features; one whose manifest cannot be
/// read is left out (its own build says why).
pub fn path_dependencies(dir: &Path, manifest: &toml::Table, cfg: &CfgEnv) -> Vec<PathDependency> {
    let mut found = Vec::new();
    let Some(dependencies) = manifest.get("dependencies").and_then(toml::Value::as_table) else {
        return found;
    };
    let enabled = enabled_features(manifest, cfg);
    let workspace = WorkspaceRoot::above(dir);
    for (key, entry) in dependencies {
        let Some(entry) = entry.as_table() else {
            continue;
        };
        let inherited = entry.get("workspace").and_then(toml::Value::as_bool) == Some(true);
        let (base, path, shared) = if inherited {
            let Some(shared) = workspace.as_ref().and_then(|w| w.dependency(key)) else {
                continue;
            };
            let Some(path) = shared.get("path").and_then(toml::Value::as_str) else {
                continue;
            };
            let root_dir = workspace
                .as_ref()
                .map(|w| w.dir.clone())
                .unwrap_or_default();
            (root_dir, path.to_owned(), Some(shared))
        } else {
            let Some(path) = entry.get("path").and_then(toml::Value::as_str) else {
                continue;
            };
            (dir.to_path_buf(), path.to_owned(), None)
        };
        let optional = entry.get("optional").and_then(toml::Value::as_bool) == Some(true);
        if optional && !enables(&enabled, manifest, key) {
            continue;
        }
        let dep_dir = base.join(&path);
        let manifest_path = dep_dir.join("Cargo.toml");
        let Some(dep_manifest) = std::fs::read_to_string(&manifest_path)
            .ok()
            .and_then(|text| text.parse::<toml::Table>().ok())
        else {
            continue;
        };
        let package = dep_manifest
            .get("package")
            .and_then(|p| p.get("name"))
            .and_then(toml::Value::as_str)
            .unwrap_or(key);
        if TOOLTABLE.contains(&package) {
            continue;
        }
        let renamed =
            entry.contains_key("package") || shared.is_some_and(|s| s.contains_key("package"));
        let lib = dep_manifest.get("lib").and_then(toml::Value::as_table);
        let name = match lib_name(&dep_manifest) {
            Some(name) if !renamed => name,
            _ => key.replace('-', "_"),
        };
        let root = dep_dir.join(
            lib.and_then(|l| l.get("path"))
                .and_then(toml::Value::as_str)
                .unwrap_or("src/lib.rs"),
        );
        let mut requested: BTreeSet<String> = strings(entry.get("features")).collect();
        requested.extend(strings(shared.and_then(|s| s.get("features"))));
        let no_defaults = |t: Option<&toml::Table>| {
            t.and_then(|t| {
                t.get("default-features")
                    .or_else(|| t.get("default_features"))
            })
            .and_then(toml::Value::as_bool)
                == Some(false)
        };
        let defaults = if inherited {
            !no_defaults(shared)
        } else {
            !no_defaults(Some(entry))
        };
        if defaults {
            requested.insert("default".into());
        }
        for feature in &enabled {
            if let Some(items) = manifest
                .get("features")
                .and_then(|f| f.get(feature))
                .and_then(toml::Value::as_array)
            {
                for item in items.iter().filter_map(toml::Value::as_str) {
                    let item = item.replacen('?', "", 1);
                    if let Some((dependency, enabled)) = item.split_once('/')
                        && dependency == key
                    {
                        requested.insert(enabled.to_owned());
                    }
                }
            }
        }
        let features = closed_over(&dep_manifest, requested);
        found.push(PathDependency {
            name,
            dir: dep_dir,
            root,
            manifest: dep_manifest,
            features,
        });
    }
    found
}

/// The features of `manifest`'s `[features]` that `cfg` enables.
fn enabled_features(manifest: &toml::Table, cfg: &CfgEnv) -> BTreeSet<String> {
    manifest
        .get("features")
        .and_then(toml::Value::as_table)
        .map(|features| {
            features
                .keys()
                .filter(|f| cfg.has_feature(f))
                .cloned()
                .collect()
        })
        .unwrap_or_default()
}

/// Whether an enabled feature turns on the optional dependency `key`
/// (`dep:key`, `key/feature`, or the implicit feature `key`).
fn enables(enabled: &BTreeSet<String>, manifest: &toml::Table, key: &str) -> bool {
    enabled.contains(key)
        || enabled.iter().any(|feature| {
            manifest
                .get("features")
                .and_then(|f| f.get(feature))
                .and_then(toml::Value::as_array)
                .is_some_and(|items| {
                    items.iter().filter_map(toml::Value::as_str).any(|item| {
                        item == format!("dep:{key}")
                            || item
                                .split_once('/')
                                .is_some_and(|(d, _)| d.trim_end_matches('?') == key)
                    })
                })
        })
}

/// `requested` with every feature they enable in `manifest`'s own table.
fn closed_over(manifest: &toml::Table, requested: BTreeSet<String>) -> BTreeSet<String> {
    let table = manifest.get("features").and_then(toml::Value::as_table);
    let mut done = BTreeSet::new();
    let mut pending: Vec<String> = requested.into_iter().collect();
    while let Some(feature) = pending.pop() {
        if !done.insert(feature.clone()) {
            continue;
        }
        let items = table
            .and_then(|t| t.get(&feature))
            .and_then(toml::Value::as_array);
        for item in items.into_iter().flatten().filter_map(toml::Value::as_str) {
            if !item.contains(':') && !item.contains('/') {
                pending.push(item.to_owned());
            }
        }
    }
    done
}

fn strings(value: Option<&toml::Value>) -> impl Iterator<Item = String> + '_ {
    value
        .and_then(toml::Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(toml::Value::as_str)
        .map(str::to_owned)
}

/// The nearest enclosing workspace's root manifest.
struct WorkspaceRoot {
    dir: PathBuf,
    manifest: toml::Table,
}

impl WorkspaceRoot {
    fn above(dir: &Path) -> Option<WorkspaceRoot> {
        dir.ancestors().find_map(|candidate| {
            let text = std::fs::read_to_string(candidate.join("Cargo.toml")).ok()?;
            let manifest: toml::Table = text.parse().ok()?;
            manifest.contains_key("workspace").then(|| WorkspaceRoot {
                dir: candidate.to_path_buf(),
                manifest,
            })
        })
    }

    fn dependency(&self, key: &str) -> Option<&toml::Table> {
        self.manifest
            .get("workspace")?
            .get("dependencies")?
            .get(key)?
            .as_table()
    }
}
