//! Every bad input is a typed error naming what is wrong.

mod common;

use rulecover::{fit, fit_relational, method, parse_key_values, Error, FittedModel};
use rulecover_core::Target;

use common::{binary, regression, small, temp_dir};

fn small_rf() -> FittedModel {
    fit(
        "rf",
        &[("n_estimators", "3"), ("max_depth", "2")],
        &binary(),
        None,
        1,
    )
    .unwrap()
}

#[test]
fn an_unknown_method_lists_the_valid_ids() {
    let e = fit::<&str, &str>("xgboost", &[], &binary(), None, 0).unwrap_err();
    assert!(matches!(&e, Error::UnknownMethod { given, .. } if given == "xgboost"));
    let msg = e.to_string();
    for id in [
        "dt",
        "rux-rf",
        "rug-t",
        "linear-rule",
        "nre-deep",
        "bagging",
    ] {
        assert!(msg.contains(id), "{msg}");
    }
    // xtask's spellings are aliases.
    assert_eq!(method("RUX-RF").unwrap().spec().id, "rux-rf");
    assert_eq!(method("RCB").unwrap().spec().id, "rcboost");
}

#[test]
fn an_unknown_parameter_is_named_with_the_valid_ones() {
    let e = fit("dt", &[("depth", "3")], &binary(), None, 0).unwrap_err();
    match &e {
        Error::UnknownParameter {
            method,
            name,
            valid,
        } => {
            assert_eq!(method, "dt");
            assert_eq!(name, "depth");
            assert!(valid.contains("max_depth"), "{valid}");
        }
        other => panic!("{other}"),
    }
}

#[test]
fn a_bad_value_names_the_parameter_the_value_and_what_is_allowed() {
    let cases = [
        ("dt", "max_depth", "deep", "an integer >= 1, or none"),
        ("dt", "max_depth", "0", "an integer >= 1, or none"),
        ("rf", "bootstrap", "yes", "true or false"),
        ("lrr", "lambda0", "NaN", "a finite number"),
        (
            "dt",
            "criterion",
            "mse",
            "one of auto, gini, entropy, squared_error",
        ),
        ("rf", "max_features", "1.5", "a fraction in (0, 1]"),
    ];
    for (id, name, value, allowed) in cases {
        let e = fit(id, &[(name, value)], &binary(), None, 0).unwrap_err();
        match &e {
            Error::BadValue {
                method,
                name: n,
                value: v,
                expected,
            } => {
                assert_eq!((method.as_str(), n.as_str(), v.as_str()), (id, name, value));
                assert!(expected.contains(allowed), "{expected}");
            }
            other => panic!("{id} {name}={value}: {other}"),
        }
        let msg = e.to_string();
        assert!(msg.contains(name) && msg.contains(value), "{msg}");
    }
}

#[test]
fn a_value_out_of_the_learners_range_is_the_learners_typed_error() {
    let e = fit("gb", &[("subsample", "1.5")], &binary(), None, 0).unwrap_err();
    assert!(
        matches!(&e, Error::Fit { method, .. } if method == "gb"),
        "{e}"
    );
    assert!(e.to_string().contains("subsample"), "{e}");
}

#[test]
fn a_parameter_given_twice_is_refused() {
    let e = fit(
        "dt",
        &[("max_depth", "3"), ("max_depth", "4")],
        &binary(),
        None,
        0,
    )
    .unwrap_err();
    assert!(matches!(e, Error::DuplicateParameter { .. }), "{e}");
}

#[test]
fn key_value_strings_parse_or_say_why_not() {
    let kv = parse_key_values(&["max_depth=3", "criterion=entropy"]).unwrap();
    let model = fit("dt", &kv, &binary(), None, 0).unwrap();
    assert_eq!(model.params()["criterion"], "entropy");
    let e = parse_key_values(&["max_depth"]).unwrap_err();
    assert!(matches!(e, Error::NotKeyValue { .. }), "{e}");
}

