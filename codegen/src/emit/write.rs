//! When the build may write committed files, and how.
//!
//! On a developer's machine the build rewrites the manifest (and the docs)
//! when their content changed, atomically, and leaves them untouched when
//! equal, so editors and `git status` see no churn. In CI, when the crate is
//! built as a dependency or from a packaged source, it never writes: it
//! warns that the committed file is out of date and names the command that
//! fixes it. `TOOLTABLE_WRITE=auto|always|never` overrides the choice.

use std::io::Write as _;
use std::path::Path;

/// The environment variable that overrides the write policy.
pub const WRITE_VAR: &str = "TOOLTABLE_WRITE";

/// Whether the build writes committed files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WritePolicy {
    /// Write when the content changed.
    Write,
    /// Never write; warn on drift.
    WarnOnly,
}

/// Why the build chose its policy, for the warning it prints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The policy.
    pub policy: WritePolicy,
    /// Why, in words.
    pub reason: String,
}

/// Decides the policy from the environment and the crate's location.
pub fn decide(var: Option<&str>, ci: bool, crate_dir: &Path) -> Result<Decision, String> {
    match var {
        Some("always") => {
            return Ok(Decision {
                policy: WritePolicy::Write,
                reason: format!("{WRITE_VAR}=always"),
            });
        }
        Some("never") => {
            return Ok(Decision {
                policy: WritePolicy::WarnOnly,
                reason: format!("{WRITE_VAR}=never"),
            });
        }
        Some("auto") | None => {}
        Some(other) => {
            return Err(format!(
                "{WRITE_VAR}={other} is not a write policy; use auto, always or never"
            ));
        }
    }
    if ci {
        return Ok(Decision {
            policy: WritePolicy::WarnOnly,
            reason: "CI is set".into(),
        });
    }
    let dir = crate_dir.to_string_lossy().replace('\\', "/");
    if dir.contains("/.cargo/registry/")
        || dir.contains("/.cargo/git/")
        || dir.contains("/target/package/")
    {
        return Ok(Decision {
            policy: WritePolicy::WarnOnly,
            reason: "the crate is built as a dependency or from a packaged source".into(),
        });
    }
    Ok(Decision {
        policy: WritePolicy::Write,
        reason: "a local build".into(),
    })
}

/// What happened to one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The file already held this content.
    Unchanged,
    /// The file was written.
    Written,
    /// The file differs (or is missing) and was not written.
    Stale,
}

/// Writes `content` to `path` when it differs and the policy allows, atomically.
pub fn sync(path: &Path, content: &str, policy: WritePolicy) -> std::io::Result<Outcome> {
    match std::fs::read(path) {
        Ok(existing) if existing == content.as_bytes() => return Ok(Outcome::Unchanged),
        _ => {}
    }
    if policy == WritePolicy::WarnOnly {
        return Ok(Outcome::Stale);
    }
    write_atomically(path, content.as_bytes())?;
    Ok(Outcome::Written)
}

/// Writes through a temporary file in the same directory and a rename, so a
/// reader never sees half a file.
pub fn write_atomically(path: &Path, content: &[u8]) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temp = dir.join(format!(".{name}.tooltable-{}.tmp", std::process::id()));
    let result = (|| {
        let mut file = std::fs::File::create(&temp)?;
        file.write_all(content)?;
        file.sync_all()?;
        std::fs::rename(&temp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_local_build_writes_and_ci_only_warns() {
        let here = Path::new("/home/dev/project");
        assert_eq!(
            decide(None, false, here).unwrap().policy,
            WritePolicy::Write
        );
        assert_eq!(
            decide(None, true, here).unwrap().policy,
            WritePolicy::WarnOnly
        );
        assert_eq!(
            decide(Some("always"), true, here).unwrap().policy,
            WritePolicy::Write
        );
        assert_eq!(
            decide(Some("never"), false, here).unwrap().policy,
            WritePolicy::WarnOnly
        );
        assert!(decide(Some("sometimes"), false, here).is_err());
    }

    #[test]
    fn a_crate_built_from_the_registry_never_writes() {
        let dir = Path::new("/home/dev/.cargo/registry/src/index/notes-0.1.0");
        assert_eq!(
            decide(None, false, dir).unwrap().policy,
            WritePolicy::WarnOnly
        );
    }

    #[test]
    fn an_equal_file_is_left_untouched_and_a_changed_one_is_replaced() {
        let dir = std::env::temp_dir().join(format!("tooltable-write-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("tools.json");
        assert_eq!(
            sync(&path, "a\n", WritePolicy::WarnOnly).unwrap(),
            Outcome::Stale
        );
        assert!(!path.exists());
        assert_eq!(
            sync(&path, "a\n", WritePolicy::Write).unwrap(),
            Outcome::Written
        );
        let modified = std::fs::metadata(&path).unwrap().modified().unwrap();
        assert_eq!(
            sync(&path, "a\n", WritePolicy::Write).unwrap(),
            Outcome::Unchanged
        );
        assert_eq!(
            std::fs::metadata(&path).unwrap().modified().unwrap(),
            modified
        );
        assert_eq!(
            sync(&path, "b\n", WritePolicy::Write).unwrap(),
            Outcome::Written
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "b\n");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
