//! Sample weights with replication semantics: a row of integer weight `m`
//! behaves as `m` copies of the row, a row of weight 0 as no row at all.
//!
//! Every learner of this crate (and of rc-colgen) drops the rows of weight
//! 0 first ([`without_zero_rows`], the weights checked by
//! [`rulecover_core::Fit::check_inputs`]) and then multiplies by the
//! weight whatever a copy of a row would add: class counts and target sums
//! of a rule, the greedy cover's count of newly covered rows, a row's hinge
//! loss in the rule-weighting LP.

use rulecover_core::Dataset;

use crate::error::Result;

/// `data` without its rows of weight 0, and the weights of the rows kept.
/// The weights are checked already (one per row of `data`, finite,
/// non-negative, not all 0): by [`rulecover_core::Fit::check_inputs`],
/// which every fit and every entry point taking weights calls first.
///
/// # Errors
/// Only a failure to take the rows' subset.
pub fn without_zero_rows(data: &Dataset, weights: &[f64]) -> Result<(Dataset, Vec<f64>)> {
    debug_assert_eq!(weights.len(), data.n_rows());
    if weights.iter().all(|&w| w > 0.0) {
        return Ok((data.clone(), weights.to_vec()));
    }
    let kept: Vec<usize> = (0..weights.len()).filter(|&i| weights[i] > 0.0).collect();
    let w = kept.iter().map(|&i| weights[i]).collect();
    Ok((data.subset(&kept)?, w))
}

/// Total weight of the rows `rows` (their number under unit weights).
pub fn weight_of(rows: &[u32], weights: &[f64]) -> f64 {
    rows.iter().map(|&i| weights[i as usize]).sum()
}

/// Weighted class counts of `labels` (`n_classes` entries).
pub fn weighted_class_counts(labels: &[usize], weights: &[f64], n_classes: usize) -> Vec<f64> {
    let mut counts = vec![0.0; n_classes];
    for (&l, &w) in labels.iter().zip(weights) {
        counts[l] += w;
    }
    counts
}

/// A recorded coverage: the weight of the covered rows, rounded to the
/// nearest whole number of rows (exactly the number of rows under unit or
/// integer weights).
pub fn coverage_count(weight: f64) -> usize {
    weight.round().max(0.0) as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use rulecover_core::{Feature, Target};

    #[test]
    fn zero_weight_rows_are_dropped() {
        let d = Dataset::new(
            "d",
            vec![Feature::numeric("x")],
            vec![vec![1.0, 2.0, 3.0]],
            Target::Classes {
                labels: vec![0, 1, 0],
                names: vec!["a".into(), "b".into()],
            },
        )
        .unwrap();
        let (kept, w) = without_zero_rows(&d, &[2.0, 0.0, 1.5]).unwrap();
        assert_eq!(kept.column(0).to_vec(), vec![1.0, 3.0]);
        assert_eq!(w, vec![2.0, 1.5]);
        let (all, w) = without_zero_rows(&d, &[1.0, 2.0, 1.0]).unwrap();
        assert_eq!(all.n_rows(), 3);
        assert_eq!(w, vec![1.0, 2.0, 1.0]);
        assert_eq!(
            weighted_class_counts(&[0, 1, 0], &[2.0, 1.0, 1.5], 2),
            vec![3.5, 1.0]
        );
    }
}
