//! Selecting rules from a given, already fitted ensemble.

use rulecover_core::Dataset;

use crate::error::Result;

/// Rule selection from a given fitted rule source (a forest, a boosted
/// ensemble): MIRCO and RUX implement it for every
/// [`rulecover_core::RuleSource`] that is also [`rulecover_core::Fitted`].
///
/// The model takes the source's encoder (`source.encoder().clone()`), so
/// it reads new data exactly as the ensemble does; the training data are
/// encoded with it before the rules' coverage is computed. To fit the
/// ensemble and select in one step, use the learner's
/// [`rulecover_core::Fit`] implementation instead.
pub trait SelectFrom<S: ?Sized> {
    /// The fitted rule model.
    type Model;

    /// Selects rules of `source` with the training data `data` (raw or
    /// already encoded columns, matched by name).
    fn fit_from(&self, source: &S, data: &Dataset) -> Result<Self::Model>;

    /// [`SelectFrom::fit_from`] with one non-negative sample weight per row
    /// of `data`, with replication semantics (see [`crate::row_weights`]).
    fn fit_from_weighted(&self, source: &S, data: &Dataset, weights: &[f64])
        -> Result<Self::Model>;
}
