//! MIRCO (seed 000, Algorithm 1): the minimum-cost set of rules of a
//! forest that covers every training row, and prediction by their vote.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use rc_tree::{RandomForestParams, RandomStream};
use rulecover_core::{
    Antecedent, CheckParams, Checked, Dataset, Encoder, Encoding, Feature, Fit, Fitted, Outcome,
    Predict, Predictions, Rule, RuleModel, RuleSet, RuleSource, WeightedRule,
};

use crate::error::{Error, Result};
use crate::exact::{exact_set_cover, CoverStatus};
use crate::greedy::greedy_set_cover_weighted;
use crate::input::{check_no_missing, encoded};
use crate::pool::{Impurity, LabeledPool, RuleStats};
use crate::proba::{RuleProba, Smoothing};
use crate::row_weights::{coverage_count, without_zero_rows};
use crate::select::SelectFrom;
use crate::vote::{pooled_smoothing, vote};

/// How model (1), the weighted set cover, is solved.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum CoverSolver {
    /// Chvátal's greedy with redundancy removal (all results of the paper).
    Greedy,
    /// The binary IP through rc-lp's default MIP solver, started from the
    /// greedy cover, with a time limit (the authors' `'opt'` mode).
    Exact {
        /// Wall-clock limit for the MIP solve.
        time_limit: Duration,
    },
}

/// MIRCO parameters: the rule selection, and the random forest it selects
/// from when fitted as an estimator ([`Fit`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MircoParams {
    /// Impurity in the rule cost `1 + w_j` (classification). Default Gini.
    pub impurity: Impurity,
    /// How to solve the cover. Default greedy.
    pub solver: CoverSolver,
    /// Multiplier of the leaf MSE in the regression cost `1 + s · MSE`
    /// (seed 000 §S.3 suggests tuning it). Default 1.
    pub mse_scale: f64,
    /// The forest fitted by [`Fit::fit`] before the selection (not used by
    /// [`SelectFrom::fit_from`]). Default: seed 000's forest,
    /// scikit-learn's `RandomForestClassifier(max_depth=10,
    /// n_estimators=100)` with scikit-learn's random streams (the paper
    /// tunes depth over {5, 10, 20} and size over {10, 50, 100}).
    pub forest: RandomForestParams,
    /// Class probabilities: the paper's count vote (the default) or
    /// smoothed rule frequencies ([`RuleProba`]; classification only). A
    /// parameter file without this field reads as the vote.
    #[serde(default)]
    pub proba: RuleProba,
}

impl Default for MircoParams {
    fn default() -> Self {
        MircoParams {
            impurity: Impurity::Gini,
            solver: CoverSolver::Greedy,
            mse_scale: 1.0,
            forest: RandomForestParams::classifier()
                .max_depth(10)
                .n_estimators(100)
                .random_stream(RandomStream::Sklearn),
            proba: RuleProba::Vote,
        }
    }
}

impl MircoParams {
    /// Sets the impurity measure.
    pub fn impurity(mut self, impurity: Impurity) -> Self {
        self.impurity = impurity;
        self
    }

    /// Sets the cover solver.
    pub fn solver(mut self, solver: CoverSolver) -> Self {
        self.solver = solver;
        self
    }

    /// Sets the regression MSE multiplier.
    pub fn mse_scale(mut self, scale: f64) -> Self {
        self.mse_scale = scale;
        self
    }

    /// Sets the forest fitted by [`Fit::fit`].
    pub fn forest(mut self, forest: RandomForestParams) -> Self {
        self.forest = forest;
        self
    }

    /// Sets how class probabilities are formed.
    pub fn proba(mut self, proba: RuleProba) -> Self {
        self.proba = proba;
        self
    }

