//! Saving and loading relational models: boosted and bagged ensembles and
//! CoTE decision lists written to JSON files are read back — also against
//! data parsed anew, in another interning order, as a separate inference
//! process would — and predict bit for bit as before; malformed files and
//! data without the target give typed errors.

use std::path::PathBuf;

use rc_logic::cote::{scote, DecisionList, ScoteParams};
use rc_logic::data::{Problem, SplitText};
use rc_logic::metrics::auc_roc;
use rc_logic::persist::ModelKind;
use rc_logic::symbols::Vocabulary;
use rc_logic::{BaggingParams, BoostParams, Error, TreeEnsemble};
use rulecover_core::Rng;

const BG: &str = "smokes(+person).\nfriends(+person,-person).\nstress(+person).\n\
                  lives(+person,#city).\n";

const CITIES: [&str; 4] = ["london", "paris", "rome", "oslo"];

/// Facts, positives and negatives of a smokers world: a person smokes
/// when living in London, or stressed with a stressed friend.
fn world(seed: u64, n: usize) -> (Vec<String>, String, String) {
    let mut rng = Rng::new(seed);
    let mut facts = Vec::new();
    let city: Vec<usize> = (0..n).map(|_| rng.below(CITIES.len())).collect();
    let stress: Vec<bool> = (0..n).map(|_| rng.next_f64() < 0.4).collect();
    let mut friends = vec![Vec::new(); n];
    for p in 0..n {
        facts.push(format!("lives(p{p},{}).", CITIES[city[p]]));
        if stress[p] {
            facts.push(format!("stress(p{p})."));
        }
        for _ in 0..2 {
            let q = rng.below(n);
            friends[p].push(q);
            facts.push(format!("friends(p{p},p{q})."));
        }
    }
    let (mut pos, mut neg) = (String::new(), String::new());
    for p in 0..n {
        let smokes = city[p] == 0 || (stress[p] && friends[p].iter().any(|&q| stress[q]));
        let line = format!("smokes(p{p}).\n");
        if smokes {
            pos.push_str(&line);
        } else {
            neg.push_str(&line);
        }
    }
    (facts, pos, neg)
}

struct Texts {
    train: (String, String, String),
    test: (String, String, String),
}

fn texts() -> Texts {
    let (f, p, n) = world(3, 50);
    let (tf, tp, tn) = world(103, 40);
    Texts {
        train: (f.join("\n"), p, n),
        test: (tf.join("\n"), tp, tn),
    }
}

fn split(t: &(String, String, String)) -> SplitText<'_> {
    SplitText {
        facts: (&t.0, "facts"),
        pos: (&t.1, "pos"),
        neg: (&t.2, "neg"),
    }
}

/// The learning process's problem: train and test loaded together.
fn learning_problem(t: &Texts) -> Problem {
    Problem::from_texts((BG, "bk"), "smokes", split(&t.train), Some(split(&t.test))).unwrap()
}

/// What an inference process loads: the background (its modes in
/// another order) and only the test folder, its facts in reverse order,
/// so symbols are interned in a different order and training-only
/// constants are unknown.
fn inference_problem(t: &Texts) -> Problem {
    let mut facts: Vec<&str> = t.test.0.lines().collect();
    facts.reverse();
    let facts = facts.join("\n");
    let mut modes: Vec<&str> = BG.lines().collect();
    modes.reverse();
    let bg = modes.join("\n");
    let test = (facts, t.test.1.clone(), t.test.2.clone());
    Problem::from_texts((&bg, "bk"), "smokes", split(&test), None).unwrap()
}

fn boost_params() -> BoostParams {
    let mut p = BoostParams::default().n_trees(4).neg_ratio(None).seed(7);
    p.tree = p.tree.min_cover(1.0).min_split(2.0).max_depth(3);
    p
}

fn bagging_params() -> BaggingParams {
    let mut p = BaggingParams::default().n_trees(3).seed(5);
    p.tree = p
        .tree
        .min_cover(1.0)
        .min_split(2.0)
        .max_depth(2)
        .max_leaves(4);
    p
}

fn bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

fn auc(problem_labels: &[usize], p: &[f64]) -> f64 {
    auc_roc(problem_labels, p).unwrap().unwrap()
}

