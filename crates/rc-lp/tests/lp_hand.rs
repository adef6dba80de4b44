//! LPs with hand-computed optima and duals (test 1), and degenerate LPs whose duals
//! are not unique (test 2), on every backend.

mod common;

use common::{check_kkt, lp_solvers};
use rc_lp::{DualMethod, LpSolver, LpStatus, MinilpSolver, Model};

const INF: f64 = f64::INFINITY;

fn assert_close(what: &str, got: Option<f64>, want: f64) {
    let got = got.unwrap();
    assert!((got - want).abs() < 1e-7, "{what}: got {got}, want {want}");
}

/// min 2x + 3y  s.t.  r1: x + y >= 4,  r2: x + 3y >= 6,  x, y >= 0.
/// Vertices (0,4): 12, (3,1): 9, (6,0): 12, so x = 3, y = 1, z = 9.
/// Both rows are active; d_x = d_y = 0 gives y1 + y2 = 2 and y1 + 3 y2 = 3, hence
/// y1 = 1.5, y2 = 0.5 (both >= 0 as required for >= rows of a min problem);
/// dual objective 4·1.5 + 6·0.5 = 9.
#[test]
fn textbook_min_lp() {
    let mut m = Model::minimize();
    let x = m.add_continuous(0.0, INF, 2.0);
    let y = m.add_continuous(0.0, INF, 3.0);
    let r1 = m.add_ge(&[(x, 1.0), (y, 1.0)], 4.0).unwrap();
    let r2 = m.add_ge(&[(x, 1.0), (y, 3.0)], 6.0).unwrap();
    for (name, s) in lp_solvers() {
        let sol = s.solve_lp(&m).unwrap();
        assert_eq!(sol.status, LpStatus::Optimal, "{name}");
        assert_close("objective", Some(sol.objective), 9.0);
        assert_close("x", sol.value(x), 3.0);
        assert_close("y", sol.value(y), 1.0);
        assert_close("y1", sol.dual(r1), 1.5);
        assert_close("y2", sol.dual(r2), 0.5);
        assert_close("d_x", sol.reduced_cost(x), 0.0);
        assert_close("d_y", sol.reduced_cost(y), 0.0);
        check_kkt(&m, &sol, 1e-7).unwrap();
    }
}

/// max 3x + 2y  s.t.  r1: x + y <= 4,  r2: x + 3y <= 9,  0 <= x <= 3,  y >= 0.
/// Vertices (3,0): 9, (3,1): 11, (1.5,2.5): 9.5, (0,3): 6, so x = 3, y = 1, z = 11,
/// with r1 and the upper bound of x active and r2 slack (activity 6).
/// y = ∂z/∂b: r1 -> 4 + δ gives y = 1 + δ, z = 11 + 2δ, so y1 = 2 (>= 0 for a <= row
/// of a max problem); y2 = 0. d_x = 3 − 2 = 1 (= ∂z/∂u_x: x = 3 + δ, y = 1 − δ gives
/// z = 11 + δ), d_y = 2 − 2 = 0. Dual objective 4·2 + 3·1 = 11.
#[test]
fn max_lp_with_active_upper_bound() {
    let mut m = Model::maximize();
    let x = m.add_continuous(0.0, 3.0, 3.0);
    let y = m.add_continuous(0.0, INF, 2.0);
    let r1 = m.add_le(&[(x, 1.0), (y, 1.0)], 4.0).unwrap();
    let r2 = m.add_le(&[(x, 1.0), (y, 3.0)], 9.0).unwrap();
    for (name, s) in lp_solvers() {
        let sol = s.solve_lp(&m).unwrap();
        assert_eq!(sol.status, LpStatus::Optimal, "{name}");
        assert_close("objective", Some(sol.objective), 11.0);
        assert_close("x", sol.value(x), 3.0);
        assert_close("y", sol.value(y), 1.0);
        assert_close("y1", sol.dual(r1), 2.0);
        assert_close("y2", sol.dual(r2), 0.0);
        assert_close("d_x", sol.reduced_cost(x), 1.0);
        assert_close("d_y", sol.reduced_cost(y), 0.0);
        assert_close("activity r2", sol.activity(r2), 6.0);
        check_kkt(&m, &sol, 1e-7).unwrap();
    }
}

