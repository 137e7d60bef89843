//! Content blocks a tool result can carry.
//!
//! Most tools return a value (structured content) or a string (text); a
//! handler that needs images, audio or resources returns [`Content`] blocks
//! directly, one or several. Each block serializes to the MCP shape for its
//! `type`, with the optional [`ContentAnnotations`] MCP defines for content (who it
//! is for, how important it is, when it last changed).

use serde_json::{Map, Value};

/// One content block of a tool result.
#[derive(Clone, Debug, PartialEq)]
pub enum Content {
    /// Plain text.
    Text {
        /// The text.
        text: String,
        /// Who the block is for, and how much it matters.
        annotations: Option<Box<ContentAnnotations>>,
    },
    /// An image, base64-encoded.
    Image {
        /// The base64-encoded bytes.
        data: String,
        /// The image's MIME type, such as `image/png`.
        mime_type: String,
        /// Who the block is for, and how much it matters.
        annotations: Option<Box<ContentAnnotations>>,
    },
    /// Audio, base64-encoded.
    Audio {
        /// The base64-encoded bytes.
        data: String,
        /// The audio's MIME type, such as `audio/wav`.
        mime_type: String,
        /// Who the block is for, and how much it matters.
        annotations: Option<Box<ContentAnnotations>>,
    },
    /// A link to a resource the client can read.
    ResourceLink(Box<ResourceLink>),
    /// A resource embedded in the result, as text or base64 bytes.
    Resource {
        /// The resource's URI.
        uri: String,
        /// Its MIME type, if known.
        mime_type: Option<String>,
        /// Its contents.
        body: ResourceBody,
        /// Who the block is for, and how much it matters.
        annotations: Option<Box<ContentAnnotations>>,
    },
}

/// A link to a resource the client can read. (Boxed in [`Content`]: a
/// result is usually text, and every block is as large as the largest kind.)
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ResourceLink {
    /// The resource's URI.
    pub uri: String,
    /// Its name.
    pub name: String,
    /// A title for people, if any.
    pub title: Option<String>,
    /// What it is, if said.
    pub description: Option<String>,
    /// Its MIME type, if known.
    pub mime_type: Option<String>,
    /// Its size in bytes, if known.
    pub size: Option<u64>,
    /// Who the block is for, and how much it matters.
    pub annotations: Option<Box<ContentAnnotations>>,
}

/// The contents of an embedded resource.
#[derive(Clone, Debug, PartialEq)]
pub enum ResourceBody {
    /// Text contents.
    Text(String),
    /// Binary contents, base64-encoded.
    Blob(String),
}

/// Who a content block is meant for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The person using the client.
    User,
    /// The model.
    Assistant,
}

impl Role {
    /// The spelling MCP uses.
    pub const fn as_str(self) -> &'static str {
        match self {
            Role::User => "user",
            Role::Assistant => "assistant",
        }
    }
}

/// MCP's annotations on a content block: hints a client may use to decide
/// what to show and to whom. They are hints, never enforced.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ContentAnnotations {
    /// Who the block is for; empty means unsaid.
    pub audience: Vec<Role>,
    /// How important it is, from 0 (least) to 1 (most).
    pub priority: Option<f64>,
    /// When it last changed, as an ISO 8601 timestamp.
    pub last_modified: Option<String>,
}

impl ContentAnnotations {
    /// The annotations' MCP JSON.
    pub fn to_json(&self) -> Value {
        let mut map = Map::new();
        if !self.audience.is_empty() {
            let roles = self.audience.iter().map(|r| Value::from(r.as_str()));
            map.insert("audience".into(), Value::Array(roles.collect()));
        }
        if let Some(priority) = self.priority {
            map.insert("priority".into(), priority.into());
        }
        if let Some(at) = &self.last_modified {
            map.insert("lastModified".into(), at.as_str().into());
        }
        Value::Object(map)
    }
}

impl Content {
    /// The bytes of the block's payload: its text, data or contents.
    pub(crate) fn payload_bytes(&self) -> usize {
        match self {
            Content::Text { text, .. } => text.len(),
            Content::Image { data, .. } | Content::Audio { data, .. } => data.len(),
            Content::ResourceLink(link) => link.uri.len() + link.name.len(),
            Content::Resource { body, uri, .. } => {
                uri.len()
                    + match body {
                        ResourceBody::Text(text) | ResourceBody::Blob(text) => text.len(),
                    }
            }
        }
    }

    /// A text block.
    pub fn text(text: impl Into<String>) -> Content {
        Content::Text {
            text: text.into(),
            annotations: None,
        }
    }

    /// An image block from base64-encoded bytes.
    pub fn image(data: impl Into<String>, mime_type: impl Into<String>) -> Content {
        Content::Image {
            data: data.into(),
            mime_type: mime_type.into(),
            annotations: None,
        }
    }

    /// An audio block from base64-encoded bytes.
    pub fn audio(data: impl Into<String>, mime_type: impl Into<String>) -> Content {
        Content::Audio {
            data: data.into(),
            mime_type: mime_type.into(),
            annotations: None,
        }
    }

    /// An embedded resource holding text.
    pub fn resource_text(
        uri: impl Into<String>,
        mime_type: impl Into<String>,
        text: impl Into<String>,
    ) -> Content {
        Content::Resource {
            uri: uri.into(),
            mime_type: Some(mime_type.into()),
            body: ResourceBody::Text(text.into()),
            annotations: None,
        }
    }

