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

/// Which way a row's figure is better, and so how its ratio is taken.
#[derive(Clone, Copy)]
enum Better {
    /// A time or a size: tooltable's figure over the best (lowest) peer's.
    Lower,
    /// A rate: the best (highest) peer's figure over tooltable's, so that
    /// below 1 means ahead in every row.
    Higher,
    /// A count that must be zero for every side (the load test's errors):
    /// no ratio, and the target is met when every side counted none.
    Zero,
}

/// One row kind: a label, the metric with `{n}` for the size of the
/// generated servers (none for a row of notes-server and its twins) and
/// `{side}` for the framework, which way it is better, and the most
/// tooltable's ratio to the best peer may be (the target), if it has one.
struct Row {
    label: &'static str,
    metric: &'static str,
    better: Better,
    bound: Option<f64>,
}

/// At least 1.5× ahead, as a ratio of times.
const AHEAD: f64 = 1.0 / 1.5;

const ROWS: &[Row] = &[
    Row {
        label: "`tools/list` in process",
        metric: "peers-list/{n}/{side}",
        better: Better::Lower,
        bound: Some(AHEAD),
    },
    Row {
        label: "`tools/call` in process, trivial tool",
        metric: "peers-call/{n}/{side}",
        better: Better::Lower,
        bound: Some(1.0),
    },
    Row {
        label: "`tools/call` in process, six-field tool",
        metric: "peers-call-regular/{n}/{side}",
        better: Better::Lower,
        bound: Some(1.0),
    },
    Row {
        label: "start-up with the first listing",
        metric: "peers-startup/{n}/{side}",
        better: Better::Lower,
        bound: Some(AHEAD),
    },
    Row {
        label: "served `tools/list`, stdio (server CPU)",
        metric: "peers-served-list-stdio/{n}/{side}",
        better: Better::Lower,
        bound: Some(1.0),
    },
    Row {
        label: "served `tools/call` trivial, stdio (server CPU)",
        metric: "peers-served-call-stdio/{n}/{side}",
        better: Better::Lower,
        bound: Some(1.0),
    },
    Row {
        label: "served `tools/call` six-field, stdio (server CPU)",
        metric: "peers-served-call-regular-stdio/{n}/{side}",
        better: Better::Lower,
        bound: Some(1.0),
    },
    Row {
        label: "served `tools/list`, HTTP (server CPU)",
        metric: "peers-served-list-http/{n}/{side}",
        better: Better::Lower,
        bound: Some(1.0),
    },
    Row {
        label: "served `tools/call` trivial, HTTP (server CPU)",
        metric: "peers-served-call-http/{n}/{side}",
        better: Better::Lower,
        bound: Some(1.0),
    },
    Row {
        label: "served `tools/call` six-field, HTTP (server CPU)",
        metric: "peers-served-call-regular-http/{n}/{side}",
        better: Better::Lower,
        bound: Some(1.0),
    },
    Row {
        label: "`tools/call` trivial over HTTP under load, 1 connection (requests per second)",
        metric: "peers-load-call-c1/{n}/{side}/rps",
        better: Better::Higher,
        bound: Some(1.0),
    },
    Row {
        label: "`tools/call` trivial over HTTP under load, 16 connections (requests per second)",
        metric: "peers-load-call-c16/{n}/{side}/rps",
        better: Better::Higher,
        bound: Some(1.0),
    },
    Row {
        label: "`tools/call` trivial over HTTP under load, 64 connections (requests per second)",
        metric: "peers-load-call-c64/{n}/{side}/rps",
        better: Better::Higher,
        bound: Some(1.0),
    },
    Row {
        label: "`tools/call` trivial over HTTP under load, 1 connection (p99 latency)",
        metric: "peers-load-call-c1/{n}/{side}/p99",
        better: Better::Lower,
        bound: Some(1.0),
    },
    Row {
        label: "`tools/call` trivial over HTTP under load, 16 connections (p99 latency)",
        metric: "peers-load-call-c16/{n}/{side}/p99",
        better: Better::Lower,
        bound: Some(1.0),
    },
    Row {
        label: "`tools/call` trivial over HTTP under load, 64 connections (p99 latency)",
        metric: "peers-load-call-c64/{n}/{side}/p99",
        better: Better::Lower,
        bound: Some(1.0),
    },
    Row {
        label: "errors in the load and the soak",
        metric: "peers-load/{n}/{side}/errors",
        better: Better::Zero,
        bound: None,
    },
    Row {
        label: "notes-server `notes_get` over HTTP under load, 1 connection (requests per second)",
        metric: "peers-load-notes-c1/notes/{side}/rps",
        better: Better::Higher,
        bound: Some(1.0),
    },
    Row {
        label: "notes-server `notes_get` over HTTP under load, 16 connections (requests per second)",
        metric: "peers-load-notes-c16/notes/{side}/rps",
        better: Better::Higher,
        bound: Some(1.0),
    },
    Row {
        label: "notes-server `notes_get` over HTTP under load, 64 connections (requests per second)",
        metric: "peers-load-notes-c64/notes/{side}/rps",
        better: Better::Higher,
        bound: Some(1.0),
    },
    Row {
        label: "notes-server `notes_get` over HTTP under load, 1 connection (p99 latency)",
        metric: "peers-load-notes-c1/notes/{side}/p99",
        better: Better::Lower,
        bound: Some(1.0),
    },
    Row {
        label: "notes-server `notes_get` over HTTP under load, 16 connections (p99 latency)",
        metric: "peers-load-notes-c16/notes/{side}/p99",
        better: Better::Lower,
        bound: Some(1.0),
    },
    Row {
        label: "notes-server `notes_get` over HTTP under load, 64 connections (p99 latency)",
        metric: "peers-load-notes-c64/notes/{side}/p99",
        better: Better::Lower,
        bound: Some(1.0),
    },
    Row {
        label: "notes-server `tools/list` over HTTP under load, 16 connections (requests per second)",
        metric: "peers-load-notes-list-c16/notes/{side}/rps",
        better: Better::Higher,
        bound: Some(1.0),
    },
    Row {
        label: "notes-server `tools/list` over HTTP under load, 16 connections (p99 latency)",
        metric: "peers-load-notes-list-c16/notes/{side}/p99",
        better: Better::Lower,
        bound: Some(1.0),
    },
    Row {
        label: "errors in the notes-server load",
        metric: "peers-load/notes/{side}/errors",
        better: Better::Zero,
        bound: None,
    },
    Row {
        label: "resident memory before the load",
        metric: "rss/peers-start/{n}/{side}",
        better: Better::Lower,
        bound: None,
    },
    Row {
        label: "resident memory after the soak",
        metric: "rss/peers/{n}/{side}",
        better: Better::Lower,
        bound: Some(1.0),
    },
    Row {
        label: "of which allocated by the server (heap, stacks)",
        metric: "rss/peers-anonymous/{n}/{side}",
        better: Better::Lower,
        bound: None,
    },
    Row {
        label: "threads after the soak",
        metric: "peers-soak/{n}/{side}/threads",
        better: Better::Lower,
        bound: None,
    },
    Row {
        label: "the server binary's code (`.text`)",
        metric: "code/peers/{n}/{side}",
        better: Better::Lower,
        bound: None,
    },
    Row {
        label: "debug build after editing one handler",
        metric: "peers-build-incremental/{n}/{side}",
        better: Better::Lower,
        bound: Some(1.0),
    },
    Row {
        label: "cold build of the stdio server",
        metric: "peers-cold/{n}/{side}",
        better: Better::Lower,
        bound: Some(1.0),
    },
    Row {
        label: "crates compiled by that cold build",
        metric: "peers-cold/{n}/{side}/crates",
        better: Better::Lower,
        bound: None,
    },
];

