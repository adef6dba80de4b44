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
//!   leaves; the trees are depth-limited, so it gets
//!   `max_depth = ⌈log2 t_m⌉` (a tree of that depth has at most `2^depth`
//!   leaves; this is the one deviation from leaf-limited growth). Each is
//!   a CART regression tree on the subsample's 0/1 literal columns with
//!   the rules of rc-tree's `DecisionTreeParams::regressor()`, grown
//!   directly from per-feature histograms of the literals (`literal_tree`;
//!   rc-tree's tree bit for bit where the sums are exact, otherwise a
//!   near-tie between two literals may go the other way);
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
//! Raw columns are read natively by default ([`Encoding::Native`]: the
//! binarizer makes `==`/`!=` literals of each categorical level, as the
//! paper 002 protocol and the GLRM variants do, and the trees split on the
//! literals); [`RuleFitParams::encoding`] can one-hot encode them first,
//! which writes the same splits on 0/1 columns (longer rules that the
//! de-duplication does not merge).
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

use std::borrow::Cow;

use rulecover_core::weights::rescaled_by_power_of_two;
use rulecover_core::{CheckParams, Checked, Dataset, Encoder, Encoding, Fit, Rng};

use crate::auto::AutoLambda;
use crate::binarize::{weighted_quantile_sorted, Binarizer, BinarizerParams};
use crate::bits::Bits;
use crate::colgen::{prepare_target, training_coverage, ColumnKind};
use crate::error::{invalid, Error, Result};
use crate::glm::{self, Column, GlmProblem, GlmSettings, Loss};
use crate::literal::{Conjunction, Literal};
use crate::literal_tree::{LiteralTree, LiteralTreeGrower};
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
    /// Fixed penalty of every term (with [`RuleFitParams::auto_lambda`]
    /// set: the fallback on data too small to cross-validate).
    pub lambda0: f64,
    /// Additional penalty per literal of a rule.
    pub lambda1: f64,
    /// The binarizer whose columns the trees split on.
    pub binarizer: BinarizerParams,
    /// The GLM solver's settings (the defaults with
    /// [`GlmSettings::covariance_updates`] on).
    pub glm: GlmSettings,
    /// Seed of the subsamples and tree sizes.
    pub seed: u64,
    /// Force a loss (`None`: from the target).
    pub loss: Option<Loss>,
    /// How raw columns are encoded ([`Encoding::Native`] by default: the
    /// binarizer's `==`/`!=` literals for categorical levels).
    #[serde(default = "crate::params::native")]
    pub encoding: Encoding,
    /// What the fitted model does with a missing value at prediction time
    /// in a column that had none at fit (an error by default).
    #[serde(default)]
    pub unseen_missing: UnseenMissing,
    /// `Some`: choose λ0 (and λ1 with it) by inner cross-validation, each
    /// fold growing its own trees ([`crate::auto`]; `lambda0 = auto` in the
    /// registry); `None` (the default): the fixed `lambda0` and `lambda1`.
    #[serde(default)]
    pub auto_lambda: Option<AutoLambda>,
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
            glm: GlmSettings {
                covariance_updates: true,
                ..GlmSettings::default()
            },
            seed: 0,
            loss: None,
            encoding: Encoding::Native,
            unseen_missing: UnseenMissing::Error,
            auto_lambda: None,
        }
    }
}

impl RuleFitParams {
    /// RuleFit with the default settings.
    pub fn new() -> Self {
        Self::default()
    }

    /// Chooses λ0 by inner cross-validation ([`crate::auto`]); `None`
    /// pins the fixed `lambda0` and `lambda1`.
    pub fn auto_lambda(mut self, auto: Option<AutoLambda>) -> Self {
        self.auto_lambda = auto;
        self
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

    /// Sets the input encoding ([`Encoding::Native`] by default; with
    /// [`Encoding::OneHot`] the binarizer sees 0/1 indicators, and
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
        if let Some(auto) = &self.auto_lambda {
            auto.validate()?;
        }
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
        crate::auto::search::path_checked(self.check_inputs(data, None)?, data, None, path)
    }

    /// [`RuleFitParams::fit_path`] with one sample weight per row (see
    /// [`Fit::fit_weighted`]).
    pub fn fit_path_weighted(
        &self,
        data: &Dataset,
        weights: &[f64],
        path: &[(f64, f64)],
    ) -> Result<Vec<GlrmModel>> {
        let params = self.check_inputs(data, Some(weights))?;
        crate::auto::search::path_checked(params, data, Some(weights), path)
    }