#[test]
fn the_target_must_suit_the_method() {
    let reg = regression();
    for id in ["ada", "nre", "ann", "rux-rf", "rug"] {
        let e = fit::<&str, &str>(id, &[], &reg, None, 0).unwrap_err();
        assert!(
            matches!(&e, Error::UnsupportedTask { method, task, .. } if method == id && task == "regression"),
            "{id}: {e}"
        );
    }
    let unlabeled = binary().with_target(Target::None).unwrap();
    let e = fit::<&str, &str>("dt", &[], &unlabeled, None, 0).unwrap_err();
    assert!(matches!(e, Error::NoTarget { .. }), "{e}");
}

#[test]
fn relational_methods_point_to_their_entry_point() {
    let e = fit::<&str, &str>("rfgb", &[], &binary(), None, 0).unwrap_err();
    assert!(matches!(&e, Error::Relational { method } if method == "rfgb"));
    assert!(e.to_string().contains("fit_relational"), "{e}");
}

#[test]
fn weights_are_checked() {
    let data = binary();
    let short = vec![1.0; data.n_rows() - 1];
    let e = fit("dt", &[("max_depth", "2")], &data, Some(&short), 0).unwrap_err();
    assert!(matches!(e, Error::Data(_)), "{e}");
    let mut negative = vec![1.0; data.n_rows()];
    negative[3] = -1.0;
    let e = fit("dt", &[("max_depth", "2")], &data, Some(&negative), 0).unwrap_err();
    assert!(matches!(e, Error::Data(_)), "{e}");
    // Every learner takes non-uniform weights.
    let mut uneven = vec![1.0; data.n_rows()];
    uneven[0] = 3.0;
    for m in rulecover::methods()
        .iter()
        .filter(|m| !m.is_relational())
        .map(|m| m.spec())
    {
        let params = small(m.id);
        let fitted = fit(m.id, &params, &data, Some(&uneven), 0);
        assert!(fitted.is_ok(), "{}: {:?}", m.id, fitted.err());
    }
}

#[test]
fn another_format_version_says_which_versions() {
    let text = small_rf().to_json().unwrap();
    let v2 = text.replacen("\"format_version\": 1", "\"format_version\": 2", 1);
    assert_ne!(v2, text);
    let e = FittedModel::from_json(&v2).unwrap_err();
    match &e {
        Error::FormatVersion {
            found, supported, ..
        } => {
            assert_eq!(found, "2");
            assert_eq!(*supported, 1);
        }
        other => panic!("{other}"),
    }
    let msg = e.to_string();
    assert!(
        msg.contains("format_version 2") && msg.contains("reads format_version 1"),
        "{msg}"
    );
}

#[test]
fn an_unknown_kind_is_refused() {
    let text = small_rf().to_json().unwrap();
    for kind in ["xgboost", "rfgb"] {
        let other = text.replacen("\"kind\": \"rf\"", &format!("\"kind\": \"{kind}\""), 1);
        let e = FittedModel::from_json(&other).unwrap_err();
        assert!(
            matches!(&e, Error::UnknownKind { kind: k, .. } if k == kind),
            "{e}"
        );
    }
}

#[test]
fn a_model_of_another_kind_does_not_load() {
    let text = small_rf().to_json().unwrap();
    let wrong = text.replacen("\"kind\": \"rf\"", "\"kind\": \"lrr\"", 1);
    let e = FittedModel::from_json(&wrong).unwrap_err();
    assert!(matches!(e, Error::Envelope { field: "model", .. }), "{e}");
}

#[test]
fn malformed_json_gives_the_line_and_column() {
    let text = small_rf().to_json().unwrap();
    let cut = &text[..text.len() / 2];
    match FittedModel::from_json(cut).unwrap_err() {
        Error::Json { line, column, .. } => {
            assert!(line > 1 && column >= 1, "{line}:{column}");
        }
        other => panic!("{other}"),
    }
    match FittedModel::from_json("{\n  \"format_version\": 1,\n  oops\n}").unwrap_err() {
        Error::Json { line, column, .. } => assert_eq!((line, column), (3, 3)),
        other => panic!("{other}"),
    }
}

