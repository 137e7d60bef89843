use tooltable_macros::tool;

/// Has a space in its name.
#[tool(name = "bad name", tier = read)]
fn spaced() -> String {
    String::new()
}

fn main() {}
