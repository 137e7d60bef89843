//! Icons: the one rule for what an icon a tool declares may be.
//!
//! MCP's `Icon` (2025-11-25 and later) has a `src` ("an HTTP/HTTPS URL or a
//! `data:` URI with Base64-encoded image data"), an optional `mimeType`
//! override, `sizes` ("`WxH`" or "`any`") and a `theme` (`light` or
//! `dark`). A client that cannot use an icon shows none, without saying
//! why, so the build checks each part here: an `https:` URL with a host
//! (plain `http:` would let anyone on the path swap the image), or a
//! `data:` URI whose type is an image type clients render and whose payload
//! is Base64; a `mimeType` of those types, agreeing with a `data:` URI's;
//! sizes of positive whole pixels, each once. Older revisions ignore the
//! field, so it is served to every client.

use serde_json::{Map, Value};
use std::fmt;

/// The image types the specification names: clients MUST render PNG and
/// JPEG and SHOULD render SVG and WebP.
pub const IMAGE_TYPES: [&str; 5] = [
    "image/png",
    "image/jpeg",
    "image/jpg",
    "image/svg+xml",
    "image/webp",
];

/// The background an icon is drawn for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Theme {
    /// For a light background.
    Light,
    /// For a dark background.
    Dark,
}

impl Theme {
    /// The spelling MCP and `#[tool]` use.
    pub const fn as_str(self) -> &'static str {
        match self {
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }

    /// Parses the spelling MCP and `#[tool]` use.
    pub fn parse(text: &str) -> Option<Theme> {
        [Theme::Light, Theme::Dark]
            .into_iter()
            .find(|t| t.as_str() == text)
    }
}

/// An icon, as declared.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Icon {
    /// Where the image is: an `https:` URL or a `data:` URI.
    pub src: String,
    /// The image's type, when the source does not say it.
    pub mime_type: Option<String>,
    /// The sizes it can be drawn at (`48x48`, or `any`).
    pub sizes: Vec<String>,
    /// The background it is drawn for.
    pub theme: Option<Theme>,
}

/// What is wrong with an icon, and how to fix it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IconError {
    /// The part that is wrong.
    pub part: IconPart,
    /// The sentence.
    pub message: String,
}

/// The parts of an icon, to locate an error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IconPart {
    /// `src`.
    Src,
    /// `mime_type`.
    MimeType,
    /// One of `sizes`, by index.
    Size(usize),
}

impl fmt::Display for IconError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for IconError {}

fn error(part: IconPart, message: String) -> IconError {
    IconError { part, message }
}

/// Every problem of `icon`, in the order of its parts.
pub fn check(icon: &Icon) -> Vec<IconError> {
    let mut found = Vec::new();
    let data_type = match check_src(&icon.src) {
        Ok(data_type) => data_type,
        Err(message) => {
            found.push(error(IconPart::Src, message));
            None
        }
    };
    if let Some(mime) = &icon.mime_type {
        if !IMAGE_TYPES.contains(&mime.as_str()) {
            found.push(error(
                IconPart::MimeType,
                format!(
                    "`{mime}` is not an image type clients render; use one of {}",
                    IMAGE_TYPES.join(", ")
                ),
            ));
        } else if let Some(data_type) = data_type
            && data_type != mime
        {
            found.push(error(
                IconPart::MimeType,
                format!(
                    "the `data:` URI says the image is `{data_type}`, but `mime_type` says `{mime}`; remove `mime_type` (the URI already says it) or make them agree"
                ),
            ));
        }
    }
    for (index, size) in icon.sizes.iter().enumerate() {
        if let Err(message) = check_size(size) {
            found.push(error(IconPart::Size(index), message));
        } else if icon.sizes[..index].contains(size) {
            found.push(error(
                IconPart::Size(index),
                format!("the size `{size}` is listed twice; list each size once"),
            ));
        }
    }
    found
}

