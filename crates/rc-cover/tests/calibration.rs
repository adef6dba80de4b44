//! Calibrated probabilities (`RuleProba::Calibrated`) on held-out rows of
//! generated imbalanced data: MIRCO's smoothed counts and RUX's softmax of
//! the weighted vote score a log-loss below the paper's vote and below
//! always predicting the training class shares, keep the vote's ranking
//! (RUX: the same AUC), and label about as accurately.

use rc_cover::{MircoModel, MircoParams, RuleProba, RuxParams, WeightedRuleModel};
use rc_tree::RandomForestParams;
use rulecover_core::generate::{ringnorm, with_majority};
use rulecover_core::metrics::{evaluate, Metrics};
use rulecover_core::testing::split_thirds;
use rulecover_core::{Dataset, Fit, Predict, ZeroR};

/// 85/15 ringnorm, split into 2/3 training and 1/3 held-out rows.
fn split() -> (Dataset, Dataset) {
    split_thirds(&with_majority(&ringnorm(3000, 11), 0.85, 11).unwrap())
}

fn scores<M: Predict>(model: &M, test: &Dataset) -> Metrics
where
    M::Error: std::fmt::Debug,
{
    evaluate(&test.target_view(), &model.predict(test).unwrap()).unwrap()
}

/// Log-loss of predicting the training class shares for every test row
/// (ZeroR's).
fn prior_log_loss(train: &Dataset, test: &Dataset) -> f64 {
    scores(&ZeroR.fit(train).unwrap(), test).log_loss.unwrap()
}

#[test]
fn rux_calibrated_beats_the_vote_and_the_prior() {
    let (train, test) = split();
    let fit =
        |proba| -> WeightedRuleModel { RuxParams::for_forest().proba(proba).fit(&train).unwrap() };
    let (vote, calibrated) = (fit(RuleProba::Vote), fit(RuleProba::Calibrated));
    // The same rules: calibration only maps the vote.
    assert_eq!(vote.rules(), calibrated.rules());
    let (v, c) = (scores(&vote, &test), scores(&calibrated, &test));
    let prior = prior_log_loss(&train, &test);
    let (v_loss, c_loss) = (v.log_loss.unwrap(), c.log_loss.unwrap());
    assert!(c_loss < v_loss, "calibrated {c_loss} vs vote {v_loss}");
    assert!(c_loss < prior, "calibrated {c_loss} vs prior {prior}");
    // Two classes: a monotone map of the vote keeps its ranking.
    assert!((v.auc_roc.unwrap() - c.auc_roc.unwrap()).abs() < 1e-9);
    assert!(c.accuracy.unwrap() >= v.accuracy.unwrap() - 0.01);
}

#[test]
fn mirco_smoothed_counts_beat_the_vote_and_the_prior() {
    let (train, test) = split();
    let fit = |proba| -> MircoModel {
        MircoParams::default()
            .forest(RandomForestParams::classifier().n_estimators(30).seed(3))
            .proba(proba)
            .fit(&train)
            .unwrap()
    };
    let (vote, smoothed) = (fit(RuleProba::Vote), fit(RuleProba::Calibrated));
    let s = smoothed.smoothing().unwrap();
    assert!(s.strength > 0.0 && s.loo_log_loss.is_finite());
    let (v, c) = (scores(&vote, &test), scores(&smoothed, &test));
    let prior = prior_log_loss(&train, &test);
    let (v_loss, c_loss) = (v.log_loss.unwrap(), c.log_loss.unwrap());
    assert!(c_loss <= v_loss, "smoothed {c_loss} vs vote {v_loss}");
    assert!(c_loss < prior, "smoothed {c_loss} vs prior {prior}");
    assert!(c.accuracy.unwrap() >= v.accuracy.unwrap() - 0.01);
}
