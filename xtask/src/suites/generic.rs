//! Suite `generic`: the papers' methods on any tabular data set of any
//! manifest (`--data-dir DIR`, the format of the shared data's
//! `manifest.json`), so new data can be benchmarked without code.
//!
//! Protocol: stratified K-fold outer CV for classification, plain
//! shuffled K-fold for regression (K = 5, `--folds K` to change; the
//! harness's [`crate::harness::outer_folds`] with the run's seed). Each
//! method is tuned on the outer training fold exactly as the paper suite
//! it comes from tunes it, by calling that suite's own code: DT, RF+MIRCO,
//! ADA, GB and RCB+iniDT as `paper000` (inner 4-fold grids), RF+RUX,
//! ADA+RUX, RUG and RUG-T as `paper001` (inner 3-fold, depth ≤ 3), LR1,
//! LRR, LR1N, LRRN, RuleFit(N) and GBT as `paper002` (nested-CV `λ0`;
//! GBT's stages chosen by the validation log-loss on more than two classes),
//! NRE and ANN as `paper004` (inner 5-fold). `--quick` takes each suite's
//! one small grid point and 3 outer folds. Categorical columns are one-hot
//! encoded with every level kept (`Dataset::one_hot(false)`). A method
//! that cannot handle a data set's task (from the manifest's `task`) is
//! left out of the plan and noted in the report, not failed; relational
//! entries of the manifest are left out with a note.
//!
//! RF+RUX and ADA+RUX also report the ensembles RUX compresses, which are
//! tuned on paper001's smaller grid: their records are named
//! `RF (RUX base)` and `ADA (RUX base)` so as not to mix with paper000's
//! `RF` and `ADA`.

use rulecover_core::shared::Task;
use rulecover_core::Dataset;

use super::paper000::Paper000;
use super::paper001::Paper001;
use super::paper002::Paper002;
use super::paper004::Paper004;
use super::scoring::zeror;
use super::suite::{JobData, JobError, Suite};
use crate::data::{DataSource, GENERATED};
use crate::paper::Source;
use crate::records::{Record, SkippedJob};
use crate::tables::{
    per_dataset_tables, Column, ACCURACY, AUC, BALANCED_ACCURACY, FIT_SECONDS, LOG_LOSS, RULES,
};

/// Outer folds of the generic protocol.
pub const FOLDS: usize = 5;

/// The paper suite whose code runs a method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Origin {
    /// The ZeroR floor every suite shares.
    ZeroR,
    /// `paper000`.
    Paper000,
    /// `paper001`.
    Paper001,
    /// `paper002`.
    Paper002,
    /// `paper004`.
    Paper004,
}

/// The tasks a method can learn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tasks {
    /// Every task.
    Any,
    /// Two or more classes.
    Classification,
    /// Two classes or a real target (the logistic / squared-loss GLRMs).
    BinaryOrRegression,
    /// Two classes only.
    Binary,
}

impl Tasks {
    /// Why a method of these tasks cannot learn `task`, if it cannot.
    fn refuse(self, task: Task) -> Option<&'static str> {
        match (self, task) {
            (Tasks::Classification | Tasks::Binary, Task::Regression) => {
                Some("classification only (this data set has a real target)")
            }
            (Tasks::BinaryOrRegression, Task::Multiclass) => {
                Some("two classes or a real target only (this data set has more than two classes)")
            }
            (Tasks::Binary, Task::Multiclass) => {
                Some("two classes only (this data set has more than two classes)")
            }
            (_, Task::Relational) => Some("relational data are not tabular"),
            _ => None,
        }
    }
}

