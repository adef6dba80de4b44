//! End-to-end properties of the GLRM variants and RuleFit on generated
//! data: exact-pricing certificates checked by brute force, variants,
//! regression, serialisation, determinism and bad input.

use rc_glm::binarize::BinaryMatrix;
use rc_glm::pricing::{rule_value, PricingProblem};
use rc_glm::{
    BinarizerParams, Error, GlrmModel, GlrmParams, MipBackend, Pricing, RuleFitParams, StopReason,
};
use rulecover_core::{Dataset, Feature, Fit, Predict, Rng, RuleModel, Target};

fn xor_data(n: usize, seed: u64) -> Dataset {
    let mut rng = Rng::new(seed);
    let rows: Vec<Vec<f64>> = (0..n)
        .map(|_| vec![rng.below(4) as f64, rng.below(3) as f64])
        .collect();
    let labels = rows
        .iter()
        .map(|r| usize::from(((r[0] >= 2.0) != (r[1] >= 1.0)) != (rng.next_f64() < 0.1)))
        .collect();
    Dataset::from_rows(
        "xor",
        vec![Feature::numeric("a"), Feature::numeric("b")],
        &rows,
        Target::Classes {
            labels,
            names: vec!["0".into(), "1".into()],
        },
    )
    .unwrap()
}

/// Every conjunction of up to `max_deg` literals, both signs: the smallest
/// reduced cost at the model's solution.
fn min_reduced_cost(
    data: &Dataset,
    model: &GlrmModel,
    matrix: &BinaryMatrix,
    literals: &[rc_glm::Literal],
    max_deg: usize,
) -> f64 {
    let n = data.n_rows();
    let eta = model.decision_function(data).unwrap();
    let y = data.target_values();
    let r: Vec<f64> = eta
        .iter()
        .zip(&y)
        .map(|(&e, &y)| (1.0 / (1.0 + (-e).exp()) - y) / n as f64)
        .collect();
    let info = model.info();
    let mut best = f64::INFINITY;
    for sign in [1.0, -1.0] {
        let costs: Vec<f64> = r.iter().map(|x| sign * x).collect();
        let p = PricingProblem {
            matrix,
            literals,
            costs: &costs,
            lambda0: info.lambda0,
            lambda1: info.lambda1,
        };
        let d = literals.len();
        let mut stack: Vec<Vec<usize>> = (0..d).map(|j| vec![j]).collect();
        while let Some(s) = stack.pop() {
            best = best.min(rule_value(&p, &s).0);
            if s.len() < max_deg {
                for j in s[s.len() - 1] + 1..d {
                    let mut t = s.clone();
                    t.push(j);
                    stack.push(t);
                }
            }
        }
    }
    best
}

#[test]
fn exact_pricing_stops_only_when_no_column_has_negative_reduced_cost() {
    for seed in 0..2 {
        let data = xor_data(40, seed);
        let params = GlrmParams::lrr()
            .lambdas(0.01, 0.2)
            .pricing(Pricing::Exact)
            .mip_backend(MipBackend::default())
            .max_degree(3)
            .debias(false);
        let model = params.fit(&data).unwrap();
        assert_eq!(model.info().stop, StopReason::Certified, "seed {seed}");
        let b = BinarizerParams::default().fit(&data).unwrap();
        let m = b.transform(&data).unwrap();
        let v = min_reduced_cost(&data, &model, &m, b.literals(), 3);
        assert!(
            v >= -params.glm.kkt_tol,
            "seed {seed}: a conjunction has reduced cost {v}"
        );
    }
}

#[test]
fn lrr_beats_lr1_on_an_interaction() {
    let data = xor_data(400, 7);
    let lr1 = GlrmParams::lr1().lambdas(0.005, 0.2).fit(&data).unwrap();
    let lrr = GlrmParams::lrr().lambdas(0.005, 0.2).fit(&data).unwrap();
    let brier = |m: &GlrmModel| {
        let p = m.predict_positive(&data).unwrap();
        let y = data.target_values();
        p.iter().zip(&y).map(|(p, y)| (p - y).powi(2)).sum::<f64>() / y.len() as f64
    };
    assert!(
        brier(&lrr) < brier(&lr1) - 0.05,
        "{} vs {}",
        brier(&lrr),
        brier(&lr1)
    );
    assert!(lrr.rule_lengths().contains(&2));
    assert!(lr1.rule_lengths().iter().all(|&d| d == 1));
}

