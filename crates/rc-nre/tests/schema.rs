//! The models carry their input encoding: raw categorical columns are
//! one-hot encoded at fit, new data is read by column name, and a saved
//! model predicts bit-identically after a JSON round trip.

use rc_nre::{Error, MlpModel, MlpParams, NreModel, NreParams, TrainParams};
use rulecover_core::generate::tictactoe;
use rulecover_core::{Dataset, Encoding, Feature, Fit, Fitted, Predict, RuleModel, Target};

fn s(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

/// 240 rows: a numeric `x`, a categorical `colour` (red, green, blue) and a
/// label that depends on both.
fn mixed() -> Dataset {
    let n = 240;
    let x: Vec<f64> = (0..n).map(|i| ((i * 37) % 101) as f64 / 10.0).collect();
    let colour: Vec<f64> = (0..n).map(|i| ((i * 7) % 3) as f64).collect();
    let labels: Vec<usize> = (0..n)
        .map(|i| usize::from((colour[i] == 1.0) != (x[i] > 5.0)))
        .collect();
    Dataset::new(
        "mixed",
        vec![
            Feature::numeric("x"),
            Feature::categorical("colour", s(&["red", "green", "blue"])),
        ],
        vec![x, colour],
        Target::Classes {
            labels,
            names: s(&["no", "yes"]),
        },
    )
    .unwrap()
}

/// The rows of `mixed()` with the columns swapped, an extra column, the
/// levels listed in another order and no target.
fn shuffled_columns(data: &Dataset) -> Dataset {
    // New level order: blue, red, green.
    let recode = [1.0, 2.0, 0.0];
    let colour: Vec<f64> = data.column(1).iter().map(|&c| recode[c as usize]).collect();
    Dataset::new(
        "new",
        vec![
            Feature::categorical("colour", s(&["blue", "red", "green"])),
            Feature::numeric("unused"),
            Feature::numeric("x"),
        ],
        vec![
            colour,
            vec![f64::NAN; data.n_rows()],
            data.column(0).to_vec(),
        ],
        Target::None,
    )
    .unwrap()
}

fn nre() -> NreParams {
    NreParams::default().max_depth(3).max_epochs(25).seed(4)
}

fn mlp() -> MlpParams {
    MlpParams::default()
        .hidden(8)
        .train(TrainParams::default().max_epochs(25))
        .seed(4)
}

fn bits(v: Vec<f64>) -> Vec<u64> {
    v.into_iter().map(f64::to_bits).collect()
}

#[test]
fn raw_categories_are_one_hot_encoded_as_by_hand() {
    let data = mixed();
    let by_hand = data.one_hot(false).unwrap();
    for deep in [false, true] {
        let raw = nre().deep(deep).fit(&data).unwrap();
        let encoded = nre().deep(deep).fit(&by_hand).unwrap();
        assert_eq!(raw.network(), encoded.network());
        assert_eq!(
            raw.features()
                .iter()
                .map(|f| f.name.as_str())
                .collect::<Vec<_>>(),
            ["x", "colour=red", "colour=green", "colour=blue"]
        );
        // The schema is the raw one; the rules refer to the indicators.
        assert_eq!(raw.feature_names(), ["x", "colour"]);
        assert_eq!(raw.classes(), ["no", "yes"]);
        assert_eq!(raw.rule_set().features, raw.features());
        // Raw data, encoded data, and raw data with shuffled columns and
        // levels all predict the same.
        let p = bits(raw.predict_proba(&data).unwrap());
        assert_eq!(p, bits(raw.predict_proba(&by_hand).unwrap()));
        assert_eq!(
            p,
            bits(raw.predict_proba(&shuffled_columns(&data)).unwrap())
        );
        assert_eq!(p, bits(encoded.predict_proba(&by_hand).unwrap()));
        assert_eq!(
            raw.decision_function(&data).unwrap(),
            raw.decision_function(&shuffled_columns(&data)).unwrap()
        );
    }
    let raw = mlp().fit(&data).unwrap();
    let encoded = mlp().fit(&by_hand).unwrap();
    assert_eq!(raw.network(), encoded.network());
    assert_eq!(raw.feature_names(), ["x", "colour"]);
    let p = bits(raw.predict_proba(&data).unwrap());
    assert_eq!(
        p,
        bits(raw.predict_proba(&shuffled_columns(&data)).unwrap())
    );
}

#[test]
fn encoding_is_a_parameter() {
    let data = mixed();
    let model = nre()
        .encoding(Encoding::OneHot { drop_first: true })
        .fit(&data)
        .unwrap();
    let names: Vec<&str> = model.features().iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["x", "colour=green", "colour=blue"]);
    let m = mlp()
        .encoding(Encoding::OneHot { drop_first: true })
        .fit(&data)
        .unwrap();
    assert_eq!(m.features().len(), 3);
    assert_eq!(
        m.encoder().encoding(),
        Encoding::OneHot { drop_first: true }
    );
}

