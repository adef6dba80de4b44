//! The pricing oracle of RCBoost and RUG: a CART tree fitted with the
//! dual-derived sample weights; its leaves are the candidate rules.

use rc_tree::DecisionTreeParams;
use rulecover_core::{Dataset, Fit, RuleSource};

use crate::oracle::{Candidates, OracleError, PricingOracle};

/// Fits `params` with the given weights at every round (the authors refit
/// the same estimator object, so the seed does not change between rounds).
#[derive(Debug, Clone)]
pub struct TreeOracle {
    /// The tree's parameters (RCBoost: Gini, tuned `max_depth`).
    pub params: DecisionTreeParams,
}

impl TreeOracle {
    /// An oracle growing trees with `params`.
    pub fn new(params: DecisionTreeParams) -> Self {
        TreeOracle { params }
    }
}

impl PricingOracle for TreeOracle {
    fn propose(
        &mut self,
        train: &Dataset,
        weights: &[f64],
        _round: usize,
    ) -> Result<Candidates, OracleError> {
        let tree = self.params.fit_weighted(train, weights)?;
        Ok(Candidates::new(
            tree.rule_pool(),
            tree.pool_coverage(train)?,
        )?)
    }
}
