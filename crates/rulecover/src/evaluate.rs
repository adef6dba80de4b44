//! Several methods side by side under K-fold cross-validation: the folds
//! are stratified for classes ([`rulecover_core::cv::stratified_kfold`])
//! and shuffled for a real target ([`rulecover_core::cv::kfold`]); every
//! method fits the same folds with the same per-fold seed, and the
//! scores are [`rulecover_core::metrics::evaluate`]'s.
//!
//! Fits run on `jobs` threads; results are gathered in (method, fold)
//! order and every fit's seed depends only on the fold, so the report is
//! the same whatever the number of threads (fit times aside). The fold's
//! seed, a 64-bit hash, is brought into the range each method accepts by
//! the registry's one rule (scikit-learn's streams take seeds below
//! 2^32).
//!
//! A method that fails (an error, or a panic of its learner) does not
//! stop the others: its [`MethodResult::error`] says why, the others'
//! rows are complete, and [`EvalReport::failed`] lists the failures.
//!
//! With [`EvalOptions::tune`], every outer fold first tunes each method
//! by an inner cross-validation on its training rows over the method's
//! grid ([`crate::fit_tuned`]); the chosen parameters and the search's
//! seconds are kept per fold.

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

use rulecover_core::cv::{kfold, stratified_kfold, Fold};
use rulecover_core::metrics::{evaluate, Summary};
use rulecover_core::rng::derive_seed;
use rulecover_core::Dataset;

use crate::error::{Error, Result};
use crate::fitted::{fit_given, Seed};
use crate::methods::method;
use crate::tune::{fit_tuned_given, TuneMetric, TuneOptions};

/// One method to evaluate, with its parameters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MethodRun {
    /// The method id (or alias).
    pub id: String,
    /// `(name, value)` parameters; the rest at their defaults.
    pub params: Vec<(String, String)>,
}

/// Splits command-line parameters among methods: `name=value` goes to
/// every method in `ids` that declares `name`, `id.name=value` to method
/// `id` only.
///
/// # Errors
/// [`Error::UnknownMethod`] for an id (listed or prefixed) that is not a
/// method; [`Error::UnknownParameter`] for a name no listed method
/// declares, or a prefix naming a method that is not listed.
pub fn assign_params(ids: &[String], params: &[(String, String)]) -> Result<Vec<MethodRun>> {
    let specs = ids
        .iter()
        .map(|id| method(id).map(|m| m.spec()))
        .collect::<Result<Vec<_>>>()?;
    let mut runs: Vec<MethodRun> = specs
        .iter()
        .map(|s| MethodRun {
            id: s.id.to_string(),
            params: Vec::new(),
        })
        .collect();
    for (key, value) in params {
        let (target, name) = match key.split_once('.') {
            Some((id, name)) => (Some(method(id)?.spec().id), name),
            None => (None, key.as_str()),
        };
        let mut used = false;
        for (spec, run) in specs.iter().zip(runs.iter_mut()) {
            if target.is_none_or(|t| t == spec.id) && spec.param(name).is_some() {
                run.params.push((name.to_string(), value.clone()));
                used = true;
            }
        }
        if !used {
            return Err(Error::UnknownParameter {
                method: match target {
                    Some(t) => t.to_string(),
                    None => runs
                        .iter()
                        .map(|r| r.id.as_str())
                        .collect::<Vec<_>>()
                        .join(", "),
                },
                name: key.clone(),
                valid: "a parameter of a listed method (see `rulecover methods ID`), \
                        optionally prefixed by its id as ID.NAME"
                    .into(),
            });
        }
    }
    Ok(runs)
}

/// One fit of one method on one fold finished.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress<'a> {
    /// Fits finished so far (this one included).
    pub done: usize,
    /// Fits in all.
    pub total: usize,
    /// The method.
    pub method: &'a str,
    /// The fold (from 0).
    pub fold: usize,
}

/// The scores of one method on one fold.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FoldResult {
    /// Every applicable metric on the fold's test rows.
    pub metrics: rulecover_core::metrics::Metrics,
    /// Number of rules (`None` without rules).
    pub n_rules: Option<usize>,
    /// Mean rule length (`None` without rules).
    pub rule_length: Option<f64>,
    /// Seconds the fit took.
    pub fit_seconds: f64,
    /// Seconds the inner search took (0 without tuning).
    pub tune_seconds: f64,
    /// The parameters the inner search chose (`None` without tuning).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tuned: Option<BTreeMap<String, String>>,
}

