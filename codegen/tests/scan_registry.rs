//! The build script's reading of a crate, run over real code: the sources of
//! the large crates this workspace depends on, taken from the local cargo
//! registry.
//!
//! A build script reads whatever a user's crate holds, so no source may make
//! it panic, hang or loop: every file ends in a table or in errors that each
//! carry a file, line and column. Each crate is read from its root as its
//! build script would (with every feature on, so the most modules are
//! reached); every file under `src/` the root does not reach is then read as
//! a crate root of its own. Real crates declare no `#[tool]`, so the
//! scanner's later stages would see nothing: a copy of each crate also gets
//! a probe tool for every public non-generic struct and enum at the top of
//! its files, taking and returning that type, which puts name resolution
//! and the schema lowering to work on types nobody wrote for them.
//!
//! The crates are dependencies of this workspace, read at the versions its
//! Cargo.lock pins, so they are in the registry of any machine that built
//! it; a crate that is absent is skipped. Run with `--nocapture` to see
//! what was read.

use std::collections::BTreeSet;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;
use tooltable_codegen::analysis::{Analysis, CfgEnv, Diagnostic, analyze};

/// The large crates in this workspace's dependency graph (`cargo tree`).
const CRATES: [&str; 32] = [
    "serde",
    "serde_core",
    "serde_json",
    "syn",
    "proc-macro2",
    "quote",
    "tokio",
    "tokio-util",
    "rmcp",
    "clap",
    "clap_builder",
    "hyper",
    "hyper-util",
    "jsonschema",
    "regex",
    "regex-syntax",
    "regex-automata",
    "schemars",
    "toml",
    "winnow",
    "futures-util",
    "minijinja",
    "askama",
    "chrono",
    "rusqlite",
    "tracing",
    "tracing-subscriber",
    "libc",
    "zerocopy",
    "proptest",
    "indexmap",
    "hashbrown",
];

/// The most probe tools put into one crate: enough to cover its public
/// types in a sample, few enough that the slowest crate stays well under a
/// minute in a debug build.
const PROBES_PER_CRATE: usize = 400;

/// How long one crate may take before the test calls it a hang. Reading the
/// largest (tokio, libc) takes seconds; the code cannot loop (module cycles
/// and import cycles are refused), so this bound only turns a regression
/// into a failure instead of a stuck test run.
const PER_CRATE: Duration = Duration::from_secs(15 * 60);

