//! The paper's margin-maximising rule score (Eqs. 5–8) and the split
//! criterion derived from it (Eq. 15).
//!
//! With labels `y ∈ {−1, +1}` and `S = n⁺ − n⁻`, a node's squared error
//! around its mean is `n − S²/n`, and `n · gini = n · 2p(1 − p) = (n −
//! S²/n) / 2`. Eq. 15's gain `S_l²/n_l + S_r²/n_r − S_p²/n_p` is therefore
//! exactly the decrease of the squared error on ±1 labels, i.e. twice the
//! decrease of `n · gini`: the tree of Algorithm 1 is ordinary Gini (or
//! ±1 squared-error) CART, which is what [`crate::NreParams`] grows with
//! rc-tree. The crate's tests check this against rc-tree's fitted splits.
//!
//! ```
//! use rc_nre::margin::{split_gain, gini_decrease};
//! // Parent 6+/4−, left 5+/1−, right 1+/3−.
//! let gain = split_gain((5, 1), (1, 3));
//! assert!((gain - 2.0 * gini_decrease((5, 1), (1, 3))).abs() < 1e-12);
//! ```

/// Eq. 8: the squared normalised margin `m_k² = (n⁺ − n⁻)² / n` of a rule
/// covering `n⁺` positive and `n⁻` negative rows (0 for an empty rule).
pub fn rule_margin_sq(n_pos: usize, n_neg: usize) -> f64 {
    let n = n_pos + n_neg;
    if n == 0 {
        return 0.0;
    }
    let s = n_pos as f64 - n_neg as f64;
    s * s / n as f64
}

/// Eq. 15: the gain `m_l² + m_r² − m_p²` of splitting a parent into a left
/// child with `(n⁺, n⁻) = left` and a right child with `right` (the
/// parent holds their sum). The tree maximises it.
pub fn split_gain(left: (usize, usize), right: (usize, usize)) -> f64 {
    let parent = (left.0 + right.0, left.1 + right.1);
    rule_margin_sq(left.0, left.1) + rule_margin_sq(right.0, right.1)
        - rule_margin_sq(parent.0, parent.1)
}

/// `n · gini` of a node with `n⁺` positive and `n⁻` negative rows.
pub fn weighted_gini(n_pos: usize, n_neg: usize) -> f64 {
    let n = (n_pos + n_neg) as f64;
    if n == 0.0 {
        return 0.0;
    }
    let p = n_pos as f64 / n;
    n * 2.0 * p * (1.0 - p)
}

/// The decrease of `n · gini` when a parent is split into `left` and
/// `right` (counts `(n⁺, n⁻)`); Eq. 15's gain is twice this.
pub fn gini_decrease(left: (usize, usize), right: (usize, usize)) -> f64 {
    weighted_gini(left.0 + right.0, left.1 + right.1)
        - weighted_gini(left.0, left.1)
        - weighted_gini(right.0, right.1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn margin_matches_eq8_closed_form() {
        assert_eq!(rule_margin_sq(3, 1), 1.0);
        assert_eq!(rule_margin_sq(0, 4), 4.0);
        assert_eq!(rule_margin_sq(0, 0), 0.0);
        assert_eq!(rule_margin_sq(2, 2), 0.0);
    }

    #[test]
    fn gain_is_twice_the_gini_decrease_on_a_grid() {
        for a in 0..7 {
            for b in 0..7 {
                for c in 0..7 {
                    for d in 0..7 {
                        let g = split_gain((a, b), (c, d));
                        let h = gini_decrease((a, b), (c, d));
                        assert!((g - 2.0 * h).abs() < 1e-9, "{a} {b} {c} {d}: {g} vs {h}");
                        assert!(g >= -1e-12, "a split never lowers the total margin");
                    }
                }
            }
        }
    }
}
