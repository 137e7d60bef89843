//! The notes database: SQLite through rusqlite.
//!
//! One connection behind a mutex: SQLite serializes writers anyway, and the
//! tools are short. Every call blocks (on the mutex, or on SQLite's lock
//! when another process writes), so the handlers that call it are
//! synchronous, which the server runs on the blocking pool; an async handler
//! goes through [`Store::blocking`]. Every write runs in a transaction, so a crash or a
//! shutdown between two statements leaves the database as it was. Each
//! committed change bumps a version that `notes_watch` waits on.

use rusqlite::{Connection, OptionalExtension, params};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::sync::watch;

/// A stored note.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoteRow {
    /// The note's id.
    pub id: i64,
    /// Its title.
    pub title: String,
    /// Its text.
    pub body: String,
    /// Its tags, in the order given.
    pub tags: Vec<String>,
    /// When it was created (RFC 3339, UTC).
    pub created_at: String,
}

/// The database: a handle, cheap to clone, to the one connection.
#[derive(Clone)]
pub struct Store(Arc<Shared>);

struct Shared {
    connection: Mutex<Connection>,
    /// The id of the note last created or changed, for watchers.
    changes: watch::Sender<Option<i64>>,
    watchers: AtomicUsize,
}

/// A watcher counted while it waits.
pub struct Watching<'s> {
    store: &'s Store,
    changes: watch::Receiver<Option<i64>>,
}

impl Watching<'_> {
    /// Waits for the next note created or changed; its id.
    pub async fn next(&mut self) -> Option<i64> {
        self.changes.changed().await.ok()?;
        *self.changes.borrow_and_update()
    }
}

impl Drop for Watching<'_> {
    fn drop(&mut self) {
        self.store.0.watchers.fetch_sub(1, Ordering::SeqCst);
    }
}

const SCHEMA: &str = "
    PRAGMA journal_mode = WAL;
    PRAGMA foreign_keys = ON;
    CREATE TABLE IF NOT EXISTS notes (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        title TEXT NOT NULL,
        body TEXT NOT NULL,
        created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    );
    CREATE TABLE IF NOT EXISTS tags (
        note_id INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        tag TEXT NOT NULL,
        PRIMARY KEY (note_id, position)
    );
    CREATE INDEX IF NOT EXISTS tags_by_tag ON tags(tag);
";

impl Store {
    /// Opens (creating if needed) the database at `path`.
    pub fn open(path: &Path) -> rusqlite::Result<Store> {
        Store::from_connection(Connection::open(path)?)
    }

    /// An in-memory database, for tests.
    pub fn in_memory() -> rusqlite::Result<Store> {
        Store::from_connection(Connection::open_in_memory()?)
    }

    fn from_connection(connection: Connection) -> rusqlite::Result<Store> {
        connection.execute_batch(SCHEMA)?;
        Ok(Store(Arc::new(Shared {
            connection: Mutex::new(connection),
            changes: watch::Sender::new(None),
            watchers: AtomicUsize::new(0),
        })))
    }

