//! conformance-server: the fixture the official MCP conformance suite runs
//! against, built with tooltable.
//!
//! The suite calls tools, prompts and resources by name and checks what
//! comes back, so this crate serves exactly the fixture the suite expects
//! (the names, texts and payloads of its reference "everything" server):
//! the tools are tooltable handlers in [`tools`], [`talk`] (those that talk
//! back to the client while they run) and [`input_required`] (the
//! multi-round flow of 2026-07-28) and [`tasks`] (the long-running ones
//! of the Tasks extension), baked into [`TOOLS`] by the build
//! script; [`handler`] composes them with the [`prompts`] and
//! [`resources`] into one rmcp server, served with tooltable's guarded
//! transports.

pub mod fixture;
pub mod handler;
pub mod input_required;
pub mod prompts;
pub mod resources;
pub mod talk;
pub mod tasks;
pub mod tools;

pub use fixture::Fixture;
pub use handler::{ConformanceServer, server};

/// A 1×1 red PNG, base64-encoded: the image every scenario receives.
pub const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

/// A minimal WAV file, base64-encoded: the audio every scenario receives.
pub const WAV: &str = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

tooltable::include_table!();
