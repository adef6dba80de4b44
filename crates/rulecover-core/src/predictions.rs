//! What a model predicts for a batch of rows: class probabilities or real
//! values ([`Predictions`], re-exported at the crate root), and the
//! [`argmax`] that turns probabilities into labels (also
//! `rulecover_core::metrics::argmax`).

use serde::{Deserialize, Serialize};

/// What a model predicts for a batch of rows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Predictions {
    /// Class probabilities (or normalised scores), row-major `n × k`.
    Classes {
        /// Number of classes `k`.
        n_classes: usize,
        /// `proba[i * k + c]` = probability of class `c` for row `i`.
        proba: Vec<f64>,
    },
    /// Real values, one per row.
    Values(Vec<f64>),
}

impl Predictions {
    /// Number of rows predicted.
    pub fn len(&self) -> usize {
        match self {
            Predictions::Classes { n_classes, proba } => proba.len() / (*n_classes).max(1),
            Predictions::Values(v) => v.len(),
        }
    }

    /// True when no rows were predicted.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Predicted class of each row (the most probable; ties to the lowest
    /// class), or `None` for real values.
    pub fn labels(&self) -> Option<Vec<usize>> {
        match self {
            Predictions::Classes { n_classes, proba } => {
                Some(proba.chunks(*n_classes).map(argmax).collect())
            }
            Predictions::Values(_) => None,
        }
    }

    /// Class probabilities of row `i`, or `None` for real values.
    pub fn proba_row(&self, i: usize) -> Option<&[f64]> {
        match self {
            Predictions::Classes { n_classes, proba } => {
                Some(&proba[i * n_classes..(i + 1) * n_classes])
            }
            Predictions::Values(_) => None,
        }
    }

    /// Probability of class 1 for each row of a binary problem.
    pub fn positive_proba(&self) -> Option<Vec<f64>> {
        match self {
            Predictions::Classes {
                n_classes: 2,
                proba,
            } => Some(proba.chunks(2).map(|p| p[1]).collect()),
            _ => None,
        }
    }
}

/// Index of the largest value (the first one on ties; 0 for an empty
/// slice). `NaN`s are never chosen over a number.
pub fn argmax(values: &[f64]) -> usize {
    let mut best = 0;
    for (k, &v) in values.iter().enumerate() {
        if v > values[best] || values[best].is_nan() && !v.is_nan() {
            best = k;
        }
    }
    best
}
