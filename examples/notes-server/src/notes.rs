//! The notes tools.
//!
//! Each handler is an ordinary function; `#[tool]` declares it. The doc
//! comment is the description a model reads, the tier decides the
//! annotations, and the parameter and return types become the schemas.

use crate::store::{NoteRow, Store};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::time::Duration;
use tooltable::call::Elicitation;
use tooltable::{Call, ToolError, tool};

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
    /// The title, one line. Left out, the person is asked for one.
    pub title: Option<String>,
    /// The text of the note.
    pub body: String,
    /// Tags to file the note under.
    #[serde(default)]
    pub tags: Vec<String>,
}

/// Create a note.
///
/// Stores a new note with a title, a body and optional tags, and returns it
/// with its id and creation time. Without a title, the person is asked for
/// one (when their client can be asked).
#[tool(tier = write, toolset = "notes", world = closed, permission = "notes.write")]
pub async fn notes_create(
    store: &Store,
    params: CreateParams,
    call: &Call,
) -> Result<Note, ToolError> {
    let title = match params.title {
        Some(title) => title,
        None => ask_title(call).await?,
    };
    if title.trim().is_empty() {
        return Err(ToolError::new("the title is empty; give the note a title"));
    }
    let (body, tags) = (params.body, params.tags);
    Ok(store
        .blocking(move |store| store.create(&title, &body, &tags))
        .await?
        .into())
}

/// Asks the person what to call a new note.
async fn ask_title(call: &Call) -> Result<String, ToolError> {
    let schema = json!({
        "type": "object",
        "properties": {"title": {"type": "string", "description": "The note's title, one line"}},
        "required": ["title"]
    });
    let answer = call
        .elicit(Elicitation::form("What should the new note be called?", schema).key("title"))
        .await?;
    let title = answer
        .content
        .as_ref()
        .and_then(|c| c.get("title"))
        .and_then(|t| t.as_str());
    match (answer.accepted(), title) {
        (true, Some(title)) => Ok(title.to_owned()),
        _ => Err(ToolError::new(
            "the person gave no title, so no note was created; call again with a title",
        )),
    }
}

/// Which note.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct GetParams {
    /// The note's id.
    pub id: i64,
}

/// Get a note by its id.
#[tool(tier = read, toolset = "notes", world = closed)]
pub fn notes_get(store: &Store, params: GetParams) -> Result<Note, ToolError> {
    match store.get(params.id)? {
        Some(note) => Ok(note.into()),
        // The data lets a program tell a missing note from other failures.
        None => Err(ToolError::new(format!("no note with id {}", params.id))
            .with_data(json!({"code": "not_found", "id": params.id}))),
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
    icons((
        src = "data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHZpZXdCb3g9IjAgMCAyNCAyNCI+PGNpcmNsZSBjeD0iMTAiIGN5PSIxMCIgcj0iNiIgZmlsbD0ibm9uZSIgc3Ryb2tlPSIjMzMzIiBzdHJva2Utd2lkdGg9IjIiLz48cGF0aCBkPSJNMTUgMTVsNiA2IiBzdHJva2U9IiMzMzMiIHN0cm9rZS13aWR0aD0iMiIvPjwvc3ZnPg==",
        sizes = "any",
        theme = light
    )),
    example = r#"{"query": "milk", "tag": "shopping", "limit": 5}"#,
    search_hint = "find look up memo text tag"
)]
pub fn notes_search(store: &Store, params: SearchParams) -> Result<SearchResults, ToolError> {
    // The server enforces the schema's range before the handler runs.
    let limit = params.limit.unwrap_or(20);
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
    world = closed,
    task = optional
)]
pub fn notes_delete(store: &Store, params: DeleteParams) -> Result<Deleted, ToolError> {
    if store.delete(params.id)? {
        Ok(Deleted { id: params.id })
    } else {
        Err(ToolError::new(format!("no note with id {}", params.id)))
    }
}

/// Which notes to export.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct ExportParams {
    /// Only notes with this tag.
    pub tag: Option<String>,
}

/// Export notes as Markdown.
///
/// Every note (or every note with a tag), newest first, as a Markdown
/// section. Reports progress note by note and logs what it exported; stops
/// when the call is cancelled. May run as a task.
#[tool(tier = read, toolset = "notes", world = closed, task = optional)]
pub async fn notes_export(
    store: &Store,
    params: ExportParams,
    call: &Call,
) -> Result<String, ToolError> {
    let tag = params.tag;
    let (notes, total) = store
        .blocking(move |store| store.search("", tag.as_deref(), u32::MAX))
        .await?;
    call.info(&format!("exporting {total} notes")).await;
    let count = notes.len() as f64;
    call.progress(0.0, Some(count), Some("starting")).await;
    let mut markdown = String::new();
    for (done, note) in notes.iter().enumerate() {
        if call.is_cancelled() {
            return Err(ToolError::new("the export was cancelled"));
        }
        markdown.push_str(&format!("# {}\n\n{}\n\n", note.title, note.body));
        call.progress((done + 1) as f64, Some(count), Some(&note.title))
            .await;
    }
    call.info(&format!("exported {} notes", notes.len())).await;
    Ok(markdown)
}

/// How long to wait.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct WatchParams {
    /// Seconds to wait for a change (1 to 300).
    #[schemars(range(min = 1, max = 300))]
    pub seconds: u32,
}

/// What changed, if anything.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Watched {
    /// The note created or changed, or none when nothing changed in time.
    pub note: Option<Note>,
}

/// Wait for the next note created or changed.
///
/// Returns that note, or none when nothing changed within the time given.
/// Stops at once when the call is cancelled. May run as a task.
#[tool(tier = read, toolset = "notes", world = closed, task = optional)]
pub async fn notes_watch(
    store: &Store,
    params: WatchParams,
    call: &Call,
) -> Result<Watched, ToolError> {
    let mut watching = store.watch();
    tokio::select! {
        changed = watching.next() => {
            let note = match changed {
                Some(id) => store.blocking(move |store| store.get(id)).await?.map(Note::from),
                None => None,
            };
            Ok(Watched { note })
        }
        () = tokio::time::sleep(Duration::from_secs(u64::from(params.seconds))) => Ok(Watched { note: None }),
        () = call.cancelled() => Err(ToolError::new("the watch was cancelled")),
    }
}

/// The server's counts.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Stats {
    /// How many notes there are.
    pub notes: u64,
    /// How many calls are waiting in `notes_watch`.
    pub watchers: u64,
}

/// Count the notes, and the calls watching for changes.
#[tool(tier = read, toolset = "notes", world = closed)]
pub fn notes_stats(store: &Store) -> Result<Stats, ToolError> {
    Ok(Stats {
        notes: store.count()?,
        watchers: store.watchers() as u64,
    })
}
