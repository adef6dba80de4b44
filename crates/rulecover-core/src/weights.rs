//! Sample weights: validation, and the power-of-two rescaling that keeps
//! extreme uniform weights from underflowing or overflowing the learners'
//! sums.

use std::borrow::Cow;

use crate::error::{Error, Result};

/// Checks that there is one finite, non-negative weight per row and that
/// they do not all vanish.
pub fn check_sample_weights(weights: &[f64], n_rows: usize) -> Result<()> {
    if weights.len() != n_rows {
        return Err(Error::Shape(format!(
            "{} sample weights for {} rows",
            weights.len(),
            n_rows
        )));
    }
    if let Some((row, w)) = weights
        .iter()
        .enumerate()
        .find(|(_, w)| !w.is_finite() || **w < 0.0)
    {
        return Err(Error::InvalidParameter {
            name: "sample_weight",
            value: w.to_string(),
            reason: format!("row {}: weights must be finite and non-negative", row + 1),
        });
    }
    if n_rows > 0 && weights.iter().all(|&w| w == 0.0) {
        return Err(Error::InvalidParameter {
            name: "sample_weight",
            value: "0".into(),
            reason: "every weight is zero".into(),
        });
    }
    Ok(())
}

/// The weights multiplied by a power of two that brings their largest
/// value into `[2^-8, 2^8)`; weights already there are returned as they
/// are.
///
/// Multiplying by a power of two is exact in floating point, so ratios of
/// weights — all a weighted learner depends on — are unchanged, while
/// sums of `1e-200`s or `1e300`s no longer underflow or overflow.
///
/// ```
/// use rulecover_core::weights::rescaled_by_power_of_two;
/// assert_eq!(rescaled_by_power_of_two(&[1.0, 2.5]).as_ref(), &[1.0, 2.5]);
/// let tiny = rescaled_by_power_of_two(&[1e-200, 3e-200]);
/// assert!(tiny[0] > 0.01 && tiny[1] == 3.0 * tiny[0]);
/// ```
pub fn rescaled_by_power_of_two(weights: &[f64]) -> Cow<'_, [f64]> {
    let max = weights.iter().copied().fold(0.0_f64, f64::max);
    if max == 0.0 || !max.is_finite() || (2f64.powi(-8)..2f64.powi(8)).contains(&max) {
        return Cow::Borrowed(weights);
    }
    let exponent = max.log2().floor() as i32;
    // Two steps so that neither factor over- or underflows.
    let half = exponent / 2;
    let a = 2f64.powi(-half);
    let b = 2f64.powi(-(exponent - half));
    Cow::Owned(weights.iter().map(|&w| w * a * b).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rescaling_is_exact_and_bounded() {
        for scale in [1e-200, 1e-12, 1e12, 1e300] {
            let w = [scale, 2.0 * scale, 0.0];
            let r = rescaled_by_power_of_two(&w);
            assert!(
                r[1] >= 2f64.powi(-8) && r[1] < 2f64.powi(8),
                "{scale}: {r:?}"
            );
            assert_eq!(r[1], 2.0 * r[0]);
            assert_eq!(r[2], 0.0);
        }
    }

    #[test]
    fn bad_weights_are_errors() {
        assert!(check_sample_weights(&[1.0], 2).is_err());
        assert!(check_sample_weights(&[1.0, -1.0], 2).is_err());
        assert!(check_sample_weights(&[1.0, f64::NAN], 2).is_err());
        assert!(check_sample_weights(&[0.0, 0.0], 2).is_err());
        assert!(check_sample_weights(&[0.0, 2.0], 2).is_ok());
    }
}
