//! LP duals by explicit dual construction.
//!
//! Neither backend exposes row prices, so duals are computed by solving a dual LP
//! with the same backend and then *verified* (dual feasibility and strong duality
//! against the primal optimum); verification failure is an error, never a silent
//! wrong answer.
//!
//! Work in the minimisation form `min c'·x, c' = ±c`, with rows `L <= A x <= U` and
//! bounds `l <= x <= u`. Write `y` for the row duals and `d = c' − Aᵀy` for the
//! reduced costs. The (full) dual is
//!
//! ```text
//! max  Σ_i [L_i·y_i⁺ − U_i·y_i⁻] + Σ_j [l_j·d_j⁺ − u_j·d_j⁻]
//! ```
//!
//! where a part whose bound is infinite must vanish. It is written as an LP in `y`:
//! each row gives one dual variable (`y >= 0` for `>=` rows, `y <= 0` for `<=` rows,
//! free for equalities, `y = p − q` with `p, q >= 0` for ranges), and each column
//! one dual row: `a_jᵀy <= c'_j` (only `l_j` finite, contributing `l_j·d_j` to the
//! objective), `>= c'_j` (only `u_j` finite), `= c'_j` (free variable), none (fixed
//! variable, `d_j` free), or `a_jᵀy − w_j <= c'_j` with `w_j >= 0` (both bounds
//! finite: `d_j = v_j − w_j`, objective `l_j·v_j − u_j·w_j`).
//!
//! The *restricted* dual adds complementary slackness with the primal optimum `x*`:
//! rows that are not active get no dual variable (`y_i = 0`), a variable strictly
//! between its bounds gets an equality dual row (`d_j = 0`), one at a bound gets the
//! matching inequality only. Every feasible point of the restricted dual is then an
//! optimal dual, and the LP is usually much smaller than the full dual. Its
//! objective is therefore free: it minimises `‖y‖₁`, which selects small duals
//! among several optimal ones (degenerate LPs) and keeps the LP bounded.

use crate::error::Error;
use crate::model::{Model, VarId};
use crate::solution::{LpStatus, RawLp};
use crate::solver::{DualMethod, LpOptions};

/// Verified duals in the model's own sense (see [`crate::LpSolution`]).
#[derive(Clone, Debug)]
pub(crate) struct Duals {
    pub row_duals: Vec<f64>,
    pub reduced_costs: Vec<f64>,
}

/// Dual variable(s) standing for one primal row.
#[derive(Clone, Copy, Debug)]
enum RowVar {
    /// Row is free or inactive: `y_i = 0`.
    Zero,
    /// `y_i` itself (sign given by its bounds).
    Single(VarId),
    /// `y_i = p − q`.
    Split(VarId, VarId),
}

/// Dual row type of a primal column.
#[derive(Clone, Copy, Debug, PartialEq)]
enum ColDual {
    /// `d_j` free (fixed variable): no dual row.
    NoRow,
    /// `d_j >= 0`: `a_jᵀy <= c_j`.
    Le,
    /// `d_j <= 0`: `a_jᵀy >= c_j`.
    Ge,
    /// `d_j = 0`: `a_jᵀy = c_j`.
    Eq,
    /// `d_j = v − w`, `v, w >= 0`: `a_jᵀy − w_j <= c_j`.
    Boxed,
}

struct DualLp {
    model: Model,
    row_map: Vec<RowVar>,
}

fn near(value: f64, bound: f64, tol: f64) -> bool {
    bound.is_finite() && (value - bound).abs() <= tol * (1.0 + bound.abs())
}

