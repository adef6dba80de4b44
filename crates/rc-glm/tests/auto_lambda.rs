//! `lambda0 = auto` (rc_glm::auto): the choice refits as a pinned fit,
//! rules on imbalanced data, the seed, tiny data, a real target, bad
//! parameters.

use rc_glm::auto::{AutoLambda, PAPER_PATH};
use rc_glm::{GlrmParams, RuleFitParams};
use rulecover_core::{generate, Dataset, Fit, Reseed, RuleModel};

/// Twonorm with the positives thinned to about `share` of the rows.
fn imbalanced(n: usize, share: f64, seed: u64) -> Dataset {
    generate::with_majority(&generate::twonorm(n, seed), 1.0 - share, seed).unwrap()
}

fn auto(seed: u64) -> Option<AutoLambda> {
    Some(AutoLambda {
        seed,
        ..AutoLambda::default()
    })
}

/// The search scores every point of the path, and the model equals a
/// plain fit with the chosen penalties pinned.
#[test]
fn the_choice_refits_as_a_pinned_fit() {
    let data = imbalanced(600, 0.15, 3);
    let model = GlrmParams::lr1().auto_lambda(auto(5)).fit(&data).unwrap();
    let search = model.info().lambda_search.clone().unwrap();
    assert!(!search.fallback);
    assert_eq!(search.folds, 3);
    assert_eq!(search.path, PAPER_PATH);
    let i = PAPER_PATH
        .iter()
        .position(|&l| l == search.lambda0)
        .unwrap();
    assert!(search.scores.len() > i && search.scores.len() <= PAPER_PATH.len());
    assert!(search.scores.iter().all(|s| s.is_finite() && *s > 0.0));
    let best = search.scores.iter().copied().fold(f64::INFINITY, f64::min);
    let i = PAPER_PATH
        .iter()
        .position(|&l| l == search.lambda0)
        .unwrap();
    assert_eq!(search.scores[i], best);
    assert_eq!(search.lambda1, 0.2 * search.lambda0);
    let pinned = GlrmParams::lr1()
        .lambda0(search.lambda0)
        .lambda1(search.lambda1)
        .fit(&data)
        .unwrap();
    assert_eq!(model.rule_set(), pinned.rule_set());
    assert_eq!(model.info().lambda0, search.lambda0);
}

/// On 85/15 data the paper's fixed λ0 = 0.05 keeps the intercept alone;
/// `auto` keeps rules, which validate better than the intercept.
#[test]
fn imbalanced_data_keeps_rules() {
    let data = imbalanced(1500, 0.15, 11);
    let fixed = GlrmParams::lr1().fit(&data).unwrap();
    assert_eq!(fixed.n_rules(), 0);
    let model = GlrmParams::lr1().auto_lambda(auto(1)).fit(&data).unwrap();
    let search = model.info().lambda_search.clone().unwrap();
    assert!(model.n_rules() > 0, "{search:?}");
    assert!(search.lambda0 < 0.05);
    // The intercept alone scores search.scores[0] (λ0 = 0.1).
    let chosen = search
        .path
        .iter()
        .position(|&l| l == search.lambda0)
        .unwrap();
    assert!(search.scores[chosen] < 0.9 * search.scores[0], "{search:?}");
}

/// The same seed gives the same model; the seed is the params' random
/// seed.
#[test]
fn the_inner_folds_follow_the_seed() {
    let data = imbalanced(400, 0.2, 8);
    let params = RuleFitParams::new()
        .max_rules(60)
        .auto_lambda(auto(1))
        .with_random_seed(4);
    assert_eq!(params.auto_lambda.as_ref().unwrap().seed, 4);
    let a = params.fit(&data).unwrap();
    let b = params.fit(&data).unwrap();
    assert_eq!(a.rule_set(), b.rule_set());
    assert_eq!(a.info().lambda_search, b.info().lambda_search);
    assert_eq!(GlrmParams::lrr().random_seed(), None);
    assert_eq!(
        GlrmParams::lrr().auto_lambda(auto(2)).random_seed(),
        Some(2)
    );
}

/// Too few rows of a class to cross-validate: the fixed penalties.
#[test]
fn tiny_data_falls_back_to_the_fixed_penalties() {
    let data = generate::twonorm(40, 2);
    let labels = data.labels().unwrap();
    let mut rows: Vec<usize> = (0..40).filter(|&i| labels[i] == 0).collect();
    rows.push((0..40).find(|&i| labels[i] == 1).unwrap());
    let data = data.subset(&rows).unwrap();
    let model = GlrmParams::lr1().auto_lambda(auto(0)).fit(&data).unwrap();
    let search = model.info().lambda_search.clone().unwrap();
    assert!(search.fallback);
    assert_eq!((search.lambda0, search.lambda1), (0.05, 0.01));
    assert_eq!(model.info().lambda0, 0.05);
    // Fewer rows of the smaller class than folds: two folds.
    let data = generate::twonorm(200, 6);
    let labels = data.labels().unwrap();
    let mut rows: Vec<usize> = (0..200).filter(|&i| labels[i] == 0).collect();
    rows.extend((0..200).filter(|&i| labels[i] == 1).take(2));
    let data = data.subset(&rows).unwrap();
    let model = GlrmParams::lr1().auto_lambda(auto(0)).fit(&data).unwrap();
    assert_eq!(model.info().lambda_search.as_ref().unwrap().folds, 2);
}

/// A real target is cross-validated by squared error.
#[test]
fn a_real_target_is_scored_by_squared_error() {
    let data = generate::twonorm(300, 4);
    let y: Vec<f64> = (0..300)
        .map(|i| data.value(i, 0) * 2.0 + data.value(i, 1))
        .collect();
    let data = data.with_target(rulecover_core::Target::Real(y)).unwrap();
    let model = GlrmParams::lr1().auto_lambda(auto(0)).fit(&data).unwrap();
    let search = model.info().lambda_search.clone().unwrap();
    assert!(!search.fallback);
    // A strong linear signal: the smallest penalties validate best.
    assert!(search.lambda0 <= 0.01, "{search:?}");
    assert!(model.n_rules() > 2);
}

#[test]
fn bad_searches_are_parameter_errors() {
    let data = generate::twonorm(50, 1);
    for bad in [
        AutoLambda {
            path: vec![],
            ..AutoLambda::default()
        },
        AutoLambda {
            path: vec![0.1, f64::NAN],
            ..AutoLambda::default()
        },
        AutoLambda {
            folds: 1,
            ..AutoLambda::default()
        },
        AutoLambda {
            lambda1_ratio: Some(-1.0),
            ..AutoLambda::default()
        },
    ] {
        let e = GlrmParams::lr1()
            .auto_lambda(Some(bad))
            .fit(&data)
            .unwrap_err();
        assert!(e.to_string().contains("auto_lambda."), "{e}");
    }
}
