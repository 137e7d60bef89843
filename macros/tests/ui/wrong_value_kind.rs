use tooltable_macros::tool;

/// Gives values of the wrong kinds.
#[tool(tier = "sometimes", world = 3, idempotent = "yes", platforms = "linux")]
fn confused() -> String {
    String::new()
}

fn main() {}
