//! The RuleFit baseline (Friedman & Popescu 2008), as the paper ran it
//! through christophM/rulefit: rules are the nodes (all but the roots) of
//! a gradient-boosted ensemble of small regression trees of random size,
//! optionally with winsorised, standardised linear terms; the terms are
//! fitted with the same L1 GLM solver as GLRM, with penalties proportional
//! to the same complexity weights (`λ0 + λ1·degree` per rule, `λ0` per
//! linear term).
//!
//! Settings (christophM/rulefit's defaults, following Friedman & Popescu):
//!
//! * the trees are grown on the binarizer's 0/1 columns, so they split at
//!   the same decile thresholds as the GLRM variants (the paper's
//!   protocol); a split on `x <= t` gives the literals `x <= t` and
//!   `x > t`, etc.;
//! * tree `m` gets a random size `t_m = 2 + ⌊Exp(mean tree_size − 2)⌋`
//!   leaves; rc-tree grows depth-limited trees, so it gets
//!   `max_depth = ⌈log2 t_m⌉` (a tree of that depth has at most `2^depth`
//!   leaves; this is the one deviation from leaf-limited growth);
//! * trees are added until `Σ t_m ≥ max_rules` (2000), each on a
//!   subsample of `min(0.5, (100 + 6√n)/n)` of the rows without
//!   replacement, with learning rate ("memory") 0.01, fitted to the
//!   negative gradient of the loss with Newton leaf values (logistic) or
//!   mean residuals (squared);
//! * duplicate rules (after merging conditions on the same feature) and
//!   rules covering no row or every row are dropped;
//! * linear terms are winsorised at the 2.5% / 97.5% quantiles and scaled
//!   by `0.4 / std`.
//!
//! Raw columns are one-hot encoded first ([`Encoding::OneHot`], every
//! level by default; [`RuleFitParams::encoding`]), as the trees need
//! numbers.
//!
//! Sample weights ([`Fit::fit_weighted`]) weight the loss of the L1 fit,
//! the binarizer's quantiles, the boosting (the trees are grown with the
//! weights, the initial value and the leaf values are weighted means), the
//! winsorising quantiles and the standardisation of the linear terms. The
//! random subsamples of the boosting draw rows, each with its weight, so
//! duplicating rows and giving integer weights lead to different draws
//! (and ensembles); everything else follows replication semantics.

use std::collections::{HashMap, HashSet};
use std::time::Instant;

use serde::{Deserialize, Serialize};

use rc_tree::DecisionTreeParams;
use rulecover_core::rng::derive_seed;
use rulecover_core::{Dataset, Encoder, Encoding, Fit, Rng, Target};

use crate::binarize::{weighted_quantile_sorted, Binarizer, BinarizerParams};
use crate::bits::Bits;
use crate::colgen::{prepare_target, training_coverage, ColumnKind};
use crate::error::{invalid, Error, Result};
use crate::glm::{self, Column, GlmProblem, GlmSettings, Loss};
use crate::literal::{Conjunction, Literal};
use crate::model::{FitInfo, GlrmModel, LinearTerm, StopReason, Term, UnseenMissing, WeightedTerm};
use crate::params::check_lambdas;
use crate::sample::{mean_and_variance, training_rows, SampleWeights};

