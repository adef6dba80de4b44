//! Sample weights: a weighted loss whose gradient is the duplicated rows'
//! gradient, unit weights that change nothing, zero weights that drop
//! rows, and full-batch training that follows the replicated data (with
//! the contract shared by every learner, `rulecover_core::testing`).

use nalgebra::DMatrix;
use rc_nre::train::{loss_and_gradient, weighted_loss_and_gradient};
use rc_nre::{
    Error, Loss, Mlp, MlpCache, MlpParams, Network, NreParams, RulesCache, TrainParams, TrainSet,
};
use rulecover_core::generate::{rotated_xor, twonorm};
use rulecover_core::testing::{self, Agreement};
use rulecover_core::{Dataset, Fit, Predict};

fn json<T: serde::Serialize>(model: &T) -> String {
    serde_json::to_string(model).unwrap()
}

/// Weights 0, 1, 2 or 3, cycling irregularly.
fn integer_weights(n: usize) -> Vec<f64> {
    (0..n).map(|i| ((i * 7 + i / 5) % 4) as f64).collect()
}

fn nre() -> NreParams {
    NreParams::default().max_depth(3).max_epochs(30).seed(2)
}

fn mlp() -> MlpParams {
    MlpParams::default()
        .hidden(8)
        .train(TrainParams::default().max_epochs(30))
        .seed(2)
}

#[test]
fn equal_weights_give_exactly_the_unweighted_model() {
    let data = twonorm(300, 1);
    let n = data.n_rows();
    for w in [vec![1.0; n], vec![3.7; n], vec![1e-200; n]] {
        for p in [nre(), nre().deep(true), nre().refit(true)] {
            assert_eq!(
                json(&p.fit_weighted(&data, &w).unwrap()),
                json(&p.fit(&data).unwrap())
            );
        }
        assert_eq!(
            json(&mlp().fit_weighted(&data, &w).unwrap()),
            json(&mlp().fit(&data).unwrap())
        );
    }
}

#[test]
fn unit_weights_take_the_unweighted_training_steps() {
    // The weighted arithmetic itself, not a shortcut: train() with weights
    // 1 on the training and validation rows reproduces the unweighted run
    // bit for bit.
    let data = twonorm(400, 3);
    let model = nre().initialize(&data).unwrap();
    let x = model.network_inputs(&data).unwrap();
    let y: Vec<f64> = data
        .labels()
        .unwrap()
        .iter()
        .map(|&l| if l == 1 { 1.0 } else { -1.0 })
        .collect();
    let (xv, yv) = (x.rows(0, 50).into_owned(), y[..50].to_vec());
    let ones = vec![1.0; y.len()];
    let params = TrainParams::default().max_epochs(15).batch_size(64);
    let mut a = model.network().clone();
    let mut b = model.network().clone();
    let ha = rc_nre::train(
        &mut a,
        TrainSet::new(&x, &y),
        Some(TrainSet::new(&xv, &yv)),
        &params,
        7,
        &mut |_, _| {},
    )
    .unwrap();
    let hb = rc_nre::train(
        &mut b,
        TrainSet::new(&x, &y).weighted(&ones),
        Some(TrainSet::new(&xv, &yv).weighted(&ones[..50])),
        &params,
        7,
        &mut |_, _| {},
    )
    .unwrap();
    assert_eq!(a, b);
    assert_eq!(ha, hb);
}

#[test]
fn zero_weights_drop_their_rows() {
    let data = rotated_xor(400, 1, 0.5, 4);
    let w = integer_weights(data.n_rows());
    let kept = w.iter().filter(|&&v| v > 0.0).count();
    assert!(kept < w.len() && kept > w.len() / 2);
    // With 0/1 weights the model is the unweighted fit of the kept rows.
    let binary: Vec<f64> = w.iter().map(|&v| f64::from(v > 0.0)).collect();
    for p in [nre(), nre().deep(true)] {
        let (weighted, dropped) =
            testing::assert_zero_weights_drop_rows(&p, &data, &w, &data, Agreement::Exact, "nre");
        assert_eq!(json(&weighted), json(&dropped));
        let (weighted, dropped) = testing::assert_zero_weights_drop_rows(
            &p,
            &data,
            &binary,
            &data,
            Agreement::Exact,
            "nre",
        );
        assert_eq!(json(&weighted), json(&dropped));
    }
    let (weighted, dropped) =
        testing::assert_zero_weights_drop_rows(&mlp(), &data, &w, &data, Agreement::Exact, "mlp");
    assert_eq!(json(&weighted), json(&dropped));
}

