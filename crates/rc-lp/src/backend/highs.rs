//! The HiGHS backend through the `highs` crate (feature `highs`).
//!
//! `highs-sys` builds HiGHS from source, which needs cmake, a C++ compiler and
//! libclang at build time (Debian: `cmake g++ libclang-dev`).
//!
//! HiGHS reports row duals natively. They are verified like every other
//! backend's duals (sign, dual feasibility, strong duality; see
//! [`crate::LpSolution`]), and when they fail verification the explicit dual LP
//! is solved instead, so a caller never sees unverified duals.
//!
//! # Warm starts
//!
//! Column generation re-solves a model that grew by a few columns. With
//! [`HighsSolver::warm_start`] on (the default), each thread keeps the HiGHS
//! instance of its last optimal LP solve together with a copy of the model it
//! solved. When the next model has the same sense and rows and the old
//! variables and columns as a strict prefix, only the new columns are passed to HiGHS,
//! which restarts from the previous optimal basis (presolve off, primal simplex:
//! new columns leave that basis primal feasible); any other model is loaded
//! afresh. The copy is compared entry by entry (O(nonzeros)), so a
//! model changed in any other way is never solved from a stale instance.
//!
//! With [`HighsSolver::grow_rows`] on, a model that also gained rows (and
//! whose old columns gained entries only in those rows, and may have new
//! bounds) is warm-started too: the instance gets the new bounds, columns and
//! rows, the new rows' slacks enter the basis, which stays dual feasible, and
//! the dual simplex continues from it. With [`HighsSolver::dual_warm_columns`]
//! on, a model grown by bounded columns only is re-solved by the dual
//! simplex too (a new column starts at the bound where it is dual feasible).
//!
//! # Failures and retries
//!
//! When a run stops without an answer (it returns `Error`, or its model
//! status is neither optimal, infeasible, unbounded nor the time limit),
//! the LP is solved again, cold, by the next algorithm of
//! [`HighsAlgorithm::retry_order`] (a failed warm re-solve first retries
//! the configured algorithm cold); the time limit bounds all runs of one
//! solve together. When every algorithm fails the solve is
//! [`Error::SolveFailed`] with the LP's size and each run's algorithm and
//! status. [`HighsSolver::retry`] switches the retries off.

use crate::driver;
use crate::error::{catch_backend, Error, SolveAttempt};
use crate::model::{Model, VarKind};
use crate::solution::{LpSolution, LpStatus, MipSolution, MipStatus, RawLp};
use crate::solver::{DualMethod, LpOptions, LpSolver, MipOptions, MipSolver};
use highs::{ColProblem, HighsModelStatus, Row, Sense as HighsSense};
use std::cell::RefCell;
use std::time::{Duration, Instant};

pub use super::highs_algorithm::HighsAlgorithm;

/// The HiGHS backend (feature `highs`).
///
/// Implements [`LpSolver`] (dual simplex, native verified duals, warm starts
/// for column generation) and [`MipSolver`] (HiGHS's branch-and-cut with time
/// limit, relative gap, node limit and a starting solution).
#[derive(Clone, Debug, PartialEq)]
pub struct HighsSolver {
    /// LP options (dual method and tolerances). With [`DualMethod::Skip`] no
    /// duals are returned; otherwise HiGHS's own duals are verified and used.
    pub lp: LpOptions,
    /// Let HiGHS print its log to stdout (off by default).
    pub log: bool,
    /// Re-solve grown models from the previous optimal basis (see the module
    /// documentation); on by default.
    pub warm_start: bool,
    /// Wall-clock limit of one LP solve; reaching it gives
    /// [`LpStatus::TimeLimit`]. `None` (the default) means no limit.
    pub lp_time_limit: Option<Duration>,
    /// The algorithm of cold LP solves (default [`HighsAlgorithm::Choose`]:
    /// HiGHS's own choice). Warm re-solves of models grown by columns only
    /// use the primal simplex, those grown by rows the dual simplex,
    /// whatever this says.
    pub algorithm: HighsAlgorithm,
    /// Also warm-start models that grew by appended *rows* (and appended
    /// columns), where existing columns may have new bounds and entries in
    /// the new rows only: the new rows enter with basic slacks, so the
    /// previous optimal basis stays dual feasible and the dual simplex
    /// continues from it. Suits a master LP in the dual form, which gains a
    /// row per generated column (RUG). Off by default (only appended
    /// columns are warm-started); needs [`HighsSolver::warm_start`].
    pub grow_rows: bool,
    /// Re-solve a model grown by *boxed* columns only (finite lower and
    /// upper bounds) with the dual simplex instead of the primal: a new
    /// column that would improve the objective starts at the bound where
    /// it is dual feasible, so the old basis stays dual feasible. Suits a
    /// dual-form master LP that gains bounded columns (RUX's working set of
    /// hinge rows), where the primal simplex is slow. Off by default;
    /// needs [`HighsSolver::warm_start`].
    pub dual_warm_columns: bool,
    /// Let HiGHS presolve cold LP solves (its option `presolve` = `choose`,
    /// the default). Off runs the solver on the model as given, which can
    /// be faster on LPs that presolve barely reduces (on RUX's dual form for
    /// magic: 3.8–4.2 s instead of 5.0 s; docs/PERFORMANCE.md). Warm
    /// re-solves never presolve.
    pub presolve: bool,
    /// The most iterations each algorithm may run in one LP solve (HiGHS's
    /// `simplex_iteration_limit` and `ipm_iteration_limit`). An algorithm
    /// that reaches it has failed and the next of the retry order runs
    /// (module documentation). `None` (the default) means no limit.
    pub iteration_limit: Option<u64>,
    /// Retry an LP solve that stops without an answer with the next
    /// algorithm of [`HighsAlgorithm::retry_order`] (on by default); off,
    /// the first failure is [`Error::SolveFailed`].
    pub retry: bool,
}

