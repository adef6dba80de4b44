//! Sample weights (replication semantics), the encoder inside the models,
//! missing values, recorded coverage and serialization for MIRCO and RUX.

use rc_cover::{CoverSolver, Error, MircoParams, RuxBase, RuxParams, SelectFrom};
use rc_tree::{DecisionTreeParams, RandomForestParams};
use rulecover_core::{
    generate, Condition, Dataset, Feature, Fit, Fitted, PoolRule, Predict, Predictions, Rule,
    RuleModel, RuleSource, Target,
};

/// The rows of `data` with row `i` repeated `weights[i]` times in place,
/// and the integer weights themselves.
fn duplicated(data: &Dataset, weights: &[usize]) -> Dataset {
    let idx: Vec<usize> = weights
        .iter()
        .enumerate()
        .flat_map(|(i, &w)| std::iter::repeat_n(i, w))
        .collect();
    data.subset(&idx).unwrap()
}

fn integer_weights(n: usize) -> Vec<usize> {
    (0..n).map(|i| [1, 2, 0, 3, 1, 1, 4][i % 7]).collect()
}

/// Positive integer weights (a rule of a given forest may cover only rows
/// of weight 0, and RUX refuses rules that cover no training row).
fn positive_integer_weights(n: usize) -> Vec<usize> {
    (0..n).map(|i| [1, 2, 1, 3, 1, 1, 4][i % 7]).collect()
}

/// The same rules, fallback and predictions (fit facts such as LP times
/// aside).
fn assert_same_rux(
    a: &rc_cover::WeightedRuleModel,
    b: &rc_cover::WeightedRuleModel,
    data: &Dataset,
) {
    assert_eq!(a.rules(), b.rules());
    assert_eq!(a.fallback(), b.fallback());
    assert_eq!(a.rule_set(), b.rule_set());
    assert_eq!(a.predict(data).unwrap(), b.predict(data).unwrap());
}

fn as_f64(w: &[usize]) -> Vec<f64> {
    w.iter().map(|&x| x as f64).collect()
}

fn forest(train: &Dataset) -> rc_tree::RandomForest {
    RandomForestParams::classifier()
        .n_estimators(8)
        .max_depth(3)
        .seed(3)
        .fit(train)
        .unwrap()
}

#[test]
fn mirco_integer_weights_equal_duplicated_rows() {
    let train = generate::twonorm(140, 1);
    let test = generate::twonorm(200, 2);
    let rf = forest(&train);
    let w = integer_weights(train.n_rows());
    for solver in [
        CoverSolver::Greedy,
        CoverSolver::Exact {
            time_limit: std::time::Duration::from_secs(20),
        },
    ] {
        let params = MircoParams::default().solver(solver);
        let weighted = params.fit_from_weighted(&rf, &train, &as_f64(&w)).unwrap();
        let dup = params.fit_from(&rf, &duplicated(&train, &w)).unwrap();
        assert_eq!(weighted.rules(), dup.rules(), "{solver:?}");
        assert_eq!(weighted.stats(), dup.stats());
        assert_eq!(weighted.rule_set(), dup.rule_set());
        assert_eq!(
            weighted.predict(&test).unwrap(),
            dup.predict(&test).unwrap()
        );
        // Weights matter: the unweighted selection has other statistics.
        let plain = params.fit_from(&rf, &train).unwrap();
        assert_ne!(plain.stats(), weighted.stats());
    }
}

