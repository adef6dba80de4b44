//! `rulecover::fit_tuned`: the search over the registry grid, its record
//! in the model file, the one-standard-error rule, weights and a real
//! target.

use rulecover::{fit, fit_tuned, FittedModel, TuneMetric, TuneOptions};
use rulecover_core::generate;

#[test]
fn a_tuned_fit_is_the_fit_at_the_chosen_point_and_round_trips() {
    let data = generate::twonorm(150, 11);
    let options = TuneOptions::default();
    let tuned = fit_tuned("dt", &[("criterion", "entropy")], &data, None, 3, &options).unwrap();
    let t = tuned.model.tuning().unwrap();
    assert_eq!(t.metric, TuneMetric::Accuracy);
    assert_eq!(t.folds, 3);
    assert_eq!(t.grid.len(), 3);
    assert_eq!(t.chosen_index, t.best_index);
    let best = t.grid[t.best_index].mean;
    assert!(t.grid.iter().all(|p| p.mean <= best));
    assert!(t.grid[..t.best_index].iter().all(|p| p.mean < best));
    let depth = &t.chosen["max_depth"];
    // The refit is exactly the plain fit at the chosen point.
    let plain = fit(
        "dt",
        &[("criterion", "entropy"), ("max_depth", depth.as_str())],
        &data,
        None,
        3,
    )
    .unwrap();
    assert_eq!(plain.model(), tuned.model.model());
    assert_eq!(plain.params(), tuned.model.params());
    assert!(tuned.tune_seconds > 0.0);
    // The model file keeps the search's table.
    let loaded = FittedModel::from_json(&tuned.model.to_json().unwrap()).unwrap();
    assert_eq!(loaded, tuned.model);
    assert_eq!(loaded.tuning(), Some(t));
    // A file without it reads as before.
    assert!(FittedModel::from_json(&plain.to_json().unwrap())
        .unwrap()
        .tuning()
        .is_none());
}

#[test]
fn the_one_standard_error_rule_takes_the_first_point_near_the_best() {
    let data = generate::twonorm(150, 12);
    let options = TuneOptions {
        metric: Some(TuneMetric::LogLoss),
        folds: 3,
        one_se: true,
    };
    let tuned = fit_tuned("lr1", &[] as &[(&str, &str)], &data, None, 4, &options).unwrap();
    let t = tuned.model.tuning().unwrap();
    assert_eq!(t.grid.len(), 8);
    // Log loss: lower is better; the means are the losses themselves.
    let best = &t.grid[t.best_index];
    assert!(t
        .grid
        .iter()
        .all(|p| p.mean >= best.mean || p.mean.is_nan()));
    assert!(t.chosen_index <= t.best_index);
    let se = best.std / 3f64.sqrt();
    assert!(t.grid[t.chosen_index].mean <= best.mean + se + 1e-12);
    assert!(t.grid[..t.chosen_index]
        .iter()
        .all(|p| p.mean > best.mean + se || p.mean.is_nan()));
    assert_eq!(
        tuned.model.params()["lambda1"],
        t.grid[t.chosen_index].params["lambda1"]
    );
}

#[test]
fn weights_and_real_targets_tune_too() {
    let data = generate::twonorm(120, 13);
    let weights: Vec<f64> = (0..data.n_rows()).map(|i| (i % 3) as f64).collect();
    let options = TuneOptions {
        folds: 2,
        ..TuneOptions::default()
    };
    let tuned = fit_tuned(
        "rf",
        &[("n_estimators", "4")],
        &data,
        Some(&weights),
        5,
        &options,
    )
    .unwrap();
    assert_eq!(tuned.model.tuning().unwrap().grid.len(), 3);
    let x: Vec<f64> = (0..100).map(|i| i as f64 / 10.0).collect();
    let y: Vec<f64> = x.iter().map(|v| (v * 0.7).sin()).collect();
    let reg = rulecover_core::Dataset::new(
        "sine",
        vec![rulecover_core::Feature::numeric("x")],
        vec![x],
        rulecover_core::Target::Real(y),
    )
    .unwrap();
    let tuned = fit_tuned("dt", &[] as &[(&str, &str)], &reg, None, 1, &options).unwrap();
    assert_eq!(tuned.model.tuning().unwrap().metric, TuneMetric::R2);
    let bad = TuneOptions {
        metric: Some(TuneMetric::Auc),
        ..options
    };
    let e = fit_tuned("dt", &[] as &[(&str, &str)], &reg, None, 1, &bad).unwrap_err();
    assert!(matches!(e, rulecover::Error::Tune { .. }), "{e}");
    assert!(e.to_string().contains("tune_metric"), "{e}");
}
