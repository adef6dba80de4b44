//! The learners of two classes on four: fitted one-vs-rest through the
//! registry (one binary model per class), with normalised probabilities,
//! rules labelled with their class, exact model files, and two-class
//! data still going to the learner itself.

mod common;

use rc_glm::{GlrmModel, GlrmParams};
use rc_nre::{ConstantFeatures, NreModel, NreParams, StopOn, TrainParams};
use rulecover::{fit, methods, FittedModel};
use rulecover_core::{
    generate, Dataset, Fit, OneVsRestModel, Predict, Predictions, RuleModel, Schema,
};

use common::{bits, small, temp_dir};

/// A generated four-class problem: training and held-out rows.
fn four_classes() -> (Dataset, Dataset) {
    (
        generate::blobs(300, 4, 4, 21),
        generate::blobs(200, 4, 4, 22),
    )
}

/// The share of the most frequent class of `data`.
fn majority_rate(data: &Dataset) -> f64 {
    *data.class_counts().iter().max().unwrap() as f64 / data.n_rows() as f64
}

fn accuracy(pred: &Predictions, data: &Dataset) -> f64 {
    let labels = pred.labels().unwrap();
    let truth = data.labels().unwrap();
    labels.iter().zip(&truth).filter(|(p, t)| p == t).count() as f64 / truth.len() as f64
}

/// Every row's probabilities lie in [0, 1] and sum to 1.
fn assert_normalised(id: &str, pred: &Predictions, n_rows: usize) {
    let Predictions::Classes { n_classes, .. } = pred else {
        panic!("{id}: class probabilities expected")
    };
    assert_eq!(*n_classes, 4, "{id}");
    assert_eq!(pred.len(), n_rows, "{id}");
    for i in 0..n_rows {
        let row = pred.proba_row(i).unwrap();
        assert!(
            row.iter().all(|p| (0.0..=1.0).contains(p)),
            "{id} row {i}: {row:?}"
        );
        let sum: f64 = row.iter().sum();
        assert!((sum - 1.0).abs() <= 1e-12, "{id} row {i}: sum {sum}");
    }
}

