//! docs/benchmarks.md, rendered from the measurements of repeated runs.
//!
//! Each run of benches/run.sh leaves one `runK.tsv` file per round (one
//! `metric<TAB>value` line per measurement). A ratio is computed within each
//! round, so both sides of it were measured in the same run, and the report
//! gives its min, median and max over the rounds. The prose lives in the
//! template benches/report.md, whose placeholders this module fills, so a
//! rerun replaces the numbers and keeps the explanations.

mod peers;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The template, with the prose.
const TEMPLATE: &str = include_str!("../../../report.md");

/// What `report` reads and writes.
pub struct Inputs {
    /// The directory holding `run*.tsv`.
    pub results: PathBuf,
    /// A text file describing the machine.
    pub machine: PathBuf,
    /// The command that reproduces every number.
    pub command: String,
    /// Where to write the report.
    pub out: PathBuf,
    /// Only this section of the template, replacing it in `out`.
    pub section: Option<String>,
}

/// Reads the runs and writes the report.
pub fn run(inputs: &Inputs) -> Result<(), String> {
    let runs = read_runs(&inputs.results)?;
    let machine = std::fs::read_to_string(&inputs.machine)
        .map_err(|e| format!("cannot read {}: {e}", inputs.machine.display()))?;
    let text = match &inputs.section {
        None => render(TEMPLATE, &runs, machine.trim_end(), &inputs.command),
        Some(name) => {
            let template = section(TEMPLATE, name)
                .ok_or_else(|| format!("benches/report.md has no section `{name}`"))?;
            let rendered = render(template, &runs, machine.trim_end(), &inputs.command);
            let existing = std::fs::read_to_string(&inputs.out)
                .map_err(|e| format!("cannot read {}: {e}", inputs.out.display()))?;
            let old = section_range(&existing, name).ok_or_else(|| {
                format!(
                    "{} has no section `{name}`; render the whole report first",
                    inputs.out.display()
                )
            })?;
            let mut text = existing;
            text.replace_range(old, &rendered);
            text
        }
    };
    std::fs::write(&inputs.out, text)
        .map_err(|e| format!("cannot write {}: {e}", inputs.out.display()))
}

/// The text between `<!-- section:NAME -->` and `<!-- /section:NAME -->`.
fn section<'t>(text: &'t str, name: &str) -> Option<&'t str> {
    section_range(text, name).map(|range| &text[range])
}

/// Where [`section`]'s text lies: a section is replaced where it is, since
/// its text (a blank line, before the first rendering) may occur earlier.
fn section_range(text: &str, name: &str) -> Option<std::ops::Range<usize>> {
    let open = format!("<!-- section:{name} -->");
    let close = format!("<!-- /section:{name} -->");
    let start = text.find(&open)? + open.len();
    let end = start + text[start..].find(&close)?;
    Some(start..end)
}

/// One round's measurements, by metric.
type Run = BTreeMap<String, f64>;

fn read_runs(dir: &Path) -> Result<Vec<Run>, String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("run") && n.ends_with(".tsv"))
        })
        .collect();
    paths.sort();
    if paths.is_empty() {
        return Err(format!(
            "{} holds no run*.tsv file; run benches/run.sh first",
            dir.display()
        ));
    }
    paths
        .iter()
        .map(|path| {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            parse_run(&text).map_err(|e| format!("{}: {e}", path.display()))
        })
        .collect()
}

fn parse_run(text: &str) -> Result<Run, String> {
    let mut run = Run::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let (metric, value) = line
            .split_once('\t')
            .ok_or_else(|| format!("line {} is not `metric<TAB>value`", i + 1))?;
        let value: f64 = value
            .trim()
            .parse()
            .map_err(|_| format!("line {}: `{value}` is not a number", i + 1))?;
        run.insert(metric.to_owned(), value);
    }
    Ok(run)
}

/// Min, median and max of the values some rounds gave.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Spread {
    min: f64,
    median: f64,
    max: f64,
}

fn spread(mut values: Vec<f64>) -> Option<Spread> {
    values.retain(|v| v.is_finite());
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let n = values.len();
    let median = if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    };
    Some(Spread {
        min: values[0],
        median,
        max: values[n - 1],
    })
}

/// A metric over the rounds that have it.
fn metric(runs: &[Run], name: &str) -> Option<Spread> {
    spread(runs.iter().filter_map(|r| r.get(name).copied()).collect())
}

/// `ours / theirs`, computed within each round.
fn ratio(runs: &[Run], ours: &str, theirs: &str) -> Option<Spread> {
    spread(
        runs.iter()
            .filter_map(|r| Some(r.get(ours)? / r.get(theirs)?))
            .collect(),
    )
}

