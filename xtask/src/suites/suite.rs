//! The [`Suite`] trait every benchmark suite implements, and what one of
//! its jobs gets ([`JobData`], [`CustomJob`]).

use rulecover_core::Dataset;

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
    /// Number of folds the plan runs on this data set (the suite's own,
    /// fewer with `--quick` or `--folds`, or those of `--folds-file`).
    pub n_folds: usize,
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

    /// Runs `method` of `suite` as a tabular job ([`Suite::run`]) on this
    /// job's fold of `folds`, a split of `data` (for custom suites that
    /// read their own data and folds).
    ///
    /// # Errors
    /// A fold index beyond `folds`, a subset that cannot be taken, or the
    /// job's own error.
    pub fn run_on_fold<S: Suite + ?Sized>(
        &self,
        suite: &S,
        method: &str,
        data: &Dataset,
        folds: &[rulecover_core::cv::Fold],
    ) -> Result<Vec<Record>, JobError> {
        let fold = folds
            .get(self.fold)
            .ok_or_else(|| format!("fold {} of {}", self.fold, folds.len()))?;
        let train = data.subset(&fold.train)?;
        let test = data.subset(&fold.test)?;
        let input = JobData {
            suite: self.suite,
            dataset: self.dataset,
            fold: self.fold,
            train: &train,
            test: &test,
            quick: self.quick,
            seed: self.seed,
        };
        suite.run(method, &input)
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
    /// True for suites whose `--quick` runs every data set (e.g. because
    /// the suite makes its data smaller itself); by default `--quick`
    /// takes the three smallest.
    fn quick_runs_every_dataset(&self) -> bool {
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

/// Owned names of a fixed list of data sets.
pub fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}