#[test]
fn new_data_errors_name_the_column_and_level() {
    let data = mixed();
    let model = nre().fit(&data).unwrap();
    let purple = Dataset::new(
        "new",
        vec![
            Feature::numeric("x"),
            Feature::categorical("colour", s(&["red", "purple"])),
        ],
        vec![vec![1.0, 2.0], vec![0.0, 1.0]],
        Target::None,
    )
    .unwrap();
    let e = model.predict(&purple).unwrap_err();
    assert!(
        matches!(&e, Error::Core(rulecover_core::Error::UnseenLevel { column, level, row: 2, .. })
            if column == "colour" && level == "purple"),
        "{e}"
    );
    let no_x = Dataset::new(
        "new",
        vec![Feature::categorical("colour", s(&["red"]))],
        vec![vec![0.0]],
        Target::None,
    )
    .unwrap();
    let m = mlp().fit(&data).unwrap();
    for e in [
        model.predict(&no_x).unwrap_err(),
        m.predict(&no_x).unwrap_err(),
    ] {
        assert!(
            matches!(&e, Error::Core(rulecover_core::Error::MissingColumn { column, .. }) if column == "x"),
            "{e}"
        );
    }
}

#[test]
fn missing_numeric_values_at_predict_name_column_and_row() {
    let data = mixed();
    let model = nre().fit(&data).unwrap();
    assert!(model.inputs().contains(&0), "the tree splits on x");
    let mut x = data.column(0).to_vec();
    x[7] = f64::NAN;
    let test = Dataset::new(
        "test",
        data.features().to_vec(),
        vec![x, data.column(1).to_vec()],
        Target::None,
    )
    .unwrap();
    let m = mlp().fit(&data).unwrap();
    for e in [
        model.predict(&test).unwrap_err(),
        m.predict(&test).unwrap_err(),
        model.supports(&test).unwrap_err(),
        model.rule_coverage(&test).unwrap_err(),
        model.predict_positive(&test).unwrap_err(),
    ] {
        assert!(
            matches!(&e, Error::NonFinite { feature, row: 7, .. } if feature == "x"),
            "{e}"
        );
    }
}

#[test]
fn models_round_trip_through_json_bit_identically() {
    let board = tictactoe();
    for data in [mixed(), board] {
        for deep in [false, true] {
            let model = nre().deep(deep).fit(&data).unwrap();
            let json = serde_json::to_string(&model).unwrap();
            let back: NreModel = serde_json::from_str(&json).unwrap();
            assert_eq!(back, model);
            assert_eq!(back.encoder(), model.encoder());
            assert_eq!(
                bits(back.predict_proba(&data).unwrap()),
                bits(model.predict_proba(&data).unwrap())
            );
            assert_eq!(back.rule_set(), model.rule_set());
        }
        let model = mlp().fit(&data).unwrap();
        let back: MlpModel = serde_json::from_str(&serde_json::to_string(&model).unwrap()).unwrap();
        assert_eq!(back, model);
        assert_eq!(
            bits(back.predict_proba(&data).unwrap()),
            bits(model.predict_proba(&data).unwrap())
        );
    }
}

#[test]
fn proba_is_n_by_two_in_class_order() {
    let data = mixed();
    let model = nre().fit(&data).unwrap();
    let positive = model.predict_positive(&data).unwrap();
    let pred = model.predict(&data).unwrap();
    assert_eq!(pred.len(), data.n_rows());
    assert_eq!(pred.positive_proba().unwrap(), positive);
    for (i, p) in positive.iter().enumerate() {
        assert_eq!(pred.proba_row(i).unwrap(), [1.0 - p, *p]);
    }
    // Class 1 exactly when the score is positive (or, for a row no rule
    // covers, when the prior says so).
    let f = model.decision_function(&data).unwrap();
    let labels = pred.labels().unwrap();
    for (i, (&fi, &l)) in f.iter().zip(&labels).enumerate() {
        if fi != 0.0 {
            assert_eq!(l, usize::from(fi > 0.0), "row {i}");
        }
    }
    let m = mlp().fit(&data).unwrap();
    let p = m.predict_positive(&data).unwrap();
    let f = m.decision_function(&data).unwrap();
    for (&pi, &fi) in p.iter().zip(&f) {
        // Logistic loss: the sigmoid of the score.
        assert!((pi - 1.0 / (1.0 + (-fi).exp())).abs() < 1e-15);
    }
    assert_eq!(m.predict(&data).unwrap().positive_proba().unwrap(), p);
}