/// min x − 2y  s.t.  r1: x + y = 4,  r2: 1 <= y − x <= 2,  x, y >= 0.
/// On r1, y = 4 − x and y − x = 4 − 2x ∈ [1, 2] gives x ∈ [1, 1.5]; the objective
/// 3x − 8 is minimal at x = 1, y = 3, z = −5, with r2 at its upper bound.
/// d = 0 for both basic variables: 1 = y1 − y2 and −2 = y1 + y2, so y1 = −0.5 (free,
/// equality) and y2 = −1.5 (<= 0: a range at its upper bound in a min problem).
/// Check by sensitivity: r1 -> 4 + δ moves z by −δ/2; r2's upper bound -> 2 + δ
/// moves z by −1.5δ. Dual objective 4·(−0.5) + 2·(−1.5) = −5.
#[test]
fn equality_and_range_rows() {
    let mut m = Model::minimize();
    let x = m.add_continuous(0.0, INF, 1.0);
    let y = m.add_continuous(0.0, INF, -2.0);
    let r1 = m.add_eq(&[(x, 1.0), (y, 1.0)], 4.0).unwrap();
    let r2 = m.add_range(1.0, &[(x, -1.0), (y, 1.0)], 2.0).unwrap();
    for (name, s) in lp_solvers() {
        let sol = s.solve_lp(&m).unwrap();
        assert_eq!(sol.status, LpStatus::Optimal, "{name}");
        assert_close("objective", Some(sol.objective), -5.0);
        assert_close("x", sol.value(x), 1.0);
        assert_close("y", sol.value(y), 3.0);
        assert_close("y1", sol.dual(r1), -0.5);
        assert_close("y2", sol.dual(r2), -1.5);
        check_kkt(&m, &sol, 1e-7).unwrap();
    }
}

/// The same answers whichever dual method is used.
#[test]
fn full_and_restricted_duals_agree_on_nondegenerate_lp() {
    let mut m = Model::minimize();
    let x = m.add_continuous(0.0, INF, 2.0);
    let y = m.add_continuous(0.0, INF, 3.0);
    m.add_ge(&[(x, 1.0), (y, 1.0)], 4.0).unwrap();
    m.add_ge(&[(x, 1.0), (y, 3.0)], 6.0).unwrap();
    let a = MinilpSolver::new()
        .with_duals(DualMethod::Full)
        .solve_lp(&m)
        .unwrap();
    let b = MinilpSolver::new()
        .with_duals(DualMethod::Restricted)
        .solve_lp(&m)
        .unwrap();
    for (u, v) in a.row_duals.iter().zip(&b.row_duals) {
        assert!((u - v).abs() < 1e-9);
    }
    let c = MinilpSolver::new()
        .with_duals(DualMethod::Skip)
        .solve_lp(&m)
        .unwrap();
    assert!(c.row_duals.is_empty() && c.reduced_costs.is_empty());
    assert!((c.objective - 9.0).abs() < 1e-9);
}

/// Primal-degenerate LP: min x + y  s.t.  r1: x + y >= 2,  r2: x >= 1,  r3: y >= 1.
/// The optimum x = y = 1, z = 2 has three active rows in two dimensions, so the
/// duals are not unique: (y1, y2, y3) = (t, 1 − t, 1 − t) for any t ∈ [0, 1].
/// Check feasibility, strong duality and complementary slackness instead of values.
#[test]
fn degenerate_lp_has_valid_duals() {
    let mut m = Model::minimize();
    let x = m.add_continuous(0.0, INF, 1.0);
    let y = m.add_continuous(0.0, INF, 1.0);
    let r1 = m.add_ge(&[(x, 1.0), (y, 1.0)], 2.0).unwrap();
    let r2 = m.add_ge(&[(x, 1.0)], 1.0).unwrap();
    let r3 = m.add_ge(&[(y, 1.0)], 1.0).unwrap();
    for method in [DualMethod::Restricted, DualMethod::Full] {
        for (name, s) in lp_solvers() {
            let _ = name;
            let sol = s.solve_lp(&m).unwrap();
            assert_eq!(sol.status, LpStatus::Optimal);
            assert!((sol.objective - 2.0).abs() < 1e-9);
            check_kkt(&m, &sol, 1e-7).unwrap();
            let t = sol.dual(r1).unwrap();
            assert!((-1e-9..=1.0 + 1e-9).contains(&t), "y1 = {t}");
            assert!((sol.dual(r2).unwrap() - (1.0 - t)).abs() < 1e-7);
            assert!((sol.dual(r3).unwrap() - (1.0 - t)).abs() < 1e-7);
        }
        let sol = MinilpSolver::new().with_duals(method).solve_lp(&m).unwrap();
        check_kkt(&m, &sol, 1e-7).unwrap();
    }
}

