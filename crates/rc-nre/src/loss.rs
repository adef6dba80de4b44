//! The losses of Eq. 1 for labels `y ∈ {−1, +1}` and a real score `f`.

use serde::{Deserialize, Serialize};

/// The per-row loss `ℓ(f, y)` minimised (averaged over a batch).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Loss {
    /// `log(1 + exp(−y f))` (default); `P(y = 1 | x) = 1 / (1 + e^{−f})`.
    #[default]
    Logistic,
    /// `max(0, 1 − y f)`; probabilities are `clamp((1 + f) / 2, 0, 1)`.
    Hinge,
    /// `(f − y)²`; probabilities are `clamp((1 + f) / 2, 0, 1)`.
    Squared,
}

impl Loss {
    /// `ℓ(f, y)`.
    #[inline]
    pub fn value(self, f: f64, y: f64) -> f64 {
        match self {
            Loss::Logistic => softplus(-y * f),
            Loss::Hinge => (1.0 - y * f).max(0.0),
            Loss::Squared => (f - y) * (f - y),
        }
    }

    /// `∂ℓ/∂f` (the hinge's subgradient is 0 at the kink).
    #[inline]
    pub fn derivative(self, f: f64, y: f64) -> f64 {
        match self {
            Loss::Logistic => -y * sigmoid(-y * f),
            Loss::Hinge => {
                if y * f < 1.0 {
                    -y
                } else {
                    0.0
                }
            }
            Loss::Squared => 2.0 * (f - y),
        }
    }

    /// The probability of class 1 (label +1) given the score `f`.
    #[inline]
    pub fn proba(self, f: f64) -> f64 {
        match self {
            Loss::Logistic => sigmoid(f),
            Loss::Hinge | Loss::Squared => ((1.0 + f) / 2.0).clamp(0.0, 1.0),
        }
    }

    /// Mean loss over rows.
    pub fn mean(self, f: &[f64], y: &[f64]) -> f64 {
        if f.is_empty() {
            return 0.0;
        }
        f.iter()
            .zip(y)
            .map(|(&f, &y)| self.value(f, y))
            .sum::<f64>()
            / f.len() as f64
    }
}

/// `log(1 + e^x)` without overflow.
#[inline]
pub(crate) fn softplus(x: f64) -> f64 {
    if x > 0.0 {
        x + (-x).exp().ln_1p()
    } else {
        x.exp().ln_1p()
    }
}

/// `1 / (1 + e^{−x})` without overflow.
#[inline]
pub(crate) fn sigmoid(x: f64) -> f64 {
    if x >= 0.0 {
        1.0 / (1.0 + (-x).exp())
    } else {
        let e = x.exp();
        e / (1.0 + e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derivatives_match_finite_differences() {
        for loss in [Loss::Logistic, Loss::Hinge, Loss::Squared] {
            for &y in &[-1.0, 1.0] {
                for &f in &[-3.1, -0.4, 0.3, 0.7, 2.5] {
                    let h = 1e-6;
                    let fd = (loss.value(f + h, y) - loss.value(f - h, y)) / (2.0 * h);
                    assert!(
                        (fd - loss.derivative(f, y)).abs() < 1e-6,
                        "{loss:?} {f} {y}"
                    );
                }
            }
        }
    }

    #[test]
    fn logistic_is_stable_and_symmetric() {
        assert!((Loss::Logistic.value(0.0, 1.0) - 2f64.ln()).abs() < 1e-15);
        assert!(Loss::Logistic.value(-800.0, 1.0).is_finite());
        assert_eq!(Loss::Logistic.value(800.0, 1.0), 0.0);
        assert!((sigmoid(2.0) + sigmoid(-2.0) - 1.0).abs() < 1e-15);
        assert_eq!(Loss::Hinge.proba(3.0), 1.0);
        assert_eq!(Loss::Squared.proba(0.0), 0.5);
    }
}
