//! The restricted master LP of RCBoost: the LP relaxation of MIRCO's set
//! cover over the current pool, grown column by column.
//!
//! # Working sets of rows and columns (the default)
//!
//! The LP has one covering row per training row, but at an optimum only a
//! few hundred of them carry a positive dual (about 350 of 10⁴ on
//! twonorm-like data, 750 of 3·10⁴) and a few hundred columns are
//! positive; re-solving the whole LP every round is what made RCBoost grow
//! faster than n² (docs/PERFORMANCE.md, "RCBoost: working sets"). With
//! [`MasterRows::WorkingSet`] each solve starts from the previous LP's
//! tight rows (cover exactly 1, or a positive dual) and its columns of
//! reduced cost 0 or positive `z` (and the columns added since), and is
//! certified against the whole LP:
//!
//! 1. solve the LP restricted to the working rows and columns;
//! 2. one pass over the pool's coverage gives every training row's cover
//!    `Σ_{j∋i} z_j` (the rows below `1 − ROW_TOL` are violated) and every
//!    column's reduced cost `c_j − Σ_{i∈I(j)} λ_i` with `λ` zero outside
//!    the working rows (the columns below `−COLUMN_TOL` are violated);
//! 3. if nothing is violated, `z` (zero outside) is feasible for the full
//!    LP, `λ` (zero outside) is feasible for its dual, and complementary
//!    slackness holds (it holds in the restricted LP, and every variable
//!    outside it is 0), so both are optimal for the full LP and the
//!    objective is the full LP's. Otherwise add the violated rows and
//!    columns and go to 1 (HiGHS re-solves the grown LP from its last
//!    basis, [`default_master_solver`]).
//!
//! Violated rows that share the pattern of covering LP columns are the
//! same constraint: only the first of them (lowest row index) enters and
//! carries the pattern's dual, which is the split a basic solution of the
//! full LP gives too (of identical rows at most one has a non-basic slack,
//! so at most one a non-zero dual). Which of the full LP's many optimal
//! dual solutions a solver returns is not determined by the LP, and the
//! pricing tree is fitted on the duals, so the working set can grow other
//! trees than the full LP: every solve has the full LP's objective, and the
//! models are equally faithful to Algorithm 2 (which the paper ran with
//! Gurobi's duals, not HiGHS's); `tests/master.rs` checks the optimum round
//! by round and the held-out accuracy of both.
//!
//! [`MasterRows::Full`] solves the LP as written (every training row a
//! row, every column a variable, warm-started column by column), the
//! reference and the model before the working sets.

use rc_lp::{LpSolver, LpStatus, Model, RowId, VarId};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

use crate::error::{Error, Result};

/// A training row outside the working set is violated when its cover
/// `Σ_{j∋i} z_j` is below `1 − ROW_TOL` (HiGHS keeps the LP's own rows
/// feasible within 1e-7; this is stricter, so a certified solution is
/// feasible for the full LP within the solver's tolerance).
pub const ROW_TOL: f64 = 1e-9;

/// A column outside the LP enters when its reduced cost is below
/// `−COLUMN_TOL` (the pricing test of [`crate::rcboost::REDUCED_COST_TOL`]).
pub const COLUMN_TOL: f64 = 1e-9;

/// Which covering rows the master LP holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum MasterRows {
    /// Every training row is a row of the LP (the LP as written).
    Full,
    /// Working sets of rows and columns, grown by the violated ones until
    /// the solution is optimal for the full LP (exact; see the module
    /// docs).
    #[default]
    WorkingSet,
}

/// `min Σ c_j z_j  s.t.  Σ_{j ∋ i} z_j ≥ 1 (λ_i),  z ≥ 0`.
#[derive(Debug, Clone)]
pub struct CoverMaster {
    rows_mode: MasterRows,
    n_rows: usize,
    /// Each column's cost.
    costs: Vec<f64>,
    /// Training rows covered by each column.
    coverage: Vec<Vec<u32>>,
    /// The last solution's `z` (columns added since are 0).
    z: Vec<f64>,
    /// The last solution's duals, one per training row.
    duals: Vec<f64>,
    /// Covering rows in the last LP.
    lp_rows: usize,
    /// Training rows the next solve starts with.
    keep_rows: Vec<bool>,
    /// Columns the next solve starts with (columns added since: all).
    keep_cols: Vec<bool>,
}