    /// Runs `work` on tokio's blocking pool, for an async handler: the
    /// database blocks, and an async handler runs on the runtime's workers,
    /// where blocking would stall every other request. A panic in `work` is
    /// the handler's own.
    pub async fn blocking<R: Send + 'static>(
        &self,
        work: impl FnOnce(&Store) -> R + Send + 'static,
    ) -> R {
        let store = self.clone();
        match tokio::task::spawn_blocking(move || work(&store)).await {
            Ok(result) => result,
            Err(error) if error.is_panic() => std::panic::resume_unwind(error.into_panic()),
            Err(error) => panic!("the database work did not run: {error}"),
        }
    }

    /// Starts watching for notes created or changed from now on.
    pub fn watch(&self) -> Watching<'_> {
        self.0.watchers.fetch_add(1, Ordering::SeqCst);
        Watching {
            store: self,
            changes: self.0.changes.subscribe(),
        }
    }

    /// How many calls are watching for changes.
    pub fn watchers(&self) -> usize {
        self.0.watchers.load(Ordering::SeqCst)
    }

    fn changed(&self, id: i64) {
        self.0.changes.send_replace(Some(id));
    }

    fn lock(&self) -> MutexGuard<'_, Connection> {
        // A panic while holding the lock leaves SQLite consistent (every
        // write is one transaction), so a poisoned lock is still usable.
        self.0
            .connection
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Inserts a note and returns it.
    pub fn create(&self, title: &str, body: &str, tags: &[String]) -> rusqlite::Result<NoteRow> {
        let mut connection = self.lock();
        let tx = connection.transaction()?;
        tx.execute(
            "INSERT INTO notes (title, body) VALUES (?1, ?2)",
            params![title, body],
        )?;
        let id = tx.last_insert_rowid();
        for (position, tag) in tags.iter().enumerate() {
            tx.execute(
                "INSERT INTO tags (note_id, position, tag) VALUES (?1, ?2, ?3)",
                params![id, position as i64, tag],
            )?;
        }
        let note = read(&tx, id)?;
        tx.commit()?;
        drop(connection);
        self.changed(id);
        note.ok_or(rusqlite::Error::QueryReturnedNoRows)
    }

    /// The note with `id`, if any.
    pub fn get(&self, id: i64) -> rusqlite::Result<Option<NoteRow>> {
        read(&self.lock(), id)
    }

    /// Notes whose title or body contains `query` (case-insensitively),
    /// optionally with `tag`, newest first; at most `limit`, with the total.
    pub fn search(
        &self,
        query: &str,
        tag: Option<&str>,
        limit: u32,
    ) -> rusqlite::Result<(Vec<NoteRow>, u64)> {
        let connection = self.lock();
        let pattern = format!(
            "%{}%",
            query
                .replace('\\', "\\\\")
                .replace('%', "\\%")
                .replace('_', "\\_")
        );
        let filter = "FROM notes n WHERE (n.title LIKE ?1 ESCAPE '\\' OR n.body LIKE ?1 ESCAPE '\\')
             AND (?2 IS NULL OR EXISTS (SELECT 1 FROM tags t WHERE t.note_id = n.id AND t.tag = ?2))";
        let total: i64 = connection.query_row(
            &format!("SELECT COUNT(*) {filter}"),
            params![pattern, tag],
            |r| r.get(0),
        )?;
        let mut statement =
            connection.prepare(&format!("SELECT n.id {filter} ORDER BY n.id DESC LIMIT ?3"))?;
        let ids = statement
            .query_map(params![pattern, tag, i64::from(limit)], |r| {
                r.get::<_, i64>(0)
            })?
            .collect::<rusqlite::Result<Vec<i64>>>()?;
        let mut notes = Vec::with_capacity(ids.len());
        for id in ids {
            if let Some(note) = read(&connection, id)? {
                notes.push(note);
            }
        }
        Ok((notes, u64::try_from(total).unwrap_or_default()))
    }

    /// Changes a note's title and/or body; `None` when there is no such note.
    pub fn update(
        &self,
        id: i64,
        title: Option<&str>,
        body: Option<&str>,
    ) -> rusqlite::Result<Option<NoteRow>> {
        let mut connection = self.lock();
        let tx = connection.transaction()?;
        let changed = tx.execute(
            "UPDATE notes SET title = COALESCE(?2, title), body = COALESCE(?3, body) WHERE id = ?1",
            params![id, title, body],
        )?;
        let note = if changed == 0 { None } else { read(&tx, id)? };
        tx.commit()?;
        drop(connection);
        if note.is_some() {
            self.changed(id);
        }
        Ok(note)
    }

    /// Deletes a note and its tags; whether it existed.
    pub fn delete(&self, id: i64) -> rusqlite::Result<bool> {
        let mut connection = self.lock();
        let tx = connection.transaction()?;
        let deleted = tx.execute("DELETE FROM notes WHERE id = ?1", params![id])?;
        tx.commit()?;
        Ok(deleted > 0)
    }

    /// How many notes there are.
    pub fn count(&self) -> rusqlite::Result<u64> {
        let n: i64 = self
            .lock()
            .query_row("SELECT COUNT(*) FROM notes", [], |r| r.get(0))?;
        Ok(u64::try_from(n).unwrap_or_default())
    }

    /// Flushes the write-ahead log into the main database file, for a clean shutdown.
    pub fn checkpoint(&self) -> rusqlite::Result<()> {
        self.lock()
            .execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")
    }
}

/// Every read of a note runs these two statements, so they are kept
/// prepared rather than compiled by SQLite on every call.
fn read(connection: &Connection, id: i64) -> rusqlite::Result<Option<NoteRow>> {
    let row = connection
        .prepare_cached("SELECT id, title, body, created_at FROM notes WHERE id = ?1")?
        .query_row(params![id], |r| {
            Ok(NoteRow {
                id: r.get(0)?,
                title: r.get(1)?,
                body: r.get(2)?,
                tags: Vec::new(),
                created_at: r.get(3)?,
            })
        })
        .optional()?;
    let Some(mut note) = row else { return Ok(None) };
    let mut statement =
        connection.prepare_cached("SELECT tag FROM tags WHERE note_id = ?1 ORDER BY position")?;
    note.tags = statement
        .query_map(params![id], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    Ok(Some(note))
}
