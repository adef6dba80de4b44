//! A softmax over a model's class scores fitted to its training rows:
//! `p_c ∝ exp(a s_c + d_c)` ([`VoteCalibration`]), the calibration of the
//! rule-vote learners' weighted votes (`rc_cover::proba`). With two
//! classes it is Platt scaling of the score: the ranking is kept and the
//! threshold moves to where the classes' frequencies cross.
//!
//! Fitted on the training rows' own scores, it suits scores that do not
//! fit those rows much better than new ones (the weighted vote of
//! shallow rules). It was tried on the one-vs-rest models' normalised
//! probabilities (in log space) and dropped: on the small multi-class
//! sets of the shared data their training probabilities are
//! overconfident, and the calibration raised held-out log-loss (RuleFit
//! 0.385 → 0.476, NRE 0.612 → 0.813, means over seeds, wine, glass and
//! ecoli).

use serde::{Deserialize, Serialize};

use crate::scoring::{Expr, ProgramBuilder};

/// Probabilities are kept at least this far from 0 when scoring
/// log-loss (scikit-learn's `log_loss` clips likewise).
const LOG_FLOOR: f64 = 1e-15;

/// Bound on the calibration's slope and offsets: keeps `exp` finite in
/// every runtime a model is exported to (a vote lies in `[0, 1]`).
const CALIBRATION_BOUND: f64 = 50.0;

/// Ridge on the slope (a unit Gaussian prior): keeps it finite when the
/// training rows' vote separates the classes.
const SLOPE_RIDGE: f64 = 1.0;

/// A softmax of class scores `v` (each in `[0, 1]`: a vote's shares or
/// normalised probabilities), `p_c ∝ exp(slope · v_c + offsets[c])`,
/// fitted to the training rows ([`VoteCalibration::fit`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VoteCalibration {
    /// Slope `a` of the vote.
    pub slope: f64,
    /// Offset `d_c` of each class (`d_0 = 0`).
    pub offsets: Vec<f64>,
    /// Weighted mean log-loss of the training rows after calibration.
    pub train_log_loss: f64,
}

impl VoteCalibration {
    /// The calibrated probabilities of one row's vote `v` into `out`.
    pub fn apply(&self, vote: &[f64], out: &mut [f64]) {
        let mut total = 0.0;
        for ((o, v), d) in out.iter_mut().zip(vote).zip(&self.offsets) {
            *o = (self.slope * v + d).exp();
            total += *o;
        }
        out.iter_mut().for_each(|o| *o /= total);
    }

    /// [`VoteCalibration::apply`] as program expressions over the class
    /// scores `scores`: `exp(a v_c + d_c)`, each over their sum, from the
    /// same numbers in the same order.
    pub fn export(&self, program: &mut ProgramBuilder, scores: Vec<Expr>) -> Vec<Expr> {
        let exps: Vec<Expr> = scores
            .into_iter()
            .zip(&self.offsets)
            .map(|(v, d)| program.bind((Expr::Const(self.slope) * v + Expr::Const(*d)).exp()))
            .collect();
        let total = program.bind(Expr::sum(exps.iter().cloned()));
        exps.into_iter().map(|e| e / total.clone()).collect()
    }

