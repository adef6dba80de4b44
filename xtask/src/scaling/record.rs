//! One JSON line per point in `results.jsonl`: what was measured (or why
//! not), and the machine's load beside it; reading them back for
//! `--resume` and the report.

use std::collections::HashMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::grid::Point;
use crate::error::{Error, Result};
use crate::jsonl;

/// The file name of the records in the output folder.
pub const RESULTS: &str = "results.jsonl";

/// How a point ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// The fit finished within the cap.
    Ok,
    /// The fit ran past the cap and was killed.
    Timeout,
    /// Not run: predicted past the cap, or an earlier point of its series
    /// overran ([`Record::note`] says which).
    Skipped,
    /// The fit (or the data) failed: [`Record::note`] holds the error.
    Failed,
    /// The fit stopped because its LP/MIP solver found no answer by any
    /// algorithm it tried: [`Record::note`] holds the error, which names
    /// the LP's size, the algorithms and their statuses.
    #[serde(rename = "solver-failed")]
    SolverFailed,
}

impl Status {
    /// The status's name in tables.
    pub fn name(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Timeout => "timeout",
            Status::Skipped => "skipped",
            Status::Failed => "failed",
            Status::SolverFailed => "solver-failed",
        }
    }
}

/// The record of one point.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// The point.
    #[serde(flatten)]
    pub point: Point,
    /// How it ended.
    pub status: Status,
    /// Wall seconds of the fit alone (data generation excluded); for a
    /// timeout, the cap.
    pub fit_s: Option<f64>,
    /// CPU seconds of the fit alone, all threads (records written before
    /// this field existed have none).
    #[serde(default)]
    pub cpu_s: Option<f64>,
    /// Peak resident memory of the process (`VmHWM`), MiB: data and fit;
    /// for a timeout, the peak when it was killed.
    pub peak_mib: Option<f64>,
    /// Peak resident memory before the fit began (the data alone), MiB.
    pub data_mib: Option<f64>,
    /// Threads of the fitting process's pool.
    pub threads: Option<usize>,
    /// The one-minute load average when the point started.
    pub load_start: Option<f64>,
    /// The one-minute load average when it ended.
    pub load_end: Option<f64>,
    /// The cap of the run, seconds.
    pub cap_s: f64,
    /// Why it was skipped, or the error of a failure.
    pub note: Option<String>,
    /// The fitted model's rules (`None` for a model without rules, a point
    /// that did not finish, and records written before this field existed).
    #[serde(default)]
    pub rules: Option<usize>,
    /// The fitted model's accuracy on the point's held-out rows
    /// ([`super::grid::Generator::heldout`]), scored outside the timed fit; `None` for
    /// a relational point, a point that did not finish, and records
    /// written before this field existed.
    #[serde(default)]
    pub heldout_accuracy: Option<f64>,
    /// The held-out rows scored (a quarter of the training rows: 20 % of
    /// the rows generated).
    #[serde(default)]
    pub heldout_rows: Option<usize>,
}

impl Record {
    /// A record of a point that was not run.
    pub fn skipped(point: Point, cap_s: f64, note: String) -> Record {
        Record {
            point,
            status: Status::Skipped,
            fit_s: None,
            cpu_s: None,
            peak_mib: None,
            data_mib: None,
            threads: None,
            load_start: None,
            load_end: None,
            cap_s,
            note: Some(note),
            rules: None,
            heldout_accuracy: None,
            heldout_rows: None,
        }
    }
}

/// Parses the records of a results file's text ([`jsonl::parse_lines`]:
/// blank lines ignored, a last line cut short by a killed run dropped);
/// `file` names it in errors. When a point appears more than once the
/// last record wins.
///
/// # Errors
/// [`crate::error::Error::Parse`] with the file, the line number and what
/// is wrong.
pub fn parse(text: &str, file: &str) -> Result<Vec<Record>> {
    let records = jsonl::parse_lines(text, file, |_, line| {
        serde_json::from_str::<Record>(line).map_err(|e| format!("not a scaling record: {e}"))
    })?;
    let mut by_point: HashMap<Point, usize> = HashMap::new();
    let mut out: Vec<Record> = Vec::new();
    for r in records {
        match by_point.get(&r.point) {
            Some(&at) => out[at] = r,
            None => {
                by_point.insert(r.point.clone(), out.len());
                out.push(r);
            }
        }
    }
    Ok(out)
}

/// The records in `path`; none when it does not exist.
///
/// # Errors
/// [`crate::error::Error::Io`] for an unreadable file,
/// [`crate::error::Error::Parse`] for a bad line.
pub fn read(path: &Path) -> Result<Vec<Record>> {
    match jsonl::read_if_exists(path)? {
        Some(text) => parse(&text, &path.display().to_string()),
        None => Ok(Vec::new()),
    }
}

