//! Evaluation metrics for classifiers and regressors, following the
//! definitions of scikit-learn (which the papers used) unless noted.
//!
//! * Label metrics: [`accuracy`], [`balanced_accuracy`],
//!   [`confusion_matrix`].
//! * Probability metrics: [`brier`], [`log_loss`].
//! * Ranking metrics of a binary problem (scores for class 1):
//!   [`auc_roc`], [`average_precision`], [`auc_pr`].
//! * Regression metrics: [`mse`], [`r2`].
//! * [`midranks`]: ranks with ties sharing their mean rank (the AUC's,
//!   and the rank tests' of xtask).
//! * [`Summary`] aggregates a metric over folds or repetitions, and
//!   [`evaluate`] computes every applicable metric of a [`Predictions`]
//!   batch into a [`Metrics`] record.
//!
//! Every function checks its inputs (equal lengths, labels in range, finite
//! scores) and returns an [`Error`] rather than panicking.
//!
//! ```
//! use rulecover_core::metrics::{auc_roc, average_precision};
//! let y = [0, 0, 1, 1];
//! let s = [0.1, 0.4, 0.35, 0.8];
//! assert_eq!(auc_roc(&y, &s)?, Some(0.75));
//! assert!((average_precision(&y, &s)?.unwrap() - 0.8333333333).abs() < 1e-9);
//! # Ok::<(), rulecover_core::Error>(())
//! ```

use serde::{Deserialize, Serialize};

use crate::dataset::Target;
use crate::error::{Error, Result};
pub use crate::predictions::argmax;
use crate::predictions::Predictions;

/// 1-based ranks of `values` in ascending order, tied values sharing the
/// mean of the ranks they span (midranks), as `scipy.stats.rankdata`.
/// Values should be finite; `NaN`s would be ranked last.
pub fn midranks(values: &[f64]) -> Vec<f64> {
    let n = values.len();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut ranks = vec![0.0; n];
    let mut start = 0;
    while start < n {
        let mut end = start + 1;
        while end < n && values[order[end]] == values[order[start]] {
            end += 1;
        }
        // Positions start..end hold ranks start+1..=end.
        let rank = (start + 1 + end) as f64 / 2.0;
        for &i in &order[start..end] {
            ranks[i] = rank;
        }
        start = end;
    }
    ranks
}

/// Probabilities are clipped to `[LOG_LOSS_EPS, 1 - LOG_LOSS_EPS]` by
/// [`log_loss`].
pub const LOG_LOSS_EPS: f64 = 1e-15;

fn check_same_len(what: &str, a: usize, b: usize) -> Result<()> {
    if a != b {
        return Err(Error::Shape(format!(
            "{what}: {a} true values but {b} predictions"
        )));
    }
    Ok(())
}

fn check_nonempty(what: &str, n: usize) -> Result<()> {
    if n == 0 {
        return Err(Error::Shape(format!("{what}: no rows to evaluate")));
    }
    Ok(())
}

fn check_finite(what: &'static str, values: &[f64]) -> Result<()> {
    if let Some((i, v)) = values.iter().enumerate().find(|(_, v)| !v.is_finite()) {
        return Err(Error::InvalidParameter {
            name: what,
            value: v.to_string(),
            reason: format!("value at row {} is not finite", i + 1),
        });
    }
    Ok(())
}

fn check_binary(y: &[usize]) -> Result<()> {
    if let Some((i, l)) = y.iter().enumerate().find(|(_, l)| **l > 1) {
        return Err(Error::InvalidParameter {
            name: "y_true",
            value: l.to_string(),
            reason: format!(
                "binary ranking metrics need labels 0 and 1; row {} has another",
                i + 1
            ),
        });
    }
    Ok(())
}

