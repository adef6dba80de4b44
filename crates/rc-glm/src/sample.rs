//! Sample weights as the learners use them.
//!
//! Replication semantics: an integer weight acts as that many copies of
//! the row. Rows of weight 0 are therefore removed before anything else
//! sees them (zero copies), so they neither count as distinct values or
//! missing values in the binarizer nor as training coverage.

use rulecover_core::weights::rescaled_by_power_of_two;
use rulecover_core::Dataset;

use crate::error::Result;

/// The positive weights of the training rows kept.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SampleWeights {
    /// As given: quantiles depend on their scale (a weight is a number of
    /// copies).
    pub raw: Vec<f64>,
    /// Multiplied by a power of two into `[2^-8, 2^8)` (exact, so every
    /// ratio is unchanged): the weighted means of the loss, the target and
    /// the linear terms, safe from under- and overflow.
    pub scaled: Vec<f64>,
}

/// The rows of `data` of positive weight with their weights (`data`
/// itself and `None` without weights); the weights are checked already
/// ([`rulecover_core::Fit::check_inputs`]).
pub(crate) fn training_rows(
    data: &Dataset,
    weights: Option<&[f64]>,
) -> Result<(Dataset, Option<SampleWeights>)> {
    let Some(weights) = weights else {
        return Ok((data.clone(), None));
    };
    debug_assert_eq!(weights.len(), data.n_rows());
    let keep: Vec<usize> = (0..weights.len()).filter(|&i| weights[i] > 0.0).collect();
    let (rows, raw) = if keep.len() == weights.len() {
        (data.clone(), weights.to_vec())
    } else {
        (
            data.subset(&keep)?,
            keep.iter().map(|&i| weights[i]).collect(),
        )
    };
    let scaled = rescaled_by_power_of_two(&raw).into_owned();
    Ok((rows, Some(SampleWeights { raw, scaled })))
}

/// The weighted mean and population variance of `values` (weights `None`:
/// all 1), written so that unit weights give the unweighted results bit
/// for bit.
pub(crate) fn mean_and_variance(values: &[f64], weights: Option<&[f64]>) -> (f64, f64) {
    let w = |i: usize| weights.map_or(1.0, |w| w[i]);
    let total: f64 = match weights {
        None => values.len() as f64,
        Some(w) => w.iter().sum(),
    };
    let mean = values
        .iter()
        .enumerate()
        .map(|(i, v)| w(i) * v)
        .sum::<f64>()
        / total;
    let var = values
        .iter()
        .enumerate()
        .map(|(i, v)| w(i) * (v - mean).powi(2))
        .sum::<f64>()
        / total;
    (mean, var)
}
