//! With `RandomStream::Sklearn`, trees, forests and AdaBoost equal scikit-learn's for
//! the same `random_state`, node for node: the fixture was printed by
//! scikit-learn 1.9.1 (`tests/fixtures/sklearn_streams.py`) for the data
//! below, which both sides compute with the same formulas.

use rc_tree::{
    AdaBoostAlgorithm, AdaBoostParams, DecisionTreeParams, Error, RandomForestParams, RandomStream,
    Tree,
};
use rulecover_core::{Dataset, Feature, Fit, Target};
use serde::Deserialize;

/// 300 rows, 8 features (continuous, few-valued and binary), 3 classes.
fn data() -> Dataset {
    let mut rows = Vec::new();
    let mut labels = Vec::new();
    for i in 0..300usize {
        let x = vec![
            ((37 * i) % 101) as f64 / 10.0,
            ((53 * i) % 97) as f64 / 7.0,
            ((11 * i) % 5) as f64,
            (i % 2) as f64,
            ((i * i) % 17) as f64,
            ((7 * i) % 23) as f64 / 3.0,
            f64::from(u8::from(i % 4 == 0)),
            ((29 * i) % 31) as f64 * 0.25,
        ];
        let mut c = ((x[0] + x[1] / 2.0 + x[4] / 5.0) as usize) % 3;
        if i % 11 == 0 {
            c = (c + 1) % 3;
        }
        rows.push(x);
        labels.push(c);
    }
    let features = (0..8).map(|j| Feature::numeric(format!("x{j}"))).collect();
    let names = vec!["a".into(), "b".into(), "c".into()];
    Dataset::from_rows(
        "streams",
        features,
        &rows,
        Target::Classes { labels, names },
    )
    .unwrap()
}

#[derive(Deserialize)]
struct SkTree {
    feature: Vec<i64>,
    threshold: Vec<f64>,
}

#[derive(Deserialize)]
struct Fixture {
    dt: SkTree,
    dt_depth4_seed7: SkTree,
    rf: Vec<SkTree>,
    ada: Vec<SkTree>,
    ada_weights: Vec<f64>,
}

fn fixture() -> Fixture {
    serde_json::from_str(include_str!("fixtures/sklearn_streams.json")).unwrap()
}

fn assert_same(ours: &Tree, sk: &SkTree, what: &str) {
    assert_eq!(ours.n_nodes(), sk.feature.len(), "{what}: node count");
    for node in ours.nodes() {
        let id = node.id;
        match node.split {
            Some(s) => {
                assert_eq!(
                    s.feature as i64, sk.feature[id],
                    "{what}: feature of node {id}"
                );
                assert_eq!(
                    s.threshold, sk.threshold[id],
                    "{what}: threshold of node {id}"
                );
            }
            None => assert!(sk.feature[id] < 0, "{what}: node {id} should be a split"),
        }
    }
}

#[test]
fn decision_trees_equal_sklearn() {
    let d = data();
    let fx = fixture();
    let dt = DecisionTreeParams::classifier()
        .seed(25)
        .random_stream(RandomStream::Sklearn)
        .fit(&d)
        .unwrap();
    assert_same(dt.tree(), &fx.dt, "DecisionTreeClassifier(random_state=25)");
    let dt4 = DecisionTreeParams::classifier()
        .max_depth(4)
        .seed(7)
        .random_stream(RandomStream::Sklearn)
        .fit(&d)
        .unwrap();
    assert_same(
        dt4.tree(),
        &fx.dt_depth4_seed7,
        "max_depth=4, random_state=7",
    );
}

#[test]
fn forests_equal_sklearn() {
    let d = data();
    let fx = fixture();
    let rf = RandomForestParams::classifier()
        .n_estimators(10)
        .max_depth(5)
        .seed(25)
        .random_stream(RandomStream::Sklearn)
        .fit(&d)
        .unwrap();
    assert_eq!(rf.trees().len(), fx.rf.len());
    for (t, (ours, sk)) in rf.trees().iter().zip(&fx.rf).enumerate() {
        assert_same(ours, sk, &format!("RandomForestClassifier tree {t}"));
    }
}

#[test]
fn adaboost_equals_sklearn() {
    let fx = fixture();
    let ada = AdaBoostParams::new()
        .max_depth(3)
        .n_estimators(8)
        .algorithm(AdaBoostAlgorithm::Samme)
        .seed(25)
        .random_stream(RandomStream::Sklearn)
        .fit(&data())
        .unwrap();
    assert_eq!(ada.trees().len(), fx.ada.len());
    for (t, (ours, sk)) in ada.trees().iter().zip(&fx.ada).enumerate() {
        assert_same(ours, sk, &format!("AdaBoostClassifier tree {t}"));
    }
    for (ours, sk) in ada.estimator_weights().iter().zip(&fx.ada_weights) {
        assert!((ours - sk).abs() < 1e-12, "estimator weight {ours} vs {sk}");
    }
}

#[test]
fn native_and_sklearn_streams_differ_and_seeds_must_fit_32_bits() {
    let d = data();
    let native = RandomForestParams::classifier()
        .n_estimators(3)
        .max_depth(5)
        .seed(25)
        .fit(&d)
        .unwrap();
    let sk = RandomForestParams::classifier()
        .n_estimators(3)
        .max_depth(5)
        .seed(25)
        .random_stream(RandomStream::Sklearn)
        .fit(&d)
        .unwrap();
    assert_ne!(native, sk);
    let too_big = RandomForestParams::classifier()
        .seed(1 << 40)
        .random_stream(RandomStream::Sklearn)
        .fit(&d);
    assert!(
        matches!(too_big, Err(Error::InvalidParameter { .. })),
        "{too_big:?}"
    );
    let tree = DecisionTreeParams::classifier()
        .seed(u64::from(u32::MAX) + 1)
        .random_stream(RandomStream::Sklearn)
        .fit(&d);
    assert!(
        matches!(tree, Err(Error::InvalidParameter { .. })),
        "{tree:?}"
    );
}
