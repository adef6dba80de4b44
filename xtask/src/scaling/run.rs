//! The parent side: visits the plan's points in order, applies the skip
//! rule, runs each fit in a child process (this binary again, `scaling
//! point`) under the cap, and appends one record per point.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use rc_benches::process::{load_average, peak_mib};

use super::child::{Measured, DONE, READY, SOLVER_FAILED};
use super::grid::Point;
use super::growth::{decide, Decision};
use super::record::{self, Record, Status, RESULTS};
use crate::error::{Error, Result};
use crate::jsonl::Appender;

/// How to run the plan.
#[derive(Debug, Clone, PartialEq)]
pub struct RunOptions {
    /// Seconds a fit may take before it is killed.
    pub cap_s: f64,
    /// The seed of every data set and fit.
    pub seed: u64,
    /// Skip the points `results.jsonl` already holds (else an existing
    /// file is an error).
    pub resume: bool,
}

/// What a child said on stdout.
enum Event {
    Ready(Option<f64>),
    Done(Measured),
    /// The fit failed because its solver found no answer: the error.
    SolverFailed(String),
    Closed,
}

/// Runs `plan` into `out/results.jsonl` with the binary `exe` as the
/// child, printing one line per point; returns every record of the file.
///
/// # Errors
/// [`Error::Usage`] for an existing results file without `resume`; I/O
/// and record errors of the results file; a child that cannot be started.
pub fn run(exe: &Path, plan: &[Point], out: &Path, opts: &RunOptions) -> Result<Vec<Record>> {
    std::fs::create_dir_all(out).map_err(|e| Error::io(out, e))?;
    let path = out.join(RESULTS);
    if path.exists() && !opts.resume {
        return Err(Error::Usage(format!(
            "{} exists: pass --resume to continue that run, or another --out",
            path.display()
        )));
    }
    let mut done = record::read(&path)?;
    if path.exists() {
        record::rewrite(&path, &done)?;
    }
    let mut results = Appender::open(&path)?;
    for (k, point) in plan.iter().enumerate() {
        if done.iter().any(|r| &r.point == point) {
            continue;
        }
        let record = match decide(point, &done, opts.cap_s) {
            Decision::Skip(note) => Record::skipped(point.clone(), opts.cap_s, note),
            Decision::Run => run_one(exe, point, opts)?,
        };
        println!(
            "[{}/{}] {point}: {}{}{}{}",
            k + 1,
            plan.len(),
            record.status.name(),
            record
                .fit_s
                .map(|t| format!(", fit {t:.2} s"))
                .unwrap_or_default(),
            record
                .peak_mib
                .map(|m| format!(", peak {m:.0} MiB"))
                .unwrap_or_default(),
            record
                .note
                .as_deref()
                .map(|n| format!(" ({n})"))
                .unwrap_or_default(),
        );
        results.append(&record)?;
        done.push(record);
    }
    Ok(done)
}

