//! The rmcp adapter: the registry served as rmcp's `ServerHandler`.
//!
//! Its settings, the caller each request is made for, admission (limits on
//! concurrent and rated calls), discovery mode (a search tool and a call
//! tool instead of the whole listing), the requests the transports answer before
//! rmcp (listings from the baked bytes, calls that cannot talk back), and
//! the composition with an rmcp handler of the user's. It knows rmcp and
//! the registry, not the transports that carry its messages.

pub(crate) mod adapter;
pub(crate) mod admission;
pub(crate) mod caller;
pub(crate) mod calling;
pub(crate) mod compose;
pub(crate) mod discovery;
pub(crate) mod era;
pub(crate) mod listing;
pub(crate) mod request;
pub(crate) mod settings;
pub(crate) mod shortcut;
pub(crate) mod tasks;
