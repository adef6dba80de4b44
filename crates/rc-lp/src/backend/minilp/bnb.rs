//! Depth-first branch-and-bound on top of minilp, for [`MinilpSolver`]'s
//! [`MipSolver`](crate::MipSolver) implementation.
//!
//! * Each node's LP is re-solved *warm* from its parent's simplex state: binary
//!   branches fix the variable (`Solution::fix_var`), general integer branches add a
//!   bound row (`Solution::add_constraint`), both handled by minilp's dual simplex.
//! * Branching on the most fractional variable; the child on the side of the
//!   rounding is explored first. Rounding heuristics (nearest, up, down) run at
//!   every fractional node, which finds covers early on set-covering models.
//! * Nodes whose LP bound cannot improve the incumbent by more than the relative gap
//!   are pruned; with an integral objective (integer variables with integer costs
//!   only) bounds are rounded up.
//! * The clock and the node count are checked between nodes; on a limit the
//!   incumbent and the best bound of the open nodes are returned.

use super::{solve_checked, to_problem, MVar, MinilpSolver};
use crate::error::{catch_backend, Error};
use crate::model::{Model, VarKind};
use crate::solution::{LpStatus, MipSolution, MipStatus};
use crate::solver::MipOptions;
use ::minilp::{ComparisonOp, Solution, Variable};

use std::rc::Rc;
use std::time::Instant;

/// Distance from an integer below which a value counts as integral.
const INT_TOL: f64 = 1e-6;

#[derive(Clone, Copy, Debug)]
enum Branch {
    Fix(usize, f64),
    Le(usize, f64),
    Ge(usize, f64),
}

struct Node {
    parent: Rc<Solution>,
    branch: Branch,
    /// LP bound of the parent (minimisation form).
    bound: f64,
}

struct Search<'a> {
    model: &'a Model,
    vars: Vec<MVar>,
    ints: Vec<bool>,
    lb: Vec<f64>,
    ub: Vec<f64>,
    /// Objective in minimisation form.
    c: Vec<f64>,
    integral_obj: bool,
    rel_gap: f64,
    viol_tol: f64,
    incumbent: Option<(f64, Vec<f64>)>,
    /// Smallest valid bound of a pruned subtree.
    pruned_bound: f64,
    stack: Vec<Node>,
    nodes: u64,
    numerical_skips: u64,
}

