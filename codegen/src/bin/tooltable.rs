//! The `tooltable` command; everything lives in [`tooltable_codegen::cli`].

fn main() -> std::process::ExitCode {
    tooltable_codegen::cli::main()
}
