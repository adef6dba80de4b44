//! MIP tests: small set-cover IPs against brute-force enumeration and across
//! backends (test 5, IP part), general integers, maximisation, gap and time limits
//! (test 6).

mod common;

use common::{
    brute_force_binary, close, mip_solvers, proptest_config, random_set_cover,
    random_set_cover_costs, Rng,
};
use proptest::prelude::*;
use rc_lp::{MinilpSolver, MipOptions, MipSolver, MipStatus, Model, VarId};
use std::time::{Duration, Instant};

proptest! {
    #![proptest_config(proptest_config(32, 0x5eed_0002))]

    /// Every backend finds the brute-force optimum of random set covers with at
    /// most 12 columns, and returns a feasible, integral incumbent.
    #[test]
    fn set_cover_matches_brute_force(
        seed in any::<u64>(), rows in 1usize..=10, cols in 1usize..=12, density in 0.1f64..0.6,
    ) {
        let m = random_set_cover(seed, rows, cols, density);
        let best = brute_force_binary(&m).unwrap();
        for (name, s) in mip_solvers() {
            let sol = s.solve_mip(&m, &MipOptions::default()).unwrap();
            prop_assert_eq!(sol.status, MipStatus::Optimal, "{}", name);
            prop_assert!(close(sol.objective, best, 1e-9), "{}: {} vs {}", name, sol.objective, best);
            prop_assert!(m.max_violation(&sol.values, true) == 0.0);
            prop_assert!(sol.gap <= 1e-9);
            prop_assert!(sol.best_bound <= sol.objective + 1e-9);
        }
    }

    /// Random pure-binary models with mixed rows and a random sense.
    #[test]
    fn binary_models_match_brute_force(seed in any::<u64>(), rows in 1usize..=6, cols in 1usize..=10) {
        let mut g = Rng::new(seed);
        let mut m = if g.chance(0.5) { Model::minimize() } else { Model::maximize() };
        let x: Vec<VarId> = (0..cols).map(|_| m.add_binary(g.int(-5, 5) as f64)).collect();
        for _ in 0..rows {
            let terms: Vec<(VarId, f64)> = x.iter().map(|&v| (v, g.int(-3, 3) as f64)).collect();
            let rhs = g.int(-2, 4) as f64;
            match g.int(0, 2) {
                0 => m.add_le(&terms, rhs).unwrap(),
                1 => m.add_ge(&terms, rhs - 2.0).unwrap(),
                _ => m.add_range(rhs - 3.0, &terms, rhs).unwrap(),
            };
        }
        let best = brute_force_binary(&m);
        for (name, s) in mip_solvers() {
            let sol = s.solve_mip(&m, &MipOptions::default()).unwrap();
            match best {
                None => prop_assert_eq!(sol.status, MipStatus::Infeasible, "{}", name),
                Some(b) => {
                    prop_assert_eq!(sol.status, MipStatus::Optimal, "{}", name);
                    prop_assert!(close(sol.objective, b, 1e-9), "{}: {} vs {}", name, sol.objective, b);
                    prop_assert!(m.max_violation(&sol.values, true) == 0.0);
                }
            }
        }
    }
}

/// General integers and a continuous variable:
/// max 5x + 4y + z  s.t.  6x + 4y <= 24,  x + 2y <= 6,  z <= 1.5,  x, y ∈ Z+, z >= 0.
/// LP optimum x = 3, y = 1.5; integer optimum x = 4, y = 0 (z = 1.5): 21.5.
#[test]
fn general_integer_max() {
    let mut m = Model::maximize();
    let x = m.add_integer(0.0, f64::INFINITY, 5.0);
    let y = m.add_integer(0.0, f64::INFINITY, 4.0);
    let z = m.add_continuous(0.0, f64::INFINITY, 1.0);
    m.add_le(&[(x, 6.0), (y, 4.0)], 24.0).unwrap();
    m.add_le(&[(x, 1.0), (y, 2.0)], 6.0).unwrap();
    m.add_le(&[(z, 1.0)], 1.5).unwrap();
    for (name, s) in mip_solvers() {
        let sol = s.solve_mip(&m, &MipOptions::default()).unwrap();
        assert_eq!(sol.status, MipStatus::Optimal, "{name}");
        assert!(
            (sol.objective - 21.5).abs() < 1e-9,
            "{name}: {}",
            sol.objective
        );
        assert_eq!(sol.value(x), Some(4.0));
        assert_eq!(sol.value(y), Some(0.0));
        assert!((sol.value(z).unwrap() - 1.5).abs() < 1e-9);
        assert!(
            sol.best_bound >= sol.objective - 1e-9,
            "{name}: upper bound for max"
        );
    }
}

