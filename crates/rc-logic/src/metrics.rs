//! The metrics relational learning papers report: AUC-ROC, AUC-PR in two
//! flavours, and conditional log-likelihood.
//!
//! - [`auc_roc`]: the Mann–Whitney statistic (ties count one half), from
//!   [`rulecover_core::metrics::auc_roc`].
//! - [`auc_pr_davis_goadrich`]: the area under the precision–recall curve
//!   with Davis & Goadrich's (ICML 2006) interpolation, exactly as the
//!   `AUCCalculator` that BoostSRL calls (`auc.jar`): one point per
//!   distinct score, points with no true positive dropped, a point at one
//!   true positive added, *non-linear* interpolation between points (one
//!   point per extra true positive, false positives growing linearly),
//!   and the area starting with the rectangle under the first point. This
//!   is the "AUC PR" BoostSRL prints and the relational papers report.
//! - [`auc_pr_trapezoid`]: the trapezoid rule on the raw precision–recall
//!   points starting at (0, 1), as scikit-learn's `auc(recall, precision)`
//!   ([`rulecover_core::metrics::auc_pr`]); optimistic compared with the other.
//! - [`cll`]: mean log-probability of the true label, clipped at 1e-15
//!   (BoostSRL's "CLL").
//! - [`best_f1_threshold`]: the decision threshold BoostSRL's inference
//!   prints (`% Threshold = …`) and srlearn's `predict` uses.

use crate::error::Result;

/// AUC-ROC (`None` when only one class is present).
pub fn auc_roc(y: &[usize], scores: &[f64]) -> Result<Option<f64>> {
    Ok(rulecover_core::metrics::auc_roc(y, scores)?)
}

/// Trapezoid AUC-PR (`None` without positives).
pub fn auc_pr_trapezoid(y: &[usize], scores: &[f64]) -> Result<Option<f64>> {
    Ok(rulecover_core::metrics::auc_pr(y, scores)?)
}

/// Conditional log-likelihood: mean `ln p(y_i)` with `p` clipped to
/// `[1e-15, 1 − 1e-15]` (`−log_loss`).
pub fn cll(y: &[usize], proba: &[f64]) -> Result<f64> {
    let two: Vec<f64> = proba.iter().flat_map(|&p| [1.0 - p, p]).collect();
    Ok(-rulecover_core::metrics::log_loss(y, &two, 2)?)
}

/// Davis–Goadrich AUC-PR as computed by `AUCCalculator` (see the module
/// documentation); `None` without positives.
pub fn auc_pr_davis_goadrich(y: &[usize], scores: &[f64]) -> Result<Option<f64>> {
    // Validation (lengths, binary labels, finite scores) via rulecover-core.
    rulecover_core::metrics::average_precision(y, scores)?;
    let tot_pos = y.iter().filter(|&&l| l == 1).count() as f64;
    let tot_neg = y.len() as f64 - tot_pos;
    if tot_pos == 0.0 {
        return Ok(None);
    }
    // Cumulative (tp, fp) at the end of each group of equal scores, from
    // the highest score down.
    let mut order: Vec<usize> = (0..y.len()).collect();
    order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]));
    let mut points: Vec<(f64, f64)> = Vec::new();
    let (mut tp, mut fp) = (0.0, 0.0);
    for (k, &i) in order.iter().enumerate() {
        if y[i] == 1 {
            tp += 1.0;
        } else {
            fp += 1.0;
        }
        let last = order.get(k + 1).is_none_or(|&j| scores[j] != scores[i]);
        if last
            && !points
                .iter()
                .any(|&(p, n)| (p - tp).abs() <= 0.001 && (n - fp).abs() <= 0.001)
        {
            points.push((tp, fp));
        }
    }
    points.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    points.retain(|&(p, _)| p >= 0.001);
    let Some(&(p1, n1)) = points.first() else {
        return Ok(None);
    };
    let start = (1.0, n1 / p1);
    if p1 > 1.0
        && !points
            .iter()
            .any(|&(p, n)| (p - start.0).abs() <= 0.001 && (n - start.1).abs() <= 0.001)
    {
        points.insert(0, start);
    }
    if !points
        .iter()
        .any(|&(p, n)| (p - tot_pos).abs() <= 0.001 && (n - tot_neg).abs() <= 0.001)
    {
        points.push((tot_pos, tot_neg));
    }
    // Interpolation: one point per extra true positive.
    let mut interp: Vec<(f64, f64)> = Vec::with_capacity(points.len());
    for w in points.windows(2) {
        let (a, b) = (w[0], w[1]);
        interp.push(a);
        let skew = (b.1 - a.1) / (b.0 - a.0);
        let mut cur = a;
        while (b.0 - cur.0).abs() > 1.001 {
            let neg = a.1 + (cur.0 - a.0 + 1.0) * skew;
            cur = (cur.0 + 1.0, neg);
            interp.push(cur);
        }
    }
    if let Some(&last) = points.last() {
        interp.push(last);
    }
    let prec = |(p, n): (f64, f64)| if p + n > 0.0 { p / (p + n) } else { 0.0 };
    let first = interp[0];
    let mut r_prev = first.0 / tot_pos;
    let mut p_prev = prec(first);
    let mut area = r_prev * p_prev;
    for &pt in &interp[1..] {
        let r = pt.0 / tot_pos;
        let p = prec(pt);
        area += (r - r_prev) * p + 0.5 * (r - r_prev) * (p_prev - p);
        r_prev = r;
        p_prev = p;
    }
    Ok(Some(area))
}

