//! The premise of every comparison: both crates serve the same tools.
//!
//! Before anything is timed, the tooltable crate's baked listing and the
//! rmcp crate's `list_all()` are compared as JSON values, tool by tool.
//! The one difference allowed is the `$schema` key rmcp keeps at the root
//! of each schema (tooltable drops it: 2020-12 is MCP's default dialect);
//! anything else stops the run, because a ratio between servers that serve
//! different things would mean nothing.

use crate::suite::{Crates, Visit};
use rmcp::ServerHandler;
use serde_json::Value;

/// Checks each size; remembers the first difference.
#[derive(Default)]
pub struct Equivalence {
    /// The first difference found, as a sentence.
    pub difference: Option<String>,
}

impl Visit for Equivalence {
    fn visit<C, S, R>(&mut self, crates: &Crates<C, S, R>)
    where
        C: Send + Sync + 'static,
        S: ServerHandler + Clone + Send + Sync + 'static,
        R: ServerHandler + Clone + Send + Sync + 'static,
    {
        if self.difference.is_none() {
            self.difference = difference(crates).err();
        }
    }
}

fn difference<C, S, R>(crates: &Crates<C, S, R>) -> Result<(), String>
where
    S: Send + Sync + 'static,
{
    let n = crates.n;
    let ours: Vec<Value> = serde_json::from_str(crates.table.list_json()).map_err(|e| {
        format!("the tooltable crate's listing for n = {n} is not a JSON array: {e}")
    })?;
    let mut theirs = serde_json::to_value((crates.stored_router)().list_all())
        .map_err(|e| format!("the rmcp crate's tools for n = {n} do not serialize: {e}"))?;
    let Some(theirs) = theirs.as_array_mut() else {
        return Err(format!(
            "the rmcp crate's tools for n = {n} are not a JSON array"
        ));
    };
    if ours.len() != theirs.len() {
        return Err(format!(
            "for n = {n}, the tooltable crate lists {} tools and the rmcp crate {}",
            ours.len(),
            theirs.len()
        ));
    }
    for (a, b) in ours.iter().zip(theirs.iter_mut()) {
        for key in ["inputSchema", "outputSchema"] {
            if let Some(schema) = b.get_mut(key).and_then(Value::as_object_mut) {
                schema.remove("$schema");
            }
        }
        if let Some(pointer) = first_difference(a, b, String::new()) {
            return Err(format!(
                "for n = {n}, tool {} differs between the crates at {pointer}: tooltable serves {}, rmcp serves {}",
                a["name"],
                a.pointer(&pointer)
                    .map_or("nothing".to_owned(), Value::to_string),
                b.pointer(&pointer)
                    .map_or("nothing".to_owned(), Value::to_string),
            ));
        }
    }
    Ok(())
}

/// The JSON pointer of the first place two values differ.
fn first_difference(a: &Value, b: &Value, at: String) -> Option<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
            keys.sort();
            keys.dedup();
            keys.into_iter().find_map(|k| match (x.get(k), y.get(k)) {
                (Some(p), Some(q)) => first_difference(p, q, format!("{at}/{k}")),
                _ => Some(format!("{at}/{k}")),
            })
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (p, q))| first_difference(p, q, format!("{at}/{i}"))),
        _ if a == b => None,
        _ => Some(at),
    }
}
