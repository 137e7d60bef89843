//! Who is calling, as a handler and the policy see them.
//!
//! A caller's identity comes from the transport: the operator who started
//! the server (stdio, or HTTP without authentication) holds every
//! permission; a bearer token's subject holds the permissions its scopes
//! grant, and nothing else. One type carries that difference, so no check
//! can mistake "no token" for "no permissions" or the other way round.

use std::collections::BTreeSet;

/// The permissions a caller holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Permissions {
    /// Every permission: the operator, on a transport without authentication.
    All,
    /// Exactly these: a token's scopes, or what the program granted.
    Only(BTreeSet<String>),
}

impl Permissions {
    /// No permission at all.
    pub fn none() -> Permissions {
        Permissions::Only(BTreeSet::new())
    }

    /// Whether `permission` is held.
    pub fn grants(&self, permission: &str) -> bool {
        match self {
            Permissions::All => true,
            Permissions::Only(granted) => granted.contains(permission),
        }
    }
}

impl Default for Permissions {
    fn default() -> Permissions {
        Permissions::none()
    }
}

impl<S: Into<String>> FromIterator<S> for Permissions {
    fn from_iter<I: IntoIterator<Item = S>>(permissions: I) -> Permissions {
        Permissions::Only(permissions.into_iter().map(Into::into).collect())
    }
}

/// Who is calling: what the policy saw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Identity {
    /// The authenticated subject (a token's `sub`), if any.
    pub subject: Option<String>,
    /// The permissions held.
    pub permissions: Permissions,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_operator_holds_every_permission_and_a_grant_only_its_own() {
        assert!(Permissions::All.grants("notes.delete"));
        let granted: Permissions = ["notes.read"].into_iter().collect();
        assert!(granted.grants("notes.read"));
        assert!(!granted.grants("notes.delete"));
        assert!(!Permissions::default().grants("notes.read"));
    }
}
