//! The notes-server command: inspect the tool table.

use clap::{Parser, Subcommand};
use notes_server::TOOLS;

#[derive(Parser)]
#[command(
    version,
    about = "An MCP server that keeps notes in SQLite, built with tooltable."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print the tool table baked at build time.
    Tools {
        /// Print the manifest JSON, rendered from the baked table.
        #[arg(long)]
        json: bool,
    },
}

fn main() {
    let cli = Cli::parse();
    match cli.command {
        Command::Tools { json: true } => print!("{}", TOOLS.manifest().render()),
        Command::Tools { json: false } => print_table(),
    }
}

fn print_table() {
    let yes_no = |b: bool| if b { "yes" } else { "no" };
    println!(
        "{:<14} {:<12} {:<9} {:<12} {:<10} {:<10} {}",
        "NAME", "TIER", "READONLY", "DESTRUCTIVE", "IDEMPOTENT", "OPENWORLD", "FINGERPRINT"
    );
    for tool in TOOLS.tools() {
        let hints = tool.info().annotations();
        println!(
            "{:<14} {:<12} {:<9} {:<12} {:<10} {:<10} {}",
            tool.name(),
            tool.info().tier,
            yes_no(hints.read_only),
            yes_no(hints.destructive),
            yes_no(hints.idempotent),
            yes_no(hints.open_world),
            tool.fingerprint().short()
        );
    }
    println!(
        "{} tools, inventory {}",
        TOOLS.len(),
        TOOLS.inventory().short()
    );
}
