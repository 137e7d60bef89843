use tooltable_macros::tool;

/// Is generic.
#[tool(tier = read)]
fn generic<T: Default>() -> String {
    String::new()
}

fn main() {}