    /// Fits slope and offsets by Newton's method to the votes `votes` (`k`
    /// per row, row-major) of rows with classes `labels` and weights
    /// `weights`, minimising their weighted log-loss plus `a² / 2`, with
    /// every parameter kept within ±50.
    pub fn fit(votes: &[f64], labels: &[usize], weights: &[f64], k: usize) -> VoteCalibration {
        let dim = k.max(1);
        let mut theta = vec![0.0; dim];
        // Start from the class shares: d_c = ln(π_c / π_0).
        let mut shares = vec![0.0; k];
        for (&y, &w) in labels.iter().zip(weights) {
            shares[y] += w;
        }
        if shares[0] > 0.0 {
            for c in 1..k {
                if shares[c] > 0.0 {
                    theta[c] = (shares[c] / shares[0])
                        .ln()
                        .clamp(-CALIBRATION_BOUND, CALIBRATION_BOUND);
                }
            }
        }
        let total_weight: f64 = weights.iter().sum::<f64>().max(f64::MIN_POSITIVE);
        let loss = |theta: &[f64]| {
            let cal = VoteCalibration::from_theta(theta, k);
            let mut p = vec![0.0; k];
            let mut sum = 0.5 * SLOPE_RIDGE * theta[0] * theta[0];
            for (i, (&y, &w)) in labels.iter().zip(weights).enumerate() {
                cal.apply(&votes[i * k..(i + 1) * k], &mut p);
                sum -= w * p[y].max(LOG_FLOOR).ln();
            }
            sum
        };
        let mut current = loss(&theta);
        for _ in 0..100 {
            let (grad, hess) = Self::derivatives(&theta, votes, labels, weights, k);
            let Some(step) = solve(hess, grad) else { break };
            let mut t = 1.0;
            let mut improved = false;
            while t > 1e-8 {
                let next: Vec<f64> = theta
                    .iter()
                    .zip(&step)
                    .map(|(x, s)| (x - t * s).clamp(-CALIBRATION_BOUND, CALIBRATION_BOUND))
                    .collect();
                let l = loss(&next);
                if l < current {
                    theta = next;
                    current = l;
                    improved = true;
                    break;
                }
                t *= 0.5;
            }
            let size = step.iter().map(|s| (t * s).abs()).fold(0.0, f64::max);
            if !improved || size < 1e-10 {
                break;
            }
        }
        let mut cal = VoteCalibration::from_theta(&theta, k);
        cal.train_log_loss = (current - 0.5 * SLOPE_RIDGE * theta[0] * theta[0]) / total_weight;
        cal
    }

    /// The calibration of parameters `[a, d_1, …, d_{k−1}]`.
    fn from_theta(theta: &[f64], k: usize) -> VoteCalibration {
        let mut offsets = vec![0.0; k];
        offsets[1..].copy_from_slice(&theta[1..k]);
        VoteCalibration {
            slope: theta[0],
            offsets,
            train_log_loss: 0.0,
        }
    }

    /// Gradient and Hessian of the penalised loss in `[a, d_1, …]`: per
    /// row `J^T (p − e_y)` and `J^T (diag p − p pᵀ) J`, `J` the derivative
    /// of the scores (`∂z_c/∂a = v_c`, `∂z_c/∂d_c = 1` for `c ≥ 1`).
    fn derivatives(
        theta: &[f64],
        votes: &[f64],
        labels: &[usize],
        weights: &[f64],
        k: usize,
    ) -> (Vec<f64>, Vec<Vec<f64>>) {
        let cal = VoteCalibration::from_theta(theta, k);
        let mut grad = vec![0.0; k];
        let mut hess = vec![vec![0.0; k]; k];
        let mut p = vec![0.0; k];
        // Column j of J for score c: j = 0 → v_c; j = c ≥ 1 → 1.
        let jac = |v: &[f64], c: usize, j: usize| -> f64 {
            if j == 0 {
                v[c]
            } else if j == c {
                1.0
            } else {
                0.0
            }
        };
        let mut jp = vec![0.0; k];
        for (i, (&y, &w)) in labels.iter().zip(weights).enumerate() {
            let v = &votes[i * k..(i + 1) * k];
            cal.apply(v, &mut p);
            // (J^T p)_j, then per (j, l): (J^T diag(p) J)_{jl} − (J^T p)_j (J^T p)_l.
            for (j, out) in jp.iter_mut().enumerate() {
                *out = p.iter().enumerate().map(|(c, pc)| pc * jac(v, c, j)).sum();
            }
            for (j, (g, row)) in grad.iter_mut().zip(hess.iter_mut()).enumerate() {
                *g += w * (jp[j] - jac(v, y, j));
                for (l, h) in row.iter_mut().enumerate() {
                    let diag: f64 = p
                        .iter()
                        .enumerate()
                        .map(|(c, pc)| pc * jac(v, c, j) * jac(v, c, l))
                        .sum();
                    *h += w * (diag - jp[j] * jp[l]);
                }
            }
        }
        grad[0] += SLOPE_RIDGE * theta[0];
        hess[0][0] += SLOPE_RIDGE;
        for (j, row) in hess.iter_mut().enumerate() {
            row[j] += 1e-9;
        }
        (grad, hess)
    }

