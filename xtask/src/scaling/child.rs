//! The child side of a point: generate its data, fit it with the
//! registry's defaults and report the fit's seconds and the process's
//! peak memory to the parent on stdout ([`READY`], [`DONE`]); then, outside
//! the timed fit and after the peak memory is read, score the model on the
//! point's held-out rows ([`super::grid::Generator::heldout`]).
//!
//! A relational (`rfgb`) point has no held-out score: the generated
//! UW-CSE-like problem has no test split, and its examples (`advisedby`
//! on pairs of people chosen by index, the same 3,000 at every size) are
//! not drawn from its facts, so an accuracy on more of them would measure
//! nothing about the learner.
//!
//! A fit that fails because its LP/MIP solver found no answer (rc-lp's
//! `Error::SolveFailed` among the error's sources) is reported on stdout
//! ([`SOLVER_FAILED`]), so that the parent records it as its own outcome.

use std::time::Instant;

use rc_benches::process::{cpu_seconds, peak_mib};
use rulecover_core::Dataset;
use serde::{Deserialize, Serialize};

use super::grid::Point;
use crate::error::{Error, Result};

/// The line prefix the child prints when the data are ready and the fit
/// starts (followed by the peak MiB so far); the parent starts the cap's
/// clock there.
pub const READY: &str = "SCALING-READY ";
/// The line prefix of the child's result (followed by a [`Measured`] in
/// JSON).
pub const DONE: &str = "SCALING-DONE ";
/// The line prefix the child prints when the fit failed because its
/// solver found no answer (followed by the error on one line).
pub const SOLVER_FAILED: &str = "SCALING-SOLVER-FAILED ";

/// What a child measured.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Measured {
    /// Wall seconds of the fit alone.
    pub fit_s: f64,
    /// CPU seconds (user and system, all threads) of the fit alone
    /// (`None` off Linux): unlike wall seconds, barely moved by other
    /// processes on the machine.
    #[serde(default)]
    pub cpu_s: Option<f64>,
    /// Peak resident memory of the process, MiB (`None` off Linux).
    pub peak_mib: Option<f64>,
    /// Peak resident memory before the fit, MiB.
    pub data_mib: Option<f64>,
    /// Threads of the rayon pool.
    pub threads: usize,
    /// The fitted model's rules (`None` for a model without rules, and in
    /// results written before this field existed).
    #[serde(default)]
    pub rules: Option<usize>,
    /// The model's accuracy on the held-out rows (`None` for a relational
    /// point, and in results written before this field existed).
    #[serde(default)]
    pub heldout_accuracy: Option<f64>,
    /// The held-out rows scored.
    #[serde(default)]
    pub heldout_rows: Option<usize>,
}

/// Generates the point's data, fits it with every parameter at the
/// registry's default (but [`super::grid::PINNED`]) and `seed`, and returns what it measured. `ready` is
/// called between the two (the child prints [`READY`] there). The fit's
/// seconds and the peak memory are taken before the held-out rows are
/// generated and scored.
///
/// # Errors
/// [`Error::SolverFailed`] when the fit failed because its solver found no
/// answer, else [`Error::Failed`] ("fitting" the point) with the
/// registry's error.
pub fn fit_point(point: &Point, seed: u64, ready: impl FnOnce()) -> Result<Measured> {
    let params = super::grid::params_of(&point.learner);
    let no_params: &[(&str, &str)] = &[];
    let fail = |e: rulecover::Error| fitting(point, &e);
    let (wall, cpu, model) = match point.generator.training(point.n, point.p, seed) {
        None => {
            let problem = rc_logic::synthetic::UwcseLike::generate(point.n)
                .problem()
                .map_err(|e| fail(e.into()))?;
            ready();
            let (wall, cpu) = (Instant::now(), cpu_seconds());
            rulecover::fit_relational(&point.learner, no_params, &problem, seed).map_err(fail)?;
            (wall, cpu, None)
        }
        Some(table) => {
            ready();
            let (wall, cpu) = (Instant::now(), cpu_seconds());
            let model =
                rulecover::fit(&point.learner, &params, &table, None, seed).map_err(fail)?;
            (wall, cpu, Some(model))
        }
    };
    let fit_s = wall.elapsed().as_secs_f64();
    let cpu_s = match (cpu, cpu_seconds()) {
        (Some(a), Some(b)) => Some(b - a),
        _ => None,
    };
    let peak = peak_mib("self");
    let mut measured = Measured {
        fit_s,
        cpu_s,
        peak_mib: peak,
        data_mib: None,
        threads: rayon::current_num_threads(),
        rules: model.as_ref().and_then(rulecover::FittedModel::n_rules),
        heldout_accuracy: None,
        heldout_rows: None,
    };
    let heldout = point.generator.heldout(point.n, point.p, seed);
    if let (Some(model), Some(rows)) = (&model, heldout.filter(|d| d.n_rows() > 0)) {
        measured.heldout_accuracy = Some(heldout_accuracy(point, model, &rows)?);
        measured.heldout_rows = Some(rows.n_rows());
    }
    Ok(measured)
}

