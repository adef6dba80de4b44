//! Trees identical to scikit-learn 1.9's on small data sets. The expected
//! arrays were printed by scikit-learn (`tree_.feature`, `tree_.threshold`,
//! `tree_.n_node_samples`, ...) for the same data, generated below by
//! formulas that Python evaluates identically.

use rc_tree::{Criterion, DecisionTreeParams, Tree};
use rulecover_core::{Dataset, Feature, Fit, Target};

/// 80 rows: x0 = (37 i mod 101)/10, x1 = (53 i mod 97)/7,
/// x2 = 11 i mod 5, x3 = i mod 2; y = (x0 > 5 and x1 < 8) or
/// (x3 = 1 and x2 >= 3), flipped when i mod 13 = 0; weights 1 + i mod 3.
fn formula_data(real_target: bool) -> (Dataset, Vec<f64>) {
    let n = 80;
    let mut rows = Vec::new();
    let mut labels = Vec::new();
    let mut yr = Vec::new();
    for i in 0..n {
        let x = [
            ((i * 37) % 101) as f64 / 10.0,
            ((i * 53) % 97) as f64 / 7.0,
            ((i * 11) % 5) as f64,
            (i % 2) as f64,
        ];
        let mut y = usize::from((x[0] > 5.0 && x[1] < 8.0) || (x[3] == 1.0 && x[2] >= 3.0));
        if i % 13 == 0 {
            y = 1 - y;
        }
        labels.push(y);
        yr.push(x[0] * 0.5 + if x[1] > 7.0 { 3.0 } else { 0.0 });
        rows.push(x.to_vec());
    }
    let feats = (0..4).map(|j| Feature::numeric(format!("x{j}"))).collect();
    let target = if real_target {
        Target::Real(yr)
    } else {
        Target::Classes {
            labels,
            names: vec!["0".into(), "1".into()],
        }
    };
    let w = (0..n).map(|i| 1.0 + (i % 3) as f64).collect();
    (
        Dataset::from_rows("formula", feats, &rows, target).unwrap(),
        w,
    )
}

const LEAF: i64 = -1;

#[allow(clippy::too_many_arguments)]
fn check(
    tree: &Tree,
    left: &[i64],
    right: &[i64],
    feature: &[i64],
    threshold: &[f64],
    n_samples: &[usize],
    weighted: &[f64],
    impurity: &[f64],
) {
    assert_eq!(tree.n_nodes(), left.len());
    for node in tree.nodes() {
        let id = node.id;
        match node.split {
            Some(s) => {
                assert_eq!(s.left as i64, left[id], "left child of node {id}");
                assert_eq!(s.right as i64, right[id], "right child of node {id}");
                assert_eq!(s.feature as i64, feature[id], "feature of node {id}");
                assert_eq!(s.threshold, threshold[id], "threshold of node {id}");
            }
            None => assert_eq!(left[id], LEAF, "node {id} should be a split"),
        }
        assert_eq!(node.n_samples, n_samples[id], "n_node_samples of node {id}");
        assert_eq!(
            node.weighted_n_samples, weighted[id],
            "weighted_n_node_samples of node {id}"
        );
        assert!(
            (node.impurity - impurity[id]).abs() < 1e-12,
            "impurity of node {id}: {} vs {}",
            node.impurity,
            impurity[id]
        );
    }
}

#[test]
fn hand_checkable_tree() {
    // x = 1..8, y = 0 0 0 1 0 1 1 1. At the root x <= 3.5 and x <= 5.5 tie
    // (weighted Gini 0.2 each); the first candidate wins, as in sklearn.
    let rows: Vec<Vec<f64>> = (1..=8).map(|v| vec![v as f64]).collect();
    let data = Dataset::from_rows(
        "tiny",
        vec![Feature::numeric("x")],
        &rows,
        Target::Classes {
            labels: vec![0, 0, 0, 1, 0, 1, 1, 1],
            names: vec!["a".into(), "b".into()],
        },
    )
    .unwrap();
    let model = DecisionTreeParams::classifier().fit(&data).unwrap();
    let t = model.tree();
    check(
        t,
        &[1, LEAF, 3, 4, LEAF, LEAF, LEAF],
        &[2, LEAF, 6, 5, LEAF, LEAF, LEAF],
        &[0, -2, 0, 0, -2, -2, -2],
        &[3.5, 0.0, 5.5, 4.5, 0.0, 0.0, 0.0],
        &[8, 3, 5, 2, 1, 1, 3],
        &[8.0, 3.0, 5.0, 2.0, 1.0, 1.0, 3.0],
        &[0.5, 0.0, 0.32, 0.5, 0.0, 0.0, 0.0],
    );
    assert_eq!(t.value(2), &[1.0, 4.0]);
    assert_eq!(t.value(6), &[0.0, 3.0]);
}

