//! Which of a package's crates holds the table.
//!
//! A package builds a library and binaries from roots cargo finds by
//! convention (`src/lib.rs`, `src/main.rs`, `src/bin/*.rs`,
//! `src/bin/*/main.rs`) or that `[lib]` and `[[bin]]` name. The table is
//! baked into the crate that invokes `include_table!()`, whose modules hold
//! the tools, so that is the root the build reads. A library that invokes
//! it is chosen without reading any binary (an edit of `src/main.rs` then
//! reruns nothing); otherwise each root is read to find the one that does.

use std::path::{Path, PathBuf};

/// The roots of the crates a package builds.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Targets {
    /// The library's root, if the package has one.
    pub lib: Option<PathBuf>,
    /// Each binary's root, as cargo finds them.
    pub bins: Vec<PathBuf>,
}

impl Targets {
    /// The roots of the package whose manifest is `doc`, in `crate_dir`,
    /// relative to it: `[lib]` and `[[bin]]` paths, and cargo's conventions
    /// unless `autolib` or `autobins` turns them off.
    pub fn of(doc: &toml::Table, crate_dir: &Path) -> Targets {
        let package = doc.get("package").and_then(toml::Value::as_table);
        let auto = |key: &str| {
            package
                .and_then(|p| p.get(key))
                .and_then(toml::Value::as_bool)
                .unwrap_or(true)
        };
        let exists = |path: &Path| crate_dir.join(path).is_file();
        let lib = match doc
            .get("lib")
            .and_then(|l| l.get("path"))
            .and_then(toml::Value::as_str)
        {
            Some(path) => Some(PathBuf::from(path)),
            None => Some(PathBuf::from("src/lib.rs")).filter(|p| auto("autolib") && exists(p)),
        };
        let mut bins: Vec<PathBuf> = doc
            .get("bin")
            .and_then(toml::Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|bin| bin.get("path").and_then(toml::Value::as_str))
            .map(PathBuf::from)
            .collect();
        if auto("autobins") {
            let main = PathBuf::from("src/main.rs");
            if exists(&main) {
                bins.push(main);
            }
            bins.extend(conventional_bins(crate_dir));
        }
        bins.dedup();
        Targets { lib, bins }
    }
}

/// `src/bin/NAME.rs` and `src/bin/NAME/main.rs`, in name order.
fn conventional_bins(crate_dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(crate_dir.join("src/bin")) else {
        return Vec::new();
    };
    let mut bins: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let name = entry.file_name();
            let relative = Path::new("src/bin").join(&name);
            let path = entry.path();
            if path.is_file() && path.extension().is_some_and(|e| e == "rs") {
                Some(relative)
            } else if path.join("main.rs").is_file() {
                Some(relative.join("main.rs"))
            } else {
                None
            }
        })
        .collect();
    bins.sort();
    bins
}

/// The root of the crate that holds the table, relative to `crate_dir`:
/// the one whose root file invokes `include_table!`, the library first; the
/// library (else `src/main.rs`) when none does, so that a crate without
/// the invocation yet still reads its tools; or why no root can be chosen.
pub fn table_root(targets: &Targets, crate_dir: &Path) -> Result<PathBuf, String> {
    if let Some(lib) = &targets.lib
        && includes_table(&crate_dir.join(lib))
    {
        return Ok(lib.clone());
    }
    let including: Vec<&PathBuf> = targets
        .bins
        .iter()
        .filter(|bin| includes_table(&crate_dir.join(bin)))
        .collect();
    match including.as_slice() {
        [one] => Ok((*one).clone()),
        [] => targets
            .lib
            .clone()
            .or_else(|| targets.bins.first().cloned())
            .ok_or_else(|| {
                "the package has neither a library nor a binary (no src/lib.rs, src/main.rs or [[bin]] path); set `root = \"path/to/root.rs\"` in [package.metadata.tooltable]".to_owned()
            }),
        several => Err(format!(
            "{} each invoke `include_table!()`, but a package bakes one table; keep the invocation in the crate whose modules hold the tools, or set `root = \"{}\"` in [package.metadata.tooltable] for the one to read",
            several
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(" and "),
            several[0].display()
        )),
    }
}

