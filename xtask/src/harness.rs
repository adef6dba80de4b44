//! Runs the (suite, data set, method, fold) jobs of `cargo xtask bench`:
//! selection, sharding, outer folds, parallel execution with a progress
//! bar, and the results file.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use rulecover_core::cv::{
    folds_from_json, kfold, sklearn_stratified_kfold, stratified_kfold, Fold,
};
use rulecover_core::Dataset;

use crate::cli::BenchArgs;
use crate::data::{DataSource, GENERATED};
use crate::error::{Error, Result};
use crate::journal::{JobKey, JournalWriter};
use crate::records::{Meta, Record, ResultsFile, SkippedJob};
use crate::suites::suite::{CustomJob, FoldsFile, JobData, Suite};

/// Folds used by `--quick`.
pub const QUICK_FOLDS: usize = 3;
/// Data sets per suite used by `--quick` (the smallest ones).
pub const QUICK_DATASETS: usize = 3;

/// One unit of work.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Job {
    /// Index of the suite in the run's suite list.
    pub suite: usize,
    /// Data set name.
    pub dataset: String,
    /// Method (job unit) name.
    pub method: String,
    /// Outer fold.
    pub fold: usize,
    /// Number of outer folds.
    pub n_folds: usize,
}

/// The data sets a suite runs on in this run.
pub fn select_datasets(suite: &dyn Suite, args: &BenchArgs, data: &DataSource) -> Vec<String> {
    let mut names: Vec<String> = if data.shared().is_some() || suite.custom() {
        suite
            .datasets(data)
            .into_iter()
            .filter(|d| suite.available(d, data))
            .collect()
    } else {
        GENERATED.iter().map(|s| s.to_string()).collect()
    };
    if let Some(only) = &args.datasets {
        names.retain(|d| only.contains(d));
    } else if args.quick && !suite.quick_runs_every_dataset() {
        names.sort_by_key(|d| (data.rows(d).unwrap_or(usize::MAX), d.clone()));
        names.truncate(QUICK_DATASETS);
    }
    names
}

/// The methods of a suite that `--methods` selects.
fn selected_methods(suite: &dyn Suite, args: &BenchArgs) -> Vec<&'static str> {
    suite
        .methods()
        .into_iter()
        .filter(|m| {
            args.methods
                .as_ref()
                .is_none_or(|only| only.iter().any(|o| o == m))
        })
        .collect()
}

/// The (data set, method) pairs of the run that [`plan`] leaves out
/// because the method cannot run on the data set's task, with why (all of
/// them, whatever the shard).
pub fn skipped_jobs(suites: &[&dyn Suite], args: &BenchArgs, data: &DataSource) -> Vec<SkippedJob> {
    let mut out = Vec::new();
    for suite in suites {
        for dataset in select_datasets(*suite, args, data) {
            for method in selected_methods(*suite, args) {
                if let Some(reason) = suite.unsupported(method, &dataset, data) {
                    out.push(SkippedJob {
                        suite: suite.name().to_string(),
                        dataset: dataset.clone(),
                        method: method.to_string(),
                        reason,
                    });
                }
            }
        }
    }
    out
}

/// The data sets of the source that the run's suites leave out
/// ([`Suite::left_out`]; only those `--datasets` names, if given), as
/// notes for the report.
pub fn left_out_notes(suites: &[&dyn Suite], args: &BenchArgs, data: &DataSource) -> Vec<String> {
    suites
        .iter()
        .flat_map(|s| {
            s.left_out(data)
                .into_iter()
                .filter(|(d, _)| args.datasets.as_ref().is_none_or(|only| only.contains(d)))
                .map(move |(d, why)| format!("suite {}: data set {d} left out: {why}", s.name()))
        })
        .collect()
}

/// Number of folds in a `--folds-file` (its rows are checked against each
/// data set when the folds are made).
fn folds_in_file(path: &Path) -> Result<usize> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    let folds: Vec<Vec<usize>> = serde_json::from_str(&text).map_err(|e| Error::Parse {
        file: path.display().to_string(),
        message: format!("{e} (expected a list of lists of 0-based row indices)"),
    })?;
    if folds.is_empty() {
        return Err(Error::Parse {
            file: path.display().to_string(),
            message: "no folds".into(),
        });
    }
    Ok(folds.len())
}

