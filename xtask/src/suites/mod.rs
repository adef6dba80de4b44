//! Benchmark suites: one module per paper (plus the tree baselines). A
//! suite names its data sets and methods and runs one (data set, method,
//! outer fold) job at a time; the harness does everything else.

use std::time::Instant;

use rulecover_core::metrics::{evaluate, Metrics};
use rulecover_core::{Dataset, Fit, Predict, Predictions, ZeroR};

use crate::data::DataSource;
use crate::records::{Record, SkippedJob};

/// What a job gets: the outer training and test folds and the run's flags.
pub struct JobData<'a> {
    /// The suite's name.
    pub suite: &'a str,
    /// Data set name.
    pub dataset: &'a str,
    /// Outer fold index.
    pub fold: usize,
    /// Outer training fold.
    pub train: &'a Dataset,
    /// Outer test fold.
    pub test: &'a Dataset,
    /// `--quick`: one small grid point.
    pub quick: bool,
    /// The run's seed.
    pub seed: u64,
}

impl JobData<'_> {
    /// An empty record for `method` on this job.
    pub fn record(&self, method: &str) -> Record {
        Record::new(self.suite, self.dataset, method, self.fold)
    }
}

/// What a job of a custom suite (one that reads its own data, e.g.
/// relational folds) gets.
pub struct CustomJob<'a> {
    /// The suite's name.
    pub suite: &'a str,
    /// Data set (or target) name.
    pub dataset: &'a str,
    /// Fold index.
    pub fold: usize,
    /// The data directory, if one was found.
    pub data_root: Option<&'a std::path::Path>,
    /// `--quick`.
    pub quick: bool,
    /// The run's seed.
    pub seed: u64,
    /// `--folds-file`: the outer folds to use instead of the suite's own
    /// (only given to suites whose [`Suite::folds_file`] accepts it).
    pub folds_file: Option<&'a std::path::Path>,
}

impl CustomJob<'_> {
    /// An empty record for `method` on this job.
    pub fn record(&self, method: &str) -> Record {
        Record::new(self.suite, self.dataset, method, self.fold)
    }
}

/// How a suite takes `--folds-file` (outer test folds as row indices of
/// the data set as loaded).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FoldsFile {
    /// One job per fold of the file (the tabular suites through the
    /// harness's [`crate::harness::outer_folds`], `paper004`).
    PerFold,
    /// One job per data set that runs every fold of the file
    /// (`paper002-curves`).
    Whole,
    /// The suite's folds are its data's own (e.g. relational fold
    /// folders): the run is refused with this reason.
    Refused(&'static str),
}

/// An error of one job, as text (each algorithm crate has its own type).
pub type JobError = Box<dyn std::error::Error + Send + Sync>;

/// A benchmark suite.
pub trait Suite: Sync {
    /// Name on the command line and in results.
    fn name(&self) -> &'static str;
    /// One line on what it reproduces.
    fn about(&self) -> &'static str;
    /// The data sets this suite runs on, given the run's data source
    /// (names as in the manifest): the paper suites list their paper's
    /// data sets whatever the source; `generic` lists the source's own.
    fn datasets(&self, data: &DataSource) -> Vec<String>;
    /// Data sets of the source this suite leaves out, each with why (e.g.
    /// relational data for a tabular suite); they are valid `--datasets`
    /// names and noted in the report. None by default.
    fn left_out(&self, _data: &DataSource) -> Vec<(String, String)> {
        Vec::new()
    }
    /// Job units: each is run on every (data set, fold) and returns one or
    /// more records (e.g. `RF+MIRCO` returns RF and MIRCO).
    fn methods(&self) -> Vec<&'static str>;
    /// Why `method` cannot run on `dataset` (e.g. a classifier on a
    /// regression task), if it cannot: such jobs are left out of the plan
    /// and noted in the results, not failed. Every method runs by default.
    fn unsupported(&self, _method: &str, _dataset: &str, _data: &DataSource) -> Option<String> {
        None
    }
    /// Outer folds of the paper's protocol.
    fn outer_folds(&self) -> usize {
        10
    }
    /// Prepares a loaded data set for this suite's learners (e.g. one-hot
    /// encoding as the authors' loaders do).
    fn prepare(&self, data: &Dataset) -> Result<Dataset, JobError> {
        Ok(data.clone())
    }
    /// Runs one job of a tabular suite.
    fn run(&self, method: &str, job: &JobData) -> Result<Vec<Record>, JobError>;

