//! RCBoost's cover master with a working set of rows against the full LP:
//! the same optimum after every round of columns, certified on every
//! training row, and RCBoost fitted either way predicts held-out rows
//! equally well.

use rc_colgen::master::{default_master_solver, CoverMaster, MasterRows};
use rc_colgen::RcBoostParams;
use rc_tree::DecisionTreeParams;
use rulecover_core::{generate, metrics::accuracy, Dataset, Fit, Predict, RuleSource};

/// The leaves of trees grown on `d` with `rounds` different weightings:
/// each tree's leaves (cost, covered rows) form one round of columns.
fn rounds_of_columns(d: &Dataset, rounds: usize) -> Vec<Vec<(f64, Vec<u32>)>> {
    (0..rounds)
        .map(|t| {
            // Weights that shift from round to round, as accumulated duals do.
            let w: Vec<f64> = (0..d.n_rows())
                .map(|i| 1.0 + ((i * (t + 3)) % 11) as f64 / 4.0)
                .collect();
            let tree = DecisionTreeParams::classifier()
                .max_depth(4 + t % 3)
                .seed(t as u64)
                .fit_weighted(d, &w)
                .unwrap();
            let coverage = tree.pool_coverage(d).unwrap();
            (0..coverage.n_rules())
                .map(|j| {
                    let rows = coverage.rows_of(j).to_vec();
                    // Costs in [1, 1.5), like 1 + impurity, some exactly 1.
                    let cost = 1.0 + ((j * 7 + t) % 6) as f64 / 12.0;
                    (cost, rows)
                })
                .collect()
        })
        .collect()
}

#[test]
fn working_set_reaches_the_full_lp_optimum_every_round() {
    let d = generate::twonorm(600, 5);
    let n = d.n_rows();
    let solver = default_master_solver();
    let mut full = CoverMaster::new(n, MasterRows::Full).unwrap();
    let mut ws = CoverMaster::new(n, MasterRows::WorkingSet).unwrap();
    let mut columns: Vec<(f64, Vec<u32>)> = Vec::new();
    let mut smaller = false;
    for (t, round) in rounds_of_columns(&d, 6).into_iter().enumerate() {
        for (cost, rows) in &round {
            full.add_column(*cost, rows).unwrap();
            ws.add_column(*cost, rows).unwrap();
        }
        columns.extend(round);
        let a = full.solve(solver.as_ref(), t).unwrap();
        let b = ws.solve(solver.as_ref(), t).unwrap();
        let rel = (a.objective - b.objective).abs() / a.objective.abs().max(1.0);
        assert!(rel <= 1e-6, "round {t}: {} vs {}", a.objective, b.objective);
        assert_eq!(full.n_lp_rows(), n);
        smaller |= ws.n_lp_rows() < n;
        // The working set's z covers every training row (primal
        // feasibility of the full LP) ...
        let mut cover = vec![0.0; n];
        for ((_, rows), &z) in columns.iter().zip(&b.z) {
            assert!(z >= 0.0);
            for &i in rows {
                cover[i as usize] += z;
            }
        }
        assert!(cover.iter().all(|&c| c >= 1.0 - 1e-6), "round {t}");
        // ... its duals, zero outside the working set, are feasible for
        // the full dual (no column of negative reduced cost) ...
        for (cost, rows) in &columns {
            let covered: f64 = rows.iter().map(|&i| b.duals[i as usize]).sum();
            assert!(cost - covered >= -1e-6, "round {t}: {cost} < {covered}");
        }
        // ... and reach the same objective (strong duality).
        let dual_objective: f64 = b.duals.iter().sum();
        assert!((dual_objective - b.objective).abs() <= 1e-6 * b.objective.max(1.0));
        assert_eq!(b.z.len(), columns.len());
    }
    assert!(smaller, "the working set never left rows out");
}

#[test]
fn working_set_fit_predicts_held_out_rows_as_the_full_lp() {
    // The two masters return different optimal duals of the degenerate
    // LP, so the pools differ; their held-out accuracy, averaged over
    // four training sets to damp the noise of one path, agrees.
    let test = generate::twonorm(5000, 99);
    let truth = test.labels().unwrap();
    let mean_accuracy = |rows: MasterRows| -> f64 {
        let total: f64 = (0..4)
            .map(|seed| {
                let train = generate::twonorm(1500, 20 + seed);
                let model = RcBoostParams::default()
                    .max_depth(5)
                    .max_rmp_calls(15)
                    .seed(seed)
                    .master_rows(rows)
                    .fit(&train)
                    .unwrap();
                assert!(model
                    .objectives()
                    .windows(2)
                    .all(|w| w[1] <= w[0] * (1.0 + 1e-9) + 1e-9));
                let predicted = model.predict(&test).unwrap().labels().unwrap();
                accuracy(&truth, &predicted).unwrap()
            })
            .sum();
        total / 4.0
    };
    let full = mean_accuracy(MasterRows::Full);
    let ws = mean_accuracy(MasterRows::WorkingSet);
    assert!(
        (full - ws).abs() <= 0.005,
        "mean held-out accuracy {full} (full LP) vs {ws} (working set)"
    );
}
