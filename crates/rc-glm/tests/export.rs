//! Scoring programs of GLRM and RuleFit models: `Program::of(&model,
//! schema).eval(data)` gives `model.predict(data)` (within 1e-12 per value,
//! same argmax labels) on held-out rows with missing values, for every
//! variant, binary, one-vs-rest and regression, native and one-hot
//! encodings.

use rc_glm::{GlrmModel, GlrmParams, RuleFitParams, Term, UnseenMissing};
use rulecover_core::predictions::argmax;
use rulecover_core::scoring::Program;
use rulecover_core::{
    Dataset, Encoding, Feature, Fit, OneVsRest, Predict, Predictions, Rng, Schema, Target,
};

/// What the rows' target is.
#[derive(Clone, Copy)]
enum Kind {
    Classes(usize),
    Real,
}

/// A numeric `x` with missing values (when `missing_x`), a numeric `z`
/// missing only when `missing_z`, a categorical `color` (3 levels); the
/// target depends on all three.
fn data(n: usize, seed: u64, kind: Kind, missing_x: bool, missing_z: bool) -> Dataset {
    let mut rng = Rng::new(seed);
    let (mut x, mut z, mut color, mut labels, mut values) =
        (vec![], vec![], vec![], vec![], vec![]);
    for _ in 0..n {
        let xi = rng.normal();
        let zi = 10.0 * rng.next_f64();
        let ci = rng.below(3);
        let s = 1.5 * xi + if ci == 1 { 2.0 } else { -1.0 } + 0.3 * zi - 1.5 + rng.normal();
        x.push(if missing_x && rng.next_f64() < 0.15 {
            f64::NAN
        } else {
            xi
        });
        z.push(if missing_z && rng.next_f64() < 0.15 {
            f64::NAN
        } else {
            zi
        });
        color.push(ci as f64);
        values.push(s);
        labels.push(match kind {
            Kind::Classes(2) | Kind::Real => usize::from(s > 0.0),
            Kind::Classes(_) => {
                if s < -1.0 {
                    0
                } else if s < 1.5 {
                    1
                } else {
                    2
                }
            }
        });
    }
    let target = match kind {
        Kind::Classes(k) => Target::Classes {
            labels,
            names: (0..k).map(|c| format!("c{c}")).collect(),
        },
        Kind::Real => Target::Real(values),
    };
    Dataset::new(
        "export",
        vec![
            Feature::numeric("x"),
            Feature::categorical("color", vec!["red".into(), "green".into(), "blue".into()]),
            Feature::numeric("z"),
        ],
        vec![x, color, z],
        target,
    )
    .unwrap()
}

/// Asserts that the program of `model` over `train`'s schema predicts as
/// `model` on `test`.
fn assert_exact<M>(model: &M, train: &Dataset, test: &Dataset)
where
    M: Predict + rulecover_core::scoring::Export,
    M::Error: std::fmt::Debug,
{
    let program = Program::of(model, Schema::of(train)).unwrap();
    let expected = model.predict(test).unwrap();
    let got = program.eval(test);
    match (&expected, &got) {
        (
            Predictions::Classes {
                n_classes: k,
                proba: want,
            },
            Predictions::Classes {
                n_classes: k2,
                proba: have,
            },
        ) => {
            assert_eq!(k, k2);
            assert_eq!(want.len(), have.len());
            for (i, (w, h)) in want.chunks(*k).zip(have.chunks(*k)).enumerate() {
                for (a, b) in w.iter().zip(h) {
                    assert!((a - b).abs() <= 1e-12, "row {i}: {w:?} vs {h:?}");
                }
                assert_eq!(argmax(w), argmax(h), "row {i}: {w:?} vs {h:?}");
            }
            // Not a constant model: the test would be weak.
            let first = &want[..*k];
            assert!(want.chunks(*k).any(|r| r != first), "constant predictions");
        }
        (Predictions::Values(want), Predictions::Values(have)) => {
            assert_eq!(want.len(), have.len());
            for (i, (a, b)) in want.iter().zip(have).enumerate() {
                assert!((a - b).abs() <= 1e-12, "row {i}: {a} vs {b}");
            }
            assert!(want.iter().any(|v| *v != want[0]), "constant predictions");
        }
        _ => panic!("prediction kinds differ: {expected:?} vs {got:?}"),
    }
}

