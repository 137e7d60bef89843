//! Compatibility: what a change to a tool surface does to its clients.
//!
//! [`compare`] classifies every change between two manifests, tool by tool,
//! as breaking (a client's call or a pinned fingerprint stops working),
//! compatible (new tools, new optional parameters) or cosmetic (wording),
//! each with a sentence saying why; [`text`], [`json`] and [`markdown`]
//! report the result. The `tooltable diff` command and CI gates use it.

mod classify;
mod report;

pub use classify::{Change, Class, ToolChange, ToolStatus, compare};
pub use report::{REPORT_FORMAT, json, markdown, text};
