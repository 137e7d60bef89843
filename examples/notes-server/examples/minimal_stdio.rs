//! The smallest server: the README's ten lines, compiled by `cargo test` so
//! they stay true. It serves the read tools only (the library's default);
//! raising the tier is one visible call on `Registry::builder`. Run it with
//! `cargo run -p notes-server --example minimal_stdio`.

use tooltable::Registry;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let store = notes_server::Store::open("notes.db".as_ref())?;
    tooltable::serve::stdio(Registry::new(&notes_server::TOOLS), store).await?;
    Ok(())
}
