//! Fitting end to end: learning, reproducibility, serialisation and the
//! exported rules.

use rc_nre::{MlpParams, NreModel, NreParams, StopOn, TrainParams};
use rulecover_core::generate::{ringnorm, rotated_xor, twonorm};
use rulecover_core::{Dataset, Fit, Predict, RuleModel};

fn error(labels: Vec<usize>, data: &Dataset) -> f64 {
    let truth = data.labels().unwrap();
    labels.iter().zip(&truth).filter(|(p, t)| p != t).count() as f64 / truth.len() as f64
}

fn tree_error(model: &NreModel, test: &Dataset) -> f64 {
    error(model.tree().predict_labels(test).unwrap(), test)
}

#[test]
fn training_tilts_the_boxes_and_beats_the_tree() {
    // twonorm's Bayes boundary is the diagonal hyperplane: axis-aligned
    // boxes approximate it badly, oblique rules do not.
    let (train, test) = (twonorm(1500, 1), twonorm(2000, 2));
    let model = NreParams::default()
        .max_depth(4)
        .seed(3)
        .fit(&train)
        .unwrap();
    let nre = error(model.predict(&test).unwrap().labels().unwrap(), &test);
    let tree = tree_error(&model, &test);
    assert!(nre < 0.06 && nre < tree - 0.08, "NRE {nre} vs tree {tree}");
    let h = model.history();
    assert!(h.epochs >= 1 && h.best_epoch <= h.epochs);
    assert_eq!(h.val_loss.len(), h.epochs);
    assert!(h.train_loss.first() > h.train_loss.last());
}

#[test]
fn mlp_baseline_learns() {
    let (train, test) = (ringnorm(1500, 3), ringnorm(1000, 4));
    let model = MlpParams::default().hidden(32).seed(1).fit(&train).unwrap();
    let err = error(model.predict(&test).unwrap().labels().unwrap(), &test);
    assert!(err < 0.08, "MLP error {err}");
}

#[test]
fn same_seed_same_model_on_any_thread() {
    let data = rotated_xor(600, 2, 0.5, 8);
    let params = NreParams::default().max_depth(3).max_epochs(30).seed(5);
    let a = serde_json::to_string(&params.fit(&data).unwrap()).unwrap();
    // Fitted concurrently on other threads: bit-identical.
    let others: Vec<String> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..2)
            .map(|_| s.spawn(|| serde_json::to_string(&params.fit(&data).unwrap()).unwrap()))
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert!(others.iter().all(|o| *o == a));
    let c = serde_json::to_string(&params.clone().seed(6).fit(&data).unwrap()).unwrap();
    assert_ne!(a, c);
    let mlp = MlpParams::default().hidden(8).seed(2);
    let m1 = serde_json::to_string(&mlp.fit(&data).unwrap()).unwrap();
    assert_eq!(m1, serde_json::to_string(&mlp.fit(&data).unwrap()).unwrap());
}

#[test]
fn models_round_trip_through_json() {
    let data = twonorm(400, 9);
    for deep in [false, true] {
        let model = NreParams::default()
            .max_depth(3)
            .deep(deep)
            .max_epochs(20)
            .fit(&data)
            .unwrap();
        let back: NreModel = serde_json::from_str(&serde_json::to_string(&model).unwrap()).unwrap();
        assert_eq!(back, model);
        assert_eq!(back.predict(&data).unwrap(), model.predict(&data).unwrap());
    }
    let mlp = MlpParams::default().hidden(8).fit(&data).unwrap();
    let back: rc_nre::MlpModel =
        serde_json::from_str(&serde_json::to_string(&mlp).unwrap()).unwrap();
    assert_eq!(back.predict(&data).unwrap(), mlp.predict(&data).unwrap());
}