/// One method's results over every fold, with their summaries.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MethodResult {
    /// The method id.
    pub method: String,
    /// Its parameters as given.
    pub params: Vec<(String, String)>,
    /// Per fold, in fold order.
    pub folds: Vec<FoldResult>,
    /// Mean and spread of each reported column (see
    /// [`EvalReport::columns`]), `None` where no fold has the value
    /// (every value when the method failed).
    pub summary: Vec<(String, Option<Summary>)>,
    /// Why the method failed (the first failing fold's error); its
    /// `folds` are then empty. Absent when it succeeded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// The report of [`cross_validate`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EvalReport {
    /// The data set's name.
    pub data: String,
    /// Rows.
    pub rows: usize,
    /// Number of folds.
    pub folds: usize,
    /// The seed of the folds and fits.
    pub seed: u64,
    /// Whether the target holds classes.
    pub classification: bool,
    /// The reported columns, in order.
    pub columns: Vec<String>,
    /// How the methods were tuned in each outer fold, when they were:
    /// `{metric, folds, one_se}`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tune: Option<TuneSettings>,
    /// One entry per method, in the order given.
    pub methods: Vec<MethodResult>,
}

/// The inner search of a tuned evaluation, as reported.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TuneSettings {
    /// The metric (by default accuracy for classes, R² otherwise).
    pub metric: String,
    /// Inner folds.
    pub folds: usize,
    /// Whether the one-standard-error rule chose.
    pub one_se: bool,
}

/// How [`cross_validate_with`] runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EvalOptions {
    /// Outer folds.
    pub folds: usize,
    /// The seed of the folds and the fits.
    pub seed: u64,
    /// Threads (0 = all cores).
    pub jobs: usize,
    /// Tune every method inside each outer fold.
    pub tune: Option<TuneOptions>,
}

const CLASS_COLUMNS: [&str; 8] = [
    "accuracy",
    "balanced_accuracy",
    "auc",
    "brier",
    "log_loss",
    "rules",
    "rule_length",
    "fit_s",
];
const REGRESSION_COLUMNS: [&str; 5] = ["mse", "r2", "rules", "rule_length", "fit_s"];

fn column_value(f: &FoldResult, column: &str) -> Option<f64> {
    let m = &f.metrics;
    match column {
        "accuracy" => m.accuracy,
        "balanced_accuracy" => m.balanced_accuracy,
        "auc" => m.auc_roc,
        "brier" => m.brier,
        "log_loss" => m.log_loss,
        "mse" => m.mse,
        "r2" => m.r2,
        "rules" => f.n_rules.map(|n| n as f64),
        "rule_length" => f.rule_length,
        "fit_s" => Some(f.fit_seconds),
        "tune_s" => Some(f.tune_seconds),
        _ => None,
    }
}

/// The folds of `data`: stratified for classes, shuffled plain K-fold for
/// a real target.
///
/// # Errors
/// [`Error::Data`] for too few rows (or too few rows of every class) for
/// `k` folds, or data without a target.
pub fn folds_of(data: &Dataset, k: usize, seed: u64) -> Result<Vec<Fold>> {
    if !data.has_target() {
        return Err(Error::NoTarget {
            data: data.name().into(),
        });
    }
    Ok(if data.is_classification() {
        stratified_kfold(&data.labels()?, k, seed)?
    } else {
        kfold(data.n_rows(), k, true, seed)?
    })
}

