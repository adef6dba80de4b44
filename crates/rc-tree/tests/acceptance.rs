//! The acceptance tests of the issue: weights, zero weights, single class,
//! rules equal to the tree, thread-count independence, typed errors.

mod common;

use rc_tree::{
    AdaBoostParams, DecisionTreeParams, Error, GradientBoostingParams, MaxFeatures,
    RandomForestParams, Tree,
};
use rulecover_core::{
    Dataset, Feature, FeatureKind, Fit, Outcome, Predict, Rng, RuleModel, Target,
};

/// Rows repeated per an integer weight vector.
fn duplicate(data: &Dataset, w: &[f64]) -> Dataset {
    let idx: Vec<usize> = (0..data.n_rows())
        .flat_map(|i| std::iter::repeat_n(i, w[i] as usize))
        .collect();
    data.subset(&idx).unwrap()
}

/// Everything but the counts of distinct rows.
fn assert_same_structure(a: &Tree, b: &Tree) {
    assert_eq!(a.n_nodes(), b.n_nodes());
    for (x, y) in a.nodes().zip(b.nodes()) {
        assert_eq!(x.split, y.split, "node {}", x.id);
        assert_eq!(x.value, y.value, "node {}", x.id);
        assert_eq!(x.weighted_n_samples, y.weighted_n_samples, "node {}", x.id);
        assert_eq!(x.impurity, y.impurity, "node {}", x.id);
    }
}

#[test]
fn weight_two_equals_row_twice() {
    let data = common::three_classes(300, 1);
    let mut rng = Rng::new(2);
    let w: Vec<f64> = (0..data.n_rows())
        .map(|_| 1.0 + rng.below(3) as f64)
        .collect();
    let dup = duplicate(&data, &w);
    for params in [
        DecisionTreeParams::classifier(),
        DecisionTreeParams::classifier()
            .criterion(rc_tree::Criterion::Entropy)
            .max_depth(6),
    ] {
        let weighted = params.fit_weighted(&data, &w).unwrap();
        let repeated = params.fit(&dup).unwrap();
        assert_same_structure(weighted.tree(), repeated.tree());
        assert!(weighted.tree().n_nodes() > 10);
    }
    // Regression with integer targets (sums stay exact).
    let y: Vec<f64> = (0..data.n_rows())
        .map(|i| (data.label(i) * 3 + i % 2) as f64)
        .collect();
    let reg = data.with_target(Target::Real(y)).unwrap();
    let weighted = DecisionTreeParams::regressor()
        .fit_weighted(&reg, &w)
        .unwrap();
    let repeated = DecisionTreeParams::regressor()
        .fit(&duplicate(&reg, &w))
        .unwrap();
    assert_same_structure(weighted.tree(), repeated.tree());
}

#[test]
fn zero_weight_rows_change_nothing() {
    let data = common::three_classes(200, 3);
    let mut rng = Rng::new(4);
    let base_w: Vec<f64> = (0..200).map(|_| 1.0 + rng.below(2) as f64).collect();
    // 100 extra rows copied from the data with shuffled labels, weight 0.
    let mut rows: Vec<Vec<f64>> = (0..200).map(|i| data.row(i)).collect();
    let mut labels = data.labels().unwrap();
    for _ in 0..100 {
        let i = rng.below(200);
        let mut r = data.row(rng.below(200));
        r[3] = data.value(i, 3);
        rows.push(r);
        labels.push(rng.below(3));
    }
    let mut w = base_w.clone();
    w.extend(std::iter::repeat_n(0.0, 100));
    let with_junk = Dataset::from_rows(
        "junk",
        data.features().to_vec(),
        &rows,
        Target::Classes {
            labels,
            names: data.class_names().to_vec(),
        },
    )
    .unwrap();
    let a = DecisionTreeParams::classifier()
        .fit_weighted(&data, &base_w)
        .unwrap();
    let b = DecisionTreeParams::classifier()
        .fit_weighted(&with_junk, &w)
        .unwrap();
    assert_eq!(a.tree(), b.tree());
    let params = DecisionTreeParams::classifier()
        .max_features(MaxFeatures::Sqrt)
        .seed(9);
    let a = params.fit_weighted(&data, &base_w).unwrap();
    let b = params.fit_weighted(&with_junk, &w).unwrap();
    assert_eq!(a.tree(), b.tree());
}