#[test]
fn exported_rules_reproduce_the_network() {
    let data = rotated_xor(500, 2, 0.7, 10);
    for deep in [false, true] {
        let model = NreParams::default()
            .max_depth(3)
            .deep(deep)
            .max_epochs(40)
            .fit(&data)
            .unwrap();
        let rules = model.rules();
        assert_eq!(rules.len(), model.n_rules());
        let f = model.decision_function(&data).unwrap();
        for (i, fi) in f.iter().enumerate() {
            let row = data.row(i);
            let sum: f64 = rules.iter().map(|r| r.value(&row)).sum();
            assert!(
                (sum - fi).abs() < 1e-9 * (1.0 + fi.abs()),
                "row {i}: {sum} vs {fi}"
            );
            if !deep {
                // Shallow rules: the conjunction of the printed conditions
                // is the support.
                for r in &rules {
                    let all = r.conditions().iter().all(|c| c.holds(&row));
                    assert_eq!(all, r.support(&row) > 0.0, "row {i}");
                }
            }
        }
        let text = model.render_rules();
        assert_eq!(text.lines().count(), model.n_rules());
        assert!(text.contains('·'), "trained rules are oblique:\n{text}");
        assert!(text
            .lines()
            .all(|l| l.starts_with("if ") && l.contains(" then class ")));
        if deep {
            assert!(text.contains("where h1 = max(0, "), "{text}");
        }
    }
}

#[test]
fn early_stopping_keeps_the_best_epoch() {
    let data = ringnorm(800, 11);
    for stop in [StopOn::Error, StopOn::Loss] {
        let model = NreParams::default()
            .max_depth(4)
            .train(
                TrainParams::default()
                    .patience(5)
                    .max_epochs(300)
                    .stop_on(stop),
            )
            .fit(&data)
            .unwrap();
        let h = model.history();
        assert!(h.stopped_early || h.epochs == 300);
        assert!(h.epochs - h.best_epoch <= 5 || h.epochs == 300);
        if stop == StopOn::Loss && h.best_epoch > 0 {
            let best = h.val_loss[h.best_epoch - 1];
            assert!(h.val_loss.iter().all(|&v| v >= best));
            assert!(best < h.initial_val_loss.unwrap());
        }
    }
}

#[test]
fn uncovered_rows_get_the_training_prior() {
    // Untrained: every training row is in exactly one leaf; a row far
    // outside every box along a feature still falls in some leaf (tree
    // leaves are unbounded), so move a rule boundary by hand instead.
    let data = twonorm(300, 12);
    let mut model = NreParams::default().max_depth(1).initialize(&data).unwrap();
    model.retain_rules(&[0]).unwrap();
    let s = model.supports(&data).unwrap();
    let p = model.predict_positive(&data).unwrap();
    for i in 0..data.n_rows() {
        if s[(i, 0)] == 0.0 {
            assert_eq!(p[i], model.prior());
        }
    }
    assert!((0.3..0.7).contains(&model.prior()));
}

#[test]
fn refit_grows_the_tree_on_all_rows_and_trains_the_chosen_epochs() {
    let data = twonorm(800, 21);
    let params = NreParams::default()
        .max_depth(3)
        .max_epochs(40)
        .refit(true)
        .seed(4);
    let model = params.fit(&data).unwrap();
    let h = model.history();
    assert_eq!(h.refit_epochs, Some(h.best_epoch));
    // Exactly: the tree of all rows, trained for `best_epoch` epochs on
    // all rows with the same batch seed, from the paper's network (fit
    // trains from it whatever `init`; the calibrated copy is kept only
    // when it beats every epoch).
    assert!(!h.kept_calibrated_tree && h.best_epoch > 0, "{h:?}");
    let mut expect = params
        .clone()
        .init(rc_nre::NreInit::Paper)
        .initialize(&data)
        .unwrap();
    assert_eq!(model.tree(), expect.tree());
    let all_rows = params
        .train
        .clone()
        .validation_fraction(0.0)
        .max_epochs(h.best_epoch);
    expect.train(&data, &all_rows, 4, &mut |_, _| {}).unwrap();
    assert_eq!(model.network(), expect.network());
    // Without refitting, the tree never saw the validation rows.
    let plain = params.clone().refit(false).fit(&data).unwrap();
    assert_eq!(plain.history().refit_epochs, None);
    assert_ne!(plain.tree(), model.tree());
    assert_eq!(plain.history().best_epoch, h.best_epoch);
}

