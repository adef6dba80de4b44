//! Raw data in: the models one-hot encode categorical columns themselves,
//! read new data by column name, and save and load exactly.

use rc_tree::{
    AdaBoost, AdaBoostParams, DecisionTree, DecisionTreeParams, Error, GradientBoosting,
    GradientBoostingParams, RandomForest, RandomForestParams,
};
use rulecover_core::{
    Dataset, Feature, Fit, Fitted, Predict, Predictions, Rng, RuleModel, RuleSource, Target,
};
use serde::{de::DeserializeOwned, Serialize};

const COLORS: [&str; 3] = ["red", "green", "blue"];

fn levels(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// Rows of (size, color) with the class "yes" when the color is red or the
/// size is above 6, 10% of the labels flipped.
fn rows(n: usize, seed: u64) -> (Vec<f64>, Vec<usize>, Vec<usize>) {
    let mut rng = Rng::new(seed);
    let mut size = Vec::new();
    let mut color = Vec::new();
    let mut label = Vec::new();
    for _ in 0..n {
        let s = (rng.next_f64() * 100.0).round() / 10.0;
        let c = rng.below(3);
        let y = usize::from(c == 0 || s > 6.0);
        let flip = rng.next_f64() < 0.1;
        size.push(s);
        color.push(c);
        label.push(if flip { 1 - y } else { y });
    }
    (size, color, label)
}

/// The training format: `size`, then `color` with levels red, green, blue.
fn train_format(n: usize, seed: u64) -> Dataset {
    let (size, color, label) = rows(n, seed);
    Dataset::new(
        "train",
        vec![
            Feature::numeric("size"),
            Feature::categorical("color", levels(&COLORS)),
        ],
        vec![size, color.iter().map(|&c| c as f64).collect()],
        Target::Classes {
            labels: label,
            names: levels(&["no", "yes"]),
        },
    )
    .unwrap()
}

/// The same rows in another format: an extra column first, then `color`
/// with its levels listed as blue, red, green (codes re-numbered), then
/// `size`; no target.
fn other_format(n: usize, seed: u64) -> Dataset {
    let (size, color, _) = rows(n, seed);
    let order = ["blue", "red", "green"];
    let code = |c: usize| order.iter().position(|l| *l == COLORS[c]).unwrap() as f64;
    Dataset::new(
        "test",
        vec![
            Feature::numeric("id"),
            Feature::categorical("color", levels(&order)),
            Feature::numeric("size"),
        ],
        vec![
            (0..n).map(|i| i as f64).collect(),
            color.into_iter().map(code).collect(),
            size,
        ],
        Target::None,
    )
    .unwrap()
}

fn params() -> (
    DecisionTreeParams,
    RandomForestParams,
    AdaBoostParams,
    GradientBoostingParams,
) {
    (
        DecisionTreeParams::classifier().max_depth(4),
        RandomForestParams::classifier().n_estimators(15).seed(3),
        AdaBoostParams::new().n_estimators(10).max_depth(2).seed(4),
        GradientBoostingParams::new().n_estimators(15).seed(5),
    )
}

fn round_trip<M: Serialize + DeserializeOwned>(m: &M) -> M {
    serde_json::from_str(&serde_json::to_string(m).unwrap()).unwrap()
}

/// Everything a model must do with raw data, for one model.
fn check_model<M>(name: &str, model: &M, train: &Dataset, test: &Dataset)
where
    M: Predict<Error = Error> + Fitted + RuleSource + Serialize + DeserializeOwned + PartialEq,
{
    assert_eq!(model.feature_names(), ["size", "color"], "{name}");
    assert_eq!(model.classes(), ["no", "yes"], "{name}");
    let expected = model.predict(train).unwrap();
    assert_eq!(model.predict(test).unwrap(), expected, "{name}");
    // The rules' coverage reads raw data by name too.
    assert_eq!(
        model.pool_coverage(test).unwrap(),
        model.pool_coverage(train).unwrap(),
        "{name}"
    );
    // Encoded data passes through unchanged.
    let encoded = model.encoder().transform(train).unwrap();
    assert_eq!(model.predict(&encoded).unwrap(), expected, "{name}");

    // A missing column, an unseen level, a missing value: typed errors.
    let no_color = Dataset::new(
        "no_color",
        vec![Feature::numeric("size")],
        vec![train.column(0).into_owned()],
        Target::None,
    )
    .unwrap();
    let e = model.predict(&no_color).unwrap_err();
    assert!(
        matches!(&e, Error::Core(rulecover_core::Error::MissingColumn { column, .. }) if column == "color"),
        "{name}: {e}"
    );
    assert!(e.to_string().contains("color"), "{name}: {e}");
    let purple = Dataset::new(
        "purple",
        vec![
            Feature::numeric("size"),
            Feature::categorical("color", levels(&["red", "purple"])),
        ],
        vec![vec![1.0, 2.0], vec![0.0, 1.0]],
        Target::None,
    )
    .unwrap();
    let e = model.predict(&purple).unwrap_err();
    assert!(
        matches!(&e, Error::Core(rulecover_core::Error::UnseenLevel { column, level, row: 2, .. })
            if column == "color" && level == "purple"),
        "{name}: {e}"
    );
    let missing_color = Dataset::new(
        "nan",
        vec![
            Feature::numeric("size"),
            Feature::categorical("color", levels(&COLORS)),
        ],
        vec![vec![1.0, 2.0, 3.0], vec![0.0, f64::NAN, 2.0]],
        Target::None,
    )
    .unwrap();
    let e = model.predict(&missing_color).unwrap_err();
    assert!(
        matches!(&e, Error::MissingValue { feature, row: 1 } if feature == "color"),
        "{name}: {e}"
    );
    let missing_size = Dataset::new(
        "nan",
        vec![
            Feature::categorical("color", levels(&COLORS)),
            Feature::numeric("size"),
        ],
        vec![vec![0.0, 1.0, 2.0], vec![1.0, 2.0, f64::NAN]],
        Target::None,
    )
    .unwrap();
    let e = model.predict(&missing_size).unwrap_err();
    assert!(
        matches!(&e, Error::MissingValue { feature, row: 2 } if feature == "size"),
        "{name}: {e}"
    );

    // Saved and loaded: the same model, bit-identical predictions.
    let loaded = round_trip(model);
    assert!(loaded == *model, "{name}");
    let again = loaded.predict(test).unwrap();
    assert_eq!(bits(&again), bits(&expected), "{name}");
}

fn bits(p: &Predictions) -> Vec<u64> {
    match p {
        Predictions::Classes { proba, .. } => proba.iter().map(|v| v.to_bits()).collect(),
        Predictions::Values(v) => v.iter().map(|v| v.to_bits()).collect(),
    }
}

#[test]
fn raw_categorical_data_is_read_by_name() {
    let train = train_format(200, 1);
    let test = other_format(200, 1);
    let (dt, rf, ada, gb) = params();
    let dt: DecisionTree = dt.fit(&train).unwrap();
    let rf: RandomForest = rf.fit(&train).unwrap();
    let ada: AdaBoost = ada.fit(&train).unwrap();
    let gb: GradientBoosting = gb.fit(&train).unwrap();
    check_model("tree", &dt, &train, &test);
    check_model("forest", &rf, &train, &test);
    check_model("adaboost", &ada, &train, &test);
    check_model("boosting", &gb, &train, &test);
    // The rules index the encoded features.
    let encoded = ["size", "color=red", "color=green", "color=blue"];
    assert_eq!(
        dt.features().iter().map(|f| &f.name).collect::<Vec<_>>(),
        encoded
    );
    assert_eq!(rf.features().len(), 4);
    assert_eq!(ada.features().len(), 4);
    assert_eq!(gb.features().len(), 4);
    assert_eq!(dt.rule_set().features, dt.features());
}

#[test]
fn raw_fit_equals_fit_on_one_hot_data() {
    let train = train_format(150, 2);
    let hot = train.one_hot(false).unwrap();
    let (dt, rf, ada, gb) = params();
    assert_eq!(dt.fit(&train).unwrap().tree(), dt.fit(&hot).unwrap().tree());
    assert_eq!(
        rf.fit(&train).unwrap().trees(),
        rf.fit(&hot).unwrap().trees()
    );
    assert_eq!(
        ada.fit(&train).unwrap().trees(),
        ada.fit(&hot).unwrap().trees()
    );
    assert_eq!(
        gb.fit(&train).unwrap().trees(),
        gb.fit(&hot).unwrap().trees()
    );
    // drop_first leaves out the first level's indicator.
    let dropped = dt
        .clone()
        .encoding(rulecover_core::Encoding::OneHot { drop_first: true })
        .fit(&train)
        .unwrap();
    assert_eq!(dropped.features().len(), 3);
    assert_eq!(
        dropped.tree(),
        dt.fit(&train.one_hot(true).unwrap()).unwrap().tree()
    );
}

#[test]
fn a_one_hot_split_prints_as_a_level_test() {
    // The class is exactly "color is red": the root splits on color=red.
    let train = train_format(120, 3);
    let labels = (0..train.n_rows())
        .map(|i| usize::from(train.value(i, 1) == 0.0))
        .collect();
    let data = train
        .with_target(Target::Classes {
            labels,
            names: levels(&["no", "yes"]),
        })
        .unwrap();
    let tree = DecisionTreeParams::classifier().fit(&data).unwrap();
    assert_eq!(tree.n_rules(), 2);
    let text = tree.render_rules();
    assert!(text.contains("if color != red then class no"), "{text}");
    assert!(text.contains("if color == red then class yes"), "{text}");
}

#[test]
fn missing_categorical_value_at_fit_is_an_error() {
    let good = train_format(10, 4);
    let mut color = good.column(1).into_owned();
    color[7] = f64::NAN;
    let data = Dataset::new(
        "nan",
        good.features().to_vec(),
        vec![good.column(0).into_owned(), color],
        good.target_storage().clone(),
    )
    .unwrap();
    let (dt, rf, ada, gb) = params();
    let is_missing_color =
        |e: Error| matches!(&e, Error::MissingValue { feature, row: 7 } if feature == "color");
    assert!(is_missing_color(dt.fit(&data).unwrap_err()));
    assert!(is_missing_color(rf.fit(&data).unwrap_err()));
    assert!(is_missing_color(ada.fit(&data).unwrap_err()));
    assert!(is_missing_color(gb.fit(&data).unwrap_err()));
}

/// Non-uniform weights through the `Fit` trait fit the same model as the
/// learners' own `fit_weighted`.
fn through_trait<F: Fit>(params: &F, data: &Dataset, w: &[f64]) -> F::Model {
    params.fit_weighted(data, w).expect("fit_weighted")
}

#[test]
fn fit_weighted_works_through_the_trait() {
    let train = train_format(120, 5);
    let w: Vec<f64> = (0..train.n_rows()).map(|i| (i % 4) as f64 * 0.5).collect();
    let (dt, rf, ada, gb) = params();
    let m = through_trait(&dt, &train, &w);
    assert_eq!(m, dt.fit_weighted(&train, &w).unwrap());
    assert_ne!(m.tree(), dt.fit(&train).unwrap().tree());
    assert_eq!(
        through_trait(&rf, &train, &w),
        rf.fit_weighted(&train, &w).unwrap()
    );
    assert_eq!(
        through_trait(&ada, &train, &w),
        ada.fit_weighted(&train, &w).unwrap()
    );
    assert_eq!(
        through_trait(&gb, &train, &w),
        gb.fit_weighted(&train, &w).unwrap()
    );
}
