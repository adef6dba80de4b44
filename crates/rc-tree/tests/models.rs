//! Behaviour of every model: parameters respected, boosting works, serde
//! round trips, rule pools and their coverage, leaf statistics.

mod common;

use common::accuracy;
use rc_tree::{
    AdaBoostAlgorithm, AdaBoostParams, Criterion, DecisionTreeParams, GbLoss,
    GradientBoostingParams, MaxFeatures, RandomForestParams,
};
use rulecover_core::{
    CoverageMatrix, Dataset, Feature, Fit, Predict, Rng, RuleModel, RuleSource, Target,
};

/// Hastie et al. (2009), eq. 10.2: ten standard normal features, class 1
/// when Σ x_j² > 9.34 (the χ²₁₀ median). A stump is barely better than
/// chance; boosted stumps learn it well.
fn hastie(n: usize, seed: u64) -> Dataset {
    let mut rng = Rng::new(seed);
    let rows: Vec<Vec<f64>> = (0..n)
        .map(|_| (0..10).map(|_| rng.normal()).collect())
        .collect();
    let labels = rows
        .iter()
        .map(|r| usize::from(r.iter().map(|v| v * v).sum::<f64>() > 9.34))
        .collect();
    Dataset::from_rows(
        "hastie",
        (0..10).map(|j| Feature::numeric(format!("x{j}"))).collect(),
        &rows,
        Target::Classes {
            labels,
            names: vec!["-1".into(), "1".into()],
        },
    )
    .unwrap()
}

fn labels_of(m: &impl Predict<Error = rc_tree::Error>, d: &Dataset) -> Vec<usize> {
    m.predict(d).unwrap().labels().unwrap()
}

#[test]
fn max_depth_and_min_samples_leaf_are_respected() {
    let data = common::three_classes(800, 1);
    for depth in [1, 2, 5] {
        let t = DecisionTreeParams::classifier()
            .max_depth(depth)
            .fit(&data)
            .unwrap();
        assert_eq!(t.tree().max_depth(), depth);
        assert!(t.tree().n_leaves() <= 1 << depth);
    }
    for msl in [1, 7, 40] {
        let t = DecisionTreeParams::classifier()
            .min_samples_leaf(msl)
            .fit(&data)
            .unwrap();
        for id in t.tree().leaf_ids() {
            assert!(t.tree().node(id).unwrap().n_samples >= msl);
        }
    }
    let t = DecisionTreeParams::classifier()
        .min_samples_split(50)
        .fit(&data)
        .unwrap();
    for n in t.tree().nodes().filter(|n| n.split.is_some()) {
        assert!(n.n_samples >= 50);
    }
    let t = DecisionTreeParams::classifier()
        .min_weight_fraction_leaf(0.1)
        .fit(&data)
        .unwrap();
    for id in t.tree().leaf_ids() {
        assert!(t.tree().node(id).unwrap().weighted_n_samples >= 80.0);
    }
    let full = DecisionTreeParams::classifier().fit(&data).unwrap();
    let pruned = DecisionTreeParams::classifier()
        .min_impurity_decrease(0.01)
        .fit(&data)
        .unwrap();
    assert!(pruned.tree().n_nodes() < full.tree().n_nodes());
    // Pure leaves everywhere without limits (no duplicate rows with
    // different labels in this data).
    for id in full.tree().leaf_ids() {
        assert_eq!(full.tree().node(id).unwrap().impurity, 0.0);
    }
    assert_eq!(labels_of(&full, &data), data.labels().unwrap());
}

#[test]
fn regression_tree_learns_a_step() {
    let rows: Vec<Vec<f64>> = (0..100).map(|i| vec![i as f64 / 100.0]).collect();
    let y: Vec<f64> = (0..100).map(|i| if i >= 30 { 5.0 } else { -1.0 }).collect();
    let data = Dataset::from_rows(
        "step",
        vec![Feature::numeric("x")],
        &rows,
        Target::Real(y.clone()),
    )
    .unwrap();
    let t = DecisionTreeParams::regressor().fit(&data).unwrap();
    assert_eq!(t.tree().n_nodes(), 3);
    let s = t.tree().node(0).unwrap().split.unwrap();
    assert_eq!(s.threshold, (0.29f32 as f64 + 0.3f32 as f64) / 2.0);
    assert_eq!(t.tree().value(1), &[-1.0]);
    assert_eq!(t.tree().value(2), &[5.0]);
    assert_eq!(t.predict_values(&data).unwrap(), y);
    // Noisy step: the root split is still at the step.
    let data = common::regression(500, 2);
    let t = DecisionTreeParams::regressor()
        .max_depth(1)
        .fit(&data)
        .unwrap();
    let s = t.tree().node(0).unwrap().split.unwrap();
    assert_eq!(s.feature, 0);
    assert!((s.threshold - 0.4).abs() < 0.02, "{}", s.threshold);
}

