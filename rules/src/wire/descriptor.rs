//! The descriptor: a tool exactly as `tools/list` serves it.
//!
//! The build script and the run-time provider path both build descriptors
//! here, so a tool registered at run time looks exactly like one baked at
//! build time, and their fingerprints are computed over the same shape. The
//! text form puts the descriptor's own keys in a fixed order (the order the
//! MCP specification lists them) and sorts every nested object, so the baked
//! bytes never depend on a serializer's map order.

use crate::icons::{self, Icon};
use crate::task::TaskSupport;
use crate::tier::Annotations;
use crate::wire::json_text::{self, Sorted};
use serde::{Serialize, Serializer};
use serde_json::{Map, Value};

/// The descriptor's keys, in the order its text lists them.
pub const KEYS: [&str; 9] = [
    "name",
    "title",
    "icons",
    "description",
    "inputSchema",
    "outputSchema",
    "annotations",
    "execution",
    "_meta",
];

/// The parts of a descriptor. Schemas are final: confirmation already injected.
#[derive(Clone, Debug)]
pub struct DescriptorParts<'a> {
    /// The tool's name, already validated.
    pub name: &'a str,
    /// A display title, when declared.
    pub title: Option<&'a str>,
    /// The icons, already checked; omitted from the descriptor when none.
    pub icons: &'a [Icon],
    /// The full description (the handler's doc comment).
    pub description: &'a str,
    /// The input schema.
    pub input_schema: Value,
    /// The output schema, for tools that return structured content.
    pub output_schema: Option<Value>,
    /// The derived hints.
    pub annotations: Annotations,
    /// Whether it may run as a task; `execution` is omitted when it never does.
    pub task: TaskSupport,
    /// The whole `_meta` object; omitted from the descriptor when empty.
    pub meta: Map<String, Value>,
}

/// The first paragraph of a description, on one line: the summary shown in
/// tables and listings.
pub fn summary(description: &str) -> String {
    description
        .trim()
        .split("\n\n")
        .next()
        .unwrap_or_default()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Assembles the descriptor value.
pub fn build(parts: DescriptorParts<'_>) -> Value {
    let mut map = Map::new();
    map.insert("name".into(), parts.name.into());
    if let Some(title) = parts.title {
        map.insert("title".into(), title.into());
    }
    if !parts.icons.is_empty() {
        map.insert("icons".into(), icons::to_json(parts.icons));
    }
    map.insert("description".into(), parts.description.into());
    map.insert("inputSchema".into(), parts.input_schema);
    if let Some(output) = parts.output_schema {
        map.insert("outputSchema".into(), output);
    }
    map.insert("annotations".into(), parts.annotations.to_json());
    if let Some(execution) = parts.task.execution_json() {
        map.insert("execution".into(), execution);
    }
    if !parts.meta.is_empty() {
        map.insert("_meta".into(), Value::Object(parts.meta));
    }
    Value::Object(map)
}

/// A descriptor that serializes with its own keys in [`KEYS`] order and any
/// others after them, sorted, every nested object's keys sorted.
#[derive(Clone, Copy, Debug)]
pub struct Text<'a>(pub &'a Value);

impl Serialize for Text<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let Some(map) = self.0.as_object() else {
            return Sorted(self.0).serialize(serializer);
        };
        let mut rest: Vec<(&String, &Value)> = map
            .iter()
            .filter(|(k, _)| !KEYS.contains(&k.as_str()))
            .collect();
        rest.sort_by(|a, b| a.0.cmp(b.0));
        let own = KEYS.iter().filter_map(|key| map.get_key_value(*key));
        serializer.collect_map(own.chain(rest).map(|(k, v)| (k, Sorted(v))))
    }
}

/// Serializes a field's descriptor as [`Text`] (for `serialize_with`).
pub fn text<S: Serializer>(descriptor: &Value, serializer: S) -> Result<S::Ok, S::Error> {
    Text(descriptor).serialize(serializer)
}

/// The descriptor's served text: compact, in [`Text`]'s order.
pub fn to_text(descriptor: &Value) -> String {
    json_text::compact(&Text(descriptor))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tier::{Tier, World};
    use serde_json::json;

    fn parts() -> DescriptorParts<'static> {
        DescriptorParts {
            name: "notes_get",
            title: None,
            icons: &[],
            description: "Get a note.",
            input_schema: json!({"type": "object", "properties": {"id": {"type": "integer"}}}),
            output_schema: None,
            annotations: Annotations::derive(Tier::Read, false, World::Closed),
            task: TaskSupport::Forbidden,
            meta: Map::new(),
        }
    }

    #[test]
    fn the_summary_is_the_first_paragraph_on_one_line() {
        assert_eq!(
            summary("Search notes\nby text.\n\nNewest first."),
            "Search notes by text."
        );
        assert_eq!(summary("  One line.  "), "One line.");
    }

    #[test]
    fn optional_parts_are_omitted_and_the_bag_is_left_out_when_empty() {
        let descriptor = build(parts());
        let keys: Vec<&str> = descriptor
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert!(
            !keys.contains(&"title")
                && !keys.contains(&"outputSchema")
                && !keys.contains(&"execution")
                && !keys.contains(&"_meta")
        );
    }

    #[test]
    fn the_text_lists_the_descriptor_keys_in_specification_order() {
        let mut meta = Map::new();
        meta.insert("com.example/x".into(), json!(1));
        let icons = [Icon {
            src: "https://example.com/get.png".into(),
            mime_type: None,
            sizes: Vec::new(),
            theme: None,
        }];
        let descriptor = build(DescriptorParts {
            title: Some("Get"),
            icons: &icons,
            output_schema: Some(json!({"type": "object"})),
            task: TaskSupport::Optional,
            meta,
            ..parts()
        });
        let text = to_text(&descriptor);
        let positions: Vec<usize> = KEYS
            .iter()
            .map(|k| text.find(&format!("\"{k}\":")).unwrap())
            .collect();
        assert!(positions.windows(2).all(|w| w[0] < w[1]), "{text}");
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), descriptor);
    }
}
