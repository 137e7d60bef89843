use tooltable_macros::tool;

/// Its example is not JSON.
#[tool(tier = read, example = "{query: milk}")]
fn exemplary() -> String {
    String::new()
}

fn main() {}
