//! HiGHS's cold-solve algorithms (`HighsAlgorithm`): every one reaches the
//! same optimum with verified duals on LPs of RUX/RUG's dual-form shape, and
//! `Auto` resolves by the model's shape while an explicit choice is kept.

#![cfg(feature = "highs")]

mod common;

use common::{check_kkt, Rng};
use rc_lp::{HighsAlgorithm, HighsSolver, LpSolver, LpStatus, Model};

const ALL: [HighsAlgorithm; 6] = [
    HighsAlgorithm::Choose,
    HighsAlgorithm::DualSimplex,
    HighsAlgorithm::PrimalSimplex,
    HighsAlgorithm::InteriorPoint,
    HighsAlgorithm::InteriorPointNoCrossover,
    HighsAlgorithm::Auto,
];

/// `max Σ_j β_j  s.t.  Σ_j a_ij β_j ≤ c_i,  0 ≤ β_j ≤ u_j` with entries in
/// {−1, 0, 1}: the shape of RUX's dual form (one row per rule, one bounded
/// column per hinge class), degenerate like it.
fn dual_form(rows: usize, cols: usize, seed: u64) -> Model {
    let mut g = Rng::new(seed);
    let mut m = Model::maximize();
    let beta: Vec<_> = (0..cols)
        .map(|_| m.add_continuous(0.0, g.int(1, 4) as f64, 1.0))
        .collect();
    for _ in 0..rows {
        let terms: Vec<_> = beta
            .iter()
            .filter_map(|&b| match g.int(0, 7) {
                0 => Some((b, -1.0)),
                1 | 2 => Some((b, 1.0)),
                _ => None,
            })
            .collect();
        m.add_le(&terms, g.int(1, 3) as f64).unwrap();
    }
    m
}

#[test]
fn every_algorithm_reaches_the_same_optimum_with_verified_duals() {
    for (rows, cols, seed) in [(12, 80, 1), (30, 200, 2), (40, 90, 3)] {
        let m = dual_form(rows, cols, seed);
        let reference = HighsSolver::new()
            .with_algorithm(HighsAlgorithm::DualSimplex)
            .with_warm_start(false)
            .solve_lp(&m)
            .unwrap();
        assert_eq!(reference.status, LpStatus::Optimal);
        for a in ALL {
            let s = HighsSolver::new()
                .with_algorithm(a)
                .with_warm_start(false)
                .solve_lp(&m)
                .unwrap();
            assert_eq!(s.status, LpStatus::Optimal, "{a:?} on {rows} x {cols}");
            assert!(
                (s.objective - reference.objective).abs()
                    < 1e-6 * (1.0 + reference.objective.abs()),
                "{a:?} on {rows} x {cols}: {} vs {}",
                s.objective,
                reference.objective
            );
            check_kkt(&m, &s, 1e-6).unwrap_or_else(|e| panic!("{a:?} on {rows} x {cols}: {e}"));
        }
    }
}

/// A model with `rows` rows over `cols` columns, each row with a few
/// entries.
fn shaped(rows: usize, cols: usize) -> Model {
    let mut m = Model::maximize();
    let x: Vec<_> = (0..cols).map(|_| m.add_continuous(0.0, 1.0, 1.0)).collect();
    for i in 0..rows {
        let terms: Vec<_> = (0..3).map(|k| (x[(i * 7 + k) % cols], 1.0)).collect();
        m.add_le(&terms, 1.0).unwrap();
    }
    m
}

#[test]
fn auto_resolves_from_the_shape_and_an_explicit_choice_is_kept() {
    let (r, c, k) = (
        HighsAlgorithm::AUTO_MIN_ROWS,
        HighsAlgorithm::AUTO_MIN_COLS,
        HighsAlgorithm::AUTO_MIN_COLS_PER_ROW,
    );
    // (rows, columns, interior point expected)
    let cases = [
        (10, 40, false),
        (r, (k * r).max(c), true),
        (r - 1, (k * r).max(c), false),
        (r, (k * r).max(c) - 1, false),
        (c / k + 1, c, false),
        (2 * r, 2 * k * r.max(c / k), true),
    ];
    for (rows, cols, ipm) in cases {
        let m = shaped(rows, cols);
        let want = if ipm {
            HighsAlgorithm::InteriorPoint
        } else {
            HighsAlgorithm::DualSimplex
        };
        assert_eq!(HighsAlgorithm::Auto.resolve(&m), want, "{rows} x {cols}");
        assert_eq!(
            HighsAlgorithm::for_shape(rows, cols),
            want,
            "{rows} x {cols}"
        );
        for a in ALL.into_iter().filter(|&a| a != HighsAlgorithm::Auto) {
            assert_eq!(a.resolve(&m), a, "an explicit {a:?} is kept");
        }
    }
}

