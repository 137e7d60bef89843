//! `tooltable-bench`: the benchmark helper behind benches/run.sh.
//!
//! - `generate --repo DIR --out DIR --sizes 10,100,1000` writes, for each
//!   size N, a tooltable server and two rmcp servers with N equivalent tools
//!   (see [`spec`]), the harness that measures them, an rmcp twin of
//!   examples/notes-server for the load test, one server in a user's
//!   layout on both sides (see [`layout`]) and the 300 tools of the
//!   discovery catalogue (see [`catalogue`]), as one workspace.
//! - `edit --repo DIR --out DIR --side tooltable|rmcp --body K --doc K
//!   --parameter K` rewrites the edited file of one side of the layout
//!   with each edit at a version (0: as generated), for benches/loop.sh.
//! - `report --results DIR --machine FILE --command TEXT --out FILE` reads
//!   the measurements of every repeated run and writes docs/benchmarks.md
//!   from the template in benches/report.md. With `--section NAME`, only
//!   the template's section marked `<!-- section:NAME -->` is rendered, and
//!   replaces the same section of the existing FILE: benches/cold.sh's
//!   numbers refresh its section without rerunning everything.
//!
//! Nothing generated is committed: run.sh writes it under target/.

mod catalogue;
mod files;
mod harness_crate;
mod layout;
mod peers;
mod report;
mod rmcp_crate;
mod servers_crate;
mod spec;
mod tooltable_crate;
mod twin_crate;
mod workspace;

use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "usage: tooltable-bench generate --repo DIR --out DIR --sizes N[,N...]\n       tooltable-bench edit --repo DIR --out DIR --side tooltable|rmcp [--body K] [--doc K] [--parameter K]\n       tooltable-bench report --results DIR --machine FILE --command TEXT --out FILE [--section NAME]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("tooltable-bench: {message}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> Result<(), String> {
    let (command, options) = args
        .split_first()
        .ok_or_else(|| format!("no command given\n{USAGE}"))?;
    let option = |name: &str| -> Result<String, String> {
        options
            .iter()
            .position(|a| a == name)
            .and_then(|i| options.get(i + 1))
            .cloned()
            .ok_or_else(|| format!("`{command}` needs {name}\n{USAGE}"))
    };
    match command.as_str() {
        "generate" => {
            let sizes = option("--sizes")?
                .split(',')
                .map(|s| {
                    s.trim()
                        .parse::<usize>()
                        .ok()
                        .filter(|n| *n > 0)
                        .ok_or_else(|| {
                            format!("`{s}` is not a number of tools; give sizes like 10,100,1000")
                        })
                })
                .collect::<Result<Vec<_>, _>>()?;
            let repo = absolute(&option("--repo")?)?;
            let out = PathBuf::from(option("--out")?);
            std::fs::create_dir_all(&out)
                .map_err(|e| format!("cannot create {}: {e}", out.display()))?;
            let out = absolute(&out.display().to_string())?;
            workspace::generate(&repo, &out, &sizes).map_err(|e| e.to_string())
        }
        "edit" => {
            let side = option("--side")?;
            let side = layout::Side::parse(&side)
                .ok_or_else(|| format!("`{side}` is not a side; give tooltable or rmcp"))?;
            let mut versions = [0; 3];
            for (version, edit) in versions.iter_mut().zip(layout::Edit::ALL) {
                let flag = format!("--{}", edit.word());
                if let Ok(text) = option(&flag) {
                    *version = text
                        .parse()
                        .map_err(|_| format!("`{flag} {text}` is not a version number"))?;
                }
            }
            let repo = absolute(&option("--repo")?)?;
            let path = PathBuf::from(option("--out")?)
                .join(side.package())
                .join(layout::EDITED_FILE);
            let text = layout::edited(side, &repo.display().to_string(), versions);
            files::write(&path, &text).map_err(|e| e.to_string())
        }
        "report" => report::run(&report::Inputs {
            results: PathBuf::from(option("--results")?),
            machine: PathBuf::from(option("--machine")?),
            command: option("--command")?,
            out: PathBuf::from(option("--out")?),
            section: option("--section").ok(),
        }),
        other => Err(format!("unknown command `{other}`\n{USAGE}")),
    }
}

fn absolute(path: &str) -> Result<PathBuf, String> {
    std::fs::canonicalize(path).map_err(|e| format!("cannot find {path}: {e}"))
}
