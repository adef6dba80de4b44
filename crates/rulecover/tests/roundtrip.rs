//! Every tabular method: fit by id, save through the model file, load, and
//! predict bit for bit as before, with the same rules.

mod common;

use rulecover::{fit, methods, FittedModel, Task};
use rulecover_core::Dataset;

use common::{binary, bits, regression, small, temp_dir};

/// Fits `id` on `data`, saves, loads, and checks that everything came
/// back exactly.
fn round_trip(id: &str, data: &Dataset, test: &Dataset) {
    let model = fit(id, &small(id), data, None, 5).unwrap_or_else(|e| panic!("{id}: {e}"));
    assert_eq!(model.kind(), id);
    assert_eq!(model.seed(), 5);
    for (k, v) in small(id) {
        assert_eq!(model.params()[k], v, "{id}: {k} is recorded as given");
    }
    assert_eq!(
        model.params().len(),
        model.spec().params.len(),
        "{id}: every parameter is recorded"
    );

    let dir = temp_dir(id);
    let path = dir.join("model.json");
    model
        .save(&path)
        .unwrap_or_else(|e| panic!("{id}: save: {e}"));
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        leftovers,
        vec![std::ffi::OsString::from("model.json")],
        "{id}"
    );

    let loaded = FittedModel::load(&path).unwrap_or_else(|e| panic!("{id}: load: {e}"));
    assert_eq!(loaded.kind(), id);
    assert_eq!(loaded.schema(), model.schema(), "{id}");
    assert_eq!(loaded.params(), model.params(), "{id}");
    assert_eq!(loaded.seed(), model.seed());

    let before = model.predict(test).unwrap_or_else(|e| panic!("{id}: {e}"));
    let after = loaded.predict(test).unwrap_or_else(|e| panic!("{id}: {e}"));
    assert_eq!(before.len(), test.n_rows());
    assert_eq!(bits(&before), bits(&after), "{id}: predictions differ");

    assert_eq!(
        loaded.rule_set(),
        model.rule_set(),
        "{id}: rule sets differ"
    );
    assert_eq!(loaded.n_rules(), model.n_rules(), "{id}");
    if id == "ann" {
        assert!(model.rule_set().is_none());
    } else {
        assert!(model.n_rules().unwrap_or(0) > 0, "{id}: no rules");
    }
    // Writing the loaded model gives the same file, byte for byte.
    assert_eq!(
        loaded.to_json().unwrap(),
        std::fs::read_to_string(&path).unwrap(),
        "{id}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_tabular_method_round_trips_on_two_classes() {
    let train = binary();
    let test = rulecover_core::generate::twonorm(40, 4);
    let mut n = 0;
    for m in methods()
        .iter()
        .map(|m| m.spec())
        .filter(|m| m.tasks.contains(&Task::Binary))
    {
        round_trip(m.id, &train, &test);
        n += 1;
    }
    assert_eq!(n, 21, "every tabular method learns two classes");
}

#[test]
fn every_regression_method_round_trips_on_a_real_target() {
    let data = regression();
    let idx: Vec<usize> = (0..data.n_rows()).collect();
    let (train, test) = (
        data.subset(&idx[..90]).unwrap(),
        data.subset(&idx[90..]).unwrap(),
    );
    let ids: Vec<&str> = methods()
        .iter()
        .map(|m| m.spec())
        .filter(|m| m.tasks.contains(&Task::Regression))
        .map(|m| m.id)
        .collect();
    assert_eq!(
        ids,
        [
            "dt",
            "rf",
            "gb",
            "mirco",
            "lr1",
            "lrr",
            "lr1n",
            "lrrn",
            "linear-rule",
            "rulefit",
            "rulefit-n",
            "gbt"
        ]
    );
    for id in ids {
        round_trip(id, &train, &test);
    }
}

#[test]
fn prediction_reads_columns_by_name() {
    let train = binary();
    let model = fit("dt", &[("max_depth", "3")], &train, None, 1).unwrap();
    // The same rows with the columns in reverse order and no target.
    let n = train.n_features();
    let features: Vec<_> = train.features().iter().rev().cloned().collect();
    let columns: Vec<Vec<f64>> = (0..n).rev().map(|j| train.column(j).into_owned()).collect();
    let reversed =
        Dataset::new("reversed", features, columns, rulecover_core::Target::None).unwrap();
    assert_eq!(
        bits(&model.predict(&reversed).unwrap()),
        bits(&model.predict(&train).unwrap())
    );
}

#[test]
fn the_same_seed_gives_the_same_model_file() {
    let train = binary();
    let a = fit("rf", &small("rf"), &train, None, 9).unwrap();
    let b = fit("rf", &small("rf"), &train, None, 9).unwrap();
    assert_eq!(a.to_json().unwrap(), b.to_json().unwrap());
    let c = fit("rf", &small("rf"), &train, None, 10).unwrap();
    assert_ne!(a.to_json().unwrap(), c.to_json().unwrap());
}

#[test]
fn unit_weights_fit_as_no_weights() {
    // Weights replicate rows, so only weights of 1 must give the unweighted
    // model for every learner (a uniform 2 doubles RUX's slack costs
    // against the rule costs, as duplicating every row would).
    let train = binary();
    let w = vec![1.0; train.n_rows()];
    for m in methods()
        .iter()
        .map(|m| m.spec())
        .filter(|m| m.tasks.contains(&Task::Binary))
    {
        let id = m.id;
        let plain = fit(id, &small(id), &train, None, 3).unwrap();
        let weighted = fit(id, &small(id), &train, Some(&w), 3).unwrap();
        // (The files differ in the recorded solve times.)
        assert_eq!(plain.rule_set(), weighted.rule_set(), "{id}");
        assert_eq!(
            bits(&plain.predict(&train).unwrap()),
            bits(&weighted.predict(&train).unwrap()),
            "{id}"
        );
    }
}

#[test]
fn the_envelope_has_the_documented_fields() {
    let train = binary();
    let model = fit("rug-t", &small("rug-t"), &train, None, 2).unwrap();
    let v: serde_json::Value = serde_json::from_str(&model.to_json().unwrap()).unwrap();
    assert_eq!(v["format_version"], 1);
    assert_eq!(v["kind"], "rug-t");
    assert_eq!(v["seed"], 2);
    assert_eq!(v["params"]["max_rmp_calls"], "5");
    assert_eq!(v["params"]["min_weight"], "0.05");
    assert_eq!(v["schema"]["features"].as_array().unwrap().len(), 20);
    assert!(v["model"].is_object());
}
