//! Bad input gives typed errors that name the problem, never a panic.

use rc_nre::{ConstantFeatures, Error, MlpParams, NreParams, TrainParams};
use rulecover_core::generate::twonorm;
use rulecover_core::{Dataset, Feature, Fit, Predict, Target};

fn classes(labels: Vec<usize>, k: usize) -> Target {
    Target::Classes {
        labels,
        names: (0..k).map(|c| format!("c{c}")).collect(),
    }
}

fn with_column(values: Vec<f64>, labels: Vec<usize>) -> Dataset {
    let n = values.len();
    let other: Vec<f64> = (0..n).map(|i| (i as f64 * 0.37).sin()).collect();
    Dataset::new(
        "bad",
        vec![Feature::numeric("good"), Feature::numeric("bad")],
        vec![other, values],
        classes(labels, 2),
    )
    .unwrap()
}

fn alternating(n: usize) -> Vec<usize> {
    (0..n).map(|i| i % 2).collect()
}

fn nre() -> NreParams {
    NreParams::default().max_depth(2).max_epochs(2)
}

fn mlp() -> MlpParams {
    MlpParams::default()
        .hidden(4)
        .train(TrainParams::default().max_epochs(2))
}

#[test]
fn constant_feature_is_an_error_unless_ignored() {
    let d = with_column(vec![3.0; 40], alternating(40));
    for e in [nre().fit(&d).unwrap_err(), mlp().fit(&d).unwrap_err()] {
        assert!(
            matches!(&e, Error::ConstantFeature { feature, column: 1, value, .. } if feature == "bad" && *value == 3.0),
            "{e}"
        );
        assert!(e.to_string().contains("ConstantFeatures::Ignore"));
    }
    let ok = nre()
        .constant_features(ConstantFeatures::Ignore)
        .fit(&d)
        .unwrap();
    // The tree cannot split a constant column: it is not an input.
    assert!(!ok.inputs().contains(&1));
    mlp()
        .constant_features(ConstantFeatures::Ignore)
        .fit(&d)
        .unwrap();
}

#[test]
fn one_class_training_fold_is_an_error() {
    let d = with_column((0..30).map(f64::from).collect(), vec![1; 30]);
    for e in [nre().fit(&d).unwrap_err(), mlp().fit(&d).unwrap_err()] {
        assert!(
            matches!(&e, Error::OneClass { class, rows: 30, .. } if class == "c1"),
            "{e}"
        );
    }
}

#[test]
fn non_finite_values_are_errors_at_fit_and_predict() {
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let mut v: Vec<f64> = (0..30).map(f64::from).collect();
        v[17] = bad;
        let d = with_column(v, alternating(30));
        for e in [nre().fit(&d).unwrap_err(), mlp().fit(&d).unwrap_err()] {
            assert!(
                matches!(&e, Error::NonFinite { feature, row: 17, .. } if feature == "bad"),
                "{e}"
            );
        }
    }
    // Labels follow "bad", so the tree splits on it and it is an input.
    let threshold: Vec<usize> = (0..30).map(|i| usize::from(i >= 15)).collect();
    let train = with_column((0..30).map(f64::from).collect(), threshold.clone());
    let model = nre().fit(&train).unwrap();
    assert!(model.inputs().contains(&1));
    let mut v: Vec<f64> = (0..30).map(f64::from).collect();
    v[3] = f64::NAN;
    let test = with_column(v, threshold);
    assert!(matches!(
        model.predict(&test),
        Err(Error::NonFinite { row: 3, ref feature, .. }) if feature == "bad"
    ));
    let m = mlp().fit(&train).unwrap();
    assert!(matches!(
        m.predict(&test),
        Err(Error::NonFinite { row: 3, .. })
    ));
}

#[test]
fn targets_must_be_binary_class_labels() {
    let x: Vec<f64> = (0..20).map(f64::from).collect();
    let multi = Dataset::new(
        "multi",
        vec![Feature::numeric("x")],
        vec![x.clone()],
        classes((0..20).map(|i| i % 3).collect(), 3),
    )
    .unwrap();
    let real = Dataset::new(
        "real",
        vec![Feature::numeric("x")],
        vec![x.clone()],
        Target::Real(x),
    )
    .unwrap();
    for d in [&multi, &real] {
        assert!(matches!(nre().fit(d), Err(Error::NotBinary { .. })));
        assert!(matches!(mlp().fit(d), Err(Error::NotBinary { .. })));
    }
}