    /// An embedded resource holding base64-encoded bytes.
    pub fn resource_blob(
        uri: impl Into<String>,
        mime_type: impl Into<String>,
        blob: impl Into<String>,
    ) -> Content {
        Content::Resource {
            uri: uri.into(),
            mime_type: Some(mime_type.into()),
            body: ResourceBody::Blob(blob.into()),
            annotations: None,
        }
    }

    /// A link to a resource the client can read.
    pub fn link(uri: impl Into<String>, name: impl Into<String>) -> Content {
        Content::ResourceLink(Box::new(ResourceLink {
            uri: uri.into(),
            name: name.into(),
            ..ResourceLink::default()
        }))
    }

    /// The same block with `annotations`.
    pub fn with_annotations(mut self, new: ContentAnnotations) -> Content {
        *self.annotations_mut() = Some(Box::new(new));
        self
    }

    /// The block's annotations, if any.
    pub fn annotations(&self) -> Option<&ContentAnnotations> {
        match self {
            Content::Text { annotations, .. }
            | Content::Image { annotations, .. }
            | Content::Audio { annotations, .. }
            | Content::Resource { annotations, .. } => annotations.as_deref(),
            Content::ResourceLink(link) => link.annotations.as_deref(),
        }
    }

    fn annotations_mut(&mut self) -> &mut Option<Box<ContentAnnotations>> {
        match self {
            Content::Text { annotations, .. }
            | Content::Image { annotations, .. }
            | Content::Audio { annotations, .. }
            | Content::Resource { annotations, .. } => annotations,
            Content::ResourceLink(link) => &mut link.annotations,
        }
    }

    /// The block's MCP JSON.
    pub fn to_json(&self) -> Value {
        let mut map = Map::new();
        let mut put = |key: &str, value: &str| {
            map.insert(key.to_owned(), Value::String(value.to_owned()));
        };
        match self {
            Content::Text { text, .. } => {
                put("type", "text");
                put("text", text);
            }
            Content::Image {
                data, mime_type, ..
            } => {
                put("type", "image");
                put("data", data);
                put("mimeType", mime_type);
            }
            Content::Audio {
                data, mime_type, ..
            } => {
                put("type", "audio");
                put("data", data);
                put("mimeType", mime_type);
            }
            Content::ResourceLink(link) => {
                put("type", "resource_link");
                put("uri", &link.uri);
                put("name", &link.name);
                for (key, value) in [
                    ("title", &link.title),
                    ("description", &link.description),
                    ("mimeType", &link.mime_type),
                ] {
                    if let Some(value) = value {
                        put(key, value);
                    }
                }
                if let Some(size) = link.size {
                    map.insert("size".into(), size.into());
                }
            }
            Content::Resource {
                uri,
                mime_type,
                body,
                ..
            } => {
                put("type", "resource");
                let mut resource = Map::new();
                resource.insert("uri".into(), uri.as_str().into());
                if let Some(mime_type) = mime_type {
                    resource.insert("mimeType".into(), mime_type.as_str().into());
                }
                let (key, value) = match body {
                    ResourceBody::Text(text) => ("text", text),
                    ResourceBody::Blob(blob) => ("blob", blob),
                };
                resource.insert(key.into(), value.as_str().into());
                map.insert("resource".into(), Value::Object(resource));
            }
        }
        if let Some(annotations) = self.annotations() {
            map.insert("annotations".into(), annotations.to_json());
        }
        Value::Object(map)
    }
}

/// What a handler may return as raw content: one block or several.
pub trait IntoContent {
    /// The blocks.
    fn into_content(self) -> Vec<Content>;
}

impl IntoContent for Content {
    fn into_content(self) -> Vec<Content> {
        vec![self]
    }
}

impl IntoContent for Vec<Content> {
    fn into_content(self) -> Vec<Content> {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_kind_serializes_to_its_mcp_shape_with_annotations() {
        let notes = ContentAnnotations {
            audience: vec![Role::User],
            priority: Some(0.5),
            last_modified: Some("2026-11-30T00:00:00Z".into()),
        };
        assert_eq!(
            Content::text("hi")
                .with_annotations(notes.clone())
                .to_json(),
            json!({"type": "text", "text": "hi", "annotations": {"audience": ["user"], "priority": 0.5, "lastModified": "2026-11-30T00:00:00Z"}})
        );
        assert_eq!(
            Content::image("AAA=", "image/png").to_json(),
            json!({"type": "image", "data": "AAA=", "mimeType": "image/png"})
        );
        assert_eq!(
            Content::audio("AAA=", "audio/wav").to_json(),
            json!({"type": "audio", "data": "AAA=", "mimeType": "audio/wav"})
        );
        assert_eq!(
            Content::resource_text("test://a", "text/plain", "body").to_json(),
            json!({"type": "resource", "resource": {"uri": "test://a", "mimeType": "text/plain", "text": "body"}})
        );
        assert_eq!(
            Content::resource_blob("test://b", "image/png", "AAA=").to_json(),
            json!({"type": "resource", "resource": {"uri": "test://b", "mimeType": "image/png", "blob": "AAA="}})
        );
        assert_eq!(
            Content::link("test://c", "c").to_json(),
            json!({"type": "resource_link", "uri": "test://c", "name": "c"})
        );
        assert_eq!(
            Content::Resource {
                uri: "u".into(),
                mime_type: None,
                body: ResourceBody::Text("t".into()),
                annotations: None
            }
            .with_annotations(ContentAnnotations::default())
            .to_json()["annotations"],
            json!({})
        );
    }
}