#[test]
fn auto_solves_an_interior_point_shaped_lp_to_the_dual_simplex_optimum() {
    // Above every threshold: Auto runs the interior point with crossover.
    let (rows, cols) = (
        HighsAlgorithm::AUTO_MIN_ROWS,
        HighsAlgorithm::AUTO_MIN_COLS
            .max(HighsAlgorithm::AUTO_MIN_COLS_PER_ROW * HighsAlgorithm::AUTO_MIN_ROWS),
    );
    let mut g = Rng::new(9);
    let mut m = Model::maximize();
    let beta: Vec<_> = (0..cols)
        .map(|_| m.add_continuous(0.0, g.int(1, 3) as f64, 1.0))
        .collect();
    for i in 0..rows {
        // 40 distinct columns per row (397 is prime to the column count).
        let terms: Vec<_> = (0..40)
            .map(|k| {
                let sign = if g.int(0, 3) == 0 { -1.0 } else { 1.0 };
                (beta[(i * 131 + k * 397) % cols], sign)
            })
            .collect();
        m.add_le(&terms, g.int(1, 3) as f64).unwrap();
    }
    assert_eq!(
        HighsAlgorithm::Auto.resolve(&m),
        HighsAlgorithm::InteriorPoint
    );
    let auto = HighsSolver::new()
        .with_algorithm(HighsAlgorithm::Auto)
        .solve_lp(&m)
        .unwrap();
    let dual = HighsSolver::new()
        .with_algorithm(HighsAlgorithm::DualSimplex)
        .with_warm_start(false)
        .solve_lp(&m)
        .unwrap();
    assert_eq!(auto.status, LpStatus::Optimal);
    assert!((auto.objective - dual.objective).abs() < 1e-6 * (1.0 + dual.objective.abs()));
    check_kkt(&m, &auto, 1e-6).unwrap();
}

/// The names of the algorithms of a failed solve's attempts and their
/// model statuses.
fn attempts_of(e: &rc_lp::Error) -> Vec<(String, Option<String>)> {
    match e {
        rc_lp::Error::SolveFailed { attempts, .. } => attempts
            .iter()
            .map(|a| (a.algorithm.clone(), a.model_status.clone()))
            .collect(),
        other => panic!("expected SolveFailed, got {other:?}"),
    }
}

#[test]
fn the_retry_order_is_fixed_and_starts_with_the_algorithm_asked_for() {
    use HighsAlgorithm::*;
    let small = shaped(10, 40);
    let cases = [
        (Choose, vec![Choose, DualSimplex, InteriorPoint]),
        (DualSimplex, vec![DualSimplex, InteriorPoint]),
        (
            PrimalSimplex,
            vec![PrimalSimplex, DualSimplex, InteriorPoint],
        ),
        (InteriorPoint, vec![InteriorPoint, DualSimplex]),
        (
            InteriorPointNoCrossover,
            vec![InteriorPointNoCrossover, DualSimplex, InteriorPoint],
        ),
        (Auto, vec![DualSimplex, InteriorPoint]),
    ];
    for (a, want) in cases {
        assert_eq!(a.retry_order(&small), want, "{a:?}");
    }
}

