//! What the runtime's integration tests share.

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

/// Runs a future to completion on the test's thread. The fixture's handlers
/// never wait on anything (the shelf is a mutex), so polling until ready
/// suffices and the tests need no async runtime.
pub fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(value) = future.as_mut().poll(&mut cx) {
            return value;
        }
    }
}
