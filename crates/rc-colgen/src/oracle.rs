//! Pricing oracles: given sample weights derived from LP duals, propose new
//! rules. The weighted decision tree of RCBoost and RUG is one oracle;
//! others (a weighted forest, an exact pricing problem) can plug in.

use rulecover_core::{CoverageMatrix, Dataset, PoolRule};

/// Rules proposed by an oracle, with the training rows each covers.
#[derive(Debug, Clone)]
pub struct Candidates {
    /// The rules.
    pub rules: Vec<PoolRule>,
    /// Training rows covered by each rule, in the same order.
    pub coverage: CoverageMatrix,
}

/// The error type oracles return (each learner has its own).
pub type OracleError = Box<dyn std::error::Error + Send + Sync>;

/// Proposes rules for column generation.
pub trait PricingOracle {
    /// Proposes rules for `train` given one non-negative weight per row
    /// (RCBoost: 1 + accumulated duals; RUG: the hinge duals). `round` is
    /// 0 for the initial pool and counts up; an oracle may use it to
    /// derive seeds.
    fn propose(
        &mut self,
        train: &Dataset,
        weights: &[f64],
        round: usize,
    ) -> Result<Candidates, OracleError>;
}
