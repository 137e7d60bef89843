use tooltable_macros::tool;

pub struct Store;

/// Wants exclusive access.
#[tool(tier = write)]
fn exclusive(store: &mut Store) -> String {
    let _ = store;
    String::new()
}

fn main() {}
