//! Class probabilities of the rule-vote models that rank and are
//! calibrated ([`RuleProba::Calibrated`]), beside the papers' votes
//! ([`RuleProba::Vote`]).
//!
//! The papers' votes say how the rules covering a row split, not how often
//! such rows have each class: a row covered by rules of one class gets
//! probability 1 there whatever the rules' purity, so log-loss is often
//! far above always predicting the base rate. Calibrated:
//!
//! * **MIRCO and RCBoost** pool their covering rules' training class
//!   counts; those counts are smoothed toward the training class shares
//!   `π` by `m` pseudo-rows (the m-estimate), `(Σ_j n_jc + m π_c) /
//!   (Σ_j n_j + m)` ([`Smoothing::pooled`]). `m` is chosen by
//!   leave-one-out on the training rows: each row is scored with its own
//!   weight taken out of every covering rule's count of its class, and the
//!   `m` of [`STRENGTHS`] with the lowest weighted log-loss wins (ties to
//!   the larger). A pure leaf of one row then scores the prior alone, so
//!   the leaves a deep tree overfits get a large `m`, the large leaves of
//!   shallow trees a small one. The predicted class rarely changes (only
//!   where the pseudo-rows tip a near tie).
//! * **RUX and RUG** keep the paper's weighted vote `v(x)` (each class's
//!   share of the covering rules' weight, probability 1 on the fallback
//!   class of a row no rule covers) as the score and map it through a
//!   softmax, `p_c ∝ exp(a v_c(x) + d_c)`, whose slope `a` and class
//!   offsets `d_c` minimise the weighted log-loss of the training rows
//!   ([`VoteCalibration`], Newton's method). With two classes this is
//!   Platt scaling of the vote: it keeps the vote's ranking (AUC) and
//!   moves the threshold to where the classes' frequencies cross, so a
//!   vote split on imbalanced data goes to the class that is more often
//!   right there. The predicted class is the most probable one.
//!
//! Rule selection is not redone without each row, and RUX's and RUG's
//! calibration reads the training rows' own vote, so both estimates are a
//! little optimistic; docs/DEFAULTS.md measures the result on held-out
//! folds.

use serde::{Deserialize, Serialize};

use rulecover_core::CoverageMatrix;

pub use rulecover_core::calibration::VoteCalibration;

use crate::error::{Error, Result};
use crate::row_weights::weighted_class_counts;

/// How a rule-vote model (MIRCO, RCBoost, RUX, RUG) turns the rules
/// covering a row into class probabilities.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum RuleProba {
    /// The paper's vote: MIRCO and RCBoost divide the covering rules'
    /// summed training class counts by their total, RUX and RUG each
    /// class's share of the covering rules' weight (seed 000 and seed 001,
    /// eq. 2). The crates' default, so that the reproduced tables keep
    /// the papers' protocol.
    #[default]
    Vote,
    /// Calibrated on the training rows: smoothed counts for MIRCO and
    /// RCBoost, a softmax of the weighted vote for RUX and RUG (the module
    /// documentation). The registry's default (`proba=calibrated`).
    Calibrated,
}

/// The smoothing strengths `m` (pseudo-rows) leave-one-out chooses from.
pub const STRENGTHS: &[f64] = &[0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0];

/// Probabilities are kept at least this far from 0 when scoring
/// log-loss (scikit-learn's `log_loss` clips likewise).
const LOG_FLOOR: f64 = 1e-15;

/// A fitted smoothing: the class shares and the chosen strength.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Smoothing {
    /// Training class shares `π` (with sample weights), one per class.
    pub prior: Vec<f64>,
    /// Pseudo-rows `m` (positive).
    pub strength: f64,
    /// Weighted mean leave-one-out log-loss of the training rows at
    /// `strength`.
    pub loo_log_loss: f64,
}

impl Smoothing {
    /// `(votes_c + m π_c) / (Σ votes + m)` into `out`: pooled class counts
    /// (or the partial votes of a row no rule fully covers) smoothed; the
    /// prior when there are no votes.
    pub fn pooled(&self, votes: &[f64], out: &mut [f64]) {
        let total: f64 = votes.iter().sum::<f64>() + self.strength;
        for ((o, v), p) in out.iter_mut().zip(votes).zip(&self.prior) {
            *o = (v + self.strength * p) / total;
        }
    }