fn regression_data(n: usize, seed: u64) -> Dataset {
    let mut rng = Rng::new(seed);
    let rows: Vec<Vec<f64>> = (0..n)
        .map(|_| vec![rng.next_f64() * 10.0, rng.next_f64(), rng.below(3) as f64])
        .collect();
    let y = rows
        .iter()
        .map(|r| {
            3.0 * r[0] + 5.0 * f64::from(u8::from(r[1] > 0.5 && r[2] == 1.0)) + rng.normal() * 0.3
        })
        .collect();
    Dataset::from_rows(
        "reg",
        vec![
            Feature::numeric("x"),
            Feature::numeric("u"),
            Feature::categorical("c", vec!["p".into(), "q".into(), "r".into()]),
        ],
        &rows,
        Target::Real(y),
    )
    .unwrap()
}

#[test]
fn linear_variants_fit_a_regression_target() {
    let data = regression_data(500, 3);
    let y = data.target_values();
    let r2 = |m: &GlrmModel| {
        let p = m.predict_values(&data).unwrap();
        rulecover_core::metrics::r2(&y, &p).unwrap()
    };
    let lr1 = GlrmParams::lr1().lambdas(0.001, 0.2).fit(&data).unwrap();
    let lrrn = GlrmParams::lrrn().lambdas(0.001, 0.2).fit(&data).unwrap();
    assert!(r2(&lrrn) > 0.98, "LRRN R² {}", r2(&lrrn));
    assert!(r2(&lrrn) > r2(&lr1));
    assert!(lrrn.n_linear_terms() >= 1);
    assert!(lrrn.to_string().contains("[linear] x"));
    let rf = RuleFitParams::new()
        .linear_terms(true)
        .lambdas(0.001, 0.2)
        .max_rules(200)
        .fit(&data)
        .unwrap();
    assert!(r2(&rf) > 0.95, "RuleFitN R² {}", r2(&rf));
}

#[test]
fn models_print_sorted_and_round_trip_through_json() {
    let data = xor_data(300, 11);
    let model = GlrmParams::lrr().lambdas(0.005, 0.2).fit(&data).unwrap();
    let coefs: Vec<f64> = model.terms().iter().map(|t| t.coef.abs()).collect();
    assert!(coefs.windows(2).all(|w| w[0] >= w[1]));
    let text = model.to_string();
    assert!(text.starts_with("logistic rule model:"), "{text}");
    assert!(text.contains("a ") && text.contains("intercept"));
    let json = serde_json::to_string(&model).unwrap();
    let back: GlrmModel = serde_json::from_str(&json).unwrap();
    assert_eq!(back, model);
    assert_eq!(back.predict(&data).unwrap(), model.predict(&data).unwrap());
    let expect: f64 = model
        .rule_lengths()
        .iter()
        .map(|&d| 1.0 + 0.2 * d as f64)
        .sum();
    assert!((model.complexity() - expect).abs() < 1e-12);
}

#[test]
fn fits_are_deterministic() {
    let data = xor_data(300, 5);
    let a = RuleFitParams::new()
        .seed(9)
        .max_rules(300)
        .lambdas(0.005, 0.2)
        .fit(&data)
        .unwrap();
    let b = RuleFitParams::new()
        .seed(9)
        .max_rules(300)
        .lambdas(0.005, 0.2)
        .fit(&data)
        .unwrap();
    assert_eq!(a.terms(), b.terms());
    let c = GlrmParams::lrrn().lambdas(0.005, 0.2).fit(&data).unwrap();
    let d = GlrmParams::lrrn().lambdas(0.005, 0.2).fit(&data).unwrap();
    assert_eq!(c.terms(), d.terms());
}

#[test]
fn regularisation_paths_shrink_with_the_penalty() {
    let data = xor_data(300, 2);
    let path = [(0.05, 0.01), (0.01, 0.002), (0.002, 0.0004)];
    let models = GlrmParams::lrr().fit_path(&data, &path).unwrap();
    assert_eq!(models.len(), 3);
    assert!(models[0].complexity() <= models[2].complexity());
    let rf = RuleFitParams::new()
        .max_rules(200)
        .fit_path(&data, &path)
        .unwrap();
    assert!(rf[0].complexity() <= rf[2].complexity());
}

