//! The results file: one record per (suite, dataset, method, fold), plus
//! metadata on the run that made them.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// One evaluated model on one test fold.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// The suite that made it (`baselines`, `paper000`, ...).
    pub suite: String,
    /// Data set name, as in the shared MANIFEST.
    pub dataset: String,
    /// Method name, as the papers' column labels (DT, RF, MIRCO, ...).
    pub method: String,
    /// Outer fold index.
    pub fold: usize,
    /// Test-fold metrics (accuracy, brier, auc_roc, auc_pr, r2, ...).
    pub metrics: BTreeMap<String, f64>,
    /// Model size (rules, leaves, avg_rule_length, ...).
    pub size: BTreeMap<String, f64>,
    /// Wall time in seconds. Every suite records `tune` (choosing the
    /// model's parameters: the inner-CV grid search, a validation split,
    /// an epoch search; 0 when nothing was chosen, e.g. ZeroR, the
    /// relational learners with fixed settings, or a model built from an
    /// ensemble whose own record carries the ensemble's tuning, such as
    /// MIRCO, RUX and iniDT) beside `fit` (the final fit on the outer
    /// training fold), so `tune + fit` is the cost of the method; some add
    /// `predict`, `lp`, `load` or `compress`. Records written before
    /// `tune` existed have none (paper004's were named `tuning`, read as
    /// `tune`).
    #[serde(deserialize_with = "time_map")]
    pub time_s: BTreeMap<String, f64>,
    /// The parameters used (chosen by the inner grid search, if any).
    pub params: BTreeMap<String, serde_json::Value>,
}

impl Record {
    /// An empty record for a job.
    pub fn new(suite: &str, dataset: &str, method: &str, fold: usize) -> Self {
        Record {
            suite: suite.to_string(),
            dataset: dataset.to_string(),
            method: method.to_string(),
            fold,
            metrics: BTreeMap::new(),
            size: BTreeMap::new(),
            time_s: BTreeMap::new(),
            params: BTreeMap::new(),
        }
    }

    /// Records the tuning and final-fit times (`time_s.tune`,
    /// `time_s.fit`).
    pub fn put_times(&mut self, tune_s: f64, fit_s: f64) {
        self.time_s.insert("tune".into(), tune_s);
        self.time_s.insert("fit".into(), fit_s);
    }

    /// The key that identifies the job that made this record.
    pub fn key(&self) -> (String, String, String, usize) {
        (
            self.suite.clone(),
            self.dataset.clone(),
            self.method.clone(),
            self.fold,
        )
    }
}

/// Reads a record's `time_s`, naming paper004's former `tuning` key
/// `tune` (the one name of every suite).
fn time_map<'de, D>(deserializer: D) -> std::result::Result<BTreeMap<String, f64>, D::Error>
where
    D: serde::Deserializer<'de>,
{
    let mut map = BTreeMap::<String, f64>::deserialize(deserializer)?;
    if let Some(v) = map.remove("tuning") {
        map.entry("tune".into()).or_insert(v);
    }
    Ok(map)
}

/// A (suite, data set, method) left out of a run because the method
/// cannot run on the data set's task ([`crate::suites::suite::Suite::unsupported`]).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct SkippedJob {
    /// The suite.
    pub suite: String,
    /// Data set name.
    pub dataset: String,
    /// Method (job unit) name.
    pub method: String,
    /// Why it was left out.
    pub reason: String,
}

/// Facts about the run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Meta {
    /// `git rev-parse HEAD` (plus `-dirty` with uncommitted changes).
    pub git_commit: String,
    /// `rustc --version`.
    pub rustc_version: String,
    /// Logical cores of the machine.
    pub cores: usize,
    /// UTC date and time the run started.
    pub date: String,
    /// The command line.
    pub command_line: String,
    /// LP and MIP backends compiled in (`rc_lp::default_lp_solver` /
    /// `default_mip_solver`); empty in files written before it was recorded.
    #[serde(default)]
    pub solvers: String,
}

/// The contents of `results.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResultsFile {
    /// Run metadata (of the first file, when merged).
    pub meta: Meta,
    /// The records, sorted by (suite, dataset, method, fold).
    pub records: Vec<Record>,
    /// Jobs that failed, with their errors.
    #[serde(default)]
    pub failures: Vec<String>,
    /// Suites that had nothing to run, with the reason.
    #[serde(default)]
    pub skipped: Vec<String>,
    /// Methods left out on data sets whose task they cannot handle.
    #[serde(default)]
    pub skipped_jobs: Vec<SkippedJob>,
    /// Made with `--quick` (one small grid point, 3 folds): not comparable
    /// with the papers' numbers.
    #[serde(default)]
    pub quick: bool,
}

impl ResultsFile {
    /// Reads a results file.
    pub fn read(path: &Path) -> Result<Self> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        serde_json::from_str(&text).map_err(|e| Error::Parse {
            file: path.display().to_string(),
            message: e.to_string(),
        })
    }

    /// Writes the file as pretty JSON, atomically.
    pub fn write(&self, path: &Path) -> Result<()> {
        let text = serde_json::to_string_pretty(self).map_err(|e| Error::Parse {
            file: path.display().to_string(),
            message: e.to_string(),
        })?;
        rulecover_core::fs::write_atomically(path, text.as_bytes()).map_err(|e| Error::io(path, e))
    }

    /// Merges several files (e.g. shards): records of all, with a later
    /// file's record replacing an earlier one of the same job.
    pub fn merge(files: Vec<ResultsFile>) -> Option<ResultsFile> {
        let mut it = files.into_iter();
        let first = it.next()?;
        let meta = first.meta.clone();
        let mut by_key: BTreeMap<_, Record> = BTreeMap::new();
        let quick = first.quick;
        let mut failures = Vec::new();
        let mut skipped = Vec::new();
        let mut skipped_jobs = Vec::new();
        for f in std::iter::once(first).chain(it) {
            for r in f.records {
                by_key.insert(r.key(), r);
            }
            failures.extend(f.failures);
            skipped.extend(f.skipped);
            skipped_jobs.extend(f.skipped_jobs);
        }
        skipped.sort();
        skipped.dedup();
        skipped_jobs.sort();
        skipped_jobs.dedup();
        Some(ResultsFile {
            meta,
            records: by_key.into_values().collect(),
            failures,
            skipped,
            skipped_jobs,
            quick,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Journals and results written before `time_s.tune` existed load
    /// unchanged; paper004's former `tuning` key reads as `tune`.
    #[test]
    fn records_without_tune_still_load() {
        let old = r#"{"suite":"paper000","dataset":"wine","method":"DT","fold":0,
            "metrics":{"accuracy":0.9},"size":{},"time_s":{"fit":0.5,"predict":0.01},
            "params":{}}"#;
        let r: Record = serde_json::from_str(old).unwrap();
        assert_eq!(r.time_s.get("tune"), None);
        assert_eq!(r.time_s["fit"], 0.5);
        let nre = r#"{"suite":"paper004","dataset":"magic","method":"NRE","fold":1,
            "metrics":{},"size":{},"time_s":{"fit":2.0,"tuning":30.0},"params":{}}"#;
        let n: Record = serde_json::from_str(nre).unwrap();
        assert_eq!(n.time_s.get("tune"), Some(&30.0));
        assert!(!n.time_s.contains_key("tuning"));

        // (report's tests show "—" in the tune column for such records.)
        let mut new = r.clone();
        new.put_times(4.25, 0.5);
        // And a new record survives the round trip.
        let back: Record = serde_json::from_str(&serde_json::to_string(&new).unwrap()).unwrap();
        assert_eq!(back, new);
    }
}