/// Dual-degenerate LP (multiple primal optima) with a degenerate vertex too:
/// max x + y  s.t.  x + y <= 2,  x <= 2,  y <= 2,  x − y <= 2,  x, y >= 0.
/// Every point of the segment x + y = 2 is optimal (z = 2); the dual y1 = 1 is
/// unique but the primal is not.
#[test]
fn dual_degenerate_lp() {
    let mut m = Model::maximize();
    let x = m.add_continuous(0.0, INF, 1.0);
    let y = m.add_continuous(0.0, INF, 1.0);
    let r1 = m.add_le(&[(x, 1.0), (y, 1.0)], 2.0).unwrap();
    m.add_le(&[(x, 1.0)], 2.0).unwrap();
    m.add_le(&[(y, 1.0)], 2.0).unwrap();
    m.add_le(&[(x, 1.0), (y, -1.0)], 2.0).unwrap();
    for (name, s) in lp_solvers() {
        let sol = s.solve_lp(&m).unwrap();
        assert_eq!(sol.status, LpStatus::Optimal, "{name}");
        assert!((sol.objective - 2.0).abs() < 1e-9);
        check_kkt(&m, &sol, 1e-7).unwrap();
        assert!((sol.dual(r1).unwrap() - 1.0).abs() < 1e-7, "{name}");
    }
}

/// Fixed, free and upper-bounded-only variables and an empty row.
#[test]
fn unusual_bounds() {
    let mut m = Model::minimize();
    let fixed = m.add_continuous(2.0, 2.0, 5.0);
    let free = m.add_continuous(-INF, INF, 1.0);
    let neg = m.add_continuous(-INF, 0.0, -1.0);
    m.add_ge(&[(fixed, 1.0), (free, 1.0)], 1.0).unwrap(); // free >= -1
    m.add_ge(&[(neg, 1.0), (free, -1.0)], -3.0).unwrap(); // neg >= free - 3
    m.add_le(&[], 1.0).unwrap();
    for (name, s) in lp_solvers() {
        let sol = s.solve_lp(&m).unwrap();
        assert_eq!(sol.status, LpStatus::Optimal, "{name}");
        // free = -1, neg = 0 (its cost −1 pushes it up to its upper bound 0).
        assert!(
            (sol.objective - (10.0 - 1.0)).abs() < 1e-9,
            "{name}: {}",
            sol.objective
        );
        check_kkt(&m, &sol, 1e-7).unwrap();
        // The fixed variable's reduced cost is ∂z/∂x_fixed = 5 − 1 = 4.
        assert!((sol.reduced_cost(fixed).unwrap() - 4.0).abs() < 1e-7);
    }
}

/// A model without variables or rows solves trivially.
#[test]
fn empty_models() {
    for (name, s) in lp_solvers() {
        let sol = s.solve_lp(&Model::minimize()).unwrap();
        assert_eq!(sol.status, LpStatus::Optimal, "{name}");
        assert_eq!(sol.objective, 0.0);
        let mut m = Model::minimize();
        m.add_ge(&[], 1.0).unwrap();
        assert_eq!(
            s.solve_lp(&m).unwrap().status,
            LpStatus::Infeasible,
            "{name}"
        );
    }
}