/// Parameters of RuleFit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RuleFitParams {
    /// Mean number of leaves per tree (4).
    pub tree_size: usize,
    /// Trees are added until their sizes sum to this (2000).
    pub max_rules: usize,
    /// Boosting learning rate ("memory parameter", 0.01).
    pub learning_rate: f64,
    /// Row fraction per tree; `None`: `min(0.5, (100 + 6√n)/n)`.
    pub subsample: Option<f64>,
    /// Add winsorised, standardised linear terms (RuleFitN).
    pub linear_terms: bool,
    /// Winsorising quantile of the linear terms (0.025).
    pub winsor_quantile: f64,
    /// Multiplier of the standardised linear terms (0.4).
    pub linear_scale: f64,
    /// Fixed penalty of every term.
    pub lambda0: f64,
    /// Additional penalty per literal of a rule.
    pub lambda1: f64,
    /// The binarizer whose columns the trees split on.
    pub binarizer: BinarizerParams,
    /// The GLM solver's settings.
    pub glm: GlmSettings,
    /// Seed of the subsamples and tree sizes.
    pub seed: u64,
    /// Force a loss (`None`: from the target).
    pub loss: Option<Loss>,
    /// How raw columns are encoded (one-hot with every level: the trees
    /// need numbers).
    #[serde(default)]
    pub encoding: Encoding,
    /// What the fitted model does with a missing value at prediction time
    /// in a column that had none at fit (an error by default).
    #[serde(default)]
    pub unseen_missing: UnseenMissing,
}

impl Default for RuleFitParams {
    fn default() -> Self {
        RuleFitParams {
            tree_size: 4,
            max_rules: 2000,
            learning_rate: 0.01,
            subsample: None,
            linear_terms: false,
            winsor_quantile: 0.025,
            linear_scale: 0.4,
            lambda0: 0.05,
            lambda1: 0.01,
            binarizer: BinarizerParams::default(),
            glm: GlmSettings::default(),
            seed: 0,
            loss: None,
            encoding: Encoding::OneHot { drop_first: false },
            unseen_missing: UnseenMissing::Error,
        }
    }
}

impl RuleFitParams {
    /// RuleFit with the default settings.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the mean number of leaves per tree (≥ 2).
    pub fn tree_size(mut self, size: usize) -> Self {
        self.tree_size = size;
        self
    }

    /// Sets the total tree size at which boosting stops (≥ 1).
    pub fn max_rules(mut self, n: usize) -> Self {
        self.max_rules = n;
        self
    }

    /// Sets the boosting learning rate (> 0).
    pub fn learning_rate(mut self, lr: f64) -> Self {
        self.learning_rate = lr;
        self
    }

    /// Sets the row fraction per tree (`0 < f ≤ 1`; `None`: F&P's rule).
    pub fn subsample(mut self, f: Option<f64>) -> Self {
        self.subsample = f;
        self
    }

    /// Adds (or not) linear terms (RuleFitN).
    pub fn linear_terms(mut self, on: bool) -> Self {
        self.linear_terms = on;
        self
    }

    /// Sets `λ0` and `λ1 = ratio · λ0`.
    pub fn lambdas(mut self, lambda0: f64, ratio: f64) -> Self {
        self.lambda0 = lambda0;
        self.lambda1 = ratio * lambda0;
        self
    }

    /// Sets the seed.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Sets the input encoding (one-hot with every level by default;
    /// `drop_first` leaves out each feature's first level).
    pub fn encoding(mut self, encoding: Encoding) -> Self {
        self.encoding = encoding;
        self
    }

    /// Sets what the fitted model does with a missing value at prediction
    /// time in a column that had none at fit.
    pub fn unseen_missing(mut self, policy: UnseenMissing) -> Self {
        self.unseen_missing = policy;
        self
    }

    /// Checks every parameter.
    pub fn validate(&self) -> Result<()> {
        check_lambdas(self.lambda0, self.lambda1)?;
        if self.tree_size < 2 {
            return Err(invalid("tree_size", self.tree_size, "must be >= 2 leaves"));
        }
        if self.max_rules == 0 {
            return Err(invalid("max_rules", 0, "must be >= 1"));
        }
        if !(self.learning_rate.is_finite() && self.learning_rate > 0.0) {
            return Err(invalid(
                "learning_rate",
                self.learning_rate,
                "must be finite and > 0",
            ));
        }
        if let Some(f) = self.subsample {
            if !(f > 0.0 && f <= 1.0) {
                return Err(invalid("subsample", f, "must be in (0, 1]"));
            }
        }
        if !(0.0..0.5).contains(&self.winsor_quantile) {
            return Err(invalid(
                "winsor_quantile",
                self.winsor_quantile,
                "must be in [0, 0.5)",
            ));
        }
        if !(self.linear_scale.is_finite() && self.linear_scale > 0.0) {
            return Err(invalid(
                "linear_scale",
                self.linear_scale,
                "must be finite and > 0",
            ));
        }
        self.binarizer.validate()?;
        self.glm.validate()
    }

