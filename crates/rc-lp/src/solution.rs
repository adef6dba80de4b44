//! Solver results: [`LpSolution`] and [`MipSolution`].

use crate::model::{RowId, Sense, VarId};
use serde::{Deserialize, Serialize};

/// Outcome of an LP solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum LpStatus {
    /// An optimal solution was found (and, if requested, verified duals).
    Optimal,
    /// No point satisfies all constraints and bounds.
    Infeasible,
    /// The objective is unbounded in the optimisation direction.
    Unbounded,
    /// The time limit was reached before optimality.
    TimeLimit,
    /// The backend returned a point that violates the constraints beyond tolerance,
    /// or gave up for numerical reasons.
    NumericalFailure,
}

/// What a backend returns for a primal LP solve: a status and, when optimal, `x`.
#[derive(Clone, Debug)]
pub(crate) struct RawLp {
    pub status: LpStatus,
    pub x: Vec<f64>,
}

impl RawLp {
    pub(crate) fn status(status: LpStatus) -> Self {
        RawLp {
            status,
            x: Vec::new(),
        }
    }
}

/// Result of [`LpSolver::solve_lp`](crate::LpSolver::solve_lp).
///
/// # Dual sign convention
///
/// `row_duals[i] = y_i = ∂z*/∂b_i`, the rate of change of the optimal objective
/// value `z*` (in the model's own sense) when the active bound of row `i` moves up,
/// and `reduced_costs[j] = d_j = c_j − Σ_i a_ij·y_i`. Consequently:
///
/// | | minimise | maximise |
/// |---|---|---|
/// | `>=` row (or range at its lower bound) | `y_i >= 0` | `y_i <= 0` |
/// | `<=` row (or range at its upper bound) | `y_i <= 0` | `y_i >= 0` |
/// | `=` row | free | free |
/// | inactive row | `y_i = 0` | `y_i = 0` |
/// | `x_j` at its lower bound | `d_j >= 0` | `d_j <= 0` |
/// | `x_j` at its upper bound | `d_j <= 0` | `d_j >= 0` |
/// | `x_j` strictly between bounds | `d_j = 0` | `d_j = 0` |
///
/// For `min c·x s.t. A x >= b, x >= 0` this is the textbook dual `max b·y s.t.
/// Aᵀy <= c, y >= 0`, and pricing a new column `(c_j, a_j)` means checking
/// `c_j − a_j·y < 0`. Strong duality holds as
/// `z* = Σ_i y_i·(active bound of row i) + Σ_j d_j·(active bound of x_j)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LpSolution {
    /// Outcome of the solve; the vectors below are filled only when `Optimal`.
    pub status: LpStatus,
    /// Optimal objective value in the model's sense. When not `Optimal`: `+inf` for an
    /// infeasible minimisation (`-inf` maximisation), `-inf` for an unbounded
    /// minimisation (`+inf` maximisation), `NaN` otherwise.
    #[serde(with = "rc_json::float")]
    pub objective: f64,
    /// Primal values `x_j`, indexed by [`VarId::index`].
    pub primal: Vec<f64>,
    /// Row activities `a_i·x`, indexed by [`RowId::index`].
    pub row_activity: Vec<f64>,
    /// Row duals `y_i` (see the sign convention above); empty when duals were skipped.
    pub row_duals: Vec<f64>,
    /// Reduced costs `d_j = c_j − a_j·y`; empty when duals were skipped.
    pub reduced_costs: Vec<f64>,
}

impl LpSolution {
    /// A solution carrying only a non-optimal status.
    pub(crate) fn without_point(status: LpStatus, sense: Sense) -> Self {
        let sign = match sense {
            Sense::Minimize => 1.0,
            Sense::Maximize => -1.0,
        };
        let objective = match status {
            LpStatus::Infeasible => sign * f64::INFINITY,
            LpStatus::Unbounded => -sign * f64::INFINITY,
            _ => f64::NAN,
        };
        LpSolution {
            status,
            objective,
            primal: Vec::new(),
            row_activity: Vec::new(),
            row_duals: Vec::new(),
            reduced_costs: Vec::new(),
        }
    }

    /// True when `status == Optimal`.
    pub fn is_optimal(&self) -> bool {
        self.status == LpStatus::Optimal
    }

    /// Primal value of a variable.
    pub fn value(&self, var: VarId) -> Option<f64> {
        self.primal.get(var.index()).copied()
    }

    /// Dual value of a row (see the sign convention on [`LpSolution`]).
    pub fn dual(&self, row: RowId) -> Option<f64> {
        self.row_duals.get(row.index()).copied()
    }

    /// Reduced cost of a variable.
    pub fn reduced_cost(&self, var: VarId) -> Option<f64> {
        self.reduced_costs.get(var.index()).copied()
    }

    /// Activity `a_i·x` of a row.
    pub fn activity(&self, row: RowId) -> Option<f64> {
        self.row_activity.get(row.index()).copied()
    }
}

/// Outcome of a MIP solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MipStatus {
    /// Optimal within the requested relative gap.
    Optimal,
    /// No integer-feasible point exists.
    Infeasible,
    /// The LP relaxation is unbounded (the MIP is unbounded or infeasible).
    Unbounded,
    /// The time limit was hit; [`MipSolution::values`] holds the incumbent, if any.
    TimeLimit,
    /// The node limit was hit; [`MipSolution::values`] holds the incumbent, if any.
    NodeLimit,
    /// The backend gave up for numerical reasons.
    NumericalFailure,
}

/// Result of [`MipSolver::solve_mip`](crate::MipSolver::solve_mip).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MipSolution {
    /// Outcome of the solve.
    pub status: MipStatus,
    /// Objective of the incumbent (model's sense); `+inf` (min) / `-inf` (max) without one.
    #[serde(with = "rc_json::float")]
    pub objective: f64,
    /// Values of the incumbent, indexed by [`VarId::index`]; empty without an incumbent.
    /// Integer variables are exactly integral.
    pub values: Vec<f64>,
    /// Proven bound on the optimum (a lower bound when minimising, an upper bound when
    /// maximising); equals `objective` when proven optimal with zero gap.
    #[serde(with = "rc_json::float")]
    pub best_bound: f64,
    /// `|objective − best_bound| / max(|objective|, 1e-9)` (0 when the two agree to
    /// 1e-9; `+inf` without an incumbent).
    #[serde(with = "rc_json::float")]
    pub gap: f64,
    /// Branch-and-bound nodes processed (0 when the backend does not report it).
    pub nodes: u64,
}

impl MipSolution {
    /// True when an integer-feasible incumbent is available.
    pub fn has_solution(&self) -> bool {
        !self.values.is_empty()
    }

    /// Value of a variable in the incumbent.
    pub fn value(&self, var: VarId) -> Option<f64> {
        self.values.get(var.index()).copied()
    }

    /// Relative gap formula shared by the backends.
    pub(crate) fn relative_gap(objective: f64, best_bound: f64) -> f64 {
        if !objective.is_finite() {
            return f64::INFINITY;
        }
        let diff = (objective - best_bound).abs();
        if diff <= 1e-9 {
            0.0
        } else {
            diff / objective.abs().max(1e-9)
        }
    }
}