/// The fold count of `--folds-file`, if given, after checking that every
/// suite of the run takes it and that `--folds` (if given) agrees.
pub fn check_folds_file(suites: &[&dyn Suite], args: &BenchArgs) -> Result<Option<usize>> {
    let Some(path) = &args.folds_file else {
        return Ok(None);
    };
    for suite in suites {
        if let FoldsFile::Refused(why) = suite.folds_file() {
            return Err(Error::Usage(format!(
                "--folds-file: suite {} cannot follow a folds file: {why}; run it without \
                 --folds-file (or leave it out of this run)",
                suite.name()
            )));
        }
    }
    let n = folds_in_file(path)?;
    if let Some(k) = args.folds.filter(|&k| k != n) {
        return Err(Error::Usage(format!(
            "--folds {k} disagrees with --folds-file {}, which holds {n} folds",
            path.display()
        )));
    }
    Ok(Some(n))
}

/// Every job of the run, in a fixed order (suite, data set, method, fold),
/// restricted to the shard if one is given. With `--folds-file`, every
/// suite runs the file's folds (or is refused, see [`check_folds_file`]).
pub fn plan(suites: &[&dyn Suite], args: &BenchArgs, data: &DataSource) -> Result<Vec<Job>> {
    let from_file = check_folds_file(suites, args)?;
    let mut jobs = Vec::new();
    for (s, suite) in suites.iter().enumerate() {
        for dataset in select_datasets(*suite, args, data) {
            let own = suite.folds_of(&dataset, data);
            let n_folds = match (from_file, suite.folds_file()) {
                (Some(n), FoldsFile::PerFold) => n,
                (Some(_), _) => own,
                (None, _) if suite.custom() => {
                    // Predefined folds: --quick and --folds can only use fewer.
                    let k = if args.quick {
                        QUICK_FOLDS
                    } else {
                        args.folds.unwrap_or(own)
                    };
                    k.min(own)
                }
                (None, _) if args.quick => QUICK_FOLDS,
                (None, _) => args.folds.unwrap_or(own),
            };
            for method in selected_methods(*suite, args) {
                if suite.unsupported(method, &dataset, data).is_some() {
                    continue;
                }
                for fold in 0..n_folds {
                    jobs.push(Job {
                        suite: s,
                        dataset: dataset.clone(),
                        method: method.to_string(),
                        fold,
                        n_folds,
                    });
                }
            }
        }
    }
    if let Some((i, n)) = args.shard {
        jobs = jobs
            .into_iter()
            .enumerate()
            .filter(|(k, _)| k % n == i - 1)
            .map(|(_, j)| j)
            .collect();
    }
    Ok(jobs)
}

/// The outer folds of a data set: from `--folds-file`, else stratified
/// (classification) or plain shuffled (regression) K-fold with the seed.
/// Stratified folds are scikit-learn's own for seeds below 2³² (the
/// papers' `StratifiedKFold(shuffle=True, random_state=seed)`).
pub fn outer_folds(data: &Dataset, k: usize, args: &BenchArgs) -> Result<Vec<Fold>> {
    if let Some(f) = &args.folds_file {
        return Ok(folds_from_json(f, data.n_rows())?);
    }
    Ok(if data.is_classification() {
        let labels = data.labels()?;
        match u32::try_from(args.seed) {
            Ok(rs) => sklearn_stratified_kfold(&labels, k, rs)?,
            Err(_) => stratified_kfold(&labels, k, args.seed)?,
        }
    } else {
        kfold(data.n_rows(), k, true, args.seed)?
    })
}

fn run_job(
    suite: &dyn Suite,
    job: &Job,
    args: &BenchArgs,
    data: &DataSource,
) -> Result<Vec<Record>> {
    let job_err = |message: String| Error::Job {
        suite: suite.name().to_string(),
        dataset: job.dataset.clone(),
        method: job.method.clone(),
        fold: job.fold,
        message,
    };
    if suite.custom() {
        let input = CustomJob {
            suite: suite.name(),
            dataset: &job.dataset,
            fold: job.fold,
            n_folds: job.n_folds,
            data_root: data.shared().map(|s| s.root()),
            quick: args.quick,
            seed: args.seed,
            folds_file: args.folds_file.as_deref(),
        };
        return suite
            .run_custom(&job.method, &input)
            .map_err(|e| job_err(e.to_string()));
    }
    let raw = data.load(&job.dataset)?;
    let prepared = suite.prepare(&raw).map_err(|e| job_err(e.to_string()))?;
    let folds = outer_folds(&prepared, job.n_folds, args)?;
    let fold = folds
        .get(job.fold)
        .ok_or_else(|| job_err(format!("only {} folds available", folds.len())))?;
    let train = prepared.subset(&fold.train)?;
    let test = prepared.subset(&fold.test)?;
    let input = JobData {
        suite: suite.name(),
        dataset: &job.dataset,
        fold: job.fold,
        train: &train,
        test: &test,
        quick: args.quick,
        seed: args.seed,
    };
    suite
        .run(&job.method, &input)
        .map_err(|e| job_err(e.to_string()))
}

