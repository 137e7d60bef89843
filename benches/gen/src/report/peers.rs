//! The report's opening table: every framework side by side, and
//! tooltable's ratio to the best of its peers.
//!
//! A claim of "fastest" has to meet every framework authors pick, not one,
//! so each row shows each framework's own figure and then tooltable's
//! figure divided by the best peer's, taken within each round (the sides of
//! a row are measured in turn in the same run) and spread over the rounds.

use super::{Run, Spread, number, quantity, spread};
use crate::peers::Framework;
use std::fmt::Write as _;

/// tooltable's peers, in the table's column order: rmcp, then every
/// framework a twin is written on.
fn peers() -> Vec<&'static str> {
    std::iter::once("rmcp")
        .chain(Framework::ALL.map(Framework::word))
        .collect()
}

/// One row kind: a label, the metric with `{n}` for the size and `{side}`
/// for the framework, and the most tooltable's ratio to the best peer may
/// be (the target), if it has one.
struct Row {
    label: &'static str,
    metric: &'static str,
    bound: Option<f64>,
}

/// At least 1.5× ahead, as a ratio of times.
const AHEAD: f64 = 1.0 / 1.5;

const ROWS: &[Row] = &[
    Row {
        label: "`tools/list` in process",
        metric: "peers-list/{n}/{side}",
        bound: Some(AHEAD),
    },
    Row {
        label: "`tools/call` in process, trivial tool",
        metric: "peers-call/{n}/{side}",
        bound: Some(1.0),
    },
    Row {
        label: "`tools/call` in process, six-field tool",
        metric: "peers-call-regular/{n}/{side}",
        bound: Some(1.0),
    },
    Row {
        label: "start-up with the first listing",
        metric: "peers-startup/{n}/{side}",
        bound: Some(AHEAD),
    },
    Row {
        label: "served `tools/list`, stdio (server CPU)",
        metric: "peers-served-list-stdio/{n}/{side}",
        bound: Some(1.0),
    },
    Row {
        label: "served `tools/call` trivial, stdio (server CPU)",
        metric: "peers-served-call-stdio/{n}/{side}",
        bound: Some(1.0),
    },
    Row {
        label: "served `tools/call` six-field, stdio (server CPU)",
        metric: "peers-served-call-regular-stdio/{n}/{side}",
        bound: Some(1.0),
    },
    Row {
        label: "served `tools/list`, HTTP (server CPU)",
        metric: "peers-served-list-http/{n}/{side}",
        bound: Some(1.0),
    },
    Row {
        label: "served `tools/call` trivial, HTTP (server CPU)",
        metric: "peers-served-call-http/{n}/{side}",
        bound: Some(1.0),
    },
    Row {
        label: "served `tools/call` six-field, HTTP (server CPU)",
        metric: "peers-served-call-regular-http/{n}/{side}",
        bound: Some(1.0),
    },
    Row {
        label: "debug build after editing one handler",
        metric: "peers-build-incremental/{n}/{side}",
        bound: Some(1.0),
    },
    Row {
        label: "cold build of the stdio server",
        metric: "peers-cold/{n}/{side}",
        bound: Some(1.0),
    },
    Row {
        label: "crates compiled by that cold build",
        metric: "peers-cold/{n}/{side}/crates",
        bound: None,
    },
];

const SIZES: [usize; 3] = [10, 100, 1000];

/// tooltable's figure over the best peer's, within each round: the rounds
/// that measured tooltable and at least one peer.
fn to_best(runs: &[Run], peers: &[&str], name: &dyn Fn(&str) -> String) -> Option<Spread> {
    spread(
        runs.iter()
            .filter_map(|run| {
                let ours = run.get(&name("tooltable"))?;
                let best = peers
                    .iter()
                    .filter_map(|side| run.get(&name(side)).copied())
                    .min_by(f64::total_cmp)?;
                Some(ours / best)
            })
            .collect(),
    )
}

/// The table, with a row per measure and size that was measured.
pub fn table(runs: &[Run]) -> String {
    let peers = peers();
    let mut out = String::from("| measure | N | tooltable |");
    for side in &peers {
        let _ = write!(out, " {side} |");
    }
    out.push_str(" tooltable / best peer (median, min–max) | target |\n|---|---:|---:|");
    out.push_str(&"---:|".repeat(peers.len()));
    out.push_str("---:|---|\n");
    for row in ROWS {
        for n in SIZES {
            let name = |side: &str| {
                row.metric
                    .replace("{n}", &n.to_string())
                    .replace("{side}", side)
            };
            let Some(r) = to_best(runs, &peers, &name) else {
                continue;
            };
            let cell = |side: &str| {
                let metric = name(side);
                super::metric(runs, &metric)
                    .map_or_else(|| "n/a".to_owned(), |s| quantity(&metric, s.median))
            };
            let _ = write!(out, "| {} | {n} | {} |", row.label, cell("tooltable"));
            for side in &peers {
                let _ = write!(out, " {} |", cell(side));
            }
            let target = row.bound.map_or_else(String::new, |bound| {
                let verdict = if r.max <= bound {
                    "met"
                } else if r.median <= bound {
                    "met (median; not in every round)"
                } else {
                    "**missed**"
                };
                format!("≤ {} {verdict}", number(bound))
            });
            let _ = writeln!(
                out,
                " {} ({}–{}) | {target} |",
                number(r.median),
                number(r.min),
                number(r.max),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::parse_run;

    #[test]
    fn the_ratio_is_to_the_fastest_peer_of_each_round() {
        let runs: Vec<Run> = [
            "peers-list/10/tooltable\t50\npeers-list/10/rmcp\t200\npeers-list/10/pmcp\t100\n",
            "peers-list/10/tooltable\t60\npeers-list/10/rmcp\t100\npeers-list/10/pmcp\t300\n",
        ]
        .iter()
        .map(|t| parse_run(t).unwrap())
        .collect();
        let table = table(&runs);
        // 50/100 in the first round, 60/100 in the second.
        assert!(
            table.contains("| 0.550 (0.500–0.600) | ≤ 0.667 met |"),
            "{table}"
        );
        assert!(
            table.contains("| n/a |"),
            "an unmeasured peer reads n/a: {table}"
        );
    }

    #[test]
    fn a_ratio_above_the_bound_is_a_miss() {
        let runs: Vec<Run> = ["peers-call/100/tooltable\t30\npeers-call/100/turbomcp\t20\n"]
            .iter()
            .map(|t| parse_run(t).unwrap())
            .collect();
        assert!(table(&runs).contains("1.50 (1.50–1.50) | ≤ 1.00 **missed** |"));
    }
}