#[test]
fn weighted_gradient_is_the_duplicated_rows_gradient() {
    let data = twonorm(120, 5);
    let w = integer_weights(data.n_rows());
    let model = nre().deep(true).max_epochs(5).fit(&data).unwrap();
    let x = model.network_inputs(&data).unwrap();
    let y: Vec<f64> = (0..data.n_rows())
        .map(|i| if data.label(i) == 1 { 1.0 } else { -1.0 })
        .collect();
    let rows: Vec<usize> = (0..w.len())
        .flat_map(|i| std::iter::repeat_n(i, w[i] as usize))
        .collect();
    let xr = DMatrix::from_fn(rows.len(), x.ncols(), |r, c| x[(rows[r], c)]);
    let yr: Vec<f64> = rows.iter().map(|&i| y[i]).collect();
    let close = |a: &[f64], b: &[f64]| {
        a.iter()
            .zip(b)
            .all(|(u, v)| (u - v).abs() <= 1e-12 * (1.0 + u.abs()))
    };
    for loss in [Loss::Logistic, Loss::Hinge, Loss::Squared] {
        let net = model.network();
        let n = net.n_params();
        let (mut g1, mut g2) = (vec![0.0; n], vec![0.0; n]);
        let mut cache = RulesCache::default();
        let l1 =
            weighted_loss_and_gradient(net, &x, &y, &w, loss, 0.01, &mut cache, &mut g1).unwrap();
        let l2 = loss_and_gradient(net, &xr, &yr, loss, 0.01, &mut cache, &mut g2).unwrap();
        assert!((l1 - l2).abs() < 1e-12, "{loss:?}: {l1} vs {l2}");
        assert!(close(&g1, &g2), "{loss:?}");
        assert!(g1.iter().any(|&g| g != 0.0));
        // The MLP too.
        let mlp = Mlp::new(x.ncols(), 6, 9);
        let m = mlp.params().len();
        let (mut g1, mut g2) = (vec![0.0; m], vec![0.0; m]);
        let mut cache = MlpCache::default();
        weighted_loss_and_gradient(&mlp, &x, &y, &w, loss, 0.0, &mut cache, &mut g1).unwrap();
        loss_and_gradient(&mlp, &xr, &yr, loss, 0.0, &mut cache, &mut g2).unwrap();
        assert!(close(&g1, &g2), "MLP {loss:?}");
    }
}

#[test]
fn full_batch_weighted_fit_follows_the_replicated_rows() {
    let data = twonorm(200, 6);
    let w = integer_weights(data.n_rows());
    let copies = testing::duplicated_rows(&data, &w);
    let p = nre()
        .validation_fraction(0.0)
        .batch_size(10_000)
        .max_epochs(40);
    let test = twonorm(300, 7);
    // Labels only: the training steps agree up to rounding.
    let (weighted, repl) = testing::assert_integer_weights_equal_duplicated_rows(
        &p,
        &data,
        &w,
        &test,
        Agreement::Labels,
        "full batch",
    );
    // The same tree (rc-tree's weights are replication-exact: same splits,
    // same weighted leaf counts) and the same training steps up to
    // rounding.
    let (tw, tr) = (weighted.tree(), repl.tree());
    assert_eq!(tw.leaf_rules(), tr.leaf_rules());
    for &leaf in weighted.leaves() {
        assert_eq!(tw.tree().value(leaf), tr.tree().value(leaf));
    }
    let (a, b) = (weighted.network().params(), repl.network().params());
    assert!(
        a.iter().zip(b).all(|(u, v)| (u - v).abs() < 1e-8),
        "parameters drifted"
    );
    assert!((weighted.prior() - repl.prior()).abs() < 1e-15);
    // Mini-batches differ (weighted rows vs copies), the loss does not: the
    // models differ but both learn.
    let mb = nre().validation_fraction(0.0).batch_size(32);
    let a = mb.fit_weighted(&data, &w).unwrap();
    assert_ne!(json(&a), json(&mb.fit(&copies).unwrap()));
}

