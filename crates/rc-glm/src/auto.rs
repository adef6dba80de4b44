//! `lambda0 = auto`: λ0 chosen by an inner cross-validation over a
//! warm-started regularisation path, as `cv.glmnet` and R's `pre` choose
//! theirs.
//!
//! The rows are split into [`AutoLambda::folds`] stratified folds (shuffled
//! K-fold for a real target). On each fold's training rows the path
//! [`AutoLambda::path`] is fitted once, largest penalty first, each fit
//! warm-started from the one before (as [`crate::GlrmParams::fit_path`] and
//! [`crate::RuleFitParams::fit_path`]); each model is scored on the fold's
//! held-out rows by the mean deviance of its loss (log-loss for the
//! logistic model, squared error for the linear one; weighted by the
//! sample weights when given). A fold stops going down the path
//! [`PATIENCE`] points past its best score: the smallest penalties cost
//! the most and overfit. The folds run in parallel. The λ0 with the lowest
//! mean over the folds, among the points every fold reached, wins (ties to
//! the larger penalty), and the model is then fitted once on all the rows
//! at that point, so the result equals a plain fit with that λ0 pinned.
//! What was tried and scored is kept in the model
//! ([`crate::FitInfo::lambda_search`]).
//!
//! The early stop is the one approximation: a point past two that scored
//! worse than a fold's best is not tried, as a full-grid search would.
//!
//! On data too small to cross-validate (fewer than two rows of a class
//! per fold, fewer than [`MIN_ROWS`] rows) the folds drop to what the data
//! allows, down to two; below that the fixed `lambda0` and `lambda1` of the
//! parameters are used and the search says so ([`LambdaSearch::fallback`]).
//!
//! Integer sample weights equal duplicated rows only for fixed penalties:
//! a duplicated row can land in two inner folds, a weighted one in one.

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use rulecover_core::cv::{kfold, stratified_kfold, Fold};
use rulecover_core::{CheckParams, Checked, Dataset, Fit, Predict, Predictions};

use crate::error::{invalid, Error, Result};
use crate::model::GlrmModel;

/// Paper 002's regularisation path of λ0, the default of
/// [`AutoLambda::path`].
pub const PAPER_PATH: [f64; 8] = [0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001, 0.0005];

/// A fold's path stops once this many points scored worse than its best
/// held-out deviance (ties do not count; the smaller penalties cost the
/// most and rarely recover).
pub const PATIENCE: usize = 2;

/// The fewest rows an inner cross-validation runs on.
pub const MIN_ROWS: usize = 10;

/// How `lambda0 = auto` searches.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AutoLambda {
    /// The values of λ0 tried, largest first (paper 002's path: 0.1 down
    /// to 0.0005).
    pub path: Vec<f64>,
    /// `Some(r)`: λ1 = r × λ0 along the path (the paper ties λ1 = 0.2 λ0);
    /// `None`: λ1 stays at the parameters' `lambda1`.
    pub lambda1_ratio: Option<f64>,
    /// Inner folds (3; fewer on small data).
    pub folds: usize,
    /// Seed of the inner folds.
    pub seed: u64,
}

impl Default for AutoLambda {
    fn default() -> Self {
        AutoLambda {
            path: PAPER_PATH.to_vec(),
            lambda1_ratio: Some(0.2),
            folds: 3,
            seed: 0,
        }
    }
}

/// What `lambda0 = auto` tried, scored and chose.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LambdaSearch {
    /// The λ0 values tried, in path order.
    pub path: Vec<f64>,
    /// The mean held-out deviance of each λ0 every fold reached, in path
    /// order (empty on a fallback).
    pub scores: Vec<f64>,
    /// The folds used (0 on a fallback).
    pub folds: usize,
    /// The λ0 chosen.
    pub lambda0: f64,
    /// The λ1 that went with it.
    pub lambda1: f64,
    /// True when the data was too small to cross-validate and the fixed
    /// penalties were used.
    pub fallback: bool,
}

impl AutoLambda {
    /// Checks the path (non-empty, finite, positive), the ratio and the
    /// number of folds.
    pub fn validate(&self) -> Result<()> {
        if self.path.is_empty() {
            return Err(invalid(
                "auto_lambda.path",
                "[]",
                "must hold at least one value",
            ));
        }
        if let Some(bad) = self.path.iter().find(|v| !(v.is_finite() && **v > 0.0)) {
            return Err(invalid(
                "auto_lambda.path",
                bad,
                "every value must be finite and > 0",
            ));
        }
        if let Some(r) = self.lambda1_ratio {
            if !(r.is_finite() && r >= 0.0) {
                return Err(invalid(
                    "auto_lambda.lambda1_ratio",
                    r,
                    "must be finite and >= 0",
                ));
            }
        }
        if self.folds < 2 {
            return Err(invalid("auto_lambda.folds", self.folds, "must be >= 2"));
        }
        Ok(())
    }