/// A fresh folder for one test's files.
fn folder(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("persist-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Files in a folder, sorted.
fn files_in(dir: &PathBuf) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// The learning and inference problems number the test examples'
/// constants differently (so a model that kept its ids would look up the
/// wrong facts), and list the same examples in the same order.
fn check_interning_differs(learn: &Problem, infer: &Problem) {
    let a = learn.test.as_ref().unwrap();
    assert_eq!(a.examples.labels, infer.train.examples.labels);
    assert_ne!(a.examples.args, infer.train.examples.args);
}

#[test]
fn boosted_ensemble_round_trips_bit_for_bit() {
    let t = texts();
    let problem = learning_problem(&t);
    let test = problem.test.as_ref().unwrap();
    let model = boost_params().fit(&problem).unwrap();
    assert!(
        model.trees.iter().any(|tr| tr.nodes.len() > 1),
        "a real tree"
    );
    let p = model.predict_proba(test);

    let json = model.to_json().unwrap();
    let back = TreeEnsemble::from_json(&json).unwrap();
    assert_eq!(bits(&back.predict_proba(test)), bits(&p));
    assert_eq!(
        back.to_json().unwrap(),
        json,
        "writing again gives the same text"
    );
    assert_eq!(back.render(), model.render());

    let dir = folder("boosted");
    let path = dir.join("model.json");
    model.save(&path).unwrap();
    assert_eq!(
        files_in(&dir),
        vec!["model.json".to_string()],
        "no temporary left"
    );
    let loaded = TreeEnsemble::load(&path).unwrap();
    let q = loaded.predict_proba(test);
    assert_eq!(bits(&q), bits(&p));
    let labels = test.examples.labels01();
    assert_eq!(auc(&labels, &q).to_bits(), auc(&labels, &p).to_bits());
    assert!(auc(&labels, &p) > 0.8, "the model learned something");

    // Saving over an existing file replaces it whole.
    bagging_params().fit(&problem).unwrap().save(&path).unwrap();
    assert!(TreeEnsemble::load(&path).unwrap().combine == rc_logic::Combine::Mean);
    assert_eq!(files_in(&dir), vec!["model.json".to_string()]);
}

#[test]
fn boosted_ensemble_predicts_the_same_in_a_new_process() {
    let t = texts();
    let dir = folder("boosted-new");
    let path = dir.join("rfgb.json");
    let (p, labels) = {
        let problem = learning_problem(&t);
        let model = boost_params().fit(&problem).unwrap();
        model.save(&path).unwrap();
        let test = problem.test.as_ref().unwrap();
        (model.predict_proba(test), test.examples.labels01())
    };

    let infer = inference_problem(&t);
    check_interning_differs(&learning_problem(&t), &infer);
    let model = TreeEnsemble::load(&path).unwrap();
    let bound = model.rebind(&infer.vocab).unwrap();
    let q = bound.predict_proba(&infer.train);
    assert_eq!(bits(&q), bits(&p));
    assert_eq!(auc(&labels, &q), auc(&labels, &p));
    // The rules read the same over the data's vocabulary.
    assert_eq!(bound.render(), model.render());
    // Without rebinding, the model's ids point at other facts.
    assert_ne!(bits(&model.predict_proba(&infer.train)), bits(&p));

    // The same from files: the background and the test folder alone.
    let test_dir = dir.join("test");
    std::fs::create_dir_all(&test_dir).unwrap();
    std::fs::write(dir.join("background.txt"), BG).unwrap();
    let mut facts: Vec<&str> = t.test.0.lines().collect();
    facts.reverse();
    std::fs::write(test_dir.join("test_facts.txt"), facts.join("\n")).unwrap();
    std::fs::write(test_dir.join("test_pos.txt"), &t.test.1).unwrap();
    std::fs::write(test_dir.join("test_neg.txt"), &t.test.2).unwrap();
    let from_files = Problem::load_folder(
        &dir.join("background.txt"),
        "smokes",
        &test_dir,
        "test",
        &[],
    )
    .unwrap();
    assert!(from_files.test.is_none());
    let q = model
        .rebind(&from_files.vocab)
        .unwrap()
        .predict_proba(&from_files.train);
    assert_eq!(bits(&q), bits(&p));
    assert_eq!(
        ModelKind::of_json(&std::fs::read_to_string(&path).unwrap()).unwrap(),
        ModelKind::Boosted
    );
}

#[test]
fn bagged_ensemble_predicts_the_same_in_a_new_process() {
    let t = texts();
    let dir = folder("bagged-new");
    let path = dir.join("bagging.json");
    let (p, labels) = {
        let problem = learning_problem(&t);
        let model = bagging_params().fit(&problem).unwrap();
        assert!(
            model.trees.iter().any(|tr| tr.nodes.len() > 1),
            "a real tree"
        );
        model.save(&path).unwrap();
        let test = problem.test.as_ref().unwrap();
        (model.predict_proba(test), test.examples.labels01())
    };
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("\"kind\": \"bagging\""), "{}", &text[..200]);

    let infer = inference_problem(&t);
    let q = TreeEnsemble::load(&path)
        .unwrap()
        .rebind(&infer.vocab)
        .unwrap()
        .predict_proba(&infer.train);
    assert_eq!(bits(&q), bits(&p));
    assert_eq!(auc(&labels, &q), auc(&labels, &p));
}

#[test]
fn decision_list_predicts_the_same_in_a_new_process() {
    let t = texts();
    let dir = folder("list-new");
    let path = dir.join("scote.json");
    let (p, labels) = {
        let problem = learning_problem(&t);
        let model = boost_params().fit(&problem).unwrap();
        let list = scote(&model, &ScoteParams::default())
            .unwrap()
            .list
            .unwrap();
        assert!(list.len() > 2);
        list.save(&path).unwrap();
        let test = problem.test.as_ref().unwrap();
        let p = list.predict_proba(test);
        // SCoTE is logically equivalent: the ensemble's values, bit for bit.
        assert_eq!(bits(&list.values(test)), bits(&model.values(test)));
        let json = list.to_json().unwrap();
        let back = DecisionList::from_json(&json).unwrap();
        assert_eq!(back, list);
        (p, test.examples.labels01())
    };

    let infer = inference_problem(&t);
    let list = DecisionList::load(&path).unwrap();
    let bound = list.rebind(&infer.vocab).unwrap();
    let q = bound.predict_proba(&infer.train);
    assert_eq!(bits(&q), bits(&p));
    assert_eq!(auc(&labels, &q), auc(&labels, &p));
    assert_eq!(bound.render(), list.render());
}

/// Learned floats survive JSON exactly, including ones whose shortest
/// decimal form needs all 17 digits.
#[test]
fn awkward_floats_round_trip_exactly() {
    let t = texts();
    let problem = learning_problem(&t);
    let mut model = boost_params().fit(&problem).unwrap();
    let awkward = [
        0.1 + 0.2,
        1.0 / 3.0,
        -1.8,
        f64::MIN_POSITIVE,
        5e-324,
        1.7976931348623157e308,
        0.000_123_456_789_012_345_67,
        -2.220_446_049_250_313e-16,
    ];
    let mut k = 0;
    for tree in &mut model.trees {
        for node in &mut tree.nodes {
            if let rc_logic::tree::Node::Leaf { value, .. } = node {
                *value = awkward[k % awkward.len()];
                k += 1;
            }
        }
    }
    model.combine = rc_logic::Combine::Sum {
        offset: 0.1 + 0.7,
        step: 2.0 / 3.0,
    };
    let back = TreeEnsemble::from_json(&model.to_json().unwrap()).unwrap();
    assert_eq!(back.trees, model.trees);
    assert_eq!(back.combine, model.combine);
}

fn invalid_message(e: Error) -> String {
    match e {
        Error::InvalidModel { message, .. } => message,
        other => panic!("expected InvalidModel, got {other}"),
    }
}

#[test]
fn malformed_model_files_give_typed_errors() {
    let t = texts();
    let problem = learning_problem(&t);
    let model = boost_params().fit(&problem).unwrap();
    let json = model.to_json().unwrap();
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    let edit = |f: &dyn Fn(&mut serde_json::Value)| {
        let mut v = value.clone();
        f(&mut v);
        TreeEnsemble::from_json(&v.to_string()).unwrap_err()
    };

    // Not JSON at all, or cut short.
    let e = TreeEnsemble::from_json(&json[..json.len() / 2]).unwrap_err();
    assert!(
        matches!(&e, Error::InvalidModel { file, .. } if file == "<json>"),
        "{e}"
    );
    // Another format, version or kind.
    let m = invalid_message(edit(&|v| v["format_version"] = 99.into()));
    assert!(m.contains("format_version 99"), "{m}");
    let m = invalid_message(edit(&|v| v["kind"] = "xgboost".into()));
    assert!(
        m.contains("'xgboost'") && m.contains("rfgb, bagging, cote"),
        "{m}"
    );
    let m = invalid_message(edit(&|v| v["kind"] = "cote".into()));
    assert!(m.contains("DecisionList::load"), "{m}");
    let m = invalid_message(edit(&|v| v["kind"] = "bagging".into()));
    assert!(m.contains("header says a bagged ensemble"), "{m}");
    let m = invalid_message(edit(&|v| v["target"] = "cancer/1".into()));
    assert!(m.contains("cancer/1"), "{m}");
    // A child node that does not exist.
    let m = invalid_message(edit(&|v| {
        let node = &mut v["model"]["trees"][0]["nodes"][0]["Test"];
        node["no"] = 1000.into();
    }));
    assert!(m.contains("tree 0") && m.contains("child 1000"), "{m}");
    // A child that points back up (prediction would loop).
    let m = invalid_message(edit(&|v| {
        v["model"]["trees"][0]["nodes"][0]["Test"]["yes"] = 0.into();
    }));
    assert!(m.contains("child 0"), "{m}");
    // A predicate outside the vocabulary.
    let m = invalid_message(edit(&|v| {
        v["model"]["trees"][0]["nodes"][0]["Test"]["test"][0]["pred"] = 999.into();
    }));
    assert!(m.contains("predicate 999"), "{m}");
    // A variable beyond anything the clauses introduce.
    let m = invalid_message(edit(&|v| {
        v["model"]["trees"][0]["nodes"][0]["Test"]["test"][0]["args"][0] =
            serde_json::json!({"Var": 4_000_000_000u32});
    }));
    assert!(m.contains("variable 4000000000"), "{m}");
    // A vocabulary naming one string twice.
    let m = invalid_message(edit(&|v| {
        let s = &mut v["model"]["vocab"]["strings"];
        let first = s[0].clone();
        s.as_array_mut().unwrap().push(first);
    }));
    assert!(m.contains("twice"), "{m}");
    // A missing file names the file.
    let missing = folder("malformed").join("absent.json");
    let e = TreeEnsemble::load(&missing).unwrap_err();
    assert!(
        matches!(&e, Error::Io { path, .. } if *path == missing),
        "{e}"
    );
    // A file's errors name the file.
    let bad = folder("malformed-file").join("bad.json");
    std::fs::write(&bad, "{\"format\": \"rc-logic-model\"").unwrap();
    let e = DecisionList::load(&bad).unwrap_err();
    assert!(e.to_string().starts_with(&bad.display().to_string()), "{e}");
    // A decision list file is not an ensemble, and the error says so.
    let list = scote(&model, &ScoteParams::default())
        .unwrap()
        .list
        .unwrap();
    let m = invalid_message(TreeEnsemble::from_json(&list.to_json().unwrap()).unwrap_err());
    assert!(m.contains("holds a decision list"), "{m}");
    // A decision list whose rule uses a group that does not exist.
    let mut lv: serde_json::Value = serde_json::from_str(&list.to_json().unwrap()).unwrap();
    lv["model"]["rule_groups"][0] = 12345.into();
    let m = invalid_message(DecisionList::from_json(&lv.to_string()).unwrap_err());
    assert!(m.contains("group 12345"), "{m}");
}

#[test]
fn saving_into_a_missing_folder_is_an_io_error_and_leaves_nothing() {
    let t = texts();
    let model = boost_params().fit(&learning_problem(&t)).unwrap();
    let dir = folder("missing-folder");
    let path = dir.join("no").join("such").join("model.json");
    let e = model.save(&path).unwrap_err();
    assert!(matches!(&e, Error::Io { path: p, .. } if *p == path), "{e}");
    assert!(files_in(&dir).is_empty());
}

#[test]
fn data_without_the_target_is_a_typed_error() {
    let t = texts();
    let model = boost_params().fit(&learning_problem(&t)).unwrap();
    let mut vocab = Vocabulary::new();
    vocab.pred("smokes", 2);
    vocab.pred("friends", 2);
    match model.rebind(&vocab).unwrap_err() {
        Error::TargetNotInData {
            target,
            arity,
            others,
        } => {
            assert_eq!((target.as_str(), arity), ("smokes", 1));
            assert!(others.contains("'smokes/2'"), "{others}");
        }
        other => panic!("expected TargetNotInData, got {other}"),
    }
    // Predicates the data lack are simply false: with only the target
    // known, every example falls through to the trees' "no" branches.
    let mut only_target = Vocabulary::new();
    only_target.pred("smokes", 1);
    let bound = model.rebind(&only_target).unwrap();
    assert!(bound.vocab.find_pred("stress", 1).is_some());
    assert!(only_target.find_pred("stress", 1).is_none());
}

#[test]
fn senseless_zero_parameters_are_typed_errors_at_fit() {
    let t = texts();
    let problem = learning_problem(&t);
    let param_name = |e: Error| match e {
        Error::InvalidParameter { name, .. } => name,
        other => panic!("expected InvalidParameter, got {other}"),
    };
    let b = boost_params();
    assert_eq!(
        param_name(b.clone().n_trees(0).fit(&problem).unwrap_err()),
        "n_trees"
    );
    assert_eq!(
        param_name(b.clone().max_rows(Some(0)).fit(&problem).unwrap_err()),
        "max_rows"
    );
    let mut d = b.clone();
    d.tree = d.tree.max_depth(0);
    assert_eq!(param_name(d.fit(&problem).unwrap_err()), "max_depth");
    let mut l = b.clone();
    l.tree = l.tree.max_leaves(0);
    assert_eq!(param_name(l.fit(&problem).unwrap_err()), "max_leaves");

    let g = bagging_params();
    assert_eq!(
        param_name(g.clone().n_trees(0).fit(&problem).unwrap_err()),
        "n_trees"
    );
    assert_eq!(
        param_name(g.clone().max_rows(Some(0)).fit(&problem).unwrap_err()),
        "max_rows"
    );
    let mut d = g.clone();
    d.tree = d.tree.max_depth(0);
    assert_eq!(param_name(d.fit(&problem).unwrap_err()), "max_depth");
    // One is fine.
    let mut one = b.n_trees(1).max_rows(Some(1));
    one.tree = one.tree.max_depth(1);
    assert_eq!(one.fit(&problem).unwrap().trees.len(), 1);
}

/// The layout before the envelope, `{"format": "rc-logic-model",
/// "version": 1, "kind": "boosted" | "bagged" | "decision-list", ...}`,
/// of `envelope` (a file written now).
fn legacy_layout(envelope: &str, kind: &str) -> String {
    let v: serde_json::Value = serde_json::from_str(envelope).unwrap();
    serde_json::json!({
        "format": "rc-logic-model",
        "version": 1,
        "kind": kind,
        "target": v["target"],
        "head_types": v["head_types"],
        "model": v["model"],
    })
    .to_string()
}

#[test]
fn files_of_the_layout_before_the_envelope_still_load() {
    let t = texts();
    let problem = learning_problem(&t);
    let test = problem.test.as_ref().unwrap();
    let boosted = boost_params().fit(&problem).unwrap();
    let bagged = bagging_params().fit(&problem).unwrap();
    for (model, kind, id) in [
        (&boosted, "boosted", "rfgb"),
        (&bagged, "bagged", "bagging"),
    ] {
        let old = legacy_layout(&model.to_json().unwrap(), kind);
        assert_eq!(ModelKind::of_json(&old).unwrap().id(), id);
        let back = TreeEnsemble::from_json(&old).unwrap();
        assert_eq!(
            bits(&back.predict_proba(test)),
            bits(&model.predict_proba(test))
        );
        // Written again, it is the envelope.
        let again = back.to_json().unwrap();
        assert!(again.contains(&format!("\"kind\": \"{id}\"")), "{again}");
        assert!(!again.contains("\"format\""));
        assert_eq!(again, model.to_json().unwrap());
    }
    let list = scote(&boosted, &ScoteParams::default())
        .unwrap()
        .list
        .unwrap();
    let old = legacy_layout(&list.to_json().unwrap(), "decision-list");
    let back = DecisionList::from_json(&old).unwrap();
    assert_eq!(back, list);
    assert!(back.to_json().unwrap().contains("\"kind\": \"cote\""));
    // An old file of another format or version is refused by name.
    let other = old.replace("\"version\":1", "\"version\":2");
    let m = invalid_message(DecisionList::from_json(&other).unwrap_err());
    assert!(m.contains("version 2"), "{m}");
}