    /// Checks the parameters.
    pub fn validate(&self) -> Result<()> {
        if !(self.mse_scale.is_finite() && self.mse_scale >= 0.0) {
            return Err(Error::InvalidParameter {
                name: "mse_scale",
                value: self.mse_scale.to_string(),
                reason: "must be finite and >= 0".into(),
            });
        }
        if let CoverSolver::Exact { time_limit } = self.solver {
            if time_limit.is_zero() {
                return Err(Error::InvalidParameter {
                    name: "solver.time_limit",
                    value: "0 s".into(),
                    reason: "the exact cover needs a positive time limit".into(),
                });
            }
        }
        Ok(())
    }

    /// Runs MIRCO on the rules of a source without an encoder (e.g. rules
    /// written by hand): the rules index the columns of `train` as they
    /// are, and the model reads new data by those columns' names.
    pub fn select<S: RuleSource + ?Sized>(
        &self,
        source: &S,
        train: &Dataset,
    ) -> Result<MircoModel> {
        let params = Checked::new(self)?;
        let (encoder, train) = Encoder::fit(train, Encoding::Native)?;
        check_no_missing(&train)?;
        let pool = LabeledPool::from_source(source, &train)?;
        Self::cover(params, &pool, &train, encoder)
    }

    /// Runs MIRCO on an already labelled pool whose rules index the columns
    /// of `train` as they are.
    pub fn fit_pool(&self, pool: &LabeledPool, train: &Dataset) -> Result<MircoModel> {
        let (encoder, train) = Encoder::fit(train, Encoding::Native)?;
        self.fit_pool_encoded(pool, &train, encoder)
    }

    /// Runs MIRCO on an already labelled pool (e.g. RCBoost's final pool)
    /// of the encoded training data `train`, storing `encoder` (the one
    /// that encoded `train`) in the model. The pool's row weights are the
    /// sample weights.
    pub fn fit_pool_encoded(
        &self,
        pool: &LabeledPool,
        train: &Dataset,
        encoder: Encoder,
    ) -> Result<MircoModel> {
        Self::cover(Checked::new(self)?, pool, train, encoder)
    }

    /// [`MircoParams::fit_pool_encoded`] with checked parameters.
    fn cover(
        params: Checked<'_, Self>,
        pool: &LabeledPool,
        train: &Dataset,
        encoder: Encoder,
    ) -> Result<MircoModel> {
        if pool.is_empty() {
            return Err(Error::EmptyPool);
        }
        let costs = pool.costs(params.impurity, params.mse_scale);
        let greedy = greedy_set_cover_weighted(&pool.coverage, &costs, &pool.row_weights)?;
        let (selected, status) = match params.solver {
            CoverSolver::Greedy => (greedy.selected, CoverStatus::Greedy),
            CoverSolver::Exact { time_limit } => {
                let exact = exact_set_cover(&pool.coverage, &costs, &greedy.selected, time_limit)?;
                (exact.columns, exact.status)
            }
        };
        let rules: Vec<Rule> = selected
            .iter()
            .map(|&j| pool.rules[j].rule.clone())
            .collect();
        let stats: Vec<RuleStats> = selected.iter().map(|&j| pool.stats[j].clone()).collect();
        let smoothing = match params.proba {
            RuleProba::Calibrated if train.is_classification() => Some(pooled_smoothing(
                &stats,
                &pool.coverage.select(&selected),
                &train.labels()?,
                &pool.row_weights,
                train.n_classes(),
            )?),
            _ => None,
        };
        Ok(MircoModel {
            encoder,
            n_classes: train.n_classes(),
            rules,
            stats,
            coverage: selected
                .iter()
                .map(|&j| coverage_count(pool.covered_weight(j)))
                .collect(),
            costs: selected.iter().map(|&j| costs[j]).collect(),
            pool_columns: selected,
            pool_size: pool.len(),
            status,
            smoothing,
        })
    }
}

impl<S: RuleSource + Fitted + ?Sized> SelectFrom<S> for MircoParams {
    type Model = MircoModel;

    /// Runs MIRCO on the rules of `source` (e.g. a random forest), routing
    /// the whole training set, encoded by the source's encoder, through
    /// them.
    fn fit_from(&self, source: &S, data: &Dataset) -> Result<MircoModel> {
        Self::select_from(Checked::new(self)?, source, data, &vec![1.0; data.n_rows()])
    }

