//! Tuning by the registry's grids: an inner stratified cross-validation
//! over a method's [`MethodSpec::grid`] ([`rulecover_core::cv::grid_search`]),
//! then a refit of the chosen point on all the rows ([`fit_tuned`]).
//!
//! The inner folds are scikit-learn's `StratifiedKFold(k, shuffle=True,
//! random_state=seed)` for classes when the seed is below 2^32 (the
//! papers' nested searches), the registry's own stratified folds above,
//! and shuffled K-fold for a real target. Every inner fit and the refit
//! use the same seed, as `GridSearchCV` does with a fixed `random_state`.
//! Ties go to the first grid point (grids list each axis from the
//! simplest model to the most complex); with the one-standard-error rule
//! (`one_se`, as `cv.glmnet`'s `lambda.1se`) the first point whose mean
//! score is within one standard error of the best one's wins.

use std::time::Instant;

use rulecover_core::cv::{folds_for, grid_search};
use rulecover_core::metrics::evaluate;
use rulecover_core::Dataset;

use crate::error::{Error, Result};
use crate::fitted::{accepted_seed, fit_given, pairs, table_method, FittedModel, Seed};
use crate::method::{GridAxis, MethodSpec, Task};
use crate::params::Args;
pub use crate::tuning::{GridPoint, TuneMetric, TuneOptions, Tuning};

/// A tuned fit: the model refitted at the chosen point (its
/// [`FittedModel::tuning`] holds the search's table) and the seconds the
/// search and the refit took.
#[derive(Debug, Clone)]
pub struct TunedFit {
    /// The model.
    pub model: FittedModel,
    /// Seconds of the search (every inner fit and its scoring).
    pub tune_seconds: f64,
    /// Seconds of the final fit.
    pub fit_seconds: f64,
}

/// The points of `spec`'s grid, each as `(name, value)` strings, the first
/// axis varying slowest; the axes (and tied parameters) named in `given`
/// are left out, so a value the caller fixed is kept. A grid without free
/// axes has one empty point.
pub fn grid_points(
    spec: &MethodSpec,
    given: &[(String, String)],
) -> Result<Vec<Vec<(String, String)>>> {
    let fixed = |name: &str| given.iter().any(|(k, _)| k == name);
    let axes: Vec<&GridAxis> = spec.grid.iter().filter(|a| !fixed(a.param)).collect();
    let mut points: Vec<Vec<(String, String)>> = vec![Vec::new()];
    for axis in axes {
        let mut next = Vec::with_capacity(points.len() * axis.values.len());
        for point in &points {
            for value in axis.values {
                let mut p = point.clone();
                p.push((axis.param.to_string(), value.to_string()));
                if let Some((tied, factor)) = axis.scaled {
                    if !fixed(tied) {
                        let v: f64 = value.parse().map_err(|_| {
                            Error::Internal(format!(
                                "grid value '{value}' of {}.{} is no number",
                                spec.id, axis.param
                            ))
                        })?;
                        p.push((tied.to_string(), format!("{:?}", factor * v)));
                    }
                }
                next.push(p);
            }
        }
        points = next;
    }
    Ok(points)
}

/// Fits method `id` with its parameters chosen by an inner
/// cross-validation over its registry grid ([`MethodSpec::grid`]), then
/// refitted on all of `data` at the chosen point.
///
/// `params` fix parameters (a grid axis among them is not searched);
/// `weights` are split with the rows (inner fits get their training rows'
/// weights; the scores are unweighted); `seed` drives the inner folds,
/// every inner fit and the refit. See the [module docs](self) for the
/// folds, ties and the one-standard-error rule.
///
/// # Errors
/// As [`crate::fit`]; [`Error::Tune`] for a metric that does not apply to
/// the task, fewer than 2 folds, folds the data cannot fill, or a method
/// without a grid; the first inner fit's error.
pub fn fit_tuned<K: AsRef<str>, V: AsRef<str>>(
    id: &str,
    params: &[(K, V)],
    data: &Dataset,
    weights: Option<&[f64]>,
    seed: u64,
    options: &TuneOptions,
) -> Result<TunedFit> {
    fit_tuned_given(
        id,
        &pairs(params),
        data,
        weights,
        Seed::Given(seed),
        options,
    )
}