/// Checks a `src`; the image type of a `data:` URI.
fn check_src(src: &str) -> Result<Option<&str>, String> {
    if let Some(rest) = src.strip_prefix("https://") {
        let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
        if host.is_empty() || host.starts_with(':') {
            return Err(format!(
                "`{src}` has no host; write the image's whole URL, such as `https://example.com/icon.png`"
            ));
        }
        if let Some(bad) = src.chars().find(|c| c.is_whitespace() || c.is_control()) {
            return Err(format!(
                "`{}` holds {bad:?}, which a URL cannot; percent-encode it (`%20` for a space)",
                src.escape_debug()
            ));
        }
        return Ok(None);
    }
    if let Some(rest) = src.strip_prefix("data:") {
        let Some((header, payload)) = rest.split_once(',') else {
            return Err("a `data:` URI needs a `,` before its data, as in `data:image/png;base64,iVBORw0K...`".into());
        };
        let Some(mime) = header.strip_suffix(";base64") else {
            return Err(format!(
                "`data:{header},...` is not Base64; MCP takes a `data:` URI with Base64-encoded image data, as in `data:image/png;base64,iVBORw0K...`"
            ));
        };
        if !IMAGE_TYPES.contains(&mime) {
            return Err(format!(
                "the `data:` URI's type `{mime}` is not an image type clients render; use one of {}",
                IMAGE_TYPES.join(", ")
            ));
        }
        if let Err(at) = check_base64(payload) {
            return Err(format!(
                "the `data:` URI's data is not Base64 at byte {at}; encode the image with the standard alphabet (`A-Z a-z 0-9 + /`), padded with `=`"
            ));
        }
        return Ok(Some(mime));
    }
    if src.starts_with("http://") {
        return Err(format!(
            "`{src}` is plain HTTP, so anyone between the client and the host can change the image; serve it over `https:`, or embed it as a `data:` URI"
        ));
    }
    Err(format!(
        "`{src}` is neither an `https:` URL nor a `data:` URI; an icon's `src` is one of those"
    ))
}

/// Checks that `payload` is padded standard Base64; the byte where it is
/// not.
fn check_base64(payload: &str) -> Result<(), usize> {
    let bytes = payload.as_bytes();
    if bytes.is_empty() {
        return Err(0);
    }
    let padding = bytes.iter().rev().take_while(|&&b| b == b'=').count();
    if padding > 2 {
        return Err(bytes.len() - padding);
    }
    let body = &bytes[..bytes.len() - padding];
    if let Some(at) = body
        .iter()
        .position(|b| !(b.is_ascii_alphanumeric() || *b == b'+' || *b == b'/'))
    {
        return Err(at);
    }
    if !bytes.len().is_multiple_of(4) {
        return Err(bytes.len());
    }
    Ok(())
}

/// Checks one size: `any`, or `WxH` in whole pixels above zero.
fn check_size(size: &str) -> Result<(), String> {
    if size == "any" {
        return Ok(());
    }
    let pixels = |part: &str| {
        !part.is_empty()
            && part.len() <= 5
            && part.bytes().all(|b| b.is_ascii_digit())
            && !part.starts_with('0')
    };
    match size.split_once('x') {
        Some((width, height)) if pixels(width) && pixels(height) => Ok(()),
        _ => Err(format!(
            "`{size}` is not a size; write it as width `x` height in pixels, such as `48x48`, or `any` for an image that scales (SVG)"
        )),
    }
}

