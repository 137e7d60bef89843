//! Enable flags an operator can flip at run time.
//!
//! A [`FlagStore`] holds overrides of whether a tool is enabled; a tool
//! without an override is enabled. The in-memory store suits one process;
//! replicas that must agree share a store ([`redis`], with the `redis`
//! feature), which tells each registry of changes made elsewhere so it can
//! tell its clients. A change affects new calls only: a call that already
//! passed the check finishes.

#[cfg(feature = "redis")]
pub mod redis;

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, RwLock};

/// What a store calls when flags changed somewhere else (another replica,
/// an operator's command), so the registry can tell its clients.
pub type OnChange = Arc<dyn Fn() + Send + Sync>;

/// Where enable overrides live.
pub trait FlagStore: Send + Sync {
    /// The override for `tool`, if one is set.
    fn enabled(&self, tool: &str) -> Option<bool>;
    /// Sets the override for `tool`.
    fn set_enabled(&self, tool: &str, enabled: bool);
    /// Whether any tool is switched off. A registry with nothing switched
    /// off serves the listing baked at build time; a store that cannot tell
    /// cheaply keeps this default, which is always correct.
    fn has_disabled(&self) -> bool {
        true
    }

    /// Registers what to call when the flags change other than through
    /// [`FlagStore::set_enabled`] (a store only this process writes never
    /// calls it).
    fn on_change(&self, _notify: OnChange) {}
}

/// Overrides kept in memory.
#[derive(Debug, Default)]
pub struct MemoryStore {
    overrides: RwLock<HashMap<String, bool>>,
}

impl MemoryStore {
    /// An empty store: every tool enabled.
    pub fn new() -> MemoryStore {
        MemoryStore::default()
    }
}

impl FlagStore for MemoryStore {
    fn enabled(&self, tool: &str) -> Option<bool> {
        // A writer that panicked left a plain map behind, still usable.
        let map = self.overrides.read().unwrap_or_else(|p| p.into_inner());
        map.get(tool).copied()
    }

    fn set_enabled(&self, tool: &str, enabled: bool) {
        let mut map = self.overrides.write().unwrap_or_else(|p| p.into_inner());
        map.insert(tool.to_owned(), enabled);
    }

    fn has_disabled(&self) -> bool {
        let map = self.overrides.read().unwrap_or_else(|p| p.into_inner());
        map.values().any(|enabled| !enabled)
    }
}

/// Why an enable flag could not be read or set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FlagError {
    /// No tool has this name.
    UnknownTool(String),
    /// The registry was built without a flag store.
    NoStore,
    /// A shared store could not be reached or read; the sentence says which
    /// and what to do.
    Store(String),
}

impl fmt::Display for FlagError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FlagError::UnknownTool(name) => write!(f, "no tool is named `{name}`"),
            FlagError::NoStore => f.write_str(
                "this server has no flag store, so tools cannot be switched on or off at run time; build the registry with `.store(..)`",
            ),
            FlagError::Store(sentence) => f.write_str(sentence),
        }
    }
}

impl std::error::Error for FlagError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tool_without_an_override_has_none_and_an_override_sticks() {
        let store = MemoryStore::new();
        assert_eq!(store.enabled("t"), None);
        store.set_enabled("t", false);
        assert_eq!(store.enabled("t"), Some(false));
        store.set_enabled("t", true);
        assert_eq!(store.enabled("t"), Some(true));
    }
}