/// Integers with negative bounds and a free integer variable.
#[test]
fn negative_and_free_integers() {
    // min x + 2y  s.t.  x + y >= -3.5,  x - y <= 1.5,  x ∈ [-10, 10] ∩ Z, y ∈ Z free.
    // x + y >= -3 and x <= y + 1 (integers): y = -2, x = -1 gives -5; y = -1, x = -2
    // gives -4; y = -2, x = -1 is best with x + 2y = -5.
    let mut m = Model::minimize();
    let x = m.add_integer(-10.0, 10.0, 1.0);
    let y = m.add_integer(f64::NEG_INFINITY, f64::INFINITY, 2.0);
    m.add_ge(&[(x, 1.0), (y, 1.0)], -3.5).unwrap();
    m.add_le(&[(x, 1.0), (y, -1.0)], 1.5).unwrap();
    for (name, s) in mip_solvers() {
        let sol = s.solve_mip(&m, &MipOptions::default()).unwrap();
        assert_eq!(sol.status, MipStatus::Optimal, "{name}");
        assert!((sol.objective + 5.0).abs() < 1e-9, "{name}: {:?}", sol);
    }
}

/// A unicost set cover that takes both backends 10-20 s to prove optimal.
fn hard_set_cover() -> Model {
    random_set_cover_costs(42, 150, 150, 0.06, 1)
}

/// Test 6: a tiny time limit stops the search with TimeLimit and the
/// incumbent found so far, on a cover that takes 10-20 s to prove optimal.
/// (No wall-clock bound is asserted: CBC checks its limit only between
/// phases, and a loaded machine stretches its root phase.)
#[test]
fn time_limit_is_respected() {
    let m = hard_set_cover();
    let opts = MipOptions::default().with_time_limit(Duration::from_millis(200));
    for (name, s) in mip_solvers() {
        let t = Instant::now();
        let sol = s.solve_mip(&m, &opts).unwrap();
        let took = t.elapsed();
        assert_eq!(sol.status, MipStatus::TimeLimit, "{name}");
        assert!(sol.has_solution(), "{name}: an incumbent is found quickly");
        assert_eq!(m.max_violation(&sol.values, true), 0.0);
        assert!(sol.best_bound <= sol.objective + 1e-9, "{name}");
        assert!(sol.gap > 0.0 && sol.gap.is_finite(), "{name}");
        eprintln!(
            "{name}: {:?} obj {} bound {} after {took:?}",
            sol.status, sol.objective, sol.best_bound
        );
    }
}

/// The node limit stops minilp's branch-and-bound with its incumbent.
#[test]
fn node_limit_is_respected() {
    let m = hard_set_cover();
    let sol = MinilpSolver::new()
        .solve_mip(&m, &MipOptions::default().with_node_limit(5))
        .unwrap();
    assert!(matches!(
        sol.status,
        MipStatus::NodeLimit | MipStatus::Optimal
    ));
    assert!(sol.nodes <= 6);
    assert!(sol.has_solution(), "rounding finds a cover at the root");
    assert!(sol.best_bound <= sol.objective);
}

/// A relative gap lets the search stop early with a certified gap.
#[test]
fn relative_gap_is_honoured() {
    let m = random_set_cover(7, 40, 60, 0.1);
    let exact = MinilpSolver::new()
        .solve_mip(&m, &MipOptions::default())
        .unwrap();
    for (name, s) in mip_solvers() {
        let sol = s
            .solve_mip(&m, &MipOptions::default().with_relative_gap(0.2))
            .unwrap();
        assert_eq!(sol.status, MipStatus::Optimal, "{name}");
        assert!(sol.objective <= exact.objective * 1.2 + 1e-9, "{name}");
        assert!(sol.best_bound <= exact.objective + 1e-9, "{name}");
    }
}

/// Every other backend agrees with minilp on moderately sized set covers
/// (beyond brute force).
#[test]
fn backends_agree_with_minilp_on_set_cover() {
    for seed in 0..4 {
        let m = if seed % 2 == 0 {
            random_set_cover(seed, 30, 40, 0.12)
        } else {
            random_set_cover_costs(seed, 40, 50, 0.15, 1)
        };
        let reference = MinilpSolver::new()
            .solve_mip(&m, &MipOptions::default())
            .unwrap();
        assert_eq!(reference.status, MipStatus::Optimal);
        for (name, solver) in mip_solvers().into_iter().skip(1) {
            let b = solver.solve_mip(&m, &MipOptions::default()).unwrap();
            assert_eq!(b.status, MipStatus::Optimal, "{name}");
            assert!(
                (reference.objective - b.objective).abs() < 1e-9,
                "{name}, seed {seed}"
            );
        }
    }
}

/// A feasible initial solution becomes the first incumbent.
#[test]
fn initial_solution_is_used() {
    let m = random_set_cover_costs(3, 40, 50, 0.15, 1);
    let exact = MinilpSolver::new()
        .solve_mip(&m, &MipOptions::default())
        .unwrap();
    assert_eq!(exact.status, MipStatus::Optimal);
    for (name, s) in mip_solvers() {
        let opts = MipOptions::default()
            .with_node_limit(1)
            .with_initial_solution(exact.values.clone());
        let sol = s.solve_mip(&m, &opts).unwrap();
        assert!(sol.has_solution(), "{name}");
        assert!(
            (sol.objective - exact.objective).abs() < 1e-9,
            "{name}: {sol:?}"
        );
    }
    // An infeasible "solution" is ignored.
    let bad = MipOptions::default().with_initial_solution(vec![0.0; m.num_vars()]);
    let sol = MinilpSolver::new().solve_mip(&m, &bad).unwrap();
    assert!((sol.objective - exact.objective).abs() < 1e-9);
}
