//! Sample weights: extreme uniform weights fit as unit weights, integer
//! weights as duplicated rows (the shared contract of
//! `rulecover_core::testing`); rule coverage counts training rows; models
//! read columns by name and survive serde; invalid ensemble sizes are typed
//! errors.

mod common;

use rc_tree::{
    AdaBoostParams, DecisionTreeParams, Error, GradientBoostingParams, RandomForestParams, Tree,
};
use rulecover_core::testing::{self, Agreement};
use rulecover_core::{Fit, Outcome, Predict, Predictions, Rng, RuleModel};

/// The same splits (feature, thresholds, children) and the same rows per
/// node.
fn assert_same_splits(a: &[Tree], b: &[Tree], what: &str) {
    assert_eq!(a.len(), b.len(), "{what}");
    for (t, (x, y)) in a.iter().zip(b).enumerate() {
        assert_eq!(x.n_nodes(), y.n_nodes(), "{what} tree {t}");
        for (p, q) in x.nodes().zip(y.nodes()) {
            assert_eq!(p.split, q.split, "{what} tree {t} node {}", p.id);
            assert_eq!(p.n_samples, q.n_samples, "{what} tree {t} node {}", p.id);
        }
    }
}

/// Equal predicted classes, and probabilities or values equal to rounding.
fn assert_same_predictions(a: &Predictions, b: &Predictions, what: &str) {
    testing::assert_predictions_agree(a, b, Agreement::Relative(1e-12), what);
}

#[test]
fn extreme_uniform_weights_fit_as_unit_weights() {
    let data = common::three_classes(300, 11);
    let binary = common::linear(300, 4, 0.1, 12);
    let dt = DecisionTreeParams::classifier();
    let rf = RandomForestParams::classifier().n_estimators(10).seed(1);
    let ada = AdaBoostParams::new().n_estimators(10).max_depth(2).seed(2);
    let gb = GradientBoostingParams::new().n_estimators(10).seed(3);
    let n = data.n_rows();
    for scale in [1e-200, 1e300] {
        let w = vec![scale; n];
        let what = format!("weights {scale}");

        let (a, b) = (dt.fit(&data).unwrap(), dt.fit_weighted(&data, &w).unwrap());
        assert!(a.tree().n_leaves() > 10);
        assert_same_splits(
            std::slice::from_ref(a.tree()),
            std::slice::from_ref(b.tree()),
            &what,
        );
        let pa = a.predict(&data).unwrap();
        assert_same_predictions(&pa, &b.predict(&data).unwrap(), &what);

        let (a, b) = (rf.fit(&data).unwrap(), rf.fit_weighted(&data, &w).unwrap());
        assert_same_splits(a.trees(), b.trees(), &what);
        let pa = a.predict(&data).unwrap();
        assert_same_predictions(&pa, &b.predict(&data).unwrap(), &what);

        let (a, b) = (
            ada.fit(&data).unwrap(),
            ada.fit_weighted(&data, &w).unwrap(),
        );
        assert!(a.n_estimators() > 1);
        assert_same_splits(a.trees(), b.trees(), &what);
        let pa = a.predict(&data).unwrap();
        assert_same_predictions(&pa, &b.predict(&data).unwrap(), &what);

        for d in [&data, &binary] {
            let (a, b) = (gb.fit(d).unwrap(), gb.fit_weighted(d, &w).unwrap());
            assert_same_splits(a.trees(), b.trees(), &what);
            let pa = a.predict(d).unwrap();
            assert_same_predictions(&pa, &b.predict(d).unwrap(), &what);
        }
    }
}

