//! Solver traits and options shared by all backends.

use crate::error::Error;
use crate::model::Model;
use crate::solution::{LpSolution, MipSolution};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// Solves the LP relaxation of a model (integrality is ignored; binaries are relaxed
/// to `[0, 1]`) and returns primal values, row duals and reduced costs.
pub trait LpSolver {
    /// Solves `model` as an LP. Infeasible/unbounded models are reported through
    /// [`LpSolution::status`], not as errors.
    fn solve_lp(&self, model: &Model) -> Result<LpSolution, Error>;
}

/// Solves models with binary/integer variables.
pub trait MipSolver {
    /// Solves `model` as a MIP with the given options. On a time or node limit the
    /// best incumbent found so far (if any) is returned with the corresponding status.
    fn solve_mip(&self, model: &Model, opts: &MipOptions) -> Result<MipSolution, Error>;
}

/// How LP duals are obtained (neither backend exposes them, so they are computed by
/// solving a dual LP with the same backend, then verified).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum DualMethod {
    /// Do not compute duals (`row_duals` and `reduced_costs` stay empty).
    Skip,
    /// Solve the dual restricted by complementary slackness with the primal optimum
    /// (inactive rows get `y_i = 0`, variables strictly between bounds get `d_j = 0`),
    /// which is much smaller than the full dual; fall back to [`DualMethod::Full`]
    /// when that fails verification.
    #[default]
    Restricted,
    /// Solve the full explicit dual LP.
    Full,
}

/// LP options common to all backends.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct LpOptions {
    /// How duals are computed.
    pub duals: DualMethod,
    /// Primal feasibility tolerance, relative to `1 + |bound|`: a returned point that
    /// violates a row or bound by more is reported as
    /// [`LpStatus::NumericalFailure`](crate::LpStatus::NumericalFailure).
    pub feasibility_tol: f64,
    /// Strong-duality tolerance, relative to `1 + |objective|`, and dual feasibility
    /// tolerance, relative to `1 + max|c_j|`.
    pub dual_tol: f64,
}

impl Default for LpOptions {
    fn default() -> Self {
        LpOptions {
            duals: DualMethod::Restricted,
            feasibility_tol: 1e-6,
            dual_tol: 1e-6,
        }
    }
}

impl LpOptions {
    pub(crate) fn validate(&self) -> Result<(), Error> {
        for (option, value) in [
            ("feasibility_tol", self.feasibility_tol),
            ("dual_tol", self.dual_tol),
        ] {
            if !(value.is_finite() && value > 0.0) {
                return Err(Error::InvalidOption {
                    option,
                    value: value.to_string(),
                    reason: "expected a finite positive number",
                });
            }
        }
        Ok(())
    }
}

/// Options of a MIP solve.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MipOptions {
    /// Wall-clock limit; `None` means no limit (a hard instance may then run very long).
    pub time_limit: Option<Duration>,
    /// Stop once `(incumbent − bound) <= relative_gap·|incumbent|`; `0` proves optimality.
    pub relative_gap: f64,
    /// Maximum number of branch-and-bound nodes; `None` means no limit.
    pub node_limit: Option<u64>,
    /// Threads for backends that can use several (CBC). Keep `1` for reproducible results.
    pub threads: usize,
    /// A known solution (e.g. from a greedy heuristic), indexed by
    /// [`VarId::index`](crate::VarId::index); used as the first incumbent when it is
    /// feasible and ignored otherwise.
    pub initial_solution: Option<Vec<f64>>,
}

impl Default for MipOptions {
    fn default() -> Self {
        MipOptions {
            time_limit: None,
            relative_gap: 0.0,
            node_limit: None,
            threads: 1,
            initial_solution: None,
        }
    }
}

impl MipOptions {
    /// Returns these options with a wall-clock limit.
    pub fn with_time_limit(mut self, limit: Duration) -> Self {
        self.time_limit = Some(limit);
        self
    }

    /// Returns these options with a relative gap.
    pub fn with_relative_gap(mut self, gap: f64) -> Self {
        self.relative_gap = gap;
        self
    }

    /// Returns these options with a node limit.
    pub fn with_node_limit(mut self, nodes: u64) -> Self {
        self.node_limit = Some(nodes);
        self
    }

    /// Returns these options with a starting solution (see [`MipOptions::initial_solution`]).
    pub fn with_initial_solution(mut self, values: Vec<f64>) -> Self {
        self.initial_solution = Some(values);
        self
    }

    pub(crate) fn validate(&self) -> Result<(), Error> {
        if !(self.relative_gap.is_finite() && self.relative_gap >= 0.0) {
            return Err(Error::InvalidOption {
                option: "relative_gap",
                value: self.relative_gap.to_string(),
                reason: "expected a finite number >= 0",
            });
        }
        if self.threads == 0 {
            return Err(Error::InvalidOption {
                option: "threads",
                value: "0".to_string(),
                reason: "expected at least 1 thread",
            });
        }
        Ok(())
    }
}