#[test]
fn missing_fields_are_named() {
    let v: serde_json::Value = serde_json::from_str(&small_rf().to_json().unwrap()).unwrap();
    for field in [
        "format_version",
        "kind",
        "schema",
        "params",
        "seed",
        "model",
    ] {
        let mut w = v.clone();
        w.as_object_mut().unwrap().remove(field);
        let e = FittedModel::from_json(&w.to_string()).unwrap_err();
        assert!(
            matches!(&e, Error::Envelope { field: f, .. } if *f == field),
            "{field}: {e}"
        );
    }
    let e = FittedModel::from_json("[1, 2]").unwrap_err();
    assert!(matches!(e, Error::Envelope { .. }), "{e}");
}

#[test]
fn file_errors_name_the_file_and_nothing_half_written_is_left() {
    let dir = temp_dir("errors");
    let missing = dir.join("absent.json");
    let e = FittedModel::load(&missing).unwrap_err();
    assert!(matches!(e, Error::Io { action: "read", .. }), "{e}");
    assert!(e.to_string().contains("absent.json"), "{e}");

    let model = small_rf();
    let nowhere = dir.join("no-such-folder").join("m.json");
    let e = model.save(&nowhere).unwrap_err();
    assert!(matches!(e, Error::Io { .. }), "{e}");

    // A bad file names itself in the error.
    let bad = dir.join("bad.json");
    std::fs::write(&bad, "{ not json").unwrap();
    let e = FittedModel::load(&bad).unwrap_err();
    assert!(e.to_string().contains("bad.json"), "{e}");

    // Saving over an existing file replaces it whole.
    let path = dir.join("m.json");
    std::fs::write(&path, "old").unwrap();
    model.save(&path).unwrap();
    assert_eq!(FittedModel::load(&path).unwrap(), model);
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["bad.json", "m.json"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn relational_methods_fit_through_rc_logic() {
    use rc_logic::data::{Problem, SplitText};
    let background = "father(+person,+person).\nmale(+person).\nparent(+person,+person).\n";
    let facts = "male(tom). male(bob). male(jim). parent(tom,bob). parent(bob,ann).\n\
                 parent(ann,jim). parent(eve,tom). male(sam). parent(sam,eve). parent(liz,sam).\n";
    let pos = "father(tom,bob). father(bob,ann). father(sam,eve).\n";
    let neg = "father(ann,jim). father(eve,tom). father(bob,tom). father(jim,ann).\n\
               father(liz,sam). father(tom,ann). father(sam,tom).\n";
    let train = SplitText {
        facts: (facts, "facts"),
        pos: (pos, "pos"),
        neg: (neg, "neg"),
    };
    let problem = Problem::from_texts((background, "bk"), "father", train, None).unwrap();
    for id in ["rfgb", "bagging"] {
        let fitted =
            fit_relational(id, &[("n_trees", "3"), ("neg_ratio", "none")], &problem, 1).unwrap();
        assert_eq!(fitted.kind, id);
        assert_eq!(fitted.ensemble.trees.len(), 3);
        assert_eq!(fitted.params["neg_ratio"], "none");
        let p = fitted.ensemble.predict_proba(&problem.train);
        assert_eq!(p.len(), problem.train.examples.len());
    }
    let e = fit_relational::<&str, &str>("dt", &[], &problem, 0).unwrap_err();
    assert!(matches!(e, Error::NotRelational { .. }), "{e}");
    let e = fit_relational("rfgb", &[("n_trees", "0")], &problem, 0).unwrap_err();
    assert!(matches!(e, Error::BadValue { .. }), "{e}");
}