impl Default for HighsSolver {
    fn default() -> Self {
        HighsSolver {
            lp: LpOptions::default(),
            log: false,
            warm_start: true,
            lp_time_limit: None,
            algorithm: HighsAlgorithm::Choose,
            grow_rows: false,
            dual_warm_columns: false,
            presolve: true,
            iteration_limit: None,
            retry: true,
        }
    }
}

/// The last optimal LP of this thread, kept for a warm start.
struct Warm {
    /// The model as it was solved.
    snapshot: Model,
    /// HiGHS handles of the model's rows.
    rows: Vec<Row>,
    /// The solved HiGHS instance (holding its optimal basis).
    highs: highs::Model,
    /// Whether the instance was configured with logging on.
    log: bool,
}

thread_local! {
    static WARM: RefCell<Option<Warm>> = const { RefCell::new(None) };
}

fn backend_error(message: String) -> Error {
    Error::Backend {
        backend: "highs",
        message,
    }
}

/// The outcome of an LP relaxation's solve: its status and, when optimal,
/// the solved instance with its row handles.
struct Relaxation {
    status: LpStatus,
    optimum: Option<(highs::SolvedModel, Vec<Row>)>,
}

impl Relaxation {
    /// A solve that ended with `status` and no optimum.
    fn status(status: LpStatus) -> Relaxation {
        Relaxation {
            status,
            optimum: None,
        }
    }
}

/// Whether a run that ended with `status` answered: optimal, infeasible,
/// unbounded (or one of the two), or stopped by the caller's time limit.
/// Any other status (`Solve error`, `Iteration limit reached`, …) is a
/// failure of the algorithm that ran.
fn answered(status: HighsModelStatus) -> bool {
    matches!(
        status,
        HighsModelStatus::Optimal
            | HighsModelStatus::Infeasible
            | HighsModelStatus::Unbounded
            | HighsModelStatus::UnboundedOrInfeasible
            | HighsModelStatus::ReachedTimeLimit
    )
}

/// Runs `highs` (set up for `algorithm`): the solved instance when the run
/// answered ([`answered`]), else the attempt with how it stopped.
fn run(highs: highs::Model, algorithm: &str) -> Result<highs::SolvedModel, SolveAttempt> {
    let attempt = |model_status| SolveAttempt {
        algorithm: algorithm.to_string(),
        model_status,
    };
    match highs.try_solve() {
        Ok(solved) if answered(solved.status()) => Ok(solved),
        Ok(solved) => Err(attempt(Some(model_status_name(solved.status())))),
        Err(_) => Err(attempt(None)),
    }
}

/// The error of a solve of `model` (an `LP` or a `MIP`) whose every
/// attempt failed.
fn solve_failed(model: &Model, problem: &'static str, attempts: Vec<SolveAttempt>) -> Error {
    Error::SolveFailed {
        backend: "highs",
        problem,
        rows: model.num_rows(),
        cols: model.num_vars(),
        nonzeros: model.num_nonzeros(),
        attempts,
    }
}

