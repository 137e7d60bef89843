//! Who may see and call which tool.
//!
//! Two checks always run: the maximum tier, and the tool's permission
//! against the [`Caller`]'s (the operator holds every permission; a token
//! holds its scopes). Then a [`Policy`] decides, per request, from a tool's
//! metadata (permission, tier, toolset, world) and the caller. A tool any of
//! them hides is absent from listings; a call to it is refused with a
//! sentence that names what would allow it (or, when the registry conceals,
//! answered exactly as an unknown tool). Built-in policies cover a maximum
//! tier raised by a named switch, enabled toolsets, and their combination.

use crate::call::identity::{Identity, Permissions};
use crate::registry::pins::Pins;
use crate::rules::info::ToolInfo;
use crate::rules::tier::Tier;
use std::collections::BTreeSet;
use std::fmt;
use std::sync::Arc;

/// Who is asking: what a request carries about its caller.
#[derive(Clone, Debug, Default)]
pub struct Caller {
    identity: Arc<Identity>,
    pins: Option<Arc<Pins>>,
}

impl Caller {
    /// A caller with no identity and no permission.
    pub fn anonymous() -> Caller {
        Caller::default()
    }

    /// The operator who started the server: every permission. This is who
    /// calls on stdio, and over HTTP when no authentication is configured.
    pub fn operator() -> Caller {
        // Every request without a token is the operator's: one shared
        // identity rather than an allocation per request.
        static OPERATOR: std::sync::LazyLock<Arc<Identity>> = std::sync::LazyLock::new(|| {
            Arc::new(Identity {
                subject: None,
                permissions: Permissions::All,
            })
        });
        Caller {
            identity: OPERATOR.clone(),
            pins: None,
        }
    }

    /// A caller holding exactly `permissions`.
    pub fn with_permissions<I, S>(permissions: I) -> Caller
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Caller::from_identity(Identity {
            subject: None,
            permissions: permissions.into_iter().collect(),
        })
    }

    /// A caller with this identity (an authenticated subject and the
    /// permissions it was granted).
    pub fn from_identity(identity: Identity) -> Caller {
        Caller {
            identity: Arc::new(identity),
            pins: None,
        }
    }

    /// The same caller, in a conversation that pinned `pins`.
    pub fn pinned(mut self, pins: Pins) -> Caller {
        self.pins = Some(Arc::new(pins));
        self
    }

    /// Who the caller is.
    pub fn identity(&self) -> &Identity {
        &self.identity
    }

    pub(crate) fn shared_identity(&self) -> Arc<Identity> {
        self.identity.clone()
    }

    /// The permissions the caller holds.
    pub fn permissions(&self) -> &Permissions {
        &self.identity.permissions
    }

    /// The pins of the caller's conversation, if it pinned any.
    pub fn pins(&self) -> Option<&Pins> {
        self.pins.as_deref()
    }

    /// The same caller, outside any pinned conversation.
    pub(crate) fn unpinned(&self) -> Caller {
        Caller {
            identity: self.identity.clone(),
            pins: None,
        }
    }
}

/// Why a policy hides a tool, written for the model that asked: it names
/// the tool and what would allow it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal(pub String);

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A policy's answer.
pub type Access = Result<(), Refusal>;

/// Decides whether a caller may see and call a tool.
pub trait Policy: Send + Sync {
    /// `Ok` to allow; a refusal naming what would allow it otherwise.
    fn check(&self, tool: &ToolInfo<'_>, caller: &Caller) -> Access;

    /// Whether this policy allows every tool to every caller. A registry
    /// whose policy is unrestricted serves the unfiltered listing baked at
    /// build time.
    fn is_unrestricted(&self) -> bool {
        false
    }
}

/// Allows everything.
#[derive(Clone, Copy, Debug, Default)]
pub struct AllowAll;

impl Policy for AllowAll {
    fn check(&self, _: &ToolInfo<'_>, _: &Caller) -> Access {
        Ok(())
    }

    fn is_unrestricted(&self) -> bool {
        true
    }
}

/// A tool that declares a permission needs a caller who holds it: the
/// check every registry runs, whatever its policy.
pub(crate) fn check_permission(tool: &ToolInfo<'_>, caller: &Caller) -> Access {
    match tool.permission {
        Some(needed) if !caller.permissions().grants(needed) => Err(Refusal(format!(
            "{} needs the permission `{needed}`, which this caller has not been granted; ask for it to be granted",
            tool.name
        ))),
        _ => Ok(()),
    }
}

/// Tools above a tier are hidden; the refusal names the switch that raises it.
#[derive(Clone, Debug)]
pub struct MaxTier {
    max: Tier,
    switches: Vec<(Tier, String)>,
}

impl MaxTier {
    /// Allows tools up to and including `max`.
    pub fn new(max: Tier) -> MaxTier {
        MaxTier {
            max,
            switches: Vec::new(),
        }
    }

    /// Names what raises the maximum to `tier`, such as
    /// `"start the server with --allow-destructive"`.
    pub fn switch(mut self, tier: Tier, how: impl Into<String>) -> MaxTier {
        self.switches.retain(|(t, _)| *t != tier);
        self.switches.push((tier, how.into()));
        self
    }

