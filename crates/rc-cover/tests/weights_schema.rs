//! Sample weights (replication semantics), the encoder inside the models,
//! missing values, recorded coverage and serialization for MIRCO and RUX;
//! the contract shared by every learner is `rulecover_core::testing`'s.

use rc_cover::{CoverSolver, Error, MircoParams, RuxBase, RuxParams, SelectFrom};
use rc_tree::{DecisionTreeParams, RandomForestParams};
use rulecover_core::testing::{self, Agreement};
use rulecover_core::{
    generate, Condition, Dataset, Feature, Fit, Fitted, PoolRule, Predict, Rule, RuleModel,
    RuleSource, Target,
};

fn integer_weights(n: usize) -> Vec<f64> {
    (0..n)
        .map(|i| [1.0, 2.0, 0.0, 3.0, 1.0, 1.0, 4.0][i % 7])
        .collect()
}

/// Positive integer weights (a rule of a given forest may cover only rows
/// of weight 0, and RUX refuses rules that cover no training row).
fn positive_integer_weights(n: usize) -> Vec<f64> {
    (0..n)
        .map(|i| [1.0, 2.0, 1.0, 3.0, 1.0, 1.0, 4.0][i % 7])
        .collect()
}

/// The same rules, fallback and rule set (fit facts such as LP times
/// aside; the predictions are compared by the shared contract).
fn assert_same_rux(a: &rc_cover::WeightedRuleModel, b: &rc_cover::WeightedRuleModel) {
    assert_eq!(a.rules(), b.rules());
    assert_eq!(a.fallback(), b.fallback());
    assert_eq!(a.rule_set(), b.rule_set());
}

/// Selection from the given `source` as a [`testing::Fitter`]: with the
/// weights when given.
fn select_from<'a, P, S>(
    params: &'a P,
    source: &'a S,
) -> impl testing::Fitter<Model = P::Model> + 'a
where
    P: SelectFrom<S>,
{
    testing::fit_fn(move |d: &Dataset, w: Option<&[f64]>| match w {
        Some(w) => params.fit_from_weighted(source, d, w),
        None => params.fit_from(source, d),
    })
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
        let what = format!("{solver:?}");
        let (weighted, dup) = testing::assert_integer_weights_equal_duplicated_rows(
            select_from(&params, &rf),
            &train,
            &w,
            &test,
            Agreement::Exact,
            &what,
        );
        assert_eq!(weighted.rules(), dup.rules(), "{what}");
        assert_eq!(weighted.stats(), dup.stats());
        assert_eq!(weighted.rule_set(), dup.rule_set());
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
    let (plain, ones) = testing::assert_unit_weights_equal_unweighted(
        select_from(&params, &rf),
        &train,
        &train,
        Agreement::Exact,
        "mirco",
    );
    assert_eq!(plain, ones);
    // Through Fit: the forest is fitted with the same (unit) weights.
    let small = params.clone().forest(
        RandomForestParams::classifier()
            .n_estimators(5)
            .max_depth(3)
            .seed(2),
    );
    let (fitted, ones) = testing::assert_unit_weights_equal_unweighted(
        &small,
        &train,
        &train,
        Agreement::Exact,
        "fit",
    );
    assert_eq!(fitted, ones);
    let mut w = vec![1.0; train.n_rows()];
    w[4] = 0.0;
    w[9] = 0.0;
    let (zero, without) = testing::assert_zero_weights_drop_rows(
        select_from(&params, &rf),
        &train,
        &w,
        &train,
        Agreement::Exact,
        "mirco",
    );
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
        let (weighted, dup) = testing::assert_integer_weights_equal_duplicated_rows(
            select_from(&params, &rf),
            &train,
            &w,
            &test,
            Agreement::Exact,
            "rux",
        );
        assert_same_rux(&weighted, &dup);
        let (plain, ones) = testing::assert_unit_weights_equal_unweighted(
            select_from(&params, &rf),
            &train,
            &test,
            Agreement::Exact,
            "rux",
        );
        assert_same_rux(&plain, &ones);
        assert_ne!(plain.rules(), weighted.rules());
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
    assert_same_rux(&fitted, &by_hand);
    testing::assert_predictions_agree(
        &fitted.predict(&train).unwrap(),
        &by_hand.predict(&train).unwrap(),
        Agreement::Exact,
        "fit vs fit_from",
    );
    // AdaBoost without bootstrap: weighted equals duplicated end to end.
    let ada = RuxParams::for_adaboost().base(RuxBase::AdaBoost(
        rc_tree::AdaBoostParams::new()
            .n_estimators(5)
            .max_depth(2)
            .algorithm(rc_tree::AdaBoostAlgorithm::Samme)
            .seed(1),
    ));
    let w = positive_integer_weights(train.n_rows());
    // AdaBoost's α (hence the costs 1/α) are sums over rows taken in
    // another order, equal up to rounding: compare the rules, their classes
    // and the predicted labels.
    let (weighted, dup) = testing::assert_integer_weights_equal_duplicated_rows(
        &ada,
        &train,
        &w,
        &train,
        Agreement::Labels,
        "rux-ada",
    );
    let rules = |m: &rc_cover::WeightedRuleModel| {
        m.rules()
            .iter()
            .map(|r| (r.rule.clone(), r.class))
            .collect::<Vec<_>>()
    };
    assert_eq!(rules(&weighted), rules(&dup));
}

#[test]
fn models_read_raw_categorical_data_by_name() {
    let train = testing::red_or_large(300);
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
    testing::assert_columns_read_by_name(&mirco, &train, "mirco");
    testing::assert_columns_read_by_name(&rux, &train, "rux");
    for (name, a, features) in [
        (
            "mirco",
            mirco.predict(&train).unwrap(),
            mirco.features().to_vec(),
        ),
        ("rux", rux.predict(&train).unwrap(), rux.features().to_vec()),
    ] {
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
    testing::assert_serde_round_trip(&mirco, &test, "mirco");
    testing::assert_serde_round_trip(&rux, &test, "rux");
    // A plain rule source: the model reads its training columns by name.
    let line = Dataset::new(
        "line",
        vec![Feature::numeric("x")],
        vec![vec![0.0, 1.0, 2.0, 3.0, 4.0, 5.0]],
        Target::Classes {
            labels: vec![0, 0, 0, 1, 1, 1],
            names: vec!["a".into(), "b".into()],
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