/// HiGHS's own words for a model status (its `modelStatusToString`).
fn model_status_name(status: HighsModelStatus) -> String {
    let name = match status {
        HighsModelStatus::NotSet => "Not Set",
        HighsModelStatus::LoadError => "Load error",
        HighsModelStatus::ModelError => "Model error",
        HighsModelStatus::PresolveError => "Presolve error",
        HighsModelStatus::SolveError => "Solve error",
        HighsModelStatus::PostsolveError => "Postsolve error",
        HighsModelStatus::ModelEmpty => "Empty",
        HighsModelStatus::ReachedMemoryLimit => "Memory limit reached",
        HighsModelStatus::Optimal => "Optimal",
        HighsModelStatus::Infeasible => "Infeasible",
        HighsModelStatus::UnboundedOrInfeasible => "Primal infeasible or unbounded",
        HighsModelStatus::Unbounded => "Unbounded",
        HighsModelStatus::ObjectiveBound => "Bound on objective reached",
        HighsModelStatus::ObjectiveTarget => "Target for objective reached",
        HighsModelStatus::ReachedTimeLimit => "Time limit reached",
        HighsModelStatus::ReachedIterationLimit => "Iteration limit reached",
        HighsModelStatus::ReachedSolutionLimit => "Solution limit reached",
        HighsModelStatus::ReachedInterrupt => "Interrupted",
        HighsModelStatus::Unknown => "Unknown",
        other => return format!("{other:?}"),
    };
    name.to_string()
}

/// How a model grew from the last one solved on the thread.
struct Growth {
    /// Rows of the old model (a prefix of the new rows).
    old_rows: usize,
    /// Variables of the old model (a prefix of the new variables).
    old_vars: usize,
    /// Old variables whose bounds changed.
    bounds: Vec<usize>,
}

/// How `new` extends `old`, if it does: one or more columns appended and,
/// with `rows_too`, rows appended, with old columns' entries in the old rows
/// unchanged (new entries only in new rows) and their bounds possibly
/// changed. (Re-solving an unchanged model starts cold, so that an answer
/// never depends on which unrelated solves ran before on the thread.)
fn growth(old: &Model, new: &Model, rows_too: bool) -> Option<Growth> {
    let (m, k) = (old.num_rows(), old.num_vars());
    if old.sense() != new.sense() || new.num_rows() < m || new.num_vars() < k {
        return None;
    }
    let more_rows = new.num_rows() > m;
    if (more_rows && !rows_too) || !(new.num_vars() > k || more_rows) {
        return None;
    }
    if old.rows() != &new.rows()[..m] {
        return None;
    }
    let mut bounds = Vec::new();
    for (j, (a, b)) in old.vars().iter().zip(new.vars()).enumerate() {
        if a.name != b.name || a.kind != b.kind || a.obj.to_bits() != b.obj.to_bits() {
            return None;
        }
        if a.lower.to_bits() != b.lower.to_bits() || a.upper.to_bits() != b.upper.to_bits() {
            if !rows_too {
                return None;
            }
            bounds.push(j);
        }
        let (oc, nc) = (&old.cols()[j], &new.cols()[j]);
        if nc.len() < oc.len()
            || nc[..oc.len()] != oc[..]
            || nc[oc.len()..].iter().any(|&(r, _)| r.index() < m)
        {
            return None;
        }
    }
    Some(Growth {
        old_rows: m,
        old_vars: k,
        bounds,
    })
}

/// Whether every variable from `first` on has finite lower and upper
/// bounds.
fn new_columns_boxed(model: &Model, first: usize) -> bool {
    (first..model.num_vars()).all(|j| {
        let (lo, up) = model.relaxed_bounds(j);
        lo.is_finite() && up.is_finite()
    })
}

/// Sets string-valued HiGHS options.
fn set_options(highs: &mut highs::Model, options: &[(&str, &str)]) -> Result<(), Error> {
    for &(name, value) in options {
        highs
            .try_set_option(name, value)
            .map_err(|_| backend_error(format!("could not set {name} = {value}")))?;
    }
    Ok(())
}

/// Sets boolean HiGHS options.
fn set_bool_options(highs: &mut highs::Model, options: &[(&str, bool)]) -> Result<(), Error> {
    for &(name, value) in options {
        highs
            .try_set_option(name, value)
            .map_err(|_| backend_error(format!("could not set {name} = {value}")))?;
    }
    Ok(())
}

