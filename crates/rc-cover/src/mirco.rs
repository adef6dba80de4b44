//! MIRCO (seed 000, Algorithm 1): the minimum-cost set of rules of a
//! forest that covers every training row, and prediction by their vote.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use rulecover_core::{
    Antecedent, Dataset, Feature, Outcome, Predict, Predictions, Rule, RuleModel, RuleSet,
    RuleSource, WeightedRule,
};

use crate::error::{Error, Result};
use crate::exact::exact_set_cover;
use crate::greedy::greedy_set_cover;
use crate::pool::{Impurity, LabeledPool, RuleStats};
use crate::vote::vote;

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

/// How the selected cover was obtained.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum CoverStatus {
    /// The greedy heuristic's cover.
    Greedy,
    /// A proven optimal cover.
    Optimal,
    /// The time limit stopped the MIP; the best cover found is used, with
    /// the relative gap to the best bound.
    TimeLimit {
        /// Relative gap `(cover cost − bound) / cover cost`.
        gap: f64,
    },
}

/// MIRCO parameters.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct MircoParams {
    /// Impurity in the rule cost `1 + w_j` (classification). Default Gini.
    pub impurity: Impurity,
    /// How to solve the cover. Default greedy.
    pub solver: CoverSolver,
    /// Multiplier of the leaf MSE in the regression cost `1 + s · MSE`
    /// (seed 000 §S.3 suggests tuning it). Default 1.
    pub mse_scale: f64,
}

impl Default for MircoParams {
    fn default() -> Self {
        MircoParams {
            impurity: Impurity::Gini,
            solver: CoverSolver::Greedy,
            mse_scale: 1.0,
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

    /// Checks the parameters.
    pub fn validate(&self) -> Result<()> {
        if !(self.mse_scale.is_finite() && self.mse_scale >= 0.0) {
            return Err(Error::InvalidParameter {
                name: "mse_scale",
                value: self.mse_scale.to_string(),
                reason: "must be finite and >= 0".into(),
            });
        }
        Ok(())
    }

    /// Runs MIRCO on the rules of `source` (e.g. a random forest), routing
    /// the whole training set through them.
    pub fn fit<S: RuleSource + ?Sized>(&self, source: &S, train: &Dataset) -> Result<MircoModel> {
        self.validate()?;
        let pool = LabeledPool::from_source(source, train)?;
        self.fit_pool(&pool, train)
    }

    /// Runs MIRCO on an already labelled pool (e.g. RCBoost's final pool).
    pub fn fit_pool(&self, pool: &LabeledPool, train: &Dataset) -> Result<MircoModel> {
        self.validate()?;
        if pool.is_empty() {
            return Err(Error::EmptyPool);
        }
        let costs = pool.costs(self.impurity, self.mse_scale);
        let greedy = greedy_set_cover(&pool.coverage, &costs)?;
        let (selected, status) = match self.solver {
            CoverSolver::Greedy => (greedy.selected, CoverStatus::Greedy),
            CoverSolver::Exact { time_limit } => {
                let exact = exact_set_cover(&pool.coverage, &costs, &greedy.selected, time_limit)?;
                (exact.columns, exact.status)
            }
        };
        Ok(MircoModel {
            features: train.features().to_vec(),
            class_names: train.class_names().to_vec(),
            n_classes: train.n_classes(),
            rules: selected
                .iter()
                .map(|&j| pool.rules[j].rule.clone())
                .collect(),
            stats: selected.iter().map(|&j| pool.stats[j].clone()).collect(),
            costs: selected.iter().map(|&j| costs[j]).collect(),
            pool_columns: selected,
            pool_size: pool.len(),
            status,
        })
    }
}

/// A fitted MIRCO rule set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MircoModel {
    features: Vec<Feature>,
    class_names: Vec<String>,
    n_classes: usize,
    rules: Vec<Rule>,
    stats: Vec<RuleStats>,
    costs: Vec<f64>,
    pool_columns: Vec<usize>,
    pool_size: usize,
    status: CoverStatus,
}

impl MircoModel {
    /// The selected rules, cheapest first.
    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    /// Training statistics of each selected rule (class counts `n_jk`).
    pub fn stats(&self) -> &[RuleStats] {
        &self.stats
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

    /// Predictions plus, for each row, whether no rule covered it.
    pub fn predict_with_missed(&self, data: &Dataset) -> Result<(Predictions, Vec<bool>)> {
        if data.n_features() != self.features.len() {
            return Err(Error::Shape(format!(
                "the rules use {} features but the data has {}",
                self.features.len(),
                data.n_features()
            )));
        }
        Ok(vote(&self.rules, &self.stats, self.n_classes, data))
    }

    /// Fraction of rows of `data` covered by no selected rule ("missed").
    pub fn missed_fraction(&self, data: &Dataset) -> Result<f64> {
        let (_, missed) = self.predict_with_missed(data)?;
        Ok(missed.iter().filter(|&&m| m).count() as f64 / missed.len().max(1) as f64)
    }

    /// The rules as a printable rule set (class counts as outcomes).
    fn to_rule_set(&self) -> RuleSet {
        RuleSet {
            features: self.features.clone(),
            class_names: self.class_names.clone(),
            rules: self
                .rules
                .iter()
                .zip(&self.stats)
                .map(|(r, s)| WeightedRule {
                    antecedent: Antecedent::Conjunction(r.clone()),
                    outcome: match s {
                        RuleStats::Counts(c) => Outcome::ClassCounts(c.clone()),
                        RuleStats::Value { mean, .. } => Outcome::Value(*mean),
                    },
                    weight: 1.0,
                    coverage: match s {
                        RuleStats::Counts(c) => c.iter().sum::<f64>() as usize,
                        RuleStats::Value { .. } => 0,
                    },
                })
                .collect(),
        }
    }
}

impl Predict for MircoModel {
    type Error = Error;

    fn predict(&self, data: &Dataset) -> Result<Predictions> {
        Ok(self.predict_with_missed(data)?.0)
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