/// A comparison the ratio table shows, for each size measured.
struct Spec {
    /// The row's first cell; `{n}` is replaced by the size.
    measure: &'static str,
    /// tooltable's metric, with `{n}` for the size (or the connections).
    ours: &'static str,
    /// rmcp's metric (or the whole, for a share), with `{n}` for the size.
    theirs: &'static str,
    /// The target, if any.
    target: Option<Target>,
    /// How the "tooltable" column reads the ratio.
    reading: Reading,
    /// The values `{n}` takes: numbers of tools, or of connections.
    axis: Axis,
    /// Some of the axis's values only, when not all of them.
    only: Option<&'static [usize]>,
}

/// A bound on a ratio, for some sizes.
#[derive(Clone, Copy)]
struct Target {
    bound: f64,
    /// Whether the ratio must be at least the bound (a throughput) rather
    /// than at most (a time).
    at_least: bool,
    sizes: &'static [usize],
}

/// How a ratio reads in words.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reading {
    /// A time, tooltable against rmcp: "3× faster".
    Speed,
    /// A part of a whole: "3.1 % of it".
    Share,
    /// CPU time, tooltable against rmcp: "12× less CPU".
    Cpu,
    /// CPU time against the cost of writing the bytes: "1.4× the baseline".
    Baseline,
    /// Requests per second, tooltable against rmcp: "1.2× rmcp's".
    Throughput,
}

/// What `{n}` counts.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Axis {
    /// Tools in the generated crates: 10, 100, 1000.
    Tools,
    /// Concurrent connections of the load test: 1, 16, 64.
    Connections,
    /// The edits of the realistic layout's loop (benches/loop.sh): 1, 2
    /// and 3 stand for a handler body, a doc comment and a parameter type.
    Edits,
}

impl Axis {
    fn values(self) -> &'static [usize] {
        match self {
            Axis::Tools => ALL,
            Axis::Connections => CONNECTIONS,
            Axis::Edits => EDITS,
        }
    }

    fn cell(self, n: usize) -> String {
        match self {
            Axis::Tools => n.to_string(),
            Axis::Connections => format!("{n} conn."),
            Axis::Edits => edit(n).map_or_else(|| n.to_string(), |(_, cell)| cell.to_owned()),
        }
    }

    /// What `{n}` becomes in a metric's name.
    fn key(self, n: usize) -> String {
        match self {
            Axis::Edits => edit(n).map_or_else(|| n.to_string(), |(key, _)| key.to_owned()),
            _ => n.to_string(),
        }
    }
}

impl Spec {
    const fn new(measure: &'static str, ours: &'static str, theirs: &'static str) -> Spec {
        Spec {
            measure,
            ours,
            theirs,
            target: None,
            reading: Reading::Speed,
            axis: Axis::Tools,
            only: None,
        }
    }

    /// The target: a ratio of at most `bound` at `sizes`.
    const fn at_most(mut self, bound: f64, sizes: &'static [usize]) -> Spec {
        self.target = Some(Target {
            bound,
            at_least: false,
            sizes,
        });
        self
    }

    /// The target: a ratio of at least `bound` at `sizes`.
    const fn at_least(mut self, bound: f64, sizes: &'static [usize]) -> Spec {
        self.target = Some(Target {
            bound,
            at_least: true,
            sizes,
        });
        self
    }

    const fn reading(mut self, reading: Reading) -> Spec {
        self.reading = reading;
        self
    }

    const fn per_connections(mut self) -> Spec {
        self.axis = Axis::Connections;
        self
    }

    /// Per edit of the loop, for the edits `edits` only.
    const fn per_edit(mut self, edits: &'static [usize]) -> Spec {
        self.axis = Axis::Edits;
        self.only = Some(edits);
        self
    }

    /// The values `{n}` takes in this row.
    fn values(&self) -> &'static [usize] {
        self.only.unwrap_or(self.axis.values())
    }
}

const ALL: &[usize] = &[10, 100, 1000];
/// The concurrencies of the load test.
const CONNECTIONS: &[usize] = &[1, 16, 64];
/// The edits of the loop: a handler body, a doc comment, a parameter type.
const EDITS: &[usize] = &[1, 2, 3];

/// Edit `n` of [`EDITS`]: its name in metrics (benches/loop.sh's) and in
/// the table.
fn edit(n: usize) -> Option<(&'static str, &'static str)> {
    [
        ("body", "handler body"),
        ("doc", "doc comment"),
        ("parameter", "parameter type"),
    ]
    .get(n.wrapping_sub(1))
    .copied()
}
/// A handler body alone.
const BODY: &[usize] = &[1];
/// The edits of a declaration: a doc comment and a parameter type.
const DECLARATIONS: &[usize] = &[2, 3];

