//! `cargo xtask fuzz`: a structure-aware mutation fuzzer that runs on the
//! stable toolchain (issue 35, part B).
//!
//! There is no coverage feedback. Each target starts from its seed corpus
//! (`fuzz/corpus/<target>/`, files in the repository), mutates the inputs
//! at the byte level and at the level of lines and tokens (see
//! [`mutate`]), and runs the target's library entry points in-process on a
//! worker thread under [`std::panic::catch_unwind`]. A panic, or an input
//! that runs longer than the time guard (`--timeout`, 10 s by default), is
//! a *finding*: the input is written to `fuzz/findings/<target>/<hash>` and
//! the command exits non-zero. Inputs that a target accepts are added to an
//! in-memory pool (up to [`POOL_CAP`]), so mutations reach past the first
//! checks. The same `--seed` gives the same inputs.
//!
//! Inputs once found and fixed live in `fuzz/regressions/<target>/`; the
//! test `tests::regressions_do_not_panic` runs every one of them.

mod boostsrl;
mod cli;
mod csv;
mod model;
pub mod mutate;

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use rulecover_core::rng::{derive_seed, Rng};

use crate::error::{Error, Result};

/// Largest number of accepted inputs kept to mutate further.
pub const POOL_CAP: usize = 512;
/// Largest input handed to a target, in bytes.
pub const MAX_INPUT: usize = 1 << 16;

/// What a target made of one input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The input was accepted (parsed, loaded, predicted).
    Accepted,
    /// The input was refused with a typed error.
    Rejected,
}

/// One fuzz target: a name, its seed corpus and the code it drives.
pub struct Target {
    /// The name (`cargo xtask fuzz NAME`), also the corpus folder's.
    pub name: &'static str,
    /// What it calls, for `cargo xtask fuzz --list` and the docs.
    pub about: &'static str,
    /// Tokens worth inserting into this target's inputs.
    pub dictionary: &'static [&'static str],
    /// Runs one input; a panic is a finding.
    pub run: fn(&[u8]) -> Verdict,
}

/// Every target, in the order `cargo xtask fuzz` runs them.
pub fn targets() -> Vec<Target> {
    vec![
        csv::plain(),
        csv::with_schema(),
        boostsrl::facts(),
        boostsrl::examples(),
        boostsrl::modes(),
        boostsrl::background(),
        model::target(),
        cli::target(),
    ]
}

/// Options of `cargo xtask fuzz`.
#[derive(Debug, Clone, PartialEq)]
pub struct FuzzArgs {
    /// The targets to run (all when empty).
    pub targets: Vec<String>,
    /// Seconds per target.
    pub seconds: f64,
    /// The seed of the mutations.
    pub seed: u64,
    /// The corpus root (default `fuzz/corpus`).
    pub corpus: Option<PathBuf>,
    /// Seconds one input may run before it counts as a hang.
    pub timeout: f64,
    /// Only run the files of `fuzz/regressions/<target>/` once each.
    pub regressions: bool,
    /// List the targets and exit.
    pub list: bool,
    /// Go on after a finding (up to [`MAX_FINDINGS`] per target) instead
    /// of stopping at the first.
    pub keep_going: bool,
}

/// Most findings one target records with `--keep-going`.
pub const MAX_FINDINGS: usize = 20;

impl Default for FuzzArgs {
    fn default() -> Self {
        FuzzArgs {
            targets: Vec::new(),
            seconds: 30.0,
            seed: 1,
            corpus: None,
            timeout: 10.0,
            regressions: false,
            list: false,
            keep_going: false,
        }
    }
}

/// Parses the arguments after `fuzz`.
pub fn parse_args(args: impl Iterator<Item = String>) -> Result<FuzzArgs> {
    let mut out = FuzzArgs::default();
    let mut args = args.peekable();
    let number = |flag: &str, v: Option<String>| -> Result<f64> {
        let v = v.ok_or_else(|| Error::Usage(format!("fuzz: {flag} needs a value")))?;
        match v.parse::<f64>() {
            Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
            _ => Err(Error::Usage(format!(
                "fuzz: {flag} {v}: expected a positive number"
            ))),
        }
    };
    while let Some(a) = args.next() {
        match a.as_str() {
            "--seconds" => out.seconds = number(&a, args.next())?,
            "--timeout" => out.timeout = number(&a, args.next())?,
            "--seed" => {
                let v = args.next().unwrap_or_default();
                out.seed = v
                    .parse()
                    .map_err(|_| Error::Usage(format!("fuzz: --seed {v}: expected an integer")))?;
            }
            "--corpus" => {
                let v = args
                    .next()
                    .ok_or_else(|| Error::Usage("fuzz: --corpus needs a folder".into()))?;
                out.corpus = Some(PathBuf::from(v));
            }
            "--regressions" => out.regressions = true,
            "--list" => out.list = true,
            "--keep-going" => out.keep_going = true,
            s if s.starts_with('-') => {
                return Err(Error::Usage(format!("fuzz: unknown option '{s}'")));
            }
            _ => out.targets.push(a),
        }
    }
    let known: Vec<&str> = targets().iter().map(|t| t.name).collect();
    if let Some(bad) = out.targets.iter().find(|t| !known.contains(&t.as_str())) {
        return Err(Error::Usage(format!(
            "fuzz: unknown target '{bad}' (targets: {})",
            known.join(", ")
        )));
    }
    Ok(out)
}

