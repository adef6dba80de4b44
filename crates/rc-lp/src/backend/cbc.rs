//! The COIN-OR CBC backend through `coin_cbc` (feature `cbc`).
//!
//! Links the system libraries of the Debian package `coinor-libcbc-dev`
//! (`libCbcSolver`, found with `pkg-config cbc`). libcbc is not thread safe, so
//! every CBC call made by this crate is serialised by a global lock.
//!
//! LP solves use CBC's initial LP solve (Clp) on the relaxation; duals come from the
//! explicit dual solved by CBC too (CBC 2.10's C API has no row prices). CBC 2.10
//! reports unbounded LPs as "proven infeasible", sometimes even as primal
//! infeasible (presolve cannot tell the two apart), so every infeasible/unbounded
//! answer on an LP is settled by re-solving with a zero objective (feasible ⇒
//! unbounded, infeasible ⇒ infeasible).

use crate::driver;
use crate::error::{catch_backend, Error};
use crate::model::{Model, VarKind};
use crate::solution::{LpSolution, LpStatus, MipSolution, MipStatus, RawLp};
use crate::solver::{DualMethod, LpOptions, LpSolver, MipOptions, MipSolver};
use coin_cbc::raw::{Model as RawModel, SecondaryStatus, Sense as RawSense};
use std::ffi::CString;
use std::os::raw::c_int;
use std::sync::Mutex;

/// Column(s) of a model variable in the CBC model.
#[derive(Clone, Copy, Debug)]
enum ColMap {
    One(usize),
    Split(usize, usize),
}

/// Model values from CBC column values.
fn model_values(map: &[ColMap], cols: &[f64]) -> Vec<f64> {
    let get = |k: usize| cols.get(k).copied().unwrap_or(f64::NAN);
    map.iter()
        .map(|m| match *m {
            ColMap::One(k) => get(k),
            ColMap::Split(p, q) => get(p) - get(q),
        })
        .collect()
}

/// CBC column values from model values.
fn cbc_values(map: &[ColMap], x: &[f64]) -> Vec<f64> {
    let mut out = Vec::new();
    for (m, &v) in map.iter().zip(x) {
        match *m {
            ColMap::One(_) => out.push(v),
            ColMap::Split(_, _) => {
                out.push(v.max(0.0));
                out.push((-v).max(0.0));
            }
        }
    }
    out
}

/// Serialises all use of libcbc from this crate.
static CBC_LOCK: Mutex<()> = Mutex::new(());

/// The CBC backend (feature `cbc`).
///
/// Implements [`LpSolver`] (LP relaxation, duals by explicit dual) and [`MipSolver`]
/// (CBC's branch-and-cut with time limit, relative gap, node limit and threads).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct CbcSolver {
    /// LP options (dual method and tolerances).
    pub lp: LpOptions,
    /// Let CBC print its log to stdout (off by default).
    pub log: bool,
}

impl CbcSolver {
    /// The backend with default options (logging off).
    pub fn new() -> Self {
        Self::default()
    }

    /// Returns this solver with another dual method.
    pub fn with_duals(mut self, duals: DualMethod) -> Self {
        self.lp.duals = duals;
        self
    }

    /// Returns this solver with CBC's log switched on or off.
    pub fn with_log(mut self, log: bool) -> Self {
        self.log = log;
        self
    }

    /// The version string of the linked libcbc, e.g. `2.10.8`.
    pub fn version() -> String {
        let _guard = CBC_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        RawModel::version().to_string()
    }

    fn set_param(raw: &mut RawModel, key: &str, value: &str) {
        if let (Ok(k), Ok(v)) = (CString::new(key), CString::new(value)) {
            raw.set_parameter(&k, &v);
        }
    }

