//! Prediction by the class-count vote of seed 000's eq. (2), with the
//! authors' fallback for rows no rule fully covers, and its smoothed
//! probabilities ([`crate::proba`]).

use rulecover_core::{CoverageMatrix, Dataset, Predictions, Rule};

use crate::error::Result;
use crate::pool::RuleStats;
use crate::proba::{choose_strength, class_shares, rules_of_rows, without_row, LooRow, Smoothing};

/// Votes of a rule list for one row, and whether any rule fully covered it.
///
/// * Fully satisfied rules add their whole statistics (class counts, or
///   mean for regression).
/// * If none is fully satisfied, the row is "missed": every rule votes
///   with its statistics times `r_j` = fraction of its conditions the row
///   satisfies (the authors' code; the paper's text says "rules with the
///   largest fraction of accepted clauses"). An empty rule always covers.
fn row_votes(
    rules: &[Rule],
    stats: &[RuleStats],
    row: &[f64],
    width: usize,
    out: &mut [f64],
) -> bool {
    out.iter_mut().for_each(|v| *v = 0.0);
    let mut partial = vec![0.0; width];
    let (mut full_weight, mut part_weight) = (0.0, 0.0);
    let mut covered = false;
    for (rule, st) in rules.iter().zip(stats) {
        let n = rule.conditions.len();
        let sat = rule
            .conditions
            .iter()
            .filter(|c| c.holds(row[c.feature]))
            .count();
        let r = if n == 0 { 1.0 } else { sat as f64 / n as f64 };
        let (target, weight, scale) = if sat == n {
            covered = true;
            (&mut *out, &mut full_weight, 1.0)
        } else {
            (&mut partial[..], &mut part_weight, r)
        };
        match st {
            RuleStats::Counts(c) => {
                for (t, v) in target.iter_mut().zip(c) {
                    *t += scale * v;
                }
            }
            RuleStats::Value { mean, .. } => target[0] += scale * mean,
        }
        *weight += scale;
    }
    if !covered {
        out.copy_from_slice(&partial);
    }
    // Regression votes are averages of the rules' means.
    if let Some(RuleStats::Value { .. }) = stats.first() {
        let w = if covered { full_weight } else { part_weight };
        if w > 0.0 {
            out[0] /= w;
        }
    }
    covered
}

/// Predicts every row of `data` with the rule vote; also returns which
/// rows were missed (covered by no rule). With `smoothing`, class votes
/// become [`Smoothing::pooled`] probabilities (regression ignores it).
pub fn vote(
    rules: &[Rule],
    stats: &[RuleStats],
    n_classes: usize,
    data: &Dataset,
    smoothing: Option<&Smoothing>,
) -> (Predictions, Vec<bool>) {
    let regression = matches!(stats.first(), Some(RuleStats::Value { .. }));
    let width = if regression { 1 } else { n_classes };
    let mut row = vec![0.0; data.n_features()];
    let mut votes = vec![0.0; width];
    let mut missed = Vec::with_capacity(data.n_rows());
    let mut out = Vec::with_capacity(data.n_rows() * width);
    for i in 0..data.n_rows() {
        data.row_into(i, &mut row);
        let covered = row_votes(rules, stats, &row, width, &mut votes);
        missed.push(!covered);
        if regression {
            out.push(votes[0]);
        } else if let Some(s) = smoothing {
            let start = out.len();
            out.resize(start + width, 0.0);
            s.pooled(&votes, &mut out[start..]);
        } else {
            let total: f64 = votes.iter().sum();
            if total > 0.0 {
                out.extend(votes.iter().map(|v| v / total));
            } else {
                out.extend(std::iter::repeat_n(1.0 / width as f64, width));
            }
        }
    }
    let pred = if regression {
        Predictions::Values(out)
    } else {
        Predictions::Classes {
            n_classes,
            proba: out,
        }
    };
    (pred, missed)
}

/// The smoothing of the class-count vote for rules with training class
/// counts `stats` covering the training rows as `coverage` says (one
/// column per rule), the rows' classes `labels` (`n_classes` of them) and
/// weights `weights`; its strength chosen by leave-one-out
/// ([`crate::proba`]): each row is scored with its weight taken out of
/// each covering rule's count of its class (a row no rule covers, which
/// MIRCO's cover and RCBoost's first tree leave none of, scores the class
/// shares).
///
/// # Errors
/// [`crate::Error::Shape`] when the rows weigh nothing or the coverage
/// does not match the rules and rows.
pub fn pooled_smoothing(
    stats: &[RuleStats],
    coverage: &CoverageMatrix,
    labels: &[usize],
    weights: &[f64],
    n_classes: usize,
) -> Result<Smoothing> {
    if coverage.n_rules() != stats.len() || coverage.n_rows() != labels.len() {
        return Err(crate::Error::Shape(format!(
            "coverage is {}×{} for {} rules and {} rows",
            coverage.n_rows(),
            coverage.n_rules(),
            stats.len(),
            labels.len()
        )));
    }
    let prior = class_shares(labels, weights, n_classes)?;
    let cover = rules_of_rows(coverage);
    let counts = |j: u32| match &stats[j as usize] {
        RuleStats::Counts(c) => c.as_slice(),
        RuleStats::Value { .. } => &[],
    };
    // Each row's votes without itself, which do not depend on m.
    let mut own = vec![0.0; n_classes];
    let loo_votes: Vec<Vec<f64>> = cover
        .iter()
        .enumerate()
        .map(|(i, rules)| {
            let mut votes = vec![0.0; n_classes];
            for &j in rules {
                without_row(counts(j), labels[i], weights[i], &mut own);
                votes.iter_mut().zip(&own).for_each(|(v, c)| *v += c);
            }
            votes
        })
        .collect();
    let rows: Vec<LooRow> = cover
        .iter()
        .enumerate()
        .map(|(i, rules)| LooRow {
            row: i,
            label: labels[i],
            weight: weights[i],
            rules,
        })
        .collect();
    let mut out = vec![0.0; n_classes];
    Ok(choose_strength(prior, &rows, |s, r| {
        s.pooled(&loo_votes[r.row], &mut out);
        out[r.label]
    }))
}