    /// Fits one model per `(λ0, λ1)` of `path` on one rule ensemble (the
    /// trees do not depend on the penalties), warm-starting each solve.
    pub fn fit_path(&self, data: &Dataset, path: &[(f64, f64)]) -> Result<Vec<GlrmModel>> {
        self.fit_path_impl(data, None, path)
    }

    /// [`RuleFitParams::fit_path`] with one sample weight per row (see
    /// [`Fit::fit_weighted`]).
    pub fn fit_path_weighted(
        &self,
        data: &Dataset,
        weights: &[f64],
        path: &[(f64, f64)],
    ) -> Result<Vec<GlrmModel>> {
        self.fit_path_impl(data, Some(weights), path)
    }

    fn fit_path_impl(
        &self,
        data: &Dataset,
        weights: Option<&[f64]>,
        path: &[(f64, f64)],
    ) -> Result<Vec<GlrmModel>> {
        self.validate()?;
        for &(l0, l1) in path {
            check_lambdas(l0, l1)?;
        }
        let started = Instant::now();
        let (encoder, encoded) = Encoder::fit(data, self.encoding)?;
        let (data, weights) = training_rows(&encoded, weights)?;
        let data = &data;
        let ens = RuleEnsemble::build(self, data, weights.as_ref())?;
        let mut warm: Option<(f64, Vec<f64>)> = None;
        let mut out = Vec::with_capacity(path.len());
        for &(l0, l1) in path {
            let t = Instant::now();
            let penalties: Vec<f64> = ens.kinds.iter().map(|k| k.penalty(l0, l1)).collect();
            let problem = GlmProblem {
                loss: ens.target.loss,
                y: &ens.target.y,
                columns: &ens.columns,
                penalties: &penalties,
                weights: ens.target.weights.as_deref(),
            };
            let fit = glm::solve(
                &problem,
                warm.as_ref().map(|(b, c)| (*b, c.as_slice())),
                &self.glm,
            )?;
            let terms = fit
                .coef
                .iter()
                .enumerate()
                .filter(|(_, &c)| c != 0.0)
                .map(|(k, &coef)| WeightedTerm {
                    term: match &ens.kinds[k] {
                        ColumnKind::Rule(_) => Term::Rule(ens.rules[k].clone()),
                        ColumnKind::Linear(t) => Term::Linear(*t),
                    },
                    coef,
                    coverage: training_coverage(&ens.columns[k], &ens.kinds[k], data),
                })
                .collect();
            let time = if out.is_empty() {
                started.elapsed()
            } else {
                t.elapsed()
            };
            let mut model = GlrmModel {
                loss: ens.target.loss,
                encoder: encoder.clone(),
                features: data.features().to_vec(),
                missing_at_fit: ens.missing_at_fit.clone(),
                unseen_missing: self.unseen_missing,
                class_names: data.class_names().to_vec(),
                intercept: fit.intercept,
                terms,
                target_shift: ens.target.shift,
                target_scale: ens.target.scale,
                info: FitInfo {
                    lambda0: l0,
                    lambda1: l1,
                    iterations: 0,
                    working_set: ens.columns.len(),
                    stop: StopReason::FixedColumns,
                    kkt_violation: fit.kkt_violation,
                    objective: fit.objective,
                    debiased: false,
                    time,
                },
            };
            model.sort_terms();
            warm = Some((fit.intercept, fit.coef));
            out.push(model);
        }
        Ok(out)
    }
}

/// The seed of the tree ensemble ([`RuleFitParams::seed`]).
impl rulecover_core::Reseed for RuleFitParams {
    fn random_seed(&self) -> Option<u64> {
        Some(self.seed)
    }

