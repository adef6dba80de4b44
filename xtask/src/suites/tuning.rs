//! Nested cross-validation as the papers ran it: an inner stratified
//! K-fold grid search on the outer training fold (scikit-learn's folds
//! for the run's seed), ties to the first grid point, then a refit on the
//! whole outer training fold.

use rulecover_core::cv::{folds_for, grid_search, Fold};
use rulecover_core::metrics::accuracy;
use rulecover_core::{Dataset, Predict};

use super::scoring::timed;
use super::suite::{JobData, JobError};

/// The inner folds of a job (`StratifiedKFold(k, shuffle=True,
/// random_state=seed)` on the outer training fold).
pub fn inner_folds(job: &JobData, k: usize) -> Result<Vec<Fold>, JobError> {
    Ok(folds_for(job.train, k, job.seed)?)
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

/// The values of axis `param` of the grid that paper `paper` tunes
/// registry method `method` over ([`rulecover::MethodSpec::grid_of`]),
/// parsed as `T`. The registry holds every grid the suites search, so
/// `rulecover fit --tune` and the reproduced tables try the same values.
pub fn grid_values<T: std::str::FromStr>(
    method: &str,
    paper: &str,
    param: &str,
) -> Result<Vec<T>, JobError> {
    let spec = rulecover::method(method)?.spec();
    let axis = spec.grid_axis(paper, param).ok_or_else(|| {
        format!("method '{method}' has no '{param}' axis in paper {paper}'s grid")
    })?;
    axis.values
        .iter()
        .map(|v| {
            v.parse::<T>()
                .map_err(|_| format!("grid value '{v}' of {method}.{param} does not parse").into())
        })
        .collect()
}

/// The parameter tied to axis `param` of `method`'s grid for `paper`,
/// with its factor (GLRM's `lambda1 = 0.2 × lambda0`).
pub fn grid_factor(method: &str, paper: &str, param: &str) -> Result<(String, f64), JobError> {
    let spec = rulecover::method(method)?.spec();
    spec.grid_axis(paper, param)
        .and_then(|a| a.scaled)
        .map(|(name, f)| (name.to_string(), f))
        .ok_or_else(|| format!("{method}.{param} has no tied parameter in paper {paper}").into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(method: &str, paper: &str, param: &str) -> Vec<usize> {
        grid_values(method, paper, param).unwrap()
    }

    /// The grids the reproduced tables were computed with (the suites'
    /// constants before the registry held them): the suites read them
    /// from the registry, which must give exactly these.
    #[test]
    fn the_registry_holds_the_grids_of_the_reproduced_tables() {
        // paper000: depth {5, 10, 20} everywhere; {10, 50, 100} trees for
        // RF (and MIRCO's forest), ADA and GB; RCB's caps.
        for m in ["dt", "rf", "ada", "gb", "mirco", "rcboost"] {
            assert_eq!(ints(m, "000", "max_depth"), [5, 10, 20], "{m}");
        }
        for m in ["rf", "ada", "gb", "mirco"] {
            assert_eq!(ints(m, "000", "n_estimators"), [10, 50, 100], "{m}");
        }
        assert_eq!(
            ints("rcboost", "000", "max_rmp_calls"),
            [5, 10, 50, 100, 200]
        );
        // paper001: depth {1, 2, 3}; {100, 200} trees under RUX.
        for m in ["dt", "rux-rf", "rux-ada", "rug", "rug-t"] {
            assert_eq!(ints(m, "001", "max_depth"), [1, 2, 3], "{m}");
        }
        for m in ["rux-rf", "rux-ada"] {
            assert_eq!(ints(m, "001", "n_estimators"), [100, 200], "{m}");
        }
        // paper002: the λ0 path with λ1 = 0.2 λ0; GBT's depths and cap.
        for m in ["lr1", "lrr", "lr1n", "lrrn", "rulefit", "rulefit-n"] {
            let l: Vec<f64> = grid_values(m, "002", "lambda0").unwrap();
            assert_eq!(
                l,
                [0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001, 0.0005],
                "{m}"
            );
            assert_eq!(
                grid_factor(m, "002", "lambda0").unwrap(),
                ("lambda1".to_string(), 0.2),
                "{m}"
            );
        }
        assert_eq!(ints("gbt", "002", "max_depth"), [1, 2, 3, 4, 6]);
        assert_eq!(ints("gbt", "002", "n_estimators").iter().max(), Some(&500));
        // paper004: depth {2, ..., 10} for NRE, DT, GB; RF sizes; widths.
        for m in ["nre", "dt", "gb"] {
            assert_eq!(ints(m, "004", "max_depth"), [2, 4, 6, 8, 10], "{m}");
        }
        assert_eq!(ints("rf", "004", "n_estimators"), [32, 64, 128, 256, 512]);
        assert_eq!(ints("ann", "004", "hidden"), [64, 128, 256, 512, 1024]);
    }
}
