//! A rule pool labelled by training data: which training rows each rule
//! covers, and the class counts (or target mean and MSE) of those rows.

use serde::{Deserialize, Serialize};

use rulecover_core::{CoverageMatrix, Dataset, PoolRule, RuleSource};

use crate::error::{Error, Result};

/// The impurity measure of a rule's training rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Impurity {
    /// Gini: `1 − Σ_k p_k²`.
    #[default]
    Gini,
    /// Entropy in bits: `−Σ_k p_k log2 p_k`.
    Entropy,
}

impl Impurity {
    /// Impurity of unweighted class counts (0 for no rows).
    pub fn of_counts(self, counts: &[f64]) -> f64 {
        let n: f64 = counts.iter().sum();
        if n <= 0.0 {
            return 0.0;
        }
        match self {
            Impurity::Gini => 1.0 - counts.iter().map(|c| (c / n) * (c / n)).sum::<f64>(),
            Impurity::Entropy => -counts
                .iter()
                .filter(|&&c| c > 0.0)
                .map(|c| (c / n) * (c / n).log2())
                .sum::<f64>(),
        }
    }
}

/// What the training rows of one rule look like.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum RuleStats {
    /// Unweighted class counts `n_jk` (classification).
    Counts(Vec<f64>),
    /// Mean and mean squared error of the target (regression).
    Value {
        /// Mean target of the covered rows.
        mean: f64,
        /// Mean of `(y − mean)²` over the covered rows.
        mse: f64,
    },
}

/// Rules with their training coverage and statistics.
#[derive(Debug, Clone)]
pub struct LabeledPool {
    /// The rules, in the source's canonical order.
    pub rules: Vec<PoolRule>,
    /// Training rows covered by each rule.
    pub coverage: CoverageMatrix,
    /// Statistics of each rule's training rows.
    pub stats: Vec<RuleStats>,
}

impl LabeledPool {
    /// Takes the pool of `source` and routes the whole training set
    /// through it (not a bootstrap sample: seed 000 §2.3).
    pub fn from_source<S: RuleSource + ?Sized>(source: &S, train: &Dataset) -> Result<Self> {
        let rules = source.rule_pool();
        let coverage = source.pool_coverage(train)?;
        Self::new(rules, coverage, train)
    }

    /// A pool from rules and their (already computed) training coverage.
    pub fn new(rules: Vec<PoolRule>, coverage: CoverageMatrix, train: &Dataset) -> Result<Self> {
        if rules.is_empty() {
            return Err(Error::EmptyPool);
        }
        if coverage.n_rules() != rules.len() || coverage.n_rows() != train.n_rows() {
            return Err(Error::Shape(format!(
                "coverage is {}×{} but there are {} rules and {} training rows",
                coverage.n_rows(),
                coverage.n_rules(),
                rules.len(),
                train.n_rows()
            )));
        }
        let stats = (0..rules.len())
            .map(|j| rule_stats(coverage.rows_of(j), train))
            .collect();
        Ok(LabeledPool {
            rules,
            coverage,
            stats,
        })
    }

    /// Number of rules.
    pub fn len(&self) -> usize {
        self.rules.len()
    }

    /// True when the pool has no rules.
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// MIRCO's costs: `1 + impurity` of each rule's training rows
    /// (classification), or `1 + mse_scale · MSE` (regression, seed 000
    /// §S.3).
    pub fn costs(&self, impurity: Impurity, mse_scale: f64) -> Vec<f64> {
        self.stats
            .iter()
            .map(|s| match s {
                RuleStats::Counts(c) => 1.0 + impurity.of_counts(c),
                RuleStats::Value { mse, .. } => 1.0 + mse_scale * mse,
            })
            .collect()
    }

    /// Appends rules with their coverage of the same training data.
    pub fn extend(
        &mut self,
        rules: Vec<PoolRule>,
        coverage: CoverageMatrix,
        train: &Dataset,
    ) -> Result<()> {
        let more = LabeledPool::new(rules, coverage, train)?;
        self.rules.extend(more.rules);
        self.coverage.extend(more.coverage);
        self.stats.extend(more.stats);
        Ok(())
    }
}

/// Statistics of the rows `rows` of `train`.
pub fn rule_stats(rows: &[u32], train: &Dataset) -> RuleStats {
    if train.is_classification() {
        let mut counts = vec![0.0; train.n_classes()];
        for &i in rows {
            counts[train.label(i as usize)] += 1.0;
        }
        RuleStats::Counts(counts)
    } else {
        let n = rows.len().max(1) as f64;
        let mean = rows
            .iter()
            .map(|&i| train.target_value(i as usize))
            .sum::<f64>()
            / n;
        let mse = rows
            .iter()
            .map(|&i| (train.target_value(i as usize) - mean).powi(2))
            .sum::<f64>()
            / n;
        RuleStats::Value { mean, mse }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn impurities() {
        assert!((Impurity::Gini.of_counts(&[5.0, 5.0]) - 0.5).abs() < 1e-12);
        assert!((Impurity::Entropy.of_counts(&[5.0, 5.0]) - 1.0).abs() < 1e-12);
        assert_eq!(Impurity::Gini.of_counts(&[3.0, 0.0]), 0.0);
        assert_eq!(Impurity::Entropy.of_counts(&[0.0, 0.0]), 0.0);
    }
}