/// Builds the full (`hint = None`) or restricted (`hint = Some((x, activity))`) dual.
fn build(model: &Model, hint: Option<(&[f64], &[f64])>, tol: f64) -> Result<DualLp, Error> {
    let sign = model.sign();
    let n = model.num_vars();
    let m = model.num_rows();
    let cols = model.cols();

    // Column classification and the bound β_j multiplying d_j in the dual objective.
    let mut kinds = Vec::with_capacity(n);
    let mut beta = vec![0.0; n];
    for j in 0..n {
        let (l, u) = model.relaxed_bounds(j);
        let (kind, b) = match hint {
            None => match (l.is_finite(), u.is_finite()) {
                (false, false) => (ColDual::Eq, 0.0),
                (true, false) => (ColDual::Le, l),
                (false, true) => (ColDual::Ge, u),
                (true, true) if l == u => (ColDual::NoRow, l),
                (true, true) => (ColDual::Boxed, l),
            },
            Some((x, _)) => match (near(x[j], l, tol), near(x[j], u, tol)) {
                (true, true) => (ColDual::NoRow, l),
                (true, false) => (ColDual::Le, l),
                (false, true) => (ColDual::Ge, u),
                (false, false) => (ColDual::Eq, 0.0),
            },
        };
        kinds.push(kind);
        beta[j] = b;
    }

    // Objective coefficient of y_i: its bound term minus Σ_j β_j a_ij.
    let mut g = vec![0.0; m];
    for (j, col) in cols.iter().enumerate() {
        if beta[j] != 0.0 {
            for &(r, a) in col {
                g[r.index()] -= beta[j] * a;
            }
        }
    }

    let mut dual = Model::maximize();
    let mut row_map = Vec::with_capacity(m);
    for (i, row) in model.rows().iter().enumerate() {
        let (lo, up) = (row.lower, row.upper);
        let (has_lo, has_up) = match hint {
            None => (lo.is_finite(), up.is_finite()),
            Some(_) if lo == up => (true, true),
            Some((_, act)) => (near(act[i], lo, tol), near(act[i], up, tol)),
        };
        if hint.is_some() {
            // Restricted dual: every feasible point is optimal, so maximise −‖y‖₁
            // instead, which keeps y small and the LP bounded (solvers otherwise
            // return far-out points of an unbounded optimal face).
            let rv = match (has_lo, has_up) {
                (false, false) => RowVar::Zero,
                (true, false) => RowVar::Single(dual.add_continuous(0.0, f64::INFINITY, -1.0)),
                (false, true) => RowVar::Single(dual.add_continuous(f64::NEG_INFINITY, 0.0, 1.0)),
                (true, true) => RowVar::Split(
                    dual.add_continuous(0.0, f64::INFINITY, -1.0),
                    dual.add_continuous(0.0, f64::INFINITY, -1.0),
                ),
            };
            row_map.push(rv);
            continue;
        }
        let rv = match (has_lo, has_up) {
            (false, false) => RowVar::Zero,
            (true, false) => RowVar::Single(dual.add_continuous(0.0, f64::INFINITY, lo + g[i])),
            (false, true) => RowVar::Single(dual.add_continuous(f64::NEG_INFINITY, 0.0, up + g[i])),
            (true, true) if lo == up => {
                RowVar::Single(dual.add_continuous(f64::NEG_INFINITY, f64::INFINITY, lo + g[i]))
            }
            (true, true) => RowVar::Split(
                dual.add_continuous(0.0, f64::INFINITY, lo + g[i]),
                dual.add_continuous(0.0, f64::INFINITY, -up - g[i]),
            ),
        };
        row_map.push(rv);
    }

    let mut terms: Vec<(VarId, f64)> = Vec::new();
    for (j, col) in cols.iter().enumerate() {
        let kind = kinds[j];
        if kind == ColDual::NoRow {
            continue;
        }
        let c = sign * model.vars()[j].obj;
        terms.clear();
        for &(r, a) in col {
            match row_map[r.index()] {
                RowVar::Zero => {}
                RowVar::Single(v) => terms.push((v, a)),
                RowVar::Split(p, q) => {
                    terms.push((p, a));
                    terms.push((q, -a));
                }
            }
        }
        let (lo, up) = match kind {
            ColDual::Le => (f64::NEG_INFINITY, c),
            ColDual::Ge => (c, f64::INFINITY),
            ColDual::Eq => (c, c),
            ColDual::Boxed => {
                let (l, u) = model.relaxed_bounds(j);
                let w = dual.add_continuous(0.0, f64::INFINITY, l - u);
                terms.push((w, -1.0));
                (f64::NEG_INFINITY, c)
            }
            ColDual::NoRow => continue,
        };
        dual.add_row(lo, up, &terms)?;
    }
    Ok(DualLp {
        model: dual,
        row_map,
    })
}