#[test]
fn random_forest_beats_a_tree_and_reports_importances() {
    let train = common::linear(1500, 6, 0.1, 3);
    let test = common::linear(1500, 6, 0.0, 4);
    let truth = test.labels().unwrap();
    let tree = DecisionTreeParams::classifier().fit(&train).unwrap();
    let forest = RandomForestParams::default()
        .n_estimators(50)
        .seed(1)
        .fit(&train)
        .unwrap();
    let acc_tree = accuracy(&labels_of(&tree, &test), &truth);
    let acc_forest = accuracy(&labels_of(&forest, &test), &truth);
    assert!(
        acc_forest > acc_tree && acc_forest > 0.93,
        "{acc_forest} vs {acc_tree}"
    );
    let imp = forest.feature_importances();
    assert!((imp.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    assert!(imp[0] > 0.25 && imp[1] > 0.25, "{imp:?}");
    assert!(imp[2..].iter().all(|&v| v < 0.15), "{imp:?}");
    let ti = tree.feature_importances();
    assert!((ti.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    // Regression forest.
    let reg = common::regression(600, 5);
    let rf = RandomForestParams::regressor()
        .n_estimators(20)
        .fit(&reg)
        .unwrap();
    let pred = rf.predict_values(&reg).unwrap();
    let y = reg.target_values();
    let mse = pred
        .iter()
        .zip(&y)
        .map(|(p, y)| (p - y).powi(2))
        .sum::<f64>()
        / y.len() as f64;
    assert!(mse < 0.01, "{mse}");
}

#[test]
fn adaboost_beats_a_stump() {
    let train = hastie(2000, 1);
    let test = hastie(2000, 2);
    let truth = test.labels().unwrap();
    let stump = DecisionTreeParams::classifier()
        .max_depth(1)
        .fit(&train)
        .unwrap();
    let acc_stump = accuracy(&labels_of(&stump, &test), &truth);
    for algo in [AdaBoostAlgorithm::Samme, AdaBoostAlgorithm::SammeR] {
        let ada = AdaBoostParams::new()
            .algorithm(algo)
            .n_estimators(150)
            .fit(&train)
            .unwrap();
        assert_eq!(ada.n_estimators(), 150);
        let acc = accuracy(&labels_of(&ada, &test), &truth);
        assert!(
            acc > acc_stump + 0.2,
            "{algo:?}: {acc} vs stump {acc_stump}"
        );
        match algo {
            AdaBoostAlgorithm::SammeR => assert!(ada.estimator_weights().iter().all(|&w| w == 1.0)),
            AdaBoostAlgorithm::Samme => {
                assert!(ada.estimator_weights().iter().all(|&w| w > 0.0));
                // α = ln((1 − err)/err) + ln(K − 1) with K = 2.
                let (w, e) = (ada.estimator_weights()[3], ada.estimator_errors()[3]);
                assert!((w - ((1.0 - e) / e).ln()).abs() < 1e-12);
            }
        }
        let pool = ada.rule_pool();
        assert_eq!(pool.len(), ada.n_rules());
        assert_eq!(pool[0].estimator_weight, ada.estimator_weights()[0]);
        // predict_proba rows sum to 1 and agree with the labels for SAMME.R.
        let proba = ada.predict_proba(&test).unwrap();
        assert!(proba.chunks(2).all(|p| (p[0] + p[1] - 1.0).abs() < 1e-12));
    }
    // Three classes.
    let train = common::three_classes(1500, 3);
    let test = common::three_classes(1500, 4);
    let truth = test.labels().unwrap();
    let stump = DecisionTreeParams::classifier()
        .max_depth(1)
        .fit(&train)
        .unwrap();
    let acc_stump = accuracy(&labels_of(&stump, &test), &truth);
    for algo in [AdaBoostAlgorithm::Samme, AdaBoostAlgorithm::SammeR] {
        let ada = AdaBoostParams::new()
            .algorithm(algo)
            .max_depth(2)
            .fit(&train)
            .unwrap();
        let acc = accuracy(&labels_of(&ada, &test), &truth);
        assert!(
            acc > acc_stump + 0.15,
            "{algo:?}: {acc} vs stump {acc_stump}"
        );
    }
}

#[test]
fn adaboost_stops_on_a_perfect_fit() {
    let data = common::linear(200, 2, 0.0, 8);
    let ada = AdaBoostParams::new()
        .algorithm(AdaBoostAlgorithm::Samme)
        .max_depth(None)
        .fit(&data)
        .unwrap();
    assert_eq!(ada.n_estimators(), 1);
    assert_eq!(ada.estimator_weights(), &[1.0]);
    assert_eq!(ada.estimator_errors(), &[0.0]);
}

#[test]
fn gradient_boosting_reduces_training_loss() {
    let cases = [
        (common::linear(600, 4, 0.1, 1), GbLoss::BinomialDeviance),
        (common::three_classes(600, 2), GbLoss::MultinomialDeviance),
        (common::regression(600, 3), GbLoss::SquaredError),
    ];
    for (data, loss) in cases {
        let gb = GradientBoostingParams::new()
            .n_estimators(40)
            .fit(&data)
            .unwrap();
        assert_eq!(gb.loss(), loss);
        let l = gb.train_loss();
        assert_eq!(l.len(), 40);
        assert!(l.windows(2).all(|w| w[1] < w[0]), "{loss:?}: {l:?}");
        assert!(l[39] < 0.5 * l[0], "{loss:?}: {l:?}");
        let k = gb.trees_per_stage();
        assert_eq!(gb.trees().len(), 40 * k);
        assert!(gb.trees().iter().all(|t| t.max_depth() <= 3));
        if loss != GbLoss::SquaredError {
            let acc = accuracy(&labels_of(&gb, &data), &data.labels().unwrap());
            assert!(acc > 0.85, "{loss:?}: {acc}");
        }
        let imp = gb.feature_importances();
        assert!((imp.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    }
    // Subsampling is seeded and still learns.
    let data = common::linear(600, 4, 0.1, 1);
    let p = GradientBoostingParams::new()
        .subsample(0.5)
        .n_estimators(30)
        .seed(3);
    let a = p.fit(&data).unwrap();
    let b = p.fit(&data).unwrap();
    assert_eq!(a, b);
    assert!(a.train_loss()[29] < a.train_loss()[0]);
}

#[test]
fn binomial_gb_matches_a_hand_computed_first_stage() {
    // One stage of depth 1 on x = 0..9, y = [x >= 6]. Prior p = 0.4,
    // init = ln(0.4/0.6). Left leaf (x <= 5.5): residual −0.4 for 6 rows
    // → value Σr / Σ p(1−p) = −2.4 / 1.44 = −1/0.6; right: 2.4/0.96 = 2.5.
    let rows: Vec<Vec<f64>> = (0..10).map(|i| vec![i as f64]).collect();
    let data = Dataset::from_rows(
        "gb",
        vec![Feature::numeric("x")],
        &rows,
        Target::Classes {
            labels: (0..10).map(|i| usize::from(i >= 6)).collect(),
            names: vec!["a".into(), "b".into()],
        },
    )
    .unwrap();
    let gb = GradientBoostingParams::new()
        .n_estimators(1)
        .max_depth(1)
        .learning_rate(1.0)
        .fit(&data)
        .unwrap();
    assert!((gb.init()[0] - (0.4f64 / 0.6).ln()).abs() < 1e-15);
    let t = &gb.trees()[0];
    assert_eq!(t.node(0).unwrap().split.unwrap().threshold, 5.5);
    assert!(
        (t.value(1)[0] + 1.0 / 0.6).abs() < 1e-12,
        "{}",
        t.value(1)[0]
    );
    assert!((t.value(2)[0] - 2.5).abs() < 1e-12, "{}", t.value(2)[0]);
}

#[test]
fn serde_round_trips_predict_identically() {
    let class = common::three_classes(300, 9);
    let reg = common::regression(300, 9);
    let bin = common::linear(300, 3, 0.1, 9);

    fn check<M>(m: &M, data: &Dataset)
    where
        M: Predict<Error = rc_tree::Error>
            + serde::Serialize
            + serde::de::DeserializeOwned
            + PartialEq
            + std::fmt::Debug,
    {
        let json = serde_json::to_string(m).unwrap();
        let back: M = serde_json::from_str(&json).unwrap();
        assert_eq!(&back, m);
        assert_eq!(back.predict(data).unwrap(), m.predict(data).unwrap());
    }
    check(
        &DecisionTreeParams::classifier().fit(&class).unwrap(),
        &class,
    );
    check(&DecisionTreeParams::regressor().fit(&reg).unwrap(), &reg);
    check(
        &RandomForestParams::default()
            .n_estimators(5)
            .fit(&class)
            .unwrap(),
        &class,
    );
    check(
        &RandomForestParams::regressor()
            .n_estimators(5)
            .fit(&reg)
            .unwrap(),
        &reg,
    );
    for algo in [AdaBoostAlgorithm::Samme, AdaBoostAlgorithm::SammeR] {
        check(
            &AdaBoostParams::new()
                .algorithm(algo)
                .n_estimators(10)
                .fit(&class)
                .unwrap(),
            &class,
        );
    }
    for d in [&class, &reg, &bin] {
        check(
            &GradientBoostingParams::new()
                .n_estimators(10)
                .fit(d)
                .unwrap(),
            d,
        );
    }
    // Corrupted models are rejected when read, not when used.
    let t = DecisionTreeParams::classifier().fit(&class).unwrap();
    let mut v = serde_json::to_value(&t).unwrap();
    v["tree"]["nav"][0]["r"] = serde_json::json!(100_000);
    assert!(serde_json::from_value::<rc_tree::DecisionTree>(v).is_err());
    let mut v = serde_json::to_value(&t).unwrap();
    v["tree"]["value"] = serde_json::json!([1.0]);
    assert!(serde_json::from_value::<rc_tree::DecisionTree>(v).is_err());
    let gb = GradientBoostingParams::new()
        .n_estimators(2)
        .fit(&class)
        .unwrap();
    let mut v = serde_json::to_value(&gb).unwrap();
    v["trees_per_stage"] = serde_json::json!(0);
    assert!(serde_json::from_value::<rc_tree::GradientBoosting>(v).is_err());
    // Parameters too.
    let p = RandomForestParams::default().max_features(MaxFeatures::Fraction(0.5));
    let back: RandomForestParams =
        serde_json::from_str(&serde_json::to_string(&p).unwrap()).unwrap();
    assert_eq!(back, p);
}

fn assert_coverage_matches_rules(source: &impl RuleSource, data: &Dataset) {
    let pool = source.rule_pool();
    let fast = source.pool_coverage(data).unwrap();
    let slow = CoverageMatrix::from_rules(pool.iter().map(|p| &p.rule), data);
    assert_eq!(fast, slow);
    // Pool order: estimators ascending, leaves ascending within each.
    for w in pool.windows(2) {
        assert!((w[0].estimator, w[0].node) < (w[1].estimator, w[1].node));
    }
    // Every row is in exactly one leaf per tree.
    let n_est = pool.last().map_or(0, |p| p.estimator + 1);
    for row in fast.rules_by_row() {
        assert_eq!(row.len(), n_est);
    }
}

#[test]
fn apply_based_coverage_equals_rule_evaluation() {
    let train = common::three_classes(400, 10);
    let other = common::three_classes(300, 11);
    let tree = DecisionTreeParams::classifier()
        .max_depth(8)
        .fit(&train)
        .unwrap();
    assert_coverage_matches_rules(&tree, &other);
    let rf = RandomForestParams::default()
        .n_estimators(8)
        .seed(2)
        .fit(&train)
        .unwrap();
    assert_coverage_matches_rules(&rf, &other);
    assert_coverage_matches_rules(&rf, &train);
    let ada = AdaBoostParams::new()
        .max_depth(3)
        .n_estimators(8)
        .fit(&train)
        .unwrap();
    assert_coverage_matches_rules(&ada, &other);
    let gb = GradientBoostingParams::new()
        .n_estimators(4)
        .fit(&train)
        .unwrap();
    assert_coverage_matches_rules(&gb, &other);
    assert!(gb.rule_pool().iter().all(|p| p.estimator_weight == 0.1));
    assert_eq!(gb.rule_pool().len(), gb.n_rules());
}

#[test]
fn leaf_stats_use_the_data_passed() {
    let train = common::three_classes(500, 12);
    let rf = RandomForestParams::default()
        .n_estimators(6)
        .fit(&train)
        .unwrap();
    let stats = rf.leaf_stats(&train, None).unwrap();
    let pool = rf.rule_pool();
    assert_eq!(stats.len(), pool.len());
    let cover = rf.pool_coverage(&train).unwrap();
    for (j, (s, p)) in stats.iter().zip(&pool).enumerate() {
        assert_eq!((s.estimator, s.node), (p.estimator, p.node));
        assert_eq!(s.n_rows, cover.rows_of(j).len());
        assert_eq!(s.class_counts.iter().sum::<usize>(), s.n_rows);
        assert_eq!(s.weight, s.n_rows as f64);
        if s.n_rows > 0 {
            let n = s.n_rows as f64;
            let gini = 1.0
                - s.class_counts
                    .iter()
                    .map(|&c| (c as f64 / n).powi(2))
                    .sum::<f64>();
            assert!((s.gini - gini).abs() < 1e-12);
        }
    }
    // Per tree, the leaves partition the whole training fold (not only the
    // bootstrap sample).
    for e in 0..rf.n_estimators() {
        let total: usize = stats
            .iter()
            .filter(|s| s.estimator == e)
            .map(|s| s.n_rows)
            .sum();
        assert_eq!(total, train.n_rows());
    }
    // Weighted counts.
    let w: Vec<f64> = (0..train.n_rows()).map(|i| (i % 4) as f64 * 0.5).collect();
    let ws = rf.leaf_stats(&train, Some(&w)).unwrap();
    let total_w: f64 = ws
        .iter()
        .filter(|s| s.estimator == 0)
        .map(|s| s.weight)
        .sum();
    assert!((total_w - w.iter().sum::<f64>()).abs() < 1e-9);
    // A tree's own leaf stats on its training data equal its stored counts.
    let t = DecisionTreeParams::classifier()
        .criterion(Criterion::Entropy)
        .max_depth(4)
        .fit(&train)
        .unwrap();
    for s in t.leaf_stats(&train, None).unwrap() {
        let v = t.tree().value(s.node);
        let counts: Vec<f64> = s.class_counts.iter().map(|&c| c as f64).collect();
        assert_eq!(v, counts.as_slice());
        assert!((s.entropy - t.tree().node(s.node).unwrap().impurity).abs() < 1e-12);
    }
    // Regression: mean and MSE.
    let reg = common::regression(300, 13);
    let t = DecisionTreeParams::regressor()
        .max_depth(3)
        .fit(&reg)
        .unwrap();
    for s in t.leaf_stats(&reg, None).unwrap() {
        assert!((s.mean - t.tree().value(s.node)[0]).abs() < 1e-12);
        assert!((s.mse - t.tree().node(s.node).unwrap().impurity).abs() < 1e-9);
        assert!(s.class_counts.is_empty());
    }
}

#[test]
fn rule_models_print_readably() {
    let data = common::linear(200, 2, 0.0, 14);
    let t = DecisionTreeParams::classifier()
        .max_depth(2)
        .fit(&data)
        .unwrap();
    let text = t.render_rules();
    assert_eq!(text.lines().count(), t.n_rules());
    assert!(text.starts_with("if x"), "{text}");
    assert!(text.contains(" then class "), "{text}");
    assert_eq!(t.rule_lengths(), vec![2; t.n_rules()]);
    let set = RandomForestParams::default()
        .n_estimators(3)
        .fit(&data)
        .unwrap()
        .rule_set();
    assert!(set
        .rules
        .iter()
        .all(|r| (r.weight - 1.0 / 3.0).abs() < 1e-15));
}