#[test]
fn float32_midpoints_like_sklearn() {
    // sklearn: threshold between 0.1f32 and 0.3f32 is 0.20000000670552254.
    let rows = vec![vec![0.1], vec![0.3]];
    let data = Dataset::from_rows(
        "mid",
        vec![Feature::numeric("x")],
        &rows,
        Target::Classes {
            labels: vec![0, 1],
            names: vec!["a".into(), "b".into()],
        },
    )
    .unwrap();
    let t = DecisionTreeParams::classifier().fit(&data).unwrap();
    let s = t.tree().node(0).unwrap().split.unwrap();
    assert_eq!(s.threshold, 0.20000000670552254);
    assert!(s.rule_threshold >= s.threshold);
}

#[test]
fn weighted_entropy_tree_matches_sklearn() {
    // DecisionTreeClassifier(criterion='entropy', max_depth=3)
    //     .fit(X, y, sample_weight=w)
    let (data, w) = formula_data(false);
    let model = DecisionTreeParams::classifier()
        .criterion(Criterion::Entropy)
        .max_depth(3)
        .fit_weighted(&data, &w)
        .unwrap();
    check(
        model.tree(),
        &[
            1, 2, 3, LEAF, LEAF, 6, LEAF, LEAF, 9, 10, LEAF, LEAF, 13, LEAF, LEAF,
        ],
        &[
            8, 5, 4, LEAF, LEAF, 7, LEAF, LEAF, 12, 11, LEAF, LEAF, 14, LEAF, LEAF,
        ],
        &[0, 2, 0, -2, -2, 3, -2, -2, 1, 1, -2, -2, 2, -2, -2],
        &[
            5.549999952316284,
            2.5,
            0.550000011920929,
            0.0,
            0.0,
            0.5,
            0.0,
            0.0,
            7.071428537368774,
            1.5,
            0.0,
            0.0,
            3.5,
            0.0,
            0.0,
        ],
        &[80, 44, 28, 5, 23, 16, 8, 8, 36, 20, 2, 18, 16, 14, 2],
        &[
            159.0, 87.0, 56.0, 12.0, 44.0, 31.0, 19.0, 12.0, 72.0, 40.0, 5.0, 35.0, 32.0, 27.0, 5.0,
        ],
        &[
            0.9647589493966973,
            0.6365048555378351,
            0.30137864359308586,
            0.8112781244591328,
            0.0,
            0.9383153522334069,
            0.0,
            0.41381685030363374,
            0.9182958340544896,
            0.28639695711595625,
            0.9709505944546686,
            0.0,
            0.8960382325345575,
            0.691289869405789,
            0.0,
        ],
    );
}

#[test]
fn regression_tree_matches_sklearn() {
    // DecisionTreeRegressor(max_depth=3).fit(X, 0.5 x0 + 3 [x1 > 7])
    let (data, _) = formula_data(true);
    let model = DecisionTreeParams::regressor()
        .max_depth(3)
        .fit(&data)
        .unwrap();
    let t = model.tree();
    check(
        t,
        &[
            1, 2, 3, LEAF, LEAF, 6, LEAF, LEAF, 9, 10, LEAF, LEAF, 13, LEAF, LEAF,
        ],
        &[
            8, 5, 4, LEAF, LEAF, 7, LEAF, LEAF, 12, 11, LEAF, LEAF, 14, LEAF, LEAF,
        ],
        &[1, 0, 0, -2, -2, 0, -2, -2, 0, 0, -2, -2, 0, -2, -2],
        &[
            7.071428537368774,
            4.2499998807907104,
            1.649999976158142,
            0.0,
            0.0,
            7.150000095367432,
            0.0,
            0.0,
            5.349999904632568,
            2.899999976158142,
            0.0,
            0.0,
            7.849999904632568,
            0.0,
            0.0,
        ],
        &[80, 42, 19, 10, 9, 23, 9, 14, 38, 21, 8, 13, 17, 9, 8],
        &[
            80.0, 42.0, 19.0, 10.0, 9.0, 23.0, 9.0, 14.0, 38.0, 21.0, 8.0, 13.0, 17.0, 9.0, 8.0,
        ],
        &[
            4.649810937500009,
            2.589434523809528,
            0.32325484764542933,
            0.05122499999999991,
            0.11024691358024796,
            0.593364839319463,
            0.13876543209876502,
            0.1945025510204097,
            1.6828826177285485,
            0.4864058956915862,
            0.16734375000000412,
            0.09754437869823107,
            0.5048442906574522,
            0.11024691358024796,
            0.08062500000002615,
        ],
    );
    let values = [
        3.9262499999999987,
        2.4250000000000007,
        0.8236842105263158,
        0.355,
        1.3444444444444443,
        3.747826086956522,
        2.9388888888888887,
        4.267857142857143,
        5.585526315789474,
        4.604761904761904,
        3.8374999999999995,
        5.076923076923077,
        6.797058823529412,
        6.194444444444445,
        7.475,
    ];
    for (id, v) in values.iter().enumerate() {
        assert!((t.value(id)[0] - v).abs() < 1e-12, "value of node {id}");
    }
}

