//! The exact weighted set cover, model (1) of seed 000, as a binary IP
//! solved through rc-lp (CBC with feature `cbc`, else rc-lp's own
//! branch-and-bound on minilp), started from the greedy cover.

use std::time::Duration;

use rc_lp::{MipOptions, MipSolver, MipStatus, Model};
use rulecover_core::CoverageMatrix;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::greedy::remove_redundant;

/// How the selected cover was obtained.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum CoverStatus {
    /// The greedy heuristic's cover.
    Greedy,
    /// A proven optimal cover.
    Optimal,
    /// The time limit stopped the MIP; the best cover found is used, with
    /// the relative gap to the best bound.
    TimeLimit {
        /// Relative gap `(cover cost − bound) / cover cost`.
        gap: f64,
    },
}

/// An optimal or best-found cover.
#[derive(Debug, Clone, PartialEq)]
pub struct ExactCover {
    /// Selected columns, sorted by (cost, index).
    pub columns: Vec<usize>,
    /// Optimal, or stopped by the time limit with a gap.
    pub status: CoverStatus,
}

/// The default MIP backend: [`rc_lp::default_mip_solver`], i.e. CBC with
/// feature `cbc`, else HiGHS with feature `highs`, else rc-lp's
/// branch-and-bound on minilp.
pub fn default_mip_solver() -> Box<dyn MipSolver> {
    rc_lp::default_mip_solver()
}

/// Builds model (1): min Σ c_j z_j s.t. Σ_{j ∋ i} z_j ≥ 1, z binary.
pub fn set_cover_model(coverage: &CoverageMatrix, costs: &[f64]) -> Result<Model> {
    let mut m = Model::minimize();
    m.set_name("mirco_set_cover");
    let z: Vec<_> = costs.iter().map(|&c| m.add_binary(c)).collect();
    for (i, cols) in coverage.rules_by_row().iter().enumerate() {
        let terms: Vec<_> = cols.iter().map(|&j| (z[j as usize], 1.0)).collect();
        m.add_ge(&terms, 1.0)
            .map_err(|e| Error::Solver(format!("row {i}: {e}")))?;
    }
    Ok(m)
}

/// Solves the set cover exactly within `time_limit`. `start` is a feasible
/// cover (the greedy's): it is returned when the solver finds nothing
/// better in time, with the gap to the solver's bound.
pub fn exact_set_cover(
    coverage: &CoverageMatrix,
    costs: &[f64],
    start: &[usize],
    time_limit: Duration,
) -> Result<ExactCover> {
    exact_set_cover_with(
        default_mip_solver().as_ref(),
        coverage,
        costs,
        start,
        time_limit,
    )
}

/// [`exact_set_cover`] with a given MIP solver.
pub fn exact_set_cover_with(
    solver: &dyn MipSolver,
    coverage: &CoverageMatrix,
    costs: &[f64],
    start: &[usize],
    time_limit: Duration,
) -> Result<ExactCover> {
    let model = set_cover_model(coverage, costs)?;
    let mut start_values = vec![0.0; costs.len()];
    for &j in start {
        if let Some(v) = start_values.get_mut(j) {
            *v = 1.0;
        }
    }
    // The start is the first incumbent (ignored by the solver if infeasible).
    let opts = MipOptions::default()
        .with_time_limit(time_limit)
        .with_initial_solution(start_values);
    let sol = solver.solve_mip(&model, &opts).map_err(Error::Lp)?;
    let start_cost: f64 = start.iter().map(|&j| costs[j]).sum();
    let found: Option<Vec<usize>> = sol.has_solution().then(|| {
        sol.values
            .iter()
            .enumerate()
            .filter(|(_, v)| **v > 0.5)
            .map(|(j, _)| j)
            .collect()
    });
    let (columns, cost) = match found {
        Some(cols) => {
            let cost: f64 = cols.iter().map(|&j| costs[j]).sum();
            if cost <= start_cost {
                (cols, cost)
            } else {
                (start.to_vec(), start_cost)
            }
        }
        None => (start.to_vec(), start_cost),
    };
    let status = match sol.status {
        MipStatus::Optimal => CoverStatus::Optimal,
        MipStatus::TimeLimit | MipStatus::NodeLimit => CoverStatus::TimeLimit {
            gap: if cost > 0.0 {
                ((cost - sol.best_bound) / cost).max(0.0)
            } else {
                0.0
            },
        },
        other => {
            return Err(Error::Solver(format!(
                "the set-cover IP ended with status {other:?}"
            )))
        }
    };
    // An optimal cover has no redundant column; the ordering by cost is
    // what redundancy removal gives, so reuse it.
    let columns = remove_redundant(coverage, costs, &columns);
    Ok(ExactCover { columns, status })
}