/// A directory removed when dropped.
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl TempDir {
    fn new(tag: &str) -> TempDir {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "tooltable-scan-registry-{tag}-{}-{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

/// The chosen crates at the versions this workspace's Cargo.lock pins, as
/// `name-version`, the name of their directory in the registry.
fn locked() -> Vec<String> {
    let lock = Path::new(env!("CARGO_MANIFEST_DIR")).join("../Cargo.lock");
    let lock: toml::Table = std::fs::read_to_string(lock)
        .expect("the workspace has a Cargo.lock")
        .parse()
        .expect("Cargo.lock is TOML");
    let mut found: Vec<String> = lock
        .get("package")
        .and_then(|p| p.as_array())
        .into_iter()
        .flatten()
        .filter(|package| {
            package
                .get("source")
                .and_then(|s| s.as_str())
                .is_some_and(|s| s.starts_with("registry+"))
        })
        .filter_map(|package| {
            let name = package.get("name")?.as_str()?;
            let version = package.get("version")?.as_str()?;
            CRATES.contains(&name).then(|| format!("{name}-{version}"))
        })
        .collect();
    found.sort();
    found
}

/// The directory of each locked crate in the local registry, or the names
/// of those it does not hold.
fn registry_crates() -> (Vec<PathBuf>, Vec<String>) {
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cargo")))
        .unwrap_or_default();
    let indexes: Vec<PathBuf> = std::fs::read_dir(cargo_home.join("registry/src"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|index| index.path())
        .collect();
    let mut present = Vec::new();
    let mut absent = Vec::new();
    for crate_name in locked() {
        match indexes
            .iter()
            .map(|index| index.join(&crate_name))
            .find(|dir| dir.join("src").is_dir())
        {
            Some(dir) => present.push(dir),
            None => absent.push(crate_name),
        }
    }
    (present, absent)
}

/// The crate's features, all of them on.
fn all_features(crate_dir: &Path) -> CfgEnv {
    let features = std::fs::read_to_string(crate_dir.join("Cargo.toml"))
        .ok()
        .and_then(|text| text.parse::<toml::Table>().ok())
        .and_then(|manifest| manifest.get("features").and_then(|f| f.as_table()).cloned())
        .map(|features| features.keys().cloned().collect::<Vec<_>>())
        .unwrap_or_default();
    CfgEnv::host(features)
}

/// The crate root its Cargo.toml names, relative to its directory.
fn lib_root(crate_dir: &Path) -> PathBuf {
    std::fs::read_to_string(crate_dir.join("Cargo.toml"))
        .ok()
        .and_then(|text| text.parse::<toml::Table>().ok())
        .and_then(|manifest| {
            manifest
                .get("lib")
                .and_then(|lib| lib.get("path"))
                .and_then(|path| path.as_str())
                .map(PathBuf::from)
        })
        .unwrap_or_else(|| PathBuf::from("src/lib.rs"))
}

fn rust_files(dir: &Path, into: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        let path = entry.path();
        if kind.is_dir() {
            rust_files(&path, into);
        } else if kind.is_file() && path.extension().is_some_and(|e| e == "rs") {
            into.push(path);
        }
    }
}

fn canonical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// A Cargo.toml whose crate root is `root` (an absolute path).
fn manifest_with_root(root: &Path) -> String {
    let root = root.display().to_string();
    format!(
        "[package]\nname = \"scan-probe\"\nversion = \"0.0.0\"\n\n[package.metadata.tooltable]\nroot = \"{}\"\n",
        root.replace('\\', "\\\\").replace('"', "\\\"")
    )
}

/// What one analysis ended in, or why it broke the promise.
struct Ended {
    files: Vec<PathBuf>,
    errors: usize,
    tools: usize,
}

/// Analyses the crate in `dir` inside `catch_unwind`, and checks that it
/// ends in a table (rendered, with its manifest) or in errors that each
/// carry a location.
fn analyze_checked(dir: &Path, cfg: &CfgEnv, what: &str) -> Result<Ended, String> {
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        let analysis = analyze(dir, cfg);
        if let Ok(analysis) = &analysis
            && !analysis.has_errors()
        {
            analysis.manifest().render();
            analysis.table_source();
        }
        analysis
    }));
    let analysis: Analysis = match outcome {
        Err(_) => return Err(format!("{what}: the analysis panicked")),
        Ok(Err(diagnostics)) => {
            return Err(format!(
                "{what}: the configuration was refused: {}",
                lines(&diagnostics)
            ));
        }
        Ok(Ok(analysis)) => analysis,
    };
    let unlocated: Vec<Diagnostic> = analysis
        .diagnostics()
        .iter()
        .filter(|d| d.is_error() && d.location.is_none())
        .cloned()
        .collect();
    if !unlocated.is_empty() {
        return Err(format!(
            "{what}: errors without a location: {}",
            lines(&unlocated)
        ));
    }
    Ok(Ended {
        files: analysis.files_read().map(|f| canonical(f)).collect(),
        errors: analysis
            .diagnostics()
            .iter()
            .filter(|d| d.is_error())
            .count(),
        tools: analysis.tool_count(),
    })
}

fn lines(diagnostics: &[Diagnostic]) -> String {
    diagnostics
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

/// What reading one crate found.
struct Report {
    files: usize,
    from_root: usize,
    errors: usize,
    probes: usize,
    lowered: usize,
    probe_errors: usize,
}

/// Reads one crate from its root, then every file the root does not reach
/// on its own, then a probed copy.
fn read_crate(crate_dir: &Path) -> Result<Report, String> {
    let name = crate_dir
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let cfg = all_features(crate_dir);
    let root = analyze_checked(crate_dir, &cfg, &format!("{name} from its root"))?;
    let mut seen: BTreeSet<PathBuf> = root.files.iter().cloned().collect();
    let from_root = seen.len();
    let mut errors = root.errors;

    let mut all = Vec::new();
    rust_files(&crate_dir.join("src"), &mut all);
    all.sort();
    let probe_dir = TempDir::new("root");
    for file in &all {
        let file = canonical(file);
        if seen.contains(&file) {
            continue;
        }
        std::fs::write(probe_dir.0.join("Cargo.toml"), manifest_with_root(&file)).unwrap();
        let own = analyze_checked(
            &probe_dir.0,
            &cfg,
            &format!("{name}: {} as a crate root", file.display()),
        )?;
        errors += own.errors;
        seen.extend(own.files);
    }
    let unread: Vec<String> = all
        .iter()
        .map(|f| canonical(f))
        .filter(|f| !seen.contains(f))
        .map(|f| f.display().to_string())
        .collect();
    if !unread.is_empty() {
        return Err(format!("{name}: files never read: {}", unread.join(", ")));
    }

    let (probes, probed) = probed_copy(crate_dir, &root.files)?;
    let probed_analysis = match probed {
        Some(dir) => analyze_checked(&dir.0, &cfg, &format!("{name} with probe tools"))?,
        None => Ended {
            files: Vec::new(),
            errors: 0,
            tools: 0,
        },
    };
    Ok(Report {
        files: seen.len(),
        from_root,
        errors,
        probes,
        lowered: probed_analysis.tools,
        probe_errors: probed_analysis.errors,
    })
}

/// A copy of the crate's `src/` with a probe tool after every public
/// non-generic struct and enum declared at the top of a file the root
/// reaches, up to [`PROBES_PER_CRATE`]. `None` when the crate's root is not
/// under `src/`.
fn probed_copy(crate_dir: &Path, reached: &[PathBuf]) -> Result<(usize, Option<TempDir>), String> {
    let root = lib_root(crate_dir);
    if !root.starts_with("src") {
        return Ok((0, None));
    }
    let src = canonical(&crate_dir.join("src"));
    let copy = TempDir::new("probed");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut probes = 0;
    files.sort();
    for file in files {
        let relative = file.strip_prefix(&src).unwrap();
        let target = copy.0.join("src").join(relative);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        let mut text = std::fs::read_to_string(&file).unwrap_or_default();
        if reached.contains(&file) && probes < PROBES_PER_CRATE {
            let Ok(parsed) = syn::parse_file(&text) else {
                std::fs::write(&target, text).unwrap();
                continue;
            };
            for ty in probe_types(&parsed) {
                if probes == PROBES_PER_CRATE {
                    break;
                }
                text.push_str(&format!(
                    "\n/// Probe.\n#[tool(tier = read)]\npub fn tooltable_probe_{probes}(params: {ty}) -> {ty} {{ loop {{}} }}\n"
                ));
                probes += 1;
            }
        }
        std::fs::write(&target, text).unwrap();
    }
    std::fs::write(
        copy.0.join("Cargo.toml"),
        format!(
            "[package]\nname = \"scan-probe\"\nversion = \"0.0.0\"\n\n[lib]\npath = \"{}\"\n",
            root.display()
        ),
    )
    .unwrap();
    Ok((probes, Some(copy)))
}

/// The public structs and enums without generic parameters declared at the
/// top of a file.
fn probe_types(file: &syn::File) -> Vec<String> {
    file.items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Struct(s)
                if matches!(s.vis, syn::Visibility::Public(_)) && s.generics.params.is_empty() =>
            {
                Some(s.ident.to_string())
            }
            syn::Item::Enum(e)
                if matches!(e.vis, syn::Visibility::Public(_)) && e.generics.params.is_empty() =>
            {
                Some(e.ident.to_string())
            }
            _ => None,
        })
        .collect()
}

