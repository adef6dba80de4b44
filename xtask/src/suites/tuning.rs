//! Nested cross-validation as the papers ran it: an inner stratified
//! K-fold grid search on the outer training fold (scikit-learn's folds
//! for the run's seed), ties to the first grid point, then a refit on the
//! whole outer training fold.

use rulecover_core::cv::{grid_search, sklearn_stratified_kfold, stratified_kfold, Fold};
use rulecover_core::metrics::accuracy;
use rulecover_core::{Dataset, Predict};

use super::scoring::timed;
use super::suite::{JobData, JobError};

/// The inner folds of a job (`StratifiedKFold(k, shuffle=True,
/// random_state=seed)` on the outer training fold).
pub fn inner_folds(job: &JobData, k: usize) -> Result<Vec<Fold>, JobError> {
    let labels = job.train.labels()?;
    Ok(match u32::try_from(job.seed) {
        Ok(rs) => sklearn_stratified_kfold(&labels, k, rs)?,
        Err(_) => stratified_kfold(&labels, k, job.seed)?,
    })
}

/// Every pair `(a, b)` of the two grids, `a` varying slowest (the order of
/// scikit-learn's `ParameterGrid` over two parameters).
pub fn grid_product<A: Copy, B: Copy>(a: &[A], b: &[B]) -> Vec<(A, B)> {
    a.iter()
        .flat_map(|&x| b.iter().map(move |&y| (x, y)))
        .collect()
}

/// Accuracy of a fitted classifier on `test`.
pub fn accuracy_of<M: Predict>(model: &M, test: &Dataset) -> Result<f64, JobError> {
    let pred = model.predict(test)?;
    let labels = pred
        .labels()
        .ok_or("the model predicted values, not classes")?;
    Ok(accuracy(&test.labels()?, &labels)?)
}

/// The outcome of a grid search: the chosen point and what choosing it
/// cost (recorded as `time_s.tune` beside the refit's `time_s.fit`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tuned {
    /// Index of the chosen grid point.
    pub best: usize,
    /// Wall seconds of the search (inner folds, every inner fit and its
    /// scoring); 0 for a grid of one point, which needs no search.
    pub seconds: f64,
}

/// The grid point with the best mean inner-CV accuracy (ties to the
/// first), timed. A grid of one point is returned without any inner fit.
pub fn best_by_accuracy<P, M, F>(
    job: &JobData,
    grid: &[P],
    inner_k: usize,
    fit: F,
) -> Result<Tuned, JobError>
where
    M: Predict,
    F: Fn(&P, &Dataset) -> Result<M, JobError>,
{
    if grid.len() == 1 {
        return Ok(Tuned {
            best: 0,
            seconds: 0.0,
        });
    }
    let (best, seconds) = timed(|| -> Result<usize, JobError> {
        let folds = inner_folds(job, inner_k)?;
        let (best, _) = grid_search(
            job.train,
            grid,
            &folds,
            |p: &P, train: &Dataset, test: &Dataset| {
                let model = fit(p, train)?;
                accuracy_of(&model, test)
            },
        )?;
        Ok(best)
    });
    Ok(Tuned {
        best: best?,
        seconds,
    })
}