const SPECS: &[Spec] = &[
    Spec::new(
        "(1) tools/list in process: unfiltered bytes vs stored router",
        "list/{n}/tooltable-unfiltered",
        "list/{n}/rmcp-stored",
    )
    .at_most(0.05, &[100]),
    Spec::new(
        "(1) tools/list in process: unfiltered bytes vs router rebuilt per request",
        "list/{n}/tooltable-unfiltered",
        "list/{n}/rmcp-rebuild",
    ),
    Spec::new(
        "(1) tools/list in process: filtered (read-only policy) vs stored router with the same tools disabled",
        "list/{n}/tooltable-filtered",
        "list/{n}/rmcp-stored-filtered",
    ),
    Spec::new(
        "(2) tools/list end to end vs stored router",
        "e2e-list/{n}/tooltable",
        "e2e-list/{n}/rmcp-stored",
    ),
    Spec::new(
        "(2) tools/list end to end vs router rebuilt per request",
        "e2e-list/{n}/tooltable",
        "e2e-list/{n}/rmcp-rebuild",
    ),
    Spec::new(
        "(2) tools/call end to end vs stored router",
        "e2e-call/{n}/tooltable",
        "e2e-call/{n}/rmcp-stored",
    ),
    Spec::new(
        "(2) tools/call end to end vs router rebuilt per request",
        "e2e-call/{n}/tooltable",
        "e2e-call/{n}/rmcp-rebuild",
    ),
    Spec::new(
        "served tools/list, stdio, N={n}: server CPU per request vs rmcp's stored router",
        "served-list-stdio/{n}/tooltable",
        "served-list-stdio/{n}/rmcp",
    )
    .at_most(0.1, &[100, 1000])
    .reading(Reading::Cpu),
    Spec::new(
        "served tools/list, stdio, N={n}: server CPU per request vs writing the same bytes",
        "served-list-stdio/{n}/tooltable",
        "served-list-stdio/{n}/write",
    )
    .at_most(2.0, ALL)
    .reading(Reading::Baseline),
    Spec::new(
        "served tools/list, http, N={n}: server CPU per request vs rmcp's stored router",
        "served-list-http/{n}/tooltable",
        "served-list-http/{n}/rmcp",
    )
    .at_most(0.1, &[100, 1000])
    .reading(Reading::Cpu),
    Spec::new(
        "served tools/list, http, N={n}: server CPU per request vs writing the same bytes",
        "served-list-http/{n}/tooltable",
        "served-list-http/{n}/write",
    )
    .at_most(2.0, ALL)
    .reading(Reading::Baseline),
    Spec::new(
        "served tools/call, trivial tool, stdio, N={n}: server CPU per request vs rmcp's stored router",
        "served-call-stdio/{n}/tooltable",
        "served-call-stdio/{n}/rmcp",
    )
    .at_most(0.5, ALL)
    .reading(Reading::Cpu),
    Spec::new(
        "served tools/call, trivial tool, stdio, N={n}: server CPU per request vs parsing the request and writing the same bytes",
        "served-call-stdio/{n}/tooltable",
        "served-call-stdio/{n}/write",
    )
    .at_most(1.5, ALL)
    .reading(Reading::Baseline),
    Spec::new(
        "served tools/call, trivial tool, http, N={n}: server CPU per request vs rmcp's stored router",
        "served-call-http/{n}/tooltable",
        "served-call-http/{n}/rmcp",
    )
    .at_most(0.5, ALL)
    .reading(Reading::Cpu),
    Spec::new(
        "served tools/call, trivial tool, http, N={n}: server CPU per request vs parsing the request and writing the same bytes",
        "served-call-http/{n}/tooltable",
        "served-call-http/{n}/write",
    )
    .at_most(1.5, ALL)
    .reading(Reading::Baseline),
    Spec::new(
        "served tools/call, six-field tool, stdio, N={n}: server CPU per request vs rmcp's stored router",
        "served-call-regular-stdio/{n}/tooltable",
        "served-call-regular-stdio/{n}/rmcp",
    )
    .reading(Reading::Cpu),
    Spec::new(
        "served tools/call, six-field tool, stdio, N={n}: server CPU per request vs parsing the request and writing the same bytes",
        "served-call-regular-stdio/{n}/tooltable",
        "served-call-regular-stdio/{n}/write",
    )
    .reading(Reading::Baseline),
    Spec::new(
        "served tools/call, six-field tool, http, N={n}: server CPU per request vs rmcp's stored router",
        "served-call-regular-http/{n}/tooltable",
        "served-call-regular-http/{n}/rmcp",
    )
    .reading(Reading::Cpu),
    Spec::new(
        "served tools/call, six-field tool, http, N={n}: server CPU per request vs parsing the request and writing the same bytes",
        "served-call-regular-http/{n}/tooltable",
        "served-call-regular-http/{n}/write",
    )
    .reading(Reading::Baseline),
    Spec::new(
        "(3) tools/call dispatch, trivial tool: adapter vs stored router",
        "dispatch/{n}/tooltable",
        "dispatch/{n}/rmcp-stored",
    )
    .at_most(1.0, ALL),
    Spec::new(
        "(3) tools/call dispatch, trivial tool: `Registry::call` vs stored router",
        "dispatch/{n}/tooltable-registry",
        "dispatch/{n}/rmcp-stored",
    ),
    Spec::new(
        "(3) tools/call dispatch, trivial tool: adapter vs router rebuilt per request",
        "dispatch/{n}/tooltable",
        "dispatch/{n}/rmcp-rebuild",
    ),
    Spec::new(
        "(3) tools/call dispatch, regular tool: adapter vs stored router",
        "dispatch-regular/{n}/tooltable",
        "dispatch-regular/{n}/rmcp-stored",
    ),
    Spec::new(
        "(3) tools/call dispatch, regular tool: `Registry::call` vs stored router",
        "dispatch-regular/{n}/tooltable-registry",
        "dispatch-regular/{n}/rmcp-stored",
    ),
    Spec::new(
        "(3) tools/call, trivial tool: through the test client on a current-thread runtime (`#[tokio::test]`) vs `Registry::call`",
        "dispatch/{n}/tooltable-test-client-current-thread",
        "dispatch/{n}/tooltable-registry",
    )
    .reading(Reading::Baseline),
    Spec::new(
        "(3) tools/call, trivial tool: through the test client on two workers vs `Registry::call`",
        "dispatch/{n}/tooltable-test-client",
        "dispatch/{n}/tooltable-registry",
    )
    .reading(Reading::Baseline),
    Spec::new(
        "(3) tools/call, regular tool: through the test client on a current-thread runtime (`#[tokio::test]`) vs `Registry::call`",
        "dispatch-regular/{n}/tooltable-test-client-current-thread",
        "dispatch-regular/{n}/tooltable-registry",
    )
    .reading(Reading::Baseline),
    Spec::new(
        "(3) tools/call, regular tool: through the test client on two workers vs `Registry::call`",
        "dispatch-regular/{n}/tooltable-test-client",
        "dispatch-regular/{n}/tooltable-registry",
    )
    .reading(Reading::Baseline),
    Spec::new(
        "loop, realistic layout: `cargo build` after the edit",
        "loop-build/{n}/tooltable",
        "loop-build/{n}/rmcp",
    )
    .per_edit(BODY)
    .at_most(1.0, BODY),
    Spec::new(
        "loop, realistic layout: `cargo build` after the edit",
        "loop-build/{n}/tooltable",
        "loop-build/{n}/rmcp",
    )
    .per_edit(DECLARATIONS)
    .at_most(1.2, DECLARATIONS),
    Spec::new(
        "loop, realistic layout: `cargo test --no-run` after the edit",
        "loop-test/{n}/tooltable",
        "loop-test/{n}/rmcp",
    )
    .per_edit(EDITS)
    .at_most(1.2, EDITS),
    Spec::new(
        "loop, realistic layout: the bin's own compile after the edit",
        "loop-build-bin/{n}/tooltable",
        "loop-build-bin/{n}/rmcp",
    )
    .per_edit(EDITS)
    .at_most(1.1, EDITS),
    Spec::new(
        "(4) start-up, cold (fresh thread): table vs router with schemas",
        "startup/{n}/tooltable-cold",
        "startup/{n}/rmcp-cold",
    )
    .at_most(0.01, &[1000]),
    Spec::new(
        "(4) start-up including the first tools/list, cold (fresh thread): adapter and its first listing vs stored router and its first listing",
        "startup-list/{n}/tooltable-cold",
        "startup-list/{n}/rmcp-cold",
    ),
    Spec::new(
        "(4) start-up, warm (schemas cached): table vs router",
        "startup/{n}/tooltable-warm",
        "startup/{n}/rmcp-warm",
    ),
    Spec::new(
        "(5) clean `cargo build` of the generated crate, one lib (dependencies built)",
        "build-clean/{n}/tooltable",
        "build-clean/{n}/rmcp",
    )
    .at_most(1.0, ALL),
    Spec::new(
        "(5) incremental `cargo build` of the generated crate, one lib, after editing one handler body",
        "build-incremental/{n}/tooltable",
        "build-incremental/{n}/rmcp",
    ),
    Spec::new(
        "(5) the build script's share of the tooltable crate's clean build",
        "build-script/{n}/tooltable",
        "build-clean/{n}/tooltable",
    )
    .at_most(0.10, &[1000])
    .reading(Reading::Share),
    Spec::new(
        "(6) `tooltable check` vs `cargo build` after touching one file",
        "check/{n}/check",
        "check/{n}/build",
    )
    .at_most(0.1, ALL),
    Spec::new(
        "(7) load over HTTP, tools/call of a read tool: requests per second, notes-server vs its rmcp twin",
        "load-call/{n}/tooltable/rps",
        "load-call/{n}/rmcp/rps",
    )
    .at_least(1.0, CONNECTIONS)
    .reading(Reading::Throughput)
    .per_connections(),
    Spec::new(
        "(7) load over HTTP, tools/call of a read tool: p99 latency, notes-server vs its rmcp twin",
        "load-call/{n}/tooltable/p99",
        "load-call/{n}/rmcp/p99",
    )
    .at_most(1.0, CONNECTIONS)
    .per_connections(),
    Spec::new(
        "(7) load over HTTP, tools/call of a trivial read tool (notes_stats): requests per second, notes-server vs its rmcp twin",
        "load-stats/{n}/tooltable/rps",
        "load-stats/{n}/rmcp/rps",
    )
    .at_least(1.5, &[16, 64])
    .reading(Reading::Throughput)
    .per_connections(),
    Spec::new(
        "(7) load over HTTP, tools/call of a trivial read tool (notes_stats): p99 latency, notes-server vs its rmcp twin",
        "load-stats/{n}/tooltable/p99",
        "load-stats/{n}/rmcp/p99",
    )
    .at_most(1.0, CONNECTIONS)
    .per_connections(),
    Spec::new(
        "(7) load over HTTP, tools/list: requests per second, notes-server vs its rmcp twin",
        "load-list/{n}/tooltable/rps",
        "load-list/{n}/rmcp/rps",
    )
    .at_least(1.0, CONNECTIONS)
    .reading(Reading::Throughput)
    .per_connections(),
    Spec::new(
        "(7) load over HTTP, tools/list: p99 latency, notes-server vs its rmcp twin",
        "load-list/{n}/tooltable/p99",
        "load-list/{n}/rmcp/p99",
    )
    .at_most(1.0, CONNECTIONS)
    .per_connections(),
];

