use tooltable_macros::tool;

/// Declares icons a client could not show, each a compile error of its own.
#[tool(tier = read, icons("http://example.com/a.png", (src = "data:image/png;base64,iVB*", sizes = "48")))]
fn iconic() -> String {
    String::new()
}

fn main() {}