#[test]
fn mirco_unit_weights_equal_fit_and_zero_weight_drops_the_row() {
    let train = generate::twonorm(120, 3);
    let rf = forest(&train);
    let params = MircoParams::default();
    let plain = params.fit_from(&rf, &train).unwrap();
    let ones = params
        .fit_from_weighted(&rf, &train, &vec![1.0; train.n_rows()])
        .unwrap();
    assert_eq!(plain, ones);
    // Through Fit: the forest is fitted with the same (unit) weights.
    let small = params.clone().forest(
        RandomForestParams::classifier()
            .n_estimators(5)
            .max_depth(3)
            .seed(2),
    );
    assert_eq!(
        small.fit(&train).unwrap(),
        small
            .fit_weighted(&train, &vec![1.0; train.n_rows()])
            .unwrap()
    );
    let mut w = vec![1.0; train.n_rows()];
    w[4] = 0.0;
    w[9] = 0.0;
    let kept: Vec<usize> = (0..train.n_rows()).filter(|&i| w[i] > 0.0).collect();
    let zero = params.fit_from_weighted(&rf, &train, &w).unwrap();
    let without = params.fit_from(&rf, &train.subset(&kept).unwrap()).unwrap();
    assert_eq!(zero, without);
    assert!(params.fit_from_weighted(&rf, &train, &[1.0; 3]).is_err());
    let mut bad = vec![1.0; train.n_rows()];
    bad[0] = -1.0;
    assert!(matches!(
        params.fit_from_weighted(&rf, &train, &bad),
        Err(Error::Data(rulecover_core::Error::InvalidParameter { .. }))
    ));
}

#[test]
fn rux_integer_weights_equal_duplicated_rows() {
    let train = generate::twonorm(140, 4);
    let test = generate::twonorm(200, 5);
    let rf = forest(&train);
    let w = positive_integer_weights(train.n_rows());
    for params in [
        RuxParams::for_forest(),
        RuxParams::for_forest().form(rc_cover::LpForm::Primal),
    ] {
        let weighted = params.fit_from_weighted(&rf, &train, &as_f64(&w)).unwrap();
        let dup = params.fit_from(&rf, &duplicated(&train, &w)).unwrap();
        assert_same_rux(&weighted, &dup, &test);
        let plain = params.fit_from(&rf, &train).unwrap();
        assert_ne!(plain.rules(), weighted.rules());
        let ones = params
            .fit_from_weighted(&rf, &train, &vec![1.0; train.n_rows()])
            .unwrap();
        assert_same_rux(&plain, &ones, &test);
    }
}

#[test]
fn rux_fit_owns_its_ensemble() {
    let train = generate::twonorm(150, 6);
    let base = RandomForestParams::classifier()
        .n_estimators(6)
        .max_depth(2)
        .seed(9);
    let params = RuxParams::for_forest().base(RuxBase::Forest(base.clone()));
    let fitted = params.fit(&train).unwrap();
    let by_hand = params.fit_from(&base.fit(&train).unwrap(), &train).unwrap();
    assert_same_rux(&fitted, &by_hand, &train);
    // AdaBoost without bootstrap: weighted equals duplicated end to end.
    let ada = RuxParams::for_adaboost().base(RuxBase::AdaBoost(
        rc_tree::AdaBoostParams::new()
            .n_estimators(5)
            .max_depth(2)
            .algorithm(rc_tree::AdaBoostAlgorithm::Samme)
            .seed(1),
    ));
    let w = positive_integer_weights(train.n_rows());
    let weighted = ada.fit_weighted(&train, &as_f64(&w)).unwrap();
    let dup = ada.fit(&duplicated(&train, &w)).unwrap();
    // AdaBoost's α (hence the costs 1/α) are sums over rows taken in
    // another order, equal up to rounding: compare the rules, their classes
    // and the predicted labels.
    let rules = |m: &rc_cover::WeightedRuleModel| {
        m.rules()
            .iter()
            .map(|r| (r.rule.clone(), r.class))
            .collect::<Vec<_>>()
    };
    assert_eq!(rules(&weighted), rules(&dup));
    assert_eq!(
        weighted.predict(&train).unwrap().labels(),
        dup.predict(&train).unwrap().labels()
    );
}

