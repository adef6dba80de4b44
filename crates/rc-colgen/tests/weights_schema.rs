//! RCBoost and RUG: sample weights (replication semantics), the encoder
//! inside the models, missing values, oracle shapes, parameter checks,
//! recorded coverage and serialization (the contract shared by every
//! learner is `rulecover_core::testing`'s).

use rc_colgen::{
    Candidates, Error, OracleError, PricingOracle, RcBoostModel, RcBoostParams, RugModel,
    RugParams, TreeOracle,
};
use rc_lp::MinilpSolver;
use rc_tree::DecisionTreeParams;
use rulecover_core::testing::{self, Agreement};
use rulecover_core::{
    generate, CoverageMatrix, Dataset, Fit, Fitted, Predict, RuleModel, RuleSource, Target,
};

fn integer_weights(n: usize) -> Vec<f64> {
    (0..n)
        .map(|i| [1.0, 2.0, 0.0, 3.0, 1.0, 1.0, 4.0][i % 7])
        .collect()
}

/// RCBoost with the weighted-tree oracle and minilp, as a
/// [`testing::Fitter`].
fn rcboost(p: &RcBoostParams) -> impl testing::Fitter<Model = RcBoostModel> + '_ {
    testing::fit_fn(move |d: &Dataset, w: Option<&[f64]>| {
        p.fit_with(
            d,
            w,
            &mut TreeOracle::new(p.tree_params()),
            &MinilpSolver::new(),
        )
    })
}

/// RUG with the weighted-tree oracle and minilp, as a
/// [`testing::Fitter`].
fn rug(p: &RugParams) -> impl testing::Fitter<Model = RugModel> + '_ {
    testing::fit_fn(move |d: &Dataset, w: Option<&[f64]>| {
        p.fit_with(
            d,
            w,
            &mut TreeOracle::new(p.tree_params()),
            &MinilpSolver::new(),
        )
    })
}

#[test]
fn rcboost_integer_weights_equal_duplicated_rows() {
    let train = generate::twonorm(120, 1);
    let test = generate::twonorm(200, 2);
    let p = RcBoostParams::default().max_depth(2).max_rmp_calls(5);
    let w = integer_weights(train.n_rows());
    let (weighted, dup) = testing::assert_integer_weights_equal_duplicated_rows(
        rcboost(&p),
        &train,
        &w,
        &test,
        Agreement::Exact,
        "rcboost",
    );
    assert_eq!(weighted.rules(), dup.rules());
    assert_eq!(weighted.stats(), dup.stats());
    assert_eq!(weighted.rule_set(), dup.rule_set());
    let (plain, ones) = testing::assert_unit_weights_equal_unweighted(
        rcboost(&p),
        &train,
        &test,
        Agreement::Exact,
        "rcboost",
    );
    assert_eq!(plain, ones);
    assert_ne!(plain.stats(), weighted.stats());
}

#[test]
fn rug_integer_weights_equal_duplicated_rows() {
    let train = generate::twonorm(120, 3);
    let test = generate::twonorm(200, 4);
    let p = RugParams::default().max_depth(2).max_rmp_calls(5);
    let w = integer_weights(train.n_rows());
    let (weighted, dup) = testing::assert_integer_weights_equal_duplicated_rows(
        rug(&p),
        &train,
        &w,
        &test,
        Agreement::Exact,
        "rug",
    );
    assert_eq!(weighted.rules().rules(), dup.rules().rules());
    assert_eq!(weighted.rule_set(), dup.rule_set());
    let (plain, ones) = testing::assert_unit_weights_equal_unweighted(
        rug(&p),
        &train,
        &test,
        Agreement::Exact,
        "rug",
    );
    assert_eq!(plain.rules().rules(), ones.rules().rules());
    assert_eq!(plain.final_duals(), ones.final_duals());
    assert_ne!(plain.rules().rules(), weighted.rules().rules());
}

#[test]
fn models_read_raw_categorical_data_by_name() {
    let train = testing::red_or_large(300);
    let other = testing::reordered_columns(&train);
    let rcb = RcBoostParams::default()
        .max_depth(3)
        .max_rmp_calls(5)
        .fit(&train)
        .unwrap();
    let rug = RugParams::default().max_depth(2).fit(&train).unwrap();
    testing::assert_columns_read_by_name(&rcb, &train, "rcboost");
    testing::assert_columns_read_by_name(&rug, &train, "rug");
    for (name, features) in [
        ("rcboost", rcb.features().to_vec()),
        ("rug", rug.rules().features().to_vec()),
    ] {
        let names: Vec<&str> = features.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(
            names,
            ["x", "color=blue", "color=red", "color=green"],
            "{name}"
        );
    }
    assert_eq!(rcb.feature_names(), ["x", "color"]);
    assert_eq!(rug.classes(), ["no", "yes"]);
    let truth = train.labels().unwrap();
    let acc = |p: Vec<usize>| p.iter().zip(&truth).filter(|(a, b)| a == b).count();
    assert!(acc(rcb.predict(&other).unwrap().labels().unwrap()) > 270);
    assert!(acc(rug.predict(&other).unwrap().labels().unwrap()) > 270);
    // Drop-first one-hot through the setter.
    let dropped = RugParams::default()
        .encoding(rulecover_core::Encoding::OneHot { drop_first: true })
        .fit(&train)
        .unwrap();
    assert_eq!(dropped.rules().features().len(), 3);
}

