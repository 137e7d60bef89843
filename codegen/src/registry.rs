//! The MCP Registry's `server.json`, from Cargo.toml and the table.
//!
//! The official MCP Registry lists a server from a `server.json`: its name,
//! description, version, repository, and the packages it is installed from.
//! A Rust server is a cargo package, and Cargo.toml already holds most of
//! that; the table adds what the server serves. So a crate that names its
//! registry entry (`[package.metadata.tooltable.registry]`) gets
//! `server.json` written and checked for drift beside `tools.json`, from
//! the same source, and the registry's own rules (its name pattern, its
//! lengths, its repository hosts) are errors here, where they can be
//! fixed, rather than a refused publish. The registry verifies that the
//! crate is the server's by an `mcp-name:` line in the README crates.io
//! shows; [`Registry::readme_problem`] checks it.

use serde::Serialize;
use std::path::{Path, PathBuf};
use tooltable_rules::icons::{self, Icon};
use tooltable_rules::wire::json_text;

/// The schema `server.json` declares: the registry refuses any other.
pub(crate) const SCHEMA: &str =
    "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";

/// The one `_meta` key the registry keeps of what a publisher sends.
pub(crate) const PUBLISHER_PROVIDED: &str = "io.modelcontextprotocol.registry/publisher-provided";

/// Where a cargo package is installed from; the registry takes no other.
pub(crate) const CRATES_IO: &str = "https://crates.io";

/// The longest description and title the registry takes, in characters.
const MAX_TEXT: usize = 100;

/// `[package.metadata.tooltable.registry]` as written.
#[derive(Clone, Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Settings {
    name: String,
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    file: Option<String>,
    #[serde(default)]
    subfolder: Option<String>,
    #[serde(default)]
    arguments: Vec<String>,
    #[serde(default)]
    remotes: Vec<String>,
    #[serde(default)]
    icons: Vec<String>,
}

/// The keys of `[package.metadata.tooltable.registry]`.
pub(crate) const KEYS: &str =
    "name, title, description, file, subfolder, arguments, remotes, icons";

/// The longest icon address the registry takes.
const MAX_ICON_SRC: usize = 255;

/// A crate's registry entry, checked against the registry's rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Registry {
    /// The server's name in the registry (`io.github.owner/server`).
    pub name: String,
    title: Option<String>,
    description: String,
    version: String,
    package: String,
    /// Where `server.json` goes, relative to the crate's directory.
    pub file: PathBuf,
    repository: Option<Repository>,
    website: Option<String>,
    arguments: Vec<String>,
    remotes: Vec<String>,
    icons: Vec<Icon>,
    /// The README crates.io shows, relative to the crate's directory, if any.
    readme: Option<PathBuf>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
struct Repository {
    url: String,
    source: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    subfolder: Option<String>,
}

/// What a package's `[package]` says that `server.json` repeats.
pub(crate) struct Package<'a> {
    pub name: &'a str,
    /// None when `[package]` has none, or inherits it from a workspace that
    /// was not found.
    pub version: Option<&'a str>,
    pub description: Option<&'a str>,
    pub repository: Option<&'a str>,
    pub homepage: Option<&'a str>,
    /// `readme` as written: a path, `false`, or absent (cargo's default,
    /// `README.md` and its like, when one exists).
    pub readme: Option<&'a toml::Value>,
}