/// One solve of the master.
#[derive(Debug, Clone)]
pub struct MasterSolution {
    /// Optimal objective.
    pub objective: f64,
    /// `z_j` of each column.
    pub z: Vec<f64>,
    /// Covering duals `λ_i ≥ 0`, one per training row (0 outside the
    /// working set).
    pub duals: Vec<f64>,
    /// LP solves this solve took (1 with [`MasterRows::Full`]; with a
    /// working set, one more per pass that found violated rows or
    /// columns).
    pub passes: usize,
}

/// The LP of one solve: covering rows of some training rows, variables of
/// some columns.
struct Restricted {
    model: Model,
    /// The LP row of each training row in the LP.
    row_of: Vec<Option<RowId>>,
    /// The training row of each LP row.
    rows: Vec<u32>,
    /// The variable of each column in the LP.
    var_of: Vec<Option<VarId>>,
    /// The column of each LP variable.
    cols: Vec<u32>,
}

impl Restricted {
    fn new(n_rows: usize, n_cols: usize) -> Self {
        let mut model = Model::minimize();
        model.set_name("rcboost_master");
        Restricted {
            model,
            row_of: vec![None; n_rows],
            rows: Vec::new(),
            var_of: vec![None; n_cols],
            cols: Vec::new(),
        }
    }

    /// Adds column `j` (cost, covered training rows) with its entries in
    /// the LP's rows.
    fn add_column(&mut self, j: usize, cost: f64, covers: &[u32]) -> Result<()> {
        let entries: Vec<(RowId, f64)> = covers
            .iter()
            .filter_map(|&i| self.row_of[i as usize])
            .map(|r| (r, 1.0))
            .collect();
        let v = self
            .model
            .add_column(cost, (0.0, f64::INFINITY), &entries)
            .map_err(lp_error(0))?;
        self.var_of[j] = Some(v);
        self.cols.push(j as u32);
        Ok(())
    }

    /// Adds the covering row of training row `i`, given the columns that
    /// cover it.
    fn add_row(&mut self, i: u32, columns: &[u32]) -> Result<()> {
        let terms: Vec<(VarId, f64)> = columns
            .iter()
            .filter_map(|&j| self.var_of[j as usize])
            .map(|v| (v, 1.0))
            .collect();
        let r = self.model.add_ge(&terms, 1.0).map_err(lp_error(0))?;
        self.row_of[i as usize] = Some(r);
        self.rows.push(i);
        Ok(())
    }
}

fn lp_error(round: usize) -> impl Fn(rc_lp::Error) -> Error {
    move |e| Error::Lp {
        round,
        message: e.to_string(),
    }
}

impl CoverMaster {
    /// A master with one covering row per training row and no columns,
    /// holding its rows as `rows_mode` says.
    pub fn new(n_rows: usize, rows_mode: MasterRows) -> Result<Self> {
        Ok(CoverMaster {
            rows_mode,
            n_rows,
            costs: Vec::new(),
            coverage: Vec::new(),
            z: Vec::new(),
            duals: vec![0.0; n_rows],
            lp_rows: 0,
            keep_rows: Vec::new(),
            keep_cols: Vec::new(),
        })
    }

    /// Number of columns.
    pub fn n_columns(&self) -> usize {
        self.costs.len()
    }

    /// Number of covering rows in the last LP solved (every training row
    /// with [`MasterRows::Full`]).
    pub fn n_lp_rows(&self) -> usize {
        self.lp_rows
    }

    /// Adds a column with cost `cost` covering `rows` (sorted training
    /// rows).
    pub fn add_column(&mut self, cost: f64, rows: &[u32]) -> Result<()> {
        if let Some(&i) = rows.iter().find(|&&i| i as usize >= self.n_rows) {
            return Err(Error::Lp {
                round: 0,
                message: format!("a column covers row {i} of {}", self.n_rows),
            });
        }
        self.costs.push(cost);
        self.coverage.push(rows.to_vec());
        Ok(())
    }

