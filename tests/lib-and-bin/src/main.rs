//! The server: its tools in the binary, beside the library's store, with a
//! context type private to the binary, and the table as private as it.

mod app;
mod tools;

use app::App;
use tooltable_lib_and_bin::Store;

// `App` is the binary's own, and so is its table.
tooltable::include_table!(pub(crate));

/// Calls each tool with the arguments given as JSON on the command line
/// (`NAME ARGUMENTS`), printing each result's MCP JSON on a line.
fn main() {
    let app = App {
        store: Store::default(),
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a runtime");
    for pair in args.chunks(2) {
        let arguments =
            serde_json::from_str(pair.get(1).map_or("{}", String::as_str)).unwrap_or_default();
        match runtime.block_on(TOOLS.call(&app, &pair[0], arguments)) {
            Ok(result) => println!("{}", result.to_json()),
            Err(error) => println!("{}", serde_json::json!({ "error": error.to_string() })),
        }
    }
}
