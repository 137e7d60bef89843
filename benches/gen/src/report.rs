//! docs/benchmarks.md, rendered from the measurements of repeated runs.
//!
//! Each run of benches/run.sh leaves one `runK.tsv` file per round (one
//! `metric<TAB>value` line per measurement). A ratio is computed within each
//! round, so both sides of it were measured in the same run, and the report
//! gives its min, median and max over the rounds. The prose lives in the
//! template benches/report.md, whose placeholders this module fills, so a
//! rerun replaces the numbers and keeps the explanations.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The template, with the prose.
const TEMPLATE: &str = include_str!("../../report.md");

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
}

/// Reads the runs and writes the report.
pub fn run(inputs: &Inputs) -> Result<(), String> {
    let runs = read_runs(&inputs.results)?;
    let machine = std::fs::read_to_string(&inputs.machine)
        .map_err(|e| format!("cannot read {}: {e}", inputs.machine.display()))?;
    let text = render(TEMPLATE, &runs, machine.trim_end(), &inputs.command);
    std::fs::write(&inputs.out, text)
        .map_err(|e| format!("cannot write {}: {e}", inputs.out.display()))
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
    measure: &'static str,
    /// tooltable's metric, with `{n}` for the size.
    ours: &'static str,
    /// rmcp's metric (or the whole, for a share), with `{n}` for the size.
    theirs: &'static str,
    /// The largest ratio that meets the target, and the sizes it applies to.
    target: Option<(f64, &'static [usize])>,
    /// Whether the ratio is a part of a whole (shown as a percentage)
    /// rather than tooltable against rmcp (shown as a speed).
    share: bool,
}

const ALL: &[usize] = &[10, 100, 1000];

const SPECS: &[Spec] = &[
    Spec {
        measure: "(1) tools/list in process: unfiltered bytes vs stored router",
        ours: "list/{n}/tooltable-unfiltered",
        theirs: "list/{n}/rmcp-stored",
        target: Some((0.05, &[100])),
        share: false,
    },
    Spec {
        measure: "(1) tools/list in process: unfiltered bytes vs router rebuilt per request",
        ours: "list/{n}/tooltable-unfiltered",
        theirs: "list/{n}/rmcp-rebuild",
        target: None,
        share: false,
    },
    Spec {
        measure: "(1) tools/list in process: filtered (read-only policy) vs stored router with the same tools disabled",
        ours: "list/{n}/tooltable-filtered",
        theirs: "list/{n}/rmcp-stored-filtered",
        target: None,
        share: false,
    },
    Spec {
        measure: "(2) tools/list end to end vs stored router",
        ours: "e2e-list/{n}/tooltable",
        theirs: "e2e-list/{n}/rmcp-stored",
        target: None,
        share: false,
    },
    Spec {
        measure: "(2) tools/list end to end vs router rebuilt per request",
        ours: "e2e-list/{n}/tooltable",
        theirs: "e2e-list/{n}/rmcp-rebuild",
        target: None,
        share: false,
    },
    Spec {
        measure: "(2) tools/call end to end vs stored router",
        ours: "e2e-call/{n}/tooltable",
        theirs: "e2e-call/{n}/rmcp-stored",
        target: None,
        share: false,
    },
    Spec {
        measure: "(2) tools/call end to end vs router rebuilt per request",
        ours: "e2e-call/{n}/tooltable",
        theirs: "e2e-call/{n}/rmcp-rebuild",
        target: None,
        share: false,
    },
    Spec {
        measure: "(3) tools/call dispatch, trivial tool: adapter vs stored router",
        ours: "dispatch/{n}/tooltable",
        theirs: "dispatch/{n}/rmcp-stored",
        target: Some((1.0, ALL)),
        share: false,
    },
    Spec {
        measure: "(3) tools/call dispatch, trivial tool: `Registry::call` vs stored router",
        ours: "dispatch/{n}/tooltable-registry",
        theirs: "dispatch/{n}/rmcp-stored",
        target: None,
        share: false,
    },
    Spec {
        measure: "(3) tools/call dispatch, trivial tool: adapter vs router rebuilt per request",
        ours: "dispatch/{n}/tooltable",
        theirs: "dispatch/{n}/rmcp-rebuild",
        target: None,
        share: false,
    },
    Spec {
        measure: "(3) tools/call dispatch, regular tool: adapter vs stored router",
        ours: "dispatch-regular/{n}/tooltable",
        theirs: "dispatch-regular/{n}/rmcp-stored",
        target: None,
        share: false,
    },
    Spec {
        measure: "(3) tools/call dispatch, regular tool: `Registry::call` vs stored router",
        ours: "dispatch-regular/{n}/tooltable-registry",
        theirs: "dispatch-regular/{n}/rmcp-stored",
        target: None,
        share: false,
    },
    Spec {
        measure: "(4) start-up, cold (fresh thread): table vs router with schemas",
        ours: "startup/{n}/tooltable-cold",
        theirs: "startup/{n}/rmcp-cold",
        target: Some((0.01, &[1000])),
        share: false,
    },
    Spec {
        measure: "(4) start-up, warm (schemas cached): table vs router",
        ours: "startup/{n}/tooltable-warm",
        theirs: "startup/{n}/rmcp-warm",
        target: None,
        share: false,
    },
    Spec {
        measure: "(5) clean `cargo build` of the crate (dependencies built)",
        ours: "build-clean/{n}/tooltable",
        theirs: "build-clean/{n}/rmcp",
        target: Some((1.0, ALL)),
        share: false,
    },
    Spec {
        measure: "(5) incremental `cargo build` after editing one handler body",
        ours: "build-incremental/{n}/tooltable",
        theirs: "build-incremental/{n}/rmcp",
        target: None,
        share: false,
    },
    Spec {
        measure: "(5) the build script's share of the tooltable crate's clean build",
        ours: "build-script/{n}/tooltable",
        theirs: "build-clean/{n}/tooltable",
        target: Some((0.10, &[1000])),
        share: true,
    },
    Spec {
        measure: "(6) `tooltable check` vs `cargo build` after touching one file",
        ours: "check/{n}/check",
        theirs: "check/{n}/build",
        target: Some((0.1, ALL)),
        share: false,
    },
];

fn ratio_table(runs: &[Run]) -> String {
    let mut out = String::from(
        "| measure | N | ratio (median) | min | max | tooltable | target | |\n|---|---:|---:|---:|---:|---|---|---|\n",
    );
    for spec in SPECS {
        for &n in ALL {
            let ours = spec.ours.replace("{n}", &n.to_string());
            let theirs = spec.theirs.replace("{n}", &n.to_string());
            let Some(r) = ratio(runs, &ours, &theirs) else {
                continue;
            };
            let target = spec
                .target
                .filter(|(_, sizes)| sizes.contains(&n))
                .map(|(t, _)| t);
            let (target, verdict) = match target {
                None => (String::new(), String::new()),
                Some(t) => {
                    let verdict = if r.max <= t {
                        "met"
                    } else if r.median <= t {
                        "met (median; not in every round)"
                    } else {
                        "**missed**"
                    };
                    (format!("≤ {}", number(t)), verdict.to_owned())
                }
            };
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} | {} | {} |",
                spec.measure,
                n,
                number(r.median),
                number(r.min),
                number(r.max),
                if spec.share {
                    format!("{:.1} % of it", r.median * 100.0)
                } else {
                    speed(r.median)
                },
                target,
                verdict
            );
        }
    }
    out
}

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