    /// Solves the LP over every column added so far; anything but an
    /// optimum with duals is an error. With a working set, solves until
    /// the solution is certified optimal for the full LP (the module docs).
    pub fn solve(&mut self, solver: &dyn LpSolver, round: usize) -> Result<MasterSolution> {
        let n_cols = self.costs.len();
        let mut lp = Restricted::new(self.n_rows, n_cols);
        let full = self.rows_mode == MasterRows::Full;
        // Rows: every one, or the tight rows of the last LP.
        for i in 0..self.n_rows {
            if full || self.keep_rows.get(i).copied().unwrap_or(false) {
                lp.add_row(i as u32, &[])?;
            }
        }
        // Columns: every one, or those of positive z last time and the new.
        for j in 0..n_cols {
            if full || self.keep_cols.get(j).copied().unwrap_or(true) {
                lp.add_column(j, self.costs[j], &self.coverage[j])?;
            }
        }
        let mut passes = 0;
        loop {
            let (objective, x, y) = if lp.rows.is_empty() {
                // Every cost is positive: z = 0 is optimal.
                (0.0, vec![0.0; lp.cols.len()], Vec::new())
            } else {
                passes += 1;
                let sol = solve_lp(&lp.model, solver, round)?;
                (sol.objective, sol.primal, sol.row_duals)
            };
            let mut z = vec![0.0; n_cols];
            for (&j, &v) in lp.cols.iter().zip(&x) {
                z[j as usize] = v;
            }
            let mut duals = vec![0.0; self.n_rows];
            for (&i, &d) in lp.rows.iter().zip(&y) {
                // Tiny negative duals are round-off of a ≥ row's λ ≥ 0.
                duals[i as usize] = d.max(0.0);
            }
            let cover = if full {
                Vec::new()
            } else {
                row_cover(self.n_rows, &self.coverage, &z)
            };
            let rows = if full {
                Vec::new()
            } else {
                violated_rows(&lp, &self.coverage, &cover)
            };
            let cols = if full {
                Vec::new()
            } else {
                negative_columns(&lp, &self.costs, &self.coverage, &duals)
            };
            if rows.is_empty() && cols.is_empty() {
                if !full {
                    let (keep_rows, keep_cols) =
                        tight(&lp, &self.costs, &self.coverage, &cover, &z, &duals);
                    self.keep_rows = keep_rows;
                    self.keep_cols = keep_cols;
                }
                self.lp_rows = lp.rows.len();
                self.z.clone_from(&z);
                self.duals.clone_from(&duals);
                return Ok(MasterSolution {
                    objective,
                    z,
                    duals,
                    passes,
                });
            }
            // Columns first (entries in the old rows), then the rows with
            // their entries in every column of the LP.
            for j in cols {
                lp.add_column(j, self.costs[j], &self.coverage[j])?;
            }
            for (i, columns) in rows {
                lp.add_row(i, &columns)?;
            }
        }
    }
}

/// Each training row's cover `Σ_{j∋i} z_j` under `z`.
fn row_cover(n_rows: usize, coverage: &[Vec<u32>], z: &[f64]) -> Vec<f64> {
    let mut cover = vec![0.0; n_rows];
    for (col, &zj) in coverage.iter().zip(z) {
        if zj > 0.0 {
            for &i in col {
                cover[i as usize] += zj;
            }
        }
    }
    cover
}

/// A column's reduced cost `c_j − Σ_{i∈I(j)} λ_i`.
fn reduced_cost(cost: f64, rows: &[u32], duals: &[f64]) -> f64 {
    cost - rows.iter().map(|&i| duals[i as usize]).sum::<f64>()
}

