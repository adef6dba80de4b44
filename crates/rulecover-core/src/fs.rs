//! Files that are never half-written: the one atomic write of the
//! workspace (model files, results, journals, reports).
//!
//! The bytes go to a temporary file in the same folder (named after the
//! target, the process id and a per-call counter, so concurrent writes of
//! one process or of several never share one), are flushed to disk, and
//! the temporary file is renamed over the target. A reader sees the old
//! file or the new one, never part of one; on failure the temporary file
//! is removed.
//!
//! ```
//! let path = std::env::temp_dir().join(format!("rc-core-fs-doc-{}.txt", std::process::id()));
//! rulecover_core::fs::write_atomically(&path, b"complete")?;
//! assert_eq!(std::fs::read(&path)?, b"complete");
//! std::fs::remove_file(&path)?;
//! # Ok::<(), std::io::Error>(())
//! ```

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Distinguishes the temporary files of one process.
static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// Writes `bytes` to `path` atomically (see the [module](self) docs).
///
/// # Errors
/// The I/O error of creating, writing, syncing or renaming the temporary
/// file, or [`std::io::ErrorKind::InvalidInput`] for a path that names no
/// file. Callers name `path` in their own error type.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_atomically_with(path, |w| w.write_all(bytes))
}

/// Writes `path` atomically with `write`, which gets a buffered writer of
/// the temporary file (for output serialized straight to the file).
///
/// # Errors
/// As [`write_atomically`], and `write`'s own.
pub fn write_atomically_with(
    path: &Path,
    write: impl FnOnce(&mut BufWriter<File>) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let tmp = temporary_path(path)?;
    let written = (|| {
        let mut w = BufWriter::new(File::create(&tmp)?);
        write(&mut w)?;
        w.flush()?;
        w.get_ref().sync_all()?;
        drop(w);
        std::fs::rename(&tmp, path)
    })();
    if written.is_err() {
        // Best effort: the temporary file may not exist.
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// `.<name>.<pid>-<counter>.tmp` beside `path`.
fn temporary_path(path: &Path) -> std::io::Result<PathBuf> {
    let Some(name) = path.file_name() else {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("{} names no file", path.display()),
        ));
    };
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    Ok(dir.join(format!(
        ".{}.{}-{}.tmp",
        name.to_string_lossy(),
        std::process::id(),
        TEMP_COUNTER.fetch_add(1, Ordering::Relaxed)
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("rc-core-fs-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn replaces_the_file_and_leaves_no_temporary_file() {
        let dir = scratch("replace");
        let path = dir.join("out.json");
        write_atomically(&path, b"old").unwrap();
        write_atomically(&path, b"new").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        let names: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(names.len(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_failed_write_keeps_the_old_file_and_cleans_up() {
        let dir = scratch("fail");
        let path = dir.join("out.json");
        write_atomically(&path, b"old").unwrap();
        let err = write_atomically_with(&path, |w| {
            w.write_all(b"half")?;
            Err(std::io::Error::other("cut short"))
        })
        .unwrap_err();
        assert_eq!(err.to_string(), "cut short");
        assert_eq!(std::fs::read(&path).unwrap(), b"old");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        // A missing folder fails without leaving anything behind.
        assert!(write_atomically(&dir.join("no/such/file"), b"x").is_err());
        assert!(write_atomically(Path::new("/"), b"x").is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn temporary_names_differ_per_call() {
        let a = temporary_path(Path::new("x.json")).unwrap();
        let b = temporary_path(Path::new("x.json")).unwrap();
        assert_ne!(a, b);
        assert_eq!(a.parent(), Some(Path::new(".")));
    }
}
