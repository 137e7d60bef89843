//! Each crate's files import one way: no file reaches, through `crate::`
//! or `super::` paths, a file that reaches back to it. A circle between
//! files is a layering mistake (a transport inside the policy core, a
//! setting owned by the server and needed by the transports); this test
//! names the files of every circle, and each edge, so it can be cut.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every module of a crate's `src` by its path (`serve::http::service`), and
/// its file.
fn modules(root: &Path) -> BTreeMap<String, PathBuf> {
    fn walk(dir: &Path, root: &Path, out: &mut BTreeMap<String, PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, root, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let relative = path.strip_prefix(root).unwrap().with_extension("");
                let mut parts: Vec<String> = relative
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
                    parts.pop();
                }
                out.insert(parts.join("::"), path);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(root, root, &mut out);
    out
}

/// The code of a file without comments and without its unit tests, which
/// may reach anything.
fn code(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => &text[..at],
        None => text,
    };
    text.lines()
        .map(|line| match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The paths a file names after `prefix` (`crate::` or `super::`), with
/// `{a, b::{c, d}}` groups expanded.
fn named_paths(code: &str, prefix: &str) -> Vec<String> {
    /// The paths of one use tree starting at `text`, under `base`.
    fn tree(text: &str, base: &str, out: &mut Vec<String>) {
        let path: String = text
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
            .collect();
        let joined = match (base.is_empty(), path.trim_end_matches(':')) {
            (_, "") | (_, "self") => base.to_owned(),
            (true, p) => p.to_owned(),
            (false, p) => format!("{base}::{p}"),
        };
        out.push(joined.clone());
        let rest = text[path.len()..].trim_start();
        if !(path.ends_with("::") && rest.starts_with('{')) {
            return;
        }
        let mut depth = 0;
        let mut start = 1;
        for (at, c) in rest.char_indices() {
            match c {
                '{' => depth += 1,
                '}' | ',' if depth == 1 => {
                    let item = rest[start..at].trim();
                    if !item.is_empty() {
                        tree(item, &joined, out);
                    }
                    start = at + 1;
                    if c == '}' {
                        return;
                    }
                }
                '}' => depth -= 1,
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find(prefix) {
        let before = rest[..at].chars().last();
        rest = &rest[at + prefix.len()..];
        if !before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            tree(rest, "", &mut out);
        }
    }
    out
}

/// The module a path names: its longest prefix that is a module.
fn module_of<'m>(path: &str, modules: &'m BTreeMap<String, PathBuf>) -> Option<&'m String> {
    let mut parts: Vec<&str> = path.split("::").collect();
    while !parts.is_empty() {
        if let Some((name, _)) = modules.get_key_value(&parts.join("::")) {
            return Some(name);
        }
        parts.pop();
    }
    None
}

/// Which modules each module imports (never its own ancestors, which hold
/// it, nor the crate root).
fn imports(modules: &BTreeMap<String, PathBuf>) -> BTreeMap<String, BTreeSet<String>> {
    let mut edges = BTreeMap::new();
    for (name, file) in modules {
        let code = code(&std::fs::read_to_string(file).unwrap());
        let parent = name.rsplit_once("::").map_or("", |(p, _)| p);
        let mut paths = named_paths(&code, "crate::");
        paths.extend(named_paths(&code, "super::").into_iter().map(|p| {
            if parent.is_empty() {
                p
            } else {
                format!("{parent}::{p}")
            }
        }));
        let targets: BTreeSet<String> = paths
            .iter()
            .filter_map(|p| module_of(p, modules))
            .filter(|t| !t.is_empty() && *t != name && !name.starts_with(&format!("{t}::")))
            .cloned()
            .collect();
        edges.insert(name.clone(), targets);
    }
    edges
}

/// The strongly connected groups of more than one module (Tarjan).
fn circles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct Walk<'e> {
        edges: &'e BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'e str, usize>,
        low: BTreeMap<&'e str, usize>,
        stack: Vec<&'e str>,
        on_stack: BTreeSet<&'e str>,
        found: Vec<Vec<String>>,
    }
    impl<'e> Walk<'e> {
        fn visit(&mut self, v: &'e str) {
            let at = self.index.len();
            self.index.insert(v, at);
            self.low.insert(v, at);
            self.stack.push(v);
            self.on_stack.insert(v);
            for w in &self.edges[v] {
                if !self.index.contains_key(w.as_str()) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w.as_str()]);
                    self.low.insert(v, low);
                } else if self.on_stack.contains(w.as_str()) {
                    let low = self.low[v].min(self.index[w.as_str()]);
                    self.low.insert(v, low);
                }
            }
            if self.low[v] == self.index[v] {
                let mut group = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack.remove(w);
                    group.push(w.to_owned());
                    if w == v {
                        break;
                    }
                }
                if group.len() > 1 {
                    group.sort();
                    self.found.push(group);
                }
            }
        }
    }
    let mut walk = Walk {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in edges.keys() {
        if !walk.index.contains_key(v.as_str()) {
            walk.visit(v);
        }
    }
    walk.found
}

