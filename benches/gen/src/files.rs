//! Writing generated files without touching the ones that did not change.
//!
//! `run.sh` regenerates every crate on every run; rewriting identical files
//! would bump their modification times and make cargo rebuild crates that
//! take minutes to compile, so equal content is left alone.

use std::io;
use std::path::Path;

/// Writes `content` to `path` (creating its directories) unless the file
/// already holds exactly that.
pub fn write(path: &Path, content: &str) -> io::Result<()> {
    if std::fs::read_to_string(path).is_ok_and(|old| old == content) {
        return Ok(());
    }
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| {
            io::Error::new(
                e.kind(),
                format!("cannot create the directory {}: {e}", parent.display()),
            )
        })?;
    }
    std::fs::write(path, content)
        .map_err(|e| io::Error::new(e.kind(), format!("cannot write {}: {e}", path.display())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unchanged_file_keeps_its_modification_time() {
        let dir =
            std::env::temp_dir().join(format!("tooltable-bench-files-{}", std::process::id()));
        let path = dir.join("a/b.rs");
        write(&path, "fn main() {}\n").unwrap();
        let before = std::fs::metadata(&path).unwrap().modified().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(20));
        write(&path, "fn main() {}\n").unwrap();
        let after = std::fs::metadata(&path).unwrap().modified().unwrap();
        assert_eq!(before, after);
        write(&path, "fn main() { }\n").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "fn main() { }\n");
        std::fs::remove_dir_all(dir).unwrap();
    }
}
