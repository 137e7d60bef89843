//! What a served registry is told before it serves, in one place.
//!
//! `Server`'s setters check each value and write it here, through
//! [`McpServer::configure`](super::adapter::McpServer::configure); every
//! session of the adapter reads the same settings. The defaults are the
//! numbers the setters document (a test in `server.rs` pins each to its
//! sentence).

use crate::mcp::admission::CallLimits;
use crate::mcp::caller::CallerSource;
use crate::mcp::discovery::Discovery;
use crate::registry::tasks::{TaskHome, TaskLimits};
use rmcp::model::Implementation;
use std::time::Duration;

/// How long a client may treat an unfiltered listing as fresh, by default.
pub(crate) const DEFAULT_TTL_MS: u64 = 60_000;

/// How long the server waits for a client to answer a question on the
/// `initialize` era, by default.
pub(crate) const DEFAULT_ASK_TIMEOUT: Duration = Duration::from_secs(10 * 60);

/// How long a call may run, by default: longer than a person has to answer
/// a question ([`DEFAULT_ASK_TIMEOUT`]), short enough that a stuck handler
/// gives its place back.
pub(crate) const DEFAULT_CALL_TIMEOUT: Duration = Duration::from_secs(15 * 60);

/// The largest result sent, by default, in bytes of text and data.
pub(crate) const DEFAULT_MAX_RESULT_BYTES: usize = 16 * 1024 * 1024;

/// The settings of a served registry.
#[derive(Clone)]
pub(crate) struct Settings {
    /// The name and version the server gives clients.
    pub implementation: Implementation,
    /// Instructions sent to clients when they connect.
    pub instructions: Option<String>,
    /// How each request's caller is determined.
    pub caller: CallerSource,
    /// How long a 2026-07-28 client may treat a listing as fresh.
    pub ttl_ms: u64,
    /// The most tools a page of `tools/list` holds; `None` for one page.
    pub page_size: Option<usize>,
    /// How long a call may run before it is stopped.
    pub call_timeout: Duration,
    /// How long to wait for a client's answer to a handler's question.
    pub ask_timeout: Duration,
    /// The largest result sent, in bytes of text and data.
    pub max_result_bytes: usize,
    /// The bounds each call is admitted against.
    pub call_limits: CallLimits,
    /// The bounds on the tasks kept.
    pub task_limits: TaskLimits,
    /// Where tasks are kept.
    pub task_home: TaskHome,
    /// Whether the transports answer listings themselves
    /// ([`listing`](super::listing)).
    pub shortcut_lists: bool,
    /// Whether the transports answer the calls that cannot talk back
    /// themselves ([`calling`](super::calling)).
    pub shortcut_calls: bool,
    /// Discovery mode, when it is on ([`discovery`](super::discovery)).
    pub discovery: Option<Discovery>,
}

impl Settings {
    /// Every default, the server named `implementation`.
    pub(crate) fn new(implementation: Implementation) -> Settings {
        Settings {
            implementation,
            instructions: None,
            caller: CallerSource::Transport,
            ttl_ms: DEFAULT_TTL_MS,
            page_size: None,
            call_timeout: DEFAULT_CALL_TIMEOUT,
            ask_timeout: DEFAULT_ASK_TIMEOUT,
            max_result_bytes: DEFAULT_MAX_RESULT_BYTES,
            call_limits: CallLimits::default(),
            task_limits: TaskLimits::default(),
            task_home: TaskHome::Memory,
            shortcut_lists: true,
            shortcut_calls: true,
            discovery: None,
        }
    }
}
