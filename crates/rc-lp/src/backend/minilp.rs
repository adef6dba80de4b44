//! The default, pure-Rust backend on top of the `minilp` crate.
//!
//! LPs are solved by minilp's simplex; MIPs by this crate's depth-first
//! branch-and-bound (module `bnb`) that re-solves child nodes warm from the
//! parent's simplex state. minilp has no time limit of its own, so a single LP solve
//! cannot be interrupted: [`MinilpSolver::max_size`] bounds the model size instead,
//! and branch-and-bound checks the clock between nodes.

mod bnb;

use crate::driver;
use crate::error::Error;
use crate::model::Model;
use crate::solution::{LpSolution, LpStatus, MipSolution, RawLp};
use crate::solver::{DualMethod, LpOptions, LpSolver, MipOptions, MipSolver};
use ::minilp::{ComparisonOp, OptimizationDirection, Problem, Solution, Variable};

/// Default for [`MinilpSolver::max_size`] (rows + columns).
pub const DEFAULT_MAX_SIZE: usize = 200_000;

/// The `minilp` backend (pure Rust, always available).
///
/// Implements [`LpSolver`] (duals by explicit dual, see [`DualMethod`]) and
/// [`MipSolver`] (branch-and-bound; honours time limit, node limit and gap).
#[derive(Clone, Debug, PartialEq)]
pub struct MinilpSolver {
    /// LP options (dual method and tolerances).
    pub lp: LpOptions,
    /// Largest accepted `rows + columns` of a model (and of its explicit dual);
    /// larger models give [`Error::ModelTooLarge`] instead of an unbounded solve time.
    pub max_size: usize,
}

impl Default for MinilpSolver {
    fn default() -> Self {
        MinilpSolver {
            lp: LpOptions::default(),
            max_size: DEFAULT_MAX_SIZE,
        }
    }
}

impl MinilpSolver {
    /// The backend with default options.
    pub fn new() -> Self {
        Self::default()
    }

    /// Returns this solver with another dual method.
    pub fn with_duals(mut self, duals: DualMethod) -> Self {
        self.lp.duals = duals;
        self
    }

    /// Returns this solver with another size limit (rows + columns).
    pub fn with_max_size(mut self, max_size: usize) -> Self {
        self.max_size = max_size;
        self
    }

    pub(crate) fn check_size(&self, model: &Model) -> Result<(), Error> {
        let (rows, cols) = (model.num_rows(), model.num_vars());
        if rows.saturating_add(cols) > self.max_size {
            return Err(Error::ModelTooLarge {
                rows,
                cols,
                limit: self.max_size,
            });
        }
        Ok(())
    }

    fn primal(&self, model: &Model) -> Result<RawLp, Error> {
        self.check_size(model)?;
        if let Some(raw) = trivial_lp(model) {
            return Ok(raw);
        }
        let mp = to_problem(model, |j| model.relaxed_bounds(j), false);
        let status = match solve_checked(model, &mp, |j| model.relaxed_bounds(j)) {
            Ok(sol) => {
                return Ok(RawLp {
                    status: LpStatus::Optimal,
                    x: mp.vars.iter().map(|v| v.value(&sol)).collect(),
                })
            }
            Err(status) => status,
        };
        Ok(RawLp::status(status))
    }
}

impl LpSolver for MinilpSolver {
    fn solve_lp(&self, model: &Model) -> Result<LpSolution, Error> {
        driver::solve_lp("minilp", model, &self.lp, &|m: &Model| self.primal(m))
    }
}

impl MipSolver for MinilpSolver {
    fn solve_mip(&self, model: &Model, opts: &MipOptions) -> Result<MipSolution, Error> {
        bnb::solve(self, model, opts)
    }
}

/// Handles a model without variables (minilp and CBC dislike empty problems).
pub(crate) fn trivial_lp(model: &Model) -> Option<RawLp> {
    if model.num_vars() > 0 {
        return None;
    }
    let feasible = model
        .rows()
        .iter()
        .all(|r| r.lower <= 0.0 && 0.0 <= r.upper);
    Some(if feasible {
        RawLp {
            status: LpStatus::Optimal,
            x: Vec::new(),
        }
    } else {
        RawLp::status(LpStatus::Infeasible)
    })
}