/// The table of every ratio measured, or of those whose metric starts
/// with one of `prefixes` (all of them when there are none).
fn ratio_table(runs: &[Run], prefixes: &[&str]) -> String {
    let mut out = String::from(
        "| measure | N | ratio (median) | min | max | tooltable | target | |\n|---|---:|---:|---:|---:|---|---|---|\n",
    );
    let chosen =
        |spec: &&Spec| prefixes.is_empty() || prefixes.iter().any(|p| spec.ours.starts_with(p));
    for spec in SPECS.iter().filter(chosen) {
        for &n in spec.values() {
            let ours = spec.ours.replace("{n}", &spec.axis.key(n));
            let theirs = spec.theirs.replace("{n}", &spec.axis.key(n));
            let Some(r) = ratio(runs, &ours, &theirs) else {
                continue;
            };
            let target = spec.target.filter(|t| t.sizes.contains(&n));
            let (target, verdict) = match target {
                None => (String::new(), String::new()),
                Some(t) => {
                    let meets = |x: f64| {
                        if t.at_least {
                            x >= t.bound
                        } else {
                            x <= t.bound
                        }
                    };
                    let worst = if t.at_least { r.min } else { r.max };
                    let verdict = if meets(worst) {
                        "met"
                    } else if meets(r.median) {
                        "met (median; not in every round)"
                    } else {
                        "**missed**"
                    };
                    let sign = if t.at_least { "≥" } else { "≤" };
                    (format!("{sign} {}", number(t.bound)), verdict.to_owned())
                }
            };
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} | {} | {} |",
                spec.measure.replace("{n}", &n.to_string()),
                spec.axis.cell(n),
                number(r.median),
                number(r.min),
                number(r.max),
                reading(spec.reading, r.median),
                target,
                verdict
            );
        }
    }
    out
}

