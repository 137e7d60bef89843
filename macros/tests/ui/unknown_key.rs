use tooltable_macros::tool;

/// Misspells a key.
#[tool(tier = read, permision = "notes.read")]
fn misspelt() -> String {
    String::new()
}

fn main() {}
