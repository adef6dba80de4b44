//! What every tabular suite does with a fitted model: test metrics into
//! a record ([`put_metrics`]), timings ([`timed`]), fit-and-score of any
//! `Fit`/`Predict` learner ([`fit_and_score`]) and the ZeroR floor.

use std::time::Instant;

use rulecover_core::metrics::{evaluate, Metrics};
use rulecover_core::{Dataset, Fit, Predict, Predictions, ZeroR};

use super::suite::{JobData, JobError};
use crate::records::Record;

/// Fills a record's metrics from test-fold predictions (only the metrics
/// that apply).
pub fn put_metrics(
    record: &mut Record,
    test: &Dataset,
    pred: &Predictions,
) -> Result<Metrics, JobError> {
    let m = evaluate(&test.target_view(), pred)?;
    let pairs = [
        ("accuracy", m.accuracy),
        ("balanced_accuracy", m.balanced_accuracy),
        ("brier", m.brier),
        ("log_loss", m.log_loss),
        ("auc_roc", m.auc_roc),
        ("auc_pr", m.auc_pr),
        ("average_precision", m.average_precision),
        ("mse", m.mse),
        ("r2", m.r2),
    ];
    for (k, v) in pairs {
        if let Some(v) = v {
            record.metrics.insert(k.to_string(), v);
        }
    }
    Ok(m)
}

/// Times a closure, returning its value and the seconds it took.
pub fn timed<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let t = Instant::now();
    let v = f();
    (v, t.elapsed().as_secs_f64())
}

/// Fits and evaluates any model of the `Fit`/`Predict` traits: the record
/// gets test metrics and its times — `tune_s` (the search that chose
/// `params`, 0 when nothing was searched), the fit and the prediction.
pub fn fit_and_score<P>(
    params: &P,
    method: &str,
    job: &JobData,
    tune_s: f64,
) -> Result<(Record, P::Model), JobError>
where
    P: Fit,
    P::Model: Predict,
{
    let mut rec = job.record(method);
    let (model, fit_s) = timed(|| params.fit(job.train));
    let model = model?;
    let (pred, predict_s) = timed(|| model.predict(job.test));
    put_metrics(&mut rec, job.test, &pred?)?;
    rec.put_times(tune_s, fit_s);
    rec.time_s.insert("predict".into(), predict_s);
    Ok((rec, model))
}

/// The ZeroR floor (majority class or mean), which every suite reports.
pub fn zeror(job: &JobData) -> Result<Vec<Record>, JobError> {
    let (mut rec, _) = fit_and_score(&ZeroR, "ZeroR", job, 0.0)?;
    rec.size.insert("rules".into(), 0.0);
    Ok(vec![rec])
}