#[test]
fn models_read_raw_categorical_data_by_name() {
    let train = categorical(300);
    let mirco = MircoParams::default()
        .forest(
            RandomForestParams::classifier()
                .n_estimators(5)
                .max_depth(3)
                .seed(1),
        )
        .fit(&train)
        .unwrap();
    let rux = RuxParams::default()
        .base(RuxBase::Forest(
            RandomForestParams::classifier()
                .n_estimators(5)
                .max_depth(3)
                .seed(1),
        ))
        .fit(&train)
        .unwrap();
    let other = reordered(&train);
    for (name, a, b, features) in [
        (
            "mirco",
            mirco.predict(&train).unwrap(),
            mirco.predict(&other).unwrap(),
            mirco.features().to_vec(),
        ),
        (
            "rux",
            rux.predict(&train).unwrap(),
            rux.predict(&other).unwrap(),
            rux.features().to_vec(),
        ),
    ] {
        assert_eq!(a, b, "{name}");
        let names: Vec<&str> = features.iter().map(|f| f.name.as_str()).collect();
        assert!(names.contains(&"color=red"), "{name}: {names:?}");
        let acc = a
            .labels()
            .unwrap()
            .iter()
            .zip(train.labels().unwrap())
            .filter(|(p, t)| **p == *t)
            .count();
        assert!(acc as f64 > 0.9 * train.n_rows() as f64, "{name}: {acc}");
    }
    assert_eq!(mirco.feature_names(), ["x", "color"]);
    assert_eq!(rux.classes(), ["no", "yes"]);
    // A missing column is a typed error naming it.
    let only_x = Dataset::new(
        "x only",
        vec![Feature::numeric("x")],
        vec![vec![1.0]],
        Target::None,
    )
    .unwrap();
    assert!(matches!(
        mirco.predict(&only_x),
        Err(Error::Data(rulecover_core::Error::MissingColumn { ref column, .. })) if column == "color"
    ));
}

#[test]
fn missing_values_at_predict_are_typed_errors() {
    let train = generate::twonorm(100, 7);
    let rf = forest(&train);
    let mirco = MircoParams::default().fit_from(&rf, &train).unwrap();
    let rux = RuxParams::default().fit_from(&rf, &train).unwrap();
    let mut cols: Vec<Vec<f64>> = (0..train.n_features())
        .map(|j| train.column(j).to_vec())
        .collect();
    cols[3][5] = f64::NAN;
    let holed = Dataset::new("holed", train.features().to_vec(), cols, Target::None).unwrap();
    let check = |e: Error| {
        assert!(
            matches!(&e, Error::MissingValue { feature, row: 5 } if feature == &train.features()[3].name),
            "{e}"
        )
    };
    check(mirco.predict(&holed).unwrap_err());
    check(rux.predict(&holed).unwrap_err());
}

#[test]
fn regression_rules_record_their_coverage() {
    let n = 60;
    let x: Vec<f64> = (0..n).map(|i| i as f64).collect();
    let y: Vec<f64> = x
        .iter()
        .map(|v| if *v < 30.0 { 1.0 } else { 5.0 })
        .collect();
    let data = Dataset::new("r", vec![Feature::numeric("x")], vec![x], Target::Real(y)).unwrap();
    let tree = DecisionTreeParams::regressor()
        .max_depth(2)
        .fit(&data)
        .unwrap();
    let model = MircoParams::default().fit_from(&tree, &data).unwrap();
    let set = model.rule_set();
    assert!(!set.rules.is_empty());
    for r in &set.rules {
        let rule = r.antecedent.as_conjunction().unwrap();
        assert_eq!(r.coverage, rule.coverage(&data).count());
        assert!(r.coverage > 0);
    }
}

/// Two hand-written rules on one feature.
struct Halves;

impl RuleSource for Halves {
    fn rule_pool(&self) -> Vec<PoolRule> {
        let r = |c| PoolRule {
            rule: Rule::new(vec![c]),
            estimator: 0,
            node: 0,
            estimator_weight: 1.0,
        };
        vec![r(Condition::le(0, 2.5)), r(Condition::gt(0, 2.5))]
    }
}

