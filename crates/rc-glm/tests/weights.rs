//! Sample weights: integer weights fit the same model as duplicated rows,
//! unit weights the same model as no weights, zero weights as removed
//! rows (the contract shared by every learner, `rulecover_core::testing`);
//! bad weights are typed errors.

use rc_glm::{Error, GlrmModel, GlrmParams, RuleFitParams, Term};
use rulecover_core::testing::{self, Agreement};
use rulecover_core::{Dataset, Feature, Fit, Rng, Target};

/// Numeric features with some missing values; a logistic or a real target.
fn data(n: usize, seed: u64, real: bool) -> Dataset {
    let mut rng = Rng::new(seed);
    let rows: Vec<Vec<f64>> = (0..n)
        .map(|_| {
            let m = if rng.next_f64() < 0.05 {
                f64::NAN
            } else {
                rng.normal()
            };
            vec![rng.next_f64(), rng.normal(), m, rng.below(5) as f64]
        })
        .collect();
    let score: Vec<f64> = rows
        .iter()
        .map(|r| {
            let m = if r[2].is_nan() { 1.0 } else { 0.3 * r[2] };
            2.0 * f64::from(u8::from(r[0] > 0.5 && r[1] > 0.0)) + r[1] - 0.4 * r[3]
                + m
                + rng.normal()
        })
        .collect();
    let target = if real {
        Target::Real(score)
    } else {
        Target::Classes {
            labels: score.iter().map(|&s| usize::from(s > -0.5)).collect(),
            names: vec!["no".into(), "yes".into()],
        }
    };
    Dataset::from_rows(
        "w",
        vec![
            Feature::numeric("a"),
            Feature::numeric("b"),
            Feature::numeric("m"),
            Feature::numeric("k"),
        ],
        &rows,
        target,
    )
    .unwrap()
}

/// Integer weights in 0..=3 (some zeros).
fn integer_weights(data: &Dataset, seed: u64) -> Vec<f64> {
    let mut rng = Rng::new(seed);
    (0..data.n_rows()).map(|_| rng.below(4) as f64).collect()
}

fn close(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * a.abs().max(b.abs()).max(1.0)
}

/// Same terms (literals and thresholds exactly), coefficients and
/// intercept to `rel` (the predictions are compared by the shared
/// contract).
fn assert_same_model(a: &GlrmModel, b: &GlrmModel, rel: f64, what: &str) {
    assert_eq!(a.terms().len(), b.terms().len(), "{what}:\n{a}\nvs\n{b}");
    for (s, t) in a.terms().iter().zip(b.terms()) {
        match (&s.term, &t.term) {
            // Linear terms: the weighted mean and standard deviation of a
            // column agree with those of the duplicated column up to
            // rounding.
            (Term::Linear(x), Term::Linear(y)) => {
                assert_eq!(x.feature, y.feature, "{what}");
                assert!(close(x.mean, y.mean, rel) && close(x.scale, y.scale, rel));
                assert!(x.lower == y.lower && x.upper == y.upper, "{what}");
            }
            // Rules: the same literals at bit-identical thresholds.
            (x, y) => assert_eq!(x, y, "{what}:\n{a}\nvs\n{b}"),
        }
        assert!(
            close(s.coef, t.coef, rel),
            "{what}: {} vs {}",
            s.coef,
            t.coef
        );
    }
    assert!(close(a.intercept(), b.intercept(), rel), "{what}");
}

/// The same terms and the same intercept, bit for bit (the predictions are
/// compared by the shared contract).
fn assert_identical(a: &GlrmModel, b: &GlrmModel, what: &str) {
    assert_eq!(a.terms(), b.terms(), "{what}");
    assert_eq!(a.intercept().to_bits(), b.intercept().to_bits(), "{what}");
}

