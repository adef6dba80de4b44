//! Pricing oracles: given sample weights derived from LP duals, propose new
//! rules. The weighted decision tree of RCBoost and RUG is one oracle;
//! others (a weighted forest, an exact pricing problem) can plug in.

use rulecover_core::{CoverageMatrix, Dataset, Error as CoreError, PoolRule};

/// Rules proposed by an oracle, with the training rows each covers: one
/// coverage column per rule, checked when built ([`Candidates::new`]).
#[derive(Debug, Clone)]
pub struct Candidates {
    rules: Vec<PoolRule>,
    coverage: CoverageMatrix,
}

impl Candidates {
    /// Candidates from rules and their coverage of the training rows the
    /// oracle was given.
    ///
    /// # Errors
    /// [`rulecover_core::Error::Shape`] when the coverage does not have
    /// exactly one column per rule.
    pub fn new(rules: Vec<PoolRule>, coverage: CoverageMatrix) -> Result<Self, CoreError> {
        if coverage.n_rules() != rules.len() {
            return Err(CoreError::Shape(format!(
                "{} candidate rules but {} coverage columns",
                rules.len(),
                coverage.n_rules()
            )));
        }
        Ok(Candidates { rules, coverage })
    }

    /// The candidates' coverage of `train`, checked to have one row per
    /// training row.
    ///
    /// # Errors
    /// [`rulecover_core::Error::Shape`] naming both row counts.
    pub fn check_rows(&self, train: &Dataset) -> Result<(), CoreError> {
        if self.coverage.n_rows() != train.n_rows() {
            return Err(CoreError::Shape(format!(
                "the candidates' coverage has {} rows but the training data have {}",
                self.coverage.n_rows(),
                train.n_rows()
            )));
        }
        Ok(())
    }

    /// The rules.
    pub fn rules(&self) -> &[PoolRule] {
        &self.rules
    }

    /// Training rows covered by each rule, in the same order.
    pub fn coverage(&self) -> &CoverageMatrix {
        &self.coverage
    }

    /// Number of candidate rules.
    pub fn len(&self) -> usize {
        self.rules.len()
    }

    /// True when there are no candidates.
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// The rules and their coverage.
    pub fn into_parts(self) -> (Vec<PoolRule>, CoverageMatrix) {
        (self.rules, self.coverage)
    }
}

/// The error type oracles return (each learner has its own).
pub type OracleError = Box<dyn std::error::Error + Send + Sync>;

/// Proposes rules for column generation.
pub trait PricingOracle {
    /// Proposes rules for `train` given one non-negative weight per row
    /// (RCBoost: sample weight + accumulated duals; RUG: the hinge duals).
    /// `round` is 0 for the initial pool (weights: the sample weights, 1
    /// without) and counts up; an oracle may use it to derive seeds.
    fn propose(
        &mut self,
        train: &Dataset,
        weights: &[f64],
        round: usize,
    ) -> Result<Candidates, OracleError>;
}

/// Asks `oracle` for candidates and checks their shape against `train`;
/// every failure is a typed error of the round.
pub(crate) fn propose_checked(
    oracle: &mut dyn PricingOracle,
    train: &Dataset,
    weights: &[f64],
    round: usize,
) -> crate::Result<Candidates> {
    let cand = oracle
        .propose(train, weights, round)
        .map_err(|e| crate::Error::Oracle {
            round,
            message: e.to_string(),
        })?;
    cand.check_rows(train)
        .map_err(|e| crate::Error::CandidateShape {
            round,
            message: e.to_string(),
        })?;
    Ok(cand)
}