#[test]
fn fit_validated_records_the_curve_that_chooses_the_epochs() {
    let (a, b) = (twonorm(600, 31), twonorm(300, 32));
    let params = NreParams::default().max_depth(3).max_epochs(30).seed(2);
    let model = params.fit_validated(&a, &b).unwrap();
    let init = params.initialize(&a).unwrap();
    assert_eq!(model.tree(), init.tree());
    let h = model.history();
    let curve = h.val_error_curve();
    assert_eq!(curve.len(), h.epochs + 1);
    // Epoch 0 is the untrained network scored on the validation rows.
    let f = init.decision_function(&b).unwrap();
    let truth = b.labels().unwrap();
    let wrong = f
        .iter()
        .zip(&truth)
        .filter(|(&f, &t)| usize::from(f > 0.0) != t)
        .count();
    assert_eq!(curve[0], wrong as f64 / truth.len() as f64);
    assert!(curve[h.best_epoch] <= curve[0]);
    // Two "folds": the chosen epoch is where the mean curve is lowest.
    let other = params.fit_validated(&b, &a).unwrap();
    let (e, err) = rc_nre::mean_best_epoch(&[model.history(), other.history()]).unwrap();
    let c2 = other.history().val_error_curve();
    assert!(e < curve.len().min(c2.len()));
    assert_eq!(err, (curve[e] + c2[e]) / 2.0);
    assert!(err <= (curve[0] + c2[0]) / 2.0);
    assert!(rc_nre::mean_best_epoch(&[]).is_none());
    let unvalidated = rc_nre::TrainHistory::default();
    assert!(rc_nre::mean_best_epoch(&[&unvalidated, h]).is_none());
}

#[test]
fn rule_set_says_what_the_rules_are() {
    use rulecover_core::{Antecedent, Outcome};
    let data = rotated_xor(500, 2, 0.7, 10);
    // Untrained: each rule covers exactly its tree leaf's training rows.
    let init = NreParams::default().max_depth(3).initialize(&data).unwrap();
    let set = init.rule_set();
    for (rule, &leaf) in set.rules.iter().zip(init.leaves()) {
        assert_eq!(
            rule.coverage,
            init.tree().tree().node(leaf).unwrap().n_samples
        );
    }
    for deep in [false, true] {
        let mut model = NreParams::default()
            .max_depth(3)
            .deep(deep)
            .max_epochs(40)
            .fit(&data)
            .unwrap();
        let set = model.rule_set();
        assert_eq!(set.len(), model.n_rules());
        assert_eq!(set.features, model.features());
        assert_eq!(set.class_names, model.class_names());
        // Coverage recorded at fit: every training row (validation rows
        // included) in the rule's support.
        let coverage = model.rule_coverage(&data).unwrap();
        assert_eq!(model.coverage(), coverage.as_slice());
        let c = model.network().output_weights();
        for (k, rule) in set.rules.iter().enumerate() {
            assert_eq!(rule.coverage, coverage[k]);
            let d = model.network().rule_offset(k);
            assert_eq!(rule.outcome, Outcome::Value(d + c[k]));
            assert_eq!(rule.weight, 1.0);
            match (&rule.antecedent, deep) {
                (Antecedent::Oblique(conditions), false) => {
                    // The core conditions hold exactly on the covered rows.
                    let holds = (0..data.n_rows())
                        .filter(|&i| {
                            let row = data.row(i);
                            conditions.iter().all(|c| c.holds(&row))
                        })
                        .count();
                    assert_eq!(holds, coverage[k], "rule {k}");
                }
                (Antecedent::Clause(literals), true) => {
                    assert_eq!(literals.len(), model.network().units_per_rule()[k]);
                    assert!(
                        literals.iter().all(|l| l.contains("max(0, ")),
                        "{literals:?}"
                    );
                }
                (other, _) => panic!("deep = {deep}: {other:?}"),
            }
        }
        assert_eq!(set.to_string().lines().count(), model.n_rules());
        // Keeping some rules keeps their coverage.
        let keep = [model.n_rules() - 1, 0];
        model.retain_rules(&keep).unwrap();
        assert_eq!(model.coverage(), [coverage[keep[0]], coverage[keep[1]]]);
        assert_eq!(model.rule_set().rules[1].coverage, coverage[0]);
    }
}

#[test]
fn weighted_coverage_counts_rows_of_positive_weight() {
    let data = twonorm(300, 12);
    let w: Vec<f64> = (0..data.n_rows()).map(|i| (i % 3) as f64).collect();
    let model = NreParams::default()
        .max_depth(3)
        .max_epochs(10)
        .fit_weighted(&data, &w)
        .unwrap();
    let kept: Vec<usize> = (0..data.n_rows()).filter(|&i| w[i] > 0.0).collect();
    let sub = data.subset(&kept).unwrap();
    assert_eq!(
        model.coverage(),
        model.rule_coverage(&sub).unwrap().as_slice()
    );
    assert_ne!(
        model.coverage(),
        model.rule_coverage(&data).unwrap().as_slice()
    );
}