/// The rows of the LP whose cover is tight or whose dual is positive, and
/// the columns of the LP whose reduced cost is 0 or whose `z` is positive.
fn tight(
    lp: &Restricted,
    costs: &[f64],
    coverage: &[Vec<u32>],
    cover: &[f64],
    z: &[f64],
    duals: &[f64],
) -> (Vec<bool>, Vec<bool>) {
    let rows = (0..cover.len())
        .map(|i| duals[i] > 0.0 || (lp.row_of[i].is_some() && cover[i] <= 1.0 + ROW_TOL))
        .collect();
    let cols = (0..costs.len())
        .map(|j| {
            z[j] > 0.0
                || (lp.var_of[j].is_some()
                    && reduced_cost(costs[j], &coverage[j], duals) <= COLUMN_TOL)
        })
        .collect();
    (rows, cols)
}

/// Solves `model`: an optimum with one dual per row, or an error.
fn solve_lp(model: &Model, solver: &dyn LpSolver, round: usize) -> Result<rc_lp::LpSolution> {
    let lp_err = |message: String| Error::Lp { round, message };
    let sol = solver
        .solve_lp(model)
        .map_err(|source| Error::LpSolve { round, source })?;
    if sol.status != LpStatus::Optimal {
        return Err(lp_err(format!("status {:?}", sol.status)));
    }
    if sol.row_duals.len() != model.num_rows() {
        return Err(lp_err("the solver returned no duals".into()));
    }
    Ok(sol)
}

/// The columns outside the LP whose reduced cost `c_j − Σ_{i∈I(j)} λ_i`
/// is below `−COLUMN_TOL`, increasing.
fn negative_columns(
    lp: &Restricted,
    costs: &[f64],
    coverage: &[Vec<u32>],
    duals: &[f64],
) -> Vec<usize> {
    (0..costs.len())
        .filter(|&j| {
            lp.var_of[j].is_none() && reduced_cost(costs[j], &coverage[j], duals) < -COLUMN_TOL
        })
        .collect()
}

/// The training rows outside the LP whose `cover` ([`row_cover`]) is
/// below `1 − ROW_TOL`, one per pattern of covering LP columns (the lowest
/// row of each), increasing, each with every column covering it.
fn violated_rows(lp: &Restricted, coverage: &[Vec<u32>], cover: &[f64]) -> Vec<(u32, Vec<u32>)> {
    let n = lp.row_of.len();
    // Slot of each violated row, then the columns covering it.
    const NONE: u32 = u32::MAX;
    let mut slot = vec![NONE; n];
    let mut rows: Vec<(u32, Vec<u32>)> = Vec::new();
    for (i, (&c, r)) in cover.iter().zip(&lp.row_of).enumerate() {
        if r.is_none() && c < 1.0 - ROW_TOL {
            slot[i] = rows.len() as u32;
            rows.push((i as u32, Vec::new()));
        }
    }
    if rows.is_empty() {
        return rows;
    }
    for (j, col) in coverage.iter().enumerate() {
        for &i in col {
            let s = slot[i as usize];
            if s != NONE {
                rows[s as usize].1.push(j as u32);
            }
        }
    }
    // Rows of the same pattern of LP columns are the same LP row.
    let pattern = |cols: &[u32]| -> Vec<u32> {
        cols.iter()
            .copied()
            .filter(|&j| lp.var_of[j as usize].is_some())
            .collect()
    };
    let mut seen: HashSet<Vec<u32>> = HashSet::with_capacity(rows.len());
    rows.into_iter()
        .filter(|(_, cols)| seen.insert(pattern(cols)))
        .collect()
}

/// The LP solver of RCBoost's [`rulecover_core::Fit`] for
/// [`crate::RcBoostParams`] and of [`crate::RcBoostParams::fit_path`]:
/// [`rc_lp::default_lp_solver`], and with feature `highs` HiGHS re-solving
/// models grown by rows from the last basis too
/// (`rc_lp::HighsSolver::with_row_warm_start`), as a working set grows.
pub fn default_master_solver() -> Box<dyn LpSolver> {
    #[cfg(feature = "highs")]
    {
        Box::new(rc_lp::HighsSolver::new().with_row_warm_start(true))
    }
    #[cfg(not(feature = "highs"))]
    {
        rc_lp::default_lp_solver()
    }
}