    /// Checks a calibration read from a file against `n_classes` classes.
    ///
    /// # Errors
    /// A message naming the bad field.
    pub fn check(&self, n_classes: usize) -> std::result::Result<(), String> {
        if self.offsets.len() != n_classes {
            return Err(format!(
                "offsets has {} entries for {n_classes} classes",
                self.offsets.len()
            ));
        }
        let within = |x: f64| x.is_finite() && x.abs() <= CALIBRATION_BOUND;
        if !within(self.slope) {
            return Err(format!("slope is {}; it must lie within ±50", self.slope));
        }
        if let Some(d) = self.offsets.iter().find(|d| !within(**d)) {
            return Err(format!("offsets holds {d}; offsets must lie within ±50"));
        }
        Ok(())
    }
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting; `None`
/// when `a` is singular.
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-300 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        let (top, rest) = a.split_at_mut(col + 1);
        let pivot_row = &top[col];
        for (offset, r) in rest.iter_mut().enumerate() {
            let f = r[col] / pivot_row[col];
            for (x, p) in r[col..].iter_mut().zip(&pivot_row[col..]) {
                *x -= f * p;
            }
            b[col + 1 + offset] -= f * b[col];
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let s: f64 = (row + 1..n).map(|c| a[row][c] * x[c]).sum();
        x[row] = (b[row] - s) / a[row][row];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vote_calibration_moves_the_threshold_to_where_the_classes_cross() {
        // Binary votes: v1 = 0.6 on 100 rows of which 20 are class 1, and
        // v1 = 1.0 on 20 rows of class 1. The vote says class 1 at 0.6;
        // calibrated, those rows are mostly class 0.
        let mut votes = Vec::new();
        let mut labels = Vec::new();
        for i in 0..100 {
            votes.extend([0.4, 0.6]);
            labels.push(usize::from(i < 20));
        }
        votes.extend([0.0, 1.0].repeat(20));
        labels.extend([1].repeat(20));
        let weights = vec![1.0; labels.len()];
        let cal = VoteCalibration::fit(&votes, &labels, &weights, 2);
        let mut p = [0.0; 2];
        cal.apply(&[0.4, 0.6], &mut p);
        // Class 0 now (the vote said 1); near the rows' 20 % (a two-
        // parameter sigmoid also has to reach the pure rows at v1 = 1).
        assert!(p[1] > 0.1 && p[1] < 0.3, "{p:?}");
        cal.apply(&[0.0, 1.0], &mut p);
        assert!(p[1] > 0.75, "{p:?}");
        assert!(cal.check(2).is_ok());
        // The loss is the calibrated training log-loss, below the prior's.
        let prior = 40.0 / 120.0;
        let prior_loss = -(prior * f64::ln(prior) + (1.0 - prior) * f64::ln(1.0 - prior));
        assert!(cal.train_log_loss < prior_loss);
    }

    #[test]
    fn vote_calibration_stays_bounded_on_separable_votes() {
        let votes = [1.0, 0.0, 0.0, 1.0];
        let cal = VoteCalibration::fit(&votes, &[0, 1], &[1.0, 1.0], 2);
        assert!(cal.slope.is_finite() && cal.slope.abs() <= 50.0);
        assert!(cal.check(2).is_ok());
        let mut p = [0.0; 2];
        cal.apply(&[1.0, 0.0], &mut p);
        assert!(p[0] > 0.5);
    }
}