/// The job units of the suite: name, the suite whose code runs it, and the
/// tasks it handles.
const METHODS: &[(&str, Origin, Tasks)] = &[
    ("ZeroR", Origin::ZeroR, Tasks::Any),
    ("DT", Origin::Paper000, Tasks::Classification),
    ("RF+MIRCO", Origin::Paper000, Tasks::Classification),
    ("ADA", Origin::Paper000, Tasks::Classification),
    ("GB", Origin::Paper000, Tasks::Classification),
    ("RCB+iniDT", Origin::Paper000, Tasks::Classification),
    ("RF+RUX", Origin::Paper001, Tasks::Classification),
    ("ADA+RUX", Origin::Paper001, Tasks::Classification),
    ("RUG", Origin::Paper001, Tasks::Classification),
    ("RUG-T", Origin::Paper001, Tasks::Classification),
    ("LR1", Origin::Paper002, Tasks::BinaryOrRegression),
    ("LRR", Origin::Paper002, Tasks::BinaryOrRegression),
    ("LR1N", Origin::Paper002, Tasks::BinaryOrRegression),
    ("LRRN", Origin::Paper002, Tasks::BinaryOrRegression),
    ("RuleFit", Origin::Paper002, Tasks::BinaryOrRegression),
    ("GBT", Origin::Paper002, Tasks::Any),
    ("NRE", Origin::Paper004, Tasks::Binary),
    ("ANN", Origin::Paper004, Tasks::Binary),
];

/// Records of a paper001 job unit renamed in this suite: (unit, record
/// method, new name).
const RENAMED: &[(&str, &str, &str)] = &[
    ("RF+RUX", "RF", "RF (RUX base)"),
    ("ADA+RUX", "ADA", "ADA (RUX base)"),
];

/// Row order of the report tables (record method names).
const ROW_ORDER: &[&str] = &[
    "ZeroR",
    "DT",
    "RF",
    "MIRCO",
    "ADA",
    "GB",
    "RCB",
    "iniDT",
    "RF (RUX base)",
    "RUX-RF",
    "ADA (RUX base)",
    "RUX-ADA",
    "RUG",
    "RUG-T",
    "LR1",
    "LRR",
    "LR1N",
    "LRRN",
    "RuleFit",
    "RuleFitN",
    "GBT",
    "NRE",
    "ANN",
];

/// Columns of the report tables (each shown when a data set's records
/// have it: the classification metrics or R² and MSE).
const COLUMNS: &[Column] = &[
    ACCURACY,
    BALANCED_ACCURACY,
    AUC,
    Column {
        header: "Brier",
        source: Source::Metrics,
        key: "brier",
    },
    LOG_LOSS,
    Column {
        header: "R²",
        source: Source::Metrics,
        key: "r2",
    },
    Column {
        header: "MSE",
        source: Source::Metrics,
        key: "mse",
    },
    RULES,
    Column {
        header: "avg rule length",
        source: Source::Size,
        key: "avg_rule_length",
    },
    Column {
        header: "tune s",
        source: Source::Time,
        key: "tune",
    },
    FIT_SECONDS,
];

/// The `generic` suite.
#[derive(Default)]
pub struct Generic {
    paper004: Paper004,
}

impl Generic {
    fn method(name: &str) -> Option<(Origin, Tasks)> {
        METHODS
            .iter()
            .find(|(m, _, _)| *m == name)
            .map(|&(_, o, t)| (o, t))
    }
}