/// The repository's root (this crate's parent folder).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."))
}

/// The files of a folder, sorted by name (none when it does not exist).
pub fn files_in(dir: &Path) -> Result<Vec<(PathBuf, Vec<u8>)>> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(Vec::new());
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let bytes = std::fs::read(&p).map_err(|e| Error::io(&p, e))?;
            Ok((p, bytes))
        })
        .collect()
}

/// The message of the last panic on a worker thread (the panic hook keeps
/// it; the default hook's output would drown the progress lines).
fn last_panic() -> &'static Mutex<Option<String>> {
    static LAST: OnceLock<Mutex<Option<String>>> = OnceLock::new();
    LAST.get_or_init(|| Mutex::new(None))
}

/// Keeps the message of a panic on a fuzz worker thread instead of
/// printing it; panics elsewhere (other tests, threads a target starts)
/// go to the hook that was there before.
fn install_quiet_hook() {
    static ONCE: OnceLock<()> = OnceLock::new();
    ONCE.get_or_init(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if std::thread::current().name() == Some(WORKER_NAME) {
                if let Ok(mut last) = last_panic().lock() {
                    *last = Some(format!("{info}"));
                }
            } else {
                previous(info);
            }
        }));
    });
}

/// The name of the threads that run inputs.
const WORKER_NAME: &str = "fuzz-worker";

/// How one input ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The target returned.
    Done(Verdict),
    /// The target panicked with this message.
    Panic(String),
    /// The target ran longer than the time guard.
    Hang,
}

/// Runs `run` on inputs on one worker thread, each under `catch_unwind`
/// and a time guard.
pub struct Worker {
    send: Option<mpsc::Sender<Vec<u8>>>,
    recv: mpsc::Receiver<Outcome>,
    timeout: Duration,
}

impl Worker {
    /// A worker for `run` with the time guard `timeout`.
    pub fn new(run: fn(&[u8]) -> Verdict, timeout: Duration) -> Worker {
        install_quiet_hook();
        let (send, inputs) = mpsc::channel::<Vec<u8>>();
        let (results, recv) = mpsc::channel();
        std::thread::Builder::new()
            .name(WORKER_NAME.into())
            .stack_size(64 << 20)
            .spawn(move || {
                for input in inputs {
                    let r = std::panic::catch_unwind(|| run(&input));
                    let outcome = match r {
                        Ok(v) => Outcome::Done(v),
                        Err(payload) => {
                            let hooked = last_panic().lock().ok().and_then(|mut l| l.take());
                            Outcome::Panic(hooked.unwrap_or_else(|| payload_text(&*payload)))
                        }
                    };
                    if results.send(outcome).is_err() {
                        break;
                    }
                }
            })
            .expect("spawning the fuzz worker thread");
        Worker {
            send: Some(send),
            recv,
            timeout,
        }
    }

    /// Runs one input. After a [`Outcome::Hang`] the worker is stuck: make
    /// a new one.
    pub fn run(&self, input: &[u8]) -> Outcome {
        let Some(send) = &self.send else {
            return Outcome::Hang;
        };
        if send.send(input.to_vec()).is_err() {
            return Outcome::Panic("the fuzz worker thread ended".into());
        }
        match self.recv.recv_timeout(self.timeout) {
            Ok(o) => o,
            Err(mpsc::RecvTimeoutError::Timeout) => Outcome::Hang,
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                Outcome::Panic("the fuzz worker thread ended".into())
            }
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        // Closing the channel ends the worker's loop (a stuck worker is
        // left to the end of the process).
        self.send.take();
    }
}

fn payload_text(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic with a non-text payload".into()
    }
}