#[test]
fn single_class_gives_one_leaf() {
    let rows: Vec<Vec<f64>> = (0..20).map(|i| vec![i as f64, (i % 3) as f64]).collect();
    for names in [
        vec!["only".to_string()],
        vec!["a".to_string(), "b".to_string()],
    ] {
        let k = names.len();
        let data = Dataset::from_rows(
            "one",
            vec![Feature::numeric("a"), Feature::numeric("b")],
            &rows,
            Target::Classes {
                labels: vec![0; 20],
                names,
            },
        )
        .unwrap();
        let t = DecisionTreeParams::classifier().fit(&data).unwrap();
        assert_eq!(t.tree().n_nodes(), 1);
        let p = t.predict(&data).unwrap();
        assert_eq!(p.proba_row(3).unwrap()[0], 1.0);
        assert_eq!(p.proba_row(3).unwrap().len(), k);
        let f = RandomForestParams::default()
            .n_estimators(5)
            .fit(&data)
            .unwrap();
        assert!(f.trees().iter().all(|t| t.n_nodes() == 1));
        let a = AdaBoostParams::new().fit(&data).unwrap();
        assert_eq!(a.n_estimators(), 1);
        assert_eq!(a.predict(&data).unwrap().labels().unwrap(), vec![0; 20]);
    }
}

/// Predictions of a rule set in which exactly one rule covers each row.
fn rule_set_predictions(set: &rulecover_core::RuleSet, data: &Dataset) -> Vec<Outcome> {
    (0..data.n_rows())
        .map(|i| {
            let row = data.row(i);
            let covering: Vec<_> = set
                .rules
                .iter()
                .filter(|r| r.antecedent.as_conjunction().unwrap().covers_row(&row))
                .collect();
            assert_eq!(
                covering.len(),
                1,
                "row {i} is covered by {} rules",
                covering.len()
            );
            covering[0].outcome.clone()
        })
        .collect()
}

/// The data plus probes exactly at, just below and just above every split
/// threshold of the tree (where float32 rounding matters).
fn with_threshold_probes(data: &Dataset, tree: &Tree) -> Dataset {
    let mut rows: Vec<Vec<f64>> = (0..data.n_rows()).map(|i| data.row(i)).collect();
    let mut rng = Rng::new(11);
    for node in tree.nodes() {
        if let Some(s) = node.split {
            for t in [s.threshold, s.rule_threshold] {
                let bits = t.to_bits();
                for v in [t, f64::from_bits(bits - 1), f64::from_bits(bits + 1)] {
                    let mut r = data.row(rng.below(data.n_rows()));
                    r[s.feature] = v;
                    rows.push(r);
                }
            }
        }
    }
    let n = rows.len();
    let target = match data.target_storage() {
        Target::Classes { names, .. } => Target::Classes {
            labels: vec![0; n],
            names: names.clone(),
        },
        Target::Real(_) => Target::Real(vec![0.0; n]),
        Target::None => Target::None,
    };
    Dataset::from_rows("probes", data.features().to_vec(), &rows, target).unwrap()
}

#[test]
fn rules_predict_like_the_tree() {
    let data = common::three_classes(500, 5);
    let model = DecisionTreeParams::classifier().fit(&data).unwrap();
    let probes = with_threshold_probes(&data, model.tree());
    let labels = model.predict_labels(&probes).unwrap();
    let from_rules = rule_set_predictions(&model.rule_set(), &probes);
    for (i, (o, l)) in from_rules.iter().zip(&labels).enumerate() {
        let Outcome::ClassCounts(c) = o else {
            panic!("class counts expected")
        };
        assert_eq!(rulecover_core::metrics::argmax(c), *l, "row {i}");
    }
    // Regression.
    let data = common::regression(400, 6);
    let model = DecisionTreeParams::regressor()
        .max_depth(6)
        .fit(&data)
        .unwrap();
    let probes = with_threshold_probes(&data, model.tree());
    let values = model.predict_values(&probes).unwrap();
    for (o, v) in rule_set_predictions(&model.rule_set(), &probes)
        .iter()
        .zip(&values)
    {
        assert_eq!(*o, Outcome::Value(*v));
    }
    // The leaf reached equals the leaf whose rule covers the row.
    let leaves = model.apply(&probes).unwrap();
    let rules = model.leaf_rules();
    for (i, &leaf) in leaves.iter().enumerate() {
        let row = probes.row(i);
        let (id, _) = rules.iter().find(|(_, r)| r.covers_row(&row)).unwrap();
        assert_eq!(*id, leaf);
    }
}

