//! Impurity measures on weighted class counts and weighted sums, written
//! with scikit-learn's formulas so that split choices agree with it.

/// `np.finfo(np.float64).eps`: scikit-learn's tolerance for "pure" nodes
/// and for `min_impurity_decrease`.
pub(crate) const EPSILON: f64 = f64::EPSILON;

/// Two float32 values closer than this are treated as equal (no split
/// between them), as scikit-learn's `FEATURE_THRESHOLD`.
pub(crate) const FEATURE_THRESHOLD: f64 = 1e-7;

/// Gini impurity `1 − Σ (c_k / w)²` of weighted class counts with total
/// weight `w` (0 for an empty node).
#[inline]
pub(crate) fn gini(counts: &[f64], w: f64) -> f64 {
    if w <= 0.0 {
        return 0.0;
    }
    let sq: f64 = counts.iter().map(|c| c * c).sum();
    1.0 - sq / (w * w)
}

/// Entropy `−Σ p_k log2 p_k` of weighted class counts with total weight
/// `w` (0 for an empty node).
#[inline]
pub(crate) fn entropy(counts: &[f64], w: f64) -> f64 {
    if w <= 0.0 {
        return 0.0;
    }
    let mut h = 0.0;
    for &c in counts {
        let p = c / w;
        if p > 0.0 {
            h -= p * p.log2();
        }
    }
    h
}

/// Weighted variance `Σ w y² / W − (Σ w y / W)²` (0 for an empty node).
#[inline]
pub(crate) fn mse(sum: f64, sq_sum: f64, w: f64) -> f64 {
    if w <= 0.0 {
        return 0.0;
    }
    let mean = sum / w;
    sq_sum / w - mean * mean
}

/// Impurity of class counts under a classification criterion.
#[inline]
pub(crate) fn class_impurity(entropy_criterion: bool, counts: &[f64], w: f64) -> f64 {
    if entropy_criterion {
        entropy(counts, w)
    } else {
        gini(counts, w)
    }
}

/// scikit-learn's impurity improvement of a split:
/// `W_node/W_total · (imp − W_r/W_node · imp_r − W_l/W_node · imp_l)`.
#[inline]
pub(crate) fn impurity_improvement(
    w_total: f64,
    w_node: f64,
    impurity: f64,
    w_left: f64,
    imp_left: f64,
    w_right: f64,
    imp_right: f64,
) -> f64 {
    (w_node / w_total) * (impurity - (w_right / w_node) * imp_right - (w_left / w_node) * imp_left)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn impurities_of_known_distributions() {
        assert_eq!(gini(&[5.0, 5.0], 10.0), 0.5);
        assert_eq!(gini(&[4.0, 0.0], 4.0), 0.0);
        assert_eq!(entropy(&[2.0, 2.0], 4.0), 1.0);
        assert_eq!(entropy(&[3.0, 0.0], 3.0), 0.0);
        assert_eq!(entropy(&[1.0, 1.0, 1.0, 1.0], 4.0), 2.0);
        // y = 1, 2, 3 (unit weights): variance 2/3.
        assert!((mse(6.0, 14.0, 3.0) - 2.0 / 3.0).abs() < 1e-15);
        assert_eq!(gini(&[], 0.0), 0.0);
    }
}
