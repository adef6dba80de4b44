//! The backend-independent LP pipeline: validate, solve the primal with a backend,
//! verify the primal point, then compute and verify duals (see [`crate::dual`]).

use crate::dual;
use crate::error::{catch_backend, Error};
use crate::model::Model;
#[cfg(any(feature = "cbc", feature = "highs"))]
use crate::model::VarKind;
use crate::solution::{LpSolution, LpStatus, RawLp};
use crate::solver::{DualMethod, LpOptions};

/// A backend's primal LP entry point: solves the LP relaxation of a model
/// (relaxed bounds, every variable continuous) and returns `x` when optimal.
pub(crate) type PrimalFn<'a> = dyn Fn(&Model) -> Result<RawLp, Error> + 'a;

/// Solves the LP relaxation of `model` with `primal` and completes the solution.
pub(crate) fn solve_lp(
    backend: &'static str,
    model: &Model,
    opts: &LpOptions,
    primal: &PrimalFn<'_>,
) -> Result<LpSolution, Error> {
    solve_lp_native(backend, model, opts, primal, &|m: &Model| {
        primal(m).map(|raw| (raw, None))
    })
}

/// A backend's LP entry point that may also report row duals natively (in the
/// model's own sense, see [`LpSolution`]).
pub(crate) type NativeFn<'a> = dyn Fn(&Model) -> Result<(RawLp, Option<Vec<f64>>), Error> + 'a;

/// Solves `model` with `native`; native duals are verified and used when they
/// pass, otherwise (or when the backend reports none) duals come from the
/// explicit dual LP solved with `primal`.
pub(crate) fn solve_lp_native(
    backend: &'static str,
    model: &Model,
    opts: &LpOptions,
    primal: &PrimalFn<'_>,
    native: &NativeFn<'_>,
) -> Result<LpSolution, Error> {
    opts.validate()?;
    model.validate()?;
    if model.is_trivially_infeasible(false) {
        return Ok(LpSolution::without_point(
            LpStatus::Infeasible,
            model.sense(),
        ));
    }
    let (raw, native_duals) = catch_backend(backend, || native(model))?;
    if raw.status != LpStatus::Optimal {
        return Ok(LpSolution::without_point(raw.status, model.sense()));
    }
    if raw.x.len() != model.num_vars() {
        return Err(Error::Backend {
            backend,
            message: format!(
                "returned {} values for {} variables",
                raw.x.len(),
                model.num_vars()
            ),
        });
    }
    let Some(x) = verified_point(model, raw.x, opts.feasibility_tol) else {
        return Ok(LpSolution::without_point(
            LpStatus::NumericalFailure,
            model.sense(),
        ));
    };
    let row_activity = model.row_activities(&x);
    let objective = model.objective_value(&x);
    let (row_duals, reduced_costs) = match opts.duals {
        DualMethod::Skip => (Vec::new(), Vec::new()),
        method => {
            let verified = native_duals
                .map(|y| dual::verify(model, &y, objective, opts))
                .and_then(Result::ok);
            let d = match verified {
                Some(d) => d,
                None => dual::compute(
                    model,
                    &x,
                    &row_activity,
                    objective,
                    method,
                    opts,
                    &|m: &Model| catch_backend(backend, || primal(m)),
                )?,
            };
            (d.row_duals, d.reduced_costs)
        }
    };
    Ok(LpSolution {
        status: LpStatus::Optimal,
        objective,
        primal: x,
        row_activity,
        row_duals,
        reduced_costs,
    })
}

/// Snaps `x` into its (relaxed) bounds when it is within tolerance and checks the
/// rows; returns `None` when the point is not feasible within tolerance.
pub(crate) fn verified_point(model: &Model, mut x: Vec<f64>, tol: f64) -> Option<Vec<f64>> {
    for (j, xj) in x.iter_mut().enumerate() {
        let (lo, up) = model.relaxed_bounds(j);
        if !xj.is_finite() {
            return None;
        }
        if *xj < lo {
            if lo - *xj > tol * (1.0 + lo.abs()) {
                return None;
            }
            *xj = lo;
        } else if *xj > up {
            if *xj - up > tol * (1.0 + up.abs()) {
                return None;
            }
            *xj = up;
        }
    }
    let act = model.row_activities(&x);
    for (r, a) in model.rows().iter().zip(&act) {
        if r.lower - a > tol * (1.0 + r.lower.abs()) || a - r.upper > tol * (1.0 + r.upper.abs()) {
            return None;
        }
    }
    Some(x)
}

#[cfg(any(feature = "cbc", feature = "highs"))]
/// A backend's MIP point with integer variables rounded, and whether it is
/// feasible within `tol` (relative to `1 + the largest finite row bound`).
pub(crate) fn mip_incumbent(model: &Model, mut values: Vec<f64>, tol: f64) -> (Vec<f64>, bool) {
    for (x, v) in values.iter_mut().zip(model.vars()) {
        if v.kind != VarKind::Continuous {
            *x = x.round();
        }
    }
    let scale = 1.0
        + model
            .rows()
            .iter()
            .flat_map(|r| [r.lower, r.upper])
            .filter(|b| b.is_finite())
            .fold(0.0f64, |a, b| a.max(b.abs()));
    let feasible = values.len() == model.num_vars()
        && values.iter().all(|v| v.is_finite())
        && model.max_violation(&values, true) <= tol * scale;
    (values, feasible)
}

#[cfg(any(feature = "cbc", feature = "highs"))]
/// The bound reported with an incumbent of objective `objective`: the
/// objective itself for pure LPs and zero-gap optima, else the backend's
/// bound clamped to the incumbent's side (or unbounded when it has none).
pub(crate) fn incumbent_bound(
    model: &Model,
    objective: f64,
    proven_optimal_zero_gap: bool,
    backend_bound: Option<f64>,
) -> f64 {
    let sign = model.sign();
    if !model.has_integers() || proven_optimal_zero_gap {
        objective
    } else if let Some(b) = backend_bound.filter(|b| b.is_finite() && b.abs() < 1e300) {
        if sign > 0.0 {
            b.min(objective)
        } else {
            b.max(objective)
        }
    } else {
        -sign * f64::INFINITY
    }
}
