//! The manifest: the committed JSON contract of a crate's tool surface.
//!
//! It is written by the build script, rendered again at run time from the
//! baked table (a test proves the two agree), read back by the `tooltable`
//! command, and diffed between revisions. Its text is deterministic: tools in
//! name order, keys in a fixed order, two-space indentation, a trailing
//! newline, no timestamps. `source` names the file only, so moving code
//! within a file does not churn it.

use crate::confirm::Confirm;
use crate::info::ToolInfo;
use crate::tier::Tier;
use crate::wire::descriptor;
use crate::wire::fingerprint::{Fingerprint, descriptor_fingerprint, inventory_fingerprint};
use crate::wire::json_text::JsonWriter;
use serde_json::{Map, Value};
use std::fmt;

/// The `format` of the manifests this version writes and reads.
pub const FORMAT: &str = "tooltable-manifest/1";

/// A whole manifest.
#[derive(Clone, Debug, PartialEq)]
pub struct Manifest {
    /// The package name of the crate that declares the tools.
    pub crate_name: String,
    /// The inventory fingerprint over every tool.
    pub inventory: Fingerprint,
    /// The tools, in name order.
    pub tools: Vec<ManifestTool>,
}

/// One tool of a manifest.
#[derive(Clone, Debug, PartialEq)]
pub struct ManifestTool {
    /// The tool's name.
    pub name: String,
    /// Its risk tier.
    pub tier: Tier,
    /// The toolset it belongs to, if any.
    pub toolset: Option<String>,
    /// The permission a caller needs, if any.
    pub permission: Option<String>,
    /// Whether it needs `confirm: true`, and the consequence it names.
    pub confirm: Option<Confirm<'static>>,
    /// The version that introduced it, as declared.
    pub since: Option<String>,
    /// The platforms it is limited to, as declared; empty means all.
    pub platforms: Vec<String>,
    /// The source file that declares it, relative to the crate's directory.
    pub source: String,
    /// The fingerprint of its descriptor and permission.
    pub fingerprint: Fingerprint,
    /// The descriptor exactly as `tools/list` serves it.
    pub descriptor: Value,
}

impl ManifestTool {
    /// The manifest entry of a tool: the one place an entry is made from a
    /// tool's metadata, for the build script and the baked table alike.
    pub fn new(info: &ToolInfo<'_>, fingerprint: Fingerprint, descriptor: Value) -> ManifestTool {
        ManifestTool {
            name: info.name.to_owned(),
            tier: info.tier,
            toolset: info.toolset.map(str::to_owned),
            permission: info.permission.map(str::to_owned),
            confirm: info.confirm.clone().map(Confirm::into_owned),
            since: info.since.map(str::to_owned),
            platforms: info.platforms.iter().map(|p| (*p).to_owned()).collect(),
            source: info.source.to_owned(),
            fingerprint,
            descriptor,
        }
    }
}

impl Manifest {
    /// A manifest over `tools`, sorted by name, with the inventory computed.
    pub fn new(crate_name: impl Into<String>, mut tools: Vec<ManifestTool>) -> Manifest {
        tools.sort_by(|a, b| a.name.cmp(&b.name));
        let inventory =
            inventory_fingerprint(tools.iter().map(|t| (t.name.as_str(), &t.fingerprint)));
        Manifest {
            crate_name: crate_name.into(),
            inventory,
            tools,
        }
    }

    /// The manifest's text.
    pub fn render(&self) -> String {
        let mut w = JsonWriter::pretty();
        w.begin_object();
        w.field_str("format", FORMAT);
        w.field_str("crate", &self.crate_name);
        w.field_str("inventory", &self.inventory.to_string());
        w.key("tools");
        w.begin_array();
        for tool in &self.tools {
            w.begin_object();
            w.field_str("name", &tool.name);
            w.field_str("tier", tool.tier.as_str());
            if let Some(toolset) = &tool.toolset {
                w.field_str("toolset", toolset);
            }
            if let Some(permission) = &tool.permission {
                w.field_str("permission", permission);
            }
            match &tool.confirm {
                Some(Confirm::Required) => w.field("confirm", &Value::Bool(true)),
                Some(Confirm::Because(text)) => w.field_str("confirm", text),
                None => {}
            }
            if let Some(since) = &tool.since {
                w.field_str("since", since);
            }
            if !tool.platforms.is_empty() {
                w.key("platforms");
                w.begin_array();
                for platform in &tool.platforms {
                    w.string(platform);
                }
                w.end_array();
            }
            w.field_str("source", &tool.source);
            w.field_str("fingerprint", &tool.fingerprint.to_string());
            w.key("descriptor");
            descriptor::write(&mut w, &tool.descriptor);
            w.end_object();
        }
        w.end_array();
        w.end_object();
        let mut text = w.finish();
        text.push('\n');
        text
    }

