//! Model files written before the method registry became one list of
//! items still load: a tabular file of the envelope (format_version 1)
//! and a relational file of rc-logic's layout before the envelope
//! (`{"format": "rc-logic-model", ...}`), each a literal copy of such a
//! file. Loaded, they predict as recorded, and are written again in the
//! one envelope layout.

use rc_logic::data::{Problem, SplitText};
use rc_logic::TreeEnsemble;
use rulecover::{Error, FittedModel, RelationalFit};
use rulecover_core::{Dataset, Feature, Predictions, Target};

/// `dt` with `max_depth=1`, seed 3, fitted on [`tiny`], as written by
/// rulecover before the change.
const OLD_TABULAR: &str = r#"{
  "format_version": 1,
  "kind": "dt",
  "schema": {
    "features": [
      {
        "name": "x",
        "kind": "Numeric"
      },
      {
        "name": "color",
        "kind": {
          "Categorical": {
            "levels": [
              "red",
              "blue"
            ]
          }
        }
      }
    ],
    "target": {
      "Classes": [
        "no",
        "yes"
      ]
    }
  },
  "params": {
    "criterion": "auto",
    "max_depth": "1",
    "max_features": "all",
    "min_samples_leaf": "1",
    "min_samples_split": "2",
    "random_stream": "native"
  },
  "seed": 3,
  "model": {
    "coverage": [
      6,
      3,
      3
    ],
    "criterion": "Gini",
    "encoder": {
      "encoded": [
        {
          "kind": "Numeric",
          "name": "x"
        },
        {
          "kind": {
            "Indicator": {
              "level": "red",
              "source": "color"
            }
          },
          "name": "color=red"
        },
        {
          "kind": {
            "Indicator": {
              "level": "blue",
              "source": "color"
            }
          },
          "name": "color=blue"
        }
      ],
      "encoding": {
        "OneHot": {
          "drop_first": false
        }
      },
      "schema": {
        "features": [
          {
            "kind": "Numeric",
            "name": "x"
          },
          {
            "kind": {
              "Categorical": {
                "levels": [
                  "red",
                  "blue"
                ]
              }
            },
            "name": "color"
          }
        ],
        "target": {
          "Classes": [
            "no",
            "yes"
          ]
        }
      },
      "unseen": "Error"
    },
    "tree": {
      "depth": [
        0,
        1,
        1
      ],
      "impurity": [
        0.5,
        0.0,
        0.0
      ],
      "n_classes": 2,
      "n_features": 3,
      "n_node_samples": [
        6,
        3,
        3
      ],
      "nav": [
        {
          "f": 0,
          "r": 2,
          "t": 3.5000001192092896
        },
        {
          "f": 0,
          "r": 0,
          "t": 0.0
        },
        {
          "f": 0,
          "r": 0,
          "t": 0.0
        }
      ],
      "threshold": [
        3.5,
        0.0,
        0.0
      ],
      "value": [
        3.0,
        3.0,
        3.0,
        0.0,
        0.0,
        3.0
      ],
      "weighted_n_node_samples": [
        6.0,
        3.0,
        3.0
      ]
    }
  }
}"#;

/// `rfgb` with one tree of depth 2 and all negatives, seed 1, fitted on
/// [`father`], as written by rc-logic before the envelope.
const OLD_RELATIONAL: &str = r#"{"format":"rc-logic-model","version":1,"kind":"boosted","target":"father/2","head_types":["person","person"],"model":{"combine":{"Sum":{"offset":-1.8,"step":1.0}},"head":{"args":[{"Var":0},{"Var":1}],"pred":0},"head_types":[1,1],"training_rows":[0,1,2,3,4,5,6,7,8,9],"trees":[{"head":{"args":[{"Var":0},{"Var":1}],"pred":0},"nodes":[{"Test":{"check":[{"args":[{"Var":0},{"Var":1}],"pred":2},{"args":[{"Var":0}],"pred":1}],"no":2,"test":[{"args":[{"Var":0},{"Var":1}],"pred":2},{"args":[{"Var":0}],"pred":1}],"weight":10.0,"yes":1}},{"Leaf":{"value":0.8581489350995121,"weight":3.0}},{"Leaf":{"value":-0.1418510649004878,"weight":7.0}}],"var_types":[1,1]}],"vocab":{"preds":[[0,2],[2,1],[3,2]],"strings":["father","person","male","parent","tom","bob","jim","ann","eve","sam","liz"]}}}"#;