const SIZES: [&str; 3] = ["10", "100", "1000"];

/// The sizes a row is measured at, as the table's N column shows them:
/// notes-server's rows have one, the server itself.
fn sizes(row: &Row) -> &'static [&'static str] {
    if row.metric.contains("{n}") {
        &SIZES
    } else {
        &["notes-server"]
    }
}

/// tooltable's ratio to the best peer (see [`Better`]; none for a count),
/// within each round: the rounds that measured tooltable and at least one
/// peer.
fn to_best(
    runs: &[Run],
    peers: &[&str],
    better: Better,
    name: &dyn Fn(&str) -> String,
) -> Option<Spread> {
    spread(
        runs.iter()
            .filter_map(|run| {
                let ours = *run.get(&name("tooltable"))?;
                let theirs = peers
                    .iter()
                    .filter_map(|side| run.get(&name(side)).copied());
                match better {
                    Better::Lower => Some(ours / theirs.min_by(f64::total_cmp)?),
                    Better::Higher => Some(theirs.max_by(f64::total_cmp)? / ours),
                    Better::Zero => None,
                }
            })
            .collect(),
    )
}

/// Whether every side counted nothing in every round.
fn none_counted(runs: &[Run], peers: &[&str], name: &dyn Fn(&str) -> String) -> bool {
    runs.iter().all(|run| {
        std::iter::once("tooltable")
            .chain(peers.iter().copied())
            .all(|side| run.get(&name(side)).is_none_or(|&count| count == 0.0))
    })
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
        for &n in sizes(row) {
            let name = |side: &str| row.metric.replace("{n}", n).replace("{side}", side);
            let (ratio, target) = match row.better {
                Better::Zero => {
                    if super::metric(runs, &name("tooltable")).is_none() {
                        continue;
                    }
                    let verdict = if none_counted(runs, &peers, &name) {
                        "met"
                    } else {
                        "**missed**"
                    };
                    (String::new(), format!("0 for every side: {verdict}"))
                }
                better => {
                    let Some(r) = to_best(runs, &peers, better, &name) else {
                        continue;
                    };
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
                    let ratio =
                        format!("{} ({}–{})", number(r.median), number(r.min), number(r.max));
                    (ratio, target)
                }
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
            let _ = writeln!(out, " {ratio} | {target} |");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::parse_run;

    /// The rounds whose measurement files are `texts`.
    fn runs(texts: &[&str]) -> Vec<Run> {
        texts.iter().map(|t| parse_run(t).unwrap()).collect()
    }

    #[test]
    fn the_ratio_is_to_the_fastest_peer_of_each_round() {
        let runs = runs(&[
            "peers-list/10/tooltable\t50\npeers-list/10/rmcp\t200\npeers-list/10/pmcp\t100\n",
            "peers-list/10/tooltable\t60\npeers-list/10/rmcp\t100\npeers-list/10/pmcp\t300\n",
        ]);
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
        let runs = runs(&["peers-call/100/tooltable\t30\npeers-call/100/turbomcp\t20\n"]);
        assert!(table(&runs).contains("1.50 (1.50–1.50) | ≤ 1.00 **missed** |"));
    }

    #[test]
    fn a_rate_is_ahead_when_tooltable_serves_more_than_the_best_peer() {
        let runs = runs(&[concat!(
            "peers-load-call-c16/10/tooltable/rps\t20000\n",
            "peers-load-call-c16/10/rmcp/rps\t15000\n",
            "peers-load-call-c16/10/turbomcp/rps\t18000\n",
        )]);
        let table = table(&runs);
        // 18000 / 20000: the best peer serves nine tenths of what tooltable does.
        assert!(table.contains("| 20000 req/s | 15000 req/s |"), "{table}");
        assert!(
            table.contains("| 0.900 (0.900–0.900) | ≤ 1.00 met |"),
            "{table}"
        );
    }

    #[test]
    fn a_row_of_notes_server_and_its_twins_has_one_line_named_for_the_server() {
        let runs = runs(&[concat!(
            "peers-load-notes-c16/notes/tooltable/rps\t9000\n",
            "peers-load-notes-c16/notes/pmcp/rps\t6000\n",
        )]);
        let table = table(&runs);
        let rows: Vec<&str> = table
            .lines()
            .filter(|line| {
                line.contains("`notes_get` over HTTP under load, 16 connections (requests")
            })
            .collect();
        assert_eq!(rows.len(), 1, "{table}");
        assert!(
            rows[0].contains("| notes-server | 9000 req/s |"),
            "{}",
            rows[0]
        );
        assert!(
            rows[0].contains("| 0.667 (0.667–0.667) | ≤ 1.00 met |"),
            "{}",
            rows[0]
        );
    }

    #[test]
    fn an_error_of_any_side_in_the_load_misses_the_zero_target() {
        let clean = "peers-load/10/tooltable/errors\t0\npeers-load/10/pmcp/errors\t0\n";
        let broken = "peers-load/10/tooltable/errors\t0\npeers-load/10/pmcp/errors\t3\n";
        let row = |text: &str| {
            let table = table(&runs(&[text]));
            table
                .lines()
                .find(|line| line.starts_with("| errors in the load"))
                .map(str::to_owned)
                .unwrap_or_else(|| panic!("no errors row: {table}"))
        };
        assert!(
            row(clean).ends_with("| 0 for every side: met |"),
            "{}",
            row(clean)
        );
        assert!(
            row(broken).ends_with("| 0 for every side: **missed** |"),
            "{}",
            row(broken)
        );
        assert!(row(broken).contains("| 3 |"), "{}", row(broken));
    }
}
