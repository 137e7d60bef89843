use tooltable_macros::tool;

/// Reads, yet asks for confirmation.
#[tool(tier = read, confirm = "shows a note")]
fn careful_reader() -> String {
    String::new()
}

fn main() {}