/// Checks labels and a row-major probability matrix; returns the row count.
fn check_proba(what: &str, y: &[usize], proba: &[f64], n_classes: usize) -> Result<usize> {
    if n_classes == 0 {
        return Err(Error::InvalidParameter {
            name: "n_classes",
            value: "0".into(),
            reason: "at least one class is needed".into(),
        });
    }
    if proba.len() != y.len() * n_classes {
        return Err(Error::Shape(format!(
            "{what}: {} labels and {} classes need {} probabilities, got {}",
            y.len(),
            n_classes,
            y.len() * n_classes,
            proba.len()
        )));
    }
    check_nonempty(what, y.len())?;
    if let Some((i, l)) = y.iter().enumerate().find(|(_, l)| **l >= n_classes) {
        return Err(Error::Shape(format!(
            "{what}: label {l} at row {} but only {n_classes} classes",
            i + 1
        )));
    }
    check_finite("proba", proba)?;
    Ok(y.len())
}

/// Fraction of rows whose predicted label equals the true label.
pub fn accuracy(y_true: &[usize], y_pred: &[usize]) -> Result<f64> {
    check_same_len("accuracy", y_true.len(), y_pred.len())?;
    check_nonempty("accuracy", y_true.len())?;
    let hits = y_true.iter().zip(y_pred).filter(|(a, b)| a == b).count();
    Ok(hits as f64 / y_true.len() as f64)
}

/// Confusion matrix `m[true][predicted]` over `n_classes` classes.
pub fn confusion_matrix(
    y_true: &[usize],
    y_pred: &[usize],
    n_classes: usize,
) -> Result<Vec<Vec<usize>>> {
    check_same_len("confusion_matrix", y_true.len(), y_pred.len())?;
    let mut m = vec![vec![0usize; n_classes]; n_classes];
    for (i, (&t, &p)) in y_true.iter().zip(y_pred).enumerate() {
        if t >= n_classes || p >= n_classes {
            return Err(Error::Shape(format!(
                "confusion_matrix: row {} has true label {t} and prediction {p} but only {n_classes} classes",
                i + 1
            )));
        }
        m[t][p] += 1;
    }
    Ok(m)
}

/// Mean over classes of the recall (rows of the class predicted as the
/// class), as scikit-learn's `balanced_accuracy_score` (without
/// adjustment): classes that do not occur in `y_true` are left out of the
/// mean.
pub fn balanced_accuracy(y_true: &[usize], y_pred: &[usize]) -> Result<f64> {
    check_same_len("balanced_accuracy", y_true.len(), y_pred.len())?;
    check_nonempty("balanced_accuracy", y_true.len())?;
    // class → (rows, correctly predicted rows)
    let mut per_class = std::collections::BTreeMap::<usize, (usize, usize)>::new();
    for (&t, &p) in y_true.iter().zip(y_pred) {
        let e = per_class.entry(t).or_default();
        e.0 += 1;
        e.1 += usize::from(t == p);
    }
    let present = per_class.len();
    let sum: f64 = per_class
        .values()
        .map(|&(total, hit)| hit as f64 / total as f64)
        .sum();
    Ok(sum / present as f64)
}

/// Brier score of row-major class probabilities (`proba[i * n_classes +
/// c]`).
///
/// * Binary (`n_classes == 2`): mean of `(p(y = 1) − y)²`, the definition
///   scikit-learn's `brier_score_loss` and the GLRM paper use (0 = perfect,
///   0.25 = always ½).
/// * Otherwise: mean over rows of `Σ_c (p_c − [y = c])²` (Brier's original
///   multi-class score, between 0 and 2). For two classes this would be
///   twice the binary score.
pub fn brier(y: &[usize], proba: &[f64], n_classes: usize) -> Result<f64> {
    let n = check_proba("brier", y, proba, n_classes)?;
    let total: f64 = if n_classes == 2 {
        y.iter()
            .zip(proba.chunks(2))
            .map(|(&l, p)| (p[1] - l as f64).powi(2))
            .sum()
    } else {
        y.iter()
            .zip(proba.chunks(n_classes))
            .map(|(&l, p)| {
                p.iter()
                    .enumerate()
                    .map(|(c, &pc)| (pc - f64::from(u8::from(c == l))).powi(2))
                    .sum::<f64>()
            })
            .sum()
    };
    Ok(total / n as f64)
}

