//! Scoring programs through the registry for the GLRM, RuleFit, GBT, NRE
//! and MLP families: for every method id and task it supports,
//! `model.model().program(schema)` evaluated on held-out rows (with
//! missing values where the learner reads them) gives
//! `FittedModel::predict` within 1e-12 per value, with the same argmax
//! labels.

mod common;

use rulecover::{fit, Task};
use rulecover_core::predictions::argmax;
use rulecover_core::{Dataset, Feature, Predictions, Rng, Target};

use common::small;

/// The methods whose models this test covers, and whether they read
/// missing numeric values.
const METHODS: &[(&str, bool)] = &[
    ("lr1", true),
    ("lrr", true),
    ("lr1n", true),
    ("lrrn", true),
    ("linear-rule", true),
    ("rulefit", true),
    ("rulefit-n", true),
    ("gbt", true),
    ("nre", false),
    ("nre-deep", false),
    ("ann", false),
];

/// Numeric `x` (15% missing when `missing`), numeric `z`, categorical
/// `color` (3 levels, 10% missing); the target of `task` depends on all
/// three.
fn data(n: usize, seed: u64, task: Task, missing: bool) -> Dataset {
    let mut rng = Rng::new(seed);
    let (mut x, mut z, mut color, mut values) = (vec![], vec![], vec![], vec![]);
    for _ in 0..n {
        let xi = rng.normal();
        let zi = 10.0 * rng.next_f64();
        let ci = rng.below(3);
        values.push(1.5 * xi + if ci == 1 { 2.0 } else { -1.0 } + 0.3 * zi - 1.5 + rng.normal());
        x.push(if missing && rng.next_f64() < 0.15 {
            f64::NAN
        } else {
            xi
        });
        z.push(zi);
        color.push(if rng.next_f64() < 0.1 {
            f64::NAN
        } else {
            ci as f64
        });
    }
    let target = match task {
        Task::Regression => Target::Real(values),
        Task::Binary => Target::Classes {
            labels: values.iter().map(|&s| usize::from(s > 0.0)).collect(),
            names: vec!["no".into(), "yes".into()],
        },
        _ => Target::Classes {
            labels: values
                .iter()
                .map(|&s| usize::from(s > -1.0) + usize::from(s > 1.5))
                .collect(),
            names: vec!["low".into(), "mid".into(), "high".into()],
        },
    };
    Dataset::new(
        "export",
        vec![
            Feature::numeric("x"),
            Feature::categorical("color", vec!["red".into(), "green".into(), "blue".into()]),
            Feature::numeric("z"),
        ],
        vec![x, color, z],
        target,
    )
    .unwrap()
}

#[test]
fn every_glm_and_nre_family_program_predicts_as_its_model() {
    let mut checked = 0;
    for &(id, reads_missing) in METHODS {
        let spec = rulecover::method(id).unwrap().spec();
        let mut params: Vec<(&str, &str)> = small(id);
        if spec.params.iter().any(|p| p.name == "lambda0") {
            params.push(("lambda0", "0.01"));
        }
        for task in [Task::Binary, Task::Multiclass, Task::Regression] {
            if !spec.tasks.contains(&task) {
                continue;
            }
            let train = data(300, 1, task, reads_missing);
            let test = data(200, 2, task, reads_missing);
            let fitted =
                fit(id, &params, &train, None, 7).unwrap_or_else(|e| panic!("{id} {task:?}: {e}"));
            let program = fitted
                .model()
                .program(fitted.schema())
                .unwrap_or_else(|e| panic!("{id} {task:?}: {e}"));
            let want = fitted.predict(&test).unwrap();
            let have = program.eval(&test);
            match (&want, &have) {
                (
                    Predictions::Classes {
                        n_classes: k,
                        proba: w,
                    },
                    Predictions::Classes {
                        n_classes: k2,
                        proba: h,
                    },
                ) => {
                    assert_eq!(k, k2, "{id} {task:?}");
                    assert_eq!(w.len(), h.len(), "{id} {task:?}");
                    for (i, (w, h)) in w.chunks(*k).zip(h.chunks(*k)).enumerate() {
                        for (a, b) in w.iter().zip(h) {
                            assert!(
                                (a - b).abs() <= 1e-12,
                                "{id} {task:?} row {i}: {w:?} vs {h:?}"
                            );
                        }
                        assert_eq!(argmax(w), argmax(h), "{id} {task:?} row {i}");
                    }
                }
                (Predictions::Values(w), Predictions::Values(h)) => {
                    assert_eq!(w.len(), h.len(), "{id} {task:?}");
                    for (i, (a, b)) in w.iter().zip(h).enumerate() {
                        assert!((a - b).abs() <= 1e-12, "{id} {task:?} row {i}: {a} vs {b}");
                    }
                }
                _ => panic!("{id} {task:?}: {want:?} vs {have:?}"),
            }
            checked += 1;
        }
    }
    // 8 methods with three tasks, 3 binary and multi-class.
    assert_eq!(checked, 8 * 3 + 3 * 2);
}