/// A measurement with its unit: bytes for `bytes/…`, otherwise a time in nanoseconds.
fn quantity(name: &str, value: f64) -> String {
    if name.starts_with("bytes/") {
        return format!("{value:.0} B");
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
/// `{{ratios}}`, `{{absolute}}`, `{{m:METRIC}}` (a median with its unit),
/// `{{r:OURS:THEIRS}}` (a median ratio and the speed it means) and
/// `{{share:PART:WHOLE}}` (a median ratio as a percentage). A placeholder
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
        ["ratios"] => ratio_table(runs),
        ["absolute"] => absolute_table(runs),
        ["m", name] => metric(runs, name).map_or_else(na, |s| quantity(name, s.median)),
        ["r", ours, theirs] => ratio(runs, ours, theirs).map_or_else(na, |s| {
            format!("{} ({})", number(s.median), speed(s.median))
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
            "{{m:a}} | {{r:a:b}} | {{share:a:b}} | {{m:zzz}} | {{runs}} | {{other}}",
            &runs(),
            "",
            "",
        );
        assert_eq!(
            text,
            "20.0 ns | 0.100 (10.0× faster) | 10.0 % | n/a | 3 | {{other}}"
        );
    }

    #[test]
    fn a_line_that_is_not_a_measurement_is_refused_with_its_number() {
        let error = parse_run("a\t1\nb 2\n").unwrap_err();
        assert_eq!(error, "line 2 is not `metric<TAB>value`");
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