    /// Rows of weight 0 are left out (they need not be covered); the rules'
    /// class counts (or target means and MSEs) are weighted, and the greedy
    /// counts a row of weight `m` as `m` rows.
    fn fit_from_weighted(&self, source: &S, data: &Dataset, weights: &[f64]) -> Result<MircoModel> {
        let params = self.check_inputs(data, Some(weights))?;
        Self::select_from(params, source, data, weights)
    }
}

impl MircoParams {
    /// MIRCO on the rules of a fitted `source` with checked parameters and
    /// checked weights (one per row of `data`).
    fn select_from<S: RuleSource + Fitted + ?Sized>(
        params: Checked<'_, Self>,
        source: &S,
        data: &Dataset,
        weights: &[f64],
    ) -> Result<MircoModel> {
        let encoder = source.encoder().clone();
        let train = encoded(&encoder, data)?;
        let (train, weights) = without_zero_rows(&train, weights)?;
        let pool = LabeledPool::from_source_weighted(source, &train, &weights)?;
        Self::cover(params, &pool, &train, encoder)
    }
}

impl CheckParams for MircoParams {
    type ParamError = Error;

    /// [`MircoParams::validate`] (the forest's parameters are checked when
    /// it is fitted).
    fn check_params(&self) -> Result<()> {
        self.validate()
    }
}

impl Fit for MircoParams {
    type Model = MircoModel;
    type Error = Error;

    /// Fits [`MircoParams::forest`] to `data`, with the weights when given,
    /// then selects its rules with the same weights
    /// ([`SelectFrom::fit_from_weighted`]; unit weights when none).
    fn fit_checked(
        params: Checked<'_, Self>,
        data: &Dataset,
        weights: Option<&[f64]>,
    ) -> Result<MircoModel> {
        let forest = RandomForestParams::fit_checked(Checked::new(&params.forest)?, data, weights)?;
        match weights {
            Some(w) => Self::select_from(params, &forest, data, w),
            None => Self::select_from(params, &forest, data, &vec![1.0; data.n_rows()]),
        }
    }
}

/// A fitted MIRCO rule set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MircoModel {
    encoder: Encoder,
    n_classes: usize,
    rules: Vec<Rule>,
    stats: Vec<RuleStats>,
    /// Training rows (total weight) each rule covers.
    coverage: Vec<usize>,
    costs: Vec<f64>,
    pool_columns: Vec<usize>,
    pool_size: usize,
    status: CoverStatus,
    /// The smoothing of [`RuleProba::Calibrated`] (none: the vote; a model
    /// file without it reads as the vote).
    #[serde(default)]
    smoothing: Option<Smoothing>,
}

impl MircoModel {
    /// The selected rules, cheapest first.
    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    /// The encoded features the rules index.
    pub fn features(&self) -> &[Feature] {
        self.encoder.encoded_features()
    }

    /// Training statistics of each selected rule (class counts `n_jk`,
    /// weighted with sample weights).
    pub fn stats(&self) -> &[RuleStats] {
        &self.stats
    }

    /// Training rows each selected rule covers (their total weight, rounded,
    /// with sample weights).
    pub fn coverage(&self) -> &[usize] {
        &self.coverage
    }

    /// Cost `1 + w_j` of each selected rule.
    pub fn costs(&self) -> &[f64] {
        &self.costs
    }

    /// Indices of the selected rules in the pool.
    pub fn pool_columns(&self) -> &[usize] {
        &self.pool_columns
    }

    /// Size of the pool the rules were chosen from (the forest's leaves).
    pub fn pool_size(&self) -> usize {
        self.pool_size
    }

    /// How the cover was obtained.
    pub fn status(&self) -> CoverStatus {
        self.status
    }

    /// The smoothing of the class probabilities, if fitted with
    /// [`RuleProba::Calibrated`].
    pub fn smoothing(&self) -> Option<&Smoothing> {
        self.smoothing.as_ref()
    }