/// Sum of `v·bound` where the bound is the lower one for `v > 0` and the upper one
/// for `v < 0`; `Err` names the violation when that bound is infinite and `|v| > tol`.
fn bound_term(v: f64, lo: f64, up: f64, tol: f64) -> Result<f64, ()> {
    let b = if v > 0.0 {
        lo
    } else if v < 0.0 {
        up
    } else {
        return Ok(0.0);
    };
    if b.is_finite() {
        Ok(v * b)
    } else if v.abs() <= tol {
        Ok(0.0)
    } else {
        Err(())
    }
}

fn mismatch(primal: f64, dual: f64, tolerance: f64, detail: String) -> Error {
    Error::DualMismatch {
        primal,
        dual,
        tolerance,
        detail,
    }
}

/// Recovers `y` from a dual LP solution and verifies it; returns duals in the
/// model's own sense.
fn recover_and_verify(
    model: &Model,
    row_map: &[RowVar],
    dual_x: &[f64],
    p_min: f64,
    opts: &LpOptions,
) -> Result<Duals, Error> {
    let get = |v: VarId| dual_x.get(v.index()).copied().unwrap_or(0.0);
    let y: Vec<f64> = row_map
        .iter()
        .map(|rv| match *rv {
            RowVar::Zero => 0.0,
            RowVar::Single(v) => get(v),
            RowVar::Split(p, q) => get(p) - get(q),
        })
        .collect();
    verify_min(model, y, p_min, opts)
}

/// Verifies row duals reported natively by a backend, given in the model's own
/// sense (`y_i = ∂z*/∂b_i`) for the primal optimum of objective `objective`;
/// returns them with the reduced costs when they are dual feasible and satisfy
/// strong duality within [`LpOptions::dual_tol`].
pub(crate) fn verify(
    model: &Model,
    row_duals: &[f64],
    objective: f64,
    opts: &LpOptions,
) -> Result<Duals, Error> {
    let sign = model.sign();
    let y = row_duals.iter().map(|v| sign * v).collect();
    verify_min(model, y, sign * objective, opts)
}

/// Verifies the minimisation-form duals `y` against the primal optimum `p_min`
/// (projecting tiny wrong-sign values to zero); returns duals in the model's
/// own sense.
fn verify_min(
    model: &Model,
    mut y: Vec<f64>,
    p_min: f64,
    opts: &LpOptions,
) -> Result<Duals, Error> {
    let sign = model.sign();
    let primal_obj = sign * p_min;
    let cscale = 1.0 + model.vars().iter().fold(0.0f64, |a, v| a.max(v.obj.abs()));
    let tol_d = opts.dual_tol * cscale;
    let tol_obj = opts.dual_tol * (1.0 + p_min.abs());
    if y.len() != model.num_rows() {
        return Err(mismatch(
            primal_obj,
            f64::NAN,
            tol_obj,
            format!("{} row duals for {} rows", y.len(), model.num_rows()),
        ));
    }

    // y in minimisation form, projected onto its sign domain.
    for (i, (yi, row)) in y.iter_mut().zip(model.rows()).enumerate() {
        if !yi.is_finite() {
            return Err(mismatch(
                primal_obj,
                f64::NAN,
                tol_obj,
                format!("dual of row r{i} is {yi}"),
            ));
        }
        if (*yi > 0.0 && row.lower == f64::NEG_INFINITY)
            || (*yi < 0.0 && row.upper == f64::INFINITY)
        {
            if yi.abs() > tol_d {
                return Err(mismatch(
                    primal_obj,
                    f64::NAN,
                    tol_obj,
                    format!("dual of row r{i} is {yi}, of the wrong sign for its bounds"),
                ));
            }
            *yi = 0.0;
        }
    }

    // Reduced costs and the dual objective.
    let mut d = Vec::with_capacity(model.num_vars());
    let mut dual_obj = 0.0;
    for (i, row) in model.rows().iter().enumerate() {
        dual_obj += bound_term(y[i], row.lower, row.upper, tol_d).unwrap_or(0.0);
    }
    for (j, col) in model.cols().iter().enumerate() {
        let c = sign * model.vars()[j].obj;
        let dj = c - col.iter().map(|&(r, a)| a * y[r.index()]).sum::<f64>();
        let (l, u) = model.relaxed_bounds(j);
        match bound_term(dj, l, u, tol_d) {
            Ok(t) => dual_obj += t,
            Err(()) => {
                return Err(mismatch(
                    primal_obj,
                    f64::NAN,
                    tol_obj,
                    format!("reduced cost of x{j} is {dj}, of the wrong sign for its bounds"),
                ))
            }
        }
        d.push(dj);
    }
    if !dual_obj.is_finite() || (dual_obj - p_min).abs() > tol_obj {
        return Err(mismatch(
            primal_obj,
            sign * dual_obj,
            tol_obj,
            "strong duality violated".to_string(),
        ));
    }
    // Back to the model's own sense; recompute d from y so that d = c − Aᵀy exactly.
    let row_duals: Vec<f64> = y.iter().map(|v| sign * v).collect();
    let reduced_costs = if sign > 0.0 {
        d
    } else {
        model
            .cols()
            .iter()
            .enumerate()
            .map(|(j, col)| {
                model.vars()[j].obj
                    - col
                        .iter()
                        .map(|&(r, a)| a * row_duals[r.index()])
                        .sum::<f64>()
            })
            .collect()
    };
    Ok(Duals {
        row_duals,
        reduced_costs,
    })
}