/// Sets HiGHS's `simplex_strategy` (1 = dual, 4 = primal simplex).
fn set_simplex_strategy(highs: &mut highs::Model, strategy: i32) -> Result<(), Error> {
    highs
        .try_set_option("simplex_strategy", strategy)
        .map_err(|_| backend_error(format!("could not set simplex_strategy = {strategy}")))
}

/// Handles of the columns `0..n` of a HiGHS instance (the `highs` crate hands
/// them out only from builders; a column handle is its index).
fn col_handles(n: usize) -> Vec<highs::Col> {
    let mut p = highs::RowProblem::default();
    (0..n).map(|_| p.add_column(0.0, 0.0..=0.0)).collect()
}

/// Applies `g` to the solved instance `highs` (whose rows are `rows`) so that
/// it holds `model`: new bounds, new columns, then the new rows with their
/// entries in every column.
fn apply_growth(
    highs: &mut highs::Model,
    rows: &mut Vec<Row>,
    model: &Model,
    g: &Growth,
) -> Result<(), Error> {
    let n = model.num_vars();
    let cols = col_handles(n);
    for &j in &g.bounds {
        let (lo, up) = model.relaxed_bounds(j);
        highs.change_column_bounds(cols[j], lo..=up);
    }
    for (j, (col, var)) in model
        .cols()
        .iter()
        .zip(model.vars())
        .enumerate()
        .skip(g.old_vars)
    {
        let (lo, up) = model.relaxed_bounds(j);
        let entries = col
            .iter()
            .filter(|(r, _)| r.index() < g.old_rows)
            .map(|&(r, a)| (rows[r.index()], a));
        highs
            .try_add_column(var.obj, lo..=up, entries)
            .map_err(|s| backend_error(format!("could not add column x{j}: {s:?}")))?;
    }
    let mut new_rows: Vec<Vec<(highs::Col, f64)>> = vec![Vec::new(); model.num_rows() - g.old_rows];
    for (j, col) in model.cols().iter().enumerate() {
        // Entries are sorted by row: the new rows' come last.
        let first_new = col.partition_point(|(r, _)| r.index() < g.old_rows);
        for &(r, a) in &col[first_new..] {
            new_rows[r.index() - g.old_rows].push((cols[j], a));
        }
    }
    for (i, (row, entries)) in model.rows()[g.old_rows..].iter().zip(new_rows).enumerate() {
        let handle = highs
            .try_add_row(row.lower..=row.upper, entries)
            .map_err(|s| backend_error(format!("could not add row r{}: {s:?}", g.old_rows + i)))?;
        rows.push(handle);
    }
    Ok(())
}

impl HighsSolver {
    /// The backend with default options (logging off, warm starts on).
    pub fn new() -> Self {
        Self::default()
    }

    /// Returns this solver with another dual method.
    pub fn with_duals(mut self, duals: DualMethod) -> Self {
        self.lp.duals = duals;
        self
    }

    /// Returns this solver with HiGHS's log switched on or off.
    pub fn with_log(mut self, log: bool) -> Self {
        self.log = log;
        self
    }

    /// Returns this solver with warm starts switched on or off.
    pub fn with_warm_start(mut self, warm_start: bool) -> Self {
        self.warm_start = warm_start;
        self
    }

    /// Returns this solver with a wall-clock limit per LP solve.
    pub fn with_lp_time_limit(mut self, limit: Duration) -> Self {
        self.lp_time_limit = Some(limit);
        self
    }

    /// Returns this solver with warm starts for models grown by rows too
    /// (see [`HighsSolver::grow_rows`]).
    pub fn with_row_warm_start(mut self, on: bool) -> Self {
        self.grow_rows = on;
        self
    }

    /// Re-solves models grown by boxed columns with the dual simplex (see
    /// [`HighsSolver::dual_warm_columns`]).
    pub fn with_dual_warm_columns(mut self, on: bool) -> Self {
        self.dual_warm_columns = on;
        self
    }

    /// Returns this solver with another algorithm for cold LP solves (see
    /// [`HighsAlgorithm`]).
    pub fn with_algorithm(mut self, algorithm: HighsAlgorithm) -> Self {
        self.algorithm = algorithm;
        self
    }