/// A short stable name of an input (the findings' file names).
pub fn input_hash(input: &[u8]) -> String {
    let mut h = DefaultHasher::new();
    input.hash(&mut h);
    format!("{:016x}", h.finish())
}

/// What one target's run did.
#[derive(Debug, Clone)]
pub struct TargetRun {
    /// The target.
    pub name: &'static str,
    /// Inputs run.
    pub execs: u64,
    /// Of those, accepted by the target.
    pub accepted: u64,
    /// Seconds spent.
    pub seconds: f64,
    /// Findings: the file written and what happened.
    pub findings: Vec<(PathBuf, String)>,
}

/// Fuzzes one target for `seconds` from `seeds`; stops at the first
/// finding (written under `findings_dir`) unless `keep_going`.
pub fn fuzz_target(
    target: &Target,
    seeds: &[Vec<u8>],
    seconds: f64,
    seed: u64,
    timeout: Duration,
    findings_dir: &Path,
    keep_going: bool,
) -> Result<TargetRun> {
    // Each target draws its own stream of the one seed.
    let index = target
        .name
        .bytes()
        .fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b)));
    let mut rng = Rng::new(derive_seed(seed, index));
    let mut pool: Vec<Vec<u8>> = if seeds.is_empty() {
        vec![Vec::new()]
    } else {
        seeds.to_vec()
    };
    let n_seeds = pool.len();
    let mut worker = Worker::new(target.run, timeout);
    let mut run = TargetRun {
        name: target.name,
        execs: 0,
        accepted: 0,
        seconds: 0.0,
        findings: Vec::new(),
    };
    let start = Instant::now();
    // The seeds themselves first, unchanged.
    let mut queue: Vec<Vec<u8>> = pool.clone();
    queue.reverse();
    while start.elapsed().as_secs_f64() < seconds {
        let input = match queue.pop() {
            Some(i) => i,
            None => {
                let base = &pool[rng.below(pool.len())];
                let other = &pool[rng.below(pool.len())];
                let mut m = mutate::mutate(base, other, target.dictionary, &mut rng);
                m.truncate(MAX_INPUT);
                m
            }
        };
        let outcome = worker.run(&input);
        run.execs += 1;
        match outcome {
            Outcome::Done(Verdict::Accepted) => {
                run.accepted += 1;
                if pool.len() < POOL_CAP {
                    pool.push(input);
                } else {
                    let k = n_seeds + rng.below(POOL_CAP - n_seeds);
                    pool[k] = input;
                }
            }
            Outcome::Done(Verdict::Rejected) => {}
            other => {
                let hang = matches!(other, Outcome::Hang);
                let what = match other {
                    Outcome::Panic(m) => format!("panic: {m}"),
                    _ => format!("no result within {:.1} s", timeout.as_secs_f64()),
                };
                let path = write_finding(findings_dir, target.name, &input, &what)?;
                run.findings.push((path, what));
                if !keep_going || run.findings.len() >= MAX_FINDINGS {
                    break;
                }
                if hang {
                    worker = Worker::new(target.run, timeout);
                }
            }
        }
    }
    run.seconds = start.elapsed().as_secs_f64();
    Ok(run)
}

fn write_finding(dir: &Path, target: &str, input: &[u8], what: &str) -> Result<PathBuf> {
    let dir = dir.join(target);
    std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
    let path = dir.join(input_hash(input));
    std::fs::write(&path, input).map_err(|e| Error::io(&path, e))?;
    let note = path.with_extension("txt");
    std::fs::write(&note, format!("{what}\n")).map_err(|e| Error::io(&note, e))?;
    Ok(path)
}

/// Runs every file of `fuzz/regressions/<target>/` once; the failures.
pub fn run_regressions(target: &Target, dir: &Path, timeout: Duration) -> Result<Vec<String>> {
    let worker = Worker::new(target.run, timeout);
    let mut failures = Vec::new();
    for (path, bytes) in files_in(&dir.join(target.name))? {
        if path.extension().is_some_and(|e| e == "txt" || e == "md") {
            continue;
        }
        match worker.run(&bytes) {
            Outcome::Done(_) => {}
            Outcome::Panic(m) => failures.push(format!("{}: panic: {m}", path.display())),
            Outcome::Hang => {
                failures.push(format!("{}: no result in time", path.display()));
                return Ok(failures);
            }
        }
    }
    Ok(failures)
}