fn attempt(
    model: &Model,
    hint: Option<(&[f64], &[f64])>,
    p_min: f64,
    opts: &LpOptions,
    solve: &dyn Fn(&Model) -> Result<RawLp, Error>,
) -> Result<Duals, Error> {
    let lp = build(model, hint, opts.feasibility_tol)?;
    let raw = solve(&lp.model)?;
    if raw.status != LpStatus::Optimal || raw.x.len() != lp.model.num_vars() {
        return Err(mismatch(
            model.sign() * p_min,
            f64::NAN,
            opts.dual_tol * (1.0 + p_min.abs()),
            format!(
                "the {} dual LP was reported {:?}",
                if hint.is_some() { "restricted" } else { "full" },
                raw.status
            ),
        ));
    }
    recover_and_verify(model, &lp.row_map, &raw.x, p_min, opts)
}

/// Computes verified duals for the primal optimum `x` (objective `objective` in the
/// model's sense) by solving a dual LP with `solve`.
pub(crate) fn compute(
    model: &Model,
    x: &[f64],
    activity: &[f64],
    objective: f64,
    method: DualMethod,
    opts: &LpOptions,
    solve: &dyn Fn(&Model) -> Result<RawLp, Error>,
) -> Result<Duals, Error> {
    let p_min = model.sign() * objective;
    if method == DualMethod::Restricted {
        match attempt(model, Some((x, activity)), p_min, opts, solve) {
            Err(Error::DualMismatch { .. }) => {}
            other => return other,
        }
    }
    attempt(model, None, p_min, opts, solve)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_dual_shape() {
        // min x + y, x + 2y >= 2 (r0), -1 <= x - y <= 1 (r1), 0 <= x <= 4, y free
        let mut m = Model::minimize();
        let x = m.add_continuous(0.0, 4.0, 1.0);
        let y = m.add_continuous(f64::NEG_INFINITY, f64::INFINITY, 1.0);
        m.add_ge(&[(x, 1.0), (y, 2.0)], 2.0).unwrap();
        m.add_range(-1.0, &[(x, 1.0), (y, -1.0)], 1.0).unwrap();
        let lp = build(&m, None, 1e-6).unwrap();
        // y0 >= 0, p1, q1 >= 0, w_x >= 0
        assert_eq!(lp.model.num_vars(), 4);
        // one dual row per primal column
        assert_eq!(lp.model.num_rows(), 2);
        assert!(matches!(lp.row_map[0], RowVar::Single(_)));
        assert!(matches!(lp.row_map[1], RowVar::Split(_, _)));
    }

    #[test]
    fn restricted_dual_drops_inactive_rows() {
        let mut m = Model::minimize();
        let x = m.add_continuous(0.0, f64::INFINITY, 1.0);
        m.add_ge(&[(x, 1.0)], 1.0).unwrap();
        m.add_ge(&[(x, 1.0)], 0.5).unwrap();
        let lp = build(&m, Some((&[1.0], &[1.0, 1.0])), 1e-6).unwrap();
        assert!(matches!(lp.row_map[0], RowVar::Single(_)));
        assert!(matches!(lp.row_map[1], RowVar::Zero));
        assert_eq!(lp.model.num_vars(), 1);
        // x = 1 is strictly above its lower bound: the dual row is an equality.
        assert_eq!(lp.model.rows()[0].lower, lp.model.rows()[0].upper);
    }
}
