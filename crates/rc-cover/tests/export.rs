//! Scoring programs: `Program::of(&model, schema).eval(data)` gives what
//! `model.predict(data)` gives for MIRCO (classification and regression)
//! and RUX (both fallbacks), on training rows and held-out rows, some of
//! them with a missing categorical value or covered by no rule.

use rc_cover::{
    MircoModel, MircoParams, MulticlassVote, RuleProba, RuxBase, RuxParams, Uncovered,
    WeightedRuleModel,
};
use rc_tree::{AdaBoostAlgorithm, AdaBoostParams, RandomForestParams};
use rulecover_core::scoring::python::to_python;
use rulecover_core::scoring::sql::{to_sql, Dialect, SqlOptions};
use rulecover_core::scoring::{Export, Program};
use rulecover_core::testing::{assert_program_predicts, ExportTarget as Kind};
use rulecover_core::{Dataset, Fit, Predict, Schema};

use rulecover_core::testing::export_data as data;

/// Checks `model` against its program on the training rows and on
/// held-out rows, a third of them without a color; a missing `x2` is
/// refused by `predict`, so only the program's shape is checked there.
/// Renders SQL and Python. Returns the held-out rows.
fn check<M: Predict + Export>(model: &M, train: &Dataset, kind: Kind, seed: u64) -> Dataset
where
    M::Error: std::fmt::Debug,
{
    let program = Program::of(model, Schema::of(train)).unwrap();
    assert_program_predicts(&program, model, train);
    let held_out = data(400, kind, 0.3, 0.0, seed + 1000);
    assert_program_predicts(&program, model, &held_out);
    let with_nan = data(50, kind, 0.0, 0.5, seed + 2000);
    assert!(model.predict(&with_nan).is_err(), "a missing x2 is refused");
    assert_eq!(program.eval(&with_nan).len(), 50);
    for d in [Dialect::Sqlite, Dialect::DuckDb, Dialect::Postgres] {
        assert!(!to_sql(&program, &SqlOptions::new(d, "t"))
            .unwrap()
            .is_empty());
    }
    assert!(to_python(&program, "test").contains("def "));
    held_out
}

fn forest(kind: Kind, seed: u64) -> RandomForestParams {
    match kind {
        Kind::Real => RandomForestParams::regressor(),
        _ => RandomForestParams::classifier(),
    }
    .n_estimators(10)
    .max_depth(3)
    .seed(seed)
}

#[test]
fn mirco_exports_exactly() {
    let mut missed = 0;
    for (kind, seed) in [(Kind::Binary, 1), (Kind::Multi, 2), (Kind::Real, 3)] {
        let train = data(300, kind, 0.0, 0.0, seed);
        for proba in [RuleProba::Vote, RuleProba::Calibrated] {
            let model: MircoModel = MircoParams::default()
                .forest(forest(kind, seed))
                .proba(proba)
                .fit(&train)
                .unwrap();
            // Smoothing is for classes only.
            let smoothed = proba == RuleProba::Calibrated && kind != Kind::Real;
            assert_eq!(model.smoothing().is_some(), smoothed);
            let held_out = check(&model, &train, kind, seed);
            let (_, m) = model.predict_with_missed(&held_out).unwrap();
            missed += m.iter().filter(|&&m| m).count();
        }
    }
    // The partial vote of rows no rule covers is exercised.
    assert!(missed > 0);
}

#[test]
fn rux_exports_exactly() {
    let mut missed = 0.0;
    for (kind, seed) in [(Kind::Binary, 4), (Kind::Multi, 5)] {
        let train = data(250, kind, 0.0, 0.0, seed);
        for uncovered in [Uncovered::FirstEstimator, Uncovered::MajorityClass] {
            let bases = [
                RuxBase::Forest(forest(kind, seed)),
                RuxBase::AdaBoost(
                    AdaBoostParams::new()
                        .n_estimators(8)
                        .max_depth(2)
                        .algorithm(AdaBoostAlgorithm::Samme)
                        .seed(seed),
                ),
            ];
            for (base, proba) in bases
                .into_iter()
                .flat_map(|b| [(b.clone(), RuleProba::Vote), (b, RuleProba::Calibrated)])
            {
                let model: WeightedRuleModel = RuxParams::default()
                    .base(base)
                    .uncovered(uncovered)
                    .proba(proba)
                    .class_copies(true)
                    // Both votes, each with and without calibration over
                    // the two bases.
                    .multiclass_vote(match (proba, seed % 2) {
                        (RuleProba::Vote, 0) | (RuleProba::Calibrated, 1) => {
                            MulticlassVote::Frequencies
                        }
                        _ => MulticlassVote::Label,
                    })
                    .fit(&train)
                    .unwrap();
                assert_eq!(
                    model.calibration().is_some(),
                    proba == RuleProba::Calibrated
                );
                let held_out = check(&model, &train, kind, seed);
                missed += model.missed_fraction(&held_out).unwrap();
                // Fewer rules: more rows fall back.
                let top = model.with_min_weight(0.5);
                check(&top, &train, kind, seed);
                missed += top.missed_fraction(&held_out).unwrap();
            }
        }
    }
    // The fallback of rows no rule covers is exercised.
    assert!(missed > 0.0);
}
