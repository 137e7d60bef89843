//! What the harness knows about one size of generated crates.
//!
//! The crates differ per size (`tt_n100`, `rmcp_stored_n100`, …), each with
//! its own types, so the benchmarks are generic functions and `crates.rs`
//! (written by the generator for the sizes asked for) hands each size to a
//! [`Visit`] as a [`Crates`].

use rmcp::ServerHandler;
use rmcp::handler::server::router::tool::ToolRouter;
use tooltable::Table;

/// One size: the tooltable crate and the two rmcp crates with `n` tools.
pub struct Crates<C: 'static, S, R> {
    /// How many tools each crate has.
    pub n: usize,
    /// The tooltable crate's baked table.
    pub table: &'static Table<C>,
    /// The tooltable crate's handler context.
    pub context: fn() -> C,
    /// The tooltable crate's directory (for the lowering benchmark).
    pub dir: &'static str,
    /// The rmcp server that stores its router.
    pub stored: fn() -> S,
    /// How that server builds its router (schemas included).
    pub stored_router: fn() -> ToolRouter<S>,
    /// The rmcp server whose default handler rebuilds its router per request.
    pub rebuild: fn() -> R,
    /// How that server builds its router, which it does on every request.
    pub rebuild_router: fn() -> ToolRouter<R>,
}

/// What each benchmark does with one size.
pub trait Visit {
    /// Measures one size.
    fn visit<C, S, R>(&mut self, crates: &Crates<C, S, R>)
    where
        C: Send + Sync + 'static,
        S: ServerHandler + Clone + Send + Sync + 'static,
        R: ServerHandler + Clone + Send + Sync + 'static;
}
