//! Working sets of hinge rows (`HingeRows::Working`): on generated data
//! the working-set solve of master LP (3) reaches the optimum of the LP
//! over every row (objective within 1e-6 relative, optimal duals over all
//! rows) in every LP form and coverage mode, and RUX fitted with it
//! predicts as RUX over every row.

use rc_cover::rux::label_rules;
use rc_cover::weighted::rule_length;
use rc_cover::{CoverageRows, HingeRows, LpForm, RuleLp, RuleLpSolution, RuxParams, SelectFrom};
use rc_lp::{LpSolver, MinilpSolver};
use rc_tree::RandomForestParams;
use rulecover_core::generate::{blobs, ringnorm, twonorm};
use rulecover_core::{Dataset, Fit, Predict, RuleModel, RuleSource};

/// A working set from any size on (the default starts at 2,000 rows).
const ALWAYS: HingeRows = HingeRows::Working { min_rows: 1 };

/// The LP solvers of this build, HiGHS as RUX's default solver configures it.
fn solvers() -> Vec<(&'static str, Box<dyn LpSolver>)> {
    #[allow(unused_mut)]
    let mut v: Vec<(&'static str, Box<dyn LpSolver>)> =
        vec![("minilp", Box::new(MinilpSolver::new()))];
    #[cfg(feature = "highs")]
    v.push(("highs", rc_cover::rux::default_rux_solver()));
    v
}

/// Master LP (3) over a random forest's leaves on `data`, rule-length costs.
fn forest_lp(
    data: &Dataset,
    trees: usize,
    depth: usize,
    coverage: CoverageRows,
    form: LpForm,
    hinge_rows: HingeRows,
) -> RuleLp {
    let rf = RandomForestParams::classifier()
        .n_estimators(trees)
        .max_depth(depth)
        .seed(3)
        .fit(data)
        .unwrap();
    let cov = rf.pool_coverage(data).unwrap();
    let pool = label_rules(rf.rule_pool(), &cov, data).unwrap();
    let mut lp = RuleLp::new(&data.labels().unwrap(), 0.01, coverage)
        .unwrap()
        .with_form(form)
        .with_hinge_rows(hinge_rows);
    for (j, r) in pool.iter().enumerate() {
        let c = rule_length(&r.pool.rule) as f64 / depth as f64;
        lp.add_rule(cov.rows_of(j).to_vec(), r.class, c).unwrap();
    }
    lp
}

/// `sol` is optimal for the LP over every row: β ∈ [0, 1], γ ≥ 0, no rule
/// of negative reduced cost, complementary slackness on every row's hinge,
/// and the dual objective equals the primal one.
fn check_optimal_over_all_rows(lp: &RuleLp, sol: &RuleLpSolution, what: &str) {
    let tol = 1e-6;
    assert!(sol.has_duals(), "{what}");
    assert!(
        sol.beta.iter().all(|&b| (-tol..=1.0 + tol).contains(&b)),
        "{what}: 0 ≤ β ≤ 1"
    );
    assert!(sol.gamma.iter().all(|&g| g >= -tol), "{what}: γ ≥ 0");
    for j in 0..lp.n_rules() {
        let rc = lp
            .reduced_cost(lp.rows_of(j), lp.label(j), lp.cost(j), sol)
            .unwrap();
        assert!(
            rc >= -tol * (1.0 + lp.n_rows() as f64),
            "{what}: rule {j} has reduced cost {rc}"
        );
    }
    for (i, m) in lp.margins(&sol.w).iter().enumerate() {
        assert!(
            *m >= 1.0 - tol || sol.beta[i] > 1.0 - tol,
            "{what}: row {i}"
        );
        assert!(*m <= 1.0 + tol || sol.beta[i] < tol, "{what}: row {i}");
        assert!(
            (sol.v[i] - (1.0 - m).max(0.0)).abs() < tol,
            "{what}: v of row {i}"
        );
    }
    let dual: f64 = sol.beta.iter().sum::<f64>() + lp.eps() * sol.gamma.iter().sum::<f64>();
    assert!(
        (dual - sol.objective).abs() < tol * (1.0 + sol.objective.abs()),
        "{what}: dual objective {dual} vs primal {}",
        sol.objective
    );
}

#[test]
fn working_set_solves_reach_the_full_lp_optimum_with_optimal_duals() {
    for (name, data) in [
        ("twonorm", twonorm(1_200, 1)),
        ("ringnorm", ringnorm(1_200, 2)),
        ("blobs", blobs(1_200, 3, 4, 3)),
    ] {
        for (solver_name, solver) in solvers() {
            for form in [LpForm::Dual, LpForm::Primal, LpForm::PrimalRows] {
                if solver_name == "minilp" && form == LpForm::PrimalRows {
                    // One row per training row: too slow for minilp here.
                    continue;
                }
                for coverage in [CoverageRows::Lazy, CoverageRows::All, CoverageRows::Off] {
                    let what = format!("{name} {solver_name} {form:?} {coverage:?}");
                    let mut full = forest_lp(&data, 15, 3, coverage, form, HingeRows::All);
                    let mut ws = forest_lp(&data, 15, 3, coverage, form, ALWAYS);
                    let a = full.solve(solver.as_ref()).unwrap();
                    let b = ws.solve(solver.as_ref()).unwrap();
                    assert!(
                        (a.objective - b.objective).abs() <= 1e-6 * a.objective.abs(),
                        "{what}: full LP {} vs working set {}",
                        a.objective,
                        b.objective
                    );
                    assert_eq!(a.stats.working_rows, data.n_rows(), "{what}");
                    assert!(
                        b.stats.working_rows < data.n_rows() && b.stats.solves > 1,
                        "{what}: the working set was not used ({} rows, {} solves)",
                        b.stats.working_rows,
                        b.stats.solves
                    );
                    check_optimal_over_all_rows(&ws, &b, &what);
                    if coverage != CoverageRows::Off {
                        assert!(ws.coverage_of(&b.w).iter().all(|&c| c >= 0.01 - 1e-6));
                    }
                }
            }
        }
    }
}

/// Held-out accuracy of a model's labels on `test`.
fn accuracy(model: &impl Predict, test: &Dataset) -> f64 {
    let p = model.predict(test).unwrap().labels().unwrap();
    let t = test.labels().unwrap();
    p.iter().zip(&t).filter(|(a, b)| a == b).count() as f64 / t.len() as f64
}

#[test]
fn rux_with_a_working_set_predicts_as_rux_over_every_row() {
    // Two classes: with more, LP (3) is far more degenerate, and another
    // optimal vertex can move held-out accuracy by more than 0.005 on data
    // this small (seen on 3-class blobs with minilp: 0.886 vs 0.918).
    for (name, data) in [
        ("twonorm", twonorm(2_500, 5)),
        ("ringnorm", ringnorm(2_500, 6)),
    ] {
        let n = data.n_rows();
        let train = data.subset(&(0..n * 4 / 5).collect::<Vec<_>>()).unwrap();
        let test = data.subset(&(n * 4 / 5..n).collect::<Vec<_>>()).unwrap();
        let rf = RandomForestParams::classifier()
            .n_estimators(40)
            .max_depth(2)
            .seed(7)
            .fit(&train)
            .unwrap();
        let full = RuxParams::for_forest()
            .hinge_rows(HingeRows::All)
            .fit_from(&rf, &train)
            .unwrap();
        let ws = RuxParams::for_forest()
            .hinge_rows(ALWAYS)
            .fit_from(&rf, &train)
            .unwrap();
        let (a, b) = (full.info(), ws.info());
        assert!(
            (a.objective - b.objective).abs() <= 1e-6 * a.objective.abs(),
            "{name}: {} vs {}",
            a.objective,
            b.objective
        );
        assert!(b.lp.working_rows < train.n_rows(), "{name}: no working set");
        let same_weights = full.rules().len() == ws.rules().len()
            && full
                .rules()
                .iter()
                .zip(ws.rules())
                .all(|(x, y)| x.rule == y.rule && (x.lp_weight - y.lp_weight).abs() < 1e-6);
        if same_weights {
            // The same optimum (unique here, or the same vertex): the same model.
            let p = full.predict(&test).unwrap();
            let q = ws.predict(&test).unwrap();
            assert_eq!(p.labels().unwrap(), q.labels().unwrap(), "{name}");
        } else {
            // Another optimal vertex of a degenerate LP: the same quality.
            let (x, y) = (accuracy(&full, &test), accuracy(&ws, &test));
            assert!(
                (x - y).abs() <= 0.005,
                "{name}: held-out accuracy {x} vs {y}"
            );
            let (r, s) = (full.n_rules() as f64, ws.n_rules() as f64);
            assert!((r - s).abs() <= 0.1 * r.max(s), "{name}: {r} vs {s} rules");
        }
    }
}

#[test]
fn the_working_set_starts_at_its_row_threshold() {
    let default = HingeRows::default();
    assert!(!default.uses_working_set(rc_cover::rux_lp::WORKING_SET_MIN_ROWS - 1));
    assert!(default.uses_working_set(rc_cover::rux_lp::WORKING_SET_MIN_ROWS));
    assert!(!HingeRows::All.uses_working_set(1_000_000));
    // Below the threshold every row is in the LP.
    let data = twonorm(300, 9);
    let mut lp = forest_lp(&data, 10, 2, CoverageRows::Lazy, LpForm::Dual, default);
    let sol = lp.solve(&MinilpSolver::new()).unwrap();
    assert_eq!(sol.stats.working_rows, 300);
}

#[test]
fn parameters_saved_before_the_option_read_as_the_default() {
    let mut value =
        serde_json::to_value(RuxParams::for_forest().hinge_rows(HingeRows::All)).unwrap();
    value.as_object_mut().unwrap().remove("hinge_rows");
    let back: RuxParams = serde_json::from_value(value).unwrap();
    assert_eq!(back.hinge_rows, HingeRows::default());
}
