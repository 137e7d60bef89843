//! The project's own tasks, run as `cargo xtask <task>` (the alias is in
//! `.cargo/config.toml`).
//!
//! `cargo xtask test [ARGS…]` is the README's test command and what `.ci/run`
//! calls: it provides the programs the tests start (see [`prerequisite`]),
//! installing a missing one from Debian's packages when this user can, and
//! then runs `cargo test --workspace ARGS…`. When a program cannot be
//! provided it fails before running any test, with one sentence naming the
//! package and the command that installs it, so no test is skipped and no
//! run goes red half-way through.

mod prerequisite;

use std::process::{Command, ExitCode};

use prerequisite::{PREREQUISITES, Provided};

const USAGE: &str = "usage: cargo xtask test [ARGS…]\n\
    \n\
    test   provide what the tests need (redis-server), then run\n       \
    `cargo test --workspace ARGS…`";

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    match args.next().as_deref() {
        Some("test") => test(args.collect()),
        Some("help" | "-h" | "--help") => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        Some(other) => {
            eprintln!("xtask: there is no task `{other}`.\n\n{USAGE}");
            ExitCode::from(2)
        }
        None => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}

fn test(args: Vec<String>) -> ExitCode {
    for needed in PREREQUISITES {
        match needed.provide() {
            Ok(Provided::AlreadyThere) => {}
            Ok(Provided::Installed) => {
                eprintln!("xtask: installed {} ({})", needed.package, needed.why)
            }
            Err(sentence) => {
                eprintln!("xtask: {sentence}");
                return ExitCode::FAILURE;
            }
        }
    }
    // `cargo run` tells the program which cargo started it.
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    match Command::new(cargo)
        .args(["test", "--workspace"])
        .args(&args)
        .status()
    {
        Ok(status) => match status.code() {
            Some(0) => ExitCode::SUCCESS,
            Some(code) => ExitCode::from(u8::try_from(code).unwrap_or(1)),
            None => ExitCode::FAILURE,
        },
        Err(e) => {
            eprintln!("xtask: cannot start `cargo test --workspace` ({e})");
            ExitCode::FAILURE
        }
    }
}