    /// Returns this solver with cold LP solves forced to the dual simplex
    /// (`on`: [`HighsAlgorithm::DualSimplex`]) or left to HiGHS (`off`:
    /// [`HighsAlgorithm::Choose`]); shorthand for
    /// [`HighsSolver::with_algorithm`].
    pub fn with_dual_simplex(self, on: bool) -> Self {
        self.with_algorithm(if on {
            HighsAlgorithm::DualSimplex
        } else {
            HighsAlgorithm::Choose
        })
    }

    /// Returns this solver with HiGHS's presolve of cold LP solves switched
    /// on or off (see [`HighsSolver::presolve`]).
    pub fn with_presolve(mut self, on: bool) -> Self {
        self.presolve = on;
        self
    }

    /// Returns this solver with cold LP solves by the interior-point method
    /// and crossover (`on`: [`HighsAlgorithm::InteriorPoint`]) or left to
    /// HiGHS (`off`: [`HighsAlgorithm::Choose`]); shorthand for
    /// [`HighsSolver::with_algorithm`].
    pub fn with_interior_point(self, on: bool) -> Self {
        self.with_algorithm(if on {
            HighsAlgorithm::InteriorPoint
        } else {
            HighsAlgorithm::Choose
        })
    }

    /// Returns this solver with at most `limit` iterations per algorithm
    /// and LP solve (see [`HighsSolver::iteration_limit`]).
    pub fn with_iteration_limit(mut self, limit: u64) -> Self {
        self.iteration_limit = Some(limit);
        self
    }

    /// Returns this solver with retries by other algorithms switched on or
    /// off (see [`HighsSolver::retry`]).
    pub fn with_retry(mut self, on: bool) -> Self {
        self.retry = on;
        self
    }

    /// Sets the options of a cold LP solve by `algorithm` (resolved, not
    /// [`HighsAlgorithm::Auto`]): presolve, the solver and the simplex
    /// strategy.
    fn set_cold_options(
        &self,
        highs: &mut highs::Model,
        algorithm: HighsAlgorithm,
    ) -> Result<(), Error> {
        let presolve = if self.presolve { "choose" } else { "off" };
        let (solver, crossover, strategy) = match algorithm {
            HighsAlgorithm::InteriorPoint => ("ipm", "on", 0),
            HighsAlgorithm::InteriorPointNoCrossover => ("ipm", "off", 0),
            // `choose` runs the simplex on LPs, with the strategy below
            // (the options of the dual simplex before `HighsAlgorithm`).
            HighsAlgorithm::DualSimplex => ("choose", "on", 1),
            HighsAlgorithm::PrimalSimplex => ("choose", "on", 4),
            HighsAlgorithm::Choose | HighsAlgorithm::Auto => ("choose", "on", 0),
        };
        set_options(
            highs,
            &[
                ("presolve", presolve),
                ("solver", solver),
                ("run_crossover", crossover),
            ],
        )?;
        set_simplex_strategy(highs, strategy)
    }

    /// Drops this thread's warm-start instance (it is also replaced by the next
    /// LP solve of an unrelated model).
    pub fn clear_warm_start() {
        WARM.with(|w| w.borrow_mut().take());
    }

    /// Loads `model` into a new HiGHS instance; `integral` keeps integrality and
    /// rounds integer bounds, otherwise the LP relaxation is loaded. `zero_obj`
    /// drops the objective (feasibility check).
    fn load(
        &self,
        model: &Model,
        integral: bool,
        zero_obj: bool,
    ) -> Result<(highs::Model, Vec<Row>), Error> {
        let mut problem = ColProblem::default();
        let rows: Vec<Row> = model
            .rows()
            .iter()
            .map(|r| problem.add_row(r.lower..=r.upper))
            .collect();
        for (j, (col, var)) in model.cols().iter().zip(model.vars()).enumerate() {
            let (lo, up) = if integral {
                model.integral_bounds(j)
            } else {
                model.relaxed_bounds(j)
            };
            let cost = if zero_obj { 0.0 } else { var.obj };
            let entries = col.iter().map(|&(r, a)| (rows[r.index()], a));
            if integral && var.kind != VarKind::Continuous {
                problem.add_integer_column(cost, lo..=up, entries);
            } else {
                problem.add_column(cost, lo..=up, entries);
            }
        }
        let sense = if model.sign() > 0.0 {
            HighsSense::Minimise
        } else {
            HighsSense::Maximise
        };
        let mut highs = problem
            .try_optimise(sense)
            .map_err(|s| backend_error(format!("HiGHS rejected the model: {s:?}")))?;
        // The `highs` crate makes every new instance quiet.
        if self.log {
            set_bool_options(
                &mut highs,
                &[("output_flag", true), ("log_to_console", true)],
            )?;
        }
        Ok((highs, rows))
    }

