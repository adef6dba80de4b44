//! JSON-lines files that runs append to, one finished job (or point) a
//! line, and that a killed run may leave with its last line cut short:
//! the bench journal (`records.partial.jsonl`) and the scaling records
//! (`results.jsonl`) are both read and written here.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::error::{Error, Result};

/// `value` as one JSON line, newline included.
///
/// # Errors
/// [`Error::Parse`] naming `path` when `value` cannot be written as JSON.
pub fn line_of<T: Serialize>(path: &Path, value: &T) -> Result<String> {
    let mut line = serde_json::to_string(value).map_err(|e| Error::Parse {
        file: path.display().to_string(),
        message: e.to_string(),
    })?;
    line.push('\n');
    Ok(line)
}

/// A JSON-lines file open for appending.
pub struct Appender {
    file: File,
    path: PathBuf,
}

impl Appender {
    /// Opens `path` for appending, creating it when absent.
    ///
    /// # Errors
    /// [`Error::Io`] naming the file.
    pub fn open(path: &Path) -> Result<Appender> {
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| Error::io(path, e))?;
        Ok(Appender {
            file,
            path: path.to_path_buf(),
        })
    }

    /// Appends `value` as one line, flushed at once.
    ///
    /// # Errors
    /// As [`line_of`], and [`Error::Io`] naming the file.
    pub fn append<T: Serialize>(&mut self, value: &T) -> Result<()> {
        let line = line_of(&self.path, value)?;
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(|e| Error::io(&self.path, e))
    }
}

/// Parses the lines of a JSON-lines text with `parse`, which gets the
/// 0-based index of each line among the non-blank ones and the line.
/// Blank lines are skipped. The last line, when `parse` refuses it and
/// the text does not end with a newline, was cut short by a killed run:
/// it is dropped with a note on stderr. Any other refused line is an
/// [`Error::Parse`] naming `file` and the line number.
///
/// # Errors
/// As said, with `parse`'s message.
pub fn parse_lines<T>(
    text: &str,
    file: &str,
    mut parse: impl FnMut(usize, &str) -> std::result::Result<T, String>,
) -> Result<Vec<T>> {
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .collect();
    let last = lines.len().saturating_sub(1);
    let mut out = Vec::with_capacity(lines.len());
    for (k, (i, line)) in lines.into_iter().enumerate() {
        match parse(k, line) {
            Ok(v) => out.push(v),
            Err(e) if k == last && !text.ends_with('\n') => {
                eprintln!("{file}:{}: dropping a cut-short last line ({e})", i + 1);
            }
            Err(message) => {
                return Err(Error::Parse {
                    file: format!("{file}:{}", i + 1),
                    message,
                })
            }
        }
    }
    Ok(out)
}

/// The text of `path`, `None` when it does not exist.
///
/// # Errors
/// [`Error::Io`] naming an unreadable file.
pub fn read_if_exists(path: &Path) -> Result<Option<String>> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Error::io(path, e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbers(text: &str) -> Result<Vec<u32>> {
        parse_lines(text, "n.jsonl", |_, l| {
            serde_json::from_str(l).map_err(|e| e.to_string())
        })
    }

    #[test]
    fn a_cut_short_last_line_is_dropped_but_a_bad_middle_line_is_an_error() {
        assert_eq!(numbers("1\n\n2\n").unwrap(), vec![1, 2]);
        assert_eq!(numbers("1\n2\n\"thr").unwrap(), vec![1, 2]);
        let err = numbers("1\nx\n3\n").unwrap_err().to_string();
        assert!(err.starts_with("n.jsonl:2: "), "{err}");
        // A complete last line that does not parse is not a cut-short one.
        assert!(numbers("1\nx\n").is_err());
    }

    #[test]
    fn appended_lines_read_back() {
        let dir = std::env::temp_dir().join(format!("xtask-jsonl-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.jsonl");
        let _ = std::fs::remove_file(&path);
        assert_eq!(read_if_exists(&path).unwrap(), None);
        let mut a = Appender::open(&path).unwrap();
        a.append(&1u32).unwrap();
        a.append(&2u32).unwrap();
        let text = read_if_exists(&path).unwrap().unwrap();
        assert_eq!(numbers(&text).unwrap(), vec![1, 2]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