    /// True for suites that run only when named on the command line, not
    /// in `cargo xtask bench` with no suite (the paper reproductions).
    fn on_request_only(&self) -> bool {
        false
    }
    /// True for suites that read their own data (the harness then neither
    /// loads nor splits it and calls [`Suite::run_custom`]).
    fn custom(&self) -> bool {
        false
    }
    /// How the suite takes `--folds-file`: a tabular suite per fold (the
    /// harness splits its data); a custom suite refuses it unless it says
    /// otherwise (and then reads [`CustomJob::folds_file`]).
    fn folds_file(&self) -> FoldsFile {
        if self.custom() {
            FoldsFile::Refused("it reads its own data and folds")
        } else {
            FoldsFile::PerFold
        }
    }
    /// Whether a data set can be run (default: the data source has it).
    fn available(&self, dataset: &str, data: &DataSource) -> bool {
        data.has(dataset)
    }
    /// Number of folds of a data set (default: [`Suite::outer_folds`]).
    fn folds_of(&self, _dataset: &str, _data: &DataSource) -> usize {
        self.outer_folds()
    }
    /// Runs one job of a custom suite.
    fn run_custom(&self, _method: &str, job: &CustomJob) -> Result<Vec<Record>, JobError> {
        Err(format!("suite {} has no custom jobs", job.suite).into())
    }
    /// The suite's own result tables, shown in the report instead of the
    /// table of everything measured (`skipped`: the jobs left out of the
    /// run by [`Suite::unsupported`]). None by default.
    fn report_tables(&self, _records: &[Record], _skipped: &[SkippedJob]) -> Option<String> {
        None
    }
    /// Extra report text computed from all of a run's records (e.g. the
    /// statistical tests a paper runs across data sets); none by default.
    fn summary(&self, _records: &[Record]) -> String {
        String::new()
    }
}

pub mod generic;
pub mod paper000;
pub mod paper001;
pub mod paper002;
pub mod paper003;
pub mod paper004;
pub mod relational;
pub mod tuning;

/// Every suite, in the order `cargo xtask bench` runs them.
pub fn all() -> Vec<Box<dyn Suite>> {
    vec![
        Box::new(paper000::Paper000 {
            baselines_only: true,
        }),
        Box::new(paper000::Paper000 {
            baselines_only: false,
        }),
        Box::new(relational::Relational),
        Box::new(paper003::Paper003),
        Box::new(paper001::Paper001),
        Box::new(paper002::Paper002),
        Box::new(paper002::Paper002Curves),
        Box::new(paper004::Paper004::default()),
        Box::new(generic::Generic::default()),
    ]
}

/// Owned names of a fixed list of data sets.
pub fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// Fills a record's metrics from test-fold predictions (only the metrics
/// that apply).
pub fn put_metrics(
    record: &mut Record,
    test: &Dataset,
    pred: &Predictions,
) -> Result<Metrics, JobError> {
    let m = evaluate(&test.target_view(), pred)?;
    let pairs = [
        ("accuracy", m.accuracy),
        ("balanced_accuracy", m.balanced_accuracy),
        ("brier", m.brier),
        ("log_loss", m.log_loss),
        ("auc_roc", m.auc_roc),
        ("auc_pr", m.auc_pr),
        ("average_precision", m.average_precision),
        ("mse", m.mse),
        ("r2", m.r2),
    ];
    for (k, v) in pairs {
        if let Some(v) = v {
            record.metrics.insert(k.to_string(), v);
        }
    }
    Ok(m)
}

/// Times a closure, returning its value and the seconds it took.
pub fn timed<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let t = Instant::now();
    let v = f();
    (v, t.elapsed().as_secs_f64())
}

/// Fits and evaluates any model of the `Fit`/`Predict` traits: the record
/// gets test metrics and its times — `tune_s` (the search that chose
/// `params`, 0 when nothing was searched), the fit and the prediction.
pub fn fit_and_score<P>(
    params: &P,
    method: &str,
    job: &JobData,
    tune_s: f64,
) -> Result<(Record, P::Model), JobError>
where
    P: Fit,
    P::Model: Predict,
{
    let mut rec = job.record(method);
    let (model, fit_s) = timed(|| params.fit(job.train));
    let model = model?;
    let (pred, predict_s) = timed(|| model.predict(job.test));
    put_metrics(&mut rec, job.test, &pred?)?;
    rec.put_times(tune_s, fit_s);
    rec.time_s.insert("predict".into(), predict_s);
    Ok((rec, model))
}

/// The ZeroR floor (majority class or mean), which every suite reports.
pub fn zeror(job: &JobData) -> Result<Vec<Record>, JobError> {
    let (mut rec, _) = fit_and_score(&ZeroR, "ZeroR", job, 0.0)?;
    rec.size.insert("rules".into(), 0.0);
    Ok(vec![rec])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every method name of every suite is an id or alias of the one
    /// method registry (crate `rulecover`), which the command line and
    /// the Python package use too; ZeroR is the runner's own floor and
    /// `curves` paper002's λ sweep of the GLRMs (not a method).
    #[test]
    fn suite_methods_map_onto_the_registry() {
        let mut unmapped = Vec::new();
        for suite in all() {
            for name in suite.methods() {
                let own = name == "ZeroR" || name == "curves";
                if !own && rulecover::method(name).is_err() {
                    unmapped.push(format!("{}/{name}", suite.name()));
                }
            }
        }
        assert!(unmapped.is_empty(), "not in the registry: {unmapped:?}");
    }
}