/// Runs the jobs on `--jobs` threads (results in job order, so the output
/// does not depend on scheduling).
///
/// With `journal`, every finished job's records are appended to it as one
/// JSON line at once, so a long run can be inspected while it goes and
/// resumed when it is interrupted.
pub fn run(
    suites: &[&dyn Suite],
    jobs: &[Job],
    args: &BenchArgs,
    data: &DataSource,
    meta: Meta,
    journal: Option<JournalWriter>,
) -> Result<ResultsFile> {
    let threads = args.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::Usage(format!("cannot start {threads} threads: {e}")))?;
    let bar = ProgressBar::new(jobs.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} jobs  ETA {eta}  {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let done = Mutex::new(journal);
    let started = std::time::Instant::now();
    let outcomes: Vec<Result<Vec<Record>>> = pool.install(|| {
        jobs.par_iter()
            .map(|job| {
                let suite = suites[job.suite];
                let out = run_job(suite, job, args, data);
                let mut guard = done.lock();
                let out = match (guard.as_deref_mut(), out) {
                    (Ok(Some(journal)), Ok(records)) => journal
                        .append(&job_key(suite, job), &records)
                        .map(|()| records),
                    (_, out) => out,
                };
                drop(guard);
                bar.set_message(format!(
                    "{}/{}/{}/fold {}",
                    suite.name(),
                    job.dataset,
                    job.method,
                    job.fold
                ));
                bar.inc(1);
                if bar.is_hidden() {
                    // No terminal (CI, logs): a plain line every ~5%.
                    let done = bar.position() as usize;
                    let step = (jobs.len() / 20).max(1);
                    if done.is_multiple_of(step) || done == jobs.len() {
                        eprintln!(
                            "{done}/{} jobs, {:.0} s elapsed, last {}/{}/{}",
                            jobs.len(),
                            started.elapsed().as_secs_f64(),
                            job.dataset,
                            job.method,
                            job.fold
                        );
                    }
                }
                out
            })
            .collect()
    });
    bar.finish_and_clear();
    let mut records = Vec::new();
    let mut failures = Vec::new();
    for o in outcomes {
        match o {
            Ok(rs) => records.extend(rs),
            Err(e) => failures.push(e.to_string()),
        }
    }
    records.sort_by_key(Record::key);
    Ok(ResultsFile {
        meta,
        records,
        failures,
        skipped: Vec::new(),
        skipped_jobs: Vec::new(),
        quick: args.quick,
    })
}

/// The journal key of a job.
pub fn job_key(suite: &dyn Suite, job: &Job) -> JobKey {
    (
        suite.name().to_string(),
        job.dataset.clone(),
        job.method.clone(),
        job.fold,
    )
}

/// Everything that decides a run's records, as text: the jobs with their
/// fold counts and the options that change results (not `--jobs`,
/// `--shard` slices are in the job list, not `--out`).
pub fn plan_description(suites: &[&dyn Suite], jobs: &[Job], args: &BenchArgs) -> String {
    let mut text = format!(
        "seed={} quick={} folds={:?} folds_file={:?} data_dir={:?}\n",
        args.seed, args.quick, args.folds, args.folds_file, args.data_dir
    );
    // The folds file's contents, not only its name, decide the records
    // (a line only when there is one, so earlier plans keep their
    // fingerprints and their journals can be resumed).
    if let Some(f) = &args.folds_file {
        let contents = std::fs::read_to_string(f).unwrap_or_default();
        text.push_str(&format!(
            "folds_file_contents={}\n",
            crate::journal::plan_fingerprint(&contents)
        ));
    }
    for job in jobs {
        let (suite, dataset, method, fold) = job_key(suites[job.suite], job);
        text.push_str(&format!(
            "{suite}/{dataset}/{method}/{fold}/{}\n",
            job.n_folds
        ));
    }
    text
}

/// Checks that every name of `--datasets` and `--methods` belongs to one
/// of the chosen suites, so a misspelt name is an error, not a smaller run.
pub fn check_names(suites: &[&dyn Suite], args: &BenchArgs, data: &DataSource) -> Result<()> {
    let mut datasets: Vec<String> = suites
        .iter()
        .flat_map(|s| {
            let left_out = s.left_out(data).into_iter().map(|(d, _)| d);
            s.datasets(data).into_iter().chain(left_out)
        })
        .chain(GENERATED.iter().map(|s| s.to_string()))
        .collect();
    datasets.sort();
    datasets.dedup();
    let mut methods: Vec<String> = suites
        .iter()
        .flat_map(|s| s.methods())
        .map(str::to_string)
        .collect();
    methods.sort();
    methods.dedup();
    for (flag, given, valid) in [
        ("--datasets", &args.datasets, &datasets),
        ("--methods", &args.methods, &methods),
    ] {
        let unknown: Vec<&String> = given
            .iter()
            .flatten()
            .filter(|name| !valid.contains(name))
            .collect();
        if !unknown.is_empty() {
            let names: Vec<&str> = unknown.iter().map(|s| s.as_str()).collect();
            return Err(Error::Usage(format!(
                "{flag}: unknown name(s) {} for the suite(s) {}; valid names: {}",
                names.join(", "),
                suites
                    .iter()
                    .map(|s| s.name())
                    .collect::<Vec<_>>()
                    .join(", "),
                valid.join(", ")
            )));
        }
    }
    Ok(())
}

