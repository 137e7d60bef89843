//! The benchmark harness: tooltable against rmcp on generated servers.
//!
//! `tooltable-bench generate` writes this file as the `src/main.rs` of
//! target/bench-crates/harness, beside `crates.rs`, which names the
//! generated crates; `benches/run.sh` builds and runs it.
//!
//! Usage: `harness [--quick] [--out FILE] [--only SUITE] [--sizes N,…]`,
//! where SUITE is list, dispatch, e2e, startup, lowering, served or peers, and
//! `--sizes` keeps some of the sizes generated (both are for profiling one
//! suite under `perf` or callgrind). It first checks that both
//! kinds of crate serve the same tools, then measures, and prints one
//! `metric<TAB>value` line per measurement (also to FILE).
//!
//! `harness serve …` is one server process of the served suite (see
//! [`serve`]); the suite starts them itself.

mod connect;
mod crates;
mod dispatch;
mod e2e;
mod equivalence;
mod list;
mod lowering;
mod measure;
// Dead in the harness that links no twin (`crates::PEERS` is empty there):
// the same sources make both harnesses (see `peers`).
#[allow(dead_code)]
mod peers;
mod results;
mod rmcp_http;
mod serve;
mod served;
mod startup;
mod suite;

use measure::Settings;
use results::Results;

fn main() {
    let all: Vec<String> = std::env::args().skip(1).collect();
    if all.first().map(String::as_str) == Some("serve") {
        serve::main(&all[1..]);
    }
    let mut quick = false;
    let mut out = None;
    let mut only = None;
    let mut sizes = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--quick" => quick = true,
            "--out" => out = args.next(),
            "--only" => only = args.next(),
            "--sizes" => {
                sizes = args.next().map(|list| {
                    list.split(',')
                        .map(|n| {
                            n.trim().parse::<usize>().unwrap_or_else(|_| {
                                eprintln!("`--sizes` takes sizes separated by commas, not `{list}`");
                                std::process::exit(2);
                            })
                        })
                        .collect::<Vec<_>>()
                })
            }
            other => {
                eprintln!(
                    "unknown argument `{other}`; usage: harness [--quick] [--out FILE] [--only SUITE] [--sizes N,…]"
                );
                std::process::exit(2);
            }
        }
    }
    let settings = if quick {
        Settings::QUICK
    } else {
        Settings::FULL
    };
    let mut results = Results::new(out.as_deref()).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2);
    });

    let mut equivalence = equivalence::Equivalence::default();
    Sizes::of(&sizes, &mut equivalence);
    if let Some(difference) = equivalence.difference {
        eprintln!("the generated crates are not equivalent, so nothing was measured: {difference}");
        std::process::exit(1);
    }

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap_or_else(|e| {
            eprintln!("cannot start a tokio runtime: {e}");
            std::process::exit(2);
        });
    const SUITES: [&str; 7] = [
        "list", "dispatch", "e2e", "startup", "lowering", "served", "peers",
    ];
    if let Some(suite) = only.as_deref()
        && !SUITES.contains(&suite)
    {
        eprintln!(
            "there is no suite `{suite}`; the suites are {}",
            SUITES.join(", ")
        );
        std::process::exit(2);
    }
    // The harness that links the other frameworks' twins runs their
    // comparisons; the other one, everything else (see `peers`).
    let linked = !crates::PEERS.is_empty();
    let runs = |suite: &str| match only.as_deref() {
        Some(only) => only == suite,
        None if linked => suite == "peers" || suite == "served",
        None => suite != "peers",
    };
    if runs("list") {
        Sizes::of(&sizes, &mut list::List {
            settings,
            results: &mut results,
        });
    }
    // A served synchronous handler runs in place on a multi-thread
    // runtime's worker and goes to the blocking pool on a current-thread
    // one, so calls are measured on the runtime servers run on.
    let workers = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap_or_else(|e| {
            eprintln!("cannot start a tokio runtime: {e}");
            std::process::exit(2);
        });
    if runs("dispatch") {
        Sizes::of(&sizes, &mut dispatch::Dispatch {
            settings,
            results: &mut results,
            runtime: &workers,
            current: &runtime,
        });
    }
    if runs("e2e") {
        Sizes::of(&sizes, &mut e2e::EndToEnd {
            settings,
            results: &mut results,
            runtime: &runtime,
        });
    }
    if runs("startup") {
        Sizes::of(&sizes, &mut startup::Startup {
            settings,
            results: &mut results,
            runtime: &runtime,
        });
    }
    if runs("lowering") {
        Sizes::of(&sizes, &mut lowering::Lowering {
            settings,
            results: &mut results,
        });
    }
    if runs("peers") {
        Sizes::of(&sizes, &mut peers::Peers {
            settings,
            results: &mut results,
            runtime: &workers,
        });
    }
    if runs("served") {
        Sizes::of(&sizes, &mut served::Served {
            settings,
            results: &mut results,
        });
    }
}

/// A visit of the sizes asked for (`--sizes`), or of all of them.
struct Sizes<'v, V> {
    sizes: &'v Option<Vec<usize>>,
    visit: &'v mut V,
}

impl<'v, V: suite::Visit> Sizes<'v, V> {
    fn of(sizes: &'v Option<Vec<usize>>, visit: &'v mut V) {
        crates::each(&mut Sizes { sizes, visit });
    }
}

impl<V: suite::Visit> suite::Visit for Sizes<'_, V> {
    fn visit<C, S, R>(&mut self, crates: &suite::Crates<C, S, R>)
    where
        C: Send + Sync + 'static,
        S: rmcp::ServerHandler + Clone + Send + Sync + 'static,
        R: rmcp::ServerHandler + Clone + Send + Sync + 'static,
    {
        if self.sizes.as_ref().is_none_or(|sizes| sizes.contains(&crates.n)) {
            self.visit.visit(crates);
        }
    }
}
