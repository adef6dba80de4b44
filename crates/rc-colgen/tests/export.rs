//! Scoring programs: `Program::of(&model, schema).eval(data)` gives what
//! `model.predict(data)` gives for RCBoost and RUG (RUG-T), on training
//! rows and held-out rows, some of them with a missing categorical value
//! or covered by no rule.

use rc_colgen::{RcBoostModel, RcBoostParams, RugModel, RugParams};
use rc_cover::Uncovered;
use rc_cover::{LeafLabel, RuleProba, RuxParams};
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

/// RCBoost's rules include its first tree's leaves, a partition, so
/// every row is covered; the partial vote of uncovered rows is MIRCO's
/// (`rc-cover`'s tests).
#[test]
fn rcboost_exports_exactly() {
    for (kind, seed) in [(Kind::Binary, 1), (Kind::Multi, 2)] {
        let train = data(250, kind, 0.0, 0.0, seed);
        for proba in [RuleProba::Vote, RuleProba::Calibrated] {
            let model: RcBoostModel = RcBoostParams::default()
                .max_depth(3)
                .max_rmp_calls(4)
                .proba(proba)
                .seed(seed)
                .fit(&train)
                .unwrap();
            assert_eq!(model.smoothing().is_some(), proba == RuleProba::Calibrated);
            check(&model, &train, kind, seed);
        }
    }
}

#[test]
fn rug_exports_exactly() {
    let mut missed = 0.0;
    for (kind, seed) in [(Kind::Binary, 4), (Kind::Multi, 5)] {
        let train = data(250, kind, 0.0, 0.0, seed);
        for uncovered in [Uncovered::FirstEstimator, Uncovered::MajorityClass] {
            for (min_weight, proba) in [
                (None, RuleProba::Vote),
                (Some(0.3), RuleProba::Vote),
                (Some(0.3), RuleProba::Calibrated),
            ] {
                let lp = RuxParams::default()
                    .uncovered(uncovered)
                    .proba(proba)
                    .leaf_label(LeafLabel::TrainingMajority);
                let model: RugModel = RugParams::default()
                    .lp(lp)
                    .max_depth(2)
                    .max_rmp_calls(4)
                    .min_weight(min_weight)
                    .seed(seed)
                    .fit(&train)
                    .unwrap();
                let held_out = check(&model, &train, kind, seed);
                missed += model.rules().missed_fraction(&held_out).unwrap();
            }
        }
    }
    // The fallback of rows no rule covers is exercised.
    assert!(missed > 0.0);
}
