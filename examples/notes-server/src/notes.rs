//! The notes tools.
//!
//! Each handler is an ordinary function; `#[tool]` declares it. The doc
//! comment is the description a model reads, the tier decides the
//! annotations, and the parameter and return types become the schemas.

use crate::store::{NoteRow, Store};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use tooltable::{ToolError, tool};

/// A note.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Note {
    /// The note's id.
    pub id: i64,
    /// Its title.
    pub title: String,
    /// Its text.
    pub body: String,
    /// Its tags.
    pub tags: Vec<String>,
    /// When it was created, in RFC 3339 (UTC).
    pub created_at: String,
}

impl From<NoteRow> for Note {
    fn from(row: NoteRow) -> Note {
        Note {
            id: row.id,
            title: row.title,
            body: row.body,
            tags: row.tags,
            created_at: row.created_at,
        }
    }
}

/// What to create.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct CreateParams {
    /// The title, one line.
    pub title: String,
    /// The text of the note.
    pub body: String,
    /// Tags to file the note under.
    #[serde(default)]
    pub tags: Vec<String>,
}

/// Create a note.
///
/// Stores a new note with a title, a body and optional tags, and returns it
/// with its id and creation time.
#[tool(tier = write, toolset = "notes", world = closed, permission = "notes.write")]
pub fn notes_create(store: &Store, params: CreateParams) -> Result<Note, ToolError> {
    if params.title.trim().is_empty() {
        return Err(ToolError::new("the title is empty; give the note a title"));
    }
    Ok(store
        .create(&params.title, &params.body, &params.tags)?
        .into())
}

/// Which note.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct GetParams {
    /// The note's id.
    pub id: i64,
}

/// Get a note by its id.
#[tool(tier = read, toolset = "notes", world = closed)]
pub async fn notes_get(store: &Store, params: GetParams) -> Result<Note, ToolError> {
    match store.get(params.id)? {
        Some(note) => Ok(note.into()),
        None => Err(ToolError::new(format!("no note with id {}", params.id))),
    }
}

/// What to look for.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct SearchParams {
    /// Text to find in titles and bodies (case-insensitive).
    pub query: String,
    /// Only notes with this tag.
    pub tag: Option<String>,
    /// The most notes to return (1 to 100; 20 when absent).
    #[schemars(range(min = 1, max = 100))]
    pub limit: Option<u32>,
}

/// Notes that matched, newest first.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct SearchResults {
    /// The matching notes, at most `limit` of them.
    pub notes: Vec<Note>,
    /// How many notes matched in all.
    pub total: u64,
}

/// Search notes by text.
///
/// Matches titles and bodies, case-insensitively, optionally within one tag;
/// newest first. Returns at most `limit` notes and the total number of matches.
#[tool(
    tier = read,
    toolset = "notes",
    world = closed,
    example = r#"{"query": "milk", "tag": "shopping", "limit": 5}"#
)]
pub async fn notes_search(store: &Store, params: SearchParams) -> Result<SearchResults, ToolError> {
    let limit = params.limit.unwrap_or(20);
    if !(1..=100).contains(&limit) {
        return Err(ToolError::new(format!(
            "limit is {limit}; give a limit from 1 to 100"
        )));
    }
    let (notes, total) = store.search(&params.query, params.tag.as_deref(), limit)?;
    Ok(SearchResults {
        notes: notes.into_iter().map(Note::from).collect(),
        total,
    })
}

/// What to change.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct UpdateParams {
    /// The note's id.
    pub id: i64,
    /// The new title, if it changes.
    pub title: Option<String>,
    /// The new text, if it changes.
    pub body: Option<String>,
}

/// Update a note's title or body.
///
/// Fields left out keep their value, so repeating the same update changes
/// nothing more.
#[tool(tier = write, idempotent, toolset = "notes", world = closed, permission = "notes.write")]
pub fn notes_update(store: &Store, params: UpdateParams) -> Result<Note, ToolError> {
    if params.title.is_none() && params.body.is_none() {
        return Err(ToolError::new(
            "nothing to update; give a title, a body, or both",
        ));
    }
    match store.update(params.id, params.title.as_deref(), params.body.as_deref())? {
        Some(note) => Ok(note.into()),
        None => Err(ToolError::new(format!("no note with id {}", params.id))),
    }
}

/// Which note to delete.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct DeleteParams {
    /// The note's id.
    pub id: i64,
}

/// The note that was deleted.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Deleted {
    /// The id of the deleted note.
    pub id: i64,
}

/// Delete a note for good.
///
/// Removes the note and its tags. This cannot be undone.
#[tool(
    tier = destructive,
    confirm = "deletes the note and its tags for good",
    permission = "notes.delete",
    toolset = "notes",
    world = closed
)]
pub fn notes_delete(store: &Store, params: DeleteParams) -> Result<Deleted, ToolError> {
    if store.delete(params.id)? {
        Ok(Deleted { id: params.id })
    } else {
        Err(ToolError::new(format!("no note with id {}", params.id)))
    }
}