#[test]
fn integer_weights_equal_duplicated_rows() {
    let data = common::three_classes(200, 21);
    let mut rng = Rng::new(22);
    let w: Vec<f64> = (0..data.n_rows()).map(|_| rng.below(4) as f64).collect();

    // A tree: exactly the same tree (but for the counts of distinct rows)
    // and the same predictions.
    let dt = DecisionTreeParams::classifier().max_depth(8);
    let (weighted, repeated) = testing::assert_integer_weights_equal_duplicated_rows(
        &dt,
        &data,
        &w,
        &data,
        Agreement::Exact,
        "tree",
    );
    let (a, b) = (weighted.tree(), repeated.tree());
    assert!(a.n_nodes() > 10);
    assert_eq!(a.n_nodes(), b.n_nodes());
    for (p, q) in a.nodes().zip(b.nodes()) {
        assert_eq!(p.split, q.split, "node {}", p.id);
        assert_eq!(p.value, q.value, "node {}", p.id);
        assert_eq!(p.weighted_n_samples, q.weighted_n_samples, "node {}", p.id);
        assert_eq!(p.impurity, q.impurity, "node {}", p.id);
    }

    // Gradient boosting without subsampling is deterministic: the same
    // splits and the same leaf values up to the order of the sums. (Not on
    // the three-class data: there a node whose residuals are all equal
    // keeps an impurity of rounding noise, ~1e-16, that sums in another
    // order change, and the split of that noise differs.)
    for d in [common::linear(200, 3, 0.1, 23), common::regression(200, 24)] {
        let gb = GradientBoostingParams::new().n_estimators(10).max_depth(3);
        let (weighted, repeated) = testing::assert_integer_weights_equal_duplicated_rows(
            &gb,
            &d,
            &w,
            &d,
            Agreement::Relative(1e-12),
            "gb",
        );
        assert_eq!(weighted.trees().len(), repeated.trees().len());
        for (a, b) in weighted.trees().iter().zip(repeated.trees()) {
            assert_eq!(a.n_nodes(), b.n_nodes());
            for (p, q) in a.nodes().zip(b.nodes()) {
                assert_eq!(p.split, q.split);
                assert!((p.value[0] - q.value[0]).abs() <= 1e-9 * (1.0 + q.value[0].abs()));
            }
        }
    }
}

#[test]
fn models_read_columns_by_name_and_survive_serde() {
    let data = testing::red_or_large(200);
    let tree = DecisionTreeParams::classifier().max_depth(4);
    let forest = RandomForestParams::classifier()
        .n_estimators(5)
        .max_depth(3)
        .seed(5);
    let ada = AdaBoostParams::new().n_estimators(5).max_depth(2).seed(6);
    let gb = GradientBoostingParams::new().n_estimators(5).max_depth(2);
    let dt = tree.fit(&data).unwrap();
    testing::assert_columns_read_by_name(&dt, &data, "tree");
    testing::assert_serde_round_trip(&dt, &data, "tree");
    let rf = forest.fit(&data).unwrap();
    testing::assert_columns_read_by_name(&rf, &data, "forest");
    testing::assert_serde_round_trip(&rf, &data, "forest");
    let ab = ada.fit(&data).unwrap();
    testing::assert_columns_read_by_name(&ab, &data, "adaboost");
    testing::assert_serde_round_trip(&ab, &data, "adaboost");
    let gbm = gb.fit(&data).unwrap();
    testing::assert_columns_read_by_name(&gbm, &data, "boosting");
    testing::assert_serde_round_trip(&gbm, &data, "boosting");
}

