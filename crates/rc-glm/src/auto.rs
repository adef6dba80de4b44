//! `lambda0 = auto`: λ0 chosen by an inner cross-validation over a
//! warm-started regularisation path, as `cv.glmnet` and R's `pre` choose
//! theirs.
//!
//! The rows are split into [`AutoLambda::folds`] stratified folds (shuffled
//! K-fold for a real target). On each fold's training rows the path
//! [`AutoLambda::path`] is fitted once, largest penalty first, each fit
//! warm-started from the one before (as [`crate::GlrmParams::fit_path`] and
//! [`crate::RuleFitParams::fit_path`]); each model is scored on the fold's
//! held-out rows by the mean deviance of its loss (log-loss for the
//! logistic model, squared error for the linear one; weighted by the
//! sample weights when given). A fold stops going down the path
//! [`PATIENCE`] points past its best score: the smallest penalties cost
//! the most and overfit. The folds run in parallel. The λ0 with the lowest
//! mean over the folds, among the points every fold reached, wins (ties to
//! the larger penalty), and the model is then fitted once on all the rows
//! at that point, so the result equals a plain fit with that λ0 pinned.
//! What was tried and scored is kept in the model
//! ([`crate::FitInfo::lambda_search`]).
//!
//! The early stop is the one approximation: a point past two that scored
//! worse than a fold's best is not tried, as a full-grid search would.
//!
//! On data too small to cross-validate (fewer than two rows of a class
//! per fold, fewer than [`MIN_ROWS`] rows) the folds drop to what the data
//! allows, down to two; below that the fixed `lambda0` and `lambda1` of the
//! parameters are used and the search says so ([`LambdaSearch::fallback`]).
//!
//! Integer sample weights equal duplicated rows only for fixed penalties:
//! a duplicated row can land in two inner folds, a weighted one in one.
use serde::{Deserialize, Serialize};

use crate::error::{invalid, Result};

pub(crate) mod search;

/// Paper 002's regularisation path of λ0, the default of
/// [`AutoLambda::path`].
pub const PAPER_PATH: [f64; 8] = [0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001, 0.0005];

/// A fold's path stops once this many points scored worse than its best
/// held-out deviance (ties do not count; the smaller penalties cost the
/// most and rarely recover).
pub const PATIENCE: usize = 2;

/// The fewest rows an inner cross-validation runs on.
pub const MIN_ROWS: usize = 10;

/// How `lambda0 = auto` searches.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AutoLambda {
    /// The values of λ0 tried, largest first (paper 002's path: 0.1 down
    /// to 0.0005).
    pub path: Vec<f64>,
    /// `Some(r)`: λ1 = r × λ0 along the path (the paper ties λ1 = 0.2 λ0);
    /// `None`: λ1 stays at the parameters' `lambda1`.
    pub lambda1_ratio: Option<f64>,
    /// Inner folds (3; fewer on small data).
    pub folds: usize,
    /// Seed of the inner folds.
    pub seed: u64,
}

impl Default for AutoLambda {
    fn default() -> Self {
        AutoLambda {
            path: PAPER_PATH.to_vec(),
            lambda1_ratio: Some(0.2),
            folds: 3,
            seed: 0,
        }
    }
}

/// What `lambda0 = auto` tried, scored and chose.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LambdaSearch {
    /// The λ0 values tried, in path order.
    pub path: Vec<f64>,
    /// The mean held-out deviance of each λ0 every fold reached, in path
    /// order (empty on a fallback).
    pub scores: Vec<f64>,
    /// The folds used (0 on a fallback).
    pub folds: usize,
    /// The λ0 chosen.
    pub lambda0: f64,
    /// The λ1 that went with it.
    pub lambda1: f64,
    /// True when the data was too small to cross-validate and the fixed
    /// penalties were used.
    pub fallback: bool,
}

impl AutoLambda {
    /// Checks the path (non-empty, finite, positive), the ratio and the
    /// number of folds.
    pub fn validate(&self) -> Result<()> {
        if self.path.is_empty() {
            return Err(invalid(
                "auto_lambda.path",
                "[]",
                "must hold at least one value",
            ));
        }
        if let Some(bad) = self.path.iter().find(|v| !(v.is_finite() && **v > 0.0)) {
            return Err(invalid(
                "auto_lambda.path",
                bad,
                "every value must be finite and > 0",
            ));
        }
        if let Some(r) = self.lambda1_ratio {
            if !(r.is_finite() && r >= 0.0) {
                return Err(invalid(
                    "auto_lambda.lambda1_ratio",
                    r,
                    "must be finite and >= 0",
                ));
            }
        }
        if self.folds < 2 {
            return Err(invalid("auto_lambda.folds", self.folds, "must be >= 2"));
        }
        Ok(())
    }

    /// The `(λ0, λ1)` pairs of the path, λ1 tied or fixed at `lambda1`.
    pub(crate) fn pairs(&self, lambda1: f64) -> Vec<(f64, f64)> {
        self.path
            .iter()
            .map(|&l0| (l0, self.lambda1_ratio.map_or(lambda1, |r| r * l0)))
            .collect()
    }
}
