use tooltable_macros::tool;

pub struct Server;

impl Server {
    /// Consumes the server.
    #[tool(tier = read)]
    fn consume(self) -> String {
        String::new()
    }
}

fn main() {}