    /// The highest tier allowed.
    pub fn max(&self) -> Tier {
        self.max
    }
}

impl From<Tier> for MaxTier {
    fn from(max: Tier) -> MaxTier {
        MaxTier::new(max)
    }
}

impl Policy for MaxTier {
    fn check(&self, tool: &ToolInfo<'_>, _: &Caller) -> Access {
        if tool.tier <= self.max {
            return Ok(());
        }
        let how = self
            .switches
            .iter()
            .find(|(t, _)| *t == tool.tier)
            .map_or_else(
                || format!("raise the server's maximum tier to {}", tool.tier),
                |(_, how)| how.clone(),
            );
        Err(Refusal(format!(
            "{} is {}, but this server allows tools up to {} only; {how} to allow it",
            tool.name,
            article_tier(tool.tier),
            self.max
        )))
    }
}

fn article_tier(tier: Tier) -> &'static str {
    match tier {
        Tier::Read => "read-only",
        Tier::Write => "a write tool",
        Tier::Destructive => "destructive",
    }
}

/// Only tools of the enabled toolsets (and tools without a toolset).
#[derive(Clone, Debug)]
pub struct Toolsets {
    enabled: BTreeSet<String>,
    how: String,
}

impl Toolsets {
    /// Enables `toolsets`; `how` says what enables another one, such as
    /// `"start the server with --toolset NAME"`.
    pub fn new<I, S>(toolsets: I, how: impl Into<String>) -> Toolsets
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Toolsets {
            enabled: toolsets.into_iter().map(Into::into).collect(),
            how: how.into(),
        }
    }
}

impl Policy for Toolsets {
    fn check(&self, tool: &ToolInfo<'_>, _: &Caller) -> Access {
        match tool.toolset {
            Some(set) if !self.enabled.contains(set) => Err(Refusal(format!(
                "{} belongs to the toolset `{set}`, which is not enabled on this server; {} to enable it",
                tool.name,
                self.how.replace("NAME", set)
            ))),
            _ => Ok(()),
        }
    }
}

/// Every policy must allow; the first refusal answers.
#[derive(Default)]
pub struct AllOf(Vec<Box<dyn Policy>>);

impl AllOf {
    /// No policy yet: allows everything.
    pub fn new() -> AllOf {
        AllOf(Vec::new())
    }

    /// Adds a policy.
    pub fn and(mut self, policy: impl Policy + 'static) -> AllOf {
        self.0.push(Box::new(policy));
        self
    }
}

impl Policy for AllOf {
    fn check(&self, tool: &ToolInfo<'_>, caller: &Caller) -> Access {
        self.0.iter().try_for_each(|p| p.check(tool, caller))
    }

    fn is_unrestricted(&self) -> bool {
        self.0.iter().all(|p| p.is_unrestricted())
    }
}

impl<F> Policy for F
where
    F: Fn(&ToolInfo<'_>, &Caller) -> Access + Send + Sync,
{
    fn check(&self, tool: &ToolInfo<'_>, caller: &Caller) -> Access {
        self(tool, caller)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::tier::World;

    fn tool(
        tier: Tier,
        permission: Option<&'static str>,
        toolset: Option<&'static str>,
    ) -> ToolInfo<'static> {
        ToolInfo {
            name: "notes_delete",
            title: None,
            summary: "",
            tier,
            idempotent: false,
            world: World::Closed,
            task: crate::rules::task::TaskSupport::Forbidden,
            confirm: None,
            permission,
            toolset,
            always_listed: false,
            since: None,
            platforms: &[],
            source: "",
            admin_summary: None,
            example: None,
        }
    }

    #[test]
    fn a_maximum_tier_refusal_names_the_switch_that_raises_it() {
        let policy = MaxTier::new(Tier::Read).switch(
            Tier::Destructive,
            "start the server with --allow-destructive",
        );
        let refusal = policy
            .check(&tool(Tier::Destructive, None, None), &Caller::anonymous())
            .unwrap_err();
        assert_eq!(
            refusal.0,
            "notes_delete is destructive, but this server allows tools up to read only; start the server with --allow-destructive to allow it"
        );
        assert!(
            policy
                .check(&tool(Tier::Read, None, None), &Caller::anonymous())
                .is_ok()
        );
    }

    #[test]
    fn a_permission_must_be_granted_to_the_caller_and_the_operator_holds_them_all() {
        let t = tool(Tier::Write, Some("notes.delete"), None);
        assert!(check_permission(&t, &Caller::anonymous()).is_err());
        assert!(check_permission(&t, &Caller::with_permissions(["notes.read"])).is_err());
        assert!(check_permission(&t, &Caller::with_permissions(["notes.delete"])).is_ok());
        assert!(check_permission(&t, &Caller::operator()).is_ok());
        assert!(check_permission(&tool(Tier::Write, None, None), &Caller::anonymous()).is_ok());
    }

    #[test]
    fn a_toolset_that_is_not_enabled_is_refused_with_how_to_enable_it() {
        let policy = Toolsets::new(["admin"], "start the server with --toolset NAME");
        let refusal = policy
            .check(&tool(Tier::Read, None, Some("notes")), &Caller::anonymous())
            .unwrap_err();
        assert_eq!(
            refusal.0,
            "notes_delete belongs to the toolset `notes`, which is not enabled on this server; start the server with --toolset notes to enable it"
        );
    }

    #[test]
    fn combined_policies_answer_with_the_first_refusal() {
        let policy = AllOf::new()
            .and(MaxTier::new(Tier::Write))
            .and(Toolsets::new(["admin"], "enable it"));
        let refusal = policy
            .check(
                &tool(Tier::Destructive, None, Some("notes")),
                &Caller::anonymous(),
            )
            .unwrap_err();
        assert!(refusal.0.contains("is destructive"), "{refusal}");
        assert!(!policy.is_unrestricted());
        assert!(AllOf::new().and(AllowAll).is_unrestricted());
    }
}
