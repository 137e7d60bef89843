use tooltable_macros::tool;

/// Returns a future by hand.
#[tool(tier = read)]
fn later() -> impl std::future::Future<Output = String> {
    async { String::new() }
}

fn main() {}