/// Mean negative log-likelihood of the true class, `−mean ln p(y_i)`, with
/// probabilities clipped to `[1e-15, 1 − 1e-15]` ([`LOG_LOSS_EPS`]) so a
/// confident mistake costs about 34.5 rather than infinity. Rows are not
/// renormalised after clipping.
pub fn log_loss(y: &[usize], proba: &[f64], n_classes: usize) -> Result<f64> {
    let n = check_proba("log_loss", y, proba, n_classes)?;
    let total: f64 = y
        .iter()
        .zip(proba.chunks(n_classes))
        .map(|(&l, p)| -p[l].clamp(LOG_LOSS_EPS, 1.0 - LOG_LOSS_EPS).ln())
        .sum();
    Ok(total / n as f64)
}

/// Area under the ROC curve of a binary problem: `y` holds labels 0/1 and
/// `scores` the score (e.g. probability) of class 1.
///
/// Computed as the Mann–Whitney statistic with midranks, so tied scores
/// count one half (the same value as scikit-learn's `roc_auc_score`).
/// Returns `Ok(None)` when only one class is present (the AUC is
/// undefined).
pub fn auc_roc(y: &[usize], scores: &[f64]) -> Result<Option<f64>> {
    check_same_len("auc_roc", y.len(), scores.len())?;
    check_binary(y)?;
    check_finite("scores", scores)?;
    let n_pos = y.iter().filter(|&&l| l == 1).count();
    let n_neg = y.len() - n_pos;
    if n_pos == 0 || n_neg == 0 {
        return Ok(None);
    }
    let ranks = midranks(scores);
    let rank_sum: f64 = ranks
        .iter()
        .zip(y)
        .filter(|(_, &l)| l == 1)
        .map(|(r, _)| r)
        .sum();
    let u = rank_sum - (n_pos * (n_pos + 1)) as f64 / 2.0;
    Ok(Some(u / (n_pos as f64 * n_neg as f64)))
}

/// The precision–recall points of a binary problem, one per distinct score
/// from the highest down: `(recall, precision)` after admitting every row
/// scoring at least that threshold. Assumes at least one positive.
fn pr_points(y: &[usize], scores: &[f64]) -> Vec<(f64, f64)> {
    let n_pos = y.iter().filter(|&&l| l == 1).count() as f64;
    let mut order: Vec<usize> = (0..y.len()).collect();
    order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]));
    let mut points = Vec::new();
    let (mut tp, mut fp) = (0usize, 0usize);
    for (pos, &i) in order.iter().enumerate() {
        if y[i] == 1 {
            tp += 1;
        } else {
            fp += 1;
        }
        let last_of_group = order
            .get(pos + 1)
            .is_none_or(|&next| scores[next] != scores[i]);
        if last_of_group {
            points.push((tp as f64 / n_pos, tp as f64 / (tp + fp) as f64));
        }
    }
    points
}

fn check_ranking_input(what: &str, y: &[usize], scores: &[f64]) -> Result<bool> {
    check_same_len(what, y.len(), scores.len())?;
    check_binary(y)?;
    check_finite("scores", scores)?;
    Ok(y.contains(&1))
}

/// Average precision of a binary problem, as scikit-learn's
/// `average_precision_score`: `Σ_n (R_n − R_{n−1}) P_n` over the distinct
/// score thresholds from the highest down (a step function, no
/// interpolation). Returns `Ok(None)` when there is no positive row
/// (recall is undefined).
pub fn average_precision(y: &[usize], scores: &[f64]) -> Result<Option<f64>> {
    if !check_ranking_input("average_precision", y, scores)? {
        return Ok(None);
    }
    let mut prev_recall = 0.0;
    let mut ap = 0.0;
    for (r, p) in pr_points(y, scores) {
        ap += (r - prev_recall) * p;
        prev_recall = r;
    }
    Ok(Some(ap))
}

/// Area under the precision–recall curve by the trapezoidal rule, as
/// scikit-learn's `auc(recall, precision)` on the output of
/// `precision_recall_curve`: the curve starts at `(recall 0, precision 1)`
/// and visits one point per distinct score threshold. This linear
/// interpolation is optimistic compared with [`average_precision`].
/// Returns `Ok(None)` when there is no positive row.
pub fn auc_pr(y: &[usize], scores: &[f64]) -> Result<Option<f64>> {
    if !check_ranking_input("auc_pr", y, scores)? {
        return Ok(None);
    }
    let (mut r0, mut p0) = (0.0, 1.0);
    let mut area = 0.0;
    for (r, p) in pr_points(y, scores) {
        area += (r - r0) * (p + p0) / 2.0;
        (r0, p0) = (r, p);
    }
    Ok(Some(area))
}

