use tooltable_macros::tool;

/// States its tier twice.
#[tool(tier = read, tier = write)]
fn twice() -> String {
    String::new()
}

fn main() {}
