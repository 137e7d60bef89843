use tooltable_macros::tool;

/// A struct is not a tool.
#[tool(tier = read)]
struct NotATool;

fn main() {}
