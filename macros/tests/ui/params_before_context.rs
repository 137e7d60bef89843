use tooltable_macros::tool;

pub struct Store;
pub struct Params;

/// Takes its arguments in the wrong order.
#[tool(tier = read)]
fn backwards(params: Params, store: &Store) -> String {
    let _ = (params, store);
    String::new()
}

fn main() {}