/// `cargo xtask fuzz`.
pub fn main(args: &FuzzArgs) -> Result<()> {
    let all = targets();
    if args.list {
        for t in &all {
            println!("{:<12} {}", t.name, t.about);
        }
        return Ok(());
    }
    let root = repo_root();
    let corpus = args
        .corpus
        .clone()
        .unwrap_or_else(|| root.join("fuzz").join("corpus"));
    let chosen: Vec<&Target> = all
        .iter()
        .filter(|t| args.targets.is_empty() || args.targets.iter().any(|n| n == t.name))
        .collect();
    let timeout = Duration::from_secs_f64(args.timeout);
    let mut failed = 0;
    for t in chosen {
        if args.regressions {
            let fails = run_regressions(t, &root.join("fuzz").join("regressions"), timeout)?;
            println!("{:<12} regressions: {} failing", t.name, fails.len());
            for f in &fails {
                println!("  {f}");
            }
            failed += fails.len();
            continue;
        }
        let seeds: Vec<Vec<u8>> = files_in(&corpus.join(t.name))?
            .into_iter()
            .map(|(_, b)| b)
            .collect();
        let run = fuzz_target(
            t,
            &seeds,
            args.seconds,
            args.seed,
            timeout,
            &root.join("fuzz").join("findings"),
            args.keep_going,
        )?;
        println!(
            "{:<12} {:>9} inputs ({:>8} accepted) in {:>6.1} s, {} seeds, {}",
            run.name,
            run.execs,
            run.accepted,
            run.seconds,
            seeds.len(),
            if run.findings.is_empty() {
                "no finding".to_string()
            } else {
                format!("{} finding(s)", run.findings.len())
            }
        );
        for (path, what) in &run.findings {
            println!(
                "  {}: {}",
                path.display(),
                what.lines().next().unwrap_or("")
            );
        }
        failed += run.findings.len();
    }
    if failed > 0 {
        return Err(Error::Usage(format!(
            "fuzz: {failed} finding(s); add the input to fuzz/regressions/<target>/ once fixed"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every file of `fuzz/regressions/<target>/` runs through its target
    /// without a panic or a hang (the model files among them crashed
    /// `predict` or `rules` before every model validated itself on load).
    #[test]
    fn regressions_do_not_panic() {
        let dir = repo_root().join("fuzz").join("regressions");
        for t in targets() {
            let fails = run_regressions(&t, &dir, Duration::from_secs(60)).unwrap();
            assert!(fails.is_empty(), "{}: {fails:#?}", t.name);
        }
    }

    /// Every seed of every target runs without a finding, and each target
    /// has seeds.
    #[test]
    fn seeds_run() {
        let corpus = repo_root().join("fuzz").join("corpus");
        for t in targets() {
            let seeds = files_in(&corpus.join(t.name)).unwrap();
            assert!(!seeds.is_empty(), "{}: no seed corpus", t.name);
            let w = Worker::new(t.run, Duration::from_secs(60));
            for (p, b) in seeds {
                let o = w.run(&b);
                assert!(matches!(o, Outcome::Done(_)), "{}: {o:?}", p.display());
            }
        }
    }

    /// The same seed gives the same inputs.
    #[test]
    fn mutations_are_deterministic() {
        let seed = b"a,b,y\n1,2,0\n3,4,1\n".to_vec();
        let draw = |s| {
            let mut rng = Rng::new(s);
            (0..50)
                .map(|_| mutate::mutate(&seed, &seed, &["inf"], &mut rng))
                .collect::<Vec<_>>()
        };
        assert_eq!(draw(3), draw(3));
        assert_ne!(draw(3), draw(4));
    }

    #[test]
    fn a_panic_and_a_hang_are_findings() {
        fn boom(b: &[u8]) -> Verdict {
            if b.first() == Some(&b'!') {
                panic!("boom");
            }
            if b.first() == Some(&b'z') {
                std::thread::sleep(Duration::from_secs(5));
            }
            Verdict::Rejected
        }
        let w = Worker::new(boom, Duration::from_millis(300));
        assert_eq!(w.run(b"ok"), Outcome::Done(Verdict::Rejected));
        assert!(matches!(w.run(b"!"), Outcome::Panic(m) if m.contains("boom")));
        assert_eq!(w.run(b"ok"), Outcome::Done(Verdict::Rejected));
        assert_eq!(w.run(b"z"), Outcome::Hang);
    }

    #[test]
    fn parses_its_options() {
        let p = |s: &str| parse_args(s.split_whitespace().map(String::from));
        let a = p("csv model --seconds 5 --seed 9").unwrap();
        assert_eq!(a.targets, ["csv", "model"]);
        assert_eq!(a.seconds, 5.0);
        assert_eq!(a.seed, 9);
        assert!(p("nope").is_err());
        assert!(p("--seconds -1").is_err());
    }
}