    /// Reads a manifest back, checking its format, its keys and that every
    /// fingerprint matches its descriptor.
    pub fn parse(text: &str) -> Result<Manifest, ManifestError> {
        let root: Value = serde_json::from_str(text).map_err(|e| ManifestError {
            pointer: String::new(),
            message: format!("is not JSON: {e}"),
        })?;
        let root = object(&root, "")?;
        let format = string(root, "", "format")?;
        if format != FORMAT {
            return Err(ManifestError {
                pointer: "/format".into(),
                message: format!(
                    "is `{format}`, but this version of tooltable reads `{FORMAT}`; regenerate the manifest with this version"
                ),
            });
        }
        let crate_name = string(root, "", "crate")?.to_owned();
        let inventory = fingerprint(root, "", "inventory")?;
        let list = root.get("tools").ok_or_else(|| missing("", "tools"))?;
        let list = list.as_array().ok_or_else(|| ManifestError {
            pointer: "/tools".into(),
            message: "must be an array of tools".into(),
        })?;
        let mut tools = Vec::with_capacity(list.len());
        for (index, item) in list.iter().enumerate() {
            tools.push(parse_tool(item, &format!("/tools/{index}"))?);
        }
        let manifest = Manifest {
            crate_name,
            inventory,
            tools,
        };
        let expected = inventory_fingerprint(
            manifest
                .tools
                .iter()
                .map(|t| (t.name.as_str(), &t.fingerprint)),
        );
        if expected != manifest.inventory {
            return Err(ManifestError {
                pointer: "/inventory".into(),
                message: format!(
                    "is {}, but the tools listed give {expected}; the manifest was edited by hand or truncated",
                    manifest.inventory
                ),
            });
        }
        Ok(manifest)
    }
}

fn parse_tool(item: &Value, at: &str) -> Result<ManifestTool, ManifestError> {
    let map = object(item, at)?;
    let tier_text = string(map, at, "tier")?;
    let tier = Tier::parse(tier_text).ok_or_else(|| ManifestError {
        pointer: format!("{at}/tier"),
        message: format!("is `{tier_text}`; expected `read`, `write` or `destructive`"),
    })?;
    let confirm = match map.get("confirm") {
        None => None,
        Some(Value::Bool(true)) => Some(Confirm::Required),
        Some(Value::String(text)) => Some(Confirm::Because(text.clone().into())),
        Some(_) => {
            return Err(ManifestError {
                pointer: format!("{at}/confirm"),
                message: "must be `true` or a string naming the consequence".into(),
            });
        }
    };
    let platforms = match map.get("platforms") {
        None => Vec::new(),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, v)| {
                v.as_str().map(str::to_owned).ok_or_else(|| ManifestError {
                    pointer: format!("{at}/platforms/{i}"),
                    message: "must be a string".into(),
                })
            })
            .collect::<Result<_, _>>()?,
        Some(_) => {
            return Err(ManifestError {
                pointer: format!("{at}/platforms"),
                message: "must be an array of strings".into(),
            });
        }
    };
    let descriptor = map
        .get("descriptor")
        .ok_or_else(|| missing(at, "descriptor"))?
        .clone();
    object(&descriptor, &format!("{at}/descriptor"))?;
    let tool = ManifestTool {
        name: string(map, at, "name")?.to_owned(),
        tier,
        toolset: optional_string(map, at, "toolset")?,
        permission: optional_string(map, at, "permission")?,
        confirm,
        since: optional_string(map, at, "since")?,
        platforms,
        source: string(map, at, "source")?.to_owned(),
        fingerprint: fingerprint(map, at, "fingerprint")?,
        descriptor,
    };
    if tool.descriptor.get("name").and_then(Value::as_str) != Some(tool.name.as_str()) {
        return Err(ManifestError {
            pointer: format!("{at}/descriptor/name"),
            message: format!("must equal the tool's name `{}`", tool.name),
        });
    }
    let expected = descriptor_fingerprint(&tool.descriptor, tool.permission.as_deref());
    if expected != tool.fingerprint {
        return Err(ManifestError {
            pointer: format!("{at}/fingerprint"),
            message: format!(
                "is {}, but the descriptor and permission give {expected}; the manifest was edited by hand",
                tool.fingerprint
            ),
        });
    }
    Ok(tool)
}

