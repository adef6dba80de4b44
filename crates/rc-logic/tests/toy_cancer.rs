//! srlearn's documented Toy-Cancer example (`srlearn.example_data`):
//! RFGB learns BoostSRL's trees on 6 training examples, whose root holds
//! less weight than `min_split` (6.3): BoostSRL searches the root
//! whatever its weight. srlearn's tests, run against BoostSRL, expect
//! `predict_proba` = [0.74, 0.74, 0.74, 0.25, 0.25] with 5 trees and
//! `predict` = [1, 1, 1, 0, 0] with 1 to 5 trees (BoostSRL's best-F1
//! threshold).

use std::path::Path;

use rc_logic::data::Problem;
use rc_logic::ensemble::sigmoid;
use rc_logic::metrics::best_f1_threshold;
use rc_logic::tree::Node;
use rc_logic::BoostParams;

const MODES: &str = "friends(+person,-person).\nfriends(-person,+person).\n\
                     smokes(+person).\ncancer(+person).\n";

const TRAIN_POS: &str = "cancer(alice).\ncancer(bob).\ncancer(chuck).\ncancer(fred).\n";
const TRAIN_NEG: &str = "cancer(dan).\ncancer(earl).\n";
const TRAIN_FACTS: &str = "friends(alice,bob).\nfriends(alice,fred).\nfriends(chuck,bob).\n\
    friends(chuck,fred).\nfriends(dan,bob).\nfriends(earl,bob).\nfriends(bob,alice).\n\
    friends(fred,alice).\nfriends(bob,chuck).\nfriends(fred,chuck).\nfriends(bob,dan).\n\
    friends(bob,earl).\nsmokes(alice).\nsmokes(chuck).\nsmokes(bob).\n";

const TEST_POS: &str = "cancer(zod).\ncancer(xena).\ncancer(yoda).\n";
const TEST_NEG: &str = "cancer(voldemort).\ncancer(watson).\n";
const TEST_FACTS: &str = "friends(zod,xena).\nfriends(xena,watson).\nfriends(watson,voldemort).\n\
    friends(voldemort,yoda).\nfriends(yoda,zod).\nfriends(xena,zod).\nfriends(watson,xena).\n\
    friends(voldemort,watson).\nfriends(yoda,voldemort).\nfriends(zod,yoda).\nsmokes(zod).\n\
    smokes(xena).\nsmokes(yoda).\n";

/// The leaves (`smokes(A)` true, false) of BoostSRL's first five trees on
/// Toy-Cancer, as recorded by srlearn's regression test
/// (`srlearn/tests/regression_tests/json/toy_cancer_0.5.5-dev.json`).
const BOOSTSRL_LEAVES: [(f64, f64); 5] = [
    (0.8581489350995121, 0.19148226843284552),
    (0.7194734122109545, 0.16653882456488175),
    (0.5553664367462845, 0.1420942428155648),
    (0.41751358415830997, 0.11914890490746428),
    (0.32071184716014967, 0.09841340278401862),
];

/// Writes srlearn's example data as a BoostSRL folder (`background.txt`,
/// `train/train_*.txt`, `test/test_*.txt`) under `dir`.
fn write_toy_cancer(dir: &Path) {
    let write = |rel: &str, text: &str| {
        let path = dir.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    let modes: String = MODES.lines().map(|m| format!("mode: {m}\n")).collect();
    write("background.txt", &modes);
    write("train/train_pos.txt", TRAIN_POS);
    write("train/train_neg.txt", TRAIN_NEG);
    write("train/train_facts.txt", TRAIN_FACTS);
    write("test/test_pos.txt", TEST_POS);
    write("test/test_neg.txt", TEST_NEG);
    write("test/test_facts.txt", TEST_FACTS);
}

/// Toy-Cancer, written to a fresh folder (one per call) and loaded as
/// BoostSRL's files.
fn toy_cancer(name: &str) -> Problem {
    let dir =
        std::env::temp_dir().join(format!("rc-logic-toy-cancer-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    write_toy_cancer(&dir);
    let pb = Problem::load(
        &dir.join("background.txt"),
        "cancer",
        &dir.join("train"),
        Some(&dir.join("test")),
        &[],
    )
    .unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    pb
}

/// srlearn's expected probabilities, compared as numpy's
/// `assert_array_almost_equal(decimal=2)`: `|actual − desired| < 1.5e-2`.
fn assert_almost_equal_2(actual: &[f64], desired: &[f64]) {
    assert_eq!(actual.len(), desired.len());
    for (a, d) in actual.iter().zip(desired) {
        assert!((a - d).abs() < 1.5e-2, "{actual:?} vs {desired:?}");
    }
}

#[test]
fn toy_cancer_reproduces_boostsrl_trees_and_srlearn_predictions() {
    let pb = toy_cancer("trees");
    let test = pb.test.as_ref().unwrap();
    // Positives first, as srlearn's predict_proba orders them.
    assert_eq!(test.examples.labels, [true, true, true, false, false]);
    // Negative sampling (2 per positive) keeps both negatives, and the
    // node search's 10 seed examples are all 6: no seed matters.
    for seed in [0, 1, 7] {
        let model = BoostParams::default()
            .n_trees(5)
            .seed(seed)
            .fit(&pb)
            .unwrap();
        assert_eq!(model.trees.len(), 5);
        let (mut smoker, mut other) = (-1.8, -1.8);
        for (t, (tree, &(yes, no))) in model.trees.iter().zip(&BOOSTSRL_LEAVES).enumerate() {
            let text = tree.render(&model.vocab);
            let Node::Test {
                yes: y_node,
                no: n_node,
                ..
            } = &tree.nodes[0]
            else {
                panic!("tree {t} has no root test:\n{text}");
            };
            assert!(text.contains("smokes(A) ?"), "tree {t}:\n{text}");
            let leaf = |i: usize| match tree.nodes[i] {
                Node::Leaf { value, .. } => value,
                Node::Test { .. } => panic!("tree {t} splits below the root:\n{text}"),
            };
            assert!((leaf(*y_node) - yes).abs() < 1e-12, "tree {t}:\n{text}");
            assert!((leaf(*n_node) - no).abs() < 1e-12, "tree {t}:\n{text}");
            smoker += yes;
            other += no;
        }
        let p = model.predict_proba(test);
        assert_almost_equal_2(&p, &[0.74, 0.74, 0.74, 0.25, 0.25]);
        let want = [sigmoid(smoker), sigmoid(other)];
        for (i, &pi) in p.iter().enumerate() {
            let w = if i < 3 { want[0] } else { want[1] };
            assert!((pi - w).abs() < 1e-12, "{p:?}");
        }
    }
}

#[test]
fn toy_cancer_labels_with_one_to_five_trees() {
    let pb = toy_cancer("labels");
    let test = pb.test.as_ref().unwrap();
    for n in 1..=5 {
        let model = BoostParams::default().n_trees(n).fit(&pb).unwrap();
        assert_eq!(model.trees.len(), n);
        // BoostSRL's threshold, chosen on the training examples (srlearn
        // takes the one BoostSRL's inference chooses on the predicted
        // examples: the same cut here, between smokers and the others).
        let y = pb.train.examples.labels01();
        let threshold = best_f1_threshold(&y, &model.predict_proba(&pb.train)).unwrap();
        let labels: Vec<u8> = model
            .predict_proba(test)
            .iter()
            .map(|&p| u8::from(p > threshold))
            .collect();
        assert_eq!(labels, [1, 1, 1, 0, 0], "{n} trees, threshold {threshold}");
    }
}