#[test]
fn full_gini_tree_has_sklearns_size() {
    // DecisionTreeClassifier().fit(X, y): 31 nodes, root x0 <= 5.55, left
    // child x0 <= 1.05 (44 rows), right child x1 <= 9.357 (36 rows); deeper
    // nodes have equal-gain alternatives that sklearn breaks at random.
    let (data, _) = formula_data(false);
    let t = DecisionTreeParams::classifier().fit(&data).unwrap();
    let t = t.tree();
    assert_eq!(t.n_nodes(), 31);
    let root = t.node(0).unwrap();
    let s = root.split.unwrap();
    assert_eq!(
        (s.feature, s.threshold, s.left, s.right),
        (0, 5.549999952316284, 1, 16)
    );
    let l = t.node(1).unwrap().split.unwrap();
    assert_eq!((l.feature, l.threshold), (0, 1.050000011920929));
    assert_eq!(t.node(1).unwrap().n_samples, 44);
    let r = t.node(16).unwrap().split.unwrap();
    assert_eq!((r.feature, r.threshold), (1, 9.357142925262451));
    assert_eq!(t.node(16).unwrap().n_samples, 36);
}

#[test]
fn samme_weights_match_sklearn() {
    // AdaBoostClassifier(estimator=DecisionTreeClassifier(max_depth=2),
    //                    n_estimators=6)  (scikit-learn 1.9: SAMME)
    use rc_tree::{AdaBoostAlgorithm, AdaBoostParams};
    let (data, _) = formula_data(false);
    let ada = AdaBoostParams::new()
        .algorithm(AdaBoostAlgorithm::Samme)
        .max_depth(2)
        .n_estimators(6)
        .fit(&data)
        .unwrap();
    let weights = [
        1.639743261929429,
        1.464924639180084,
        1.2782560746446414,
        1.2465598336762291,
        0.6600006547100135,
        1.1400639141486137,
    ];
    let errors = [
        0.16250000000000003,
        0.18771526980482212,
        0.21784722447347662,
        0.22329621612863546,
        0.34073946447710707,
        0.24230862647494406,
    ];
    let roots = [
        (0, 5.549999952316284),
        (2, 2.5),
        (1, 1.5),
        (2, 1.5),
        (2, 1.5),
        (1, 9.928571701049805),
    ];
    assert_eq!(ada.n_estimators(), 6);
    for m in 0..6 {
        assert!(
            (ada.estimator_weights()[m] - weights[m]).abs() < 1e-12,
            "weight {m}"
        );
        assert!(
            (ada.estimator_errors()[m] - errors[m]).abs() < 1e-12,
            "error {m}"
        );
        let s = ada.trees()[m].node(0).unwrap().split.unwrap();
        assert_eq!((s.feature, s.threshold), roots[m], "root of tree {m}");
    }
}

#[test]
fn gradient_boosting_matches_sklearn() {
    // Gradient Boosting{Classifier,Regressor}(n_estimators=5, max_depth=2)
    use rc_tree::GradientBoostingParams;
    let rows = [0, 1, 2, 17, 33, 79];
    let params = GradientBoostingParams::new().n_estimators(5).max_depth(2);
    let close = |a: &[f64], b: &[f64]| {
        assert_eq!(a.len(), b.len());
        for (x, y) in a.iter().zip(b) {
            assert!((x - y).abs() < 1e-12, "{a:?} vs {b:?}");
        }
    };

    let (data, _) = formula_data(false);
    let gb = params.fit(&data).unwrap();
    let p = gb.predict_proba(&data.subset(&rows).unwrap()).unwrap();
    let p1: Vec<f64> = p.chunks(2).map(|c| c[1]).collect();
    close(
        &p1,
        &[
            0.39502164246098137,
            0.28123875495580797,
            0.6210228280984265,
            0.28123875495580797,
            0.4687962631208108,
            0.6210228280984265,
        ],
    );

    // Three classes: y3 = y + [x2 = 4].
    let y3: Vec<usize> = (0..80)
        .map(|i| data.label(i) + usize::from(data.value(i, 2) == 4.0))
        .collect();
    let data3 = data
        .with_target(Target::Classes {
            labels: y3,
            names: vec!["0".into(), "1".into(), "2".into()],
        })
        .unwrap();
    let gb = params.fit(&data3).unwrap();
    close(
        &gb.predict_proba(&data3.subset(&rows).unwrap()).unwrap(),
        &[
            0.5740417396849414,
            0.3601150364225047,
            0.06584322389255395,
            0.6459604883564259,
            0.29550124164151176,
            0.05853827000206239,
            0.43966501862898,
            0.48859349148628733,
            0.07174148988473267,
            0.5904190068818104,
            0.34185927852322867,
            0.06772171459496082,
            0.4426027017855121,
            0.4714960006088685,
            0.08590129760561935,
            0.2081210733864948,
            0.39140122125597465,
            0.40047770535753063,
        ],
    );

    let (reg, _) = formula_data(true);
    let gb = params.fit(&reg).unwrap();
    close(
        &gb.predict_values(&reg.subset(&rows).unwrap()).unwrap(),
        &[
            2.6700570122113354,
            4.339493204637028,
            3.8847381190933534,
            2.6700570122113354,
            2.6700570122113354,
            3.8847381190933534,
        ],
    );
}
