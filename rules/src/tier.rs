//! Risk tiers, the world a tool reaches, and the annotations they imply.
//!
//! An author states a tier; the four MCP hints are derived from it so that they
//! cannot contradict it. All four are always emitted: the specification's
//! defaults for a missing hint are the unsafe ones (a missing `readOnlyHint`
//! means "may write", a missing `destructiveHint` means "may destroy"), and
//! some clients refuse tools that leave them out.

use serde_json::{Map, Value};
use std::fmt;

/// How much a tool can change, from least to most. Ordered, so a policy can
/// say "at most `Write`".
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Tier {
    /// Reads only; changes nothing.
    Read,
    /// Changes state, but nothing it does destroys data.
    Write,
    /// May destroy data or do something that cannot be undone.
    Destructive,
}

impl Tier {
    /// Every tier, in order.
    pub const ALL: [Tier; 3] = [Tier::Read, Tier::Write, Tier::Destructive];

    /// The spelling used in `#[tool(tier = ...)]` and in the manifest.
    pub const fn as_str(self) -> &'static str {
        match self {
            Tier::Read => "read",
            Tier::Write => "write",
            Tier::Destructive => "destructive",
        }
    }

    /// Parses the spelling used in `#[tool(tier = ...)]` and in the manifest.
    pub fn parse(text: &str) -> Option<Tier> {
        Tier::ALL.into_iter().find(|t| t.as_str() == text)
    }
}

impl fmt::Display for Tier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

/// Whether a tool reaches beyond the server's own data.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum World {
    /// The tool may reach external systems (the web, other services). The
    /// default, because it is the safe assumption for a client.
    #[default]
    Open,
    /// The tool touches only the server's own, closed set of data.
    Closed,
}

impl World {
    /// Both worlds.
    pub const ALL: [World; 2] = [World::Open, World::Closed];

    /// The spelling used in `#[tool(world = ...)]`.
    pub const fn as_str(self) -> &'static str {
        match self {
            World::Open => "open",
            World::Closed => "closed",
        }
    }

    /// Parses the spelling used in `#[tool(world = ...)]`.
    pub fn parse(text: &str) -> Option<World> {
        World::ALL.into_iter().find(|w| w.as_str() == text)
    }
}

impl fmt::Display for World {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

/// The four MCP tool hints, always all present.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Annotations {
    /// `readOnlyHint`: the tool does not modify its environment.
    pub read_only: bool,
    /// `destructiveHint`: the tool may perform destructive updates.
    pub destructive: bool,
    /// `idempotentHint`: calling it again with the same arguments has no further effect.
    pub idempotent: bool,
    /// `openWorldHint`: the tool may interact with external entities.
    pub open_world: bool,
}

impl Annotations {
    /// The hints a tier implies. `idempotent` is the author's flag; a `Read`
    /// tool is idempotent whatever the flag says.
    pub const fn derive(tier: Tier, idempotent: bool, world: World) -> Annotations {
        let open_world = matches!(world, World::Open);
        match tier {
            Tier::Read => Annotations {
                read_only: true,
                destructive: false,
                idempotent: true,
                open_world,
            },
            Tier::Write => Annotations {
                read_only: false,
                destructive: false,
                idempotent,
                open_world,
            },
            Tier::Destructive => Annotations {
                read_only: false,
                destructive: true,
                idempotent,
                open_world,
            },
        }
    }

    /// The `annotations` object of a tool descriptor.
    pub fn to_json(self) -> Value {
        let mut map = Map::new();
        map.insert("readOnlyHint".into(), Value::Bool(self.read_only));
        map.insert("destructiveHint".into(), Value::Bool(self.destructive));
        map.insert("idempotentHint".into(), Value::Bool(self.idempotent));
        map.insert("openWorldHint".into(), Value::Bool(self.open_world));
        Value::Object(map)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiers_are_ordered_from_read_to_destructive() {
        assert!(Tier::Read < Tier::Write && Tier::Write < Tier::Destructive);
    }

    #[test]
    fn a_read_tool_is_read_only_and_idempotent_whatever_its_flag_says() {
        let hints = Annotations::derive(Tier::Read, false, World::Closed);
        assert_eq!(
            hints,
            Annotations {
                read_only: true,
                destructive: false,
                idempotent: true,
                open_world: false
            }
        );
    }

    #[test]
    fn a_write_tool_takes_idempotence_from_its_flag() {
        assert!(!Annotations::derive(Tier::Write, false, World::Open).idempotent);
        assert!(Annotations::derive(Tier::Write, true, World::Open).idempotent);
        let hints = Annotations::derive(Tier::Write, false, World::Open);
        assert!(!hints.read_only && !hints.destructive && hints.open_world);
    }

    #[test]
    fn a_destructive_tool_is_destructive_and_not_read_only() {
        let hints = Annotations::derive(Tier::Destructive, false, World::Open);
        assert!(hints.destructive && !hints.read_only && !hints.idempotent);
    }

    #[test]
    fn all_four_hints_are_always_emitted() {
        let json = Annotations::derive(Tier::Write, false, World::Open).to_json();
        let keys: Vec<&str> = json
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        for key in [
            "readOnlyHint",
            "destructiveHint",
            "idempotentHint",
            "openWorldHint",
        ] {
            assert!(keys.contains(&key), "{key} missing from {json}");
        }
    }

    #[test]
    fn tier_and_world_round_trip_through_their_spelling() {
        for tier in Tier::ALL {
            assert_eq!(Tier::parse(tier.as_str()), Some(tier));
        }
        for world in World::ALL {
            assert_eq!(World::parse(world.as_str()), Some(world));
        }
        assert_eq!(Tier::parse("admin"), None);
    }
}
