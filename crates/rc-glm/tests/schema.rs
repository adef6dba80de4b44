//! Models carry their schema and encoding: raw categorical columns,
//! columns matched by name, missing values at prediction time, training
//! coverage in the rule set, probabilities aligned with the trait,
//! parameter validation and an exact JSON round trip.

use rc_glm::{Error, GlrmModel, GlrmParams, RuleFitParams, Term, UnseenMissing};
use rulecover_core::{
    Antecedent, Dataset, Encoding, Feature, Fit, Fitted, Predict, Rng, RuleModel, Target,
};

fn names(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// A numeric column `x`, a categorical `color` and a numeric `z` with
/// missing values; class 1 mostly for red or large `x`.
fn mixed(n: usize, seed: u64) -> Dataset {
    let mut rng = Rng::new(seed);
    let mut x = Vec::new();
    let mut color = Vec::new();
    let mut z = Vec::new();
    let mut labels = Vec::new();
    for _ in 0..n {
        let xi = rng.normal();
        let ci = rng.below(3);
        let zi = if rng.next_f64() < 0.1 {
            f64::NAN
        } else {
            rng.next_f64()
        };
        let s = 1.5 * xi + if ci == 1 { 2.0 } else { -1.0 } + rng.normal();
        x.push(xi);
        color.push(ci as f64);
        z.push(zi);
        labels.push(usize::from(s > 0.0));
    }
    Dataset::new(
        "mixed",
        vec![
            Feature::numeric("x"),
            Feature::categorical("color", names(&["blue", "red", "green"])),
            Feature::numeric("z"),
        ],
        vec![x, color, z],
        Target::Classes {
            labels,
            names: names(&["no", "yes"]),
        },
    )
    .unwrap()
}

/// The same rows with the columns in another order, the levels listed in
/// another order (codes re-mapped) and an extra column.
fn shuffled(data: &Dataset) -> Dataset {
    let order = ["green", "blue", "red"];
    let code = |c: f64| -> f64 {
        let name = ["blue", "red", "green"][c as usize];
        order.iter().position(|l| *l == name).unwrap() as f64
    };
    Dataset::new(
        "shuffled",
        vec![
            Feature::numeric("z"),
            Feature::numeric("extra"),
            Feature::categorical("color", names(&order)),
            Feature::numeric("x"),
        ],
        vec![
            data.column(2).to_vec(),
            vec![7.0; data.n_rows()],
            data.column(1).iter().map(|&c| code(c)).collect(),
            data.column(0).to_vec(),
        ],
        Target::None,
    )
    .unwrap()
}

fn with_column(data: &Dataset, j: usize, values: Vec<f64>) -> Dataset {
    let mut cols: Vec<Vec<f64>> = (0..data.n_features())
        .map(|k| data.column(k).to_vec())
        .collect();
    cols[j] = values;
    Dataset::new(
        "changed",
        data.features().to_vec(),
        cols,
        data.target_view(),
    )
    .unwrap()
}

#[test]
fn glrm_reads_categories_natively_and_columns_by_name() {
    let data = mixed(400, 1);
    let model = GlrmParams::lrr().lambdas(0.005, 0.2).fit(&data).unwrap();
    assert_eq!(model.encoder().encoding(), Encoding::Native);
    assert_eq!(model.feature_names(), ["x", "color", "z"]);
    assert_eq!(model.classes(), ["no", "yes"]);
    // A rule on the raw categorical column, printed with its level.
    let text = model.to_string();
    assert!(
        text.contains("color == red") || text.contains("color != red"),
        "{text}"
    );
    let p = model.predict(&data).unwrap();
    assert_eq!(model.predict(&shuffled(&data)).unwrap(), p);
    // A missing column is a typed error naming it.
    let no_color = Dataset::new(
        "no color",
        vec![Feature::numeric("x"), Feature::numeric("z")],
        vec![data.column(0).to_vec(), data.column(2).to_vec()],
        Target::None,
    )
    .unwrap();
    let err = model.predict(&no_color).unwrap_err();
    assert!(
        matches!(&err, Error::Core(rulecover_core::Error::MissingColumn { column, .. }) if column == "color"),
        "{err}"
    );
}

#[test]
fn one_hot_encodings_and_rulefit() {
    let data = mixed(400, 2);
    let all = GlrmParams::lrr()
        .lambdas(0.005, 0.2)
        .encoding(Encoding::OneHot { drop_first: false })
        .fit(&data)
        .unwrap();
    assert_eq!(all.features().len(), 5);
    let dropped = GlrmParams::lrr()
        .lambdas(0.005, 0.2)
        .encoding(Encoding::OneHot { drop_first: true })
        .fit(&data)
        .unwrap();
    assert_eq!(dropped.features().len(), 4);
    assert!(dropped.features().iter().all(|f| f.name != "color=blue"));
    let rf = RuleFitParams::new()
        .max_rules(200)
        .lambdas(0.005, 0.2)
        .fit(&data)
        .unwrap();
    assert_eq!(rf.encoder().encoding(), Encoding::Native);
    assert_eq!(rf.feature_names(), ["x", "color", "z"]);
    for m in [&all, &dropped, &rf] {
        let p = m.predict(&data).unwrap();
        assert_eq!(m.predict(&shuffled(&data)).unwrap(), p);
    }
}

#[test]
fn predict_proba_is_the_trait_matrix() {
    let data = mixed(300, 3);
    let model = GlrmParams::lrrn().lambdas(0.005, 0.2).fit(&data).unwrap();
    let flat = model.predict_proba(&data).unwrap();
    let positive = model.predict_positive(&data).unwrap();
    let rulecover_core::Predictions::Classes { n_classes, proba } = model.predict(&data).unwrap()
    else {
        panic!("a logistic model predicts classes")
    };
    assert_eq!(n_classes, 2);
    assert_eq!(flat, proba);
    assert_eq!(flat.len(), 2 * data.n_rows());
    for (i, &p) in positive.iter().enumerate() {
        assert_eq!(flat[2 * i + 1], p);
        assert_eq!(flat[2 * i], 1.0 - p);
    }
    // The logistic of the linear predictor.
    let eta = model.decision_function(&data).unwrap();
    for (e, p) in eta.iter().zip(&positive) {
        assert!((1.0 / (1.0 + (-e).exp()) - p).abs() < 1e-15);
    }
}

#[test]
fn rule_set_records_training_coverage() {
    let data = mixed(300, 4);
    for model in [
        GlrmParams::lrrn().lambdas(0.005, 0.2).fit(&data).unwrap(),
        RuleFitParams::new()
            .max_rules(200)
            .linear_terms(true)
            .lambdas(0.005, 0.2)
            .fit(&data)
            .unwrap(),
    ] {
        let set = model.rule_set();
        assert_eq!(set.len(), model.terms().len());
        let encoded = model.encoder().transform(&data).unwrap();
        let mut linear = 0;
        for (r, t) in set.rules.iter().zip(model.terms()) {
            assert_eq!(r.weight, t.coef);
            match &r.antecedent {
                Antecedent::Conjunction(rule) => {
                    assert_eq!(r.coverage, rule.coverage(&encoded).count(), "{rule:?}");
                    assert!(r.coverage > 0);
                }
                Antecedent::Linear { feature } => {
                    linear += 1;
                    let present = encoded
                        .column(*feature)
                        .iter()
                        .filter(|v| !v.is_nan())
                        .count();
                    assert_eq!(r.coverage, present);
                }
                other => panic!("unexpected antecedent {other:?}"),
            }
        }
        assert!(linear >= 1, "{model}");
    }
}

#[test]
fn missing_values_unseen_at_fit_are_errors_unless_accepted() {
    let data = mixed(400, 5);
    let model = GlrmParams::lrrn().lambdas(0.005, 0.2).fit(&data).unwrap();
    assert!(model
        .terms()
        .iter()
        .any(|t| matches!(&t.term, Term::Linear(l) if l.feature == 0)));
    // `x` had no missing value at fit: a NaN in row 4 is an error naming
    // the column and the row.
    let mut x = data.column(0).to_vec();
    x[3] = f64::NAN;
    let holey = with_column(&data, 0, x);
    let err = model.predict(&holey).unwrap_err();
    assert!(
        matches!(&err, Error::UnseenMissing { column, row: 4, .. } if column == "x"),
        "{err}"
    );
    assert!(err.to_string().contains("'x'") && err.to_string().contains("row 4"));

    // Accepted: read as the literals read it (x <= t and x > t false,
    // the linear term 0); the other rows are unchanged.
    let accepting = GlrmParams::lrrn()
        .lambdas(0.005, 0.2)
        .unseen_missing(UnseenMissing::AsLiterals)
        .fit(&data)
        .unwrap();
    assert_eq!(accepting.terms(), model.terms());
    let p = accepting.predict_positive(&holey).unwrap();
    let q = model.predict_positive(&data).unwrap();
    for i in (0..data.n_rows()).filter(|&i| i != 3) {
        assert_eq!(p[i], q[i]);
    }
    let mut eta = accepting.intercept();
    for t in accepting.terms() {
        if let Term::Rule(c) = &t.term {
            let mut row = data.row(3);
            row[0] = f64::NAN;
            if c.covers_row(&row) {
                eta += t.coef;
            }
        } else if let Term::Linear(l) = &t.term {
            if l.feature != 0 {
                eta += t.coef * l.value(data.value(3, l.feature));
            }
        }
    }
    assert!((1.0 / (1.0 + (-eta).exp()) - p[3]).abs() < 1e-12);
    // The policy can be changed on a fitted (or loaded) model.
    let mut m = model.clone();
    m.set_unseen_missing(UnseenMissing::AsLiterals);
    assert_eq!(m.predict_positive(&holey).unwrap(), p);

    // `z` had missing values at fit: NaN there is always accepted.
    let mut z = data.column(2).to_vec();
    z[0] = f64::NAN;
    z[1] = f64::NAN;
    assert!(model.predict(&with_column(&data, 2, z)).is_ok());
}

#[test]
fn invalid_parameters_are_typed_errors_at_fit() {
    let data = mixed(100, 6);
    let name_of = |e: Error| match e {
        Error::InvalidParameter { name, .. } => name,
        other => panic!("expected InvalidParameter, got {other}"),
    };
    let glrm = |p: GlrmParams| name_of(p.fit(&data).unwrap_err());
    assert_eq!(glrm(GlrmParams::lrr().max_iterations(0)), "max_iterations");
    assert_eq!(glrm(GlrmParams::lrr().lambda0(-0.1)), "lambda0");
    assert_eq!(glrm(GlrmParams::lrr().lambda1(f64::NAN)), "lambda1");
    assert_eq!(glrm(GlrmParams::lrr().kkt_tol(0.0)), "kkt_tol");
    assert_eq!(glrm(GlrmParams::lrr().max_degree(0)), "max_degree");
    assert_eq!(
        glrm(GlrmParams::lrr().columns_per_iteration(0)),
        "columns_per_iteration"
    );
    assert_eq!(glrm(GlrmParams::lr1n().linear_scale(0.0)), "linear_scale");
    let rf = |p: RuleFitParams| name_of(p.fit(&data).unwrap_err());
    assert_eq!(rf(RuleFitParams::new().max_rules(0)), "max_rules");
    assert_eq!(rf(RuleFitParams::new().tree_size(1)), "tree_size");
    assert_eq!(rf(RuleFitParams::new().lambdas(-1.0, 0.2)), "lambda0");
    assert_eq!(rf(RuleFitParams::new().learning_rate(0.0)), "learning_rate");
    assert_eq!(rf(RuleFitParams::new().subsample(Some(1.5))), "subsample");
    // Paths check every pair.
    assert_eq!(
        name_of(
            GlrmParams::lrr()
                .fit_path(&data, &[(0.1, 0.02), (-0.1, 0.0)])
                .unwrap_err()
        ),
        "lambda0"
    );
}

#[test]
fn json_round_trip_predicts_bit_identically() {
    let data = mixed(300, 7);
    let models: Vec<GlrmModel> = vec![
        GlrmParams::lrrn().lambdas(0.005, 0.2).fit(&data).unwrap(),
        GlrmParams::lr1()
            .encoding(Encoding::OneHot { drop_first: true })
            .fit(&data)
            .unwrap(),
        RuleFitParams::new()
            .max_rules(200)
            .linear_terms(true)
            .lambdas(0.005, 0.2)
            .unseen_missing(UnseenMissing::AsLiterals)
            .fit(&data)
            .unwrap(),
    ];
    for model in models {
        let json = serde_json::to_string(&model).unwrap();
        let back: GlrmModel = serde_json::from_str(&json).unwrap();
        assert_eq!(back, model);
        assert_eq!(back.encoder(), model.encoder());
        assert_eq!(back.unseen_missing(), model.unseen_missing());
        let a = model.predict_proba(&shuffled(&data)).unwrap();
        let b = back.predict_proba(&shuffled(&data)).unwrap();
        assert!(a.iter().zip(&b).all(|(x, y)| x.to_bits() == y.to_bits()));
    }
    // Weighted fits too (a regression model).
    let mut rng = Rng::new(8);
    let y: Vec<f64> = (0..data.n_rows())
        .map(|i| data.value(i, 0) * 2.0 + rng.normal())
        .collect();
    let reg = data.with_target(Target::Real(y)).unwrap();
    let w: Vec<f64> = (0..reg.n_rows()).map(|i| 1.0 + (i % 3) as f64).collect();
    let model = GlrmParams::lrrn()
        .lambdas(0.005, 0.2)
        .fit_weighted(&reg, &w)
        .unwrap();
    let back: GlrmModel = serde_json::from_str(&serde_json::to_string(&model).unwrap()).unwrap();
    let a = model.predict_values(&reg).unwrap();
    let b = back.predict_values(&reg).unwrap();
    assert!(a.iter().zip(&b).all(|(x, y)| x.to_bits() == y.to_bits()));
}
