//! Property tests on small random data sets with many ties: integer
//! weights equal duplicated rows, rules partition the rows exactly as the
//! tree routes them.

use proptest::prelude::*;
use rc_tree::{Criterion, DecisionTreeParams};
use rulecover_core::{Dataset, Feature, Fit, Target};

fn dataset(rows: &[Vec<f64>], labels: &[usize]) -> Dataset {
    let p = rows[0].len();
    Dataset::from_rows(
        "prop",
        (0..p).map(|j| Feature::numeric(format!("x{j}"))).collect(),
        rows,
        Target::Classes {
            labels: labels.to_vec(),
            names: vec!["a".into(), "b".into(), "c".into()],
        },
    )
    .unwrap()
}

/// Rows of 1..4 features drawn from a small grid (so values repeat),
/// labels in 0..3, and integer weights in 0..=3 (at least one positive).
fn data_strategy() -> impl Strategy<Value = (Vec<Vec<f64>>, Vec<usize>, Vec<f64>)> {
    (1usize..4, 2usize..50).prop_flat_map(|(p, n)| {
        (
            prop::collection::vec(prop::collection::vec(-3i32..4, p), n),
            prop::collection::vec(0usize..3, n),
            prop::collection::vec(0u32..4, n),
        )
            .prop_map(|(rows, labels, mut w)| {
                if w.iter().all(|&v| v == 0) {
                    w[0] = 1;
                }
                let rows = rows
                    .into_iter()
                    .map(|r| r.into_iter().map(|v| v as f64 * 0.7).collect())
                    .collect();
                (rows, labels, w.into_iter().map(f64::from).collect())
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 64,
        // A fixed seed: CI runs the same cases every time (a failing case
        // stays reproducible); change the seed locally to explore.
        rng_seed: proptest::test_runner::RngSeed::Fixed(12),
        ..ProptestConfig::default()
    })]

    #[test]
    fn integer_weights_equal_duplicated_rows((rows, labels, w) in data_strategy()) {
        let data = dataset(&rows, &labels);
        let idx: Vec<usize> = (0..rows.len()).flat_map(|i| std::iter::repeat_n(i, w[i] as usize)).collect();
        let dup = data.subset(&idx).unwrap();
        for crit in [Criterion::Gini, Criterion::Entropy] {
            let params = DecisionTreeParams::classifier().criterion(crit);
            let a = params.fit_weighted(&data, &w).unwrap();
            let b = params.fit(&dup).unwrap();
            prop_assert_eq!(a.tree().n_nodes(), b.tree().n_nodes());
            for (x, y) in a.tree().nodes().zip(b.tree().nodes()) {
                prop_assert_eq!(x.split, y.split);
                prop_assert_eq!(x.value, y.value);
            }
        }
    }

    #[test]
    fn rules_route_rows_like_the_tree((rows, labels, w) in data_strategy()) {
        let data = dataset(&rows, &labels);
        let model = DecisionTreeParams::classifier().fit_weighted(&data, &w).unwrap();
        let leaves = model.apply(&data).unwrap();
        let rules = model.leaf_rules();
        for (i, &leaf) in leaves.iter().enumerate() {
            let row = data.row(i);
            let covering: Vec<usize> = rules.iter().filter(|(_, r)| r.covers_row(&row)).map(|(id, _)| *id).collect();
            prop_assert_eq!(covering, vec![leaf]);
        }
    }
}
