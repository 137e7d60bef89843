//! The state every tool and every handler shares: the registry the trigger
//! tools change, and who to tell when the prompt list changes.
//!
//! Clients learn of list changes two ways, one per protocol era. A
//! 2026-07-28 client keeps a `subscriptions/listen` stream open; each stream
//! holds a receiver of [`Fixture::prompt_changes`]. A client of an
//! `initialize` era gets notifications on its session; the fixture keeps
//! each session's peer. Tool-list changes are the library's: the registry
//! announces them to both kinds of client itself.

use rmcp::service::{Peer, RoleServer};
use std::sync::Mutex;
use tokio::sync::broadcast;
use tooltable::Registry;

/// How many changes a slow listener may fall behind before it skips some;
/// every change means the same ("list again"), so skipping loses nothing.
const CHANGE_BACKLOG: usize = 16;

/// The tools' context, shared by every session and request.
pub struct Fixture {
    registry: Registry<Fixture>,
    prompt_changes: broadcast::Sender<()>,
    sessions: Mutex<Vec<Peer<RoleServer>>>,
}

impl Fixture {
    /// A fixture over the registry that serves its tools, nobody listening yet.
    pub fn new(registry: Registry<Fixture>) -> Fixture {
        Fixture {
            registry,
            prompt_changes: broadcast::channel(CHANGE_BACKLOG).0,
            sessions: Mutex::new(Vec::new()),
        }
    }

    /// The registry serving the fixture's tools.
    pub fn registry(&self) -> &Registry<Fixture> {
        &self.registry
    }

    /// Receives a message for every change of the prompt list from now on.
    pub fn prompt_changes(&self) -> broadcast::Receiver<()> {
        self.prompt_changes.subscribe()
    }

    /// Remembers a session of the `initialize` era, to notify it of prompt
    /// changes until its transport closes.
    pub fn add_session(&self, peer: Peer<RoleServer>) {
        let mut sessions = self.sessions.lock().unwrap_or_else(|p| p.into_inner());
        sessions.retain(|p| !p.is_transport_closed());
        sessions.push(peer);
    }

    /// Tells every listening stream and every open session that the prompt
    /// list changed.
    pub async fn prompts_changed(&self) {
        // No receiver is not an error: nobody is listening.
        let _ = self.prompt_changes.send(());
        let sessions: Vec<Peer<RoleServer>> = {
            let mut sessions = self.sessions.lock().unwrap_or_else(|p| p.into_inner());
            sessions.retain(|p| !p.is_transport_closed());
            sessions.clone()
        };
        for peer in sessions {
            if let Err(error) = peer.notify_prompt_list_changed().await {
                tracing::debug!(%error, "a session closed before it heard of a prompt change");
            }
        }
    }
}