impl Suite for Generic {
    fn name(&self) -> &'static str {
        "generic"
    }

    fn about(&self) -> &'static str {
        "(only when named) any tabular data set of the --data-dir manifest (all, or --datasets): \
         the papers' methods, each tuned by its paper suite's inner grid (DT, RF+MIRCO, ADA, GB, \
         RCB+iniDT as paper000; RF+RUX, ADA+RUX, RUG(-T) as paper001; LR1, LRR, LR1N, LRRN, \
         RuleFit, GBT as paper002; NRE, ANN as paper004), stratified 5-fold outer CV (plain \
         K-fold for regression; --folds K), categoricals one-hot; a method that cannot handle a \
         data set's task is skipped with a note"
    }

    /// The manifest's tabular data sets (classification and regression),
    /// in manifest order; the generated ones without a data directory.
    fn datasets(&self, data: &DataSource) -> Vec<String> {
        match data.shared() {
            Some(s) => s
                .entries()
                .iter()
                .filter(|e| e.task != Task::Relational)
                .map(|e| e.name.clone())
                .collect(),
            None => super::suite::names(GENERATED),
        }
    }

    fn left_out(&self, data: &DataSource) -> Vec<(String, String)> {
        data.shared()
            .map(|s| {
                s.entries()
                    .iter()
                    .filter(|e| e.task == Task::Relational)
                    .map(|e| {
                        (
                            e.name.clone(),
                            "relational (BoostSRL facts), not tabular; the relational and \
                             paper003 suites run relational data"
                                .to_string(),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Not a paper reproduction (and every method on every data set of
    /// the manifest): run only when named.
    fn on_request_only(&self) -> bool {
        true
    }

    fn methods(&self) -> Vec<&'static str> {
        METHODS.iter().map(|(m, _, _)| *m).collect()
    }

    fn unsupported(&self, method: &str, dataset: &str, data: &DataSource) -> Option<String> {
        let (_, tasks) = Self::method(method)?;
        tasks.refuse(data.task(dataset)?).map(str::to_string)
    }

    fn outer_folds(&self) -> usize {
        FOLDS
    }

    /// One-hot encoding with every level kept (as paper001's loaders).
    fn prepare(&self, data: &Dataset) -> Result<Dataset, JobError> {
        Ok(data.one_hot(false)?)
    }

    fn run(&self, method: &str, job: &JobData) -> Result<Vec<Record>, JobError> {
        let (origin, _) = Self::method(method).ok_or_else(|| format!("unknown method {method}"))?;
        let mut records = match origin {
            Origin::ZeroR => zeror(job)?,
            Origin::Paper000 => Paper000 {
                baselines_only: false,
            }
            .run(method, job)?,
            Origin::Paper001 => Paper001.run(method, job)?,
            Origin::Paper002 => Paper002.run(method, job)?,
            Origin::Paper004 => self.paper004.run(method, job)?,
        };
        for r in &mut records {
            if let Some(&(_, _, to)) = RENAMED
                .iter()
                .find(|(unit, from, _)| *unit == method && r.method == *from)
            {
                r.method = to.to_string();
            }
        }
        Ok(records)
    }

    fn report_tables(&self, records: &[Record], skipped: &[SkippedJob]) -> Option<String> {
        Some(per_dataset_tables(
            self.name(),
            records,
            skipped,
            COLUMNS,
            ROW_ORDER,
        ))
    }
}

#[cfg(test)]
mod tests {
    use std::fmt::Write;
    use std::path::{Path, PathBuf};

    use super::*;
    use crate::cli::BenchArgs;
    use crate::harness;
    use crate::records::{Meta, ResultsFile};

    /// A data directory of three manifest entries: `shapes` (binary, a
    /// string-valued categorical column), `ramp` (regression) and a
    /// relational entry that the suite must leave out.
    fn data_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("xtask-generic-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("tabular")).unwrap();
        std::fs::create_dir_all(dir.join("regression")).unwrap();
        let colors = ["red", "green", "blue"];
        let mut shapes = String::from("x1,color,x2,y\n");
        let mut ramp = String::from("a,b,y\n");
        for i in 0..90usize {
            let x1 = ((i * 37) % 90) as f64 / 90.0;
            let x2 = ((i * 11) % 90) as f64 / 90.0;
            let color = colors[i % 3];
            // Every red row is of class 1: learnable only through the
            // categorical column.
            let y = u8::from(x1 > 0.7 || color == "red");
            writeln!(shapes, "{x1},{color},{x2},{y}").unwrap();
            let t = 3.0 * x1 - 2.0 * x2 + 0.01 * ((i * 7) % 5) as f64;
            writeln!(ramp, "{x1},{x2},{t}").unwrap();
        }
        std::fs::write(dir.join("tabular/shapes.csv"), shapes).unwrap();
        std::fs::write(dir.join("regression/ramp.csv"), ramp).unwrap();
        let manifest = r#"{"datasets": [
            {"name": "shapes", "path": "tabular/shapes.csv", "task": "binary", "rows": 90,
             "features": 3, "n_classes": 2, "label": {"column": "y"},
             "feature_types": {"categorical_columns": ["color"]}},
            {"name": "ramp", "path": "regression/ramp.csv", "task": "regression", "rows": 90,
             "features": 2, "label": {"column": "y"},
             "feature_types": {"categorical_columns": []}},
            {"name": "family", "path": "relational/family", "task": "relational",
             "target_predicate": "father", "n_folds": 2}
        ]}"#;
        std::fs::write(dir.join("manifest.json"), manifest).unwrap();
        dir
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

    fn quick_args(dir: &Path, methods: &[&str]) -> BenchArgs {
        BenchArgs {
            suites: vec!["generic".into()],
            quick: true,
            data_dir: Some(dir.to_path_buf()),
            methods: Some(methods.iter().map(|m| m.to_string()).collect()),
            seed: crate::cli::DEFAULT_SEED,
            jobs: Some(2),
            ..BenchArgs::default()
        }
    }

    fn mean(records: &[&Record], key: &str) -> f64 {
        let v: Vec<f64> = records.iter().map(|r| r.metrics[key]).collect();
        v.iter().sum::<f64>() / v.len() as f64
    }

    #[test]
    fn runs_every_tabular_data_set_of_a_manifest_and_skips_what_cannot_run() {
        let dir = data_dir("run");
        let data = DataSource::resolve(Some(&dir)).unwrap();
        let suite = Generic::default();
        let suites: Vec<&dyn Suite> = vec![&suite];
        let args = quick_args(&dir, &["ZeroR", "DT", "LR1"]);
        harness::check_names(&suites, &args, &data).unwrap();
        assert_eq!(suite.datasets(&data), vec!["shapes", "ramp"]);

        // DT is a classifier: left out on the regression data set, noted.
        let skipped = harness::skipped_jobs(&suites, &args, &data);
        assert_eq!(skipped.len(), 1, "{skipped:?}");
        assert_eq!(
            (skipped[0].dataset.as_str(), skipped[0].method.as_str()),
            ("ramp", "DT")
        );
        let notes = harness::left_out_notes(&suites, &args, &data);
        assert_eq!(notes.len(), 1);
        assert!(
            notes[0].contains("family") && notes[0].contains("relational"),
            "{notes:?}"
        );

        let jobs = harness::plan(&suites, &args, &data).unwrap();
        // (shapes: 3 methods + ramp: 2 methods) x 3 quick folds.
        assert_eq!(jobs.len(), 15);
        let mut results = harness::run(&suites, &jobs, &args, &data, meta(), None).unwrap();
        assert!(results.failures.is_empty(), "{:?}", results.failures);
        assert_eq!(results.records.len(), 15);
        let of = |d: &str, m: &str| -> Vec<&Record> {
            results
                .records
                .iter()
                .filter(|r| r.suite == "generic" && r.dataset == d && r.method == m)
                .collect()
        };
        for m in ["ZeroR", "DT", "LR1"] {
            let rs = of("shapes", m);
            assert_eq!(rs.len(), 3, "{m}");
            for r in &rs {
                for k in [
                    "accuracy",
                    "balanced_accuracy",
                    "auc_roc",
                    "brier",
                    "log_loss",
                ] {
                    assert!(r.metrics.get(k).is_some_and(|v| v.is_finite()), "{m} {k}");
                }
                assert!(r.time_s.contains_key("fit"), "{m}");
                assert!(!r.metrics.contains_key("r2"), "{m}");
            }
        }
        // The categorical column reaches the tree: it separates the classes.
        assert!(mean(&of("shapes", "DT"), "accuracy") > 0.9);
        assert!(of("shapes", "DT")
            .iter()
            .all(|r| r.size.contains_key("rules")));
        assert!(of("ramp", "DT").is_empty());
        for m in ["ZeroR", "LR1"] {
            let rs = of("ramp", m);
            assert_eq!(rs.len(), 3, "{m}");
            assert!(rs.iter().all(|r| r.metrics.contains_key("r2")
                && r.metrics.contains_key("mse")
                && !r.metrics.contains_key("accuracy")));
        }
        assert!(mean(&of("ramp", "LR1"), "r2") > mean(&of("ramp", "ZeroR"), "r2"));

        results.skipped_jobs = skipped;
        let report = Generic::default()
            .report_tables(&results.records, &results.skipped_jobs)
            .expect("generic renders its own tables");
        assert!(
            report.contains("#### shapes (mean (std) over 3 outer folds)"),
            "{report}"
        );
        assert!(report.contains("| method | folds | accuracy | balanced accuracy | AUC | Brier | log-loss | rules | avg rule length | tune s | fit s |"), "{report}");
        assert!(report.contains("| method | folds | R² | MSE |"), "{report}");
        assert!(
            report.contains("- DT not run: classification only"),
            "{report}"
        );
        let shapes_table = &report[report.find("#### shapes").unwrap()..];
        assert!(shapes_table.find("| ZeroR |") < shapes_table.find("| DT |"));
        // The per-data-set tables replace the table of everything measured
        // (the report takes them: report's own tests).
        assert!(
            !report.contains("Everything measured in `generic`"),
            "{report}"
        );
        let written = dir.join("results.json");
        results.write(&written).unwrap();
        assert_eq!(
            ResultsFile::read(&written).unwrap().skipped_jobs,
            results.skipped_jobs
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn methods_and_data_sets_are_checked_against_the_manifest() {
        let dir = data_dir("names");
        let data = DataSource::resolve(Some(&dir)).unwrap();
        let suite = Generic::default();
        let suites: Vec<&dyn Suite> = vec![&suite];
        let mut args = quick_args(&dir, &["NRE", "RUG"]);
        args.datasets = Some(vec!["ramp".into(), "family".into()]);
        // A relational entry is a valid name, left out with a note.
        harness::check_names(&suites, &args, &data).unwrap();
        assert!(harness::plan(&suites, &args, &data).unwrap().is_empty());
        assert_eq!(harness::skipped_jobs(&suites, &args, &data).len(), 2);
        assert_eq!(harness::left_out_notes(&suites, &args, &data).len(), 1);
        args.datasets = Some(vec!["shapez".into()]);
        let err = harness::check_names(&suites, &args, &data)
            .unwrap_err()
            .to_string();
        assert!(err.contains("shapez") && err.contains("shapes"), "{err}");
        args.datasets = None;
        args.methods = Some(vec!["LR2".into()]);
        let err = harness::check_names(&suites, &args, &data)
            .unwrap_err()
            .to_string();
        assert!(err.contains("LR2") && err.contains("RCB+iniDT"), "{err}");
        // Multiclass data: the binary-only and GLRM methods are refused.
        assert!(Tasks::Binary.refuse(Task::Multiclass).is_some());
        assert!(Tasks::BinaryOrRegression.refuse(Task::Multiclass).is_some());
        assert!(Tasks::BinaryOrRegression.refuse(Task::Regression).is_none());
        assert!(Tasks::Classification.refuse(Task::Multiclass).is_none());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn generic_follows_the_folds_file() {
        crate::testing::assert_follows_folds_file_on_tictactoe(
            &Generic::default(),
            &["ZeroR", "DT"],
        );
    }
}