/// A ratio in words, as `reading` says.
fn reading(reading: Reading, ratio: f64) -> String {
    match reading {
        Reading::Speed => speed(ratio),
        Reading::Share => format!("{:.1} % of it", ratio * 100.0),
        Reading::Cpu => {
            if (0.995..=1.005).contains(&ratio) {
                "as much CPU".to_owned()
            } else if ratio < 1.0 {
                format!("{}× less CPU", number(1.0 / ratio))
            } else {
                format!("{}× more CPU", number(ratio))
            }
        }
        Reading::Baseline => format!("{}× the baseline", number(ratio)),
        Reading::Throughput => format!("{}× rmcp's", number(ratio)),
    }
}

/// The load test's figures side by side, its errors and the servers'
/// memory; or a sentence saying it did not run.
fn load_table(runs: &[Run]) -> String {
    let value = |name: String| metric(runs, &name);
    let mut out = String::new();
    let mut rows = String::new();
    for (kind, label) in [
        ("load-call", "tools/call `notes_get`"),
        ("load-stats", "tools/call `notes_stats`"),
        ("load-list", "tools/list"),
    ] {
        for &c in CONNECTIONS {
            let cell = |side: &str, what: &str| {
                value(format!("{kind}/{c}/{side}/{what}"))
                    .map_or_else(|| "n/a".to_owned(), |s| quantity(what, s.median))
            };
            let errors = |side: &str| {
                value(format!("{kind}/{c}/{side}/errors"))
                    .map_or_else(|| "n/a".to_owned(), |s| format!("{:.0}", s.max))
            };
            if value(format!("{kind}/{c}/tooltable/rps")).is_none() {
                continue;
            }
            let _ = writeln!(
                rows,
                "| {label} | {c} | {} | {} | {} | {} | {} | {} | {} | {} |",
                cell("tooltable", "rps"),
                cell("rmcp", "rps"),
                cell("tooltable", "p50"),
                cell("rmcp", "p50"),
                cell("tooltable", "p99"),
                cell("rmcp", "p99"),
                errors("tooltable"),
                errors("rmcp"),
            );
        }
    }
    if rows.is_empty() {
        return "The load test did not run in this mode.\n".to_owned();
    }
    out.push_str("| request | connections | req/s, tooltable | req/s, rmcp | p50, tooltable | p50, rmcp | p99, tooltable | p99, rmcp | errors, tooltable | errors, rmcp |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    out.push_str(&rows);
    let errors: f64 = runs
        .iter()
        .flat_map(|r| r.iter())
        .filter(|(name, _)| name.starts_with("load-") && name.ends_with("/errors"))
        .map(|(_, v)| *v)
        .sum();
    let _ = writeln!(
        out,
        "\nErrors (socket errors, non-2xx answers and JSON-RPC errors) over every level and round: {errors:.0} (target: zero; {}).",
        if errors == 0.0 { "met" } else { "**missed**" }
    );
    out.push_str("\n| server | RSS at start | after the levels above | after the soak | soak / before it | target | |\n|---|---:|---:|---:|---:|---|---|\n");
    for side in ["tooltable", "rmcp"] {
        let rss = |point: &str| value(format!("rss/notes-{side}/{point}"));
        let growth = ratio(
            runs,
            &format!("rss/notes-{side}/soak"),
            &format!("rss/notes-{side}/loaded"),
        );
        let shown = |s: Option<Spread>, name: &str| {
            s.map_or_else(|| "n/a".to_owned(), |s| quantity(name, s.median))
        };
        let verdict = match growth {
            Some(g) if g.max <= RSS_GROWTH => "met",
            Some(g) if g.median <= RSS_GROWTH => "met (median; not in every round)",
            Some(_) => "**missed**",
            None => "",
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | ≤ {} | {verdict} |",
            if side == "tooltable" {
                "notes-server"
            } else {
                "rmcp twin"
            },
            shown(rss("start"), "rss/"),
            shown(rss("loaded"), "rss/"),
            shown(rss("soak"), "rss/"),
            growth.map_or_else(|| "n/a".to_owned(), |g| number(g.median)),
            number(RSS_GROWTH),
        );
    }
    out
}

/// How much a server's RSS may grow over the soak and still count as flat.
const RSS_GROWTH: f64 = 1.10;

fn absolute_table(runs: &[Run]) -> String {
    let mut names: Vec<&String> = runs.iter().flat_map(|r| r.keys()).collect();
    names.sort();
    names.dedup();
    let mut out = String::from("| metric | median | min | max |\n|---|---:|---:|---:|\n");
    for name in names {
        if let Some(s) = metric(runs, name) {
            let _ = writeln!(
                out,
                "| `{name}` | {} | {} | {} |",
                quantity(name, s.median),
                quantity(name, s.min),
                quantity(name, s.max)
            );
        }
    }
    out
}

/// A ratio as a readable number: three significant digits.
fn number(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let digits = (2 - x.abs().log10().floor() as i32).max(0) as usize;
    format!("{x:.digits$}")
}

/// How much faster or slower tooltable is, for a ratio tooltable/rmcp.
fn speed(ratio: f64) -> String {
    if (0.995..=1.005).contains(&ratio) {
        "as fast".to_owned()
    } else if ratio < 1.0 {
        format!("{}× faster", number(1.0 / ratio))
    } else {
        format!("{}× slower", number(ratio))
    }
}

/// A measurement with its unit: bytes for `bytes/…`, `discovery-listing/…`,
/// and in MiB for `rss/…` and `code/…`, requests per second for `…/rps`, a count for `…/errors`,
/// `…/seconds`, `…/crates` and `…/twice`, a score from 0 to 1 for
/// `discovery-quality/…`, otherwise a time in nanoseconds.
fn quantity(name: &str, value: f64) -> String {
    if name.starts_with("bytes/") || name.starts_with("discovery-listing/") {
        return format!("{value:.0} B");
    }
    if name.starts_with("discovery-quality/") {
        return format!("{value:.3}");
    }
    if name.starts_with("rss/") || name.starts_with("code/") {
        return format!("{} MiB", number(value / (1024.0 * 1024.0)));
    }
    if name.ends_with("rps") {
        return format!("{value:.0} req/s");
    }
    if name.ends_with("errors")
        || name.ends_with("seconds")
        || name.ends_with("/crates")
        || name.ends_with("/threads")
        || name.ends_with("/twice")
        || name.ends_with("/units")
    {
        return format!("{value:.0}");
    }
    let (scaled, unit) = if value >= 1e9 {
        (value / 1e9, "s")
    } else if value >= 1e6 {
        (value / 1e6, "ms")
    } else if value >= 1e3 {
        (value / 1e3, "µs")
    } else {
        (value, "ns")
    };
    format!("{} {unit}", number(scaled))
}

/// Fills the template: `{{machine}}`, `{{command}}`, `{{runs}}`,
/// `{{ratios}}`, `{{load}}`, `{{peers}}`, `{{absolute}}`, `{{m:METRIC}}` (a median with its unit),
/// `{{r:OURS:THEIRS}}` (a median ratio and the speed it means),
/// `{{spread:OURS:THEIRS}}` (that ratio's median and its low and high over
/// the rounds) and `{{share:PART:WHOLE}}` (a median ratio as a percentage). A placeholder
/// whose metrics were not measured (as in `--quick`) reads "n/a".
fn render(template: &str, runs: &[Run], machine: &str, command: &str) -> String {
    let mut out = String::with_capacity(template.len() * 2);
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let Some(end) = after.find("}}") else {
            out.push_str(&rest[start..]);
            rest = "";
            break;
        };
        out.push_str(&placeholder(&after[..end], runs, machine, command));
        rest = &after[end + 2..];
    }
    out.push_str(rest);
    out
}