impl Registry {
    /// The entry `settings` and `package` describe, or every rule of the
    /// registry they break, each a sentence saying what to change.
    pub(crate) fn new(
        settings: Settings,
        package: &Package<'_>,
        crate_dir: &Path,
    ) -> Result<Registry, Vec<String>> {
        let mut errors = Vec::new();
        if let Err(why) = check_name(&settings.name) {
            errors.push(format!(
                "registry `name` `{}` {why}; name the server as the registry does, `io.github.OWNER/NAME` for a GitHub account or a reverse domain you own (`com.example/NAME`)",
                settings.name
            ));
        }
        let description = settings
            .description
            .as_deref()
            .or(package.description)
            .map(str::trim)
            .unwrap_or_default()
            .to_owned();
        let described_by = if settings.description.is_some() {
            "registry `description`"
        } else {
            "[package] `description`"
        };
        if description.is_empty() {
            errors.push("server.json needs a description, and the package has none: set [package] `description`, or registry `description`, in at most 100 characters".to_owned());
        } else if description.chars().count() > MAX_TEXT {
            errors.push(format!(
                "{described_by} is {} characters, and the registry takes at most {MAX_TEXT}; shorten it, or give the registry its own with registry `description`",
                description.chars().count()
            ));
        }
        if let Some(title) = &settings.title {
            let length = title.trim().chars().count();
            if length == 0 || length > MAX_TEXT {
                errors.push(format!(
                    "registry `title` is {length} characters; the registry takes 1 to {MAX_TEXT}"
                ));
            }
        }
        let version = package.version.unwrap_or_default();
        match package.version {
            None => errors.push("server.json needs the package's version, and [package] has none (or inherits it from a workspace that was not found above the crate): give [package] a `version`, or run tooltable in the crate's place in its workspace".to_owned()),
            Some("latest") => errors.push("the registry refuses the version `latest`; give [package] a version such as `0.1.0`".to_owned()),
            Some(_) => {}
        }
        if let Some(subfolder) = &settings.subfolder
            && !is_relative_folder(subfolder)
        {
            errors.push(format!(
                "registry `subfolder` `{subfolder}` is not a folder of the repository: write it relative to the repository's root, as `examples/server`, without `.`, `..` or a leading or trailing `/`"
            ));
        }
        let repository = match package.repository {
            None => {
                if settings.subfolder.is_some() {
                    errors.push("registry `subfolder` is a folder of the repository, and [package] names no `repository`".to_owned());
                }
                None
            }
            Some(url) => match repository(url) {
                Some((url, source)) => Some(Repository {
                    url,
                    source,
                    subfolder: settings.subfolder.clone(),
                }),
                None => {
                    errors.push(format!(
                        "[package] `repository` `{url}` is not one the registry takes: it takes a repository's own address on github.com or gitlab.com, such as `https://github.com/OWNER/REPO`"
                    ));
                    None
                }
            },
        };
        for argument in &settings.arguments {
            if argument.is_empty() || argument.chars().any(char::is_control) {
                errors.push(format!(
                    "registry `arguments` holds `{}`; each argument is one word of the command line, without control characters",
                    argument.escape_default()
                ));
            }
        }
        for remote in &settings.remotes {
            if let Err(why) = check_remote(remote) {
                errors.push(format!("registry `remotes` holds `{remote}`, which {why}"));
            }
        }
        let icons: Vec<Icon> = settings
            .icons
            .iter()
            .map(|src| Icon {
                src: src.clone(),
                mime_type: None,
                sizes: Vec::new(),
                theme: None,
            })
            .collect();
        for icon in &icons {
            let src = &icon.src;
            if !src.starts_with("https://") || src.chars().count() > MAX_ICON_SRC {
                errors.push(format!(
                    "registry `icons` holds `{src}`; the registry takes an icon's `https://` address of at most {MAX_ICON_SRC} characters"
                ));
            } else if let Some(error) = icons::check(icon).first() {
                errors.push(format!("registry `icons` holds `{src}`: {error}"));
            }
        }
        let file = settings.file.as_deref().unwrap_or("server.json");
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(Registry {
            name: settings.name,
            title: settings.title.map(|t| t.trim().to_owned()),
            description,
            version: version.to_owned(),
            package: package.name.to_owned(),
            file: PathBuf::from(file),
            repository,
            website: package
                .homepage
                .filter(|url| url.starts_with("https://") || url.starts_with("http://"))
                .map(str::to_owned),
            arguments: settings.arguments,
            remotes: settings.remotes,
            icons,
            readme: readme(package.readme, crate_dir),
        })
    }