impl Search<'_> {
    fn cutoff(&self) -> f64 {
        match &self.incumbent {
            None => f64::INFINITY,
            Some((inc, _)) => {
                let slack = (self.rel_gap * inc.abs()).max(1e-9 * inc.abs().max(1.0));
                let t = inc - slack;
                if self.integral_obj {
                    t.min(inc - 1.0 + 1e-6)
                } else {
                    t
                }
            }
        }
    }

    fn prune(&mut self, bound: f64) {
        let b = if self.integral_obj {
            (bound - 1e-6).ceil()
        } else {
            bound
        };
        self.pruned_bound = self.pruned_bound.min(b);
    }

    /// Accepts `cand` (after a 1-opt descent) as incumbent if it is feasible and
    /// better; returns feasibility.
    fn try_incumbent(&mut self, mut cand: Vec<f64>) -> bool {
        if self.model.max_violation(&cand, true) > self.viol_tol {
            return false;
        }
        self.one_opt(&mut cand);
        let obj: f64 = self.c.iter().zip(&cand).map(|(c, x)| c * x).sum();
        if self
            .incumbent
            .as_ref()
            .is_none_or(|(o, _)| obj < *o - 1e-12)
        {
            self.incumbent = Some((obj, cand));
        }
        true
    }

    /// Greedy improvement of a feasible integer point: in order of decreasing cost,
    /// lower each integer variable with positive cost one unit at a time while every
    /// row of its column stays feasible (on a set cover: drop redundant sets).
    fn one_opt(&self, x: &mut [f64]) {
        let mut act = self.model.row_activities(x);
        let rows = self.model.rows();
        let mut order: Vec<usize> = (0..x.len())
            .filter(|&j| self.ints[j] && self.c[j] > 0.0)
            .collect();
        order.sort_by(|&a, &b| self.c[b].total_cmp(&self.c[a]).then(a.cmp(&b)));
        let cols = self.model.cols();
        for j in order {
            while x[j] - 1.0 >= self.lb[j] {
                let ok = cols[j].iter().all(|&(r, a)| {
                    let v = act[r.index()] - a;
                    let row = &rows[r.index()];
                    v >= row.lower - self.viol_tol && v <= row.upper + self.viol_tol
                });
                if !ok {
                    break;
                }
                x[j] -= 1.0;
                for &(r, a) in &cols[j] {
                    act[r.index()] -= a;
                }
            }
        }
    }

    fn rounded(&self, x: &[f64], round: impl Fn(f64) -> f64) -> Vec<f64> {
        x.iter()
            .enumerate()
            .map(|(j, &v)| {
                if self.ints[j] {
                    round(v).clamp(self.lb[j], self.ub[j])
                } else {
                    v
                }
            })
            .collect()
    }

    fn evaluate(&mut self, sol: Solution) {
        self.nodes += 1;
        let obj = sol.objective();
        if !obj.is_finite() {
            self.numerical_skips += 1;
            return;
        }
        if obj >= self.cutoff() {
            self.prune(obj);
            return;
        }
        let x: Vec<f64> = self.vars.iter().map(|v| v.value(&sol)).collect();
        let mut best: Option<(usize, f64)> = None;
        for (j, &v) in x.iter().enumerate() {
            if !self.ints[j] {
                continue;
            }
            let f = v - v.floor();
            let dist = f.min(1.0 - f);
            if dist > INT_TOL && best.is_none_or(|(_, s)| dist > s + 1e-12) {
                best = Some((j, dist));
            }
        }
        let Some((j, _)) = best else {
            let cand = self.rounded(&x, f64::round);
            if !self.try_incumbent(cand) {
                self.numerical_skips += 1;
            }
            return;
        };
        for round in [
            f64::round as fn(f64) -> f64,
            |v: f64| (v - INT_TOL).ceil(),
            |v: f64| (v + INT_TOL).floor(),
        ] {
            let cand = self.rounded(&x, round);
            self.try_incumbent(cand);
        }
        if obj >= self.cutoff() {
            self.prune(obj);
            return;
        }
        let v = x[j];
        let fl = v.floor();
        let ce = fl + 1.0;
        let down = if fl <= self.lb[j] {
            Branch::Fix(j, self.lb[j])
        } else {
            Branch::Le(j, fl)
        };
        let up = if ce >= self.ub[j] {
            Branch::Fix(j, self.ub[j])
        } else {
            Branch::Ge(j, ce)
        };
        let (first, second) = if v - fl >= 0.5 {
            (up, down)
        } else {
            (down, up)
        };
        let parent = Rc::new(sol);
        self.stack.push(Node {
            parent: Rc::clone(&parent),
            branch: second,
            bound: obj,
        });
        self.stack.push(Node {
            parent,
            branch: first,
            bound: obj,
        });
    }

    /// Best bound over open and pruned nodes (rounded up for an integral objective).
    fn open_bound(&self) -> f64 {
        let b = self
            .stack
            .iter()
            .map(|n| n.bound)
            .fold(self.pruned_bound, f64::min);
        if self.integral_obj && b.is_finite() {
            (b - 1e-6).ceil()
        } else {
            b
        }
    }
}

fn terms(v: MVar) -> Vec<(Variable, f64)> {
    let mut t = Vec::with_capacity(2);
    v.push_terms(1.0, &mut t);
    t
}

