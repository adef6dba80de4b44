//! `GradientBoosting::export_over`: gradient boosting lowered over given
//! feature values (here the encoded features of its own encoder) predicts
//! as the model (within 1e-12, same argmax labels), binomial,
//! multinomial and squared error.

use rc_tree::GradientBoostingParams;
use rulecover_core::predictions::argmax;
use rulecover_core::scoring::ProgramBuilder;
use rulecover_core::{Dataset, Feature, Fit, Fitted, Predict, Predictions, Rng, Schema, Target};

fn data(n: usize, seed: u64, n_classes: usize) -> Dataset {
    let mut rng = Rng::new(seed);
    let mut cols: Vec<Vec<f64>> = vec![Vec::new(); 3];
    let (mut labels, mut values) = (Vec::new(), Vec::new());
    for _ in 0..n {
        let (x, y, c) = (rng.normal(), rng.normal(), rng.below(3));
        let s = x - 0.5 * y + if c == 2 { 1.0 } else { 0.0 } + 0.3 * rng.normal();
        cols[0].push(x);
        cols[1].push(y);
        cols[2].push(c as f64);
        values.push(s);
        labels.push(match n_classes {
            2 => usize::from(s > 0.0),
            _ => usize::from(s > -0.5) + usize::from(s > 0.7),
        });
    }
    let target = if n_classes == 0 {
        Target::Real(values)
    } else {
        Target::Classes {
            labels,
            names: (0..n_classes).map(|c| format!("c{c}")).collect(),
        }
    };
    Dataset::new(
        "gb",
        vec![
            Feature::numeric("x"),
            Feature::numeric("y"),
            Feature::categorical("c", vec!["a".into(), "b".into(), "z".into()]),
        ],
        cols,
        target,
    )
    .unwrap()
}

#[test]
fn boosting_lowered_over_its_encoded_features_predicts_as_the_model() {
    for n_classes in [2, 3, 0] {
        let train = data(300, 1, n_classes);
        let test = data(200, 2, n_classes);
        let model = GradientBoostingParams::new()
            .n_estimators(30)
            .max_depth(Some(3))
            .seed(3)
            .fit(&train)
            .unwrap();
        let mut builder = ProgramBuilder::new(Schema::of(&train));
        let features = builder.encoded_features(model.encoder()).unwrap();
        let output = model.export_over(&mut builder, &features).unwrap();
        let program = builder.finish(output).unwrap();
        // One value too few is refused.
        let mut short = ProgramBuilder::new(Schema::of(&train));
        assert!(model.export_over(&mut short, &features[1..]).is_err());
        match (model.predict(&test).unwrap(), program.eval(&test)) {
            (
                Predictions::Classes {
                    n_classes: k,
                    proba: want,
                },
                Predictions::Classes { proba: have, .. },
            ) => {
                assert_eq!(want.len(), have.len());
                for (w, h) in want.chunks(k).zip(have.chunks(k)) {
                    for (a, b) in w.iter().zip(h) {
                        assert!((a - b).abs() <= 1e-12, "{w:?} vs {h:?}");
                    }
                    assert_eq!(argmax(w), argmax(h));
                }
            }
            (Predictions::Values(want), Predictions::Values(have)) => {
                for (a, b) in want.iter().zip(&have) {
                    assert!((a - b).abs() <= 1e-12, "{a} vs {b}");
                }
            }
            (want, have) => panic!("{want:?} vs {have:?}"),
        }
    }
}
