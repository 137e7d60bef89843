//! What the example's integration tests share.

use std::future::Future;

/// Runs a future to completion on a runtime of the test's own: the
/// example's async handlers hand their database work to tokio's blocking
/// pool.
pub fn block_on<F: Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime for the test")
        .block_on(future)
}
