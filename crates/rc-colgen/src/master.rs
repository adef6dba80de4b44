//! The restricted master LP of RCBoost: the LP relaxation of MIRCO's set
//! cover over the current pool, grown column by column.

use rc_lp::{LpSolver, LpStatus, Model, RowId, VarId};

use crate::error::{Error, Result};

/// `min Σ c_j z_j  s.t.  Σ_{j ∋ i} z_j ≥ 1 (λ_i),  z ≥ 0`.
#[derive(Debug, Clone)]
pub struct CoverMaster {
    model: Model,
    rows: Vec<RowId>,
    cols: Vec<VarId>,
}

/// One solve of the master.
#[derive(Debug, Clone)]
pub struct MasterSolution {
    /// Optimal objective.
    pub objective: f64,
    /// `z_j` of each column.
    pub z: Vec<f64>,
    /// Covering duals `λ_i ≥ 0`, one per training row.
    pub duals: Vec<f64>,
}

impl CoverMaster {
    /// A master with one covering row per training row and no columns.
    pub fn new(n_rows: usize) -> Result<Self> {
        let mut model = Model::minimize();
        model.set_name("rcboost_master");
        let rows = (0..n_rows)
            .map(|_| model.add_ge(&[], 1.0))
            .collect::<std::result::Result<Vec<_>, _>>()
            .map_err(|e| Error::Lp {
                round: 0,
                message: e.to_string(),
            })?;
        Ok(CoverMaster {
            model,
            rows,
            cols: Vec::new(),
        })
    }

    /// Number of columns.
    pub fn n_columns(&self) -> usize {
        self.cols.len()
    }

    /// Adds a column with cost `cost` covering `rows`.
    pub fn add_column(&mut self, cost: f64, rows: &[u32]) -> Result<()> {
        let entries: Vec<(RowId, f64)> =
            rows.iter().map(|&i| (self.rows[i as usize], 1.0)).collect();
        let v = self
            .model
            .add_column(cost, (0.0, f64::INFINITY), &entries)
            .map_err(|e| Error::Lp {
                round: 0,
                message: e.to_string(),
            })?;
        self.cols.push(v);
        Ok(())
    }

    /// Solves the LP; anything but an optimum with duals is an error.
    pub fn solve(&self, solver: &dyn LpSolver, round: usize) -> Result<MasterSolution> {
        let lp_err = |message: String| Error::Lp { round, message };
        let sol = solver
            .solve_lp(&self.model)
            .map_err(|source| Error::LpSolve { round, source })?;
        if sol.status != LpStatus::Optimal {
            return Err(lp_err(format!("status {:?}", sol.status)));
        }
        if sol.row_duals.len() != self.rows.len() {
            return Err(lp_err("the solver returned no duals".into()));
        }
        Ok(MasterSolution {
            objective: sol.objective,
            z: self.cols.iter().map(|v| sol.primal[v.index()]).collect(),
            // Tiny negative duals are round-off of a ≥ row's λ ≥ 0.
            duals: sol.row_duals.iter().map(|d| d.max(0.0)).collect(),
        })
    }

    /// The LP model (for export and debugging).
    pub fn model(&self) -> &Model {
        &self.model
    }
}
