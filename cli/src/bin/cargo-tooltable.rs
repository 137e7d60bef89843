//! `cargo tooltable ...`: the `tooltable` command as a cargo subcommand.
//!
//! Cargo runs `cargo-tooltable tooltable ARGS`, passing the subcommand's
//! own name first; it is dropped so the arguments are `tooltable`'s.

fn main() -> std::process::ExitCode {
    let mut args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if args.get(1).is_some_and(|a| a == "tooltable") {
        args.remove(1);
    }
    tooltable_cli::main(args)
}