    /// Loads `model` into a new CBC model; `integral` keeps integrality and rounds
    /// integer bounds, otherwise the LP relaxation is loaded. `zero_obj` drops the
    /// objective (feasibility check). Free variables are split into two nonnegative
    /// columns `x = p − q`: with free columns Clp (after presolve) has been seen to
    /// misreport an unbounded LP as optimal.
    fn load(
        &self,
        model: &Model,
        integral: bool,
        zero_obj: bool,
    ) -> Result<(RawModel, Vec<ColMap>), Error> {
        let too_big = |what: &str| Error::Backend {
            backend: "cbc",
            message: format!("{what} exceeds the C int range of the CBC API"),
        };
        let m = model.num_rows();
        let mut map = Vec::with_capacity(model.num_vars());
        let mut start: Vec<c_int> = vec![0];
        let mut index: Vec<c_int> = Vec::with_capacity(model.num_nonzeros());
        let mut value: Vec<f64> = Vec::with_capacity(model.num_nonzeros());
        let (mut lb, mut ub, mut obj, mut int) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for (j, (col, var)) in model.cols().iter().zip(model.vars()).enumerate() {
            let (lo, up) = if integral {
                model.integral_bounds(j)
            } else {
                model.relaxed_bounds(j)
            };
            let c = if zero_obj { 0.0 } else { var.obj };
            let is_int = integral && var.kind != VarKind::Continuous;
            let split = lo == f64::NEG_INFINITY && up == f64::INFINITY;
            let parts: &[f64] = if split { &[1.0, -1.0] } else { &[1.0] };
            let first = lb.len();
            for &sgn in parts {
                for &(r, a) in col {
                    index.push(c_int::try_from(r.index()).map_err(|_| too_big("row index"))?);
                    value.push(sgn * a);
                }
                start.push(c_int::try_from(index.len()).map_err(|_| too_big("nonzero count"))?);
                obj.push(sgn * c);
                int.push(is_int);
                if split {
                    lb.push(0.0);
                    ub.push(f64::INFINITY);
                } else {
                    lb.push(lo);
                    ub.push(up);
                }
            }
            map.push(if split {
                ColMap::Split(first, first + 1)
            } else {
                ColMap::One(first)
            });
        }
        let n = lb.len();
        c_int::try_from(n.max(m)).map_err(|_| too_big("model dimension"))?;
        let rl: Vec<f64> = model.rows().iter().map(|r| r.lower).collect();
        let ru: Vec<f64> = model.rows().iter().map(|r| r.upper).collect();
        let mut raw = RawModel::new();
        raw.load_problem(
            n,
            m,
            &start,
            &index,
            &value,
            Some(&lb),
            Some(&ub),
            Some(&obj),
            Some(&rl),
            Some(&ru),
        );
        for (k, &is_int) in int.iter().enumerate() {
            if is_int {
                raw.set_integer(k);
            }
        }
        raw.set_obj_sense(match model.sign() > 0.0 {
            true => RawSense::Minimize,
            false => RawSense::Maximize,
        });
        let level = if self.log { 1 } else { 0 };
        raw.set_log_level(level);
        Self::set_param(&mut raw, "log", &level.to_string());
        Self::set_param(&mut raw, "slogLevel", &level.to_string());
        Ok((raw, map))
    }

