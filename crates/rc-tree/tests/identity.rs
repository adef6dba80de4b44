//! Fitted models are pinned bit for bit: the hash of each model's JSON and
//! of its predictions was recorded from the implementation before the
//! forest's speed work (issue 21), so any change to the fit or to
//! prediction that alters a single split, threshold, leaf value, coverage
//! count or predicted bit fails here. Each model is fitted under a 1-thread
//! and a 2-thread rayon pool, which must agree.
//!
//! The data mixes every kind of column the splitter treats differently:
//! a categorical column (one-hot indicators: sparse bitmasks), a 0/1
//! column, a column with 12 distinct values (histograms of codes), a
//! continuous column (presorted lists), a constant column, and a column
//! with repeated values just over the binning limit.
//!
//! If a change is *meant* to change the models, record the new hashes
//! (the failure message prints them) and say which reproduced cells move
//! (docs/reproduction/).

use rayon::ThreadPoolBuilder;
use rc_tree::{
    AdaBoostParams, Criterion, DecisionTreeParams, GradientBoostingParams, MaxFeatures,
    RandomForestParams, RandomStream,
};
use rulecover_core::{Dataset, Feature, Fit, Predict, Predictions, Rng, Target};
use serde::Serialize;

/// 64-bit FNV-1a: a hash whose value does not depend on the Rust release.
fn fnv(bytes: &[u8], mut h: u64) -> u64 {
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

/// Hash of the model's JSON and of its predictions on `test`.
fn hash_of<M: Serialize + Predict<Error = rc_tree::Error>>(model: &M, test: &Dataset) -> u64 {
    let json = serde_json::to_string(model).expect("serializable model");
    let mut h = fnv(json.as_bytes(), FNV_START);
    let values = match model.predict(test).expect("prediction") {
        Predictions::Classes { proba, .. } => proba,
        Predictions::Values(v) => v,
    };
    for v in values {
        h = fnv(&v.to_bits().to_le_bytes(), h);
    }
    h
}

/// `n` rows mixing every column kind; `classes` = 0 gives a real target.
fn mixed(n: usize, classes: usize, seed: u64) -> Dataset {
    let mut rng = Rng::new(seed);
    let levels: Vec<String> = ["a", "b", "c", "d", "e", "f"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let features = vec![
        Feature::categorical("cat", levels),
        Feature::numeric("flag"),
        Feature::numeric("coded"),
        Feature::numeric("cont"),
        Feature::numeric("const"),
        Feature::numeric("many_ties"),
    ];
    let mut rows = Vec::with_capacity(n);
    let mut score = Vec::with_capacity(n);
    for _ in 0..n {
        let cat = rng.below(6) as f64;
        let flag = f64::from(u8::from(rng.next_f64() < 0.3));
        let coded = rng.below(12) as f64;
        let cont = rng.normal();
        let ties = rng.below(300) as f64 / 7.0;
        let s = cont + 0.4 * coded / 12.0 + if cat < 2.0 { 0.8 } else { -0.2 } + 0.5 * flag
            - ties / 60.0
            + 0.6 * rng.normal();
        rows.push(vec![cat, flag, coded, cont, 3.5, ties]);
        score.push(s);
    }
    let target = if classes == 0 {
        Target::Real(score)
    } else {
        let labels = score
            .iter()
            .map(|&s| {
                let c = ((s + 2.5) / 5.0 * classes as f64).floor();
                (c.max(0.0) as usize).min(classes - 1)
            })
            .collect();
        Target::Classes {
            labels,
            names: (0..classes).map(|c| format!("c{c}")).collect(),
        }
    };
    Dataset::from_rows("mixed", features, &rows, target).expect("valid data")
}

/// `n` rows of 40 dense 0/1 columns (about half the rows hold each
/// column's rarer value), so a row has many marked binary values: most
/// rows hold several of a node's drawn binary columns (the one-hot
/// count's slow path, which was the packing path when the hashes were
/// recorded).
fn dense_binary(n: usize, seed: u64) -> Dataset {
    let p = 40;
    let mut rng = Rng::new(seed);
    let mut rows = Vec::with_capacity(n);
    let mut labels = Vec::with_capacity(n);
    for _ in 0..n {
        let row: Vec<f64> = (0..p)
            .map(|j| f64::from(u8::from(rng.next_f64() < 0.35 + 0.01 * j as f64)))
            .collect();
        let s = row[0] + row[1] - row[2] + 0.5 * row[3] + 0.3 * rng.normal();
        labels.push(usize::from(s > 0.7));
        rows.push(row);
    }
    let features = (0..p).map(|j| Feature::numeric(format!("b{j}"))).collect();
    let target = Target::Classes {
        labels,
        names: vec!["no".into(), "yes".into()],
    };
    Dataset::from_rows("dense", features, &rows, target).expect("valid data")
}

/// Fits `fit` under 1 and 2 threads, checks they agree, returns the hash.
fn pinned<M: Serialize + Predict<Error = rc_tree::Error>>(
    fit: impl Fn() -> M + Sync,
    test: &Dataset,
) -> u64 {
    let pool = |t| ThreadPoolBuilder::new().num_threads(t).build().unwrap();
    let one = pool(1).install(|| hash_of(&fit(), test));
    let two = pool(2).install(|| hash_of(&fit(), test));
    assert_eq!(one, two, "1 and 2 threads disagree");
    one
}

/// Asserts that the models' hashes are the recorded ones; when they are
/// not, the message lists the new hashes, ready to paste.
fn assert_recorded(got: &[(&str, u64)], expected: &[(&str, u64)]) {
    let report: Vec<String> = got
        .iter()
        .map(|(name, h)| format!("(\"{name}\", {h:#018x}),"))
        .collect();
    assert_eq!(
        got,
        expected,
        "models changed; the new hashes:\n{}",
        report.join("\n")
    );
}

#[test]
fn fitted_models_are_bit_identical_to_the_recorded_ones() {
    let two = mixed(700, 2, 1);
    let two_test = mixed(300, 2, 2);
    let three = mixed(700, 3, 3);
    let three_test = mixed(300, 3, 4);
    let reg = mixed(700, 0, 5);
    let reg_test = mixed(300, 0, 6);
    let weights: Vec<f64> = (0..two.n_rows())
        .map(|i| [1.0, 0.5, 2.0, 0.0][i % 4])
        .collect();
    let dense = dense_binary(600, 8);
    let dense_test = dense_binary(200, 9);
    let rf = || RandomForestParams::classifier().n_estimators(12).seed(7);

    let got: Vec<(&str, u64)> = vec![
        (
            "rf gini 2 classes",
            pinned(|| rf().fit(&two).unwrap(), &two_test),
        ),
        (
            "rf entropy 3 classes",
            pinned(
                || rf().criterion(Criterion::Entropy).fit(&three).unwrap(),
                &three_test,
            ),
        ),
        (
            "rf gini 3 classes, all features, min leaf 3",
            pinned(
                || {
                    rf().max_features(MaxFeatures::All)
                        .min_samples_leaf(3)
                        .fit(&three)
                        .unwrap()
                },
                &three_test,
            ),
        ),
        (
            "rf weighted, max_samples 400, depth 6",
            pinned(
                || {
                    rf().max_samples(400)
                        .max_depth(6)
                        .fit_weighted(&two, &weights)
                        .unwrap()
                },
                &two_test,
            ),
        ),
        (
            "rf no bootstrap, log2",
            pinned(
                || {
                    rf().bootstrap(false)
                        .max_features(MaxFeatures::Log2)
                        .fit(&two)
                        .unwrap()
                },
                &two_test,
            ),
        ),
        (
            "rf scikit-learn stream",
            pinned(
                || rf().random_stream(RandomStream::Sklearn).fit(&two).unwrap(),
                &two_test,
            ),
        ),
        (
            "rf scikit-learn stream, 3 classes",
            pinned(
                || {
                    rf().random_stream(RandomStream::Sklearn)
                        .fit(&three)
                        .unwrap()
                },
                &three_test,
            ),
        ),
        (
            "rf regression",
            pinned(
                || {
                    RandomForestParams::regressor()
                        .n_estimators(12)
                        .seed(7)
                        .max_features(MaxFeatures::Fraction(0.5))
                        .fit(&reg)
                        .unwrap()
                },
                &reg_test,
            ),
        ),
        (
            "rf dense binary, one feature per node",
            pinned(
                || {
                    rf().max_features(MaxFeatures::Count(1))
                        .fit(&dense)
                        .unwrap()
                },
                &dense_test,
            ),
        ),
        (
            "rf dense binary, sqrt",
            pinned(|| rf().fit(&dense).unwrap(), &dense_test),
        ),
        (
            "dt gini",
            pinned(
                || DecisionTreeParams::classifier().fit(&two).unwrap(),
                &two_test,
            ),
        ),
        (
            "dt sqrt, 3 classes",
            pinned(
                || {
                    DecisionTreeParams::classifier()
                        .max_features(MaxFeatures::Sqrt)
                        .seed(3)
                        .fit(&three)
                        .unwrap()
                },
                &three_test,
            ),
        ),
        (
            "adaboost",
            pinned(
                || {
                    AdaBoostParams::new()
                        .n_estimators(15)
                        .max_depth(2)
                        .fit(&three)
                        .unwrap()
                },
                &three_test,
            ),
        ),
        (
            "gradient boosting",
            pinned(
                || {
                    GradientBoostingParams::new()
                        .n_estimators(15)
                        .subsample(0.7)
                        .fit(&reg)
                        .unwrap()
                },
                &reg_test,
            ),
        ),
    ];
    let expected: [(&str, u64); 14] = [
        ("rf gini 2 classes", 0x0432533c82697777),
        ("rf entropy 3 classes", 0xf459c31207e60c77),
        (
            "rf gini 3 classes, all features, min leaf 3",
            0x0cea29792e8e28d1,
        ),
        ("rf weighted, max_samples 400, depth 6", 0x2f718e7dbe484999),
        ("rf no bootstrap, log2", 0x1cabfeb8e5c418fa),
        ("rf scikit-learn stream", 0x7c200ca22eaadac5),
        ("rf scikit-learn stream, 3 classes", 0x75fa8ffe1f3a2ea2),
        ("rf regression", 0x91803f22bc42385a),
        ("rf dense binary, one feature per node", 0x343f307fc21e3d90),
        ("rf dense binary, sqrt", 0xcff57d55cccf2805),
        ("dt gini", 0xda69a6e4b0875011),
        ("dt sqrt, 3 classes", 0x49e0c8b5921ef83f),
        ("adaboost", 0xc1433c4cf9f561d1),
        ("gradient boosting", 0x17f1b23169b6de9b),
    ];
    assert_recorded(&got, &expected);
}

/// `n` rows with a categorical column of 90 levels (one-hot: more than 64
/// binary columns, so a row's bitmask spans two words), a second
/// categorical with a majority level (its indicator marks the rows
/// *without* that level), a 0/1 column, a binned and a continuous column;
/// `classes` = 0 gives a real target.
fn wide_one_hot(n: usize, classes: usize, seed: u64) -> Dataset {
    one_hot_levels(n, classes, seed, 90)
}

/// [`wide_one_hot`] with `levels` levels in its many-valued categorical.
fn one_hot_levels(n: usize, classes: usize, seed: u64, levels: usize) -> Dataset {
    let mut rng = Rng::new(seed);
    let many: Vec<String> = (0..levels).map(|l| format!("l{l}")).collect();
    let few: Vec<String> = ["major", "x", "y", "z"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let features = vec![
        Feature::numeric("cont"),
        Feature::categorical("many", many),
        Feature::numeric("flag"),
        Feature::categorical("few", few),
        Feature::numeric("coded"),
    ];
    let mut rows = Vec::with_capacity(n);
    let mut score = Vec::with_capacity(n);
    for _ in 0..n {
        let cont = rng.normal();
        let many = rng.below(levels) as f64;
        let flag = f64::from(u8::from(rng.next_f64() < 0.4));
        let few = if rng.next_f64() < 0.7 {
            0.0
        } else {
            1.0 + rng.below(3) as f64
        };
        let coded = rng.below(20) as f64;
        let s = 0.8 * cont
            + if (many as usize) % 3 == 0 { 0.7 } else { -0.3 }
            + if few == 0.0 { 0.4 } else { -0.4 }
            + 0.3 * flag
            + coded / 40.0
            + 0.5 * rng.normal();
        rows.push(vec![cont, many, flag, few, coded]);
        score.push(s);
    }
    let target = if classes == 0 {
        Target::Real(score)
    } else {
        let labels = score
            .iter()
            .map(|&s| {
                let c = ((s + 2.0) / 4.0 * classes as f64).floor();
                (c.max(0.0) as usize).min(classes - 1)
            })
            .collect();
        Target::Classes {
            labels,
            names: (0..classes).map(|c| format!("c{c}")).collect(),
        }
    };
    Dataset::from_rows("wide", features, &rows, target).expect("valid data")
}

/// As above, on data whose one-hot columns span two bitmask words; hashes
/// recorded from the implementation before the one-hot counting of the
/// drawn columns only (issue 21, adult).
#[test]
fn wide_one_hot_models_are_bit_identical_to_the_recorded_ones() {
    let two = wide_one_hot(900, 2, 11);
    let two_test = wide_one_hot(300, 2, 12);
    let three = wide_one_hot(900, 3, 13);
    let three_test = wide_one_hot(300, 3, 14);
    let reg = wide_one_hot(900, 0, 15);
    let reg_test = wide_one_hot(300, 0, 16);
    let weights: Vec<f64> = (0..two.n_rows())
        .map(|i| [1.0, 0.3, 2.5, 0.0, 1.7][i % 5])
        .collect();
    // Whole-number sample weights: counted as integers (total below 2^21);
    // scaled by 2^20 their total is not, so they take the float path.
    let whole: Vec<f64> = (0..two.n_rows())
        .map(|i| [1.0, 3.0, 0.0, 2.0][i % 4])
        .collect();
    let large: Vec<f64> = whole.iter().map(|w| w * 1_048_576.0).collect();
    // Whole numbers whose sums are not exact in floating point (a weight
    // of 2^53 + 2 on every seventh row): the sides of a split must be
    // summed in row order, not derived from the node's totals.
    let huge: Vec<f64> = whole
        .iter()
        .enumerate()
        .map(|(i, w)| {
            if i % 7 == 0 {
                w + 9_007_199_254_740_994.0
            } else {
                *w
            }
        })
        .collect();
    let rf = || RandomForestParams::classifier().n_estimators(10).seed(5);
    let got: Vec<(&str, u64)> = vec![
        ("rf gini", pinned(|| rf().fit(&two).unwrap(), &two_test)),
        (
            "rf entropy 3 classes",
            pinned(
                || rf().criterion(Criterion::Entropy).fit(&three).unwrap(),
                &three_test,
            ),
        ),
        (
            "rf weighted",
            pinned(|| rf().fit_weighted(&two, &weights).unwrap(), &two_test),
        ),
        (
            "rf whole-number weights",
            pinned(|| rf().fit_weighted(&two, &whole).unwrap(), &two_test),
        ),
        (
            "rf whole-number weights, total above 2^21",
            pinned(|| rf().fit_weighted(&two, &large).unwrap(), &two_test),
        ),
        (
            "rf whole-number weights, total above 2^53",
            pinned(|| rf().fit_weighted(&two, &huge).unwrap(), &two_test),
        ),
        (
            "rf 20 features per node",
            pinned(
                || rf().max_features(MaxFeatures::Count(20)).fit(&two).unwrap(),
                &two_test,
            ),
        ),
        (
            "rf all features",
            pinned(
                || rf().max_features(MaxFeatures::All).fit(&three).unwrap(),
                &three_test,
            ),
        ),
        (
            "rf scikit-learn stream",
            pinned(
                || rf().random_stream(RandomStream::Sklearn).fit(&two).unwrap(),
                &two_test,
            ),
        ),
        (
            "rf regression",
            pinned(
                || {
                    RandomForestParams::regressor()
                        .n_estimators(10)
                        .seed(5)
                        .max_features(MaxFeatures::Sqrt)
                        .fit(&reg)
                        .unwrap()
                },
                &reg_test,
            ),
        ),
    ];
    let expected: [(&str, u64); 10] = [
        ("rf gini", 0x35a046f0afcaf538),
        ("rf entropy 3 classes", 0x296ecd2c61151364),
        ("rf weighted", 0xa3c84f19a12877c8),
        ("rf whole-number weights", 0xf229b21f608c2a57),
        (
            "rf whole-number weights, total above 2^21",
            0x08dd08640caa8ad3,
        ),
        (
            "rf whole-number weights, total above 2^53",
            0xabf571623d1e8b63,
        ),
        ("rf 20 features per node", 0xdd328fb8c4ce513e),
        ("rf all features", 0x6e7da49dc4d4b096),
        ("rf scikit-learn stream", 0x8567db54ba1ee659),
        ("rf regression", 0x6e4bef6617d9f3b7),
    ];
    assert_recorded(&got, &expected);
}

/// Data whose one-hot columns span four bitmask words (a 200-level
/// categorical): the counting without count blocks, for two classes with
/// whole-number weights (bootstrap counts, unit weights of the decision
/// tree) as well as otherwise; and two classes under entropy, with and
/// without count blocks (90 levels: two words); hashes recorded from the
/// implementation before packed sums (session 12).
#[test]
fn wider_one_hot_models_are_bit_identical_to_the_recorded_ones() {
    let two = one_hot_levels(1200, 2, 21, 200);
    let two_test = one_hot_levels(300, 2, 22, 200);
    let whole: Vec<f64> = (0..two.n_rows())
        .map(|i| [1.0, 3.0, 0.0, 2.0][i % 4])
        .collect();
    let two_words = wide_one_hot(900, 2, 23);
    let two_words_test = wide_one_hot(300, 2, 24);
    let rf = || RandomForestParams::classifier().n_estimators(8).seed(9);
    let entropy = || rf().criterion(Criterion::Entropy);
    let got: Vec<(&str, u64)> = vec![
        ("rf gini", pinned(|| rf().fit(&two).unwrap(), &two_test)),
        (
            "rf whole-number weights",
            pinned(|| rf().fit_weighted(&two, &whole).unwrap(), &two_test),
        ),
        (
            "rf scikit-learn stream",
            pinned(
                || rf().random_stream(RandomStream::Sklearn).fit(&two).unwrap(),
                &two_test,
            ),
        ),
        (
            "dt gini",
            pinned(
                || DecisionTreeParams::classifier().fit(&two).unwrap(),
                &two_test,
            ),
        ),
        (
            "rf entropy 2 classes",
            pinned(|| entropy().fit(&two).unwrap(), &two_test),
        ),
        (
            "rf entropy 2 classes, two words",
            pinned(|| entropy().fit(&two_words).unwrap(), &two_words_test),
        ),
    ];
    let expected: [(&str, u64); 6] = [
        ("rf gini", 0x8e036717fd56a7e6),
        ("rf whole-number weights", 0x552e6e99de76ac96),
        ("rf scikit-learn stream", 0x32252928b5e0f609),
        ("dt gini", 0xecea61b45cf4596b),
        ("rf entropy 2 classes", 0x7a53b102e3c25722),
        ("rf entropy 2 classes, two words", 0xf347a0c0ebfcf4e1),
    ];
    assert_recorded(&got, &expected);
}