fn placeholder(key: &str, runs: &[Run], machine: &str, command: &str) -> String {
    let na = || "n/a".to_owned();
    let parts: Vec<&str> = key.split(':').collect();
    match parts.as_slice() {
        ["machine"] => machine.to_owned(),
        ["command"] => command.to_owned(),
        ["runs"] => runs.len().to_string(),
        ["ratios"] => ratio_table(runs, &[]),
        ["ratios", prefixes] => ratio_table(runs, &prefixes.split(',').collect::<Vec<_>>()),
        ["load"] => load_table(runs),
        ["peers"] => peers::table(runs),
        ["absolute"] => absolute_table(runs),
        ["m", name] => metric(runs, name).map_or_else(na, |s| quantity(name, s.median)),
        ["r", ours, theirs] => ratio(runs, ours, theirs).map_or_else(na, |s| {
            format!("{} ({})", number(s.median), speed(s.median))
        }),
        ["spread", ours, theirs] => ratio(runs, ours, theirs).map_or_else(na, |s| {
            format!("{} ({}–{})", number(s.median), number(s.min), number(s.max))
        }),
        ["share", part, whole] => {
            ratio(runs, part, whole).map_or_else(na, |s| format!("{:.1} %", s.median * 100.0))
        }
        _ => format!("{{{{{key}}}}}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs() -> Vec<Run> {
        ["a\t10\nb\t100\n", "a\t20\nb\t100\n", "a\t30\nb\t300\n"]
            .iter()
            .map(|t| parse_run(t).unwrap())
            .collect()
    }

    #[test]
    fn a_ratio_is_taken_within_each_round_then_spread_over_the_rounds() {
        let r = ratio(&runs(), "a", "b").unwrap();
        assert_eq!((r.min, r.median, r.max), (0.1, 0.1, 0.2));
    }

    #[test]
    fn placeholders_are_filled_and_unmeasured_ones_read_n_a() {
        let text = render(
            "{{m:a}} | {{r:a:b}} | {{spread:a:b}} | {{share:a:b}} | {{m:zzz}} | {{runs}} | {{other}}",
            &runs(),
            "",
            "",
        );
        assert_eq!(
            text,
            "20.0 ns | 0.100 (10.0× faster) | 0.100 (0.100–0.200) | 10.0 % | n/a | 3 | {{other}}"
        );
    }

    #[test]
    fn a_line_that_is_not_a_measurement_is_refused_with_its_number() {
        let error = parse_run("a\t1\nb 2\n").unwrap_err();
        assert_eq!(error, "line 2 is not `metric<TAB>value`");
    }

    #[test]
    fn a_throughput_target_is_a_floor_and_served_rows_name_their_size() {
        let runs: Vec<Run> = [
            "load-call/16/tooltable/rps\t1200\nload-call/16/rmcp/rps\t1000\nload-list/16/tooltable/rps\t900\nload-list/16/rmcp/rps\t1000\nserved-list-http/100/tooltable\t40\nserved-list-http/100/rmcp\t500\n",
        ]
        .iter()
        .map(|t| parse_run(t).unwrap())
        .collect();
        let table = ratio_table(&runs, &[]);
        let row = |start: &str| {
            table
                .lines()
                .find(|l| l.starts_with(start))
                .unwrap_or_else(|| panic!("no row starting with {start:?} in\n{table}"))
                .to_owned()
        };
        let calls = row("| (7) load over HTTP, tools/call of a read tool: requests per second");
        assert!(
            calls.contains("| 16 conn. |") && calls.contains("| ≥ 1.00 | met |"),
            "{calls}"
        );
        let lists = row("| (7) load over HTTP, tools/list: requests per second");
        assert!(lists.contains("| ≥ 1.00 | **missed** |"), "{lists}");
        let served = row("| served tools/list, http, N=100: server CPU per request vs rmcp");
        assert!(
            served.contains("12.5× less CPU") && served.contains("| ≤ 0.100 | met |"),
            "{served}"
        );
    }

    #[test]
    fn a_table_of_some_ratios_has_the_rows_of_those_metrics_alone() {
        let runs = [parse_run(
            "load-call/16/tooltable/rps\t1200\nload-call/16/rmcp/rps\t1000\nserved-call-http/10/tooltable\t40\nserved-call-http/10/rmcp\t100\n",
        )
        .unwrap()];
        let table = render("{{ratios:served-call}}", &runs, "", "");
        assert!(
            table.contains("served tools/call, trivial tool, http, N=10"),
            "{table}"
        );
        assert!(!table.contains("(7) load"), "{table}");
    }

    #[test]
    fn without_load_figures_the_load_table_says_so() {
        assert_eq!(
            load_table(&runs()),
            "The load test did not run in this mode.\n"
        );
    }

    #[test]
    fn a_section_is_replaced_where_it_is_even_when_its_text_occurs_earlier() {
        let dir = std::env::temp_dir().join(format!("tooltable-report-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("run1.tsv"), "a\t1\n").unwrap();
        let out = dir.join("out.md");
        std::fs::write(
            &out,
            "title\n\n<!-- section:cold -->\n<!-- /section:cold -->\n",
        )
        .unwrap();
        run(&Inputs {
            results: dir.clone(),
            machine: PathBuf::from("/dev/null"),
            command: "c".into(),
            out: out.clone(),
            section: Some("cold".into()),
        })
        .unwrap();
        let text = std::fs::read_to_string(&out).unwrap();
        assert!(text.starts_with("title\n\n<!-- section:cold -->"), "{text}");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_section_is_the_text_between_its_markers() {
        let text = "a <!-- section:cold -->\nb {{m:x}}\n<!-- /section:cold --> c";
        assert_eq!(section(text, "cold"), Some("\nb {{m:x}}\n"));
        assert_eq!(section(text, "warm"), None);
        assert!(section(TEMPLATE, "cold").is_some());
    }

    #[test]
    fn every_placeholder_of_the_template_is_known() {
        let text = render(TEMPLATE, &runs(), "machine", "command");
        assert!(
            !text.contains("{{"),
            "an unknown placeholder is left in the template"
        );
    }
}