/// What is wrong with a manifest, and where (a JSON pointer).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ManifestError {
    /// Where the problem is, as a JSON pointer (empty for the whole document).
    pub pointer: String,
    /// What is wrong there.
    pub message: String,
}

impl fmt::Display for ManifestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.pointer.is_empty() {
            write!(f, "the manifest {}", self.message)
        } else {
            write!(f, "{} {}", self.pointer, self.message)
        }
    }
}

impl std::error::Error for ManifestError {}

fn missing(at: &str, key: &str) -> ManifestError {
    ManifestError {
        pointer: at.to_owned(),
        message: format!("misses the key `{key}`"),
    }
}

fn object<'v>(value: &'v Value, at: &str) -> Result<&'v Map<String, Value>, ManifestError> {
    value.as_object().ok_or_else(|| ManifestError {
        pointer: at.to_owned(),
        message: "must be a JSON object".into(),
    })
}

fn string<'v>(map: &'v Map<String, Value>, at: &str, key: &str) -> Result<&'v str, ManifestError> {
    match map.get(key) {
        None => Err(missing(at, key)),
        Some(Value::String(text)) => Ok(text),
        Some(_) => Err(ManifestError {
            pointer: format!("{at}/{key}"),
            message: "must be a string".into(),
        }),
    }
}

fn optional_string(
    map: &Map<String, Value>,
    at: &str,
    key: &str,
) -> Result<Option<String>, ManifestError> {
    match map.get(key) {
        None => Ok(None),
        Some(_) => string(map, at, key).map(|s| Some(s.to_owned())),
    }
}

fn fingerprint(
    map: &Map<String, Value>,
    at: &str,
    key: &str,
) -> Result<Fingerprint, ManifestError> {
    string(map, at, key)?
        .parse()
        .map_err(
            |e: crate::wire::fingerprint::ParseFingerprintError| ManifestError {
                pointer: format!("{at}/{key}"),
                message: e.to_string(),
            },
        )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tool(name: &str) -> ManifestTool {
        let descriptor =
            json!({"name": name, "description": "d", "inputSchema": {"type": "object"}});
        ManifestTool {
            name: name.into(),
            tier: Tier::Destructive,
            toolset: Some("notes".into()),
            permission: Some("notes.delete".into()),
            confirm: Some(Confirm::Because("deletes it".into())),
            since: Some("0.1.0".into()),
            platforms: vec!["linux".into()],
            source: "src/notes.rs".into(),
            fingerprint: descriptor_fingerprint(&descriptor, Some("notes.delete")),
            descriptor,
        }
    }

    #[test]
    fn tools_are_rendered_in_name_order_with_a_trailing_newline() {
        let manifest = Manifest::new("demo", vec![tool("b"), tool("a")]);
        let text = manifest.render();
        assert!(text.ends_with("}\n"));
        assert!(text.find("\"name\": \"a\"").unwrap() < text.find("\"name\": \"b\"").unwrap());
        assert!(text.starts_with("{\n  \"format\": \"tooltable-manifest/1\",\n  \"crate\": \"demo\",\n  \"inventory\": \"sha256:"));
    }

    #[test]
    fn a_rendered_manifest_parses_back_to_itself() {
        let manifest = Manifest::new("demo", vec![tool("a"), tool("b")]);
        assert_eq!(Manifest::parse(&manifest.render()), Ok(manifest));
    }

    #[test]
    fn a_wrong_format_is_refused_at_its_pointer() {
        let text = Manifest::new("demo", vec![])
            .render()
            .replace(FORMAT, "tooltable-manifest/9");
        let err = Manifest::parse(&text).unwrap_err();
        assert_eq!(err.pointer, "/format");
    }

    #[test]
    fn a_missing_key_is_refused_at_its_pointer() {
        let text = Manifest::new("demo", vec![tool("a")])
            .render()
            .replace("\"source\"", "\"sauce\"");
        let err = Manifest::parse(&text).unwrap_err();
        assert_eq!(err.to_string(), "/tools/0 misses the key `source`");
    }

    #[test]
    fn a_descriptor_edited_by_hand_no_longer_matches_its_fingerprint() {
        let text = Manifest::new("demo", vec![tool("a")])
            .render()
            .replace("\"description\": \"d\"", "\"description\": \"e\"");
        let err = Manifest::parse(&text).unwrap_err();
        assert_eq!(err.pointer, "/tools/0/fingerprint");
    }

    #[test]
    fn text_that_is_not_json_is_refused() {
        let err = Manifest::parse("{").unwrap_err();
        assert!(
            err.to_string().starts_with("the manifest is not JSON"),
            "{err}"
        );
    }
}