/// The default output directory for a run.
pub fn default_out(suites: &[&dyn Suite], args: &BenchArgs) -> PathBuf {
    let names: Vec<&str> = suites.iter().map(|s| s.name()).collect();
    let mut dir = names.join("+");
    if args.quick {
        dir.push_str("-quick");
    }
    if let Some((i, n)) = args.shard {
        dir.push_str(&format!("-shard{i}of{n}"));
    }
    PathBuf::from("bench-out").join(dir)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::Meta;
    use crate::suites::scoring::zeror;
    use crate::suites::suite::JobError;

    /// A suite with only ZeroR: exercises the harness without any learner.
    struct ZeroRSuite;

    impl Suite for ZeroRSuite {
        fn name(&self) -> &'static str {
            "zeror-test"
        }
        fn about(&self) -> &'static str {
            "ZeroR only"
        }
        fn datasets(&self, _data: &DataSource) -> Vec<String> {
            vec!["tictactoe".into()]
        }
        fn methods(&self) -> Vec<&'static str> {
            vec!["ZeroR"]
        }
        fn run(&self, _method: &str, job: &JobData) -> Result<Vec<Record>, JobError> {
            zeror(job)
        }
    }

    fn meta() -> Meta {
        Meta {
            git_commit: "test".into(),
            rustc_version: "test".into(),
            cores: 1,
            date: "today".into(),
            command_line: "test".into(),
            solvers: String::new(),
        }
    }

    fn generated_only() -> DataSource {
        DataSource::generated_only()
    }

    #[test]
    fn zeror_runs_on_generated_data_with_majority_accuracy() {
        let data = generated_only();
        let args = BenchArgs {
            datasets: Some(vec!["tictactoe".into()]),
            seed: 25,
            jobs: Some(2),
            ..BenchArgs::default()
        };
        let suite = ZeroRSuite;
        let suites: Vec<&dyn Suite> = vec![&suite];
        let jobs = plan(&suites, &args, &data).unwrap();
        assert_eq!(jobs.len(), 10);
        let res = run(&suites, &jobs, &args, &data, meta(), None).unwrap();
        assert!(res.failures.is_empty(), "{:?}", res.failures);
        assert_eq!(res.records.len(), 10);
        let acc: f64 = res
            .records
            .iter()
            .map(|r| r.metrics["accuracy"])
            .sum::<f64>()
            / 10.0;
        // 626 of 958 boards are wins for x; stratified folds keep the ratio.
        assert!((acc - 626.0 / 958.0).abs() < 0.01, "{acc}");
        let report = crate::report::render(&res, &[]).unwrap();
        assert!(report.contains("| tictactoe | ZeroR | 10 |"), "{report}");
    }

    #[test]
    fn shards_partition_the_jobs_and_merge_back() {
        let data = generated_only();
        let base = BenchArgs {
            seed: 3,
            jobs: Some(1),
            quick: true,
            ..BenchArgs::default()
        };
        let suite = ZeroRSuite;
        let suites: Vec<&dyn Suite> = vec![&suite];
        let all = plan(&suites, &base, &data).unwrap();
        let mut parts = Vec::new();
        for i in 1..=3 {
            let args = BenchArgs {
                shard: Some((i, 3)),
                ..base.clone()
            };
            let jobs = plan(&suites, &args, &data).unwrap();
            parts.push(run(&suites, &jobs, &args, &data, meta(), None).unwrap());
        }
        let whole = run(&suites, &all, &base, &data, meta(), None).unwrap();
        let merged = ResultsFile::merge(parts).unwrap();
        // Timings differ between runs; everything else must not.
        let strip = |rs: &[Record]| -> Vec<Record> {
            rs.iter()
                .cloned()
                .map(|mut r| {
                    r.time_s.clear();
                    r
                })
                .collect()
        };
        assert_eq!(merged.records.len(), 3 * QUICK_FOLDS);
        assert_eq!(strip(&merged.records), strip(&whole.records));
    }
}
