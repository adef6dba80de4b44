//! Scoring programs of NRE (shallow and deep rules, every loss, both
//! initialisations) and MLP models: `Program::of(&model, schema).eval(data)`
//! gives `model.predict(data)` (within 1e-12 per value, same argmax
//! labels) on held-out rows, binary and one-vs-rest, with missing
//! categorical values (all-zero indicators; numeric values must be
//! present for these models).

use rc_nre::{Loss, MlpParams, NreInit, NreParams, TrainParams};
use rulecover_core::predictions::argmax;
use rulecover_core::scoring::{Export, Program};
use rulecover_core::{
    Dataset, Encoding, Feature, Fit, OneVsRest, Predict, Predictions, Rng, Schema, Target,
};

/// Numeric `x`, `y`, `u`, `v`, a categorical `color` (3 levels, 10%
/// missing); class by a rotated boundary and the colour.
fn data(n: usize, seed: u64, n_classes: usize) -> Dataset {
    let mut rng = Rng::new(seed);
    let mut cols: Vec<Vec<f64>> = vec![Vec::new(); 5];
    let mut labels = Vec::with_capacity(n);
    for _ in 0..n {
        let (x, y, u, v) = (rng.normal(), rng.normal(), rng.next_f64(), rng.normal());
        let c = rng.below(3);
        let s = x + y + if c == 1 { 1.0 } else { -0.5 } + 0.5 * u + 0.3 * rng.normal();
        cols[0].push(x);
        cols[1].push(y);
        cols[2].push(u);
        cols[3].push(v);
        cols[4].push(if rng.next_f64() < 0.1 {
            f64::NAN
        } else {
            c as f64
        });
        labels.push(if n_classes == 2 {
            usize::from(s > 0.0)
        } else if s < -0.8 {
            0
        } else if s < 0.8 {
            1
        } else {
            2
        });
    }
    Dataset::new(
        "export",
        vec![
            Feature::numeric("x"),
            Feature::numeric("y"),
            Feature::numeric("u"),
            Feature::numeric("v"),
            Feature::categorical("color", vec!["red".into(), "green".into(), "blue".into()]),
        ],
        cols,
        Target::Classes {
            labels,
            names: (0..n_classes).map(|c| format!("c{c}")).collect(),
        },
    )
    .unwrap()
}

/// Asserts that the program of `model` over `train`'s schema predicts as
/// `model` on `test`.
fn assert_exact<M>(model: &M, train: &Dataset, test: &Dataset)
where
    M: Predict + Export,
    M::Error: std::fmt::Debug,
{
    let program = Program::of(model, Schema::of(train)).unwrap();
    let Predictions::Classes {
        n_classes: k,
        proba: want,
    } = model.predict(test).unwrap()
    else {
        panic!("a classifier")
    };
    let Predictions::Classes {
        n_classes: k2,
        proba: have,
    } = program.eval(test)
    else {
        panic!("class probabilities")
    };
    assert_eq!(k, k2);
    assert_eq!(want.len(), have.len());
    for (i, (w, h)) in want.chunks(k).zip(have.chunks(k)).enumerate() {
        for (a, b) in w.iter().zip(h) {
            assert!((a - b).abs() <= 1e-12, "row {i}: {w:?} vs {h:?}");
        }
        assert_eq!(argmax(w), argmax(h), "row {i}: {w:?} vs {h:?}");
    }
    assert!(
        want.chunks(k).any(|r| r != &want[..k]),
        "constant predictions"
    );
}

fn nre_variants() -> Vec<NreParams> {
    let mut out = Vec::new();
    for deep in [false, true] {
        for loss in [Loss::Logistic, Loss::Hinge, Loss::Squared] {
            for init in [NreInit::Calibrated, NreInit::Paper] {
                out.push(
                    NreParams::default()
                        .max_depth(3)
                        .deep(deep)
                        .loss(loss)
                        .init(init)
                        .max_epochs(15)
                        .seed(4),
                );
            }
        }
    }
    out
}

#[test]
fn nre_programs_predict_as_the_models() {
    let train = data(400, 1, 2);
    let test = data(300, 2, 2);
    for params in nre_variants() {
        let model = params.fit(&train).unwrap();
        assert_exact(&model, &train, &test);
    }
    // The untrained network (the tree's copy) and a deeper tree.
    for params in [
        NreParams::default().max_depth(2).max_epochs(0).seed(1),
        NreParams::default()
            .max_depth(5)
            .deep(true)
            .max_epochs(10)
            .seed(2),
        NreParams::default()
            .max_depth(3)
            .max_epochs(10)
            .encoding(Encoding::OneHot { drop_first: true })
            .seed(3),
    ] {
        let model = params.fit(&train).unwrap();
        assert_exact(&model, &train, &test);
    }
}

#[test]
fn one_vs_rest_nre_programs_predict_as_the_models() {
    let train = data(450, 3, 3);
    let test = data(300, 4, 3);
    for deep in [false, true] {
        let params = NreParams::default()
            .max_depth(3)
            .deep(deep)
            .max_epochs(10)
            .seed(5);
        let model = OneVsRest::new(params).fit(&train).unwrap();
        assert_exact(&model, &train, &test);
    }
}

fn mlp(hidden: usize, loss: Loss) -> MlpParams {
    MlpParams::default()
        .hidden(hidden)
        .train(TrainParams::default().max_epochs(15).loss(loss))
        .seed(6)
}

#[test]
fn mlp_programs_predict_as_the_models() {
    let train = data(400, 5, 2);
    let test = data(300, 6, 2);
    for loss in [Loss::Logistic, Loss::Hinge, Loss::Squared] {
        for hidden in [3, 16] {
            let model = mlp(hidden, loss).fit(&train).unwrap();
            assert_exact(&model, &train, &test);
        }
    }
    let train3 = data(450, 7, 3);
    let test3 = data(300, 8, 3);
    let model = OneVsRest::new(mlp(16, Loss::Logistic))
        .fit(&train3)
        .unwrap();
    assert_exact(&model, &train3, &test3);
}
