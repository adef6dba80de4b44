//! The paper's rotated-XOR simulation (§V-A, Figs. 4 and 5) on one neural
//! rule: trained alone, a shallow rule grows into a convex region holding
//! only positives (one of the two positive wedges); a deep rule becomes
//! non-convex and holds (almost) all positives.

use rc_nre::{NreModel, NreParams, TrainParams};
use rulecover_core::generate::rotated_xor;
use rulecover_core::{Dataset, Feature, Target};

fn data() -> Dataset {
    rotated_xor(800, 0, std::f64::consts::FRAC_PI_4, 4)
}

/// The rule of the tree leaf with the most positives, trained alone with
/// full-batch Adam for `iterations` steps.
fn single_rule(deep: bool, iterations: usize) -> (NreModel, NreModel) {
    let data = data();
    // The paper's start: Fig. 4 trains one rule from c_k = (n⁺ − n⁻)/n.
    let mut model = NreParams::paper()
        .max_depth(5)
        .deep(deep)
        .initialize(&data)
        .unwrap();
    let s = model.supports(&data).unwrap();
    let c = model.network().output_weights().to_vec();
    let best = (0..c.len())
        .filter(|&k| c[k] > 0.0)
        .max_by_key(|&k| {
            (0..data.n_rows())
                .filter(|&i| s[(i, k)] > 0.0 && data.label(i) == 1)
                .count()
        })
        .unwrap();
    model.retain_rules(&[best]).unwrap();
    let init = model.clone();
    let params = TrainParams::default()
        .batch_size(data.n_rows())
        .max_epochs(iterations)
        .validation_fraction(0.0);
    model.train(&data, &params, 1, &mut |_, _| {}).unwrap();
    (init, model)
}

/// (positives, negatives) inside the rule's support.
fn covered(model: &NreModel, data: &Dataset) -> (usize, usize) {
    let s = model.supports(data).unwrap();
    (0..data.n_rows())
        .filter(|&i| s[(i, 0)] > 0.0)
        .fold((0, 0), |(p, n), i| {
            if data.label(i) == 1 {
                (p + 1, n)
            } else {
                (p, n + 1)
            }
        })
}

/// Whether the support is convex along segments between covered rows: the
/// first pair whose midpoint is outside.
fn non_convex_pair(model: &NreModel, data: &Dataset) -> Option<(usize, usize)> {
    let s = model.supports(data).unwrap();
    let inside: Vec<usize> = (0..data.n_rows()).filter(|&i| s[(i, 0)] > 0.0).collect();
    let mut rows = Vec::new();
    let mut pairs = Vec::new();
    for (a, &i) in inside.iter().enumerate().step_by(7) {
        for &j in inside.iter().skip(a + 1).step_by(11) {
            rows.push(vec![
                (data.value(i, 0) + data.value(j, 0)) / 2.0,
                (data.value(i, 1) + data.value(j, 1)) / 2.0,
            ]);
            pairs.push((i, j));
        }
    }
    let mid = Dataset::from_rows(
        "midpoints",
        vec![Feature::numeric("x0"), Feature::numeric("x1")],
        &rows,
        Target::Classes {
            labels: vec![0; rows.len()],
            names: vec!["0".into(), "1".into()],
        },
    )
    .unwrap();
    let sm = model.supports(&mid).unwrap();
    (0..rows.len())
        .find(|&r| sm[(r, 0)] <= 0.0)
        .map(|r| pairs[r])
}

#[test]
fn shallow_rule_grows_but_stays_convex() {
    let data = data();
    let n_pos = (0..data.n_rows()).filter(|&i| data.label(i) == 1).count();
    let (init, trained) = single_rule(false, 1000);
    let (p0, _) = covered(&init, &data);
    let (p1, n1) = covered(&trained, &data);
    assert!(p1 >= p0 + 30, "support grew from {p0} to {p1} positives");
    assert!(n1 <= 10, "{n1} negatives inside");
    // One positive wedge only: the other is across the origin.
    assert!(p1 < n_pos * 6 / 10, "{p1} of {n_pos} positives");
    assert_eq!(non_convex_pair(&trained, &data), None);
}

#[test]
fn deep_rule_becomes_non_convex_and_holds_all_positives() {
    let data = data();
    let n_pos = (0..data.n_rows()).filter(|&i| data.label(i) == 1).count();
    let (_, trained) = single_rule(true, 1000);
    let (p1, n1) = covered(&trained, &data);
    assert!(p1 * 10 >= n_pos * 9, "{p1} of {n_pos} positives");
    assert!(n1 <= 10, "{n1} negatives inside");
    assert!(non_convex_pair(&trained, &data).is_some());
}