#[test]
fn forests_are_identical_for_any_thread_count() {
    let data = common::three_classes(600, 7);
    let params = RandomForestParams::default().n_estimators(24).seed(42);
    let fit_with = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| {
                let f = params.fit(&data).unwrap();
                let p = f.predict_proba(&data).unwrap();
                (f, p)
            })
    };
    let (f1, p1) = fit_with(1);
    let (f2, p2) = fit_with(2);
    assert_eq!(f1, f2);
    assert_eq!(
        p1.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
        p2.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
    );
    // A different seed gives a different forest.
    let f3 = RandomForestParams::default()
        .n_estimators(24)
        .seed(43)
        .fit(&data)
        .unwrap();
    assert_ne!(f1, f3);
}

fn small() -> Dataset {
    common::linear(30, 3, 0.0, 1)
}

#[test]
fn nan_is_rejected_naming_feature_and_row() {
    let mut rows: Vec<Vec<f64>> = (0..10).map(|i| vec![i as f64, 1.0]).collect();
    rows[6][1] = f64::NAN;
    let data = Dataset::from_rows(
        "nan",
        vec![Feature::numeric("age"), Feature::numeric("bmi")],
        &rows,
        Target::Classes {
            labels: (0..10).map(|i| i % 2).collect(),
            names: vec!["a".into(), "b".into()],
        },
    )
    .unwrap();
    let e = DecisionTreeParams::classifier().fit(&data).unwrap_err();
    assert!(
        matches!(&e, Error::MissingValue { feature, row: 6 } if feature == "bmi"),
        "{e}"
    );
    assert!(e.to_string().contains("bmi") && e.to_string().contains("row 6"));
    assert!(matches!(
        RandomForestParams::default().fit(&data),
        Err(Error::MissingValue { .. })
    ));
    assert!(matches!(
        AdaBoostParams::new().fit(&data),
        Err(Error::MissingValue { .. })
    ));
    assert!(matches!(
        GradientBoostingParams::new().fit(&data),
        Err(Error::MissingValue { .. })
    ));
    // At predict time too.
    let clean = data.subset(&[0, 1, 2, 3, 4, 5, 7, 8, 9]).unwrap();
    let t = DecisionTreeParams::classifier().fit(&clean).unwrap();
    assert!(matches!(
        t.predict(&data),
        Err(Error::MissingValue { row: 6, .. })
    ));
    assert!(matches!(t.apply(&data), Err(Error::MissingValue { .. })));
}

