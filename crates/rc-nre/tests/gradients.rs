#![allow(clippy::needless_range_loop)] // finite differences walk parameter indices
//! Backward passes against central finite differences of the batch loss,
//! for shallow and deep neural rules and the MLP, under every loss.

use nalgebra::DMatrix;

use rc_nre::train::loss_and_gradient;
use rc_nre::{Loss, Mlp, Network, NreParams};
use rulecover_core::generate::{rotated_xor, twonorm};
use rulecover_core::Rng;

/// Compares the analytic gradient with central differences on every
/// parameter; returns how many parameters had a non-zero gradient.
fn check<N: Network>(net: &mut N, x: &DMatrix<f64>, y: &[f64], loss: Loss, l2: f64) -> usize {
    let n = net.params().len();
    let mut grad = vec![0.0; n];
    let mut cache = N::Cache::default();
    loss_and_gradient(net, x, y, loss, l2, &mut cache, &mut grad).unwrap();
    let h = 1e-6;
    let mut nonzero = 0;
    let mut kinks = 0;
    for p in 0..n {
        let orig = net.params()[p];
        net.params_mut()[p] = orig + h;
        let up = loss_and_gradient(net, x, y, loss, l2, &mut cache, &mut vec![0.0; n]).unwrap();
        net.params_mut()[p] = orig - h;
        let down = loss_and_gradient(net, x, y, loss, l2, &mut cache, &mut vec![0.0; n]).unwrap();
        net.params_mut()[p] = orig;
        let fd = (up - down) / (2.0 * h);
        let tol = 1e-6 * (1.0 + fd.abs().max(grad[p].abs()));
        if (fd - grad[p]).abs() >= tol {
            // A kink of a ReLU or of the min within ±h: the analytic
            // gradient must then equal one of the one-sided derivatives.
            let base =
                loss_and_gradient(net, x, y, loss, l2, &mut cache, &mut vec![0.0; n]).unwrap();
            let (fwd, bwd) = ((up - base) / h, (base - down) / h);
            let tol1 = 1e-5 * (1.0 + grad[p].abs());
            assert!(
                (fwd - bwd).abs() > tol && ((fwd - grad[p]).abs() < tol1 || (bwd - grad[p]).abs() < tol1),
                "parameter {p} of {n}: analytic {} vs finite difference {fd} (one-sided {fwd}, {bwd}; {loss:?})",
                grad[p]
            );
            kinks += 1;
        }
        if grad[p] != 0.0 {
            nonzero += 1;
        }
    }
    assert!(kinks * 50 <= n, "{kinks} of {n} parameters sit on a kink");
    nonzero
}

/// A network from a tree on `data` (calibrated start, so with rule
/// offsets `d`), its parameters perturbed so that the zero-initialised
/// connections, `c`, `d` and (deep) `V` all matter.
fn perturbed_rules(deep: bool, seed: u64) -> (rc_nre::NeuralRules, DMatrix<f64>, Vec<f64>) {
    let data = rotated_xor(120, 2, 0.5, seed);
    let model = NreParams::default()
        .max_depth(3)
        .deep(deep)
        .initialize(&data)
        .unwrap();
    let x = model.network_inputs(&data).unwrap();
    let y: Vec<f64> = (0..data.n_rows())
        .map(|i| if data.label(i) == 1 { 1.0 } else { -1.0 })
        .collect();
    let mut net = model.network().clone();
    let mut rng = Rng::new(seed);
    for p in net.params_mut() {
        *p += 0.2 * rng.normal();
    }
    (net, x, y)
}

#[test]
fn shallow_rules_match_finite_differences() {
    for (seed, loss) in [(1, Loss::Logistic), (2, Loss::Hinge), (3, Loss::Squared)] {
        let (mut net, x, y) = perturbed_rules(false, seed);
        let nz = check(&mut net, &x, &y, loss, 0.0);
        assert!(nz > net.params().len() / 2, "only {nz} non-zero gradients");
    }
}

#[test]
fn deep_rules_match_finite_differences() {
    for (seed, loss) in [(4, Loss::Logistic), (5, Loss::Hinge), (6, Loss::Squared)] {
        let (mut net, x, y) = perturbed_rules(true, seed);
        assert!(net.is_deep());
        let nz = check(&mut net, &x, &y, loss, 0.0);
        assert!(nz > net.params().len() / 2, "only {nz} non-zero gradients");
    }
}

#[test]
fn l2_penalty_is_differentiated() {
    let (mut net, x, y) = perturbed_rules(false, 7);
    check(&mut net, &x, &y, Loss::Logistic, 0.01);
}

#[test]
fn mlp_matches_finite_differences() {
    let data = twonorm(120, 3);
    let x = DMatrix::from_fn(data.n_rows(), data.n_features(), |i, j| data.value(i, j));
    let y: Vec<f64> = (0..data.n_rows())
        .map(|i| if data.label(i) == 1 { 1.0 } else { -1.0 })
        .collect();
    for (h, loss) in [(7, Loss::Logistic), (5, Loss::Hinge), (6, Loss::Squared)] {
        let mut net = Mlp::new(data.n_features(), h, 11);
        let nz = check(&mut net, &x, &y, loss, 0.001);
        assert!(nz > net.params().len() / 2);
    }
}

#[test]
fn min_pooling_routes_the_gradient_to_the_active_unit_only() {
    // At initialisation, a training row lies in exactly one leaf: only the
    // units of that rule get gradient, and of them only the minimising one.
    let data = rotated_xor(200, 0, 0.3, 9);
    // The paper's start: the calibrated one has c_k = 0, so no gradient
    // reaches the units before the first step.
    let model = NreParams::paper().max_depth(2).initialize(&data).unwrap();
    let net = model.network().clone();
    let x = model.network_inputs(&data).unwrap();
    let row = x.rows(0, 1).into_owned();
    let y = [if data.label(0) == 1 { 1.0 } else { -1.0 }];
    let mut grad = vec![0.0; net.params().len()];
    let mut cache = rc_nre::RulesCache::default();
    loss_and_gradient(&net, &row, &y, Loss::Logistic, 0.0, &mut cache, &mut grad).unwrap();
    let s = net.supports(&row);
    let active: Vec<usize> = (0..net.n_rules()).filter(|&k| s[(0, k)] > 0.0).collect();
    assert_eq!(active.len(), 1);
    let k = active[0];
    // The bias gradients (one per unit) follow the weights block.
    let q = net.n_inputs();
    let h = net.n_units();
    let bias_grads = &grad[q * h..q * h + h];
    let touched: Vec<usize> = (0..h).filter(|&j| bias_grads[j] != 0.0).collect();
    assert_eq!(touched.len(), 1, "{touched:?}");
    assert!(net.rule_units(k).contains(&touched[0]));
    // The touched unit is the one with the smallest activation.
    let z: Vec<f64> = net
        .rule_units(k)
        .map(|j| {
            net.unit_bias(j)
                + net
                    .unit_weights(j)
                    .iter()
                    .zip(row.iter())
                    .map(|(w, x)| w * x)
                    .sum::<f64>()
        })
        .collect();
    let jmin = net.rule_units(k).start
        + z.iter()
            .enumerate()
            .min_by(|a, b| a.1.total_cmp(b.1))
            .map(|(i, _)| i)
            .unwrap();
    assert_eq!(touched[0], jmin);
}