#[test]
fn bad_input_gives_typed_errors() {
    // A single class.
    let one = Dataset::from_rows(
        "one",
        vec![Feature::numeric("x")],
        &[vec![1.0], vec![2.0], vec![3.0]],
        Target::Classes {
            labels: vec![1, 1, 1],
            names: vec!["a".into(), "b".into()],
        },
    )
    .unwrap();
    assert!(matches!(
        GlrmParams::lrr().fit(&one),
        Err(Error::SingleClass { .. })
    ));
    // Constant and all-missing columns only.
    let bad = Dataset::from_rows(
        "bad",
        vec![Feature::numeric("k"), Feature::numeric("m")],
        &[
            vec![1.0, f64::NAN],
            vec![1.0, f64::NAN],
            vec![1.0, f64::NAN],
        ],
        Target::Classes {
            labels: vec![0, 1, 0],
            names: vec!["a".into(), "b".into()],
        },
    )
    .unwrap();
    assert!(matches!(
        GlrmParams::lrr().fit(&bad),
        Err(Error::NoUsableFeatures { .. })
    ));
    // Constant columns beside a usable one are dropped, not fatal.
    let ok = Dataset::from_rows(
        "ok",
        vec![Feature::numeric("k"), Feature::numeric("x")],
        &[
            vec![1.0, 0.0],
            vec![1.0, 1.0],
            vec![1.0, 2.0],
            vec![1.0, 3.0],
        ],
        Target::Classes {
            labels: vec![0, 0, 1, 1],
            names: vec!["a".into(), "b".into()],
        },
    )
    .unwrap();
    assert!(GlrmParams::lr1().fit(&ok).is_ok());
    // Three classes.
    let three = Dataset::from_rows(
        "three",
        vec![Feature::numeric("x")],
        &[vec![1.0], vec![2.0], vec![3.0]],
        Target::Classes {
            labels: vec![0, 1, 2],
            names: vec!["a".into(), "b".into(), "c".into()],
        },
    )
    .unwrap();
    assert!(matches!(
        GlrmParams::lrr().fit(&three),
        Err(Error::NotBinary { classes: 3, .. })
    ));
    // Invalid parameters.
    assert!(matches!(
        GlrmParams::lrr().lambda0(-1.0).fit(&ok),
        Err(Error::InvalidParameter {
            name: "lambda0",
            ..
        })
    ));
    assert!(matches!(
        GlrmParams::lrr().beam_width(0).fit(&ok),
        Err(Error::InvalidParameter { .. })
    ));
    // An infinite feature value at prediction time.
    let model = GlrmParams::lr1().fit(&ok).unwrap();
    let inf = Dataset::from_rows(
        "inf",
        vec![Feature::numeric("k"), Feature::numeric("x")],
        &[vec![1.0, f64::INFINITY]],
        Target::Classes {
            labels: vec![0],
            names: vec!["a".into(), "b".into()],
        },
    )
    .unwrap();
    assert!(matches!(
        model.predict(&inf),
        Err(Error::NonFiniteFeature { .. })
    ));
}

/// Column generation with the squared loss (restricted master on the Gram
/// matrix): every point of a path ends at a KKT point of its restricted
/// master, and the objective falls as the penalties fall and the working
/// set grows.
#[test]
fn squared_loss_path_ends_at_kkt_points() {
    let data = regression_data(400, 5);
    let params = GlrmParams::lrr().debias(false);
    let path: Vec<(f64, f64)> = [0.05, 0.01, 0.002, 0.0005]
        .iter()
        .map(|&l| (l, 0.2 * l))
        .collect();
    let models = params.fit_path(&data, &path).unwrap();
    for w in models.windows(2) {
        assert!(w[1].info().objective <= w[0].info().objective + 1e-12);
    }
    for m in &models {
        let info = m.info();
        assert!(
            info.kkt_violation <= params.glm.kkt_tol,
            "λ0 {}: KKT violation {}",
            info.lambda0,
            info.kkt_violation
        );
        assert!(info.working_set >= m.terms().len());
    }
    assert!(models[3].terms().len() > models[0].terms().len());
}
