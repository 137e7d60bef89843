//! The wire form: the exact bytes a client sees and the hashes over them.
//!
//! Canonical JSON and deterministic JSON text, the descriptor a `tools/list`
//! serves, its fingerprint, and the manifest that records them. The build
//! script writes these and the server serves them; both use this layer, so
//! a fingerprint computed at build time is the one a client can recompute.

pub mod canonical;
pub mod descriptor;
pub mod fingerprint;
pub mod json_text;
pub mod manifest;
pub mod name_index;