    /// `q(c) = (n_c + m π_c) / (n + m)` of one rule's class counts.
    pub fn frequencies(&self, counts: &[f64]) -> Vec<f64> {
        let mut q = vec![0.0; self.prior.len()];
        self.pooled(counts, &mut q);
        q
    }

    /// Checks a smoothing read from a file against `n_classes` classes.
    ///
    /// # Errors
    /// A message naming the bad field.
    pub fn check(&self, n_classes: usize) -> std::result::Result<(), String> {
        if self.prior.len() != n_classes {
            return Err(format!(
                "prior has {} entries for {n_classes} classes",
                self.prior.len()
            ));
        }
        if let Some(p) = self.prior.iter().find(|p| !(p.is_finite() && **p >= 0.0)) {
            return Err(format!("prior holds {p}; shares must be finite and >= 0"));
        }
        if !(self.strength.is_finite() && self.strength > 0.0) {
            return Err(format!(
                "strength is {}; it must be finite and > 0",
                self.strength
            ));
        }
        Ok(())
    }
}

/// What leave-one-out needs of one training row.
pub struct LooRow<'a> {
    /// The row's index in the training data.
    pub row: usize,
    /// The row's class.
    pub label: usize,
    /// Its sample weight (1 without weights).
    pub weight: f64,
    /// The rules that fully cover it (their indices).
    pub rules: &'a [u32],
}

/// The class shares of rows with classes `labels` (`n_classes` of them)
/// weighted by `weights`.
///
/// # Errors
/// [`Error::Shape`] when the rows weigh nothing.
pub fn class_shares(labels: &[usize], weights: &[f64], n_classes: usize) -> Result<Vec<f64>> {
    let counts = weighted_class_counts(labels, weights, n_classes);
    let total: f64 = counts.iter().sum();
    if total <= 0.0 {
        return Err(Error::Shape(
            "no training weight to take class shares of".into(),
        ));
    }
    Ok(counts.iter().map(|c| c / total).collect())
}

/// The rules covering each of `coverage`'s rows (rule indices, in rule
/// order): the rows of each rule turned round.
pub fn rules_of_rows(coverage: &CoverageMatrix) -> Vec<Vec<u32>> {
    let mut rules = vec![Vec::new(); coverage.n_rows()];
    for j in 0..coverage.n_rules() {
        for &i in coverage.rows_of(j) {
            rules[i as usize].push(j as u32);
        }
    }
    rules
}

