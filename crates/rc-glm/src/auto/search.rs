//! The inner cross-validation of `lambda0 = auto` ([`super`]): the
//! folds, the held-out deviances along each fold's path, the choice, and
//! the fit of a [`PenaltyPath`] learner with it.

use rayon::prelude::*;

use rulecover_core::cv::{kfold, stratified_kfold, Fold};
use rulecover_core::{CheckParams, Checked, Dataset, Fit, Predict, Predictions};

use super::{AutoLambda, LambdaSearch, MIN_ROWS, PATIENCE};
use crate::error::{Error, Result};
use crate::model::GlrmModel;

/// Chooses `(λ0, λ1)` for `data` (and `weights`, one per row): the
/// inner cross-validation described in the module documentation.
/// `fixed` is the fallback pair; `fit_path` fits the path on a fold's
/// training rows (with their weights), handing each model in turn to
/// its visitor and stopping when the visitor returns false.
pub(crate) fn choose<F>(
    auto: &AutoLambda,
    data: &Dataset,
    weights: Option<&[f64]>,
    fixed: (f64, f64),
    fit_path: F,
) -> Result<LambdaSearch>
where
    F: Fn(&Dataset, Option<&[f64]>, &[(f64, f64)], &mut PathVisitor<'_>) -> Result<()> + Sync,
{
    auto.validate()?;
    let pairs = auto.pairs(fixed.1);
    let fallback = LambdaSearch {
        path: auto.path.clone(),
        scores: Vec::new(),
        folds: 0,
        lambda0: fixed.0,
        lambda1: fixed.1,
        fallback: true,
    };
    let Some(folds) = folds_of(auto, data, weights)? else {
        return Ok(fallback);
    };
    // Each fold's held-out deviances along the path, the folds fitted
    // in parallel (each on its own rows: the same result on any
    // number of threads).
    let per_fold: Vec<Option<Vec<f64>>> = folds
        .par_iter()
        .map(|fold| fold_deviances(data, weights, fold, &pairs, &fit_path))
        .collect::<Result<_>>()?;
    let Some(per_fold) = per_fold.into_iter().collect::<Option<Vec<_>>>() else {
        return Ok(fallback);
    };
    // The points every fold reached (a fold stops past its best).
    let reached = per_fold.iter().map(Vec::len).min().unwrap_or(0);
    if reached == 0 {
        return Ok(fallback);
    }
    let scores: Vec<f64> = (0..reached)
        .map(|i| per_fold.iter().map(|d| d[i]).sum::<f64>() / per_fold.len() as f64)
        .collect();
    // The first (largest) penalty among the lowest scores.
    let best = scores
        .iter()
        .enumerate()
        .fold(0, |b, (i, &s)| if s < scores[b] { i } else { b });
    Ok(LambdaSearch {
        path: auto.path.clone(),
        lambda0: pairs[best].0,
        lambda1: pairs[best].1,
        scores,
        folds: folds.len(),
        fallback: false,
    })
}

/// The inner folds, fewer than [`AutoLambda::folds`] when a class has
/// fewer rows (of positive weight) than folds; `None` when fewer than
/// two folds (or [`MIN_ROWS`] rows) are possible.
fn folds_of(
    auto: &AutoLambda,
    data: &Dataset,
    weights: Option<&[f64]>,
) -> Result<Option<Vec<Fold>>> {
    let n = data.n_rows();
    let kept = |i: usize| weights.is_none_or(|w| w[i] > 0.0);
    let rows = (0..n).filter(|&i| kept(i)).count();
    if rows < MIN_ROWS {
        return Ok(None);
    }
    if data.is_classification() {
        let labels = data.labels()?;
        let mut counts = vec![0usize; data.n_classes()];
        for (i, &y) in labels.iter().enumerate() {
            if kept(i) {
                counts[y] += 1;
            }
        }
        let smallest = counts.iter().copied().filter(|&c| c > 0).min().unwrap_or(0);
        let k = auto.folds.min(smallest);
        if k < 2 || counts.iter().filter(|&&c| c > 0).count() < 2 {
            return Ok(None);
        }
        Ok(Some(stratified_kfold(&labels, k, auto.seed)?))
    } else {
        let k = auto.folds.min(rows / (MIN_ROWS / 2)).max(2);
        Ok(Some(kfold(n, k, true, auto.seed)?))
    }
}

/// A learner of [`GlrmModel`]s along a path of penalties (GLRM by column
/// generation, RuleFit): what `lambda0 = auto` needs of it.
pub(crate) trait PenaltyPath:
    Fit<Model = GlrmModel, Error = Error> + CheckParams<ParamError = Error> + Clone + Sync
{
    /// Fits `path` in order on `data`, handing each model to `visit`;
    /// stops when it returns false.
    fn path_until(
        params: Checked<'_, Self>,
        data: &Dataset,
        weights: Option<&[f64]>,
        path: &[(f64, f64)],
        visit: &mut PathVisitor<'_>,
    ) -> Result<()>;
    /// The search, when λ0 is `auto`.
    fn auto_lambda(&self) -> Option<&AutoLambda>;
    /// The fixed `(λ0, λ1)`.
    fn penalties(&self) -> (f64, f64);
    /// A copy with these penalties pinned and no search.
    fn pinned(&self, lambda0: f64, lambda1: f64) -> Self;
    /// A copy whose models read a missing value unseen at fit as their
    /// literals do (held-out rows may miss a value a fold's rows had not).
    fn lenient(&self) -> Self;
}

/// One model per pair of `path` ([`PenaltyPath::path_until`] to the end).
pub(crate) fn path_checked<P: PenaltyPath>(
    params: Checked<'_, P>,
    data: &Dataset,
    weights: Option<&[f64]>,
    path: &[(f64, f64)],
) -> Result<Vec<GlrmModel>> {
    let mut out = Vec::with_capacity(path.len());
    P::path_until(params, data, weights, path, &mut |model| {
        out.push(model);
        Ok(true)
    })?;
    Ok(out)
}

/// The fit of a [`PenaltyPath`] learner: at its fixed penalties, or, with
/// `lambda0 = auto`, at the penalties the inner cross-validation chooses
/// (the search kept in [`crate::FitInfo::lambda_search`]).
pub(crate) fn fit_checked<P: PenaltyPath>(
    params: Checked<'_, P>,
    data: &Dataset,
    weights: Option<&[f64]>,
) -> Result<GlrmModel> {
    let fixed = params.penalties();
    let Some(auto) = params.auto_lambda() else {
        return path_checked(params, data, weights, &[fixed])?
            .pop()
            .ok_or_else(|| Error::Shape("empty path".into()));
    };
    let inner = params.pinned(fixed.0, fixed.1).lenient();
    let search = choose(auto, data, weights, fixed, |train, w, path, visit| {
        P::path_until(inner.check_inputs(train, w)?, train, w, path, visit)
    })?;
    let mut model = params
        .pinned(search.lambda0, search.lambda1)
        .fit_with_weights(data, weights)?;
    model.info.lambda_search = Some(search);
    Ok(model)
}

/// What a path fit hands each model to: true to go on down the path.
pub(crate) type PathVisitor<'a> = dyn FnMut(GlrmModel) -> Result<bool> + 'a;

/// The held-out deviances of one fold along the path, which stops
/// [`PATIENCE`] points past the fold's best; `None` when the fold's
/// training or held-out rows all weigh 0.
fn fold_deviances<F>(
    data: &Dataset,
    weights: Option<&[f64]>,
    fold: &Fold,
    pairs: &[(f64, f64)],
    fit_path: &F,
) -> Result<Option<Vec<f64>>>
where
    F: Fn(&Dataset, Option<&[f64]>, &[(f64, f64)], &mut PathVisitor<'_>) -> Result<()>,
{
    let pick = |rows: &[usize]| weights.map(|w| rows.iter().map(|&i| w[i]).collect::<Vec<_>>());
    let (train_w, test_w) = (pick(&fold.train), pick(&fold.test));
    let weightless = |w: &Option<Vec<f64>>| w.as_ref().is_some_and(|w| w.iter().all(|&x| x == 0.0));
    if weightless(&train_w) || weightless(&test_w) {
        return Ok(None);
    }
    let train = data.subset(&fold.train)?;
    let test = data.subset(&fold.test)?;
    let mut deviances = Vec::with_capacity(pairs.len());
    let mut best = f64::INFINITY;
    let mut since_best = 0;
    fit_path(&train, train_w.as_deref(), pairs, &mut |model| {
        let d = deviance(&model, &test, test_w.as_deref())?;
        deviances.push(d);
        // Ties (the intercept alone at the largest penalties scores the
        // same at each) do not count against the patience.
        let tie = (d - best).abs() <= 1e-12 * best.abs();
        if d < best && !tie {
            best = d;
            since_best = 0;
        } else if !tie {
            since_best += 1;
        }
        Ok(since_best < PATIENCE)
    })?;
    Ok(Some(deviances))
}

/// The (weighted) mean held-out deviance of `model` on `test`: log-loss
/// (probabilities clipped to [1e-15, 1 − 1e-15], as scikit-learn's) for
/// classes, squared error for a real target.
fn deviance(model: &GlrmModel, test: &Dataset, weights: Option<&[f64]>) -> Result<f64> {
    let predictions = model.predict(test)?;
    let n = test.n_rows();
    let loss: Vec<f64> = match &predictions {
        Predictions::Classes { n_classes, proba } => {
            let labels = test.labels()?;
            (0..n)
                .map(|i| {
                    let p = proba[i * n_classes + labels[i]].clamp(1e-15, 1.0 - 1e-15);
                    -p.ln()
                })
                .collect()
        }
        Predictions::Values(values) => (0..n)
            .map(|i| {
                let e = values[i] - test.target_value(i);
                e * e
            })
            .collect(),
    };
    Ok(match weights {
        None => loss.iter().sum::<f64>() / n as f64,
        Some(w) => {
            let total: f64 = w.iter().sum();
            loss.iter().zip(w).map(|(l, w)| l * w).sum::<f64>() / total
        }
    })
}
