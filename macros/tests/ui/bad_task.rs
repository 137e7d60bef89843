use tooltable_macros::tool;

/// Says how it runs as a task in words the attribute does not know.
#[tool(tier = read, task = sometimes)]
fn run_long() -> String {
    String::new()
}

fn main() {}
