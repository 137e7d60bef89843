//! The HTTP connections a server holds, and which one gives way at the limit.
//!
//! A bound on connections alone lets slow clients hold every place: a
//! connection that sends its headers and then a byte of its body every few
//! seconds costs its sender nothing. So a place is held by a connection, and
//! a connection is *serving* only while a request it sent whole is being
//! answered. At the limit, a new connection takes the place of the one that
//! has waited longest without serving (idle between requests, or still
//! sending one), which is closed; only when every connection is serving is
//! the new one refused.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

/// Every connection's place.
pub(crate) struct Connections {
    max: usize,
    places: Mutex<Places>,
    next: AtomicU64,
}

#[derive(Default)]
struct Places {
    held: HashMap<u64, Held>,
}

struct Held {
    /// Requests of this connection being served.
    serving: usize,
    /// When it last stopped serving (or opened).
    idle_since: Instant,
    /// Cancelled to close the connection when it gives way.
    close: CancellationToken,
}

/// A connection's place, given back when dropped.
pub(crate) struct Place {
    connections: Arc<Connections>,
    key: u64,
    close: CancellationToken,
}

/// A request being served, counted until dropped.
pub(crate) struct Serving {
    connections: Arc<Connections>,
    key: u64,
}

impl Connections {
    /// At most `max` connections at once.
    pub(crate) fn new(max: usize) -> Arc<Connections> {
        Arc::new(Connections {
            max: max.max(1),
            places: Mutex::new(Places::default()),
            next: AtomicU64::new(0),
        })
    }

    fn places(&self) -> std::sync::MutexGuard<'_, Places> {
        self.places.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A place for a new connection: a free one, or the place of the
    /// connection that has waited longest without serving, which is told to
    /// close. `None` when every connection is serving.
    pub(crate) fn admit(self: &Arc<Connections>) -> Option<Place> {
        let mut places = self.places();
        if places.held.len() >= self.max {
            let (&oldest, _) = places
                .held
                .iter()
                .filter(|(_, held)| held.serving == 0)
                .min_by_key(|(_, held)| held.idle_since)?;
            if let Some(held) = places.held.remove(&oldest) {
                held.close.cancel();
            }
        }
        let key = self.next.fetch_add(1, Ordering::Relaxed);
        let close = CancellationToken::new();
        places.held.insert(
            key,
            Held {
                serving: 0,
                idle_since: Instant::now(),
                close: close.clone(),
            },
        );
        Some(Place {
            connections: self.clone(),
            key,
            close,
        })
    }
}

impl Place {
    /// Cancelled when this connection gave its place to a newer one.
    pub(crate) fn closed(&self) -> &CancellationToken {
        &self.close
    }

    /// Marks a request of this connection as being served.
    pub(crate) fn serving(&self) -> Serving {
        let mut places = self.connections.places();
        if let Some(held) = places.held.get_mut(&self.key) {
            held.serving += 1;
        }
        Serving {
            connections: self.connections.clone(),
            key: self.key,
        }
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        self.connections.places().held.remove(&self.key);
    }
}

impl Drop for Serving {
    fn drop(&mut self) {
        if let Some(held) = self.connections.places().held.get_mut(&self.key) {
            held.serving -= 1;
            if held.serving == 0 {
                held.idle_since = Instant::now();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn at_the_limit_the_connection_idle_longest_gives_way() {
        let connections = Connections::new(2);
        let first = connections.admit().unwrap();
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        let second = connections.admit().unwrap();
        let third = connections.admit().expect("the oldest idle one gives way");
        assert!(first.closed().is_cancelled());
        assert!(!second.closed().is_cancelled() && !third.closed().is_cancelled());
        drop(first);
        assert_eq!(connections.places().held.len(), 2, "its place was taken");
    }

    #[tokio::test]
    async fn a_connection_serving_a_request_never_gives_way() {
        let connections = Connections::new(2);
        let first = connections.admit().unwrap();
        let second = connections.admit().unwrap();
        let (_a, _b) = (first.serving(), second.serving());
        assert!(connections.admit().is_none(), "both are serving");
        assert!(!first.closed().is_cancelled() && !second.closed().is_cancelled());
    }
}