    /// Predictions plus, for each row, whether no rule covered it.
    ///
    /// # Errors
    /// The alignment errors of [`Encoder::transform`] and
    /// [`Error::MissingValue`] for a `NaN`.
    pub fn predict_with_missed(&self, data: &Dataset) -> Result<(Predictions, Vec<bool>)> {
        let data = encoded(&self.encoder, data)?;
        Ok(vote(
            &self.rules,
            &self.stats,
            self.n_classes,
            &data,
            self.smoothing.as_ref(),
        ))
    }

    /// Fraction of rows of `data` covered by no selected rule ("missed").
    pub fn missed_fraction(&self, data: &Dataset) -> Result<f64> {
        let (_, missed) = self.predict_with_missed(data)?;
        Ok(missed.iter().filter(|&&m| m).count() as f64 / missed.len().max(1) as f64)
    }

    /// The rules as a printable rule set (class counts as outcomes).
    fn to_rule_set(&self) -> RuleSet {
        RuleSet {
            features: self.features().to_vec(),
            class_names: self.encoder.schema().classes().to_vec(),
            rules: self
                .rules
                .iter()
                .zip(&self.stats)
                .zip(&self.coverage)
                .map(|((r, s), &coverage)| WeightedRule {
                    antecedent: Antecedent::Conjunction(r.clone()),
                    outcome: match s {
                        RuleStats::Counts(c) => Outcome::ClassCounts(c.clone()),
                        RuleStats::Value { mean, .. } => Outcome::Value(*mean),
                    },
                    weight: 1.0,
                    coverage,
                    for_class: None,
                })
                .collect(),
        }
    }
}

impl Fitted for MircoModel {
    fn encoder(&self) -> &Encoder {
        &self.encoder
    }
}

impl Predict for MircoModel {
    type Error = Error;

    /// Classification: `proba` is the normalised class-count vote of seed
    /// 000's eq. (2): the training class counts of every selected rule the
    /// row satisfies, summed and divided by their total. A row no rule
    /// covers ("missed") gets every rule's counts times the fraction of
    /// its conditions the row satisfies (uniform when that is zero too).
    /// Fitted with [`RuleProba::Calibrated`], the summed counts are smoothed
    /// toward the class shares ([`Smoothing::pooled`]; the shares when
    /// there are no votes).
    /// Regression: the mean of the covering rules' training means.
    fn predict(&self, data: &Dataset) -> Result<Predictions> {
        Ok(self.predict_with_missed(data)?.0)
    }
}

impl rulecover_core::scoring::Export for MircoModel {
    /// The vote `predict` takes ([`crate::export::vote_output`]).
    fn export(
        &self,
        program: &mut rulecover_core::scoring::ProgramBuilder,
    ) -> std::result::Result<rulecover_core::scoring::Output, rulecover_core::scoring::ExportError>
    {
        crate::export::vote_output(
            program,
            &self.encoder,
            &self.rules,
            &self.stats,
            self.n_classes,
            self.smoothing.as_ref(),
        )
    }
}

impl RuleModel for MircoModel {
    fn n_rules(&self) -> usize {
        self.rules.len()
    }

    fn rule_lengths(&self) -> Vec<usize> {
        self.rules.iter().map(Rule::len).collect()
    }

    fn render_rules(&self) -> String {
        self.to_rule_set().to_string()
    }

    fn rule_set(&self) -> RuleSet {
        self.to_rule_set()
    }
}

impl rulecover_core::Validate for MircoModel {
    /// The encoder holds together and has `n_classes` classes; one
    /// statistic and one coverage per rule; the rules' features are the
    /// encoded features; every statistic is class counts of `n_classes`
    /// finite numbers (a finite mean and error for regression).
    fn validate(&self) -> rulecover_core::validate::Validity {
        crate::pool::check_voting_rules(
            &self.encoder,
            self.n_classes,
            &self.rules,
            &self.stats,
            &self.coverage,
            self.smoothing.as_ref(),
        )
    }
}