    /// The `(λ0, λ1)` pairs of the path, λ1 tied or fixed at `lambda1`.
    fn pairs(&self, lambda1: f64) -> Vec<(f64, f64)> {
        self.path
            .iter()
            .map(|&l0| (l0, self.lambda1_ratio.map_or(lambda1, |r| r * l0)))
            .collect()
    }

    /// Chooses `(λ0, λ1)` for `data` (and `weights`, one per row): the
    /// inner cross-validation described in the module documentation.
    /// `fixed` is the fallback pair; `fit_path` fits the path on a fold's
    /// training rows (with their weights), handing each model in turn to
    /// its visitor and stopping when the visitor returns false.
    pub(crate) fn choose<F>(
        &self,
        data: &Dataset,
        weights: Option<&[f64]>,
        fixed: (f64, f64),
        fit_path: F,
    ) -> Result<LambdaSearch>
    where
        F: Fn(&Dataset, Option<&[f64]>, &[(f64, f64)], &mut PathVisitor<'_>) -> Result<()> + Sync,
    {
        self.validate()?;
        let pairs = self.pairs(fixed.1);
        let fallback = LambdaSearch {
            path: self.path.clone(),
            scores: Vec::new(),
            folds: 0,
            lambda0: fixed.0,
            lambda1: fixed.1,
            fallback: true,
        };
        let Some(folds) = self.folds_of(data, weights)? else {
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
            path: self.path.clone(),
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
    fn folds_of(&self, data: &Dataset, weights: Option<&[f64]>) -> Result<Option<Vec<Fold>>> {
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
            let k = self.folds.min(smallest);
            if k < 2 || counts.iter().filter(|&&c| c > 0).count() < 2 {
                return Ok(None);
            }
            Ok(Some(stratified_kfold(&labels, k, self.seed)?))
        } else {
            let k = self.folds.min(rows / (MIN_ROWS / 2)).max(2);
            Ok(Some(kfold(n, k, true, self.seed)?))
        }
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
    let search = auto.choose(data, weights, fixed, |train, w, path, visit| {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{GlrmParams, RuleFitParams};
    use rulecover_core::{generate, Fit, Reseed, RuleModel};

    /// Twonorm with the positives thinned to about `share` of the rows.
    fn imbalanced(n: usize, share: f64, seed: u64) -> Dataset {
        let data = generate::twonorm(n, seed);
        let labels = data.labels().unwrap();
        let positives = labels.iter().filter(|&&y| y == 1).count() as f64;
        let negatives = labels.len() as f64 - positives;
        let keep = share / (1.0 - share) * negatives / positives;
        let mut rng = rulecover_core::Rng::new(seed + 1);
        let rows: Vec<usize> = (0..labels.len())
            .filter(|&i| labels[i] == 0 || rng.next_f64() < keep)
            .collect();
        data.subset(&rows).unwrap()
    }

    fn auto(seed: u64) -> Option<AutoLambda> {
        Some(AutoLambda {
            seed,
            ..AutoLambda::default()
        })
    }

    /// The search scores every point of the path, and the model equals a
    /// plain fit with the chosen penalties pinned.
    #[test]
    fn the_choice_refits_as_a_pinned_fit() {
        let data = imbalanced(600, 0.15, 3);
        let model = GlrmParams::lr1().auto_lambda(auto(5)).fit(&data).unwrap();
        let search = model.info().lambda_search.clone().unwrap();
        assert!(!search.fallback);
        assert_eq!(search.folds, 3);
        assert_eq!(search.path, PAPER_PATH);
        let i = PAPER_PATH
            .iter()
            .position(|&l| l == search.lambda0)
            .unwrap();
        assert!(search.scores.len() > i && search.scores.len() <= PAPER_PATH.len());
        assert!(search.scores.iter().all(|s| s.is_finite() && *s > 0.0));
        let best = search.scores.iter().copied().fold(f64::INFINITY, f64::min);
        let i = PAPER_PATH
            .iter()
            .position(|&l| l == search.lambda0)
            .unwrap();
        assert_eq!(search.scores[i], best);
        assert_eq!(search.lambda1, 0.2 * search.lambda0);
        let pinned = GlrmParams::lr1()
            .lambda0(search.lambda0)
            .lambda1(search.lambda1)
            .fit(&data)
            .unwrap();
        assert_eq!(model.rule_set(), pinned.rule_set());
        assert_eq!(model.info().lambda0, search.lambda0);
    }

    /// On 85/15 data the paper's fixed λ0 = 0.05 keeps the intercept alone;
    /// `auto` keeps rules, which validate better than the intercept.
    #[test]
    fn imbalanced_data_keeps_rules() {
        let data = imbalanced(1500, 0.15, 11);
        let fixed = GlrmParams::lr1().fit(&data).unwrap();
        assert_eq!(fixed.n_rules(), 0);
        let model = GlrmParams::lr1().auto_lambda(auto(1)).fit(&data).unwrap();
        let search = model.info().lambda_search.clone().unwrap();
        assert!(model.n_rules() > 0, "{search:?}");
        assert!(search.lambda0 < 0.05);
        // The intercept alone scores search.scores[0] (λ0 = 0.1).
        let chosen = search
            .path
            .iter()
            .position(|&l| l == search.lambda0)
            .unwrap();
        assert!(search.scores[chosen] < 0.9 * search.scores[0], "{search:?}");
    }

    /// The same seed gives the same model; the seed is the params' random
    /// seed.
    #[test]
    fn the_inner_folds_follow_the_seed() {
        let data = imbalanced(400, 0.2, 8);
        let params = RuleFitParams::new()
            .max_rules(60)
            .auto_lambda(auto(1))
            .with_random_seed(4);
        assert_eq!(params.auto_lambda.as_ref().unwrap().seed, 4);
        let a = params.fit(&data).unwrap();
        let b = params.fit(&data).unwrap();
        assert_eq!(a.rule_set(), b.rule_set());
        assert_eq!(a.info().lambda_search, b.info().lambda_search);
        assert_eq!(GlrmParams::lrr().random_seed(), None);
        assert_eq!(
            GlrmParams::lrr().auto_lambda(auto(2)).random_seed(),
            Some(2)
        );
    }

    /// Too few rows of a class to cross-validate: the fixed penalties.
    #[test]
    fn tiny_data_falls_back_to_the_fixed_penalties() {
        let data = generate::twonorm(40, 2);
        let labels = data.labels().unwrap();
        let mut rows: Vec<usize> = (0..40).filter(|&i| labels[i] == 0).collect();
        rows.push((0..40).find(|&i| labels[i] == 1).unwrap());
        let data = data.subset(&rows).unwrap();
        let model = GlrmParams::lr1().auto_lambda(auto(0)).fit(&data).unwrap();
        let search = model.info().lambda_search.clone().unwrap();
        assert!(search.fallback);
        assert_eq!((search.lambda0, search.lambda1), (0.05, 0.01));
        assert_eq!(model.info().lambda0, 0.05);
        // Fewer rows of the smaller class than folds: two folds.
        let data = generate::twonorm(200, 6);
        let labels = data.labels().unwrap();
        let mut rows: Vec<usize> = (0..200).filter(|&i| labels[i] == 0).collect();
        rows.extend((0..200).filter(|&i| labels[i] == 1).take(2));
        let data = data.subset(&rows).unwrap();
        let model = GlrmParams::lr1().auto_lambda(auto(0)).fit(&data).unwrap();
        assert_eq!(model.info().lambda_search.as_ref().unwrap().folds, 2);
    }

    /// A real target is cross-validated by squared error.
    #[test]
    fn a_real_target_is_scored_by_squared_error() {
        let data = generate::twonorm(300, 4);
        let y: Vec<f64> = (0..300)
            .map(|i| data.value(i, 0) * 2.0 + data.value(i, 1))
            .collect();
        let data = data.with_target(rulecover_core::Target::Real(y)).unwrap();
        let model = GlrmParams::lr1().auto_lambda(auto(0)).fit(&data).unwrap();
        let search = model.info().lambda_search.clone().unwrap();
        assert!(!search.fallback);
        // A strong linear signal: the smallest penalties validate best.
        assert!(search.lambda0 <= 0.01, "{search:?}");
        assert!(model.n_rules() > 2);
    }

    #[test]
    fn bad_searches_are_parameter_errors() {
        let data = generate::twonorm(50, 1);
        for bad in [
            AutoLambda {
                path: vec![],
                ..AutoLambda::default()
            },
            AutoLambda {
                path: vec![0.1, f64::NAN],
                ..AutoLambda::default()
            },
            AutoLambda {
                folds: 1,
                ..AutoLambda::default()
            },
            AutoLambda {
                lambda1_ratio: Some(-1.0),
                ..AutoLambda::default()
            },
        ] {
            let e = GlrmParams::lr1()
                .auto_lambda(Some(bad))
                .fit(&data)
                .unwrap_err();
            assert!(e.to_string().contains("auto_lambda."), "{e}");
        }
    }
}
