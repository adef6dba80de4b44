//! Column generation (test 8): adding columns to a solved model and re-solving
//! gives the same answer as building the bigger model from scratch, and a pricing
//! loop driven by the duals reaches the LP optimum over the full column pool.

mod common;

use common::{check_kkt, lp_solvers, Rng};
use rc_lp::{LpSolver, LpStatus, MinilpSolver, Model, RowId, VarId};

const INF: f64 = f64::INFINITY;

/// A random covering pool: `cols` columns `(cost, rows covered)` over `rows` rows.
fn pool(seed: u64, rows: usize, cols: usize) -> Vec<(f64, Vec<usize>)> {
    let mut g = Rng::new(seed);
    (0..cols)
        .map(|_| {
            let cover: Vec<usize> = (0..rows).filter(|_| g.chance(0.25)).collect();
            (g.int(1, 9) as f64, cover)
        })
        .collect()
}

/// Restricted master: one expensive slack column per row (always feasible).
fn master(rows: usize) -> (Model, Vec<RowId>) {
    let mut m = Model::minimize();
    let mut r = Vec::new();
    for _ in 0..rows {
        r.push(m.add_ge(&[], 1.0).unwrap());
    }
    for &row in &r {
        m.add_column(100.0, (0.0, INF), &[(row, 1.0)]).unwrap();
    }
    (m, r)
}

fn add_pool_column(m: &mut Model, rows: &[RowId], col: &(f64, Vec<usize>)) -> VarId {
    let entries: Vec<(RowId, f64)> = col.1.iter().map(|&i| (rows[i], 1.0)).collect();
    m.add_column(col.0, (0.0, INF), &entries).unwrap()
}

#[test]
fn add_column_then_resolve_equals_building_from_scratch() {
    for seed in 0..8 {
        let p = pool(seed, 12, 30);
        // Incremental: solve with the first half, add the rest, re-solve.
        let (mut inc, rows) = master(12);
        for col in &p[..15] {
            add_pool_column(&mut inc, &rows, col);
        }
        for (_, s) in lp_solvers() {
            assert_eq!(s.solve_lp(&inc).unwrap().status, LpStatus::Optimal);
        }
        for col in &p[15..] {
            add_pool_column(&mut inc, &rows, col);
        }
        // From scratch: rows first, then every column through add_row-built terms.
        let mut scratch = Model::minimize();
        let mut vars: Vec<VarId> = (0..12)
            .map(|_| scratch.add_continuous(0.0, INF, 100.0))
            .collect();
        vars.extend(p.iter().map(|c| scratch.add_continuous(0.0, INF, c.0)));
        for i in 0..12 {
            let mut terms = vec![(vars[i], 1.0)];
            for (k, col) in p.iter().enumerate() {
                if col.1.contains(&i) {
                    terms.push((vars[12 + k], 1.0));
                }
            }
            scratch.add_ge(&terms, 1.0).unwrap();
        }
        assert_eq!(inc, scratch, "same model either way");
        for (name, s) in lp_solvers() {
            let a = s.solve_lp(&inc).unwrap();
            let b = s.solve_lp(&scratch).unwrap();
            assert!((a.objective - b.objective).abs() < 1e-9, "{name}");
            check_kkt(&inc, &a, 1e-7).unwrap();
        }
    }
}

#[test]
fn pricing_loop_reaches_full_lp_optimum() {
    let rows = 15;
    let p = pool(99, rows, 60);
    for (name, s) in lp_solvers() {
        let (mut m, r) = master(rows);
        let mut in_master = vec![false; p.len()];
        let mut iterations = 0;
        let final_obj = loop {
            iterations += 1;
            assert!(iterations < 100, "{name}: pricing does not converge");
            let sol = s.solve_lp(&m).unwrap();
            assert_eq!(sol.status, LpStatus::Optimal);
            // Reduced cost of a pool column: c_j − Σ_i y_i a_ij.
            let best = p
                .iter()
                .enumerate()
                .filter(|(k, _)| !in_master[*k])
                .map(|(k, col)| {
                    let rc = col.0 - col.1.iter().map(|&i| sol.row_duals[i]).sum::<f64>();
                    (k, rc)
                })
                .min_by(|a, b| a.1.total_cmp(&b.1));
            match best {
                Some((k, rc)) if rc < -1e-9 => {
                    in_master[k] = true;
                    add_pool_column(&mut m, &r, &p[k]);
                }
                _ => break sol.objective,
            }
        };
        // Full LP over the whole pool.
        let (mut full, fr) = master(rows);
        for col in &p {
            add_pool_column(&mut full, &fr, col);
        }
        let full_obj = MinilpSolver::new().solve_lp(&full).unwrap().objective;
        assert!(
            (final_obj - full_obj).abs() < 1e-7,
            "{name}: {final_obj} vs {full_obj}"
        );
        assert!(in_master.iter().filter(|&&b| b).count() < p.len());
    }
}

/// HiGHS re-solves grown models warm; a model changed in any other way (a cost,
/// a bound, another model interleaved) must be solved afresh, never from the
/// stale instance: every answer equals a cold solve.
#[cfg(feature = "highs")]
#[test]
fn highs_warm_start_never_reuses_a_stale_instance() {
    use rc_lp::HighsSolver;
    let warm = HighsSolver::new();
    let cold = HighsSolver::new().with_warm_start(false);
    let p = pool(7, 14, 40);
    let (mut a, ra) = master(14);
    let (mut b, rb) = master(14);
    for (k, col) in p.iter().enumerate() {
        // Grow both models, interleaving their solves on this thread.
        add_pool_column(&mut a, &ra, col);
        if k % 3 == 0 {
            add_pool_column(&mut b, &rb, &p[p.len() - 1 - k]);
        }
        if k % 5 == 4 {
            // Change an existing cost: no longer an extension of the last solve.
            let v = a.var_id(14 + k / 2).unwrap();
            a.set_obj(v, 0.5 + (k % 4) as f64).unwrap();
        }
        for m in [&a, &b] {
            let w = warm.solve_lp(m).unwrap();
            let c = cold.solve_lp(m).unwrap();
            assert_eq!(w.status, LpStatus::Optimal);
            assert!(
                (w.objective - c.objective).abs() < 1e-9,
                "step {k}: warm {} vs cold {}",
                w.objective,
                c.objective
            );
            check_kkt(m, &w, 1e-7).unwrap();
        }
    }
}