#[test]
fn rule_coverage_counts_the_training_rows_in_the_leaf() {
    let data = common::three_classes(250, 31);
    // A tree: the rows in the leaf, which is the leaf's sample count.
    let dt = DecisionTreeParams::classifier()
        .max_depth(5)
        .fit(&data)
        .unwrap();
    let stats = dt.leaf_stats(&data, None).unwrap();
    let rules = dt.rule_set().rules;
    assert_eq!(rules.len(), stats.len());
    for (r, s) in rules.iter().zip(&stats) {
        assert_eq!(r.coverage, s.n_rows);
        assert_eq!(r.coverage, dt.tree().node(s.node).unwrap().n_samples);
    }
    assert_eq!(rules.iter().map(|r| r.coverage).sum::<usize>(), 250);
    // Zero-weight rows are training rows too: they count.
    let w: Vec<f64> = (0..250).map(|i| f64::from(u8::from(i % 5 != 0))).collect();
    let weighted = DecisionTreeParams::classifier()
        .max_depth(5)
        .fit_weighted(&data, &w)
        .unwrap();
    let rules = weighted.rule_set().rules;
    let stats = weighted.leaf_stats(&data, None).unwrap();
    for (r, s) in rules.iter().zip(&stats) {
        assert_eq!(r.coverage, s.n_rows);
    }
    // Forests and boosting: every training row, not only a tree's
    // bootstrap sample or subsample, counts in the leaf it reaches.
    let rf = RandomForestParams::classifier()
        .n_estimators(5)
        .seed(7)
        .fit(&data)
        .unwrap();
    let ada = AdaBoostParams::new()
        .n_estimators(5)
        .max_depth(3)
        .fit(&data)
        .unwrap();
    let gb = GradientBoostingParams::new()
        .n_estimators(5)
        .subsample(0.5)
        .fit(&data)
        .unwrap();
    let cases = [
        ("forest", rf.rule_set(), rf.leaf_stats(&data, None).unwrap()),
        (
            "adaboost",
            ada.rule_set(),
            ada.leaf_stats(&data, None).unwrap(),
        ),
        (
            "boosting",
            gb.rule_set(),
            gb.leaf_stats(&data, None).unwrap(),
        ),
    ];
    for (what, set, stats) in cases {
        assert_eq!(set.rules.len(), stats.len(), "{what}");
        for (r, s) in set.rules.iter().zip(&stats) {
            assert_eq!(r.coverage, s.n_rows, "{what}");
        }
    }
    // The bootstrap leaves some rows out of a tree: its leaves' sample
    // counts are smaller than the training coverage.
    let t0 = &rf.trees()[0];
    let in_bag: usize = t0
        .leaf_ids()
        .iter()
        .map(|&l| t0.node(l).unwrap().n_samples)
        .sum();
    assert!(in_bag < 250);
    let covered: usize = rf.rule_set().rules[..t0.n_leaves()]
        .iter()
        .map(|r| r.coverage)
        .sum();
    assert_eq!(covered, 250);
    assert!(matches!(
        rf.rule_set().rules[0].outcome,
        Outcome::ClassCounts(_)
    ));
}

#[test]
fn ensemble_sizes_and_rates_are_validated_at_fit() {
    let data = common::linear(40, 3, 0.0, 41);
    let is_param = |e: Error, param: &str| {
        matches!(&e, Error::InvalidParameter { name, .. } if *name == param)
            && e.to_string().contains(param)
    };
    assert!(is_param(
        RandomForestParams::classifier()
            .n_estimators(0)
            .fit(&data)
            .unwrap_err(),
        "n_estimators"
    ));
    assert!(is_param(
        RandomForestParams::classifier()
            .max_samples(0)
            .fit(&data)
            .unwrap_err(),
        "max_samples"
    ));
    assert!(is_param(
        AdaBoostParams::new()
            .n_estimators(0)
            .fit(&data)
            .unwrap_err(),
        "n_estimators"
    ));
    assert!(is_param(
        AdaBoostParams::new()
            .learning_rate(f64::NAN)
            .fit(&data)
            .unwrap_err(),
        "learning_rate"
    ));
    assert!(is_param(
        GradientBoostingParams::new()
            .n_estimators(0)
            .fit(&data)
            .unwrap_err(),
        "n_estimators"
    ));
    assert!(is_param(
        GradientBoostingParams::new()
            .learning_rate(-0.1)
            .fit(&data)
            .unwrap_err(),
        "learning_rate"
    ));
    assert!(is_param(
        GradientBoostingParams::new()
            .subsample(0.0)
            .fit(&data)
            .unwrap_err(),
        "subsample"
    ));
    assert!(is_param(
        DecisionTreeParams::classifier()
            .min_samples_split(1)
            .fit(&data)
            .unwrap_err(),
        "min_samples_split"
    ));
}