fn has_linear(model: &GlrmModel) -> bool {
    model
        .terms()
        .iter()
        .any(|t| matches!(t.term, Term::Linear(_)))
}

fn variants() -> Vec<(&'static str, GlrmParams)> {
    vec![
        ("lr1", GlrmParams::lr1().lambdas(0.005, 0.2)),
        (
            "lrr",
            GlrmParams::lrr().lambdas(0.005, 0.2).max_iterations(10),
        ),
        ("lr1n", GlrmParams::lr1n().lambdas(0.005, 0.2)),
        (
            "lrrn",
            GlrmParams::lrrn().lambdas(0.005, 0.2).max_iterations(10),
        ),
    ]
}

#[test]
fn glrm_binary_programs_predict_as_the_models() {
    let train = data(400, 1, Kind::Classes(2), true, false);
    let test = data(300, 2, Kind::Classes(2), true, false);
    for (name, params) in variants() {
        let model = params.fit(&train).unwrap();
        if name.ends_with('n') {
            assert!(has_linear(&model), "{name} has no linear term");
        }
        assert_exact(&model, &train, &test);
    }
}

#[test]
fn unseen_missing_values_read_as_literals() {
    let train = data(400, 3, Kind::Classes(2), true, false);
    // `z` had no missing value at fit.
    let test = data(300, 4, Kind::Classes(2), true, true);
    for (_, params) in variants() {
        let model = params
            .unseen_missing(UnseenMissing::AsLiterals)
            .fit(&train)
            .unwrap();
        assert_exact(&model, &train, &test);
    }
}

#[test]
fn one_hot_glrm_programs_predict_as_the_models() {
    let train = data(400, 5, Kind::Classes(2), true, false);
    let test = data(300, 6, Kind::Classes(2), true, false);
    for drop_first in [false, true] {
        let model = GlrmParams::lrrn()
            .lambdas(0.005, 0.2)
            .max_iterations(10)
            .encoding(Encoding::OneHot { drop_first })
            .fit(&train)
            .unwrap();
        assert_exact(&model, &train, &test);
    }
}

#[test]
fn one_vs_rest_glrm_programs_predict_as_the_models() {
    let train = data(450, 7, Kind::Classes(3), true, false);
    let test = data(300, 8, Kind::Classes(3), true, false);
    for (_, params) in variants() {
        let model = OneVsRest::new(params).fit(&train).unwrap();
        assert_exact(&model, &train, &test);
    }
    let rulefit = OneVsRest::new(RuleFitParams::new().max_rules(100).seed(3))
        .fit(&train)
        .unwrap();
    assert_exact(&rulefit, &train, &test);
}

#[test]
fn linear_rule_regression_programs_predict_as_the_models() {
    let train = data(400, 9, Kind::Real, true, false);
    let test = data(300, 10, Kind::Real, true, false);
    for (name, params) in variants() {
        let model = params.fit(&train).unwrap();
        if name.ends_with('n') {
            assert!(has_linear(&model), "{name} has no linear term");
        }
        assert_exact(&model, &train, &test);
    }
}

#[test]
fn rulefit_programs_predict_as_the_models() {
    for kind in [Kind::Classes(2), Kind::Real] {
        let train = data(400, 11, kind, true, false);
        let test = data(300, 12, kind, true, false);
        for linear in [false, true] {
            let model = RuleFitParams::new()
                .max_rules(200)
                .linear_terms(linear)
                .seed(5)
                .fit(&train)
                .unwrap();
            if linear {
                assert!(has_linear(&model), "rulefit-n has no linear term");
            }
            assert_exact(&model, &train, &test);
        }
    }
}