/// Mean squared error.
pub fn mse(y_true: &[f64], y_pred: &[f64]) -> Result<f64> {
    check_same_len("mse", y_true.len(), y_pred.len())?;
    check_nonempty("mse", y_true.len())?;
    let s: f64 = y_true
        .iter()
        .zip(y_pred)
        .map(|(a, b)| (a - b).powi(2))
        .sum();
    Ok(s / y_true.len() as f64)
}

/// Coefficient of determination `1 − SS_res / SS_tot`, as scikit-learn's
/// `r2_score`. When `y_true` is constant (`SS_tot = 0`) the result is 1 for
/// a perfect prediction and 0 otherwise (scikit-learn's
/// `force_finite=True`).
pub fn r2(y_true: &[f64], y_pred: &[f64]) -> Result<f64> {
    check_same_len("r2", y_true.len(), y_pred.len())?;
    check_nonempty("r2", y_true.len())?;
    let mean = y_true.iter().sum::<f64>() / y_true.len() as f64;
    let ss_tot: f64 = y_true.iter().map(|y| (y - mean).powi(2)).sum();
    let ss_res: f64 = y_true
        .iter()
        .zip(y_pred)
        .map(|(a, b)| (a - b).powi(2))
        .sum();
    Ok(if ss_tot == 0.0 {
        if ss_res == 0.0 {
            1.0
        } else {
            0.0
        }
    } else {
        1.0 - ss_res / ss_tot
    })
}

/// Mean, spread and count of a metric over folds or repetitions.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Arithmetic mean (0 for no values).
    pub mean: f64,
    /// Sample standard deviation (`ddof = 1`); 0 for fewer than two values.
    pub std: f64,
    /// Standard error of the mean, `std / √n`; 0 for fewer than two values.
    pub stderr: f64,
    /// Number of values.
    pub n: usize,
}

impl Summary {
    /// Summarises `values`. A `NaN` among them makes the mean and spread
    /// `NaN`.
    pub fn new(values: &[f64]) -> Summary {
        let n = values.len();
        if n == 0 {
            return Summary {
                mean: 0.0,
                std: 0.0,
                stderr: 0.0,
                n,
            };
        }
        let mean = values.iter().sum::<f64>() / n as f64;
        if n == 1 {
            return Summary {
                mean,
                std: 0.0,
                stderr: 0.0,
                n,
            };
        }
        let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
        let std = var.sqrt();
        Summary {
            mean,
            std,
            stderr: std / (n as f64).sqrt(),
            n,
        }
    }
}

/// Every metric that applies to one batch of predictions; `None` where a
/// metric does not apply (e.g. `r2` of a classifier) or is undefined (e.g.
/// `auc_roc` when the rows hold one class).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Metrics {
    /// Fraction of correct labels (classification).
    pub accuracy: Option<f64>,
    /// Mean per-class recall (classification).
    pub balanced_accuracy: Option<f64>,
    /// Brier score, see [`brier`] (classification).
    pub brier: Option<f64>,
    /// Log loss, see [`log_loss`] (classification).
    pub log_loss: Option<f64>,
    /// ROC AUC: binary, or macro one-vs-rest for more classes.
    pub auc_roc: Option<f64>,
    /// Trapezoidal PR AUC ([`auc_pr`]): binary, or macro one-vs-rest.
    pub auc_pr: Option<f64>,
    /// Average precision: binary, or macro one-vs-rest.
    pub average_precision: Option<f64>,
    /// Mean squared error (regression).
    pub mse: Option<f64>,
    /// Coefficient of determination (regression).
    pub r2: Option<f64>,
}

