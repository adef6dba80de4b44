//! §IV-A: the network at initialisation reproduces the tree's partition.

use proptest::prelude::*;

use rc_nre::{NreModel, NreParams};
use rc_tree::DecisionTreeParams;
use rulecover_core::generate::{ringnorm, rotated_xor, twonorm};
use rulecover_core::{Dataset, Feature, Fit, Target};

/// Checks, on every row of `data`: exactly one rule is active (the leaf
/// supports are disjoint and cover the training rows), it is the rule of
/// the row's tree leaf, and the sign of `f` is the sign of that leaf's
/// value `n⁺ − n⁻` wherever that is non-zero. Returns how many rows had a
/// non-zero leaf value (the rows whose sign was checked).
fn check_agreement(model: &NreModel, data: &Dataset) -> usize {
    let leaves = model.tree().apply(data).unwrap();
    let f = model.decision_function(data).unwrap();
    let s = model.supports(data).unwrap();
    let tree = model.tree().tree();
    let mut checked = 0;
    for i in 0..data.n_rows() {
        let active: Vec<usize> = (0..s.ncols()).filter(|&k| s[(i, k)] > 0.0).collect();
        assert_eq!(active.len(), 1, "row {i} activates rules {active:?}");
        assert_eq!(model.leaves()[active[0]], leaves[i], "row {i}");
        let v = tree.value(leaves[i]);
        let value = v[1] - v[0];
        if value != 0.0 {
            assert_eq!(f[i].signum(), value.signum(), "row {i}: f = {}", f[i]);
            checked += 1;
        }
    }
    checked
}

#[test]
fn initial_network_agrees_with_the_tree_on_training_rows() {
    for (data, depth) in [
        (twonorm(600, 1), 6),
        (ringnorm(600, 2), 8),
        (rotated_xor(500, 3, 0.6, 3), 4),
    ] {
        let model = NreParams::default()
            .max_depth(depth)
            .initialize(&data)
            .unwrap();
        let checked = check_agreement(&model, &data);
        assert!(checked > data.n_rows() / 2);
        // Deep rules start as the identity: same outputs.
        let deep = NreParams::default()
            .max_depth(depth)
            .deep(true)
            .initialize(&data)
            .unwrap();
        assert_eq!(
            deep.decision_function(&data).unwrap(),
            model.decision_function(&data).unwrap()
        );
    }
}

#[test]
fn encoding_follows_eq4() {
    // One feature, split at a negative standardised threshold.
    let x: Vec<f64> = (0..40).map(|i| i as f64).collect();
    let labels: Vec<usize> = (0..40).map(|i| usize::from(i >= 10)).collect();
    let data = Dataset::new(
        "line",
        vec![Feature::numeric("x")],
        vec![x],
        Target::Classes {
            labels,
            names: vec!["a".into(), "b".into()],
        },
    )
    .unwrap();
    // The paper's start (the default start is calibrated: tests/calibration.rs).
    let model = NreParams::paper().max_depth(1).initialize(&data).unwrap();
    let net = model.network();
    assert_eq!(net.n_rules(), 2);
    let step = model.paths()[0][0];
    assert!(
        step.threshold < 0.0,
        "standardised threshold {}",
        step.threshold
    );
    // The tree is grown on raw values (threshold 9.5, up to float32
    // rounding) and its threshold mapped to standardised space.
    assert!((step.raw_threshold - 9.5).abs() < 1e-6, "{step:?}");
    assert_eq!(
        step.threshold,
        model
            .standardizer()
            .standardize(0, step.raw_threshold)
            .unwrap()
    );
    // Left rule: w = −1, a = +t; right rule: w = +1, a = −t (not ±|t|).
    assert_eq!(net.unit_weights(0), &[-1.0]);
    // (The left bias is the next float above t: the tree's `x ≤ T` is
    // closed, H(−z + a) with H(0) = 0 open.)
    assert!(net.unit_bias(0) > step.threshold);
    assert!(net.unit_bias(0) - step.threshold <= f64::EPSILON * step.threshold.abs());
    assert_eq!(net.unit_weights(1), &[1.0]);
    assert_eq!(net.unit_bias(1), -step.threshold);
    // c_k = (n⁺ − n⁻)/n of the leaves: all 'a' on the left, all 'b' right.
    assert_eq!(net.output_weights(), &[-1.0, 1.0]);
    // Rules print as the tree's conditions on raw values: the strict
    // bound is the f32 just above the split 9.5 (x < 9.500001 exactly when
    // f32(x) <= 9.5), printed as the shortest decimal of that f32.
    let text = rulecover_core::RuleModel::render_rules(&model);
    assert!(text.starts_with("if x < 9.500001 then class a"), "{text}");
    assert!(text.contains("if x > 9.500001 then class b"), "{text}");
}