#[test]
fn every_file_of_the_large_dependencies_ends_in_a_table_or_a_located_error_and_nothing_panics() {
    let (crates, absent) = registry_crates();
    if !absent.is_empty() {
        println!("not in the local registry, skipped: {}", absent.join(", "));
    }
    assert!(
        !crates.is_empty(),
        "none of the locked crates is in the local registry ($CARGO_HOME/registry/src, or ~/.cargo/registry/src); build the workspace first"
    );
    let queue = Arc::new(Mutex::new(crates.clone()));
    let in_progress: Arc<Mutex<BTreeSet<String>>> = Arc::default();
    let (sender, results) = mpsc::channel();
    let workers = std::thread::available_parallelism().map_or(1, usize::from);
    for _ in 0..workers {
        let queue = queue.clone();
        let in_progress = in_progress.clone();
        let sender = sender.clone();
        // A build script runs on a process's main thread, whose stack is
        // 8 MiB on Linux; a test thread's is 2 MiB, too little for syn's
        // recursive descent over some real files in a debug build.
        std::thread::Builder::new()
            .stack_size(8 << 20)
            .spawn(move || {
                loop {
                    let Some(dir) = queue.lock().unwrap().pop() else {
                        break;
                    };
                    let name = dir.file_name().unwrap().to_string_lossy().into_owned();
                    in_progress.lock().unwrap().insert(name.clone());
                    let report = read_crate(&dir);
                    in_progress.lock().unwrap().remove(&name);
                    if sender.send((name, report)).is_err() {
                        break;
                    }
                }
            })
            .unwrap();
    }
    drop(sender);

    let mut failures = Vec::new();
    let mut reports = Vec::new();
    for _ in 0..crates.len() {
        match results.recv_timeout(PER_CRATE) {
            Ok((name, Ok(report))) => reports.push((name, report)),
            Ok((name, Err(failure))) => failures.push(format!("{name}: {failure}")),
            Err(_) => panic!(
                "no crate finished within {PER_CRATE:?}; still reading {:?}",
                in_progress.lock().unwrap()
            ),
        }
    }
    reports.sort_by(|a, b| a.0.cmp(&b.0));
    for (name, r) in &reports {
        println!(
            "{name}: {} files read ({} from the crate root, {} on their own), {} located errors; {} probe tools, {} lowered to both schemas, {} located errors",
            r.files,
            r.from_root,
            r.files - r.from_root,
            r.errors,
            r.probes,
            r.lowered,
            r.probe_errors
        );
    }
    let files: usize = reports.iter().map(|(_, r)| r.files).sum();
    let probes: usize = reports.iter().map(|(_, r)| r.probes).sum();
    let lowered: usize = reports.iter().map(|(_, r)| r.lowered).sum();
    println!(
        "{} crates, {files} files, {probes} probed types ({lowered} lowered to both schemas), zero panics",
        reports.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