    /// Fits the path in order, handing each model to `visit`, and stops
    /// early when `visit` returns false.
    pub(crate) fn path_until(
        params: Checked<'_, Self>,
        data: &Dataset,
        weights: Option<&[f64]>,
        path: &[(f64, f64)],
        visit: &mut dyn FnMut(GlrmModel) -> Result<bool>,
    ) -> Result<()> {
        for &(l0, l1) in path {
            check_lambdas(l0, l1)?;
        }
        let started = Instant::now();
        let (encoder, encoded) = Encoder::fit(data, params.encoding)?;
        let (data, weights) = training_rows(&encoded, weights)?;
        let data = &data;
        let ens = RuleEnsemble::build(params.get(), data, weights.as_ref())?;
        let mut warm: Option<(f64, Vec<f64>)> = None;
        for (i, &(l0, l1)) in path.iter().enumerate() {
            let first = i == 0;
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
                &params.glm,
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
            // The first model's time includes the tree ensemble's.
            let time = if first {
                started.elapsed()
            } else {
                t.elapsed()
            };
            let mut model = GlrmModel {
                loss: ens.target.loss,
                encoder: encoder.clone(),
                features: data.features().to_vec(),
                missing_at_fit: ens.missing_at_fit.clone(),
                unseen_missing: params.unseen_missing,
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
                    lambda_search: None,
                },
            };
            model.sort_terms();
            warm = Some((fit.intercept, fit.coef));
            if !visit(model)? {
                break;
            }
        }
        Ok(())
    }
}

impl crate::auto::search::PenaltyPath for RuleFitParams {
    fn path_until(
        params: Checked<'_, Self>,
        data: &Dataset,
        weights: Option<&[f64]>,
        path: &[(f64, f64)],
        visit: &mut crate::auto::search::PathVisitor<'_>,
    ) -> Result<()> {
        RuleFitParams::path_until(params, data, weights, path, visit)
    }
    fn auto_lambda(&self) -> Option<&AutoLambda> {
        self.auto_lambda.as_ref()
    }
    fn penalties(&self) -> (f64, f64) {
        (self.lambda0, self.lambda1)
    }
    fn pinned(&self, lambda0: f64, lambda1: f64) -> Self {
        RuleFitParams {
            lambda0,
            lambda1,
            auto_lambda: None,
            ..self.clone()
        }
    }
    fn lenient(&self) -> Self {
        RuleFitParams {
            unseen_missing: UnseenMissing::AsLiterals,
            ..self.clone()
        }
    }
}

/// The seed of the tree ensemble ([`RuleFitParams::seed`]), also that of
/// `lambda0 = auto`'s inner folds.
impl rulecover_core::Reseed for RuleFitParams {
    fn random_seed(&self) -> Option<u64> {
        Some(self.seed)
    }

    fn with_random_seed(&self, seed: u64) -> Self {
        let mut params = self.clone().seed(seed);
        if let Some(auto) = &mut params.auto_lambda {
            auto.seed = seed;
        }
        params
    }
}

impl CheckParams for RuleFitParams {
    type ParamError = Error;

    /// [`RuleFitParams::validate`].
    fn check_params(&self) -> Result<()> {
        self.validate()
    }
}

impl Fit for RuleFitParams {
    type Model = GlrmModel;
    type Error = Error;

    /// Encodes, grows the tree ensemble and fits the L1 model, with one
    /// sample weight per row when given (finite, `>= 0`, not all 0); see
    /// the module documentation for what the weights weight.
    fn fit_checked(
        params: Checked<'_, Self>,
        data: &Dataset,
        weights: Option<&[f64]>,
    ) -> Result<GlrmModel> {
        crate::auto::search::fit_checked(params, data, weights)
    }
}

