//! notes-server's read tools on turbomcp, shared by its twins on 3.6
//! (turbomcp.rs) and on 4.0 (turbomcp4.rs): the macro surface is the same on
//! both lines, so the tools are written once, and each twin serves them.
//!
//! Written as turbomcp's README writes a server with shared state: a
//! `Clone` type holding the store in an `Arc`, one `#[server]` impl block of
//! `#[tool]` methods whose doc comments are the descriptions, each parameter
//! one top-level argument described with `#[description]`, and `Json<T>` for
//! the output schema and structured content.

use notes_server::Store;
use notes_server::notes::{
    self, ExportParams, GetParams, Note, SearchParams, SearchResults, Stats, WatchParams, Watched,
};
use std::sync::Arc;
use tooltable::{Call, ToolError};
use turbomcp::{Json, McpError, McpResult, server};

/// The server: the store, shared by every clone turbomcp makes.
#[derive(Clone)]
pub struct Twin {
    pub store: Arc<Store>,
}

/// A tool error as turbomcp reports a failed tool.
fn failed(tool: &str) -> impl FnOnce(ToolError) -> McpError + '_ {
    move |error| McpError::tool_execution_failed(tool, error.to_string())
}

#[server(name = "notes-twin-turbomcp", version = "0.1.0")]
impl Twin {
    /// Get a note by its id.
    #[tool(
        read_only = true,
        destructive = false,
        idempotent = true,
        open_world = false
    )]
    async fn notes_get(&self, #[description("The note's id.")] id: i64) -> McpResult<Json<Note>> {
        notes::notes_get(&self.store, GetParams { id })
            .map(Json)
            .map_err(failed("notes_get"))
    }

    /// Search notes by text.
    ///
    /// Matches titles and bodies, case-insensitively, optionally within one tag;
    /// newest first. Returns at most `limit` notes and the total number of matches.
    #[tool(
        read_only = true,
        destructive = false,
        idempotent = true,
        open_world = false
    )]
    async fn notes_search(
        &self,
        #[description("Text to find in titles and bodies (case-insensitive).")] query: String,
        #[description("Only notes with this tag.")] tag: Option<String>,
        #[description("The most notes to return (1 to 100; 20 when absent).")] limit: Option<u32>,
    ) -> McpResult<Json<SearchResults>> {
        let params = SearchParams { query, tag, limit };
        notes::notes_search(&self.store, params)
            .map(Json)
            .map_err(failed("notes_search"))
    }

    /// Export notes as Markdown.
    ///
    /// Every note (or every note with a tag), newest first, as a Markdown
    /// section. Reports progress note by note and logs what it exported; stops
    /// when the call is cancelled. May run as a task.
    #[tool(
        read_only = true,
        destructive = false,
        idempotent = true,
        open_world = false
    )]
    async fn notes_export(
        &self,
        #[description("Only notes with this tag.")] tag: Option<String>,
    ) -> McpResult<String> {
        notes::notes_export(&self.store, ExportParams { tag }, &Call::detached())
            .await
            .map_err(failed("notes_export"))
    }

    /// Wait for the next note created or changed.
    ///
    /// Returns that note, or none when nothing changed within the time given.
    /// Stops at once when the call is cancelled. May run as a task.
    #[tool(
        read_only = true,
        destructive = false,
        idempotent = true,
        open_world = false
    )]
    async fn notes_watch(
        &self,
        #[description("Seconds to wait for a change (1 to 300).")] seconds: u32,
    ) -> McpResult<Json<Watched>> {
        notes::notes_watch(&self.store, WatchParams { seconds }, &Call::detached())
            .await
            .map(Json)
            .map_err(failed("notes_watch"))
    }

    /// Count the notes, and the calls watching for changes.
    #[tool(
        read_only = true,
        destructive = false,
        idempotent = true,
        open_world = false
    )]
    async fn notes_stats(&self) -> McpResult<Json<Stats>> {
        notes::notes_stats(&self.store)
            .map(Json)
            .map_err(failed("notes_stats"))
    }
}