fn tiny() -> Dataset {
    Dataset::new(
        "tiny",
        vec![
            Feature::numeric("x"),
            Feature::categorical("color", vec!["red".into(), "blue".into()]),
        ],
        vec![
            vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
            vec![0.0, 1.0, 0.0, 1.0, 0.0, 1.0],
        ],
        Target::Classes {
            labels: vec![0, 0, 0, 1, 1, 1],
            names: vec!["no".into(), "yes".into()],
        },
    )
    .unwrap()
}

fn father() -> Problem {
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
    Problem::from_texts((background, "bk"), "father", train, None).unwrap()
}

#[test]
fn an_old_tabular_file_loads_predicts_and_is_rewritten_the_same() {
    let model = FittedModel::from_json(OLD_TABULAR).unwrap();
    assert_eq!(model.kind(), "dt");
    assert_eq!(model.seed(), 3);
    assert_eq!(model.params()["max_depth"], "1");
    let pred = model.predict(&tiny()).unwrap();
    let Predictions::Classes { proba, .. } = &pred else {
        panic!("{pred:?}")
    };
    assert_eq!(
        proba,
        &[1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0]
    );
    // The same fit today writes the same file.
    let refit = rulecover::fit("dt", &[("max_depth", "1")], &tiny(), None, 3).unwrap();
    assert_eq!(refit, model);
    assert_eq!(model.to_json().unwrap(), OLD_TABULAR);
}

#[test]
fn an_old_relational_file_loads_predicts_and_is_rewritten_as_an_envelope() {
    let problem = father();
    let fit = RelationalFit::from_json(OLD_RELATIONAL).unwrap();
    assert_eq!(fit.kind, "rfgb");
    assert!(fit.params.is_empty(), "the old layout kept no parameters");
    assert_eq!(fit.seed, 0);
    let p = fit
        .ensemble
        .rebind(&problem.vocab)
        .unwrap()
        .predict_proba(&problem.train);
    let (high, low) = (0.28052658778904555, 0.12544463852839138);
    assert_eq!(p, [high, high, high, low, low, low, low, low, low, low]);
    // rc-logic reads it too.
    let direct = TreeEnsemble::from_json(OLD_RELATIONAL).unwrap();
    assert_eq!(direct.predict_proba(&problem.train), p);

    // Written again: the envelope, which reads back to the same model.
    let text = fit.to_json().unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["format_version"], 1);
    assert_eq!(v["kind"], "rfgb");
    assert_eq!(v["target"], "father/2");
    assert_eq!(v["head_types"], serde_json::json!(["person", "person"]));
    assert!(v.get("format").is_none() && v.get("schema").is_none());
    let again = RelationalFit::from_json(&text).unwrap();
    assert_eq!(again.ensemble.predict_proba(&problem.train), p);
    assert_eq!(again.to_json().unwrap(), text);

    // The same fit today gives the same model, now with its parameters.
    let params = [("n_trees", "1"), ("max_depth", "2"), ("neg_ratio", "none")];
    let refit = rulecover::fit_relational("rfgb", &params, &problem, 1).unwrap();
    assert_eq!(refit.ensemble.predict_proba(&problem.train), p);
    let saved: serde_json::Value = serde_json::from_str(&refit.to_json().unwrap()).unwrap();
    assert_eq!(saved["model"], v["model"]);
    assert_eq!(saved["seed"], 1);
    assert_eq!(saved["params"]["n_trees"], "1");
}

#[test]
fn a_file_of_one_family_does_not_load_as_the_other() {
    let e = FittedModel::from_json(OLD_RELATIONAL).unwrap_err();
    assert!(
        matches!(&e, Error::UnknownKind { kind, .. } if kind == "rfgb"),
        "{e}"
    );
    let e = RelationalFit::from_json(OLD_TABULAR).unwrap_err();
    assert!(
        matches!(&e, Error::UnknownKind { kind, valid, .. } if kind == "dt" && valid == "rfgb, bagging"),
        "{e}"
    );
}
