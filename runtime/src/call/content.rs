//! Content blocks a tool result can carry.
//!
//! Most tools return a value (structured content) or a string (text); a
//! handler that needs images, audio or resources returns [`Content`] blocks
//! directly. Each block serializes to the MCP shape for its `type`.

use serde_json::{Map, Value};

/// One content block of a tool result.
#[derive(Clone, Debug, PartialEq)]
pub enum Content {
    /// Plain text.
    Text {
        /// The text.
        text: String,
    },
    /// An image, base64-encoded.
    Image {
        /// The base64-encoded bytes.
        data: String,
        /// The image's MIME type, such as `image/png`.
        mime_type: String,
    },
    /// Audio, base64-encoded.
    Audio {
        /// The base64-encoded bytes.
        data: String,
        /// The audio's MIME type, such as `audio/wav`.
        mime_type: String,
    },
    /// A link to a resource the client can fetch.
    ResourceLink {
        /// The resource's URI.
        uri: String,
        /// Its name.
        name: String,
        /// What it is, if said.
        description: Option<String>,
        /// Its MIME type, if known.
        mime_type: Option<String>,
    },
    /// A resource embedded in the result, as text or base64 bytes.
    Resource {
        /// The resource's URI.
        uri: String,
        /// Its MIME type, if known.
        mime_type: Option<String>,
        /// Its contents.
        body: ResourceBody,
    },
}

/// The contents of an embedded resource.
#[derive(Clone, Debug, PartialEq)]
pub enum ResourceBody {
    /// Text contents.
    Text(String),
    /// Binary contents, base64-encoded.
    Blob(String),
}

impl Content {
    /// A text block.
    pub fn text(text: impl Into<String>) -> Content {
        Content::Text { text: text.into() }
    }

    /// The block's MCP JSON.
    pub fn to_json(&self) -> Value {
        let mut map = Map::new();
        let mut put = |key: &str, value: &str| {
            map.insert(key.to_owned(), Value::String(value.to_owned()));
        };
        match self {
            Content::Text { text } => {
                put("type", "text");
                put("text", text);
            }
            Content::Image { data, mime_type } => {
                put("type", "image");
                put("data", data);
                put("mimeType", mime_type);
            }
            Content::Audio { data, mime_type } => {
                put("type", "audio");
                put("data", data);
                put("mimeType", mime_type);
            }
            Content::ResourceLink {
                uri,
                name,
                description,
                mime_type,
            } => {
                put("type", "resource_link");
                put("uri", uri);
                put("name", name);
                if let Some(description) = description {
                    put("description", description);
                }
                if let Some(mime_type) = mime_type {
                    put("mimeType", mime_type);
                }
            }
            Content::Resource {
                uri,
                mime_type,
                body,
            } => {
                put("type", "resource");
                let mut resource = Map::new();
                resource.insert("uri".into(), uri.as_str().into());
                if let Some(mime_type) = mime_type {
                    resource.insert("mimeType".into(), mime_type.as_str().into());
                }
                match body {
                    ResourceBody::Text(text) => {
                        resource.insert("text".into(), text.as_str().into())
                    }
                    ResourceBody::Blob(blob) => {
                        resource.insert("blob".into(), blob.as_str().into())
                    }
                };
                map.insert("resource".into(), Value::Object(resource));
            }
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