    /// `server.json`'s text, for a table of `tools` tools whose inventory
    /// fingerprint is `inventory`.
    pub(crate) fn render(&self, inventory: &str, tools: usize) -> String {
        #[derive(Serialize)]
        struct ServerJson<'a> {
            #[serde(rename = "$schema")]
            schema: &'static str,
            name: &'a str,
            #[serde(skip_serializing_if = "Option::is_none")]
            title: Option<&'a str>,
            description: &'a str,
            version: &'a str,
            #[serde(skip_serializing_if = "Option::is_none")]
            repository: Option<&'a Repository>,
            #[serde(rename = "websiteUrl", skip_serializing_if = "Option::is_none")]
            website: Option<&'a str>,
            // The free-form values' keys in byte order whatever serde_json's
            // features in the build: the file is committed and checked.
            #[serde(
                skip_serializing_if = "serde_json::Value::is_null",
                serialize_with = "json_text::sorted"
            )]
            icons: serde_json::Value,
            packages: [Package<'a>; 1],
            #[serde(skip_serializing_if = "Vec::is_empty")]
            remotes: Vec<Remote<'a>>,
            #[serde(rename = "_meta", serialize_with = "json_text::sorted")]
            meta: serde_json::Value,
        }
        #[derive(Serialize)]
        struct Package<'a> {
            #[serde(rename = "registryType")]
            registry_type: &'static str,
            #[serde(rename = "registryBaseUrl")]
            registry_base_url: &'static str,
            identifier: &'a str,
            version: &'a str,
            transport: Transport,
            #[serde(rename = "packageArguments", skip_serializing_if = "Vec::is_empty")]
            arguments: Vec<Argument<'a>>,
        }
        #[derive(Serialize)]
        struct Transport {
            #[serde(rename = "type")]
            kind: &'static str,
        }
        #[derive(Serialize)]
        struct Argument<'a> {
            #[serde(rename = "type")]
            kind: &'static str,
            value: &'a str,
        }
        #[derive(Serialize)]
        struct Remote<'a> {
            #[serde(rename = "type")]
            kind: &'static str,
            url: &'a str,
        }
        let text = json_text::pretty(&ServerJson {
            schema: SCHEMA,
            name: &self.name,
            title: self.title.as_deref(),
            description: &self.description,
            version: &self.version,
            repository: self.repository.as_ref(),
            website: self.website.as_deref(),
            icons: if self.icons.is_empty() {
                serde_json::Value::Null
            } else {
                icons::to_json(&self.icons)
            },
            packages: [Package {
                registry_type: "cargo",
                registry_base_url: CRATES_IO,
                identifier: &self.package,
                version: &self.version,
                transport: Transport { kind: "stdio" },
                arguments: self
                    .arguments
                    .iter()
                    .map(|value| Argument {
                        kind: "positional",
                        value,
                    })
                    .collect(),
            }],
            remotes: self
                .remotes
                .iter()
                .map(|url| Remote {
                    kind: "streamable-http",
                    url,
                })
                .collect(),
            meta: serde_json::json!({
                PUBLISHER_PROVIDED: {
                    "tooltable": {"tools": tools, "inventory": inventory}
                }
            }),
        });
        text + "\n"
    }

    /// Why the README crates.io will show does not let the registry verify
    /// that the crate is this server's, if it does not.
    pub fn readme_problem(&self, crate_dir: &Path) -> Option<String> {
        let line = format!("mcp-name: {}", self.name);
        let Some(readme) = &self.readme else {
            return Some(format!(
                "the registry verifies that the crate is {}'s by a line `{line}` in the README crates.io shows, and the package has no README: add README.md with that line",
                self.name
            ));
        };
        let shown = readme.display();
        match std::fs::read_to_string(crate_dir.join(readme)) {
            Err(e) => Some(format!("{shown} cannot be read: {e}")),
            Ok(text) if carries_name(&text, &self.name) => None,
            Ok(text) if carries_name(&split_comments(&text).1, &self.name) => Some(format!(
                "{shown} names the server only inside an HTML comment, which crates.io does not show, so the registry cannot verify the crate: write `{line}` where a reader sees it, such as a line ``- MCP Registry name: `{line}` ``"
            )),
            Ok(_) => Some(format!(
                "{shown} does not say `{line}`, by which the registry verifies that the crate is this server's: add a line ``- MCP Registry name: `{line}` `` (visible, not in an HTML comment) before `cargo publish`"
            )),
        }
    }
}