#[test]
fn missing_values_at_predict_are_typed_errors() {
    let train = generate::twonorm(100, 5);
    let rcb = RcBoostParams::default()
        .max_depth(2)
        .max_rmp_calls(3)
        .fit(&train)
        .unwrap();
    let rug = RugParams::default().max_rmp_calls(3).fit(&train).unwrap();
    let mut cols: Vec<Vec<f64>> = (0..train.n_features())
        .map(|j| train.column(j).to_vec())
        .collect();
    cols[2][7] = f64::NAN;
    let holed = Dataset::new("holed", train.features().to_vec(), cols, Target::None).unwrap();
    for e in [
        rcb.predict(&holed).unwrap_err(),
        rug.predict(&holed).unwrap_err(),
    ] {
        assert!(
            matches!(&e, Error::Cover(rc_cover::Error::MissingValue { feature, row: 7 }) if feature == "x2"),
            "{e}"
        );
    }
}

/// An oracle whose candidates are cut short: `drop_rules` rules fewer than
/// coverage columns, or coverage of `drop_rows` fewer rows.
struct Bad {
    tree: TreeOracle,
    drop_rules: usize,
    drop_rows: usize,
}

impl PricingOracle for Bad {
    fn propose(
        &mut self,
        train: &Dataset,
        weights: &[f64],
        _round: usize,
    ) -> Result<Candidates, OracleError> {
        let tree = self.tree.params.fit_weighted(train, weights)?;
        let mut rules = tree.rule_pool();
        let coverage = tree.pool_coverage(train)?;
        rules.truncate(rules.len() - self.drop_rules);
        let n = coverage.n_rows() - self.drop_rows;
        let cols = (0..coverage.n_rules())
            .map(|j| {
                coverage
                    .rows_of(j)
                    .iter()
                    .copied()
                    .filter(|&i| (i as usize) < n)
                    .collect()
            })
            .collect();
        Ok(Candidates::new(
            rules,
            CoverageMatrix::from_columns(n, cols),
        )?)
    }
}

#[test]
fn inconsistent_candidates_are_errors_not_panics() {
    let train = generate::twonorm(80, 6);
    let solver = MinilpSolver::new();
    for (drop_rules, drop_rows) in [(1, 0), (0, 3)] {
        let bad = || Bad {
            tree: TreeOracle::new(DecisionTreeParams::classifier().max_depth(2)),
            drop_rules,
            drop_rows,
        };
        let rug = RugParams::default().fit_with(&train, None, &mut bad(), &solver);
        let rcb = RcBoostParams::default().fit_with(&train, None, &mut bad(), &solver);
        for err in [rug.unwrap_err(), rcb.unwrap_err()] {
            if drop_rules > 0 {
                assert!(
                    matches!(&err, Error::Oracle { round: 0, message } if message.contains("coverage columns")),
                    "{err}"
                );
            } else {
                assert!(
                    matches!(&err, Error::CandidateShape { round: 0, message } if message.contains("77 rows")),
                    "{err}"
                );
            }
        }
    }
    assert!(Candidates::new(vec![], CoverageMatrix::from_columns(3, vec![vec![0]])).is_err());
}

#[test]
fn zero_caps_and_depths_are_typed_errors_at_fit() {
    let d = generate::twonorm(40, 7);
    let bad = |e: Error, param: &str| {
        assert!(
            matches!(&e, Error::InvalidParameter { name, .. } if *name == param),
            "{e}"
        )
    };
    bad(
        RcBoostParams::default()
            .max_rmp_calls(0)
            .fit(&d)
            .unwrap_err(),
        "max_rmp_calls",
    );
    bad(
        RugParams::default().max_rmp_calls(0).fit(&d).unwrap_err(),
        "max_rmp_calls",
    );
    bad(
        RcBoostParams::default().max_depth(0).fit(&d).unwrap_err(),
        "max_depth",
    );
    bad(
        RugParams::default().max_depth(0).fit(&d).unwrap_err(),
        "max_depth",
    );
    let w = vec![1.0; d.n_rows()];
    bad(
        RugParams::default()
            .max_rmp_calls(0)
            .fit_weighted(&d, &w)
            .unwrap_err(),
        "max_rmp_calls",
    );
    bad(
        RcBoostParams::default()
            .max_rmp_calls(0)
            .fit_weighted(&d, &w)
            .unwrap_err(),
        "max_rmp_calls",
    );
}

#[test]
fn rule_sets_record_training_coverage() {
    let train = generate::twonorm(150, 8);
    let rcb = RcBoostParams::default()
        .max_depth(3)
        .max_rmp_calls(4)
        .fit(&train)
        .unwrap();
    let rug = RugParams::default().max_rmp_calls(4).fit(&train).unwrap();
    for set in [rcb.rule_set(), rug.rule_set()] {
        assert!(!set.rules.is_empty());
        for r in &set.rules {
            let rule = r.antecedent.as_conjunction().unwrap();
            assert_eq!(r.coverage, rule.coverage(&train).count());
        }
    }
}

#[test]
fn serialized_models_predict_bit_identically() {
    let train = generate::twonorm(150, 9);
    let test = generate::twonorm(150, 10);
    let rcb = RcBoostParams::default()
        .max_depth(3)
        .max_rmp_calls(4)
        .fit(&train)
        .unwrap();
    let rug = RugParams::default().max_rmp_calls(4).fit(&train).unwrap();
    testing::assert_serde_round_trip(&rcb, &test, "rcboost");
    testing::assert_serde_round_trip(&rug, &test, "rug");
}
