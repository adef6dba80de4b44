//! Scoring programs: `Program::of(&model, schema).eval(data)` gives what
//! `model.predict(data)` gives for MIRCO (classification and regression)
//! and RUX (both fallbacks), on training rows and held-out rows, some of
//! them with a missing categorical value or covered by no rule.

use rc_cover::{MircoModel, MircoParams, RuxBase, RuxParams, Uncovered, WeightedRuleModel};
use rc_tree::{AdaBoostAlgorithm, AdaBoostParams, RandomForestParams};
use rulecover_core::scoring::python::to_python;
use rulecover_core::scoring::sql::{to_sql, Dialect, SqlOptions};
use rulecover_core::scoring::{Export, Program};
use rulecover_core::testing::assert_program_predicts;
use rulecover_core::{Dataset, Feature, Fit, Predict, Rng, Schema, Target};

/// What the generated target is.
#[derive(Clone, Copy)]
enum Kind {
    Binary,
    Multi,
    Real,
}

const LEVELS: [&str; 3] = ["red", "green", "blue"];

/// `n` rows: `x0` uniform, `x1` on a grid of tenths (ties), `color`
/// categorical, `x2` over several orders of magnitude; the target depends
/// on all of them, with noise. `missing_color` of the rows have no color,
/// `missing_x2` no `x2`.
fn data(n: usize, kind: Kind, missing_color: f64, missing_x2: f64, seed: u64) -> Dataset {
    let mut rng = Rng::new(seed);
    let mut cols: Vec<Vec<f64>> = (0..4).map(|_| Vec::with_capacity(n)).collect();
    let mut labels = Vec::with_capacity(n);
    let mut values = Vec::with_capacity(n);
    for _ in 0..n {
        let x0 = rng.next_f64();
        let x1 = (rng.next_f64() * 10.0).round() / 10.0;
        let color = (rng.next_f64() * 3.0).floor().min(2.0);
        let x2 = (rng.next_f64() * 12.0 - 6.0).exp();
        let score = x0 + 0.5 * x1 - 0.3 * color + 0.2 * x2.ln() + 0.3 * rng.next_f64();
        labels.push(match kind {
            Kind::Binary => usize::from(score > 0.9),
            _ => (score * 1.3).clamp(0.0, 2.0) as usize,
        });
        values.push(3.0 * score + x2.min(50.0));
        let color = if rng.next_f64() < missing_color {
            f64::NAN
        } else {
            color
        };
        let x2 = if rng.next_f64() < missing_x2 {
            f64::NAN
        } else {
            x2
        };
        for (c, v) in cols.iter_mut().zip([x0, x1, color, x2]) {
            c.push(v);
        }
    }
    let features = vec![
        Feature::numeric("x0"),
        Feature::numeric("x1"),
        Feature::categorical("color", LEVELS.iter().map(|s| s.to_string()).collect()),
        Feature::numeric("x2"),
    ];
    let target = match kind {
        Kind::Binary => Target::Classes {
            labels,
            names: vec!["no".into(), "yes".into()],
        },
        Kind::Multi => Target::Classes {
            labels,
            names: vec!["a".into(), "b".into(), "c".into()],
        },
        Kind::Real => Target::Real(values),
    };
    Dataset::new("export", features, cols, target).unwrap()
}

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
        let model: MircoModel = MircoParams::default()
            .forest(forest(kind, seed))
            .fit(&train)
            .unwrap();
        let held_out = check(&model, &train, kind, seed);
        let (_, m) = model.predict_with_missed(&held_out).unwrap();
        missed += m.iter().filter(|&&m| m).count();
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
            for base in bases {
                let model: WeightedRuleModel = RuxParams::default()
                    .base(base)
                    .uncovered(uncovered)
                    .fit(&train)
                    .unwrap();
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
