//! Infeasible and unbounded models are detected by every backend (test 4), and
//! invalid input gives actionable errors instead of panics.

mod common;

use common::{lp_solvers, mip_solvers};
use rc_lp::{
    Error, LpSolver, LpStatus, MinilpSolver, MipOptions, MipSolver, MipStatus, Model, VarKind,
};

const INF: f64 = f64::INFINITY;

fn infeasible_lp() -> Model {
    // x + y <= 1 and x + y >= 2.
    let mut m = Model::minimize();
    let x = m.add_continuous(0.0, INF, 1.0);
    let y = m.add_continuous(0.0, INF, 1.0);
    m.add_le(&[(x, 1.0), (y, 1.0)], 1.0).unwrap();
    m.add_ge(&[(x, 1.0), (y, 1.0)], 2.0).unwrap();
    m
}

fn unbounded_lp() -> Model {
    // max x + y  s.t.  x − y <= 1,  x, y >= 0.
    let mut m = Model::maximize();
    let x = m.add_continuous(0.0, INF, 1.0);
    let y = m.add_continuous(0.0, INF, 1.0);
    m.add_le(&[(x, 1.0), (y, -1.0)], 1.0).unwrap();
    m
}

#[test]
fn lp_infeasible_detected() {
    let mut by_bounds = Model::minimize();
    let x = by_bounds.add_continuous(0.0, 1.0, 1.0);
    by_bounds.add_ge(&[(x, 1.0)], 2.0).unwrap();
    let mut crossed = Model::minimize();
    crossed.add_continuous(2.0, 1.0, 1.0);
    let mut eq = Model::minimize();
    let a = eq.add_continuous(-INF, INF, 0.0);
    eq.add_eq(&[(a, 1.0)], 1.0).unwrap();
    eq.add_eq(&[(a, 2.0)], 3.0).unwrap();
    for (name, s) in lp_solvers() {
        for m in [
            infeasible_lp(),
            by_bounds.clone(),
            crossed.clone(),
            eq.clone(),
        ] {
            let sol = s.solve_lp(&m).unwrap();
            assert_eq!(
                sol.status,
                LpStatus::Infeasible,
                "{name}\n{}",
                m.to_lp_string()
            );
            assert_eq!(sol.objective, INF);
            assert!(sol.primal.is_empty());
        }
    }
}

#[test]
fn lp_unbounded_detected() {
    let mut free = Model::minimize();
    let x = free.add_continuous(-INF, INF, 1.0);
    let y = free.add_continuous(0.0, 1.0, 1.0);
    free.add_le(&[(x, 1.0), (y, 1.0)], 3.0).unwrap();
    let mut empty_col = Model::minimize();
    empty_col.add_continuous(0.0, INF, -1.0);
    for (name, s) in lp_solvers() {
        let sol = s.solve_lp(&unbounded_lp()).unwrap();
        assert_eq!(sol.status, LpStatus::Unbounded, "{name}");
        assert_eq!(sol.objective, INF, "max problem unbounded above");
        for m in [free.clone(), empty_col.clone()] {
            let sol = s.solve_lp(&m).unwrap();
            assert_eq!(
                sol.status,
                LpStatus::Unbounded,
                "{name}\n{}",
                m.to_lp_string()
            );
            assert_eq!(sol.objective, -INF);
        }
    }
}

#[test]
fn mip_infeasible_and_unbounded_detected() {
    // LP-feasible but integer-infeasible: 2x = 1, x integer.
    let mut parity = Model::minimize();
    let x = parity.add_integer(0.0, 10.0, 1.0);
    parity.add_eq(&[(x, 2.0)], 1.0).unwrap();
    // Three binaries, pairwise exclusive, at least two chosen.
    let mut packing = Model::minimize();
    let b: Vec<_> = (0..3).map(|_| packing.add_binary(1.0)).collect();
    for i in 0..3 {
        for j in i + 1..3 {
            packing.add_le(&[(b[i], 1.0), (b[j], 1.0)], 1.0).unwrap();
        }
    }
    packing
        .add_ge(&[(b[0], 1.0), (b[1], 1.0), (b[2], 1.0)], 2.0)
        .unwrap();
    let mut unb = unbounded_lp();
    unb.set_var_kind(unb.var_id(0).unwrap(), VarKind::Integer)
        .unwrap();
    for (name, s) in mip_solvers() {
        let opts = MipOptions::default();
        for m in [parity.clone(), packing.clone(), infeasible_lp()] {
            let sol = s.solve_mip(&m, &opts).unwrap();
            assert_eq!(
                sol.status,
                MipStatus::Infeasible,
                "{name}\n{}",
                m.to_lp_string()
            );
            assert!(!sol.has_solution());
        }
        let sol = s.solve_mip(&unb, &opts).unwrap();
        assert_eq!(sol.status, MipStatus::Unbounded, "{name}");
    }
}

#[test]
fn invalid_input_is_an_error_not_a_panic() {
    let mut m = Model::minimize();
    let x = m.add_continuous(f64::NAN, 1.0, 1.0);
    m.add_ge(&[(x, 1.0)], 0.0).unwrap();
    for (name, s) in lp_solvers() {
        let e = s.solve_lp(&m).unwrap_err();
        assert!(matches!(e, Error::InvalidBounds { .. }), "{name}: {e}");
        assert!(e.to_string().contains("x0"), "{e}");
    }
    let mut m = Model::minimize();
    let x = m.add_continuous(0.0, 1.0, 1.0);
    let r = m.add_ge(&[(x, 1.0)], 0.0).unwrap();
    m.set_row_bounds(r, INF, INF).unwrap();
    assert!(matches!(
        MinilpSolver::new().solve_lp(&m),
        Err(Error::InvalidBounds { .. })
    ));
    let mut other = Model::minimize();
    assert!(matches!(
        other.add_ge(&[(x, 1.0)], 1.0),
        Err(Error::UnknownVar { .. })
    ));
    assert!(matches!(
        other.add_column(1.0, (0.0, 1.0), &[(r, 1.0)]),
        Err(Error::UnknownRow { .. })
    ));
    assert!(matches!(
        other.set_obj(x, 1.0),
        Err(Error::UnknownVar { .. })
    ));
    let bad_gap = MipOptions::default().with_relative_gap(-1.0);
    for (_, s) in mip_solvers() {
        assert!(matches!(
            s.solve_mip(&Model::minimize(), &bad_gap),
            Err(Error::InvalidOption { .. })
        ));
    }
}

#[test]
fn too_large_model_is_rejected_by_minilp() {
    let mut m = Model::minimize();
    let vars: Vec<_> = (0..20).map(|_| m.add_continuous(0.0, 1.0, 1.0)).collect();
    for v in &vars {
        m.add_ge(&[(*v, 1.0)], 0.5).unwrap();
    }
    let s = MinilpSolver::new().with_max_size(39);
    let e = s.solve_lp(&m).unwrap_err();
    assert!(
        matches!(
            e,
            Error::ModelTooLarge {
                rows: 20,
                cols: 20,
                limit: 39
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("raise"));
    let e = s.solve_mip(&m, &MipOptions::default()).unwrap_err();
    assert!(matches!(e, Error::ModelTooLarge { .. }));
    assert!(MinilpSolver::new().with_max_size(40).solve_lp(&m).is_ok());
}