/// The training rows of every leaf of `tree` (grown on the primary
/// literals: its feature `f` is literal `primary[f]`), as `(leaf id,
/// rows)`, from the literals' bitsets over all `n` training rows. A split
/// sends the rows outside its literal left.
fn leaf_rows(
    tree: &LiteralTree,
    primary: &[usize],
    matrix: &crate::binarize::BinaryMatrix,
    n: usize,
) -> Vec<(usize, Bits)> {
    let mut out = Vec::new();
    let mut stack = vec![(0usize, Bits::full(n))];
    while let Some((id, rows)) = stack.pop() {
        let Some(split) = tree.splits.get(id) else {
            continue;
        };
        match split {
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

/// The weights rc-tree's learners grow a tree with, from the raw weights
/// of the subsample (all 1 without weights): multiplied by the power of
/// two that brings the largest into `[2^-8, 2^8)` (no ratio changes), and
/// all 1 when that rescaling was needed and every weight is equal.
fn tree_weights(raw: Option<&[f64]>, m: usize) -> Vec<f64> {
    let Some(raw) = raw else {
        return vec![1.0; m];
    };
    match rescaled_by_power_of_two(raw) {
        Cow::Borrowed(w) => w.to_vec(),
        Cow::Owned(r) if r.iter().all(|&v| v == r[0]) => vec![1.0; m],
        Cow::Owned(r) => r,
    }
}

/// The key of each primary literal for [`LiteralTreeGrower::new`]: its
/// feature and operator, so that each feature's thresholds (nested) and
/// levels (disjoint) share the histogram bins of one group.
fn group_keys(binarizer: &Binarizer, primary: &[usize]) -> Vec<(usize, u8)> {
    primary
        .iter()
        .map(|&j| {
            let l = binarizer.literals()[j];
            (l.feature, l.op as u8)
        })
        .collect()
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
        let primary = binarizer.primary_literals();
        let n = data.n_rows();
        let literal_bits: Vec<&Bits> = primary.iter().map(|&j| matrix.bits(j)).collect();
        let keys = group_keys(&binarizer, &primary);
        let mut grower = LiteralTreeGrower::new(&literal_bits, &keys, n);
        let grow = |inbag: &[usize], resid: &[f64], depth: usize, _round: u64| {
            let raw: Option<Vec<f64>> = raw_weights.map(|w| inbag.iter().map(|&i| w[i]).collect());
            let w = tree_weights(raw.as_deref(), inbag.len());
            let unit = w.iter().all(|&v| v == 1.0);
            Ok(grower.grow(inbag, resid, &w, unit, depth))
        };
        Self::boost(
            params,
            data,
            raw_weights,
            target,
            binarizer,
            matrix,
            primary,
            grow,
        )
    }

    /// The boosting loop and the rule extraction, with `grow(inbag, resid,
    /// depth, round)` growing each round's tree on the primary literals.
    #[allow(clippy::too_many_arguments)]
    fn boost(
        params: &RuleFitParams,
        data: &Dataset,
        raw_weights: Option<&[f64]>,
        target: crate::colgen::PreparedTarget,
        binarizer: Binarizer,
        matrix: crate::binarize::BinaryMatrix,
        primary: Vec<usize>,
        mut grow: impl FnMut(&[usize], &[f64], usize, u64) -> Result<LiteralTree>,
    ) -> Result<RuleEnsemble> {
        let index: HashMap<(usize, u8, u64), usize> = binarizer
            .literals()
            .iter()
            .enumerate()
            .map(|(j, l)| ((l.feature, l.op as u8, l.value.to_bits()), j))
            .collect();
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
        let mut resid: Vec<f64> = Vec::with_capacity(n_sub);
        while total_size < params.max_rules {
            let size = 2
                + (-(1.0 - rng.next_f64()).ln() * (params.tree_size as f64 - 2.0)).floor() as usize;
            total_size += size;
            let depth = (usize::BITS - (size - 1).leading_zeros()).max(1) as usize;
            let mut inbag = rng.sample_indices(n, n_sub);
            inbag.sort_unstable();
            resid.clear();
            resid.extend(
                inbag
                    .iter()
                    .map(|&i| target.y[i] - target.loss.mean(eta[i])),
            );
            let tree = grow(&inbag, &resid, depth, m)?;
            m += 1;
            // Leaf values on the in-bag rows: Newton steps (logistic) or
            // mean residuals (squared), each summed in row order.
            let mut num = vec![0.0; tree.splits.len()];
            let mut den = vec![0.0; tree.splits.len()];
            for (leaf, rows) in tree.leaves() {
                for k in rows.iter() {
                    let i = inbag[k];
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
            }
            for (leaf, rows) in leaf_rows(&tree, &primary, &matrix, n) {
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
                let Some(split) = tree.splits.get(id) else {
                    continue;
                };
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
                if let Some(split) = split {
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
    use crate::literal_tree::Split;
    use rulecover_core::{Feature, Target};

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

    /// The tree rc-tree's regressor grows on the subsample `inbag` of the
    /// indicator columns `input` (one per primary literal) with target `y`
    /// and raw weights `raw`, as a `LiteralTree` (its leaves found with
    /// `apply`).
    fn rc_tree_tree(
        input: &Dataset,
        inbag: &[usize],
        y: &[f64],
        raw: Option<&[f64]>,
        depth: usize,
        seed: u64,
    ) -> LiteralTree {
        use rc_tree::DecisionTreeParams;
        let sub = input
            .subset(inbag)
            .unwrap()
            .with_target(Target::Real(y.to_vec()))
            .unwrap();
        let learner = DecisionTreeParams::regressor().max_depth(depth).seed(seed);
        let fitted = match raw {
            None => learner.fit(&sub).unwrap(),
            Some(w) => {
                let w: Vec<f64> = inbag.iter().map(|&i| w[i]).collect();
                learner.fit_weighted(&sub, &w).unwrap()
            }
        };
        let t = fitted.tree();
        let mut splits = vec![None; t.n_nodes()];
        for node in t.nodes() {
            splits[node.id] = node.split.map(|s| Split {
                feature: s.feature,
                left: s.left,
                right: s.right,
            });
        }
        let mut rows = vec![Bits::new(inbag.len()); t.n_nodes()];
        for (k, leaf) in fitted.apply(&sub).unwrap().into_iter().enumerate() {
            rows[leaf].insert(k);
        }
        for id in (0..t.n_nodes()).rev() {
            if let Some(s) = splits[id] {
                rows[id] = crate::bits::or(&rows[s.left], &rows[s.right]);
            }
        }
        LiteralTree { splits, rows }
    }

    /// Checks `tree` (grown on the positions of `inbag` with targets `y`,
    /// tree weights `w` and depth at most `depth`) against the CART rules,
    /// computed independently from the literals' bitsets `lits` over all
    /// training rows: nodes in preorder, each split's children are its
    /// rows outside and inside the literal, each split's literal has the
    /// best proxy `S_l²/W_l + S_r²/W_r` of all literals to within
    /// `1e-10 · Σ w y²` of the node (an upper bound of every proxy), and a
    /// leaf above the depth limit with two rows or more is pure or no
    /// literal separates its rows. Returns the number of splits checked.
    fn check_cart(
        tree: &LiteralTree,
        lits: &[Bits],
        inbag: &[usize],
        y: &[f64],
        w: &[f64],
        depth: usize,
        what: &str,
    ) -> usize {
        let m = inbag.len();
        let mut node_depth = vec![0usize; tree.splits.len()];
        let mut checked = 0;
        // (S_out, W_out, S_in, W_in, rows in, rows out) of a literal.
        let sides = |rows: &Bits, lit: &Bits| {
            let mut t = [0.0f64; 4];
            let mut counts = [0usize; 2];
            for k in rows.iter() {
                let inside = lit.contains(inbag[k]);
                let at = 2 * usize::from(inside);
                t[at] += w[k] * y[k];
                t[at + 1] += w[k];
                counts[usize::from(inside)] += 1;
            }
            (t, counts)
        };
        for (id, split) in tree.splits.iter().enumerate() {
            let rows = &tree.rows[id];
            assert!(node_depth[id] <= depth, "{what}: node {id} too deep");
            let scale: f64 = rows.iter().map(|k| w[k] * y[k] * y[k]).sum();
            let (sw, s): (f64, f64) = rows
                .iter()
                .fold((0.0, 0.0), |(a, b), k| (a + w[k], b + w[k] * y[k]));
            let impurity = scale / sw - (s / sw) * (s / sw);
            // Every literal's proxy on the node, by direct sums.
            let proxies: Vec<Option<f64>> = lits
                .iter()
                .map(|lit| {
                    let (t, counts) = sides(rows, lit);
                    (counts[0] > 0 && counts[1] > 0)
                        .then(|| t[0] * t[0] / t[1] + t[2] * t[2] / t[3])
                })
                .collect();
            let best = proxies
                .iter()
                .flatten()
                .copied()
                .fold(f64::NEG_INFINITY, f64::max);
            match split {
                Some(sp) => {
                    assert_eq!(sp.left, id + 1, "{what}: preorder");
                    for child in [sp.left, sp.right] {
                        node_depth[child] = node_depth[id] + 1;
                    }
                    let lit = &lits[sp.feature];
                    let inside: Vec<usize> =
                        rows.iter().filter(|&k| lit.contains(inbag[k])).collect();
                    let outside: Vec<usize> =
                        rows.iter().filter(|&k| !lit.contains(inbag[k])).collect();
                    assert_eq!(tree.rows[sp.right].iter().collect::<Vec<_>>(), inside);
                    assert_eq!(tree.rows[sp.left].iter().collect::<Vec<_>>(), outside);
                    let chosen = proxies[sp.feature]
                        .unwrap_or_else(|| panic!("{what}: node {id} splits on a constant"));
                    assert!(
                        chosen >= best - 1e-10 * scale,
                        "{what}: node {id} literal {} proxy {chosen}, best {best}",
                        sp.feature
                    );
                    checked += 1;
                }
                None => {
                    if node_depth[id] < depth && rows.count() >= 2 && impurity > 1e-12 {
                        assert!(
                            proxies.iter().all(Option::is_none),
                            "{what}: leaf {id} (impurity {impurity}) could split"
                        );
                    }
                }
            }
        }
        assert!(tree.rows[0].count() == m || m == 0, "{what}: root rows");
        checked
    }

    /// Targets rounded to multiples of 2⁻⁶ in `[-8, 8]`: with small
    /// integer or dyadic weights every sum of the trees is exact, in any
    /// order.
    fn dyadic(y: &[f64]) -> Vec<f64> {
        y.iter()
            .map(|v| (v * 64.0).round().clamp(-512.0, 512.0) / 64.0)
            .collect()
    }

    /// Builds the ensemble with the literal trees, checking every tree
    /// with `check_cart`; with `exact`, each tree is grown on the
    /// residuals rounded by `dyadic` and must equal rc-tree's tree on the
    /// same targets, bit for bit. Returns the ensemble and the number of
    /// splits checked.
    fn build_checked(
        params: &RuleFitParams,
        data: &Dataset,
        weights: Option<&[f64]>,
        exact: bool,
        what: &str,
    ) -> (RuleEnsemble, usize) {
        use rulecover_core::rng::derive_seed;

        let (encoder_free, weights) = training_rows(data, weights).unwrap();
        let data = &encoder_free;
        let n = data.n_rows();
        let target = prepare_target(data, params.loss, weights.as_ref()).unwrap();
        let raw_weights = weights.as_ref().map(|w| w.raw.as_slice());
        let binarizer =
            Binarizer::fit_weighted(&params.binarizer.clone().negations(true), data, raw_weights)
                .unwrap();
        let matrix = binarizer.transform(data).unwrap();
        let primary = binarizer.primary_literals();
        let lits: Vec<Bits> = primary.iter().map(|&j| matrix.bits(j).clone()).collect();
        let refs: Vec<&Bits> = lits.iter().collect();
        let keys = group_keys(&binarizer, &primary);
        let mut grower = LiteralTreeGrower::new(&refs, &keys, n);
        let input = binarizer
            .indicator_dataset(data)
            .unwrap()
            .with_target(Target::Real(vec![0.0; n]))
            .unwrap();
        let mut checked = 0;
        let grow = |inbag: &[usize], resid: &[f64], depth: usize, round: u64| {
            let y = if exact { dyadic(resid) } else { resid.to_vec() };
            let raw: Option<Vec<f64>> = raw_weights.map(|w| inbag.iter().map(|&i| w[i]).collect());
            let w = tree_weights(raw.as_deref(), inbag.len());
            let unit = w.iter().all(|&v| v == 1.0);
            let tree = grower.grow(inbag, &y, &w, unit, depth);
            let at = format!("{what}, round {round}");
            checked += check_cart(&tree, &lits, inbag, &y, &w, depth, &at);
            if exact {
                let seed = derive_seed(params.seed, round);
                let old = rc_tree_tree(&input, inbag, &y, raw_weights, depth, seed);
                assert_eq!(tree, old, "{at}: rc-tree's tree");
            }
            Ok(tree)
        };
        let ensemble = RuleEnsemble::boost(
            params,
            data,
            raw_weights,
            target,
            binarizer,
            matrix,
            primary,
            grow,
        )
        .unwrap();
        (ensemble, checked)
    }

    /// `mixed_data` with a 0/1 target depending on every column.
    fn mixed_classes(n: usize, seed: u64) -> Dataset {
        let data = mixed_data(n, seed);
        let mut rng = Rng::new(seed ^ 0x5eed);
        let labels: Vec<usize> = (0..n)
            .map(|i| {
                let x = data.column(0)[i];
                let c = data.column(1)[i];
                let b = data.column(2)[i];
                let s = if x.is_nan() { 0.3 } else { (x - 5.0) / 3.0 }
                    + if c == 1.0 { 0.8 } else { -0.2 }
                    + 0.5 * b
                    + rng.normal();
                usize::from(s > 0.0)
            })
            .collect();
        data.with_target(Target::Classes {
            labels,
            names: vec!["no".into(), "yes".into()],
        })
        .unwrap()
    }

    /// The data sets and settings of the literal-tree tests: logistic and
    /// squared loss, linear terms, 19 thresholds, the full subsample.
    fn tree_cases() -> Vec<(&'static str, Dataset, RuleFitParams)> {
        let small = RuleFitParams::new().max_rules(120);
        vec![
            ("logistic", mixed_classes(900, 3), small.clone()),
            (
                "logistic, seed 9",
                mixed_classes(1500, 4),
                small.clone().seed(9),
            ),
            ("squared", mixed_data(800, 5), small.clone().tree_size(6)),
            (
                "squared, linear terms",
                mixed_data(700, 6),
                small.clone().linear_terms(true),
            ),
            (
                "logistic, 19 thresholds, full subsample",
                mixed_classes(600, 7),
                RuleFitParams {
                    binarizer: BinarizerParams::default().n_thresholds(19),
                    ..small.clone().subsample(Some(1.0))
                },
            ),
        ]
    }

    /// The literal trees are CART regression trees on the literals: where
    /// every sum is exact in any order (targets rounded to multiples of
    /// 2⁻⁶; no weights, dyadic, integer, extreme uniform and huge
    /// weights), they are rc-tree's trees bit for bit (the same splits,
    /// tie rule, stopping rules and preorder); on the raw residuals with
    /// fractional weights, every split is the best one to within a tight
    /// tolerance of an independent brute-force computation.
    #[test]
    fn literal_trees_are_cart_trees_on_the_literals() {
        for (what, data, params) in &tree_cases() {
            let n = data.n_rows();
            let mut rng = Rng::new(17);
            let dyadic_w: Vec<f64> = (0..n).map(|_| (2 + rng.below(25)) as f64 / 8.0).collect();
            let integer: Vec<f64> = (0..n).map(|i| (1 + i % 3) as f64).collect();
            let uniform = vec![1000.0; n];
            let huge: Vec<f64> = dyadic_w.iter().map(|w| w * 1e6).collect();
            let varied: Vec<f64> = (0..n).map(|_| 0.25 + 3.0 * rng.next_f64()).collect();
            let exact_cases: [(&str, Option<&[f64]>); 5] = [
                ("no", None),
                ("dyadic", Some(&dyadic_w)),
                ("integer", Some(&integer)),
                ("uniform 1000", Some(&uniform)),
                ("huge", Some(&huge)),
            ];
            for (kind, w) in exact_cases {
                let at = format!("{what}, exact sums, {kind} weights");
                let (ensemble, checked) = build_checked(params, data, w, true, &at);
                assert!(ensemble.columns.len() > 10, "{at}: few terms");
                assert!(checked > 20, "{at}: {checked} splits");
            }
            for (kind, w) in [("no", None), ("varied", Some(&varied[..]))] {
                let at = format!("{what}, raw residuals, {kind} weights");
                let (ensemble, checked) = build_checked(params, data, w, false, &at);
                assert!(ensemble.columns.len() > 10, "{at}: few terms");
                assert!(checked > 20, "{at}: {checked} splits");
                // The production path grows the same trees.
                let (data, weights) = training_rows(data, w).unwrap();
                let built = RuleEnsemble::build(params, &data, weights.as_ref()).unwrap();
                assert_eq!(built.kinds, ensemble.kinds, "{at}: rule keys");
                assert_eq!(built.columns, ensemble.columns, "{at}: covers");
            }
        }
    }

    #[test]
    fn tree_weights_follow_rc_tree() {
        assert_eq!(tree_weights(None, 3), vec![1.0; 3]);
        // In range: as given.
        assert_eq!(tree_weights(Some(&[0.5, 2.0]), 2), vec![0.5, 2.0]);
        // Out of range: scaled by a power of two, or all 1 when uniform.
        assert_eq!(tree_weights(Some(&[1000.0, 1000.0]), 2), vec![1.0, 1.0]);
        let w = tree_weights(Some(&[1024.0, 512.0]), 2);
        assert_eq!(w[0] / w[1], 2.0);
        assert!(w[0] < 256.0);
    }
}