/// Cross-validates every method of `runs` on `data` with `k` folds, on
/// `jobs` threads (0 = all cores), calling `progress` after each fit:
/// [`cross_validate_with`] without tuning.
///
/// # Errors
/// As [`cross_validate_with`].
pub fn cross_validate(
    data: &Dataset,
    runs: &[MethodRun],
    k: usize,
    seed: u64,
    jobs: usize,
    progress: &(dyn Fn(Progress<'_>) + Sync),
) -> Result<EvalReport> {
    let options = EvalOptions {
        folds: k,
        seed,
        jobs,
        tune: None,
    };
    cross_validate_with(data, runs, &options, progress)
}

/// Cross-validates every method of `runs` on `data` as `options` say,
/// calling `progress` after each (method, fold) fit. A method's failure
/// (an error or a panic of one of its fits) is kept in its row
/// ([`MethodResult::error`]); the other methods go on.
///
/// # Errors
/// [`Error::UnknownMethod`] for an unknown id; as [`folds_of`];
/// [`Error::Internal`] if the thread pool cannot start. A method's own
/// failure is not an error of this function.
pub fn cross_validate_with(
    data: &Dataset,
    runs: &[MethodRun],
    options: &EvalOptions,
    progress: &(dyn Fn(Progress<'_>) + Sync),
) -> Result<EvalReport> {
    let (seed, jobs) = (options.seed, options.jobs);
    for r in runs {
        method(&r.id)?;
    }
    let folds = folds_of(data, options.folds, seed)?;
    let tasks: Vec<(usize, usize)> = (0..runs.len())
        .flat_map(|m| (0..folds.len()).map(move |f| (m, f)))
        .collect();
    let total = tasks.len();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| Error::Internal(format!("cannot start {jobs} threads: {e}")))?;
    let results: Vec<Result<FoldResult>> = pool.install(|| {
        tasks
            .par_iter()
            .map(|&(m, f)| {
                let run = &runs[m];
                let fold = &folds[f];
                let fold_seed = derive_seed(seed, f as u64);
                let out = catch_unwind(AssertUnwindSafe(|| {
                    fit_fold(data, run, fold, fold_seed, options.tune.as_ref())
                }))
                .unwrap_or_else(|panic| {
                    Err(Error::Panicked {
                        method: run.id.clone(),
                        message: panic_message(panic.as_ref()),
                    })
                });
                let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                progress(Progress {
                    done: n,
                    total,
                    method: &run.id,
                    fold: f,
                });
                out
            })
            .collect()
    });
    let mut results = results.into_iter();
    let classification = data.is_classification();
    let names: &[&str] = if classification {
        &CLASS_COLUMNS
    } else {
        &REGRESSION_COLUMNS
    };
    // `tune_s` (before `fit_s`) only when the methods are tuned.
    let columns: Vec<String> = names
        .iter()
        .flat_map(|&c| {
            let tune = (c == "fit_s" && options.tune.is_some()).then_some("tune_s");
            tune.into_iter().chain(std::iter::once(c))
        })
        .map(String::from)
        .collect();
    let mut methods = Vec::with_capacity(runs.len());
    for run in runs {
        let mut fold_results = Vec::with_capacity(folds.len());
        let mut error = None;
        for (f, r) in (&mut results).take(folds.len()).enumerate() {
            match r {
                Ok(fr) => fold_results.push(fr),
                Err(e) if error.is_none() => error = Some(format!("fold {}: {e}", f + 1)),
                Err(_) => {}
            }
        }
        if error.is_some() {
            fold_results.clear();
        }
        let summary = columns
            .iter()
            .map(|c| {
                let values: Vec<f64> = fold_results
                    .iter()
                    .filter_map(|f| column_value(f, c))
                    .collect();
                (
                    c.clone(),
                    (!values.is_empty()).then(|| Summary::new(&values)),
                )
            })
            .collect();
        methods.push(MethodResult {
            method: method(&run.id)?.spec().id.to_string(),
            params: run.params.clone(),
            folds: fold_results,
            summary,
            error,
        });
    }
    Ok(EvalReport {
        data: data.name().to_string(),
        rows: data.n_rows(),
        folds: folds.len(),
        seed,
        classification,
        columns,
        tune: options.tune.map(|t| TuneSettings {
            metric: t
                .metric
                .unwrap_or(if classification {
                    TuneMetric::Accuracy
                } else {
                    TuneMetric::R2
                })
                .name()
                .into(),
            folds: t.folds,
            one_se: t.one_se,
        }),
        methods,
    })
}

/// The message of a caught panic.
fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".into())
}

fn fit_fold(
    data: &Dataset,
    run: &MethodRun,
    fold: &Fold,
    seed: u64,
    tune: Option<&TuneOptions>,
) -> Result<FoldResult> {
    let train = data.subset(&fold.train)?;
    let test = data.subset(&fold.test)?;
    let seed = Seed::Derived(seed);
    let (model, tune_seconds, fit_seconds) = match tune {
        Some(options) => {
            let t = fit_tuned_given(&run.id, &run.params, &train, None, seed, options)?;
            (t.model, t.tune_seconds, t.fit_seconds)
        }
        None => {
            let start = Instant::now();
            let model = fit_given(&run.id, &run.params, &train, None, seed)?;
            (model, 0.0, start.elapsed().as_secs_f64())
        }
    };
    let pred = model.predict(&test)?;
    let metrics = evaluate(&test.target_view(), &pred)?;
    Ok(FoldResult {
        metrics,
        n_rules: model.n_rules(),
        rule_length: model.rule_set().map(|s| s.avg_rule_length()),
        fit_seconds,
        tune_seconds,
        tuned: model.tuning().map(|t| t.chosen.clone()),
    })
}

impl EvalReport {
    /// The ids of the methods that failed, in report order.
    pub fn failed(&self) -> Vec<&str> {
        self.methods
            .iter()
            .filter(|m| m.error.is_some())
            .map(|m| m.method.as_str())
            .collect()
    }

    /// A markdown table: one row per method, one column per metric, each
    /// cell `mean (std)`; an `error` column when a method failed (its
    /// cells `–`). With tuning, the chosen parameters of every fold follow
    /// the table.
    pub fn to_markdown(&self) -> String {
        let mut out = format!(
            "{} ({} rows), {}-fold {}cross-validation, seed {}\n\n",
            self.data,
            self.rows,
            self.folds,
            if self.classification {
                "stratified "
            } else {
                ""
            },
            self.seed
        );
        let any_error = self.methods.iter().any(|m| m.error.is_some());
        out.push_str("| method |");
        for c in &self.columns {
            out.push_str(&format!(" {c} |"));
        }
        if any_error {
            out.push_str(" error |");
        }
        out.push_str("\n|---|");
        for _ in &self.columns {
            out.push_str("---:|");
        }
        if any_error {
            out.push_str("---|");
        }
        out.push('\n');
        for m in &self.methods {
            out.push_str(&format!("| {} |", m.method));
            for (c, s) in &m.summary {
                let digits = match c.as_str() {
                    "rules" => 1,
                    "rule_length" | "fit_s" | "tune_s" => 2,
                    _ => 4,
                };
                match s {
                    Some(s) => out.push_str(&format!(
                        " {:.digits$} ({:.digits$}) |",
                        s.mean,
                        s.std,
                        digits = digits
                    )),
                    None => out.push_str(" – |"),
                }
            }
            if any_error {
                let e = m.error.as_deref().unwrap_or("");
                out.push_str(&format!(" {} |", e.replace('|', "\\|").replace('\n', " ")));
            }
            out.push('\n');
        }
        if let Some(t) = &self.tune {
            out.push_str(&format!(
                "\nparameters chosen by inner {}-fold cross-validation ({}{}), per outer fold:\n",
                t.folds,
                t.metric,
                if t.one_se {
                    ", one-standard-error rule"
                } else {
                    ""
                }
            ));
            for m in self.methods.iter().filter(|m| m.error.is_none()) {
                let chosen: Vec<String> = m
                    .folds
                    .iter()
                    .map(|f| {
                        f.tuned
                            .as_ref()
                            .map(|p| {
                                p.iter()
                                    .map(|(k, v)| format!("{k}={v}"))
                                    .collect::<Vec<_>>()
                                    .join(" ")
                            })
                            .unwrap_or_default()
                    })
                    .collect();
                out.push_str(&format!("- {}: {}\n", m.method, chosen.join("; ")));
            }
        }
        out
    }

    /// The report as pretty-printed JSON (per-fold results included;
    /// undefined values are `null`).
    ///
    /// # Errors
    /// [`Error::Serialize`] if a value cannot be written.
    pub fn to_json(&self) -> Result<String> {
        serde_json::to_string_pretty(self).map_err(|e| Error::Serialize {
            kind: "evaluation report".into(),
            message: e.to_string(),
        })
    }
}