#[test]
fn weights_shift_the_model_toward_heavy_rows() {
    // Up-weighting the positive rows raises the prior and the share of
    // rows predicted positive.
    let data = twonorm(400, 8);
    let w: Vec<f64> = (0..data.n_rows())
        .map(|i| if data.label(i) == 1 { 5.0 } else { 1.0 })
        .collect();
    let plain = nre().fit(&data).unwrap();
    let heavy = nre().fit_weighted(&data, &w).unwrap();
    assert!(heavy.prior() > plain.prior());
    let positives = |m: &rc_nre::NreModel| {
        m.predict(&data)
            .unwrap()
            .labels()
            .unwrap()
            .iter()
            .sum::<usize>()
    };
    assert!(positives(&heavy) > positives(&plain));
}

#[test]
fn models_read_columns_by_name_and_survive_serde() {
    let data = twonorm(200, 10);
    let n = nre().fit(&data).unwrap();
    testing::assert_columns_read_by_name(&n, &data, "nre");
    testing::assert_serde_round_trip(&n, &data, "nre");
    let m = mlp().fit(&data).unwrap();
    testing::assert_columns_read_by_name(&m, &data, "mlp");
    testing::assert_serde_round_trip(&m, &data, "mlp");
}

#[test]
fn bad_weights_are_typed_errors() {
    let data = twonorm(50, 9);
    let n = data.n_rows();
    let mut negative = vec![1.0; n];
    negative[3] = -1.0;
    let mut nan = vec![1.0; n];
    nan[4] = f64::NAN;
    for w in [negative, nan, vec![0.0; n]] {
        for e in [
            nre().fit_weighted(&data, &w).unwrap_err(),
            mlp().fit_weighted(&data, &w).unwrap_err(),
        ] {
            assert!(
                matches!(
                    &e,
                    Error::Core(rulecover_core::Error::InvalidParameter {
                        name: "sample_weight",
                        ..
                    })
                ),
                "{e}"
            );
        }
    }
    assert!(matches!(
        nre().fit_weighted(&data, &[1.0; 3]),
        Err(Error::Core(rulecover_core::Error::Shape(_)))
    ));
    // Weights on one class only leave one class: named as such.
    let one_class: Vec<f64> = (0..n).map(|i| f64::from(data.label(i) as u8)).collect();
    assert!(matches!(
        nre().fit_weighted(&data, &one_class),
        Err(Error::OneClass { .. })
    ));
    // A missing value in a row of weight 0 is still reported, with its row.
    let mut cols: Vec<Vec<f64>> = (0..data.n_features())
        .map(|j| data.column(j).to_vec())
        .collect();
    cols[2][5] = f64::NAN;
    let holed = Dataset::new("holed", data.features().to_vec(), cols, data.target_view()).unwrap();
    let mut w = vec![1.0; n];
    w[5] = 0.0;
    assert!(matches!(
        nre().fit_weighted(&holed, &w),
        Err(Error::NonFinite { row: 5, .. })
    ));
    // Low-level training checks its weights too.
    let model = nre().initialize(&data).unwrap();
    let x = model.network_inputs(&data).unwrap();
    let y = vec![1.0; n];
    let e = rc_nre::train(
        &mut model.network().clone(),
        TrainSet::new(&x, &y).weighted(&[1.0; 2]),
        None,
        &TrainParams::default(),
        0,
        &mut |_, _| {},
    );
    assert!(matches!(
        e,
        Err(Error::InvalidParameter { name: "train", .. })
    ));
}