    fn set_time_limit(highs: &mut highs::Model, limit: Option<Duration>) -> Result<(), Error> {
        let seconds = limit.map_or(f64::INFINITY, |t| t.as_secs_f64());
        highs
            .try_set_option("time_limit", seconds)
            .map_err(|_| backend_error("could not set time_limit".to_string()))
    }

    /// Sets the iteration limits of the simplex and the interior point
    /// ([`HighsSolver::iteration_limit`]).
    fn set_iteration_limit(&self, highs: &mut highs::Model) -> Result<(), Error> {
        let limit = self
            .iteration_limit
            .map_or(i32::MAX, |n| i32::try_from(n).unwrap_or(i32::MAX));
        for name in ["simplex_iteration_limit", "ipm_iteration_limit"] {
            highs
                .try_set_option(name, limit)
                .map_err(|_| backend_error(format!("could not set {name} = {limit}")))?;
        }
        Ok(())
    }

    /// Decides an "unbounded or infeasible" answer by solving the feasibility
    /// problem (zero objective).
    fn unbounded_or_infeasible(&self, model: &Model, integral: bool) -> Result<bool, Error> {
        let (highs, _) = self.load(model, integral, true)?;
        let problem = if integral { "MIP" } else { "LP" };
        let algorithm = "HiGHS's choice on the feasibility problem (zero objective)";
        match run(highs, algorithm) {
            Ok(solved) => Ok(solved.status() == HighsModelStatus::Optimal),
            Err(attempt) => Err(solve_failed(model, problem, vec![attempt])),
        }
    }

    /// The LP status of an answered run (see [`answered`]).
    fn lp_status(&self, model: &Model, status: HighsModelStatus) -> Result<LpStatus, Error> {
        Ok(match status {
            HighsModelStatus::Optimal => LpStatus::Optimal,
            HighsModelStatus::Infeasible => LpStatus::Infeasible,
            HighsModelStatus::Unbounded => LpStatus::Unbounded,
            HighsModelStatus::UnboundedOrInfeasible => {
                if self.unbounded_or_infeasible(model, false)? {
                    LpStatus::Unbounded
                } else {
                    LpStatus::Infeasible
                }
            }
            HighsModelStatus::ReachedTimeLimit => LpStatus::TimeLimit,
            _ => LpStatus::NumericalFailure,
        })
    }

    /// The warm-start instance of this thread with `model` applied, when
    /// `model` grew from the model it solved: the instance, its row
    /// handles, and whether the dual simplex (rows appended or bounds
    /// changed: the old basis stays dual feasible, not primal) or the
    /// primal simplex (only columns appended) continues from its basis.
    fn warm_instance(
        &self,
        model: &Model,
    ) -> Result<Option<(highs::Model, Vec<Row>, bool)>, Error> {
        if !self.warm_start {
            return Ok(None);
        }
        let Some(w) = WARM.with(|w| w.borrow_mut().take()) else {
            return Ok(None);
        };
        let Some(g) = (w.log == self.log)
            .then(|| growth(&w.snapshot, model, self.grow_rows))
            .flatten()
        else {
            return Ok(None);
        };
        let dual = g.old_rows < model.num_rows()
            || !g.bounds.is_empty()
            || (self.dual_warm_columns && new_columns_boxed(model, g.old_vars));
        let (mut highs, mut rows) = (w.highs, w.rows);
        apply_growth(&mut highs, &mut rows, model, &g)?;
        // Presolve would discard the previous optimal basis; a warm re-solve
        // runs the simplex from it directly. The kept instance may carry a
        // cold solve's interior-point setting.
        set_options(
            &mut highs,
            &[
                ("presolve", "off"),
                ("solver", "simplex"),
                ("run_crossover", "on"),
            ],
        )?;
        set_simplex_strategy(&mut highs, if dual { 1 } else { 4 })?;
        Ok(Some((highs, rows, dual)))
    }

