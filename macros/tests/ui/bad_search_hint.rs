use tooltable_macros::tool;

/// Gives a search hint of two lines, which a client's index would read as text.
#[tool(tier = read, search_hint = "echo
alive")]
fn echo() -> String {
    String::new()
}

fn main() {}