#[test]
fn categorical_and_empty_inputs_are_errors() {
    let cat = Dataset::new(
        "cat",
        vec![Feature::categorical(
            "colour",
            vec!["red".into(), "blue".into()],
        )],
        vec![vec![0.0, 1.0, 0.0, 1.0]],
        classes(vec![0, 1, 0, 1], 2),
    )
    .unwrap();
    // Raw categories are one-hot encoded by default; read natively, the
    // level codes reach the networks, which refuse them.
    let native = rulecover_core::Encoding::Native;
    assert!(matches!(
        nre().encoding(native).fit(&cat),
        Err(Error::CategoricalFeature { column: 0, .. })
    ));
    assert!(matches!(
        mlp().encoding(native).fit(&cat),
        Err(Error::CategoricalFeature { column: 0, .. })
    ));
    assert!(nre().fit(&cat).is_ok());
    assert!(mlp().fit(&cat).is_ok());
    let onehot = cat.one_hot(false).unwrap();
    assert!(nre().fit(&onehot).is_ok());
    let empty = twonorm(50, 1).subset(&[]).unwrap();
    assert!(matches!(nre().fit(&empty), Err(Error::EmptyData { .. })));
}

#[test]
fn prediction_needs_the_training_features() {
    let train = twonorm(200, 1);
    let model = nre().fit(&train).unwrap();
    let narrow = with_column((0..10).map(f64::from).collect(), alternating(10));
    // Columns are matched by name: the first training feature the data
    // lacks is named.
    let first = model.features()[0].name.clone();
    for e in [
        model.predict(&narrow).unwrap_err(),
        mlp().fit(&train).unwrap().predict(&narrow).unwrap_err(),
    ] {
        assert!(
            matches!(&e, Error::Core(rulecover_core::Error::MissingColumn { column, .. }) if *column == first),
            "{e}"
        );
    }
}

#[test]
fn invalid_parameters_are_rejected_before_fitting() {
    let d = twonorm(100, 2);
    let cases: Vec<(NreParams, &str)> = vec![
        (nre().max_depth(0), "max_depth"),
        (nre().min_samples_leaf(0), "min_samples_leaf"),
        (nre().learning_rate(0.0), "learning_rate"),
        (nre().learning_rate(f64::NAN), "learning_rate"),
        (nre().batch_size(0), "batch_size"),
        (nre().patience(0), "patience"),
        (nre().validation_fraction(0.7), "validation_fraction"),
        (nre().l2(-1.0), "l2"),
        (nre().train(TrainParams::default().betas(1.0, 0.9)), "beta1"),
        (nre().train(TrainParams::default().epsilon(0.0)), "epsilon"),
    ];
    for (p, name) in cases {
        match p.fit(&d) {
            Err(Error::InvalidParameter { name: n, .. }) => assert_eq!(n, name),
            other => panic!("{name}: {other:?}"),
        }
    }
    let mlp_cases: Vec<(MlpParams, &str)> = vec![
        (mlp().hidden(0), "hidden"),
        (
            mlp().train(TrainParams::default().learning_rate(-0.01)),
            "learning_rate",
        ),
        (
            mlp().train(TrainParams::default().learning_rate(f64::INFINITY)),
            "learning_rate",
        ),
        (
            mlp().train(TrainParams::default().batch_size(0)),
            "batch_size",
        ),
        (mlp().train(TrainParams::default().patience(0)), "patience"),
        (
            mlp().train(TrainParams::default().validation_fraction(f64::NAN)),
            "validation_fraction",
        ),
    ];
    for (p, name) in mlp_cases {
        match p.fit(&d) {
            Err(Error::InvalidParameter { name: n, .. }) => assert_eq!(n, name),
            other => panic!("{name}: {other:?}"),
        }
    }
    // Parameters are checked before the data: even a weighted fit of bad
    // data names the parameter.
    let w = vec![1.0; d.n_rows()];
    assert!(matches!(
        nre().learning_rate(-1.0).fit_weighted(&d, &w),
        Err(Error::InvalidParameter {
            name: "learning_rate",
            ..
        })
    ));
    assert!(matches!(
        nre().max_depth(0).initialize(&d),
        Err(Error::InvalidParameter {
            name: "max_depth",
            ..
        })
    ));
}

#[test]
fn zero_epochs_is_the_untrained_network_not_an_error() {
    // `max_epochs(0)` is how the paper004 suite fits the untrained network
    // (which predicts as its tree) when cross-validation picks 0 epochs, so
    // it is valid: the model is the initialisation.
    let d = twonorm(200, 6);
    let untrained = nre()
        .max_epochs(0)
        .validation_fraction(0.0)
        .fit(&d)
        .unwrap();
    let init = nre().initialize(&d).unwrap();
    assert_eq!(untrained.network(), init.network());
    assert_eq!(untrained.history().epochs, 0);
    assert_eq!(
        untrained.predict_labels(&d).unwrap(),
        init.tree().predict_labels(&d).unwrap()
    );
    let m = mlp()
        .train(TrainParams::default().max_epochs(0))
        .seed(3)
        .fit(&d)
        .unwrap();
    let start = rc_nre::Mlp::new(20, 4, rulecover_core::rng::derive_seed(3, 3));
    assert_eq!(m.network(), &start);
}