    /// Solves the LP relaxation of `model`: warm-started when `warm` and
    /// the thread's instance allows it, else cold by each algorithm of the
    /// retry order in turn until one answers (module documentation).
    /// Returns the status, and with an optimum the solved instance and its
    /// row handles.
    fn solve_relaxation(&self, model: &Model, warm: bool) -> Result<Relaxation, Error> {
        let deadline = self.lp_time_limit.map(|t| Instant::now() + t);
        let left = || deadline.map(|d| d.saturating_duration_since(Instant::now()));
        let mut attempts = Vec::new();
        let warm = if warm {
            self.warm_instance(model)?
        } else {
            None
        };
        if let Some((mut highs, rows, dual)) = warm {
            Self::set_time_limit(&mut highs, left())?;
            self.set_iteration_limit(&mut highs)?;
            let name = if dual {
                "dual simplex (warm start)"
            } else {
                "primal simplex (warm start)"
            };
            match run(highs, name) {
                Ok(solved) => return self.relaxation(model, solved, rows),
                Err(attempt) => attempts.push(attempt),
            }
        }
        // Without retries a failed warm re-solve is the one run.
        let order = match (self.retry, attempts.is_empty()) {
            (true, _) => self.algorithm.retry_order(model),
            (false, true) => vec![self.algorithm.resolve(model)],
            (false, false) => Vec::new(),
        };
        for algorithm in order {
            if left().is_some_and(|t| t.is_zero()) {
                return Ok(Relaxation::status(LpStatus::TimeLimit));
            }
            let (mut highs, rows) = self.load(model, false, false)?;
            Self::set_time_limit(&mut highs, left())?;
            self.set_iteration_limit(&mut highs)?;
            self.set_cold_options(&mut highs, algorithm)?;
            match run(highs, algorithm.name()) {
                Ok(solved) => return self.relaxation(model, solved, rows),
                Err(attempt) => attempts.push(attempt),
            }
        }
        Err(solve_failed(model, "LP", attempts))
    }

    /// The [`Relaxation`] of an answered run.
    fn relaxation(
        &self,
        model: &Model,
        solved: highs::SolvedModel,
        rows: Vec<Row>,
    ) -> Result<Relaxation, Error> {
        let status = self.lp_status(model, solved.status())?;
        Ok(Relaxation {
            status,
            optimum: (status == LpStatus::Optimal).then_some((solved, rows)),
        })
    }

    /// A cold LP solve without duals (used for the explicit dual LP when the
    /// native duals fail verification).
    fn primal(&self, model: &Model) -> Result<RawLp, Error> {
        if let Some(raw) = super::minilp::trivial_lp(model) {
            return Ok(raw);
        }
        let solved = self.solve_relaxation(model, false)?;
        Ok(match solved.optimum {
            Some((solved, _)) => RawLp {
                status: LpStatus::Optimal,
                x: solved.get_solution().columns().to_vec(),
            },
            None => RawLp::status(solved.status),
        })
    }

    /// An LP solve that reports HiGHS's row duals, warm-started when possible.
    fn native(&self, model: &Model) -> Result<(RawLp, Option<Vec<f64>>), Error> {
        if let Some(raw) = super::minilp::trivial_lp(model) {
            return Ok((raw, None));
        }
        let relaxation = self.solve_relaxation(model, self.warm_start)?;
        let Some((solved, rows)) = relaxation.optimum else {
            return Ok((RawLp::status(relaxation.status), None));
        };
        let solution = solved.get_solution();
        let x = solution.columns().to_vec();
        let duals = solution.dual_rows().to_vec();
        if self.warm_start {
            let warm = Warm {
                snapshot: model.clone(),
                rows,
                highs: solved.into(),
                log: self.log,
            };
            WARM.with(|w| *w.borrow_mut() = Some(warm));
        }
        Ok((
            RawLp {
                status: LpStatus::Optimal,
                x,
            },
            Some(duals),
        ))
    }

