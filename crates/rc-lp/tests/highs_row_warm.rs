//! HiGHS warm starts for models grown by rows (`HighsSolver::grow_rows`): a
//! master LP in the dual form of column generation gains rows, columns, and
//! new bounds on old columns; every warm re-solve must give the cold optimum
//! with verified duals, and any other change must be solved afresh.

#![cfg(feature = "highs")]

mod common;

use common::{check_kkt, Rng};
use rc_lp::{HighsSolver, LpSolver, LpStatus, Model};

/// `max Σ_j x_j  s.t.  Σ_j a_ij x_j ≤ c_i (i < rows),  0 ≤ x_j ≤ u_j (j < cols)`
/// over the leading block of one fixed random matrix with entries in
/// {−1, 0, 1} (the shape of RUX/RUG's dual form); `shrink` halves the bounds
/// of the columns it lists.
fn dual_form(
    a: &[Vec<f64>],
    c: &[f64],
    u: &[f64],
    rows: usize,
    cols: usize,
    shrink: &[usize],
) -> Model {
    let mut m = Model::maximize();
    let x: Vec<_> = (0..cols)
        .map(|j| {
            let up = if shrink.contains(&j) {
                u[j] / 2.0
            } else {
                u[j]
            };
            m.add_continuous(0.0, up, 1.0)
        })
        .collect();
    for i in 0..rows {
        let terms: Vec<_> = (0..cols)
            .filter(|&j| a[i][j] != 0.0)
            .map(|j| (x[j], a[i][j]))
            .collect();
        m.add_le(&terms, c[i]).unwrap();
    }
    m
}

#[test]
fn row_grown_models_are_solved_warm_to_the_cold_optimum() {
    check_steps(&HighsSolver::new().with_row_warm_start(true), 24, 60);
}

#[test]
fn boxed_column_growth_is_solved_warm_by_the_dual_simplex_to_the_cold_optimum() {
    let warm = HighsSolver::new()
        .with_row_warm_start(true)
        .with_dual_warm_columns(true);
    check_steps(&warm, 24, 60);
    // Columns only, the growth the option changes.
    check_steps(&HighsSolver::new().with_dual_warm_columns(true), 24, 60);
}

/// Solves the models of a fixed sequence of growth steps of a random dual
/// form over `rows` × `cols` with `warm` and cold: the same optimum, and
/// `warm`'s solution and duals satisfy the KKT conditions.
fn check_steps(warm: &HighsSolver, rows: usize, cols: usize) {
    let mut g = Rng::new(11);
    let a: Vec<Vec<f64>> = (0..rows)
        .map(|_| {
            (0..cols)
                .map(|_| match g.int(0, 5) {
                    0 => -1.0,
                    1 | 2 => 1.0,
                    _ => 0.0,
                })
                .collect()
        })
        .collect();
    let c: Vec<f64> = (0..rows).map(|_| g.int(1, 6) as f64).collect();
    let u: Vec<f64> = (0..cols).map(|_| g.int(1, 4) as f64).collect();
    let cold = HighsSolver::new().with_warm_start(false);
    // (rows, columns, columns with halved bounds): grows by rows only, by
    // columns only, by both, with bounds changed, then an unrelated change
    // (a shrunk prefix: not an extension) and growth again.
    let steps: [(usize, usize, &[usize]); 9] = [
        (6, 20, &[]),
        (9, 20, &[]),
        (9, 28, &[]),
        (12, 34, &[3, 7]),
        (15, 34, &[3, 7, 30]),
        (15, 34, &[3, 7, 30]),
        (12, 30, &[]),
        (18, 44, &[1]),
        (24, 60, &[1, 50]),
    ];
    for (k, &(r, n, shrink)) in steps.iter().enumerate() {
        let m = dual_form(&a, &c, &u, r, n, shrink);
        let w = warm.solve_lp(&m).unwrap();
        let x = cold.solve_lp(&m).unwrap();
        assert_eq!(w.status, LpStatus::Optimal, "step {k}");
        assert_eq!(x.status, LpStatus::Optimal, "step {k}");
        assert!(
            (w.objective - x.objective).abs() < 1e-9 * (1.0 + x.objective.abs()),
            "step {k}: warm {} vs cold {}",
            w.objective,
            x.objective
        );
        check_kkt(&m, &w, 1e-7).unwrap_or_else(|e| panic!("step {k}: {e}"));
    }
}

#[test]
fn row_growth_is_ignored_unless_switched_on() {
    // The default solver must still answer correctly (loading afresh) when rows grow.
    let mut g = Rng::new(5);
    let a: Vec<Vec<f64>> = (0..10)
        .map(|_| (0..16).map(|_| g.int(-1, 1) as f64).collect())
        .collect();
    let c = vec![2.0; 10];
    let u = vec![1.0; 16];
    let solver = HighsSolver::new();
    let cold = HighsSolver::new().with_warm_start(false);
    for (r, n) in [(4, 8), (7, 8), (10, 16)] {
        let m = dual_form(&a, &c, &u, r, n, &[]);
        let s = solver.solve_lp(&m).unwrap();
        let x = cold.solve_lp(&m).unwrap();
        assert!((s.objective - x.objective).abs() < 1e-9);
        check_kkt(&m, &s, 1e-7).unwrap();
    }
}