/// The test-set scores of a probabilistic prediction.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Scores {
    /// AUC-ROC.
    pub auc_roc: Option<f64>,
    /// AUC-PR, Davis–Goadrich interpolation (BoostSRL's).
    pub auc_pr: Option<f64>,
    /// AUC-PR, trapezoid rule.
    pub auc_pr_trapezoid: Option<f64>,
    /// Conditional log-likelihood.
    pub cll: f64,
}

/// All [`Scores`] of probabilities `proba` for labels `y`.
pub fn scores(y: &[usize], proba: &[f64]) -> Result<Scores> {
    Ok(Scores {
        auc_roc: auc_roc(y, proba)?,
        auc_pr: auc_pr_davis_goadrich(y, proba)?,
        auc_pr_trapezoid: auc_pr_trapezoid(y, proba)?,
        cll: cll(y, proba)?,
    })
}

/// BoostSRL's decision threshold (`ThresholdSelector.selectBestThreshold`,
/// printed by its inference as `% Threshold = …` and used by srlearn's
/// `predict`): the examples are sorted by decreasing probability
/// (positives first among ties) and walked from the top; each time the
/// probability changes, the F1 of predicting positive every example
/// above is computed, and the best (strictly better than the ones before,
/// and than 0) gives the threshold halfway between that probability and
/// the previous one (1 at the start). Predicting every example as
/// positive is never one of the candidates. 0 when no candidate has a
/// positive F1 (no positives). An example is positive when its
/// probability is above the threshold.
///
/// BoostSRL's comparator (`(int) Math.ceil(p2 − p1)`) only orders pairs
/// whose probabilities differ by more than 0 in one direction, so its
/// "sort" mostly keeps the examples' order; this function sorts for
/// real, which gives the same threshold whenever the examples were
/// already in decreasing order (as srlearn's Toy-Cancer test set is).
pub fn best_f1_threshold(y: &[usize], proba: &[f64]) -> Result<f64> {
    // Validation (lengths, binary labels, finite scores) via rulecover-core.
    rulecover_core::metrics::average_precision(y, proba)?;
    let mut order: Vec<usize> = (0..y.len()).collect();
    order.sort_by(|&a, &b| proba[b].total_cmp(&proba[a]).then(y[b].cmp(&y[a])));
    let n_pos = y.iter().filter(|&&l| l == 1).count() as f64;
    let (mut tp, mut fp) = (0.0f64, 0.0f64);
    let (mut best, mut best_f1, mut last) = (0.0, 0.0, 1.0);
    for &i in &order {
        if proba[i] != last {
            // F1 = 2TP / (2TP + FP + FN), FN = n_pos − TP.
            let denom = tp + fp + n_pos;
            let f1 = if denom > 0.0 { 2.0 * tp / denom } else { 0.0 };
            if f1 > best_f1 {
                best = (last + proba[i]) / 2.0;
                best_f1 = f1;
            }
            last = proba[i];
        }
        if y[i] == 1 {
            tp += 1.0;
        } else {
            fp += 1.0;
        }
    }
    Ok(best)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perfect_ranking_has_unit_areas() {
        let y = [1, 1, 0, 0, 0];
        let s = [0.9, 0.8, 0.3, 0.2, 0.1];
        assert_eq!(auc_roc(&y, &s).unwrap(), Some(1.0));
        assert!((auc_pr_davis_goadrich(&y, &s).unwrap().unwrap() - 1.0).abs() < 1e-12);
        assert!((auc_pr_trapezoid(&y, &s).unwrap().unwrap() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn best_f1_threshold_is_boostsrl_midpoint() {
        // Three positives at 0.28 above a positive and two negatives at
        // 0.16: F1 6/7 at the cut between them, so the midpoint.
        let y = [1, 1, 1, 1, 0, 0];
        let p = [0.28, 0.28, 0.28, 0.16, 0.16, 0.16];
        assert!((best_f1_threshold(&y, &p).unwrap() - 0.22).abs() < 1e-12);
        // Order does not matter; ties put positives first.
        let y = [0, 1, 0, 1];
        let p = [0.2, 0.9, 0.6, 0.6];
        // Cuts: after 0.9 (F1 2/3), after 0.6 (TP 2, FP 1: F1 0.8).
        assert!((best_f1_threshold(&y, &p).unwrap() - 0.4).abs() < 1e-12);
        // No positive: no candidate, threshold 0.
        assert_eq!(best_f1_threshold(&[0, 0], &[0.3, 0.1]).unwrap(), 0.0);
        // Every example at the same probability: the only candidate is
        // "none positive" (F1 0), so 0 as well.
        assert_eq!(best_f1_threshold(&[1, 0], &[0.5, 0.5]).unwrap(), 0.0);
        assert!(best_f1_threshold(&[1], &[0.5, 0.5]).is_err());
    }

    #[test]
    fn davis_goadrich_interpolates_non_linearly() {
        // Two positives and two negatives all tied: points (2,2) only.
        // AUCCalculator: start point (1, 1) added; precision 1/2 at both;
        // area = 0.5·0.5 + (1.0−0.5)·0.5 = 0.5.
        let y = [1, 0, 1, 0];
        let s = [0.5; 4];
        assert!((auc_pr_davis_goadrich(&y, &s).unwrap().unwrap() - 0.5).abs() < 1e-12);
        // Trapezoid from (0,1) to (1, 0.5): 0.75.
        assert!((auc_pr_trapezoid(&y, &s).unwrap().unwrap() - 0.75).abs() < 1e-12);
        // A positive first, then 1 pos + 2 neg tied: points (1,0), (2,2).
        // Interpolation adds nothing (Δtp = 1); area = 0.5·1 + 0.5·0.5 + 0.5·0.5·0.5.
        let y = [1, 1, 0, 0];
        let s = [0.9, 0.5, 0.5, 0.5];
        let want = 0.5 + 0.5 * 0.5 + 0.5 * 0.5 * 0.5;
        assert!((auc_pr_davis_goadrich(&y, &s).unwrap().unwrap() - want).abs() < 1e-12);
        assert_eq!(auc_pr_davis_goadrich(&[0, 0], &[0.1, 0.2]).unwrap(), None);
        let c = cll(&[1, 0], &[0.5, 0.5]).unwrap();
        assert!((c - 0.5f64.ln()).abs() < 1e-12);
    }
}
