use tooltable_macros::tool;

/// Declares metadata the grammar refuses.
#[tool(tier = read, meta(_hidden = 1, audience = some_constant))]
fn declared() -> String {
    String::new()
}

fn main() {}