/// Rewrites `path` with `records`, one line each, atomically: a resumed
/// run starts from this, so that its first appended line cannot run on
/// from a last line cut short by a killed run (the bench journal does the
/// same).
///
/// # Errors
/// [`Error::Io`] naming the file.
pub fn rewrite(path: &Path, records: &[Record]) -> Result<()> {
    let mut text = String::new();
    for r in records {
        text.push_str(&jsonl::line_of(path, r)?);
    }
    rulecover_core::fs::write_atomically(path, text.as_bytes()).map_err(|e| Error::io(path, e))
}

#[cfg(test)]
mod tests {
    use super::super::grid::Generator;
    use super::*;

    fn rec(n: usize, status: Status, fit_s: Option<f64>) -> Record {
        Record {
            point: Point {
                learner: "rf".into(),
                generator: Generator::Twonorm,
                n,
                p: 20,
            },
            status,
            fit_s,
            cpu_s: fit_s.map(|t| 2.0 * t),
            peak_mib: Some(12.5),
            data_mib: Some(3.0),
            threads: Some(2),
            load_start: Some(1.5),
            load_end: Some(1.75),
            cap_s: 600.0,
            note: None,
            rules: Some(12),
            heldout_accuracy: Some(0.95),
            heldout_rows: Some(n / 4),
        }
    }

    fn text(records: &[Record]) -> String {
        records
            .iter()
            .map(|r| serde_json::to_string(r).unwrap() + "\n")
            .collect()
    }

    #[test]
    fn records_round_trip_and_the_last_of_a_point_wins() {
        let a = rec(10_000, Status::Ok, Some(1.25));
        let b = rec(30_000, Status::Timeout, Some(600.0));
        let a2 = rec(10_000, Status::Ok, Some(2.5));
        let got = parse(&text(&[a, b.clone(), a2.clone()]), "r.jsonl").unwrap();
        assert_eq!(got, vec![a2, b]);
        let line = serde_json::to_string(&got[1]).unwrap();
        assert!(
            line.contains("\"generator\":\"twonorm\"") && line.contains("\"status\":\"timeout\"")
        );
    }

    #[test]
    fn a_record_written_before_the_heldout_fields_still_parses() {
        // A line of a results.jsonl written before `rules`, `heldout_*`
        // (and `cpu_s`) existed.
        let old = r#"{"learner":"rf","generator":"twonorm","n":10000,"p":20,"status":"ok","fit_s":1.25,"peak_mib":12.5,"data_mib":3.0,"threads":2,"load_start":1.5,"load_end":1.75,"cap_s":600.0,"note":null}"#;
        let got = parse(&format!("{old}\n"), "r.jsonl").unwrap();
        assert_eq!(got.len(), 1);
        let r = &got[0];
        assert_eq!(
            (r.status, r.fit_s, r.point.n),
            (Status::Ok, Some(1.25), 10_000)
        );
        assert_eq!(
            (r.rules, r.heldout_accuracy, r.heldout_rows),
            (None, None, None)
        );
        assert_eq!(r.cpu_s, None);
        // A solver failure is its own status in the file.
        let mut f = rec(100_000, Status::SolverFailed, None);
        f.note = Some("fitting rux-rf: … found no answer …".into());
        let line = serde_json::to_string(&f).unwrap();
        assert!(line.contains("\"status\":\"solver-failed\""), "{line}");
        assert_eq!(parse(&line, "r.jsonl").unwrap(), vec![f]);
    }

    #[test]
    fn a_cut_short_last_line_is_dropped_but_a_bad_middle_line_is_an_error() {
        let a = rec(10_000, Status::Ok, Some(1.0));
        let mut t = text(std::slice::from_ref(&a));
        t.push_str("{\"learner\":\"rf\",\"gener");
        assert_eq!(parse(&t, "r.jsonl").unwrap(), vec![a.clone()]);
        let bad = format!("not json\n{}", text(&[a]));
        match parse(&bad, "r.jsonl") {
            Err(crate::error::Error::Parse { file, message }) => {
                assert_eq!(file, "r.jsonl:1");
                assert!(message.starts_with("not a scaling record"), "{message}");
            }
            other => panic!("expected a record error, got {other:?}"),
        }
    }

    #[test]
    fn append_then_read() {
        let dir = std::env::temp_dir().join(format!("xtask-scaling-rec-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(RESULTS);
        let _ = std::fs::remove_file(&path);
        assert!(read(&path).unwrap().is_empty());
        let a = rec(10_000, Status::Ok, Some(1.0));
        let s = Record::skipped(a.point.clone(), 600.0, "predicted 900 s".into());
        let mut out = jsonl::Appender::open(&path).unwrap();
        out.append(&a).unwrap();
        out.append(&s).unwrap();
        assert_eq!(read(&path).unwrap(), vec![s]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
