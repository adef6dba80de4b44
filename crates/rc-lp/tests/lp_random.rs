//! Property tests on random feasible, bounded LPs (test 3) and backend agreement
//! (test 5, LP part): strong duality, dual feasibility and complementary slackness
//! for every backend and dual method; equal objectives across backends.

mod common;

use common::{check_kkt, close, lp_solvers, proptest_config, random_any_lp, random_lp};
use proptest::prelude::*;
use rc_lp::{DualMethod, LpSolver, LpStatus, MinilpSolver};

proptest! {
    #![proptest_config(proptest_config(32, 0x5eed_0001))]

    #[test]
    fn kkt_holds_on_random_lps(seed in any::<u64>(), rows in 1usize..=8, cols in 1usize..=8) {
        let m = random_lp(seed, rows, cols);
        for (name, s) in lp_solvers() {
            let sol = s.solve_lp(&m).map_err(|e| TestCaseError::fail(format!("{name}: {e}")))?;
            prop_assert_eq!(sol.status, LpStatus::Optimal, "{}", name);
            if let Err(e) = check_kkt(&m, &sol, 1e-6) {
                return Err(TestCaseError::fail(format!("{name}: {e}\n{}", m.to_lp_string())));
            }
        }
    }

    #[test]
    fn full_dual_method_also_verifies(seed in any::<u64>(), rows in 1usize..=8, cols in 1usize..=8) {
        let m = random_lp(seed, rows, cols);
        let sol = MinilpSolver::new().with_duals(DualMethod::Full).solve_lp(&m)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(sol.status, LpStatus::Optimal);
        if let Err(e) = check_kkt(&m, &sol, 1e-6) {
            return Err(TestCaseError::fail(format!("{e}\n{}", m.to_lp_string())));
        }
    }

    #[test]
    fn backends_agree_on_objective(seed in any::<u64>(), rows in 1usize..=8, cols in 1usize..=8) {
        let m = random_lp(seed, rows, cols);
        let objs: Vec<(&str, f64)> = lp_solvers()
            .into_iter()
            .map(|(name, s)| (name, s.solve_lp(&m).unwrap().objective))
            .collect();
        for w in objs.windows(2) {
            prop_assert!(close(w[0].1, w[1].1, 1e-7), "{:?}", objs);
        }
    }
}

proptest! {
    #![proptest_config(proptest_config(48, 0x5eed_0003))]

    /// Backends agree on the status (optimal / infeasible / unbounded) of arbitrary
    /// random LPs, and on the objective and KKT conditions when optimal.
    #[test]
    fn backends_agree_on_status(seed in any::<u64>(), rows in 0usize..=7, cols in 1usize..=7) {
        let m = random_any_lp(seed, rows, cols);
        let sols: Vec<_> = lp_solvers()
            .into_iter()
            .map(|(name, s)| (name, s.solve_lp(&m).unwrap()))
            .collect();
        for (name, sol) in &sols {
            prop_assert!(
                matches!(sol.status, LpStatus::Optimal | LpStatus::Infeasible | LpStatus::Unbounded),
                "{}: {:?}", name, sol.status
            );
            if sol.is_optimal() {
                if let Err(e) = check_kkt(&m, sol, 1e-6) {
                    return Err(TestCaseError::fail(format!("{name}: {e}\n{}", m.to_lp_string())));
                }
            }
        }
        for w in sols.windows(2) {
            prop_assert_eq!(w[0].1.status, w[1].1.status, "{}", m.to_lp_string());
            if w[0].1.is_optimal() {
                prop_assert!(close(w[0].1.objective, w[1].1.objective, 1e-7));
            }
        }
    }
}