/// Runs one point in a child and turns what happened into its record.
fn run_one(exe: &Path, point: &Point, opts: &RunOptions) -> Result<Record> {
    let load_start = load_average();
    let mut child = Command::new(exe)
        .args([
            "scaling",
            "point",
            "--learner",
            &point.learner,
            "--generator",
            point.generator.name(),
            "--n",
            &point.n.to_string(),
            "--p",
            &point.p.to_string(),
            "--seed",
            &opts.seed.to_string(),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| Error::io(exe, e))?;
    let events = watch_stdout(&mut child);
    let stderr_tail = keep_stderr_tail(&mut child);
    let cap = Duration::from_secs_f64(opts.cap_s);
    // Generating the data is not fit time, but it is capped too.
    let mut deadline = Instant::now() + cap;
    let mut data_mib = None;
    let mut outcome: Result<Measured, (Status, String)> = Err((Status::Failed, String::new()));
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match events.recv_timeout(left) {
            Ok(Event::Ready(mib)) => {
                data_mib = mib;
                deadline = Instant::now() + cap;
            }
            Ok(Event::Done(m)) => {
                outcome = Ok(m);
                break;
            }
            Ok(Event::SolverFailed(message)) => {
                outcome = Err((Status::SolverFailed, message));
                break;
            }
            Ok(Event::Closed) | Err(mpsc::RecvTimeoutError::Disconnected) => break,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                let what = if data_mib.is_some() {
                    "fit"
                } else {
                    "data generation"
                };
                outcome = Err((Status::Timeout, format!("{what} killed at the cap")));
                break;
            }
        }
    }
    let killed_peak = match outcome {
        Err((Status::Timeout, _)) => {
            let peak = peak_mib(&child.id().to_string());
            let _ = child.kill();
            peak
        }
        _ => None,
    };
    let exit = child.wait().map_err(|e| Error::io(exe, e))?;
    let tail = stderr_tail.join().unwrap_or_default();
    let mut record = Record::skipped(point.clone(), opts.cap_s, String::new());
    record.load_start = load_start;
    record.load_end = load_average();
    record.data_mib = data_mib;
    match outcome {
        Ok(m) => {
            record.status = Status::Ok;
            record.fit_s = Some(m.fit_s);
            record.cpu_s = m.cpu_s;
            record.peak_mib = m.peak_mib;
            record.data_mib = m.data_mib.or(data_mib);
            record.threads = Some(m.threads);
            record.note = None;
            record.rules = m.rules;
            record.heldout_accuracy = m.heldout_accuracy;
            record.heldout_rows = m.heldout_rows;
        }
        Err((Status::SolverFailed, message)) => {
            record.status = Status::SolverFailed;
            record.note = Some(format!("{exit}: {message}"));
        }
        Err((Status::Timeout, note)) => {
            record.status = Status::Timeout;
            record.fit_s = Some(opts.cap_s);
            record.peak_mib = killed_peak;
            record.note = Some(note);
        }
        Err((status, _)) => {
            record.status = status;
            record.note = Some(format!("{exit}: {}", tail.trim()));
        }
    }
    Ok(record)
}

/// Reads the child's stdout on a thread, turning its protocol lines into
/// events.
fn watch_stdout(child: &mut Child) -> mpsc::Receiver<Event> {
    let (tx, rx) = mpsc::channel();
    if let Some(stdout) = child.stdout.take() {
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let event = if let Some(rest) = line.strip_prefix(READY) {
                    Event::Ready(rest.trim().parse().ok().filter(|v: &f64| v.is_finite()))
                } else if let Some(rest) = line.strip_prefix(SOLVER_FAILED) {
                    Event::SolverFailed(rest.trim().to_string())
                } else if let Some(rest) = line.strip_prefix(DONE) {
                    match serde_json::from_str(rest) {
                        Ok(m) => Event::Done(m),
                        Err(_) => continue,
                    }
                } else {
                    continue;
                };
                if tx.send(event).is_err() {
                    return;
                }
            }
            let _ = tx.send(Event::Closed);
        });
    }
    rx
}

/// Collects the last lines of the child's stderr (its error, if it
/// fails) on a thread.
fn keep_stderr_tail(child: &mut Child) -> std::thread::JoinHandle<String> {
    let stderr = child.stderr.take();
    std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(mut s) = stderr {
            let _ = s.read_to_string(&mut text);
        }
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(5)..].join(" | ")
    })
}

#[cfg(test)]
mod tests {
    use super::super::grid::Generator;
    use super::*;

    #[test]
    fn a_resumed_run_appends_after_a_line_cut_short() {
        let dir = std::env::temp_dir().join(format!("xtask-scaling-run-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let point = Point {
            learner: "dt".into(),
            generator: Generator::Twonorm,
            n: 300,
            p: 20,
        };
        let kept = Record::skipped(point, 600.0, "predicted 900 s".into());
        let line = serde_json::to_string(&kept).unwrap();
        let path = dir.join(RESULTS);
        std::fs::write(&path, format!("{line}\n{{\"learner\":\"rf\",\"gen")).unwrap();
        let opts = RunOptions {
            cap_s: 600.0,
            seed: 1,
            resume: true,
        };
        // No point to run: the file is only read and rewritten.
        let done = run(Path::new("no-child"), &[], &dir, &opts).unwrap();
        assert_eq!(done, vec![kept.clone()]);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), format!("{line}\n"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
