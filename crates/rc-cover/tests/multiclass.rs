//! RUX with more than two classes: the frequency vote
//! (`MulticlassVote::Frequencies`, the registry's rux-rf default) brings
//! RUX-RF's held-out accuracy on five generated classes close to the
//! forest it selects from, above the paper's label vote; class copies of
//! the pool rules help the label vote.

use rc_cover::{MulticlassVote, RuleProba, RuxParams, SelectFrom, WeightedRuleModel};
use rc_tree::{RandomForest, RandomForestParams};
use rulecover_core::generate::blobs;
use rulecover_core::metrics::accuracy;
use rulecover_core::testing::split_thirds;
use rulecover_core::{Dataset, Fit, Predict};

fn accuracy_on<M: Predict>(model: &M, test: &Dataset) -> f64
where
    M::Error: std::fmt::Debug,
{
    let labels = model.predict(test).unwrap().labels().unwrap();
    accuracy(&test.labels().unwrap(), &labels).unwrap()
}

#[test]
fn the_frequency_vote_tracks_the_forest() {
    let (train, test) = split_thirds(&blobs(3000, 5, 4, 31));
    let forest: RandomForest = RandomForestParams::classifier()
        .n_estimators(50)
        .max_depth(2)
        .seed(31)
        .fit(&train)
        .unwrap();
    let select = |copies: bool, vote: MulticlassVote| -> f64 {
        let model: WeightedRuleModel = RuxParams::for_forest()
            .proba(RuleProba::Calibrated)
            .class_copies(copies)
            .multiclass_vote(vote)
            .fit_from(&forest, &train)
            .unwrap();
        assert_eq!(model.multiclass_vote(), vote);
        accuracy_on(&model, &test)
    };
    let forest_accuracy = accuracy_on(&forest, &test);
    let label = select(false, MulticlassVote::Label);
    let label_copies = select(true, MulticlassVote::Label);
    let frequencies = select(false, MulticlassVote::Frequencies);
    assert!(label_copies > label, "{label_copies} vs {label}");
    assert!(
        frequencies > label_copies,
        "{frequencies} vs {label_copies}"
    );
    assert!(
        frequencies >= forest_accuracy - 0.03,
        "{frequencies} vs the forest's {forest_accuracy}"
    );
}
