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
    /// Class counts `n_jk` of the covered rows (classification), weighted
    /// by the sample weights when there are any.
    Counts(Vec<f64>),
    /// Mean and mean squared error of the target (regression).
    Value {
        /// Mean target of the covered rows (weighted mean with sample
        /// weights).
        mean: f64,
        /// Mean of `(y − mean)²` over the covered rows (weighted).
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
    /// Sample weight of each training row (1 without weights; see
    /// [`crate::row_weights`]).
    pub row_weights: Vec<f64>,
}

impl LabeledPool {
    /// Takes the pool of `source` and routes the whole training set
    /// through it (not a bootstrap sample: seed 000 §2.3).
    pub fn from_source<S: RuleSource + ?Sized>(source: &S, train: &Dataset) -> Result<Self> {
        Self::from_source_weighted(source, train, &vec![1.0; train.n_rows()])
    }

    /// [`LabeledPool::from_source`] with one positive sample weight per
    /// training row.
    pub fn from_source_weighted<S: RuleSource + ?Sized>(
        source: &S,
        train: &Dataset,
        row_weights: &[f64],
    ) -> Result<Self> {
        let rules = source.rule_pool();
        let coverage = source.pool_coverage(train)?;
        Self::new_weighted(rules, coverage, train, row_weights)
    }

    /// A pool from rules and their (already computed) training coverage.
    pub fn new(rules: Vec<PoolRule>, coverage: CoverageMatrix, train: &Dataset) -> Result<Self> {
        Self::new_weighted(rules, coverage, train, &vec![1.0; train.n_rows()])
    }

    /// [`LabeledPool::new`] with one positive sample weight per training
    /// row: the rules' statistics are weighted (replication semantics).
    pub fn new_weighted(
        rules: Vec<PoolRule>,
        coverage: CoverageMatrix,
        train: &Dataset,
        row_weights: &[f64],
    ) -> Result<Self> {
        if row_weights.len() != train.n_rows() {
            return Err(Error::Shape(format!(
                "{} sample weights for {} training rows",
                row_weights.len(),
                train.n_rows()
            )));
        }
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
            .map(|j| rule_stats(coverage.rows_of(j), train, row_weights))
            .collect();
        Ok(LabeledPool {
            rules,
            coverage,
            stats,
            row_weights: row_weights.to_vec(),
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

    /// Training weight covered by rule `j` (its number of rows under unit
    /// weights).
    pub fn covered_weight(&self, j: usize) -> f64 {
        crate::row_weights::weight_of(self.coverage.rows_of(j), &self.row_weights)
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
        let more = LabeledPool::new_weighted(rules, coverage, train, &self.row_weights)?;
        self.rules.extend(more.rules);
        self.coverage.extend(more.coverage);
        self.stats.extend(more.stats);
        Ok(())
    }
}

/// Statistics of the rows `rows` of `train`, each row counted with its
/// weight in `row_weights` (all 1 for the unweighted statistics).
pub fn rule_stats(rows: &[u32], train: &Dataset, row_weights: &[f64]) -> RuleStats {
    if train.is_classification() {
        let mut counts = vec![0.0; train.n_classes()];
        for &i in rows {
            counts[train.label(i as usize)] += row_weights[i as usize];
        }
        RuleStats::Counts(counts)
    } else {
        // Under unit weights these are exactly the unweighted sums (w·y = y
        // and Σ 1 = |rows|).
        let total = crate::row_weights::weight_of(rows, row_weights);
        let n = if rows.is_empty() { 1.0 } else { total };
        let mean = rows
            .iter()
            .map(|&i| row_weights[i as usize] * train.target_value(i as usize))
            .sum::<f64>()
            / n;
        let mse = rows
            .iter()
            .map(|&i| row_weights[i as usize] * (train.target_value(i as usize) - mean).powi(2))
            .sum::<f64>()
            / n;
        RuleStats::Value { mean, mse }
    }
}

/// Checks a rule's statistics read from a model file (the path of an
/// error is relative to the statistics): class counts of
/// `n_classes` finite numbers for a classifier, a finite mean and error
/// for regression.
pub fn check_stats(
    stats: &RuleStats,
    regression: bool,
    n_classes: usize,
) -> rulecover_core::validate::Validity {
    use rulecover_core::validate::{all_finite, finite, length, InvalidModel};
    match (stats, regression) {
        (RuleStats::Counts(c), false) => {
            length(|| "Counts".into(), c.len(), n_classes, "classes")?;
            all_finite("Counts", c)
        }
        (RuleStats::Value { mean, mse }, true) => {
            finite(|| "Value.mean".into(), *mean)?;
            finite(|| "Value.mse".into(), *mse)
        }
        (RuleStats::Counts(_), true) => Err(InvalidModel::new(
            "Counts",
            "class counts in a regression model",
        )),
        (RuleStats::Value { .. }, false) => Err(InvalidModel::new(
            "Value",
            "a regression value in a classifier",
        )),
    }
}

/// Checks the voting rules of a model read from a file (MIRCO's and
/// RCBoost's): the encoder holds together and has `n_classes` classes; one
/// statistic and one coverage per rule; the rules' features are the
/// encoded features; every statistic passes [`check_stats`].
pub fn check_voting_rules(
    encoder: &rulecover_core::Encoder,
    n_classes: usize,
    rules: &[rulecover_core::Rule],
    stats: &[RuleStats],
    coverage: &[usize],
    smoothing: Option<&crate::proba::Smoothing>,
) -> rulecover_core::validate::Validity {
    use rulecover_core::validate::{length, InvalidModel};
    encoder.check_with_classes("n_classes", n_classes)?;
    let regression = encoder.schema().classes().is_empty();
    let n = encoder.encoded_features().len();
    let k = rules.len();
    length(|| "stats".into(), stats.len(), k, "rules")?;
    length(|| "coverage".into(), coverage.len(), k, "rules")?;
    for (i, (rule, stats)) in rules.iter().zip(stats).enumerate() {
        rule.check(n)
            .map_err(|e| e.within(&format!("rules[{i}]")))?;
        check_stats(stats, regression, n_classes).map_err(|e| e.within(&format!("stats[{i}]")))?;
    }
    if let Some(s) = smoothing {
        s.check(n_classes)
            .map_err(|e| InvalidModel::new("smoothing", e))?;
    }
    Ok(())
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