#[test]
fn unused_features_are_unconnected() {
    // Features 2.. of the rotated XOR are noise; a depth-2 tree uses few.
    let data = rotated_xor(400, 6, 0.4, 5);
    let model = NreParams::paper().max_depth(2).initialize(&data).unwrap();
    let used: std::collections::BTreeSet<usize> =
        model.paths().iter().flatten().map(|s| s.feature).collect();
    assert_eq!(
        model.inputs(),
        used.into_iter().collect::<Vec<_>>().as_slice()
    );
    assert!(model.inputs().len() < data.n_features());
    let net = model.network();
    assert_eq!(net.n_inputs(), model.inputs().len());
    // Parameters: Σ_k d_k (q + 1) + m (notes §1.6).
    let q = net.n_inputs();
    let expected: usize = net
        .units_per_rule()
        .iter()
        .map(|d| d * (q + 1))
        .sum::<usize>()
        + net.n_rules();
    assert_eq!(net.n_params(), expected);
    // The calibrated start adds one offset d_k per rule.
    let calibrated = NreParams::default().max_depth(2).initialize(&data).unwrap();
    assert_eq!(
        calibrated.network().n_params(),
        expected + calibrated.network().n_rules()
    );
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 12,
        rng_seed: proptest::test_runner::RngSeed::Fixed(4),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn agreement_holds_for_random_data(seed in 0u64..10_000, depth in 1usize..7, noise in 0usize..4) {
        let data = rotated_xor(150, noise, 0.25 * (seed % 7) as f64, seed);
        let model = NreParams::default().max_depth(depth).initialize(&data).unwrap();
        // A shallow tree on noisy XOR can have leaves with n⁺ = n⁻, where
        // the sign is undefined; every other row was checked.
        let checked = check_agreement(&model, &data);
        let tree = model.tree().tree();
        let all_balanced = tree
            .leaf_ids()
            .iter()
            .all(|&l| tree.value(l)[1] == tree.value(l)[0]);
        prop_assert!(checked > 0 || all_balanced);
    }
}

/// The case an unseeded proptest run once found: a depth-1 tree on noisy
/// rotated XOR whose leaves are nearly balanced. Every row with a non-zero
/// leaf value still agrees in sign.
#[test]
fn agreement_holds_on_a_nearly_balanced_stump() {
    let data = rotated_xor(150, 3, 0.25 * (2715 % 7) as f64, 2715);
    let model = NreParams::default().max_depth(1).initialize(&data).unwrap();
    check_agreement(&model, &data);
}

/// `data` with every feature mapped to an integer grid: `2·round(3x)`, plus
/// `odd` (so `odd = 1` puts values on the training grid's midpoints).
fn on_grid(data: &Dataset, odd: f64) -> Dataset {
    let columns = (0..data.n_features())
        .map(|j| {
            data.column(j)
                .iter()
                .map(|v| 2.0 * (3.0 * v).round() + odd)
                .collect()
        })
        .collect();
    Dataset::new(
        data.name(),
        data.features().to_vec(),
        columns,
        data.target_view(),
    )
    .unwrap()
}

/// Issue 10: with integer-valued features, test values sit exactly on the
/// tree's midpoint thresholds. The untrained network must still predict
/// exactly as CART of the same depth and seed (the suite's DT), row for
/// row, covering every row: the tree is grown on raw values and its
/// thresholds mapped monotonically into standardised space.
#[test]
fn untrained_network_predicts_as_cart_of_the_same_depth() {
    for (seed, depth) in [(1u64, 4usize), (2, 6), (3, 8)] {
        let train = on_grid(&twonorm(800, seed), 0.0);
        let base = twonorm(400, seed + 100);
        for test in [on_grid(&base, 0.0), on_grid(&base, 1.0)] {
            let cart = DecisionTreeParams::classifier()
                .max_depth(depth)
                .seed(seed)
                .fit(&train)
                .unwrap();
            let nre = NreParams::default()
                .max_depth(depth)
                .seed(seed)
                .max_epochs(0)
                .validation_fraction(0.0)
                .fit(&train)
                .unwrap();
            assert_eq!(nre.tree(), &cart);
            assert_eq!(
                nre.predict_labels(&test).unwrap(),
                cart.predict_labels(&test).unwrap(),
                "seed {seed}, depth {depth}"
            );
            // The harness reads classes from the probabilities (argmax).
            assert_eq!(
                rulecover_core::Predict::predict(&nre, &test)
                    .unwrap()
                    .labels(),
                Some(cart.predict_labels(&test).unwrap())
            );
            let covered = nre.supports(&test).unwrap();
            for i in 0..test.n_rows() {
                assert!(covered.row(i).iter().any(|&v| v > 0.0), "row {i}");
            }
        }
    }
}