#[test]
fn integer_weights_fit_the_model_of_duplicated_rows() {
    let cases: Vec<(&str, GlrmParams, bool)> = vec![
        ("LRR", GlrmParams::lrr().lambdas(0.01, 0.2), false),
        ("LR1N", GlrmParams::lr1n().lambdas(0.005, 0.2), false),
        ("LRRN", GlrmParams::lrrn().lambdas(0.01, 0.2), false),
        ("linear LRR", GlrmParams::lrr().lambdas(0.01, 0.2), true),
        ("linear LR1N", GlrmParams::lr1n().lambdas(0.005, 0.2), true),
        (
            "linear LRR, general solver",
            GlrmParams::lrr().lambdas(0.01, 0.2).gram_master(false),
            true,
        ),
    ];
    // The heuristic pricing is greedy: where two candidate rules tie up to
    // rounding, the summation order (weights or copies) may pick either,
    // and the two fits then follow different, equally valid paths. These
    // seeds have no such tie (it happens for about 1 data set in 50).
    for seed in [0u64, 2] {
        for (what, params, real) in &cases {
            let d = data(300, 10 + seed, *real);
            let w = integer_weights(&d, 40 + seed);
            let (weighted, duplicated) = testing::assert_integer_weights_equal_duplicated_rows(
                params,
                &d,
                &w,
                &d,
                Agreement::Relative(1e-9),
                what,
            );
            assert!(!weighted.terms().is_empty(), "{what}");
            assert_same_model(&weighted, &duplicated, 1e-9, what);
            // The training coverage counts the rows of positive weight.
            let rules = rulecover_core::RuleModel::rule_set(&weighted);
            let kept = w.iter().filter(|&&w| w > 0.0).count();
            assert!(rules.rules.iter().all(|r| r.coverage <= kept), "{what}");
        }
    }
}

#[test]
fn unit_weights_fit_exactly_the_unweighted_model() {
    for real in [false, true] {
        let d = data(300, 3, real);
        for params in [
            GlrmParams::lrr().lambdas(0.005, 0.2),
            GlrmParams::lr1n().lambdas(0.005, 0.2),
            GlrmParams::lrrn().lambdas(0.005, 0.2),
        ] {
            let what = params.name();
            let (a, b) = testing::assert_unit_weights_equal_unweighted(
                &params,
                &d,
                &d,
                Agreement::Exact,
                what,
            );
            assert_identical(&a, &b, what);
        }
        let rf = RuleFitParams::new()
            .max_rules(150)
            .linear_terms(true)
            .lambdas(0.005, 0.2);
        let (a, b) = testing::assert_unit_weights_equal_unweighted(
            &rf,
            &d,
            &d,
            Agreement::Exact,
            "RuleFitN",
        );
        assert_identical(&a, &b, "RuleFitN");
    }
}

#[test]
fn zero_weights_remove_rows_and_weights_change_the_model() {
    let d = data(300, 21, false);
    let w: Vec<f64> = (0..d.n_rows())
        .map(|i| f64::from(u8::from(i % 3 != 0)))
        .collect();
    let params = GlrmParams::lrrn().lambdas(0.005, 0.2);
    let (weighted, subset) = testing::assert_zero_weights_drop_rows(
        &params,
        &d,
        &w,
        &d,
        Agreement::Exact,
        "zero weights",
    );
    assert_identical(&weighted, &subset, "zero weights");

    // Heavier weights on the positive class move the intercept up.
    let labels = d.labels().unwrap();
    let heavy: Vec<f64> = labels.iter().map(|&l| 1.0 + 4.0 * l as f64).collect();
    let plain = GlrmParams::lr1().lambdas(0.005, 0.2).fit(&d).unwrap();
    let tilted = GlrmParams::lr1()
        .lambdas(0.005, 0.2)
        .fit_weighted(&d, &heavy)
        .unwrap();
    let mean = |m: &GlrmModel| {
        let p = m.predict_positive(&d).unwrap();
        p.iter().sum::<f64>() / p.len() as f64
    };
    assert!(mean(&tilted) > mean(&plain) + 0.05);

    // RuleFit takes real weights too.
    let rf = RuleFitParams::new().max_rules(150).lambdas(0.005, 0.2);
    let a = rf.fit(&d).unwrap();
    let b = rf.fit_weighted(&d, &heavy).unwrap();
    assert_ne!(a.terms(), b.terms());
    assert!(mean(&b) > mean(&a));
}

#[test]
fn bad_weights_are_typed_errors() {
    let d = data(50, 1, false);
    let params = GlrmParams::lrr();
    let short = vec![1.0; 10];
    assert!(matches!(
        params.fit_weighted(&d, &short),
        Err(Error::Core(rulecover_core::Error::Shape(_)))
    ));
    let mut negative = vec![1.0; d.n_rows()];
    negative[7] = -1.0;
    let err = params.fit_weighted(&d, &negative).unwrap_err();
    assert!(
        matches!(
            &err,
            Error::Core(rulecover_core::Error::InvalidParameter {
                name: "sample_weight",
                ..
            })
        ),
        "{err}"
    );
    assert!(err.to_string().contains("row 8"), "{err}");
    let zeros = vec![0.0; d.n_rows()];
    assert!(RuleFitParams::new().fit_weighted(&d, &zeros).is_err());
    let mut nan = vec![1.0; d.n_rows()];
    nan[0] = f64::NAN;
    assert!(RuleFitParams::new().fit_weighted(&d, &nan).is_err());
}