/// Macro average of a binary ranking metric over the one-vs-rest problems
/// of a multi-class batch; classes whose problem is undefined (the class is
/// absent, or is every row) are left out.
fn macro_ovr(
    y: &[usize],
    proba: &[f64],
    n_classes: usize,
    metric: fn(&[usize], &[f64]) -> Result<Option<f64>>,
) -> Result<Option<f64>> {
    let mut values = Vec::new();
    for c in 0..n_classes {
        let yc: Vec<usize> = y.iter().map(|&l| usize::from(l == c)).collect();
        let sc: Vec<f64> = proba.chunks(n_classes).map(|p| p[c]).collect();
        if !yc.contains(&0) {
            continue;
        }
        if let Some(v) = metric(&yc, &sc)? {
            values.push(v);
        }
    }
    Ok((!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64))
}

/// Computes every applicable metric of `pred` against `target` (the target
/// of the rows predicted, e.g. `test.target_view()`).
///
/// * Class target and class probabilities: labels are the most probable
///   class ([`Predictions::labels`]); accuracy, balanced accuracy, Brier
///   score and log loss always; for two classes the ranking metrics use
///   the probability of class 1; for more classes they are the macro
///   average of the one-vs-rest problems (scores = probability of the
///   class), over the classes for which the problem is defined.
/// * Real target and real predictions: `mse` and `r2`.
///
/// Any other combination, a different row count or a different number of
/// classes is an error.
pub fn evaluate(target: &Target, pred: &Predictions) -> Result<Metrics> {
    let Some(n) = target.len() else {
        return Err(Error::TargetKind(
            "evaluate: the data has no target to compare with".into(),
        ));
    };
    check_same_len("evaluate", n, pred.len())?;
    match (target, pred) {
        (Target::Classes { labels, names }, Predictions::Classes { n_classes, proba }) => {
            let k = *n_classes;
            if k != names.len() {
                return Err(Error::Shape(format!(
                    "evaluate: predictions have {k} classes but the target has {}",
                    names.len()
                )));
            }
            check_proba("evaluate", labels, proba, k)?;
            let y_pred: Vec<usize> = proba.chunks(k).map(argmax).collect();
            let mut m = Metrics {
                accuracy: Some(accuracy(labels, &y_pred)?),
                balanced_accuracy: Some(balanced_accuracy(labels, &y_pred)?),
                brier: Some(brier(labels, proba, k)?),
                log_loss: Some(log_loss(labels, proba, k)?),
                ..Metrics::default()
            };
            if k == 2 {
                let p1: Vec<f64> = proba.chunks(2).map(|p| p[1]).collect();
                m.auc_roc = auc_roc(labels, &p1)?;
                m.auc_pr = auc_pr(labels, &p1)?;
                m.average_precision = average_precision(labels, &p1)?;
            } else {
                m.auc_roc = macro_ovr(labels, proba, k, auc_roc)?;
                m.auc_pr = macro_ovr(labels, proba, k, auc_pr)?;
                m.average_precision = macro_ovr(labels, proba, k, average_precision)?;
            }
            Ok(m)
        }
        (Target::Real(y), Predictions::Values(p)) => {
            check_finite("predictions", p)?;
            Ok(Metrics {
                mse: Some(mse(y, p)?),
                r2: Some(r2(y, p)?),
                ..Metrics::default()
            })
        }
        (Target::Classes { .. }, Predictions::Values(_)) => Err(Error::TargetKind(
            "evaluate: class target but real-valued predictions".into(),
        )),
        (Target::Real(_), Predictions::Classes { .. }) => Err(Error::TargetKind(
            "evaluate: real target but class predictions".into(),
        )),
        (Target::None, _) => unreachable!("a target without rows returned above"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn midranks_with_ties() {
        assert_eq!(
            midranks(&[3.0, 1.0, 4.0, 1.0, 5.0]),
            vec![3.0, 1.5, 4.0, 1.5, 5.0]
        );
        assert_eq!(midranks(&[2.0, 2.0, 2.0]), vec![2.0; 3]);
        assert!(midranks(&[]).is_empty());
    }

    #[test]
    fn argmax_ties_and_nan() {
        assert_eq!(argmax(&[1.0, 3.0, 3.0]), 1);
        assert_eq!(argmax(&[f64::NAN, 0.5]), 1);
        assert_eq!(argmax(&[]), 0);
    }

    #[test]
    fn accuracy_and_confusion() {
        let t = [0, 1, 1, 2, 2, 2];
        let p = [0, 1, 0, 2, 2, 1];
        assert!(close(accuracy(&t, &p).unwrap(), 4.0 / 6.0));
        assert_eq!(
            confusion_matrix(&t, &p, 3).unwrap(),
            vec![vec![1, 0, 0], vec![1, 1, 0], vec![0, 1, 2]]
        );
        assert!(accuracy(&t, &p[..5]).is_err());
        assert!(accuracy(&[], &[]).is_err());
        assert!(confusion_matrix(&[3], &[0], 3).is_err());
    }

    #[test]
    fn balanced_accuracy_by_hand() {
        // Recalls: class 0 1/1, class 1 1/2, class 2 2/3 → mean 13/18.
        let t = [0, 1, 1, 2, 2, 2];
        let p = [0, 1, 0, 2, 2, 1];
        assert!(close(balanced_accuracy(&t, &p).unwrap(), 13.0 / 18.0));
        // A class only predicted (3) is not averaged over.
        assert!(close(
            balanced_accuracy(&[0, 0, 1], &[0, 3, 1]).unwrap(),
            0.75
        ));
        // Imbalanced: always predicting the majority gives 0.5.
        assert!(close(
            balanced_accuracy(&[0, 0, 0, 1], &[0; 4]).unwrap(),
            0.5
        ));
        // Arbitrary label values are fine.
        assert!(close(
            balanced_accuracy(&[usize::MAX, 7], &[7, 7]).unwrap(),
            0.5
        ));
    }

    #[test]
    fn brier_by_hand() {
        // Binary: (0.9-1)^2 + (0.3-0)^2 + (0.6-1)^2 = 0.01 + 0.09 + 0.16.
        let y = [1, 0, 1];
        let proba = [0.1, 0.9, 0.7, 0.3, 0.4, 0.6];
        assert!(close(brier(&y, &proba, 2).unwrap(), 0.26 / 3.0));
        // Multi-class: row 0 (y=0): .04+.01+.01; row 1 (y=2): .09+.09+.36.
        let proba3 = [0.8, 0.1, 0.1, 0.3, 0.3, 0.4];
        assert!(close(
            brier(&[0, 2], &proba3, 3).unwrap(),
            (0.06 + 0.54) / 2.0
        ));
        assert!(brier(&[0, 3], &proba3, 3).is_err());
        assert!(brier(&[0], &proba3, 3).is_err());
        assert!(brier(&[0], &[f64::NAN, 1.0], 2).is_err());
    }

    #[test]
    fn log_loss_by_hand_and_clipping() {
        let y = [1, 0];
        let proba = [0.2, 0.8, 0.6, 0.4];
        let expected = -(0.8f64.ln() + 0.6f64.ln()) / 2.0;
        assert!(close(log_loss(&y, &proba, 2).unwrap(), expected));
        let confident_wrong = log_loss(&[0], &[0.0, 1.0], 2).unwrap();
        assert!((confident_wrong - 34.538776394910684).abs() < 1e-6);
        assert!(log_loss(&[0], &[1.0, 0.0], 2).unwrap() < 1e-14);
    }

    #[test]
    fn auc_sklearn_example() {
        let y = [0, 0, 1, 1];
        let s = [0.1, 0.4, 0.35, 0.8];
        assert_eq!(auc_roc(&y, &s).unwrap(), Some(0.75));
    }

    #[test]
    fn auc_with_ties_by_hand() {
        // Scores: neg 0.2, 0.5, 0.5; pos 0.5, 0.9.
        // Pairs (pos, neg): 0.9 beats all 3 → 3; 0.5 beats 0.2 → 1, ties
        // the two 0.5 → 2 × ½ = 1. AUC = 5 / 6.
        let y = [0, 0, 0, 1, 1];
        let s = [0.2, 0.5, 0.5, 0.5, 0.9];
        assert!(close(auc_roc(&y, &s).unwrap().unwrap(), 5.0 / 6.0));
        // All scores equal → ½.
        assert_eq!(auc_roc(&[0, 1, 0, 1], &[0.3; 4]).unwrap(), Some(0.5));
        // Perfectly wrong ordering → 0.
        assert_eq!(auc_roc(&[1, 0], &[0.1, 0.9]).unwrap(), Some(0.0));
    }

    #[test]
    fn ranking_metrics_match_sklearn_with_ties() {
        // sklearn 1.9: roc_auc_score = 0.68, average_precision_score =
        // 0.7087301587301587, auc(recall, precision) = 0.728174603174603.
        let y = [1, 0, 1, 1, 0, 0, 1, 0, 1, 0];
        let s = [0.9, 0.8, 0.8, 0.6, 0.55, 0.55, 0.4, 0.3, 0.3, 0.1];
        assert!(close(auc_roc(&y, &s).unwrap().unwrap(), 0.68));
        assert!(close(
            average_precision(&y, &s).unwrap().unwrap(),
            0.708_730_158_730_158_7
        ));
        assert!(close(
            auc_pr(&y, &s).unwrap().unwrap(),
            0.728_174_603_174_603
        ));
    }

    #[test]
    fn auc_undefined_and_errors() {
        assert_eq!(auc_roc(&[1, 1], &[0.1, 0.2]).unwrap(), None);
        assert_eq!(auc_roc(&[0, 0], &[0.1, 0.2]).unwrap(), None);
        assert!(auc_roc(&[0, 2], &[0.1, 0.2]).is_err());
        assert!(auc_roc(&[0, 1], &[0.1, f64::NAN]).is_err());
        assert!(auc_roc(&[0, 1], &[0.1]).is_err());
        assert_eq!(average_precision(&[0, 0], &[0.1, 0.2]).unwrap(), None);
        assert_eq!(auc_pr(&[0, 0], &[0.1, 0.2]).unwrap(), None);
    }

    #[test]
    fn average_precision_sklearn_example() {
        // sklearn docs: average_precision_score([0,0,1,1], [.1,.4,.35,.8])
        // = 0.8333...: thresholds 0.8 (R ½, P 1), 0.4 (R ½, P ½),
        // 0.35 (R 1, P ⅔), 0.1 (R 1, P ½) → ½·1 + ½·⅔.
        let y = [0, 0, 1, 1];
        let s = [0.1, 0.4, 0.35, 0.8];
        assert!(close(
            average_precision(&y, &s).unwrap().unwrap(),
            5.0 / 6.0
        ));
        // Trapezoid over (0,1),(½,1),(½,½),(1,⅔),(1,½): ½ + ½·(½+⅔)/2.
        assert!(close(
            auc_pr(&y, &s).unwrap().unwrap(),
            0.5 + 0.5 * (7.0 / 6.0) / 2.0
        ));
    }

    #[test]
    fn average_precision_with_ties() {
        // Scores 0.9 (pos), 0.5 (pos, neg tied), 0.1 (neg): thresholds
        // 0.9 → R ½ P 1; 0.5 → R 1 P ⅔; 0.1 → R 1 P ½.
        let y = [1, 1, 0, 0];
        let s = [0.9, 0.5, 0.5, 0.1];
        assert!(close(
            average_precision(&y, &s).unwrap().unwrap(),
            0.5 + 0.5 * 2.0 / 3.0
        ));
        assert!(close(
            auc_pr(&y, &s).unwrap().unwrap(),
            0.5 + 0.5 * (1.0 + 2.0 / 3.0) / 2.0
        ));
        // A perfect ranking has AP 1 and PR AUC 1.
        assert_eq!(average_precision(&[0, 1], &[0.0, 1.0]).unwrap(), Some(1.0));
        assert_eq!(auc_pr(&[0, 1], &[0.0, 1.0]).unwrap(), Some(1.0));
    }

    #[test]
    fn regression_metrics() {
        let y = [3.0, -0.5, 2.0, 7.0];
        let p = [2.5, 0.0, 2.0, 8.0];
        // sklearn doc example: mse 0.375, r2 0.9486081370449679.
        assert!(close(mse(&y, &p).unwrap(), 0.375));
        assert!((r2(&y, &p).unwrap() - 0.948_608_137_044_967_9).abs() < 1e-12);
        assert_eq!(r2(&[2.0, 2.0], &[2.0, 2.0]).unwrap(), 1.0);
        assert_eq!(r2(&[2.0, 2.0], &[2.0, 3.0]).unwrap(), 0.0);
        assert!(r2(&[1.0, 2.0, 3.0], &[3.0, 2.0, 1.0]).unwrap() < 0.0);
        assert!(mse(&[], &[]).is_err());
    }

    #[test]
    fn summary() {
        let s = Summary::new(&[1.0, 2.0, 3.0, 4.0]);
        assert_eq!(s.n, 4);
        assert!(close(s.mean, 2.5));
        assert!(close(s.std, (5.0f64 / 3.0).sqrt()));
        assert!(close(s.stderr, (5.0f64 / 3.0).sqrt() / 2.0));
        let one = Summary::new(&[7.0]);
        assert_eq!((one.mean, one.std, one.stderr, one.n), (7.0, 0.0, 0.0, 1));
        assert_eq!(Summary::new(&[]).n, 0);
    }

    #[test]
    fn evaluate_binary() {
        let target = Target::Classes {
            labels: vec![0, 0, 1, 1],
            names: vec!["n".into(), "p".into()],
        };
        let s = [0.1, 0.4, 0.35, 0.8];
        let proba: Vec<f64> = s.iter().flat_map(|&p| [1.0 - p, p]).collect();
        let pred = Predictions::Classes {
            n_classes: 2,
            proba,
        };
        let m = evaluate(&target, &pred).unwrap();
        assert_eq!(m.accuracy, Some(0.75));
        assert_eq!(m.balanced_accuracy, Some(0.75));
        assert_eq!(m.auc_roc, Some(0.75));
        assert!(close(m.average_precision.unwrap(), 5.0 / 6.0));
        let b = (0.01 + 0.16 + 0.65f64.powi(2) + 0.04) / 4.0;
        assert!(close(m.brier.unwrap(), b));
        assert!(m.log_loss.unwrap() > 0.0);
        assert_eq!((m.mse, m.r2), (None, None));
    }

    #[test]
    fn evaluate_multiclass_macro_ovr() {
        let target = Target::Classes {
            labels: vec![0, 1, 2, 2],
            names: vec!["a".into(), "b".into(), "c".into()],
        };
        let proba = vec![
            0.7, 0.2, 0.1, //
            0.2, 0.5, 0.3, //
            0.1, 0.3, 0.6, //
            0.3, 0.4, 0.3,
        ];
        let pred = Predictions::Classes {
            n_classes: 3,
            proba,
        };
        let m = evaluate(&target, &pred).unwrap();
        // Predicted labels 0, 1, 2, 1.
        assert_eq!(m.accuracy, Some(0.75));
        // OvR AUCs: class a 1, class b (0.5 vs 0.2, 0.3, 0.4) 1, class c
        // (pos 0.6, 0.3; neg 0.1, 0.3): pairs 2 + 1 + ½ = 3.5 / 4.
        assert!(close(m.auc_roc.unwrap(), (1.0 + 1.0 + 0.875) / 3.0));
        // sklearn: roc_auc_score(multi_class="ovr") = 0.9583333333333334,
        // log_loss = 0.6911551381476512.
        assert!(close(m.auc_roc.unwrap(), 0.958_333_333_333_333_4));
        assert!(close(m.log_loss.unwrap(), 0.691_155_138_147_651_2));
        assert!(m.average_precision.is_some() && m.auc_pr.is_some());
    }

    #[test]
    fn evaluate_regression_and_mismatches() {
        let target = Target::Real(vec![3.0, -0.5, 2.0, 7.0]);
        let pred = Predictions::Values(vec![2.5, 0.0, 2.0, 8.0]);
        let m = evaluate(&target, &pred).unwrap();
        assert_eq!(m.mse, Some(0.375));
        assert_eq!(m.accuracy, None);
        let classes = Predictions::Classes {
            n_classes: 2,
            proba: vec![0.5; 8],
        };
        assert!(evaluate(&target, &classes).is_err());
        let short = Predictions::Values(vec![1.0]);
        assert!(evaluate(&target, &short).is_err());
        let ct = Target::Classes {
            labels: vec![0, 1, 0, 1],
            names: vec!["a".into(), "b".into(), "c".into()],
        };
        assert!(evaluate(&ct, &classes).is_err());
    }
}