/// Whether `server.json`'s text `existing` was written by tooltable.
pub(crate) fn is_generated(existing: &[u8]) -> bool {
    serde_json::from_slice::<serde_json::Value>(existing)
        .ok()
        .is_some_and(|v| v["_meta"][PUBLISHER_PROVIDED]["tooltable"].is_object())
}

/// Why `name` is not a server name the registry takes, if it is not: one
/// `/` between a namespace of letters, digits, `.` and `-` and a name of
/// those and `_`, each starting and ending with a letter or digit, 3 to
/// 200 characters in all.
fn check_name(name: &str) -> Result<(), &'static str> {
    if !(3..=200).contains(&name.chars().count()) {
        return Err("is not 3 to 200 characters long");
    }
    let Some((namespace, server)) = name.split_once('/') else {
        return Err("has no `/` between its namespace and its name");
    };
    let edges = |part: &str| {
        part.chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphanumeric())
            && part
                .chars()
                .last()
                .is_some_and(|c| c.is_ascii_alphanumeric())
    };
    if !edges(namespace)
        || !namespace
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-')
    {
        return Err(
            "has a namespace (before the `/`) that is not letters, digits, `.` and `-`, starting and ending with a letter or digit",
        );
    }
    if !edges(server)
        || !server
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
    {
        return Err(
            "has a name (after the `/`) that is not letters, digits, `.`, `-` and `_`, starting and ending with a letter or digit, or has a second `/`",
        );
    }
    Ok(())
}

/// The repository's address as the registry takes it, and its host, when
/// `url` is a repository's own address on GitHub or GitLab.
fn repository(url: &str) -> Option<(String, &'static str)> {
    let trimmed = url.trim_end_matches('/');
    let trimmed = trimmed.strip_suffix(".git").unwrap_or(trimmed);
    let rest = trimmed
        .strip_prefix("https://")
        .or_else(|| trimmed.strip_prefix("http://"))?;
    let rest = rest.strip_prefix("www.").unwrap_or(rest);
    let (host, path) = rest.split_once('/')?;
    let source = match host {
        "github.com" => "github",
        "gitlab.com" => "gitlab",
        _ => return None,
    };
    let segments: Vec<&str> = path.split('/').collect();
    let word = |s: &&str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
    };
    let fits = match source {
        "github" => segments.len() == 2,
        _ => segments.len() >= 2,
    };
    (fits && segments.iter().all(word)).then(|| (format!("https://{host}/{path}"), source))
}

/// Whether `folder` is a folder path relative to a repository's root.
fn is_relative_folder(folder: &str) -> bool {
    !folder.is_empty()
        && folder.split('/').all(|segment| {
            !segment.is_empty()
                && segment != "."
                && segment != ".."
                && segment
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        })
}

/// Why `url` cannot be a remote the registry lists, if it cannot: the
/// registry takes public HTTPS addresses only.
fn check_remote(url: &str) -> Result<(), &'static str> {
    let Some(rest) = url.strip_prefix("https://") else {
        return Err("is not an `https://` address, and the registry lists no other");
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host = match authority.rsplit_once(':') {
        Some((host, port)) if port.chars().all(|c| c.is_ascii_digit()) => host,
        _ => authority,
    };
    let host = host.trim_start_matches('[').trim_end_matches(']');
    if host.is_empty() || rest.chars().any(char::is_whitespace) {
        return Err("is not a URL with a host");
    }
    let private = match host.parse::<std::net::IpAddr>() {
        Ok(std::net::IpAddr::V4(ip)) => {
            ip.is_private() || ip.is_loopback() || ip.is_link_local() || ip.is_unspecified()
        }
        Ok(std::net::IpAddr::V6(ip)) => ip.is_loopback() || ip.is_unspecified(),
        Err(_) => host == "localhost" || host.ends_with(".localhost"),
    };
    if private {
        return Err(
            "is this machine's or a private network's, which the registry's users cannot reach",
        );
    }
    Ok(())
}

