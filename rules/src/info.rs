//! What an author declares about a tool, in one borrowed view.
//!
//! The baked table, tools registered at run time, the manifest and the
//! serving policy all read a tool's metadata through [`ToolInfo`], so a
//! policy or a manifest entry treats a baked tool and a provided one alike.

use crate::confirm::Confirm;
use crate::task::TaskSupport;
use crate::tier::{Annotations, Tier, World};

/// A tool's metadata, borrowed: from the static table, or from a tool a
/// provider registered at run time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolInfo<'a> {
    /// The tool's name.
    pub name: &'a str,
    /// Its display title, if declared.
    pub title: Option<&'a str>,
    /// The first paragraph of its description, on one line.
    pub summary: &'a str,
    /// Its risk tier.
    pub tier: Tier,
    /// The author's `idempotent` flag (implied for `read` tools).
    pub idempotent: bool,
    /// Whether it reaches beyond the server's own data.
    pub world: World,
    /// Whether a call may run as a task.
    pub task: TaskSupport,
    /// Whether calls need confirmation, and the consequence it names.
    pub confirm: Option<Confirm<'a>>,
    /// The permission a caller needs, if any.
    pub permission: Option<&'a str>,
    /// The toolset it belongs to, if any.
    pub toolset: Option<&'a str>,
    /// Whether it is listed beside discovery's search tool and loaded at
    /// once by a client that defers tools ([`always_listed`](crate::always_listed)).
    pub always_listed: bool,
    /// The version that introduced it, as declared.
    pub since: Option<&'a str>,
    /// The platforms it is limited to; empty means all.
    pub platforms: &'a [&'a str],
    /// The source file that declares it, relative to the crate's directory
    /// (`provider:NAME` for a provided tool).
    pub source: &'a str,
    /// A summary for administrators, as declared.
    pub admin_summary: Option<&'a str>,
    /// An example call's arguments as JSON text, as declared.
    pub example: Option<&'a str>,
}

impl ToolInfo<'_> {
    /// The four hints its tier, flag and world imply.
    pub const fn annotations(&self) -> Annotations {
        Annotations::derive(self.tier, self.idempotent, self.world)
    }
}