/// The strength of [`STRENGTHS`] with the lowest weighted leave-one-out
/// log-loss (ties to the larger), where `loo_proba(m, row)` is the
/// probability of row `row`'s own class with its weight taken out of its
/// rules' counts.
pub fn choose_strength(
    prior: Vec<f64>,
    rows: &[LooRow<'_>],
    mut loo_proba: impl FnMut(&Smoothing, &LooRow<'_>) -> f64,
) -> Smoothing {
    let total: f64 = rows
        .iter()
        .map(|r| r.weight)
        .sum::<f64>()
        .max(f64::MIN_POSITIVE);
    let mut best: Option<Smoothing> = None;
    for &strength in STRENGTHS {
        let s = Smoothing {
            prior: prior.clone(),
            strength,
            loo_log_loss: 0.0,
        };
        let loss = rows
            .iter()
            .map(|r| -r.weight * loo_proba(&s, r).clamp(LOG_FLOOR, 1.0).ln())
            .sum::<f64>()
            / total;
        if best.as_ref().is_none_or(|b| loss <= b.loo_log_loss) {
            best = Some(Smoothing {
                loo_log_loss: loss,
                ..s
            });
        }
    }
    best.expect("STRENGTHS is not empty")
}

/// `counts` with `weight` taken out of class `label` (not below 0).
pub fn without_row(counts: &[f64], label: usize, weight: f64, out: &mut [f64]) {
    out.copy_from_slice(counts);
    out[label] = (out[label] - weight).max(0.0);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn smoothing(prior: Vec<f64>, strength: f64) -> Smoothing {
        Smoothing {
            prior,
            strength,
            loo_log_loss: 0.0,
        }
    }

    #[test]
    fn pooled_counts_shrink_toward_the_prior() {
        let s = smoothing(vec![0.8, 0.2], 2.0);
        let mut out = [0.0; 2];
        s.pooled(&[0.0, 3.0], &mut out);
        // (0 + 1.6) / 5 and (3 + 0.4) / 5.
        assert!((out[0] - 0.32).abs() < 1e-12 && (out[1] - 0.68).abs() < 1e-12);
        s.pooled(&[0.0, 0.0], &mut out);
        assert_eq!(out, [0.8, 0.2]);
        assert_eq!(
            s.frequencies(&[10.0, 0.0]),
            vec![(10.0 + 1.6) / 12.0, 0.4 / 12.0]
        );
    }

    #[test]
    fn leave_one_out_prefers_strong_smoothing_for_singleton_rules() {
        // Every row alone in its own pure rule: without the row, its rule
        // is empty, so only the prior speaks and larger m cannot hurt; the
        // tie goes to the largest strength.
        let rules: Vec<Vec<u32>> = (0..10).map(|i| vec![i]).collect();
        let counts: Vec<Vec<f64>> = (0..10)
            .map(|i| {
                if i < 7 {
                    vec![1.0, 0.0]
                } else {
                    vec![0.0, 1.0]
                }
            })
            .collect();
        let rows: Vec<LooRow> = (0..10)
            .map(|i| LooRow {
                row: i,
                label: usize::from(i >= 7),
                weight: 1.0,
                rules: &rules[i],
            })
            .collect();
        let pooled = |s: &Smoothing, r: &LooRow| {
            let mut votes = vec![0.0; 2];
            let mut c = vec![0.0; 2];
            for &j in r.rules {
                without_row(&counts[j as usize], r.label, r.weight, &mut c);
                votes.iter_mut().zip(&c).for_each(|(v, x)| *v += x);
            }
            let mut out = vec![0.0; 2];
            s.pooled(&votes, &mut out);
            out[r.label]
        };
        let s = choose_strength(vec![0.7, 0.3], &rows, pooled);
        assert_eq!(s.strength, *STRENGTHS.last().unwrap());
        // The prior's log-loss: -(0.7 ln 0.7 + 0.3 ln 0.3).
        let prior_loss = -(0.7f64 * 0.7f64.ln() + 0.3 * 0.3f64.ln());
        assert!((s.loo_log_loss - prior_loss).abs() < 1e-12);
    }

    #[test]
    fn leave_one_out_prefers_weak_smoothing_for_large_pure_rules() {
        // Two pure rules of 50 rows each: the counts without the row are
        // still pure, so the smallest m scores best.
        let rules = [vec![0u32], vec![1u32]];
        let counts = [vec![50.0, 0.0], vec![0.0, 50.0]];
        let rows: Vec<LooRow> = (0..100)
            .map(|i| LooRow {
                row: i,
                label: usize::from(i >= 50),
                weight: 1.0,
                rules: &rules[usize::from(i >= 50)],
            })
            .collect();
        let s = choose_strength(vec![0.5, 0.5], &rows, |s, r| {
            let mut c = vec![0.0; 2];
            without_row(&counts[r.rules[0] as usize], r.label, r.weight, &mut c);
            s.frequencies(&c)[r.label]
        });
        assert_eq!(s.strength, STRENGTHS[0]);
    }

    #[test]
    fn checks_name_the_bad_field() {
        assert!(smoothing(vec![0.5, 0.5], 1.0).check(2).is_ok());
        assert!(smoothing(vec![0.5], 1.0)
            .check(2)
            .unwrap_err()
            .contains("prior"));
        assert!(smoothing(vec![0.5, 0.5], 0.0)
            .check(2)
            .unwrap_err()
            .contains("strength"));
        assert!(smoothing(vec![f64::NAN, 0.5], 1.0)
            .check(2)
            .unwrap_err()
            .contains("prior"));
    }
}