    fn mip(&self, model: &Model, opts: &MipOptions) -> Result<MipSolution, Error> {
        let sign = model.sign();
        let no_incumbent = |status: MipStatus, bound: f64| MipSolution {
            status,
            objective: sign * f64::INFINITY,
            values: Vec::new(),
            best_bound: bound,
            gap: f64::INFINITY,
            nodes: 0,
        };
        if model.is_trivially_infeasible(true) {
            return Ok(no_incumbent(MipStatus::Infeasible, sign * f64::INFINITY));
        }
        if model.num_vars() == 0 {
            return Ok(match super::minilp::trivial_lp(model).map(|r| r.status) {
                Some(LpStatus::Optimal) => MipSolution {
                    status: MipStatus::Optimal,
                    objective: 0.0,
                    values: Vec::new(),
                    best_bound: 0.0,
                    gap: 0.0,
                    nodes: 0,
                },
                _ => no_incumbent(MipStatus::Infeasible, sign * f64::INFINITY),
            });
        }
        let (mut highs, _) = self.load(model, true, false)?;
        let option_error = |name: &str| backend_error(format!("could not set {name}"));
        Self::set_time_limit(&mut highs, opts.time_limit)?;
        highs
            .try_set_option("mip_rel_gap", opts.relative_gap)
            .map_err(|_| option_error("mip_rel_gap"))?;
        if let Some(nodes) = opts.node_limit {
            let nodes = i32::try_from(nodes).unwrap_or(i32::MAX);
            highs
                .try_set_option("mip_max_nodes", nodes)
                .map_err(|_| option_error("mip_max_nodes"))?;
        }
        if let Some(init) = &opts.initial_solution {
            if init.len() == model.num_vars() && model.max_violation(init, true) <= 1e-9 {
                highs
                    .try_set_solution(Some(init), None, None, None)
                    .map_err(|s| backend_error(format!("could not pass the start: {s:?}")))?;
            }
        }
        let solved = highs.try_solve().map_err(|_| {
            let attempt = SolveAttempt {
                algorithm: "branch-and-cut".to_string(),
                model_status: None,
            };
            solve_failed(model, "MIP", vec![attempt])
        })?;
        let status = match solved.status() {
            HighsModelStatus::Optimal => MipStatus::Optimal,
            HighsModelStatus::Infeasible => MipStatus::Infeasible,
            HighsModelStatus::Unbounded => MipStatus::Unbounded,
            HighsModelStatus::UnboundedOrInfeasible => {
                if self.unbounded_or_infeasible(model, true)? {
                    MipStatus::Unbounded
                } else {
                    MipStatus::Infeasible
                }
            }
            HighsModelStatus::ReachedTimeLimit => MipStatus::TimeLimit,
            HighsModelStatus::ReachedSolutionLimit | HighsModelStatus::ReachedIterationLimit => {
                MipStatus::NodeLimit
            }
            _ => MipStatus::NumericalFailure,
        };
        let (values, feasible) = driver::mip_incumbent(
            model,
            solved.get_solution().columns().to_vec(),
            self.lp.feasibility_tol,
        );
        let status = match status {
            MipStatus::Optimal if !feasible => MipStatus::NumericalFailure,
            s => s,
        };
        let keep = feasible
            && matches!(
                status,
                MipStatus::Optimal | MipStatus::TimeLimit | MipStatus::NodeLimit
            );
        let highs_bound = solved
            .double_info_value(c"mip_dual_bound")
            .ok()
            .filter(|b| b.is_finite() && b.abs() < 1e300);
        if !keep {
            let bound = match status {
                MipStatus::Unbounded => -sign * f64::INFINITY,
                MipStatus::Infeasible => sign * f64::INFINITY,
                _ => highs_bound.unwrap_or(-sign * f64::INFINITY),
            };
            return Ok(no_incumbent(status, bound));
        }
        let objective = model.objective_value(&values);
        let best_bound = driver::incumbent_bound(
            model,
            objective,
            status == MipStatus::Optimal && opts.relative_gap == 0.0,
            highs_bound,
        );
        Ok(MipSolution {
            status,
            objective,
            gap: MipSolution::relative_gap(objective, best_bound),
            values,
            best_bound,
            nodes: 0,
        })
    }
}

impl LpSolver for HighsSolver {
    fn solve_lp(&self, model: &Model) -> Result<LpSolution, Error> {
        let result = driver::solve_lp_native(
            "highs",
            model,
            &self.lp,
            &|m: &Model| self.primal(m),
            &|m: &Model| self.native(m),
        );
        if result.is_err() {
            // Never keep an instance whose state is in doubt.
            Self::clear_warm_start();
        }
        result
    }
}

impl MipSolver for HighsSolver {
    fn solve_mip(&self, model: &Model, opts: &MipOptions) -> Result<MipSolution, Error> {
        opts.validate()?;
        model.validate()?;
        catch_backend("highs", || self.mip(model, opts))
    }
}