/// [`fit_tuned`] with owned parameters and a [`Seed`].
pub(crate) fn fit_tuned_given(
    id: &str,
    given: &[(String, String)],
    data: &Dataset,
    weights: Option<&[f64]>,
    seed: Seed,
    options: &TuneOptions,
) -> Result<TunedFit> {
    let (method, _, task) = table_method(id, data, weights)?;
    let spec = method.spec();
    let args = Args::resolve(spec.id, spec.params, given)?;
    // Resolved once: the inner fits and the refit take it as it is.
    let seed_value = match seed {
        Seed::Given(s) => s,
        Seed::Derived(s) => accepted_seed(&args, s)?,
    };
    let seed = Seed::Given(seed_value);
    let bad = |option: &str, value: String, reason: String| Error::Tune {
        method: spec.id.into(),
        option: option.into(),
        value,
        reason,
    };
    if spec.grid.is_empty() {
        return Err(bad(
            "method",
            spec.id.into(),
            "it has no tuning grid".into(),
        ));
    }
    let metric = options.metric.unwrap_or(TuneMetric::default_for(task));
    if metric.for_classes() != (task != Task::Regression) {
        return Err(bad(
            "tune_metric",
            metric.name().into(),
            format!("it does not score {}", task.name()),
        ));
    }
    if options.folds < 2 {
        return Err(bad(
            "tune_folds",
            options.folds.to_string(),
            "at least 2 inner folds are needed".into(),
        ));
    }
    let points = grid_points(spec, given)?;
    let start = Instant::now();
    let (best_index, chosen_index, summaries) = if points.len() == 1 {
        (0, 0, Vec::new())
    } else {
        let folds = folds_for(data, options.folds, seed_value)
            .map_err(|e| bad("tune_folds", options.folds.to_string(), e.to_string()))?;
        // grid_search scores each point on every fold in fold order, so
        // call `c` is on fold `c mod k` (the weights follow the rows).
        let mut calls = 0usize;
        let (best, summaries) = grid_search(
            data,
            &points,
            &folds,
            |point: &Vec<(String, String)>, train: &Dataset, test: &Dataset| -> Result<f64> {
                let fold = &folds[calls % folds.len()];
                calls += 1;
                let w: Option<Vec<f64>> =
                    weights.map(|w| fold.train.iter().map(|&i| w[i]).collect());
                let mut p = given.to_vec();
                p.extend(point.iter().cloned());
                let model = fit_given(spec.id, &p, train, w.as_deref(), seed)?;
                let pred = model.predict(test)?;
                let m = evaluate(&test.target_view(), &pred)?;
                let v = metric.of(&m).unwrap_or(f64::NAN);
                Ok(if metric.higher_is_better() { v } else { -v })
            },
        )?;
        let chosen = if options.one_se {
            let floor = summaries[best].mean - summaries[best].stderr;
            summaries
                .iter()
                .position(|s| s.mean >= floor)
                .unwrap_or(best)
        } else {
            best
        };
        (best, chosen, summaries)
    };
    let tune_seconds = if points.len() == 1 {
        0.0
    } else {
        start.elapsed().as_secs_f64()
    };
    let sign = if metric.higher_is_better() { 1.0 } else { -1.0 };
    let grid: Vec<GridPoint> = points
        .iter()
        .enumerate()
        .map(|(i, p)| GridPoint {
            params: p.iter().cloned().collect(),
            mean: summaries.get(i).map_or(f64::NAN, |s| sign * s.mean),
            std: summaries.get(i).map_or(f64::NAN, |s| s.std),
        })
        .collect();
    let mut final_params = given.to_vec();
    final_params.extend(points[chosen_index].iter().cloned());
    let start = Instant::now();
    let mut model = fit_given(spec.id, &final_params, data, weights, seed)?;
    let fit_seconds = start.elapsed().as_secs_f64();
    model.tuning = Some(Tuning {
        metric,
        folds: options.folds,
        one_se: options.one_se,
        chosen: points[chosen_index].iter().cloned().collect(),
        chosen_index,
        best_index,
        grid,
    });
    Ok(TunedFit {
        model,
        tune_seconds,
        fit_seconds,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::methods::method;

    #[test]
    fn grid_points_follow_the_axes_with_ties_and_fixed_values() {
        let lrr = method("lrr").unwrap().spec();
        let points = grid_points(lrr, &[]).unwrap();
        assert_eq!(points.len(), 8);
        assert_eq!(
            points[0],
            [
                ("lambda0".to_string(), "0.1".to_string()),
                ("lambda1".to_string(), format!("{:?}", 0.2 * 0.1))
            ]
        );
        let fixed = [("lambda1".to_string(), "0.0".to_string())];
        let points = grid_points(lrr, &fixed).unwrap();
        assert_eq!(points[1], [("lambda0".to_string(), "0.05".to_string())]);
        let rf = method("rf").unwrap().spec();
        let points = grid_points(rf, &[]).unwrap();
        assert_eq!(points.len(), 9);
        assert_eq!(points[1][0].1, "5");
        assert_eq!(points[1][1].1, "50");
        let fixed = [("max_depth".to_string(), "3".to_string())];
        assert_eq!(grid_points(rf, &fixed).unwrap().len(), 3);
        let dt = method("dt").unwrap().spec();
        let fixed = [("max_depth".to_string(), "3".to_string())];
        assert_eq!(grid_points(dt, &fixed).unwrap(), vec![Vec::new()]);
    }

    #[test]
    fn metrics_parse_and_apply_to_their_task() {
        for m in TuneMetric::ALL {
            assert_eq!(m.name().parse::<TuneMetric>().unwrap(), m);
        }
        assert_eq!("roc_auc".parse::<TuneMetric>().unwrap(), TuneMetric::Auc);
        assert!("f1".parse::<TuneMetric>().is_err());
        assert!(!TuneMetric::Mse.higher_is_better());
        assert_eq!(TuneMetric::default_for(Task::Regression), TuneMetric::R2);
    }
}