    fn with_random_seed(&self, seed: u64) -> Self {
        self.clone().seed(seed)
    }
}

impl Fit for RuleFitParams {
    type Model = GlrmModel;
    type Error = Error;

    /// Validates, encodes, grows the tree ensemble and fits the L1 model.
    fn fit(&self, data: &Dataset) -> Result<GlrmModel> {
        let mut models = self.fit_path(data, &[(self.lambda0, self.lambda1)])?;
        models
            .pop()
            .ok_or_else(|| Error::Shape("empty path".into()))
    }

    /// Fits with one sample weight per row (finite, `>= 0`, not all 0);
    /// see the module documentation for what the weights weight.
    fn fit_weighted(&self, data: &Dataset, weights: &[f64]) -> Result<GlrmModel> {
        let mut models = self.fit_path_weighted(data, weights, &[(self.lambda0, self.lambda1)])?;
        models
            .pop()
            .ok_or_else(|| Error::Shape("empty path".into()))
    }
}

/// The rows of every leaf of `tree`, a tree grown on the binarizer's
/// indicator columns (column `f` is 1 on the rows of literal `primary[f]`),
/// as `(leaf id, rows)`: what `tree.apply` on the indicator data set gives,
/// from the literals' bitsets instead of a row-major copy of the whole
/// training matrix per tree. An indicator of 0 goes left (`x <= t` with
/// `0 < t < 1`), so the left child keeps the rows outside the literal.
fn leaf_rows(
    tree: &rc_tree::Tree,
    primary: &[usize],
    matrix: &crate::binarize::BinaryMatrix,
    n: usize,
) -> Vec<(usize, Bits)> {
    let mut out = Vec::new();
    let mut stack = vec![(0usize, Bits::full(n))];
    while let Some((id, rows)) = stack.pop() {
        let Some(node) = tree.node(id) else { continue };
        match node.split {
            Some(split) => {
                let lit = matrix.bits(primary[split.feature]);
                stack.push((split.right, rows.and(lit)));
                stack.push((split.left, rows.and_not(lit)));
            }
            None => out.push((id, rows)),
        }
    }
    out
}

/// The terms of a RuleFit model before the L1 fit.
struct RuleEnsemble {
    target: crate::colgen::PreparedTarget,
    columns: Vec<Column>,
    kinds: Vec<ColumnKind>,
    /// The conjunction of each rule column (empty for linear terms).
    rules: Vec<Conjunction>,
    /// Whether each feature had a missing value in the training rows.
    missing_at_fit: Vec<bool>,
}

