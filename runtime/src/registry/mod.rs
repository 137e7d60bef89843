//! The registry's parts: the table served under a caller policy, enable
//! flags and the stores that share them, conversation pins, and tools
//! registered at run time.
//!
//! A [`Registry`](crate::Registry) wraps the baked table; every call to any
//! of its tools, baked or provided, goes through its one dispatch, so the
//! rules the server enforces (docs/security.md) have one home whatever the transport. Nothing here
//! knows MCP's transports: they state what they need as traits of their own.

pub(crate) mod ingest;
pub(crate) mod pins;
pub(crate) mod policy;
pub(crate) mod provider;
// The folder holds the registry's parts; this file is the registry itself.
pub(crate) mod flags;
#[allow(clippy::module_inception)]
pub(crate) mod registry;
#[cfg(feature = "rmcp")]
pub(crate) mod router;
#[cfg(feature = "rmcp")]
pub(crate) mod tasks;

#[cfg(feature = "redis")]
pub use flags::redis::RedisStore;
pub use flags::{FlagError, FlagStore, MemoryStore, OnChange};
pub use pins::{Pins, SnapshotError};
pub use registry::{Changes, Description, Entry, Listing, RegistryBuilder};
#[cfg(feature = "redis")]
pub use tasks::redis::RedisTasks;