/// The accuracy of `model` on the labelled rows `rows` of `point`.
///
/// # Errors
/// [`Error::Failed`] ("scoring" the point) when the prediction fails or
/// gives no classes.
fn heldout_accuracy(point: &Point, model: &rulecover::FittedModel, rows: &Dataset) -> Result<f64> {
    let fail = |message: String| Error::Failed {
        what: format!("scoring {point} on its held-out rows"),
        message,
    };
    let predicted = model
        .predict(rows)
        .map_err(|e| fail(e.to_string()))?
        .labels()
        .ok_or_else(|| fail("the model predicts values, not classes".into()))?;
    let truth = rows.labels().map_err(|e| fail(e.to_string()))?;
    rulecover_core::metrics::accuracy(&truth, &predicted).map_err(|e| fail(e.to_string()))
}

/// Whether `e` or one of its sources is rc-lp's
/// [`rc_lp::Error::SolveFailed`]: the solver found no answer by any
/// algorithm it tried.
pub fn is_solver_failure(e: &(dyn std::error::Error + 'static)) -> bool {
    let mut current = Some(e);
    while let Some(err) = current {
        if matches!(
            err.downcast_ref::<rc_lp::Error>(),
            Some(rc_lp::Error::SolveFailed { .. })
        ) {
            return true;
        }
        current = err.source();
    }
    false
}

/// The error of a point's fit: [`Error::SolverFailed`] when the solver
/// found no answer ([`is_solver_failure`]), else [`Error::Failed`].
fn fitting(point: &Point, e: &rulecover::Error) -> Error {
    let (what, message) = (format!("fitting {point}"), e.to_string());
    if is_solver_failure(e) {
        Error::SolverFailed { what, message }
    } else {
        Error::Failed { what, message }
    }
}

/// The child's whole job: [`fit_point`], printing [`READY`] and then
/// [`DONE`] with the result.
///
/// # Errors
/// As [`fit_point`].
pub fn run_child(point: &Point, seed: u64) -> Result<()> {
    let mut data_mib = None;
    let fitted = fit_point(point, seed, || {
        data_mib = peak_mib("self");
        println!("{READY}{}", data_mib.unwrap_or(f64::NAN));
    });
    if let Err(Error::SolverFailed { message, .. }) = &fitted {
        println!("{SOLVER_FAILED}{}", message.replace('\n', " "));
    }
    let mut m = fitted?;
    m.data_mib = data_mib;
    let json = serde_json::to_string(&m).map_err(|e| Error::Failed {
        what: format!("fitting {point}"),
        message: e.to_string(),
    })?;
    println!("{DONE}{json}");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::grid::Generator;
    use super::*;

    #[test]
    fn a_small_fit_is_measured() {
        let point = Point {
            learner: "dt".into(),
            generator: Generator::Mixed,
            n: 300,
            p: 20,
        };
        let mut ready = false;
        let m = fit_point(&point, 1, || ready = true).unwrap();
        assert!(ready && m.fit_s >= 0.0 && m.threads >= 1);
        let bad = Point {
            learner: "no-such-method".into(),
            ..point
        };
        match fit_point(&bad, 1, || ()) {
            Err(Error::Failed { what, message }) => {
                assert!(
                    what.contains("no-such-method") && message.contains("rf"),
                    "{message}"
                )
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_smoke_point_of_rf_scores_its_heldout_rows() {
        // The smoke point's size (`--smoke-n`'s default).
        let point = Point {
            learner: "rf".into(),
            generator: Generator::Twonorm,
            n: 1_000,
            p: 20,
        };
        let m = fit_point(&point, 1, || ()).unwrap();
        assert_eq!(m.heldout_rows, Some(250));
        let accuracy = m.heldout_accuracy.unwrap();
        // Twonorm's Bayes error is about 2.3 %.
        assert!((0.9..=1.0).contains(&accuracy), "{accuracy}");
        assert!(m.rules.is_some_and(|k| k > 0));
        // Relational points have no held-out split.
        let relational = Point {
            learner: "rfgb".into(),
            generator: Generator::UwcseLike,
            n: 1_000,
            p: 5,
        };
        let m = fit_point(&relational, 1, || ()).unwrap();
        assert_eq!((m.heldout_accuracy, m.heldout_rows), (None, None));
    }

    #[test]
    fn a_solver_failure_is_found_among_the_sources() {
        let failed = rc_lp::Error::SolveFailed {
            backend: "highs",
            problem: "LP",
            rows: 400,
            cols: 99_599,
            nonzeros: 9_959_900,
            attempts: Vec::new(),
        };
        let fit = rulecover::Error::Fit {
            method: "rux-rf".into(),
            source: Box::new(rc_cover::Error::Lp(failed)),
        };
        assert!(is_solver_failure(&fit));
        let point = Point {
            learner: "rux-rf".into(),
            generator: Generator::Twonorm,
            n: 100_000,
            p: 20,
        };
        match fitting(&point, &fit) {
            Error::SolverFailed { what, message } => {
                assert_eq!(what, "fitting rux-rf on twonorm n=100000 p=20");
                assert!(message.contains("400 rows, 99599 columns"), "{message}");
            }
            other => panic!("{other:?}"),
        }
        let other = rulecover::Error::Fit {
            method: "rux-rf".into(),
            source: Box::new(rc_cover::Error::Solver("status TimeLimit".into())),
        };
        assert!(!is_solver_failure(&other));
        assert!(matches!(fitting(&point, &other), Error::Failed { .. }));
    }
}