impl RuleEnsemble {
    fn build(
        params: &RuleFitParams,
        data: &Dataset,
        weights: Option<&SampleWeights>,
    ) -> Result<RuleEnsemble> {
        let target = prepare_target(data, params.loss, weights)?;
        let raw_weights = weights.map(|w| w.raw.as_slice());
        let binarizer =
            Binarizer::fit_weighted(&params.binarizer.clone().negations(true), data, raw_weights)?;
        let matrix = binarizer.transform(data)?;
        let index: HashMap<(usize, u8, u64), usize> = binarizer
            .literals()
            .iter()
            .enumerate()
            .map(|(j, l)| ((l.feature, l.op as u8, l.value.to_bits()), j))
            .collect();
        let primary = binarizer.primary_literals();
        let input = binarizer
            .indicator_dataset(data)?
            .with_target(Target::Real(vec![0.0; data.n_rows()]))?;
        let n = data.n_rows();

        // Boosting with random tree sizes.
        let mut rng = Rng::new(params.seed);
        let frac = params
            .subsample
            .unwrap_or_else(|| ((100.0 + 6.0 * (n as f64).sqrt()) / n as f64).min(0.5));
        let n_sub = ((frac * n as f64).round() as usize).clamp(2.min(n), n);
        let y_mean =
            (0..n).map(|i| target.weight(i) * target.y[i]).sum::<f64>() / target.total_weight();
        let mut eta = vec![
            match target.loss {
                Loss::Logistic => {
                    let p = y_mean.clamp(1e-6, 1.0 - 1e-6);
                    (p / (1.0 - p)).ln()
                }
                Loss::Squared => y_mean,
            };
            n
        ];
        let mut total_size = 0usize;
        let mut seen: HashSet<Vec<usize>> = HashSet::new();
        let mut columns = Vec::new();
        let mut kinds = Vec::new();
        let mut rules = Vec::new();
        let mut m = 0u64;
        while total_size < params.max_rules {
            let size = 2
                + (-(1.0 - rng.next_f64()).ln() * (params.tree_size as f64 - 2.0)).floor() as usize;
            total_size += size;
            let depth = (usize::BITS - (size - 1).leading_zeros()).max(1) as usize;
            let mut inbag = rng.sample_indices(n, n_sub);
            inbag.sort_unstable();
            let resid: Vec<f64> = inbag
                .iter()
                .map(|&i| target.y[i] - target.loss.mean(eta[i]))
                .collect();
            let sub = input
                .subset(&inbag)?
                .with_target(Target::Real(resid.clone()))?;
            let learner = DecisionTreeParams::regressor()
                .max_depth(depth)
                .seed(derive_seed(params.seed, m));
            let tree = match raw_weights {
                None => learner.fit(&sub)?,
                Some(w) => {
                    let w: Vec<f64> = inbag.iter().map(|&i| w[i]).collect();
                    learner.fit_weighted(&sub, &w)?
                }
            };
            m += 1;
            // Leaf values on the in-bag rows: Newton steps (logistic) or
            // mean residuals (squared).
            let t = tree.tree();
            let sub_leaves = tree.apply(&sub)?;
            let mut num = vec![0.0; t.n_nodes()];
            let mut den = vec![0.0; t.n_nodes()];
            for (k, &i) in inbag.iter().enumerate() {
                let leaf = sub_leaves[k];
                let w = target.weight(i);
                num[leaf] += w * resid[k];
                den[leaf] += w * match target.loss {
                    Loss::Logistic => {
                        let p = target.loss.mean(eta[i]);
                        p * (1.0 - p)
                    }
                    Loss::Squared => 1.0,
                };
            }
            for (leaf, rows) in leaf_rows(t, &primary, &matrix, n) {
                let v = if den[leaf] > 1e-12 {
                    num[leaf] / den[leaf]
                } else {
                    0.0
                };
                for i in rows.iter() {
                    eta[i] += params.learning_rate * v;
                }
            }
            // Every node but the root is a rule.
            let mut stack: Vec<(usize, Vec<Literal>)> = vec![(0, Vec::new())];
            while let Some((id, path)) = stack.pop() {
                let Some(node) = t.node(id) else { continue };
                if id != 0 {
                    let conj = Conjunction::new(path.clone()).simplified();
                    let lits: Option<Vec<usize>> = conj
                        .literals
                        .iter()
                        .map(|l| {
                            index
                                .get(&(l.feature, l.op as u8, l.value.to_bits()))
                                .copied()
                        })
                        .collect();
                    // Every merged literal is a binarizer literal (thresholds
                    // come from the binarizer), so `lits` is always `Some`.
                    let mut key = lits.unwrap_or_default();
                    key.sort_unstable();
                    let mut cover = Bits::full(n);
                    key.iter().for_each(|&j| cover.and_with(matrix.bits(j)));
                    let count = cover.count();
                    if count > 0 && count < n && !key.is_empty() && seen.insert(key.clone()) {
                        columns.push(Column::Binary(cover.to_rows()));
                        kinds.push(ColumnKind::Rule(key));
                        rules.push(conj);
                    }
                }
                if let Some(split) = node.split {
                    let lit = binarizer.literals()[primary[split.feature]];
                    let mut left = path.clone();
                    left.push(lit.complement());
                    let mut right = path;
                    right.push(lit);
                    stack.push((split.right, right));
                    stack.push((split.left, left));
                }
            }
        }

        // Linear terms.
        if params.linear_terms {
            for s in binarizer.standardizers() {
                let col = data.column(s.feature);
                // (value, row) of the non-missing values, sorted by value.
                let mut present: Vec<(f64, usize)> = col
                    .iter()
                    .enumerate()
                    .filter(|(_, v)| !v.is_nan())
                    .map(|(i, &v)| (v, i))
                    .collect();
                present.sort_by(|a, b| a.0.total_cmp(&b.0));
                let vals: Vec<f64> = present.iter().map(|p| p.0).collect();
                let raw: Vec<f64> = present
                    .iter()
                    .map(|p| raw_weights.map_or(1.0, |w| w[p.1]))
                    .collect();
                let lo = weighted_quantile_sorted(&vals, &raw, params.winsor_quantile);
                let hi = weighted_quantile_sorted(&vals, &raw, 1.0 - params.winsor_quantile);
                let w: Vec<f64> = vals.iter().map(|v| v.clamp(lo, hi)).collect();
                let scaled: Option<Vec<f64>> = target
                    .weights
                    .as_ref()
                    .map(|sw| present.iter().map(|p| sw[p.1]).collect());
                let (mean, var) = mean_and_variance(&w, scaled.as_deref());
                if var <= 0.0 {
                    continue;
                }
                let term = LinearTerm {
                    feature: s.feature,
                    mean,
                    scale: params.linear_scale / var.sqrt(),
                    lower: lo,
                    upper: hi,
                };
                columns.push(Column::Dense(col.iter().map(|&x| term.value(x)).collect()));
                kinds.push(ColumnKind::Linear(term));
                rules.push(Conjunction::default());
            }
        }
        Ok(RuleEnsemble {
            target,
            columns,
            kinds,
            rules,
            missing_at_fit: (0..data.n_features())
                .map(|j| binarizer.had_missing(j))
                .collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rulecover_core::Feature;

    /// Numeric (with missing values), categorical and binary columns.
    fn mixed_data(n: usize, seed: u64) -> Dataset {
        let mut rng = Rng::new(seed);
        let rows: Vec<Vec<f64>> = (0..n)
            .map(|_| {
                let x = if rng.below(10) == 0 {
                    f64::NAN
                } else {
                    rng.next_f64() * 10.0
                };
                vec![x, rng.below(4) as f64, rng.below(2) as f64]
            })
            .collect();
        let y = (0..n).map(|_| rng.normal()).collect();
        Dataset::from_rows(
            "mixed",
            vec![
                Feature::numeric("x"),
                Feature::categorical("c", vec!["p".into(), "q".into(), "r".into(), "s".into()]),
                Feature::numeric("b"),
            ],
            &rows,
            Target::Real(y),
        )
        .unwrap()
    }

    #[test]
    fn leaf_rows_agree_with_the_tree_on_the_indicator_columns() {
        let data = mixed_data(700, 11);
        let binarizer = Binarizer::fit(&BinarizerParams::default(), &data).unwrap();
        let matrix = binarizer.transform(&data).unwrap();
        let primary = binarizer.primary_literals();
        let input = binarizer.indicator_dataset(&data).unwrap();
        for depth in 1..=4 {
            let tree = DecisionTreeParams::regressor()
                .max_depth(depth)
                .seed(depth as u64)
                .fit(&input)
                .unwrap();
            let expected = tree.apply(&input).unwrap();
            let mut got = vec![usize::MAX; data.n_rows()];
            let leaves = leaf_rows(tree.tree(), &primary, &matrix, data.n_rows());
            assert!(leaves.len() > 1, "depth {depth}: the tree did not split");
            for (leaf, rows) in leaves {
                for i in rows.iter() {
                    assert_eq!(got[i], usize::MAX, "row {i} in two leaves");
                    got[i] = leaf;
                }
            }
            assert_eq!(got, expected, "depth {depth}");
        }
    }
}
