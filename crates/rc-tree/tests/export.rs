//! Scoring programs: `Program::of(&model, schema).eval(data)` gives what
//! `model.predict(data)` gives, for every model type and target kind, on
//! training rows, held-out rows and rows placed on the split thresholds.

use rulecover_core::scoring::python::to_python;
use rulecover_core::scoring::sql::{to_sql, Dialect, SqlOptions};
use rulecover_core::scoring::Program;
use rulecover_core::testing::{assert_program_predicts, export_data, ExportTarget as Kind};
use rulecover_core::{Dataset, Fit, Predict, Predictions, Schema};

use rc_tree::{
    AdaBoostAlgorithm, AdaBoostParams, DecisionTree, DecisionTreeParams, GradientBoostingParams,
    RandomForestParams,
};

/// The export tests' data with `missing` of the rows holding a `NaN` in
/// `color` or `x2` (half each, on average).
fn data(n: usize, kind: Kind, missing: f64, seed: u64) -> Dataset {
    export_data(n, kind, missing / 2.0, missing / 2.0, seed)
}

/// Fits nothing: checks `model` against its program on the training
/// rows, fresh rows and (for rows with `NaN`, which `predict` refuses)
/// that the program still gives numbers; renders SQL and Python.
fn check<M: Predict + rulecover_core::scoring::Export>(
    model: &M,
    train: &Dataset,
    kind: Kind,
    seed: u64,
) where
    M::Error: std::fmt::Debug,
{
    let program = Program::of(model, Schema::of(train)).unwrap();
    assert_program_predicts(&program, model, train);
    assert_program_predicts(&program, model, &data(300, kind, 0.0, seed + 1000));
    let with_nan = data(100, kind, 0.5, seed + 2000);
    assert!(model.predict(&with_nan).is_err(), "rc-tree refuses NaN");
    let out = program.eval(&with_nan);
    assert_eq!(out.len(), 100);
    for d in [Dialect::Sqlite, Dialect::DuckDb, Dialect::Postgres] {
        assert!(!to_sql(&program, &SqlOptions::new(d, "t"))
            .unwrap()
            .is_empty());
    }
    assert!(to_python(&program, "test").contains("def "));
}

/// `x` and the float64 values just below and above it.
fn around(x: f64) -> [f64; 3] {
    let up = |v: f64| {
        if v >= 0.0 {
            f64::from_bits(v.to_bits() + 1)
        } else {
            f64::from_bits(v.to_bits() - 1)
        }
    };
    [-up(-x), x, up(x)]
}

/// Rows of `base` with one numeric column moved onto (and next to) each
/// split threshold of the tree: routing at the threshold is where float32
/// and float64 comparisons part.
fn threshold_rows(tree: &DecisionTree, base: &Dataset) -> Dataset {
    let names = base.feature_names();
    let mut cols: Vec<Vec<f64>> = (0..base.n_features())
        .map(|j| base.column(j).to_vec())
        .collect();
    let mut target = Vec::new();
    for node in tree.tree().nodes() {
        let Some(s) = node.split else { continue };
        let name = &tree.features()[s.feature].name;
        let Some(j) = names.iter().position(|n| n == name) else {
            continue;
        };
        for v in around(s.rule_threshold)
            .into_iter()
            .chain(around(s.threshold))
        {
            let i = target.len() % base.n_rows();
            for (c, col) in cols.iter_mut().enumerate() {
                let x = if c == j { v } else { col[i] };
                col.push(x);
            }
            target.push(i);
        }
    }
    let n = base.n_rows();
    let cols = cols.into_iter().map(|c| c[n..].to_vec()).collect();
    Dataset::new(
        "thresholds",
        base.features().to_vec(),
        cols,
        base.subset(&target).unwrap().target_view(),
    )
    .unwrap()
}

#[test]
fn decision_trees_export_exactly() {
    for (kind, seed) in [(Kind::Binary, 1), (Kind::Multi, 2), (Kind::Real, 3)] {
        let train = data(400, kind, 0.0, seed);
        let params = match kind {
            Kind::Real => DecisionTreeParams::regressor(),
            _ => DecisionTreeParams::classifier(),
        };
        for depth in [Some(1), Some(4), None] {
            let model = params.clone().max_depth(depth).fit(&train).unwrap();
            check(&model, &train, kind, seed);
            let program = Program::of(&model, Schema::of(&train)).unwrap();
            let at = threshold_rows(&model, &train);
            assert!(at.n_rows() > 0);
            assert_program_predicts(&program, &model, &at);
        }
    }
}

#[test]
fn random_forests_export_exactly() {
    for (kind, seed) in [(Kind::Binary, 4), (Kind::Multi, 5), (Kind::Real, 6)] {
        let train = data(300, kind, 0.0, seed);
        let params = match kind {
            Kind::Real => RandomForestParams::regressor(),
            _ => RandomForestParams::classifier(),
        };
        let model = params
            .n_estimators(15)
            .max_depth(6)
            .seed(seed)
            .fit(&train)
            .unwrap();
        check(&model, &train, kind, seed);
    }
}

#[test]
fn adaboost_exports_exactly() {
    for algorithm in [AdaBoostAlgorithm::Samme, AdaBoostAlgorithm::SammeR] {
        for (kind, seed) in [(Kind::Binary, 7), (Kind::Multi, 8)] {
            let train = data(300, kind, 0.0, seed);
            let model = AdaBoostParams::default()
                .algorithm(algorithm)
                .n_estimators(20)
                .max_depth(2)
                .learning_rate(0.7)
                .seed(seed)
                .fit(&train)
                .unwrap();
            check(&model, &train, kind, seed);
        }
    }
}

#[test]
fn gradient_boosting_exports_exactly() {
    for (kind, seed) in [(Kind::Binary, 9), (Kind::Multi, 10), (Kind::Real, 11)] {
        let train = data(300, kind, 0.0, seed);
        let model = GradientBoostingParams::new()
            .n_estimators(30)
            .learning_rate(0.3)
            .subsample(0.8)
            .seed(seed)
            .fit(&train)
            .unwrap();
        check(&model, &train, kind, seed);
    }
}

/// Far outside the training range the binomial log-odds pass −709, where
/// `e^-x` would overflow: the program must stay finite and agree.
#[test]
fn gradient_boosting_extreme_scores_stay_finite() {
    let train = data(200, Kind::Binary, 0.0, 12);
    let model = GradientBoostingParams::new()
        .n_estimators(400)
        .learning_rate(1.0)
        .max_depth(4)
        .fit(&train)
        .unwrap();
    let raw = model.decision_function(&train).unwrap();
    let program = Program::of(&model, Schema::of(&train)).unwrap();
    assert_program_predicts(&program, &model, &train);
    let p = program.eval(&train);
    let Predictions::Classes { proba, .. } = p else {
        panic!("classes")
    };
    assert!(proba.iter().all(|v| v.is_finite()));
    // Not a requirement, but the test is only meaningful with large scores.
    assert!(raw.iter().any(|r| r.abs() > 30.0), "{raw:?}");
}