/// Solves `model` as a MIP by branch-and-bound with minilp LPs.
pub(crate) fn solve(
    solver: &MinilpSolver,
    model: &Model,
    opts: &MipOptions,
) -> Result<MipSolution, Error> {
    opts.validate()?;
    model.validate()?;
    solver.check_size(model)?;
    let sign = model.sign();
    let finish = |status: MipStatus, best: Option<(f64, Vec<f64>)>, bound_min: f64, nodes: u64| {
        let (objective, values) = match best {
            Some((_, values)) => (model.objective_value(&values), values),
            None => (sign * f64::INFINITY, Vec::new()),
        };
        let best_bound = match (status, values.is_empty()) {
            (MipStatus::Optimal, false) if bound_min >= sign * objective => objective,
            _ => sign * bound_min,
        };
        MipSolution {
            status,
            objective,
            gap: MipSolution::relative_gap(objective, best_bound),
            values,
            best_bound,
            nodes,
        }
    };
    if model.is_trivially_infeasible(true) {
        return Ok(finish(MipStatus::Infeasible, None, f64::INFINITY, 0));
    }
    let start = Instant::now();
    catch_backend("minilp", || {
        let n = model.num_vars();
        let ints: Vec<bool> = model
            .vars()
            .iter()
            .map(|v| v.kind != VarKind::Continuous)
            .collect();
        let (lb, ub): (Vec<f64>, Vec<f64>) = (0..n).map(|j| model.integral_bounds(j)).unzip();
        let c: Vec<f64> = model.vars().iter().map(|v| sign * v.obj).collect();
        let integral_obj = (0..n).all(|j| c[j] == 0.0 || (ints[j] && c[j] == c[j].round()));
        let bound_scale = model
            .rows()
            .iter()
            .flat_map(|r| [r.lower, r.upper])
            .chain(lb.iter().chain(&ub).copied())
            .filter(|b| b.is_finite())
            .fold(0.0f64, |a, b| a.max(b.abs()));
        let mp = to_problem(model, |j| (lb[j], ub[j]), false);
        let root = match solve_checked(model, &mp, |j| (lb[j], ub[j])) {
            Ok(sol) => sol,
            Err(LpStatus::Infeasible) => {
                return Ok(finish(MipStatus::Infeasible, None, f64::INFINITY, 1))
            }
            Err(LpStatus::Unbounded) => {
                return Ok(finish(MipStatus::Unbounded, None, f64::NEG_INFINITY, 1))
            }
            Err(_) => {
                return Ok(finish(
                    MipStatus::NumericalFailure,
                    None,
                    f64::NEG_INFINITY,
                    1,
                ))
            }
        };
        let vars = mp.vars;
        let mut s = Search {
            model,
            vars,
            ints,
            lb,
            ub,
            c,
            integral_obj,
            rel_gap: opts.relative_gap,
            viol_tol: solver.lp.feasibility_tol * (1.0 + bound_scale),
            incumbent: None,
            pruned_bound: f64::INFINITY,
            stack: Vec::new(),
            nodes: 0,
            numerical_skips: 0,
        };
        if let Some(init) = &opts.initial_solution {
            if init.len() == n {
                let cand = s.rounded(init, f64::round);
                s.try_incumbent(cand);
            }
        }
        s.evaluate(root);
        let mut stop = None;
        while let Some(node) = s.stack.pop() {
            let limit = if opts.time_limit.is_some_and(|t| start.elapsed() >= t) {
                Some(MipStatus::TimeLimit)
            } else if opts.node_limit.is_some_and(|l| s.nodes >= l) {
                Some(MipStatus::NodeLimit)
            } else {
                None
            };
            if limit.is_some() {
                s.stack.push(node);
                stop = limit;
                break;
            }
            if node.bound >= s.cutoff() {
                s.prune(node.bound);
                continue;
            }
            let sol = Rc::try_unwrap(node.parent).unwrap_or_else(|rc| (*rc).clone());
            let child = match node.branch {
                Branch::Fix(j, v) => match s.vars[j] {
                    MVar::One(var) => sol.fix_var(var, v),
                    split => sol.add_constraint(terms(split), ComparisonOp::Eq, v),
                },
                Branch::Le(j, v) => sol.add_constraint(terms(s.vars[j]), ComparisonOp::Le, v),
                Branch::Ge(j, v) => sol.add_constraint(terms(s.vars[j]), ComparisonOp::Ge, v),
            };
            match child {
                Ok(sol) => s.evaluate(sol),
                Err(::minilp::Error::Infeasible) => s.nodes += 1,
                Err(::minilp::Error::Unbounded) => {
                    return Err(Error::Backend {
                        backend: "minilp",
                        message: "a branch-and-bound child LP became unbounded although its parent was bounded".to_string(),
                    })
                }
            }
        }
        let inc_obj = s.incumbent.as_ref().map_or(f64::INFINITY, |(o, _)| *o);
        let bound_min = s.open_bound().min(inc_obj);
        let status = match stop {
            Some(st) => st,
            None if s.incumbent.is_some() => MipStatus::Optimal,
            None if s.numerical_skips > 0 => MipStatus::NumericalFailure,
            None => MipStatus::Infeasible,
        };
        Ok(finish(status, s.incumbent, bound_min, s.nodes))
    })
}
