//! Handlers as their authors wrote them, in the shapes real rmcp servers
//! use. They fail with a `String`, a `&str`, an `anyhow::Error`, an
//! `eyre::Report`, a standard error, and through a `Result` alias the
//! `#[tool]` macro cannot see through: each failure must reach the client
//! as a tool error (`isError: true`), never as a success carrying
//! `{"Err": ..}`. One fails with structured data, one with a protocol error
//! of its own. One is named with a raw identifier, one names its lifetimes,
//! one takes its context through an alias.

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::json;
use tooltable::{CallError, ToolError, tool};

tooltable::include_table!();

/// What a server of ours might call its results: a `Result` by another name.
pub type Fallible<T> = Result<T, String>;

/// A count, as the tools that succeed return it.
#[derive(Serialize, JsonSchema)]
pub struct Count {
    /// How many.
    pub n: u32,
}

/// Fails with a `String`, as many rmcp handlers do.
#[tool(tier = read)]
pub fn errors_string() -> Result<u32, String> {
    Err("no note 7; list the notes to see their ids".to_owned())
}

/// Fails with a `&str`.
#[tool(tier = read)]
pub fn errors_str() -> Result<u32, &'static str> {
    Err("the shelf is empty")
}

/// Fails through an alias of `Result`.
#[tool(tier = read)]
pub fn errors_alias() -> Fallible<Count> {
    Err("the alias failed".to_owned())
}

/// Succeeds through an alias of `Result`: its output schema is `Count`'s.
#[tool(tier = read)]
pub fn errors_alias_ok() -> Fallible<Count> {
    Ok(Count { n: 3 })
}

/// Fails with an `anyhow::Error` carrying context.
#[tool(tier = read)]
pub async fn errors_anyhow() -> anyhow::Result<Count> {
    Err(anyhow::anyhow!("the disk is full").context("saving the note"))
}

/// Fails with an `eyre::Report` carrying context.
#[tool(tier = read)]
pub async fn errors_eyre() -> eyre::Result<Count> {
    Err(eyre::eyre!("the index is stale")).map_err(|e| e.wrap_err("searching the notes"))
}

/// Fails with data a program can act on, beside the message.
#[tool(tier = read)]
pub fn errors_structured() -> Result<Count, ToolError> {
    Err(
        ToolError::new("the quota for today is spent; try again tomorrow").with_data(json!({
            "code": "quota",
            "retryable": true,
            "context": {"used": 100, "limit": 100},
        })),
    )
}

/// Fails with a protocol error of its own, with data.
#[tool(tier = read)]
pub fn errors_protocol() -> Result<Count, ToolError> {
    Err(ToolError::protocol(
        CallError::new(-32050, "the index is being rebuilt")
            .with_data(json!({"retryAfterMs": 500})),
    ))
}

/// Fails with a standard error, which is internal: logged, never shown.
#[tool(tier = read)]
pub fn errors_internal() -> Result<u32, std::io::Error> {
    Err(std::io::Error::other("cannot open /var/secret/notes.db"))
}

/// Named with a raw identifier: the tool `match`.
#[tool(tier = read)]
pub fn r#match() -> String {
    "matched".to_owned()
}

/// The notes a shelf holds.
pub struct Shelf {
    /// Its notes.
    pub notes: Vec<String>,
}

/// Names the lifetime of its borrow, as some authors do.
#[tool(tier = read)]
// Written as its author wrote it: the lifetime is the point.
#[allow(clippy::needless_lifetimes)]
pub async fn shelf_first<'a>(shelf: &'a Shelf) -> Option<String> {
    shelf.notes.first().cloned()
}

/// The shelf by another name, as a server's modules may call their state.
pub type Library = Shelf;

/// Counts the notes, taking the context through its alias.
#[tool(tier = read)]
pub fn shelf_count(library: &Library) -> usize {
    library.notes.len()
}
