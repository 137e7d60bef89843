//! The runtime's integration tests, one module per subject, gathered in
//! one test binary: each test binary links the runtime, rmcp and tokio
//! again, so one binary is one link where there were seventeen.

mod client;
mod common;

mod adapter;
mod auth;
mod call;
mod calling;
mod compose;
mod consent;
mod discovery;
mod hardening;
mod http_sessions;
mod limits;
mod listing;
mod mounted;
mod process;
mod redis_store;
mod registry;
mod search;
mod serve;
mod shutdown;
mod talk;
mod tasks;
mod test_client;
mod transport_attacks;