#[test]
fn bad_input_gives_typed_errors() {
    let data = small();
    let p = DecisionTreeParams::classifier();
    // Empty data.
    let empty = data.subset(&[]).unwrap();
    assert!(matches!(p.fit(&empty), Err(Error::EmptyData { .. })));
    assert!(matches!(
        RandomForestParams::default().fit(&empty),
        Err(Error::EmptyData { .. })
    ));
    // Weights.
    let mut w = vec![1.0; 30];
    w[4] = -1.0;
    assert!(matches!(
        p.fit_weighted(&data, &w),
        Err(Error::InvalidWeight { row: 4, .. })
    ));
    w[4] = f64::INFINITY;
    assert!(matches!(
        p.fit_weighted(&data, &w),
        Err(Error::InvalidWeight { row: 4, .. })
    ));
    assert!(matches!(
        p.fit_weighted(&data, &[0.0; 30]),
        Err(Error::ZeroWeights { .. })
    ));
    assert!(matches!(
        p.fit_weighted(&data, &[1.0; 29]),
        Err(Error::WeightCount { .. })
    ));
    assert!(matches!(
        RandomForestParams::default().fit_weighted(&data, &[0.0; 30]),
        Err(Error::ZeroWeights { .. })
    ));
    assert!(matches!(
        AdaBoostParams::new().fit_weighted(&data, &[-1.0; 30]),
        Err(Error::InvalidWeight { .. })
    ));
    // Columns are read by name: an extra column is ignored, a missing one
    // is an error naming it.
    let t = p.fit(&data).unwrap();
    let extra = common::linear(10, 4, 0.0, 2);
    let first_three = Dataset::new(
        "first_three",
        extra.features()[..3].to_vec(),
        (0..3).map(|j| extra.column(j).into_owned()).collect(),
        Target::None,
    )
    .unwrap();
    assert_eq!(t.predict(&extra).unwrap(), t.predict(&first_three).unwrap());
    let fewer = common::linear(10, 2, 0.0, 2);
    let e = t.predict(&fewer).unwrap_err();
    assert!(
        matches!(&e, Error::Core(rulecover_core::Error::MissingColumn { column, .. }) if column == "x2"),
        "{e}"
    );
    let f = RandomForestParams::default()
        .n_estimators(3)
        .fit(&data)
        .unwrap();
    assert!(matches!(
        f.predict(&fewer),
        Err(Error::Core(rulecover_core::Error::MissingColumn { .. }))
    ));
    assert!(rulecover_core::RuleSource::pool_coverage(&f, &fewer).is_err());
    // A bare tree reads columns by position and checks their number.
    assert!(matches!(
        t.tree().apply(&extra),
        Err(Error::FeatureCountMismatch {
            expected: 3,
            found: 4
        })
    ));
    // Categorical features are one-hot encoded by the model itself: the
    // same tree as on the one-hot encoded data.
    let cat = Dataset::new(
        "cat",
        vec![Feature::categorical("color", vec!["r".into(), "g".into()])],
        vec![vec![0.0, 1.0, 0.0]],
        Target::Classes {
            labels: vec![0, 1, 0],
            names: vec!["a".into(), "b".into()],
        },
    )
    .unwrap();
    let raw = p.fit(&cat).unwrap();
    let hot = cat.one_hot(false).unwrap();
    assert!(matches!(
        hot.features()[0].kind,
        FeatureKind::Indicator { .. }
    ));
    let on_hot = p.fit(&hot).unwrap();
    assert_eq!(on_hot.tree().n_leaves(), 2);
    assert_eq!(raw.tree(), on_hot.tree());
    assert_eq!(raw.features(), hot.features());
    assert_eq!(raw.predict(&cat).unwrap(), on_hot.predict(&hot).unwrap());
    // ... unless the encoding is native: trees do not split level codes.
    let e = p
        .clone()
        .encoding(rulecover_core::Encoding::Native)
        .fit(&cat)
        .unwrap_err();
    assert!(matches!(&e, Error::CategoricalFeature { feature, .. } if feature == "color"));
    assert!(e.to_string().contains("OneHot"), "{e}");
    // Values beyond float32.
    let big = Dataset::from_rows(
        "big",
        vec![Feature::numeric("x")],
        &[vec![1.0], vec![1e300]],
        Target::Real(vec![0.0, 1.0]),
    )
    .unwrap();
    assert!(matches!(
        DecisionTreeParams::regressor().fit(&big),
        Err(Error::ValueOutOfRange { row: 1, .. })
    ));
    // Criterion and target disagree.
    assert!(matches!(
        DecisionTreeParams::regressor().fit(&data),
        Err(Error::TargetKind(_))
    ));
    assert!(matches!(
        p.fit(&common::regression(10, 1)),
        Err(Error::TargetKind(_))
    ));
    // Invalid parameters.
    assert!(matches!(
        p.clone().max_features(MaxFeatures::Count(9)).fit(&data),
        Err(Error::InvalidParameter {
            name: "max_features",
            ..
        })
    ));
    assert!(matches!(
        RandomForestParams::default().max_samples(31).fit(&data),
        Err(Error::InvalidParameter {
            name: "max_samples",
            ..
        })
    ));
}
