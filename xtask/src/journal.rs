//! The run journal (`records.partial.jsonl`), and the lock on an output
//! directory.
//!
//! The journal's first line names the plan it belongs to; every later line
//! holds one finished job and its records. A run started with `--resume`
//! keeps the jobs already in the journal (when the plan is the same) and
//! runs only the others; `cargo xtask report` reads a journal when a run
//! has no `results.json` yet.

use std::fs::{File, OpenOptions};
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::jsonl::{self, Appender};
use crate::records::Record;

/// File name of the journal inside `--out`.
pub const JOURNAL: &str = "records.partial.jsonl";

/// The key of a job: suite, data set, method, fold.
pub type JobKey = (String, String, String, usize);

/// First line of a journal.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Header {
    /// Fingerprint of the plan (see [`plan_fingerprint`]).
    plan: String,
    /// Number of jobs in the plan.
    jobs: usize,
}

/// One finished job, as read.
#[derive(Debug, Clone, PartialEq, Deserialize)]
struct JobLine {
    /// Suite, data set, method, fold.
    job: JobKey,
    /// Its records.
    records: Vec<Record>,
}

/// One finished job, as written (the same fields as [`JobLine`]).
#[derive(Serialize)]
struct JobLineOut<'a> {
    job: &'a JobKey,
    records: &'a [Record],
}

/// A fingerprint of everything that decides a run's records: the jobs with
/// their fold counts and the options that change results.
pub fn plan_fingerprint(description: &str) -> String {
    // FNV-1a, 64 bits: stable across builds and platforms.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in description.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// What a journal holds.
#[derive(Debug, Default)]
pub struct Journal {
    /// The plan fingerprint of its header (`None` for a journal written
    /// before headers existed: plain record lines).
    pub plan: Option<String>,
    /// Finished jobs, in the order they finished.
    pub done: Vec<(JobKey, Vec<Record>)>,
}

impl Journal {
    /// Reads a journal. A last line cut short by a killed run is ignored;
    /// any other unreadable line is an error naming the line.
    pub fn read(path: &Path) -> Result<Journal> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        let mut plan = None;
        let lines = jsonl::parse_lines(&text, &path.display().to_string(), |k, line| {
            if k == 0 {
                if let Ok(h) = serde_json::from_str::<Header>(line) {
                    plan = Some(h.plan);
                    return Ok(None);
                }
            }
            if let Ok(job) = serde_json::from_str::<JobLine>(line) {
                return Ok(Some((job.job, job.records)));
            }
            // A journal of the older format: one record per line.
            serde_json::from_str::<Record>(line)
                .map(|r| Some((r.key(), vec![r])))
                .map_err(|e| e.to_string())
        })?;
        Ok(Journal {
            plan,
            done: lines.into_iter().flatten().collect(),
        })
    }

    /// Every record of the journal.
    pub fn records(&self) -> Vec<Record> {
        self.done.iter().flat_map(|(_, r)| r.clone()).collect()
    }
}

/// An open journal that finished jobs are appended to.
pub struct JournalWriter(Appender);

impl JournalWriter {
    /// Starts a new journal for a plan (replacing an old one), or — with
    /// `keep` — rewrites the kept jobs first (dropping a line cut short by
    /// a killed run) and appends after them.
    pub fn start(
        path: &Path,
        plan: &str,
        jobs: usize,
        keep: &[(JobKey, Vec<Record>)],
    ) -> Result<JournalWriter> {
        let mut text = jsonl::line_of(
            path,
            &Header {
                plan: plan.to_string(),
                jobs,
            },
        )?;
        for (job, records) in keep {
            text.push_str(&jsonl::line_of(path, &JobLineOut { job, records })?);
        }
        rulecover_core::fs::write_atomically(path, text.as_bytes())
            .map_err(|e| Error::io(path, e))?;
        Ok(JournalWriter(Appender::open(path)?))
    }

    /// Appends one finished job (one line, flushed at once).
    pub fn append(&mut self, job: &JobKey, records: &[Record]) -> Result<()> {
        self.0.append(&JobLineOut { job, records })
    }
}

/// An exclusive OS lock on an output directory, held while a run writes
/// there. The OS releases it when the process ends, however it ends, so a
/// killed runner leaves no stale lock.
pub struct OutLock {
    _file: File,
}

impl OutLock {
    /// Takes the lock on `dir`, or fails at once with a clear error when
    /// another runner holds it.
    pub fn take(dir: &Path) -> Result<OutLock> {
        let path = dir.join(".lock");
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| Error::io(&path, e))?;
        match file.try_lock() {
            Ok(()) => Ok(OutLock { _file: file }),
            Err(std::fs::TryLockError::WouldBlock) => Err(Error::Usage(format!(
                "another runner is writing to {}; wait for it or choose another --out",
                dir.display()
            ))),
            Err(std::fs::TryLockError::Error(e)) => Err(Error::io(&path, e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn record(method: &str, fold: usize) -> Record {
        let mut r = Record::new("s", "d", method, fold);
        r.metrics
            .insert("accuracy".into(), 0.5 + fold as f64 / 10.0);
        r
    }

    #[test]
    fn journal_round_trip_keeps_jobs_and_drops_a_torn_last_line() {
        let dir = std::env::temp_dir().join(format!("xtask-journal-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(JOURNAL);
        let mut w = JournalWriter::start(&path, "abc", 3, &[]).unwrap();
        let r0 = record("DT", 0);
        w.append(&r0.key(), std::slice::from_ref(&r0)).unwrap();
        drop(w);
        // A killed run leaves half a line.
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(b"{\"job\":[\"s\",\"d\"").unwrap();
        drop(f);
        let j = Journal::read(&path).unwrap();
        assert_eq!(j.plan.as_deref(), Some("abc"));
        assert_eq!(j.records(), vec![r0.clone()]);
        // Restarting with the kept jobs gives a clean file to append to.
        let mut w = JournalWriter::start(&path, "abc", 3, &j.done).unwrap();
        let r1 = record("DT", 1);
        w.append(&r1.key(), std::slice::from_ref(&r1)).unwrap();
        let j = Journal::read(&path).unwrap();
        assert_eq!(j.records(), vec![r0, r1]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_second_lock_on_the_same_directory_is_refused() {
        let dir = std::env::temp_dir().join(format!("xtask-lock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let first = OutLock::take(&dir).unwrap();
        let err = OutLock::take(&dir).err().expect("second lock refused");
        assert!(err.to_string().contains("another runner"), "{err}");
        drop(first);
        assert!(OutLock::take(&dir).is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn fingerprints_differ_with_the_plan() {
        assert_eq!(plan_fingerprint("a"), plan_fingerprint("a"));
        assert_ne!(plan_fingerprint("a"), plan_fingerprint("b"));
    }
}
