//! The store a server keeps, as a library: no tools here.

use std::sync::Mutex;

/// Entities, kept in memory.
#[derive(Default)]
pub struct Store {
    entities: Mutex<Vec<String>>,
}

impl Store {
    /// Adds `name`; how many there are now.
    pub fn add(&self, name: &str) -> usize {
        let mut entities = self.entities.lock().unwrap_or_else(|p| p.into_inner());
        entities.push(name.to_owned());
        entities.len()
    }

    /// How many there are.
    pub fn count(&self) -> usize {
        self.entities
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .len()
    }
}