/// The library crates of the workspace whose files are checked.
const CRATES: [&str; 6] = ["", "rules", "codegen", "macros", "runtime", "cli"];

#[test]
fn no_two_files_of_any_crate_import_each_other_even_through_others() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut report = Vec::new();
    for krate in CRATES {
        let modules = modules(&workspace.join(krate).join("src"));
        let edges = imports(&modules);
        for group in circles(&edges) {
            let inside: Vec<String> = group
                .iter()
                .flat_map(|from| {
                    edges[from]
                        .iter()
                        .filter(|to| group.contains(to))
                        .map(move |to| format!("    {from} -> {to}"))
                })
                .collect();
            let name = if krate.is_empty() { "tooltable" } else { krate };
            report.push(format!(
                "{name}: {}:\n{}",
                group.join(", "),
                inside.join("\n")
            ));
        }
    }
    assert!(
        report.is_empty(),
        "these files import each other in a circle; move what both need below both:\n{}",
        report.join("\n")
    );
}

#[test]
fn every_member_of_the_workspace_is_on_the_crate_map() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = std::fs::read_to_string(workspace.join("Cargo.toml")).unwrap();
    let members = manifest
        .lines()
        .find_map(|line| line.strip_prefix("members = ["))
        .expect("the workspace lists its members on one line");
    let map = std::fs::read_to_string(workspace.join("docs/architecture.md")).unwrap();
    let map = &map[map.find("## Crates").unwrap()..map.find("Dependencies run one way").unwrap()];
    let missing: Vec<&str> = members
        .trim_end_matches(']')
        .split(',')
        .map(|member| member.trim().trim_matches('"'))
        .filter(|member| !map.contains(member))
        .collect();
    assert!(
        missing.is_empty(),
        "docs/architecture.md's crate map leaves out {missing:?}; say what each is for"
    );
}

#[test]
fn the_circle_check_finds_a_circle_through_a_third_file() {
    let edges: BTreeMap<String, BTreeSet<String>> = [
        ("a", vec!["b"]),
        ("b", vec!["c"]),
        ("c", vec!["a"]),
        ("d", vec!["a"]),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v.into_iter().map(str::to_owned).collect()))
    .collect();
    assert_eq!(circles(&edges), [["a", "b", "c"]]);
}

#[test]
fn a_grouped_import_names_each_module_of_the_group() {
    let paths = named_paths(
        "use crate::serve::{guard::{self, Refused}, listing::Lister};\nlet x = acrate::no;",
        "crate::",
    );
    for named in [
        "serve::guard",
        "serve::guard::Refused",
        "serve::listing::Lister",
    ] {
        assert!(paths.contains(&named.to_owned()), "{named}: {paths:?}");
    }
    assert!(!paths.iter().any(|p| p == "no"), "{paths:?}");
}