#[test]
fn serialized_models_predict_bit_identically() {
    let train = generate::twonorm(150, 8);
    let test = generate::twonorm(150, 9);
    let rf = forest(&train);
    let mirco = MircoParams::default().fit_from(&rf, &train).unwrap();
    let rux = RuxParams::default().fit_from(&rf, &train).unwrap();
    let back: rc_cover::MircoModel =
        serde_json::from_str(&serde_json::to_string(&mirco).unwrap()).unwrap();
    assert_eq!(back, mirco);
    assert_eq!(back.predict(&test).unwrap(), mirco.predict(&test).unwrap());
    let back: rc_cover::WeightedRuleModel =
        serde_json::from_str(&serde_json::to_string(&rux).unwrap()).unwrap();
    assert_eq!(back, rux);
    let (p, q) = (back.predict(&test).unwrap(), rux.predict(&test).unwrap());
    match (p, q) {
        (Predictions::Classes { proba: a, .. }, Predictions::Classes { proba: b, .. }) => {
            assert!(a.iter().zip(&b).all(|(x, y)| x.to_bits() == y.to_bits()))
        }
        other => panic!("{other:?}"),
    }
    // A plain rule source: the model reads its training columns by name.
    let line = Dataset::new(
        "line",
        vec![Feature::numeric("x")],
        vec![vec![0.0, 1.0, 2.0, 3.0, 4.0, 5.0]],
        Target::Classes {
            labels: vec![0, 0, 0, 1, 1, 1],
            names: s(&["a", "b"]),
        },
    )
    .unwrap();
    let m = MircoParams::default().select(&Halves, &line).unwrap();
    assert_eq!(m.coverage(), &[3, 3]);
    assert_eq!(m.feature_names(), ["x"]);
}

#[test]
fn invalid_parameters_are_typed_errors_at_fit() {
    let train = generate::twonorm(60, 1);
    let rf = forest(&train);
    let zero_limit = MircoParams::default().solver(CoverSolver::Exact {
        time_limit: std::time::Duration::ZERO,
    });
    assert!(matches!(
        zero_limit.fit_from(&rf, &train),
        Err(Error::InvalidParameter {
            name: "solver.time_limit",
            ..
        })
    ));
    assert!(matches!(
        RuxParams::default().eps(0.0).fit_from(&rf, &train),
        Err(Error::InvalidParameter { name: "eps", .. })
    ));
}

fn s(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

/// Class 1 when the color is red or x > 5.
fn categorical(n: usize) -> Dataset {
    let x: Vec<f64> = (0..n).map(|i| (i % 10) as f64).collect();
    let color: Vec<f64> = (0..n).map(|i| ((i / 10) % 3) as f64).collect();
    let labels = (0..n)
        .map(|i| usize::from(color[i] == 1.0 || x[i] > 5.0))
        .collect();
    Dataset::new(
        "cat",
        vec![
            Feature::numeric("x"),
            Feature::categorical("color", s(&["blue", "red", "green"])),
        ],
        vec![x, color],
        Target::Classes {
            labels,
            names: s(&["no", "yes"]),
        },
    )
    .unwrap()
}

/// `categorical(n)` with its columns swapped and the levels in another
/// order.
fn reordered(data: &Dataset) -> Dataset {
    let recode = [1.0, 2.0, 0.0]; // blue → 1, red → 2, green → 0
    let color: Vec<f64> = data.column(1).iter().map(|&c| recode[c as usize]).collect();
    Dataset::new(
        "reordered",
        vec![
            Feature::categorical("color", s(&["green", "blue", "red"])),
            Feature::numeric("x"),
        ],
        vec![color, data.column(0).to_vec()],
        Target::None,
    )
    .unwrap()
}
