//! The fixture's resources: a text, a binary and a watched resource, and
//! one template whose reads substitute the id.
//!
//! The scenarios list them, read each kind, and read a URI nobody serves
//! (which must be an error naming the URI, never empty contents).

use crate::PNG;
use rmcp::model::{Resource, ResourceContents, ResourceTemplate};

/// The resource template: reads of `test://template/ID/data` return JSON
/// about ID.
pub const TEMPLATE: &str = "test://template/{id}/data";

const STATIC_TEXT: &str = "test://static-text";
const STATIC_BINARY: &str = "test://static-binary";
const WATCHED: &str = "test://watched-resource";

/// The resources `resources/list` returns, the first one readable (the
/// caching scenario reads it).
pub fn list() -> Vec<Resource> {
    vec![
        Resource::new(STATIC_TEXT, "static-text")
            .with_title("Static Text Resource")
            .with_description("A static text resource for testing")
            .with_mime_type("text/plain"),
        Resource::new(STATIC_BINARY, "static-binary")
            .with_title("Static Binary Resource")
            .with_description("A static binary resource (a 1×1 PNG) for testing")
            .with_mime_type("image/png"),
        Resource::new(WATCHED, "watched-resource")
            .with_title("Watched Resource")
            .with_description("A resource clients may subscribe to; it never changes")
            .with_mime_type("text/plain"),
    ]
}

/// The templates `resources/templates/list` returns.
pub fn templates() -> Vec<ResourceTemplate> {
    vec![
        ResourceTemplate::new(TEMPLATE, "template")
            .with_title("Template Resource")
            .with_description("JSON data for any id, substituted into the URI")
            .with_mime_type("application/json"),
    ]
}

/// The contents at `uri`, or `None` when the fixture serves nothing there.
pub fn read(uri: &str) -> Option<ResourceContents> {
    let contents = match uri {
        STATIC_TEXT => {
            ResourceContents::text("This is the content of the static text resource.", uri)
        }
        STATIC_BINARY => ResourceContents::blob(PNG, uri).with_mime_type("image/png"),
        WATCHED => ResourceContents::text("Watched resource content", uri),
        _ => {
            let id = template_id(uri)?;
            let data = serde_json::json!({
                "id": id,
                "templateTest": true,
                "data": format!("Data for ID: {id}"),
            });
            ResourceContents::text(data.to_string(), uri).with_mime_type("application/json")
        }
    };
    Some(contents)
}

/// The id in a URI of [`TEMPLATE`]: one non-empty path segment.
fn template_id(uri: &str) -> Option<&str> {
    let id = uri
        .strip_prefix("test://template/")?
        .strip_suffix("/data")?;
    (!id.is_empty() && !id.contains('/')).then_some(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_resource_is_readable_and_the_template_substitutes_its_id() {
        for resource in list() {
            assert!(
                read(&resource.uri).is_some(),
                "{} is listed but unreadable",
                resource.uri
            );
        }
        let Some(ResourceContents::TextResourceContents { text, .. }) =
            read("test://template/123/data")
        else {
            panic!("the template resource is not text");
        };
        assert!(text.contains("Data for ID: 123"), "{text}");
        for unknown in [
            "test://template//data",
            "test://template/1/2/data",
            "test://nothing",
        ] {
            assert!(read(unknown).is_none(), "{unknown} is served");
        }
    }
}