/// Whether the file at `path` invokes `include_table!` among its items
/// (`include_table!()`, `tooltable::include_table!()`, …). A file that
/// cannot be read or parsed does not: the scan reports it, if it is read.
fn includes_table(path: &Path) -> bool {
    let Ok(text) = std::fs::read_to_string(path) else {
        return false;
    };
    // Most roots never name it: a scan of the text, before any parse.
    if !text.contains("include_table") {
        return false;
    }
    let Ok(file) = syn::parse_file(&text) else {
        return false;
    };
    file.items.iter().any(|item| {
        matches!(item, syn::Item::Macro(invocation)
            if invocation.mac.path.segments.last().is_some_and(|s| s.ident == "include_table"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Package(PathBuf);

    impl Drop for Package {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn package(tag: &str, files: &[(&str, &str)]) -> (Package, Targets) {
        let dir =
            std::env::temp_dir().join(format!("tooltable-roots-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for (path, text) in files {
            let path = dir.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        let manifest = files
            .iter()
            .find(|(path, _)| *path == "Cargo.toml")
            .map_or("[package]\nname = \"p\"\n", |(_, text)| text);
        let targets = Targets::of(&manifest.parse().unwrap(), &dir);
        (Package(dir), targets)
    }

    const TABLE: &str = "mod tools;\ntooltable::include_table!();\n";

    #[test]
    fn a_library_that_includes_the_table_is_its_root() {
        let (dir, targets) = package(
            "lib",
            &[("src/lib.rs", TABLE), ("src/main.rs", "fn main() {}")],
        );
        assert_eq!(
            table_root(&targets, &dir.0),
            Ok(PathBuf::from("src/lib.rs"))
        );
    }

    #[test]
    fn a_binary_that_includes_the_table_beside_a_library_that_does_not_is_its_root() {
        let (dir, targets) = package(
            "main",
            &[("src/lib.rs", "pub struct Store;"), ("src/main.rs", TABLE)],
        );
        assert_eq!(
            table_root(&targets, &dir.0),
            Ok(PathBuf::from("src/main.rs"))
        );
    }

    #[test]
    fn binaries_named_in_the_manifest_or_by_convention_are_roots() {
        let (dir, targets) = package(
            "bins",
            &[
                (
                    "Cargo.toml",
                    "[package]\nname = \"p\"\n[[bin]]\nname = \"server\"\npath = \"app/server.rs\"\n",
                ),
                ("app/server.rs", TABLE),
                ("src/bin/admin.rs", "fn main() {}"),
                ("src/bin/tool/main.rs", "fn main() {}"),
            ],
        );
        assert_eq!(
            targets.bins,
            ["app/server.rs", "src/bin/admin.rs", "src/bin/tool/main.rs"].map(PathBuf::from)
        );
        assert_eq!(
            table_root(&targets, &dir.0),
            Ok(PathBuf::from("app/server.rs"))
        );
    }

    #[test]
    fn a_mention_in_a_comment_or_a_string_is_no_invocation() {
        let (dir, targets) = package(
            "mention",
            &[
                ("src/lib.rs", "pub struct Store;"),
                (
                    "src/main.rs",
                    "// tooltable::include_table!();\nfn main() { let _ = \"include_table!()\"; }",
                ),
            ],
        );
        assert_eq!(
            table_root(&targets, &dir.0),
            Ok(PathBuf::from("src/lib.rs"))
        );
    }

    #[test]
    fn two_crates_that_include_the_table_are_refused_naming_both() {
        let (dir, targets) = package("two", &[("src/bin/a.rs", TABLE), ("src/bin/b.rs", TABLE)]);
        let refusal = table_root(&targets, &dir.0).unwrap_err();
        assert!(
            refusal.starts_with("src/bin/a.rs and src/bin/b.rs each invoke"),
            "{refusal}"
        );
        assert!(refusal.contains("root = \"src/bin/a.rs\""), "{refusal}");
    }
}