/// The icons as a descriptor's `icons`.
pub fn to_json(icons: &[Icon]) -> Value {
    Value::Array(
        icons
            .iter()
            .map(|icon| {
                let mut map = Map::new();
                map.insert("src".into(), icon.src.clone().into());
                if let Some(mime) = &icon.mime_type {
                    map.insert("mimeType".into(), mime.clone().into());
                }
                if !icon.sizes.is_empty() {
                    map.insert("sizes".into(), icon.sizes.clone().into());
                }
                if let Some(theme) = icon.theme {
                    map.insert("theme".into(), theme.as_str().into());
                }
                Value::Object(map)
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn icon(src: &str) -> Icon {
        Icon {
            src: src.into(),
            mime_type: None,
            sizes: Vec::new(),
            theme: None,
        }
    }

    fn messages(icon: &Icon) -> Vec<String> {
        check(icon).into_iter().map(|e| e.message).collect()
    }

    #[test]
    fn an_https_url_and_a_base64_image_data_uri_are_icons() {
        assert!(check(&icon("https://example.com/a.png")).is_empty());
        assert!(check(&icon("data:image/png;base64,iVBORw0KGgo=")).is_empty());
        assert!(check(&icon("data:image/svg+xml;base64,PHN2Zy8+")).is_empty());
    }

    #[test]
    fn every_src_mistake_is_named_with_its_fix() {
        assert_eq!(
            messages(&icon("http://example.com/a.png")),
            [
                "`http://example.com/a.png` is plain HTTP, so anyone between the client and the host can change the image; serve it over `https:`, or embed it as a `data:` URI"
            ]
        );
        assert_eq!(
            messages(&icon("https:///a.png")),
            [
                "`https:///a.png` has no host; write the image's whole URL, such as `https://example.com/icon.png`"
            ]
        );
        assert_eq!(
            messages(&icon("https://example.com/a b.png")),
            [
                "`https://example.com/a b.png` holds ' ', which a URL cannot; percent-encode it (`%20` for a space)"
            ]
        );
        assert_eq!(
            messages(&icon("data:image/png,raw")),
            [
                "`data:image/png,...` is not Base64; MCP takes a `data:` URI with Base64-encoded image data, as in `data:image/png;base64,iVBORw0K...`"
            ]
        );
        assert_eq!(
            messages(&icon("data:text/html;base64,PGI+")),
            [
                "the `data:` URI's type `text/html` is not an image type clients render; use one of image/png, image/jpeg, image/jpg, image/svg+xml, image/webp"
            ]
        );
        assert_eq!(
            messages(&icon("data:image/png;base64,iVB*Rw==")),
            [
                "the `data:` URI's data is not Base64 at byte 3; encode the image with the standard alphabet (`A-Z a-z 0-9 + /`), padded with `=`"
            ]
        );
        assert_eq!(
            messages(&icon("ftp://example.com/a.png")),
            [
                "`ftp://example.com/a.png` is neither an `https:` URL nor a `data:` URI; an icon's `src` is one of those"
            ]
        );
    }

    #[test]
    fn a_mime_type_is_an_image_type_that_agrees_with_a_data_uri() {
        let mut png = icon("data:image/png;base64,iVBORw0KGgo=");
        png.mime_type = Some("image/jpeg".into());
        assert_eq!(
            messages(&png),
            [
                "the `data:` URI says the image is `image/png`, but `mime_type` says `image/jpeg`; remove `mime_type` (the URI already says it) or make them agree"
            ]
        );
        let mut gif = icon("https://example.com/a");
        gif.mime_type = Some("image/bmp".into());
        assert_eq!(
            messages(&gif),
            [
                "`image/bmp` is not an image type clients render; use one of image/png, image/jpeg, image/jpg, image/svg+xml, image/webp"
            ]
        );
    }

    #[test]
    fn sizes_are_whole_pixels_or_any_each_listed_once() {
        let mut sized = icon("https://example.com/a.png");
        sized.sizes = vec![
            "48x48".into(),
            "any".into(),
            "48X48".into(),
            "0x16".into(),
            "48x48".into(),
        ];
        let found = check(&sized);
        let parts: Vec<IconPart> = found.iter().map(|e| e.part).collect();
        assert_eq!(
            parts,
            [IconPart::Size(2), IconPart::Size(3), IconPart::Size(4)]
        );
        assert_eq!(
            found[0].message,
            "`48X48` is not a size; write it as width `x` height in pixels, such as `48x48`, or `any` for an image that scales (SVG)"
        );
        assert_eq!(
            found[2].message,
            "the size `48x48` is listed twice; list each size once"
        );
    }

    #[test]
    fn icons_are_written_with_mcp_s_keys_leaving_out_what_is_absent() {
        let mut full = icon("https://example.com/a.png");
        full.mime_type = Some("image/png".into());
        full.sizes = vec!["48x48".into()];
        full.theme = Some(Theme::Dark);
        assert_eq!(
            to_json(&[full, icon("https://example.com/b.svg")]),
            serde_json::json!([
                {"src": "https://example.com/a.png", "mimeType": "image/png", "sizes": ["48x48"], "theme": "dark"},
                {"src": "https://example.com/b.svg"},
            ])
        );
    }
}