/// The README crates.io shows: `readme` as written, or cargo's default
/// when one of its names exists; none for `readme = false`.
fn readme(readme: Option<&toml::Value>, crate_dir: &Path) -> Option<PathBuf> {
    match readme {
        Some(toml::Value::String(path)) => Some(PathBuf::from(path)),
        Some(toml::Value::Boolean(false)) => None,
        _ => ["README.md", "README.txt", "README"]
            .into_iter()
            .map(PathBuf::from)
            .find(|name| crate_dir.join(name).is_file()),
    }
}

/// Whether `text` says `mcp-name: NAME` where the registry finds it: the
/// name followed by the end of the text or by a character that cannot
/// continue a name (a space, a line break, `` ` ``, `<`), outside HTML
/// comments, which crates.io does not render.
fn carries_name(text: &str, name: &str) -> bool {
    let (shown, _) = split_comments(text);
    let token = format!("mcp-name: {name}");
    shown.match_indices(&token).any(|(at, _)| {
        shown[at + token.len()..]
            .chars()
            .next()
            .is_none_or(|c| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '/' | '-')))
    })
}

/// `text` split in two: what crates.io shows (the text without its HTML
/// comments), and the comments' insides, for saying that a name is hidden.
fn split_comments(text: &str) -> (String, String) {
    let (mut shown, mut hidden) = (String::with_capacity(text.len()), String::new());
    let mut rest = text;
    while let Some(start) = rest.find("<!--") {
        shown.push_str(&rest[..start]);
        let inner = &rest[start + 4..];
        let end = inner.find("-->").unwrap_or(inner.len());
        hidden.push_str(&inner[..end]);
        hidden.push('\n');
        rest = inner.get(end + 3..).unwrap_or("");
    }
    shown.push_str(rest);
    (shown, hidden)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn package() -> Package<'static> {
        Package {
            name: "notes-server",
            version: Some("0.3.0"),
            description: Some("Notes, kept in SQLite, as MCP tools."),
            repository: Some("https://github.com/octo/notes"),
            homepage: None,
            readme: None,
        }
    }

    fn settings(name: &str) -> Settings {
        Settings {
            name: name.to_owned(),
            ..Settings::default()
        }
    }

    #[test]
    fn names_the_registry_takes_pass_and_others_say_what_is_wrong() {
        for name in ["io.github.octo/notes", "com.example/notes_server.v2", "a/b"] {
            assert_eq!(check_name(name), Ok(()), "{name}");
        }
        for name in [
            "notes",
            "io.github.octo/",
            "-io/notes",
            "io/notes/x",
            "io/no tes",
            "io/notes-",
        ] {
            assert!(check_name(name).is_err(), "{name}");
        }
    }

    #[test]
    fn a_description_over_a_hundred_characters_is_refused_naming_where_it_comes_from() {
        let long = "x".repeat(101);
        let package = Package {
            description: Some(&long),
            ..package()
        };
        let errors =
            Registry::new(settings("io.github.octo/notes"), &package, Path::new(".")).unwrap_err();
        assert_eq!(
            errors,
            [
                "[package] `description` is 101 characters, and the registry takes at most 100; shorten it, or give the registry its own with registry `description`"
            ]
        );
        let fitting = Settings {
            description: Some("Notes as MCP tools.".into()),
            ..settings("io.github.octo/notes")
        };
        assert!(Registry::new(fitting, &package, Path::new(".")).is_ok());
    }

    #[test]
    fn a_version_that_cannot_be_told_is_refused_rather_than_published_as_0_0_0() {
        let package = Package {
            version: None,
            ..package()
        };
        let errors =
            Registry::new(settings("io.github.octo/notes"), &package, Path::new(".")).unwrap_err();
        assert!(
            errors[0].starts_with("server.json needs the package's version"),
            "{errors:?}"
        );
    }

    #[test]
    fn a_repository_is_a_repositorys_own_address_on_github_or_gitlab() {
        assert_eq!(
            repository("https://github.com/octo/notes.git/"),
            Some(("https://github.com/octo/notes".into(), "github"))
        );
        assert_eq!(
            repository("https://gitlab.com/group/sub/notes"),
            Some(("https://gitlab.com/group/sub/notes".into(), "gitlab"))
        );
        assert_eq!(
            repository("https://github.com/octo/notes/tree/main/x"),
            None
        );
        assert_eq!(repository("https://codeberg.org/octo/notes"), None);
    }

    #[test]
    fn icons_are_https_addresses_the_registry_can_store() {
        let with = |icons: &[&str]| {
            Registry::new(
                Settings {
                    icons: icons.iter().map(|s| s.to_string()).collect(),
                    ..settings("io.github.octo/notes")
                },
                &package(),
                Path::new("."),
            )
        };
        let registry = with(&["https://example.com/notes.png"]).unwrap();
        let value: serde_json::Value =
            serde_json::from_str(&registry.render("sha256:00", 1)).unwrap();
        assert_eq!(
            value["icons"],
            serde_json::json!([{"src": "https://example.com/notes.png"}])
        );
        let long = format!("https://example.com/{}.png", "a".repeat(250));
        for icon in [
            "http://example.com/notes.png",
            "data:image/png;base64,AAAA",
            long.as_str(),
        ] {
            assert!(with(&[icon]).is_err(), "{icon}");
        }
        let plain = with(&[]).unwrap().render("sha256:00", 1);
        assert!(!plain.contains("icons"));
    }

    #[test]
    fn a_remote_is_a_public_https_address() {
        assert_eq!(check_remote("https://mcp.example.com/mcp"), Ok(()));
        for remote in [
            "http://mcp.example.com/mcp",
            "https://localhost:8080/mcp",
            "https://127.0.0.1/mcp",
            "https://10.1.2.3/mcp",
            "https://[::1]:9/mcp",
            "https:///mcp",
        ] {
            assert!(check_remote(remote).is_err(), "{remote}");
        }
    }

    #[test]
    fn the_readme_line_must_be_visible_and_end_where_the_name_ends() {
        let name = "io.github.octo/notes";
        assert!(carries_name(
            "- MCP Registry name: `mcp-name: io.github.octo/notes`\n",
            name
        ));
        assert!(carries_name("mcp-name: io.github.octo/notes", name));
        assert!(!carries_name("mcp-name: io.github.octo/notes.", name));
        assert!(!carries_name("mcp-name: io.github.octo/notes-server", name));
        assert!(!carries_name(
            "<!-- mcp-name: io.github.octo/notes -->",
            name
        ));
        assert!(carries_name(
            &split_comments("<!-- mcp-name: io.github.octo/notes -->").1,
            name
        ));
    }

    #[test]
    fn server_json_names_the_cargo_package_and_carries_the_tables_inventory() {
        let registry = Registry::new(
            Settings {
                arguments: vec!["serve".into()],
                ..settings("io.github.octo/notes")
            },
            &package(),
            Path::new("."),
        )
        .unwrap();
        let text = registry.render("sha256:00", 3);
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["$schema"], SCHEMA);
        assert_eq!(value["packages"][0]["registryType"], "cargo");
        assert_eq!(value["packages"][0]["identifier"], "notes-server");
        assert_eq!(value["packages"][0]["version"], "0.3.0");
        assert_eq!(
            value["packages"][0]["packageArguments"][0]["value"],
            "serve"
        );
        assert_eq!(value["repository"]["source"], "github");
        assert_eq!(value["_meta"][PUBLISHER_PROVIDED]["tooltable"]["tools"], 3);
        assert!(is_generated(text.as_bytes()));
        assert!(!is_generated(b"{\"name\": \"x\"}"));
    }

    #[test]
    fn server_json_writes_its_free_form_keys_in_byte_order_whatever_serde_jsons_features() {
        // With serde_json's `preserve_order` on (any crate in a user's build
        // may turn it on), a value's keys keep the order they were inserted
        // in; the committed file must not change with it.
        let registry =
            Registry::new(settings("io.github.octo/notes"), &package(), Path::new(".")).unwrap();
        let text = registry.render("sha256:00", 3);
        let inventory = text.find("\"inventory\"").unwrap();
        let tools = text.find("\"tools\"").unwrap();
        assert!(inventory < tools, "{text}");
    }
}