/// Solves a translated problem; `Err` carries a non-optimal status.
///
/// minilp sometimes "solves" an unbounded LP to infinite values instead of
/// reporting it; a non-finite answer is re-checked with a zero objective: if the
/// model is feasible it is unbounded, otherwise it is a numerical failure.
pub(crate) fn solve_checked(
    model: &Model,
    mp: &MiniProblem,
    bounds: impl Fn(usize) -> (f64, f64),
) -> Result<Solution, LpStatus> {
    match mp.problem.solve() {
        Ok(_) if mp.empty_unbounded => Err(LpStatus::Unbounded),
        Ok(sol) => {
            let finite =
                sol.objective().is_finite() && mp.vars.iter().all(|v| v.value(&sol).is_finite());
            if finite {
                return Ok(sol);
            }
            let feas = to_problem(model, bounds, true);
            match feas.problem.solve() {
                Ok(f) if feas.vars.iter().all(|v| v.value(&f).is_finite()) => {
                    Err(LpStatus::Unbounded)
                }
                Ok(_) => Err(LpStatus::NumericalFailure),
                Err(::minilp::Error::Infeasible) => Err(LpStatus::Infeasible),
                Err(::minilp::Error::Unbounded) => Err(LpStatus::NumericalFailure),
            }
        }
        Err(::minilp::Error::Infeasible) => Err(LpStatus::Infeasible),
        Err(::minilp::Error::Unbounded) => Err(LpStatus::Unbounded),
    }
}

/// A model variable in a minilp problem: itself, or `p − q` for a free variable
/// (minilp mishandles free variables, e.g. returning infinite values on an
/// unbounded optimal face, so they are split into two nonnegative parts).
#[derive(Clone, Copy, Debug)]
pub(crate) enum MVar {
    /// The variable itself.
    One(Variable),
    /// `x = p − q` with `p, q >= 0`.
    Split(Variable, Variable),
}

impl MVar {
    /// Value of the model variable in a minilp solution.
    pub(crate) fn value(self, sol: &Solution) -> f64 {
        match self {
            MVar::One(v) => sol[v],
            MVar::Split(p, q) => sol[p] - sol[q],
        }
    }

    /// Appends the minilp terms of `coef · x` to `out`.
    pub(crate) fn push_terms(self, coef: f64, out: &mut Vec<(Variable, f64)>) {
        match self {
            MVar::One(v) => out.push((v, coef)),
            MVar::Split(p, q) => {
                out.push((p, coef));
                out.push((q, -coef));
            }
        }
    }
}

/// A model translated to minilp.
pub(crate) struct MiniProblem {
    pub problem: Problem,
    pub vars: Vec<MVar>,
    /// True when an empty column makes the problem unbounded (if the rest is feasible).
    pub empty_unbounded: bool,
}

/// Builds a minilp minimisation problem (`c' = ±c`, or `0` when `zero_obj`) with
/// the given bounds.
///
/// Columns without nonzeros are fixed at their optimal bound (minilp would declare
/// a free empty column with zero cost unbounded); free columns are split.
pub(crate) fn to_problem(
    model: &Model,
    bounds: impl Fn(usize) -> (f64, f64),
    zero_obj: bool,
) -> MiniProblem {
    let sign = if zero_obj { 0.0 } else { model.sign() };
    let mut problem = Problem::new(OptimizationDirection::Minimize);
    let mut empty_unbounded = false;
    let vars: Vec<MVar> = model
        .vars()
        .iter()
        .enumerate()
        .map(|(j, v)| {
            let c = sign * v.obj;
            let (lo, up) = bounds(j);
            let is_empty = model.cols()[j].is_empty();
            if !is_empty {
                if lo == f64::NEG_INFINITY && up == f64::INFINITY {
                    let p = problem.add_var(c, (0.0, f64::INFINITY));
                    let q = problem.add_var(-c, (0.0, f64::INFINITY));
                    return MVar::Split(p, q);
                }
                return MVar::One(problem.add_var(c, (lo, up)));
            }
            let value = if c > 0.0 {
                lo
            } else if c < 0.0 {
                up
            } else if lo.is_finite() {
                lo
            } else if up.is_finite() {
                up
            } else {
                0.0
            };
            if value.is_finite() {
                MVar::One(problem.add_var(c, (value, value)))
            } else {
                empty_unbounded = true;
                MVar::One(problem.add_var(c, (0.0, 0.0)))
            }
        })
        .collect();
    let mut terms: Vec<(Variable, f64)> = Vec::new();
    for (row, entries) in model.rows().iter().zip(model.row_entries()) {
        terms.clear();
        for &(v, a) in &entries {
            vars[v.index()].push_terms(a, &mut terms);
        }
        let (lo, up) = (row.lower, row.upper);
        if lo == up {
            problem.add_constraint(terms.as_slice(), ComparisonOp::Eq, lo);
        } else {
            if lo.is_finite() {
                problem.add_constraint(terms.as_slice(), ComparisonOp::Ge, lo);
            }
            if up.is_finite() {
                problem.add_constraint(terms.as_slice(), ComparisonOp::Le, up);
            }
        }
    }
    MiniProblem {
        problem,
        vars,
        empty_unbounded,
    }
}
