use tooltable_macros::tool;

/// Says nothing about its risk.
#[tool(toolset = "notes")]
fn untiered() -> String {
    String::new()
}

fn main() {}