#[test]
fn divergence_is_an_error() {
    // A learning rate of 1e300 overflows the loss within two epochs.
    let d = twonorm(200, 3);
    let e = nre()
        .learning_rate(1e300)
        .max_epochs(5)
        .fit(&d)
        .unwrap_err();
    assert!(matches!(e, Error::Diverged { epoch: 1..=2, .. }), "{e}");
    assert!(e.to_string().contains("(now 1e300)"), "{e}");
}

#[test]
fn rule_selection_checks_indices_and_shapes() {
    let d = twonorm(200, 4);
    let mut model = nre().initialize(&d).unwrap();
    let m = model.network().n_rules();
    assert!(matches!(
        model.retain_rules(&[m]),
        Err(Error::NoSuchRule { .. })
    ));
    let other = nre().max_depth(1).initialize(&d).unwrap();
    assert!(model.set_network(other.network().clone(), &d).is_err());
    model.retain_rules(&[0]).unwrap();
    assert_eq!(model.network().n_rules(), 1);
}

#[test]
fn low_level_training_checks_shapes() {
    use nalgebra::DMatrix;
    let d = twonorm(100, 5);
    let model = nre().initialize(&d).unwrap();
    let mut net = model.network().clone();
    let q = net.n_inputs();
    let x = DMatrix::zeros(10, q + 1);
    let y = vec![1.0; 10];
    let p = TrainParams::default().max_epochs(1);
    let e = rc_nre::train(
        &mut net,
        rc_nre::TrainSet::new(&x, &y),
        None,
        &p,
        1,
        &mut |_, _| {},
    );
    assert!(matches!(
        e,
        Err(Error::InvalidParameter { name: "train", .. })
    ));
    let x = DMatrix::zeros(10, q);
    let short = vec![1.0; 9];
    let e = rc_nre::train(
        &mut net,
        rc_nre::TrainSet::new(&x, &short),
        None,
        &p,
        1,
        &mut |_, _| {},
    );
    assert!(matches!(
        e,
        Err(Error::InvalidParameter { name: "train", .. })
    ));
    let mut grad = vec![0.0; 3];
    let mut cache = rc_nre::RulesCache::default();
    let e = rc_nre::train::loss_and_gradient(
        &net,
        &x,
        &y,
        rc_nre::Loss::Logistic,
        0.0,
        &mut cache,
        &mut grad,
    );
    assert!(matches!(
        e,
        Err(Error::InvalidParameter { name: "grad", .. })
    ));
    // A plot needs the model's features.
    let other = rulecover_core::generate::rotated_xor(20, 0, 0.3, 1);
    assert!(matches!(
        rc_nre::plot::support_svg(&model, &other, &Default::default()),
        Err(Error::Core(rulecover_core::Error::MissingColumn { .. }))
    ));
    assert!(matches!(
        model.standardizer().transform(&d, &[99]),
        Err(Error::InvalidParameter {
            name: "columns",
            ..
        })
    ));
}

#[test]
fn bad_validation_rows_are_errors() {
    let threshold: Vec<usize> = (0..30).map(|i| usize::from(i >= 15)).collect();
    let train = with_column((0..30).map(f64::from).collect(), threshold.clone());
    let mut v: Vec<f64> = (0..30).map(f64::from).collect();
    v[5] = f64::INFINITY;
    let val = with_column(v, threshold.clone());
    assert!(matches!(
        nre().fit_validated(&train, &val),
        Err(Error::NonFinite { row: 5, ref feature, .. }) if feature == "bad"
    ));
    let narrow = Dataset::new(
        "narrow",
        vec![Feature::numeric("good")],
        vec![(0..30).map(f64::from).collect()],
        classes(threshold.clone(), 2),
    )
    .unwrap();
    // Validation rows are read by name: the missing column is named.
    assert!(matches!(
        nre().fit_validated(&train, &narrow),
        Err(Error::Core(rulecover_core::Error::MissingColumn { ref column, .. })) if column == "bad"
    ));
    let one_class = with_column((0..30).map(f64::from).collect(), vec![1; 30]);
    assert!(matches!(
        nre().fit_validated(&train, &one_class),
        Err(Error::OneClass { .. })
    ));
    assert!(nre().fit_validated(&train, &train).is_ok());
}