/// Saves and loads `model`: the same predictions bit for bit, the same
/// rules and the same file.
fn assert_round_trip(id: &str, model: &FittedModel, test: &Dataset) {
    let dir = temp_dir(&format!("ovr-{id}"));
    let path = dir.join("model.json");
    model.save(&path).unwrap();
    let loaded = FittedModel::load(&path).unwrap_or_else(|e| panic!("{id}: {e}"));
    assert_eq!(loaded.kind(), id);
    assert_eq!(loaded.schema(), model.schema(), "{id}");
    assert_eq!(
        bits(&loaded.predict(test).unwrap()),
        bits(&model.predict(test).unwrap()),
        "{id}: predictions differ after loading"
    );
    assert_eq!(loaded.rule_set(), model.rule_set(), "{id}");
    assert_eq!(
        loaded.to_json().unwrap(),
        std::fs::read_to_string(&path).unwrap(),
        "{id}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Fits `id` on four classes and checks what the acceptance asks: the
/// training classes kept, probabilities summing to 1, held-out accuracy
/// above the majority rate, rules labelled with each class, and an exact
/// model file. Returns the held-out accuracy.
fn check_method(id: &str, params: &[(&str, &str)]) -> f64 {
    let (train, test) = four_classes();
    let model = fit(id, params, &train, None, 5).unwrap_or_else(|e| panic!("{id}: {e}"));
    assert_eq!(model.classes(), ["0", "1", "2", "3"], "{id}");
    assert_eq!(model.schema(), &Schema::of(&train), "{id}");
    assert!(
        model.model().one_vs_rest_classes().is_some(),
        "{id}: not one-vs-rest"
    );
    let pred = model.predict(&test).unwrap();
    assert_normalised(id, &pred, test.n_rows());
    let acc = accuracy(&pred, &test);
    let floor = majority_rate(&test);
    assert!(acc > floor, "{id}: accuracy {acc} <= majority rate {floor}");
    eprintln!("{id}: held-out accuracy {acc:.3} (majority rate {floor:.3})");

    match model.rule_set() {
        None => assert_eq!(id, "ann", "only the MLP has no rules"),
        Some(set) => {
            assert_eq!(set.class_names, ["0", "1", "2", "3"], "{id}");
            assert!(model.n_rules().unwrap() > 0, "{id}");
            assert!(set.rules.iter().all(|r| r.for_class.is_some()), "{id}");
            for k in 0..4 {
                assert!(
                    set.rules.iter().any(|r| r.for_class == Some(k)),
                    "{id}: no rule of class {k}"
                );
            }
            let text = set.to_string();
            assert!(
                text.lines().all(|l| l.starts_with("class ")),
                "{id}: {text}"
            );
            // Class by class, in class order.
            let order: Vec<usize> = set.rules.iter().filter_map(|r| r.for_class).collect();
            assert!(order.windows(2).all(|w| w[0] <= w[1]), "{id}: {order:?}");
        }
    }
    assert_round_trip(id, &model, &test);
    acc
}

#[test]
fn lrr_learns_four_classes() {
    let acc = check_method("lrr", &[("max_iterations", "5")]);
    assert!(acc > 0.8, "lrr: {acc}");
}

#[test]
fn nre_learns_four_classes() {
    let acc = check_method("nre", &[("max_depth", "3"), ("max_epochs", "5")]);
    assert!(acc > 0.8, "nre: {acc}");
}

#[test]
fn the_mlp_learns_four_classes() {
    check_method("ann", &[("hidden", "8"), ("max_epochs", "20")]);
}

#[test]
fn every_learner_of_two_classes_fits_four() {
    let ids: Vec<&str> = methods()
        .iter()
        .map(|m| m.spec())
        .filter(|m| m.one_vs_rest)
        .map(|m| m.id)
        .collect();
    assert_eq!(
        ids,
        [
            "lr1",
            "lrr",
            "lr1n",
            "lrrn",
            "linear-rule",
            "rulefit",
            "rulefit-n",
            "nre",
            "nre-deep",
            "ann"
        ]
    );
    for id in ids {
        if !["lrr", "nre", "ann"].contains(&id) {
            check_method(id, &small(id));
        }
    }
}

#[test]
fn each_class_has_its_own_seed_and_the_seed_decides_the_model() {
    let (train, _) = four_classes();
    let params = [("max_depth", "3"), ("max_epochs", "3")];
    let a = fit("nre", &params, &train, None, 8).unwrap();
    let b = fit("nre", &params, &train, None, 8).unwrap();
    assert_eq!(a.to_json().unwrap(), b.to_json().unwrap());
    let Some(ovr) = a.model().downcast_ref::<OneVsRestModel<NreModel>>() else {
        panic!("one-vs-rest expected")
    };
    // Class 2's binary model is the library's fit of class 2 against the
    // rest with the seed derived for class 2.
    let nre = NreParams::default()
        .max_depth(3)
        .train(TrainParams {
            max_epochs: 3,
            // NRE's default stopping rule (the registry's too).
            stop_on: StopOn::Brier,
            ..TrainParams::default()
        })
        .constant_features(ConstantFeatures::Ignore)
        .seed(rulecover_core::rng::derive_seed(8, 2));
    let labels = train.labels().unwrap();
    let class2 = train
        .with_target(rulecover_core::Target::Classes {
            labels: labels.iter().map(|&l| usize::from(l == 2)).collect(),
            names: vec!["not 2".into(), "2".into()],
        })
        .unwrap();
    let direct = nre.fit(&class2).unwrap();
    let ours = ovr.binary_model(2).unwrap();
    assert_eq!(ours.rule_set(), direct.rule_set());
    assert_eq!(
        bits(&ours.predict(&class2).unwrap()),
        bits(&direct.predict(&class2).unwrap())
    );
}

#[test]
fn sample_weights_reach_every_binary_model() {
    let (train, test) = four_classes();
    let params = [("max_iterations", "3")];
    let plain = fit("lrr", &params, &train, None, 1).unwrap();
    let ones = vec![1.0; train.n_rows()];
    let unit = fit("lrr", &params, &train, Some(&ones), 1).unwrap();
    assert_eq!(
        bits(&plain.predict(&test).unwrap()),
        bits(&unit.predict(&test).unwrap())
    );
    // Weight 0 on every row of class 3: class 3 is never predicted.
    let labels = train.labels().unwrap();
    let w: Vec<f64> = labels
        .iter()
        .map(|&l| if l == 3 { 0.0 } else { 1.0 })
        .collect();
    let model = fit("lrr", &params, &train, Some(&w), 1).unwrap();
    let pred = model.predict(&test).unwrap();
    assert_normalised("lrr", &pred, test.n_rows());
    assert!(pred.labels().unwrap().iter().all(|&l| l != 3));
    assert!(model
        .rule_set()
        .unwrap()
        .rules
        .iter()
        .all(|r| r.for_class != Some(3)));
}

#[test]
fn two_classes_go_to_the_learner_itself() {
    let train = generate::twonorm(150, 3);
    let test = generate::twonorm(60, 4);
    // LRR: the registry's default is the paper's preset with lambda0 =
    // auto (its inner folds seeded by the fit's seed).
    let model = fit::<&str, &str>("lrr", &[], &train, None, 7).unwrap();
    let Some(glrm) = model.model().downcast_ref::<GlrmModel>() else {
        panic!("the learner's own model expected")
    };
    // (Models hold their solve times, so compare what they compute.)
    let auto = rc_glm::AutoLambda {
        seed: 7,
        ..rc_glm::AutoLambda::default()
    };
    let direct = GlrmParams::lrr()
        .auto_lambda(Some(auto))
        .fit(&train)
        .unwrap();
    assert!(!glrm.info().lambda_search.as_ref().unwrap().fallback);
    assert_eq!(glrm.rule_set(), direct.rule_set());
    assert_eq!(
        bits(&model.predict(&test).unwrap()),
        bits(&direct.predict(&test).unwrap())
    );
    assert!(model
        .rule_set()
        .unwrap()
        .rules
        .iter()
        .all(|r| r.for_class.is_none()));
    assert!(!model.to_json().unwrap().contains("for_class"));
    // NRE with the registry's seed.
    let params = [("max_depth", "3"), ("max_epochs", "3")];
    let model = fit("nre", &params, &train, None, 7).unwrap();
    let Some(nre) = model.model().downcast_ref::<NreModel>() else {
        panic!("the learner's own model expected")
    };
    let direct = NreParams::default()
        .max_depth(3)
        .train(TrainParams {
            max_epochs: 3,
            // NRE's default stopping rule (the registry's too).
            stop_on: StopOn::Brier,
            ..TrainParams::default()
        })
        .constant_features(ConstantFeatures::Ignore)
        .seed(7)
        .fit(&train)
        .unwrap();
    assert_eq!(nre.rule_set(), direct.rule_set());
    assert_eq!(
        bits(&model.predict(&test).unwrap()),
        bits(&direct.predict(&test).unwrap())
    );
}

#[test]
fn a_tampered_file_with_other_classes_is_refused() {
    let (train, _) = four_classes();
    let model = fit("lr1", &small("lr1"), &train, None, 1).unwrap();
    let text = model.to_json().unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["schema"]["target"]["Classes"][3] = serde_json::Value::String("three".into());
    let e = FittedModel::from_json(&v.to_string()).unwrap_err();
    let message = e.to_string();
    assert!(
        message.contains("model") && message.contains("three"),
        "{message}"
    );
}