#[test]
fn a_solve_every_algorithm_fails_names_the_size_the_algorithms_and_the_statuses() {
    // No iteration allowed: every algorithm stops at its limit. Presolve
    // off, so that nothing is solved before the first iteration.
    let m = dual_form(30, 200, 2);
    let solver = HighsSolver::new()
        .with_algorithm(HighsAlgorithm::DualSimplex)
        .with_presolve(false)
        .with_warm_start(false)
        .with_iteration_limit(0);
    let e = solver.solve_lp(&m).unwrap_err();
    let limit = Some("Iteration limit reached".to_string());
    assert_eq!(
        attempts_of(&e),
        vec![
            ("dual simplex".to_string(), limit.clone()),
            ("interior point with crossover".to_string(), limit),
        ]
    );
    match &e {
        rc_lp::Error::SolveFailed {
            backend,
            problem,
            rows,
            cols,
            nonzeros,
            ..
        } => {
            assert_eq!((*backend, *problem), ("highs", "LP"));
            assert_eq!((*rows, *cols, *nonzeros), (30, 200, m.num_nonzeros()));
        }
        other => panic!("{other:?}"),
    }
    let text = e.to_string();
    let size = format!("30 rows, 200 columns and {} nonzeros", m.num_nonzeros());
    for part in [
        size.as_str(),
        "dual simplex (model status: Iteration limit reached)",
        "interior point with crossover (model status: Iteration limit reached)",
    ] {
        assert!(text.contains(part), "{part:?} not in {text:?}");
    }
    // Without retries the first failure is the error.
    let e = solver.with_retry(false).solve_lp(&m).unwrap_err();
    assert_eq!(attempts_of(&e).len(), 1);
}

#[test]
fn an_algorithm_that_fails_is_retried_by_the_next_to_the_same_optimum() {
    // The dual simplex needs hundreds of iterations on this LP, the
    // interior point a few dozen: at a limit between the two only the
    // dual simplex fails, and the retry by the interior point answers.
    let m = dual_form(300, 3000, 5);
    let reference = HighsSolver::new()
        .with_algorithm(HighsAlgorithm::DualSimplex)
        .with_warm_start(false)
        .solve_lp(&m)
        .unwrap();
    assert_eq!(reference.status, LpStatus::Optimal);
    let limited = HighsSolver::new()
        .with_algorithm(HighsAlgorithm::DualSimplex)
        .with_presolve(false)
        .with_warm_start(false)
        .with_iteration_limit(LIMIT);
    let e = limited.clone().with_retry(false).solve_lp(&m).unwrap_err();
    assert_eq!(
        attempts_of(&e),
        vec![(
            "dual simplex".to_string(),
            Some("Iteration limit reached".to_string())
        )]
    );
    let s = limited.solve_lp(&m).unwrap();
    assert_eq!(s.status, LpStatus::Optimal);
    assert!(
        (s.objective - reference.objective).abs() < 1e-6 * (1.0 + reference.objective.abs()),
        "{} vs {}",
        s.objective,
        reference.objective
    );
    check_kkt(&m, &s, 1e-6).unwrap();
}

/// The iteration limit of the retry test: above the interior point's
/// iterations, below the dual simplex's.
const LIMIT: u64 = 100;

#[test]
fn a_failed_warm_re_solve_is_retried_cold() {
    // A solve leaves this thread's instance; the model grown by a column
    // would re-solve warm from it, but no iteration is allowed: the warm
    // primal simplex fails first, then every cold algorithm.
    let mut m = dual_form(30, 200, 2);
    let first = HighsSolver::new()
        .with_presolve(false)
        .solve_lp(&m)
        .unwrap();
    assert_eq!(first.status, LpStatus::Optimal);
    let entries: Vec<_> = (0..m.num_rows())
        .step_by(2)
        .map(|i| (m.row_id(i).unwrap(), 0.5))
        .collect();
    // Its objective makes it enter the basis: at least one iteration.
    m.add_column(100.0, (0.0, 10.0), &entries).unwrap();
    let e = HighsSolver::new()
        .with_presolve(false)
        .with_iteration_limit(0)
        .solve_lp(&m)
        .unwrap_err();
    let names: Vec<String> = attempts_of(&e).into_iter().map(|(a, _)| a).collect();
    assert_eq!(
        names,
        [
            "primal simplex (warm start)",
            "simplex of HiGHS's choice",
            "dual simplex",
            "interior point with crossover"
        ]
    );
}
