//! Whether a tool may run as a task (the Tasks extension,
//! `io.modelcontextprotocol/tasks`).
//!
//! The author declares it once (`#[tool(task = optional)]`); the descriptor
//! carries it as `execution.taskSupport` (the field the 2025-11-25 revision
//! defines), the manifest and the docs show it, and the server reads the
//! same value to decide, per call, whether the call may become a task.

use serde_json::{Value, json};
use std::fmt;

/// How a tool relates to tasks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TaskSupport {
    /// Never a task: every call is answered with its result (the default).
    #[default]
    Forbidden,
    /// A call may become a task when the client declared the extension.
    Optional,
    /// Every call is a task; a client without the extension is refused.
    Required,
}

impl TaskSupport {
    /// Every value.
    pub const ALL: [TaskSupport; 3] = [
        TaskSupport::Forbidden,
        TaskSupport::Optional,
        TaskSupport::Required,
    ];

    /// The spelling used in `#[tool(task = ...)]` and in
    /// `execution.taskSupport`.
    pub const fn as_str(self) -> &'static str {
        match self {
            TaskSupport::Forbidden => "forbidden",
            TaskSupport::Optional => "optional",
            TaskSupport::Required => "required",
        }
    }

    /// Parses the spelling used in `#[tool(task = ...)]`.
    pub fn parse(text: &str) -> Option<TaskSupport> {
        TaskSupport::ALL.into_iter().find(|t| t.as_str() == text)
    }

    /// The descriptor's `execution` object; `None` for a tool that never
    /// runs as a task, whose descriptor leaves it out.
    pub fn execution_json(self) -> Option<Value> {
        (self != TaskSupport::Forbidden).then(|| json!({ "taskSupport": self.as_str() }))
    }

    /// Whether a call may become a task at all.
    pub const fn allows_task(self) -> bool {
        !matches!(self, TaskSupport::Forbidden)
    }
}

impl fmt::Display for TaskSupport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_spelling_reads_back_as_itself() {
        for support in TaskSupport::ALL {
            assert_eq!(TaskSupport::parse(support.as_str()), Some(support));
        }
        assert_eq!(TaskSupport::parse("always"), None);
    }

    #[test]
    fn a_tool_that_never_runs_as_a_task_has_no_execution_in_its_descriptor() {
        assert_eq!(TaskSupport::Forbidden.execution_json(), None);
        assert_eq!(
            TaskSupport::Required.execution_json(),
            Some(json!({"taskSupport": "required"}))
        );
    }
}
