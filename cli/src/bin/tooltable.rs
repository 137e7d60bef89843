//! The `tooltable` command; everything lives in the `tooltable_cli` library.

fn main() -> std::process::ExitCode {
    tooltable_cli::main(std::env::args_os())
}