    fn primal(&self, model: &Model) -> Result<RawLp, Error> {
        if let Some(raw) = super::minilp::trivial_lp(model) {
            return Ok(raw);
        }
        if model.is_trivially_infeasible(false) {
            // CBC answers "numerical failure" on e.g. an empty row `0 = 4`.
            return Ok(RawLp::status(LpStatus::Infeasible));
        }
        let _guard = CBC_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        let (mut raw, map) = self.load(model, false, false)?;
        raw.solve();
        if raw.is_proven_optimal() {
            // The first solve runs Clp's presolve, whose postsolved point can be off
            // by ~1e-5; a second call re-solves from the optimal basis without
            // presolve (0 iterations), recomputing x to full precision.
            raw.solve();
        }
        if raw.is_proven_optimal() {
            return Ok(RawLp {
                status: LpStatus::Optimal,
                x: model_values(&map, raw.col_solution()),
            });
        }
        if raw.is_initial_solve_proven_primal_infeasible()
            || raw.is_proven_infeasible()
            || raw.is_continuous_unbounded()
        {
            // Either primal infeasible or dual infeasible: decide by feasibility.
            let (mut feas, _) = self.load(model, false, true)?;
            feas.solve();
            let status = if feas.is_proven_optimal() {
                LpStatus::Unbounded
            } else {
                LpStatus::Infeasible
            };
            return Ok(RawLp::status(status));
        }
        if raw.is_seconds_limit_reached() {
            return Ok(RawLp::status(LpStatus::TimeLimit));
        }
        Ok(RawLp::status(LpStatus::NumericalFailure))
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
            let lp = self.primal(model)?;
            return Ok(match lp.status {
                LpStatus::Optimal => MipSolution {
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
        let _guard = CBC_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        let (mut raw, map) = self.load(model, true, false)?;
        Self::set_param(&mut raw, "threads", &opts.threads.to_string());
        Self::set_param(&mut raw, "ratioGap", &opts.relative_gap.to_string());
        if let Some(t) = opts.time_limit {
            Self::set_param(&mut raw, "timeMode", "elapsed");
            Self::set_param(&mut raw, "seconds", &format!("{:.3}", t.as_secs_f64()));
        }
        if let Some(nodes) = opts.node_limit {
            Self::set_param(&mut raw, "maxNodes", &nodes.to_string());
        }
        if let Some(init) = &opts.initial_solution {
            if init.len() == model.num_vars() && model.max_violation(init, true) <= 1e-9 {
                raw.set_initial_solution(&cbc_values(&map, init));
            }
        }
        raw.solve();
        let has_integers = model.has_integers();
        let secondary = raw.secondary_status();

        // Incumbent: CBC's column solution, accepted only if it is really feasible.
        let (values, feasible) = driver::mip_incumbent(
            model,
            model_values(&map, raw.col_solution()),
            self.lp.feasibility_tol,
        );

        let status = if raw.is_proven_optimal() || secondary == SecondaryStatus::StoppedOnGap {
            MipStatus::Optimal
        } else if raw.is_continuous_unbounded()
            || secondary == SecondaryStatus::LinearRelaxationUnbounded
        {
            MipStatus::Unbounded
        } else if raw.is_seconds_limit_reached() || secondary == SecondaryStatus::StoppedOnTime {
            MipStatus::TimeLimit
        } else if raw.is_node_limit_reached() || secondary == SecondaryStatus::StoppedOnNodes {
            MipStatus::NodeLimit
        } else if raw.is_proven_infeasible() {
            MipStatus::Infeasible
        } else {
            MipStatus::NumericalFailure
        };
        let status = match status {
            // A pure LP reported "infeasible" by CBC may be unbounded (see module docs).
            MipStatus::Infeasible if !has_integers => {
                let (mut feas, _) = self.load(model, false, true)?;
                feas.solve();
                if feas.is_proven_optimal() {
                    MipStatus::Unbounded
                } else {
                    MipStatus::Infeasible
                }
            }
            MipStatus::Optimal if !feasible => MipStatus::NumericalFailure,
            s => s,
        };
        let keep = feasible
            && matches!(
                status,
                MipStatus::Optimal | MipStatus::TimeLimit | MipStatus::NodeLimit
            );
        if !keep {
            let bound = match status {
                MipStatus::Unbounded => -sign * f64::INFINITY,
                MipStatus::Infeasible => sign * f64::INFINITY,
                _ => {
                    let b = raw.best_possible_value();
                    if b.is_finite() && b.abs() < 1e300 {
                        b
                    } else {
                        -sign * f64::INFINITY
                    }
                }
            };
            return Ok(no_incumbent(status, bound));
        }
        let objective = model.objective_value(&values);
        let best_bound = driver::incumbent_bound(
            model,
            objective,
            status == MipStatus::Optimal && opts.relative_gap == 0.0,
            Some(raw.best_possible_value()),
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

impl LpSolver for CbcSolver {
    fn solve_lp(&self, model: &Model) -> Result<LpSolution, Error> {
        driver::solve_lp("cbc", model, &self.lp, &|m: &Model| self.primal(m))
    }
}

impl MipSolver for CbcSolver {
    fn solve_mip(&self, model: &Model, opts: &MipOptions) -> Result<MipSolution, Error> {
        opts.validate()?;
        model.validate()?;
        catch_backend("cbc", || self.mip(model, opts))
    }
}
