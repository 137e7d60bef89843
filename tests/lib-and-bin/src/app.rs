//! What every handler is given: the binary's own type.

use tooltable_lib_and_bin::Store;

/// The server's state.
pub(crate) struct App {
    /// The library's store.
    pub store: Store,
}
