//! RCBoost on generated data: the master objective never increases, the
//! pool starts with the unit-weight tree, the vote is the count-weighted
//! vote over the whole pool, and bad input is rejected.

use rc_colgen::{Candidates, Error, OracleError, PricingOracle, RcBoostParams, TreeOracle};
use rc_cover::RuleStats;
use rc_lp::MinilpSolver;
use rc_tree::DecisionTreeParams;
use rulecover_core::{generate, Dataset, Fit, Predict, RuleModel, RuleSource, Target};

fn data() -> Dataset {
    generate::twonorm(300, 11)
}

#[test]
fn objective_is_non_increasing_and_calls_are_solves_minus_one() {
    let d = data();
    let params = RcBoostParams::default().max_depth(3).max_rmp_calls(20);
    let model = params.fit(&d).unwrap();
    let obj = model.objectives();
    assert_eq!(obj.len(), model.lp_solves());
    assert!(obj.windows(2).all(|w| w[1] <= w[0] + 1e-7), "{obj:?}");
    assert_eq!(model.rmp_calls(), model.lp_solves() - 1);
    // The pool starts with the leaves of the unit-weight tree.
    let first = DecisionTreeParams::classifier()
        .max_depth(3)
        .fit_weighted(&d, &vec![1.0; d.n_rows()])
        .unwrap();
    let leaves: Vec<_> = first.rule_pool().into_iter().map(|p| p.rule).collect();
    assert_eq!(&model.rules()[..leaves.len()], &leaves[..]);
    assert!(model.n_rules() >= leaves.len());
}

#[test]
fn cap_limits_lp_solves() {
    let d = data();
    let model = RcBoostParams::default()
        .max_depth(2)
        .max_rmp_calls(1)
        .fit(&d)
        .unwrap();
    assert_eq!(model.lp_solves(), 1);
    assert_eq!(model.rmp_calls(), 0);
}

#[test]
fn prediction_is_the_count_vote_of_the_whole_pool() {
    let d = data();
    let model = RcBoostParams::default()
        .max_depth(3)
        .max_rmp_calls(5)
        .fit(&d)
        .unwrap();
    let labels = model.predict(&d).unwrap().labels().unwrap();
    for (i, &label) in labels.iter().enumerate() {
        let row = d.row(i);
        let mut votes = [0.0; 2];
        for (r, s) in model.rules().iter().zip(model.stats()) {
            if r.covers_row(&row) {
                let RuleStats::Counts(c) = s else {
                    panic!("class counts expected")
                };
                votes[0] += c[0];
                votes[1] += c[1];
            }
        }
        assert_eq!(label, usize::from(votes[1] > votes[0]), "row {i}");
    }
    // Serialisation keeps predictions.
    let json = serde_json::to_string(&model).unwrap();
    let back: rc_colgen::RcBoostModel = serde_json::from_str(&json).unwrap();
    assert_eq!(back.predict(&d).unwrap(), model.predict(&d).unwrap());
}

#[test]
fn mirco_shrinks_the_final_pool_to_a_cover() {
    let d = data();
    let model = RcBoostParams::default()
        .max_depth(3)
        .max_rmp_calls(10)
        .fit(&d)
        .unwrap();
    let shrunk = model
        .shrink_with_mirco(&d, &rc_cover::MircoParams::default())
        .unwrap();
    assert!(shrunk.n_rules() <= model.n_rules());
    let (_, missed) = shrunk.predict_with_missed(&d).unwrap();
    assert!(missed.iter().all(|m| !m));
}

#[test]
fn same_seed_same_model() {
    let d = data();
    let p = RcBoostParams::default()
        .max_depth(4)
        .max_rmp_calls(8)
        .seed(3);
    assert_eq!(p.fit(&d).unwrap(), p.fit(&d).unwrap());
}

/// An oracle that fails on its second call.
struct Failing(TreeOracle);

impl PricingOracle for Failing {
    fn propose(
        &mut self,
        train: &Dataset,
        weights: &[f64],
        round: usize,
    ) -> Result<Candidates, OracleError> {
        if round > 0 {
            return Err("pricing broke".into());
        }
        self.0.propose(train, weights, round)
    }
}

#[test]
fn bad_input_gives_typed_errors() {
    let d = data();
    assert!(matches!(
        RcBoostParams::default().max_rmp_calls(0).fit(&d),
        Err(Error::InvalidParameter { .. })
    ));
    let reg = d.with_target(Target::Real(vec![1.0; d.n_rows()])).unwrap();
    assert!(matches!(
        RcBoostParams::default().fit(&reg),
        Err(Error::Data(_))
    ));
    let mut failing = Failing(TreeOracle::new(
        DecisionTreeParams::classifier().max_depth(2),
    ));
    let err = RcBoostParams::default()
        .fit_with(&d, None, &mut failing, &MinilpSolver::new())
        .unwrap_err();
    assert!(matches!(err, Error::Oracle { round: 1, .. }), "{err}");
}

/// One run with the largest cap gives, for every smaller cap, exactly the
/// model a separate fit with that cap returns (what the xtask grid relies on).
#[test]
fn fit_path_equals_separate_fits() {
    let d = data();
    let params = RcBoostParams::default().max_depth(4).seed(3);
    let caps = [1, 2, 5, 10, 40];
    let solver = MinilpSolver::new();
    let path = params
        .fit_path_with(
            &d,
            &mut TreeOracle::new(params.tree_params()),
            &solver,
            &caps,
        )
        .unwrap();
    assert_eq!(path.len(), caps.len());
    for (&cap, from_path) in caps.iter().zip(&path) {
        let p = params.clone().max_rmp_calls(cap);
        let alone = p
            .fit_with(&d, None, &mut TreeOracle::new(p.tree_params()), &solver)
            .unwrap();
        assert_eq!(&alone, from_path, "cap {cap}");
    }
    assert!(path[0].lp_solves() == 1 && path[0].n_rules() < path[4].n_rules());
    assert!(matches!(
        params.fit_path(&d, &[0, 5]),
        Err(Error::InvalidParameter { .. })
    ));
}
