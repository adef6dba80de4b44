//! `rulecover fit` → `rules` → `predict` for every tabular method of the
//! registry, on small data with small parameters; the written
//! predictions equal the library's predictions of the saved model.

mod cli_support;

use cli_support::{ok_in, parse_csv, write_csv, Scratch};
use rulecover::FittedModel;
use rulecover_core::{generate, Predictions};

/// Every tabular method with parameters that keep it quick.
const SMALL: &[(&str, &[&str])] = &[
    ("dt", &["max_depth=3"]),
    ("rf", &["n_estimators=5", "max_depth=3"]),
    ("ada", &["n_estimators=5"]),
    ("gb", &["n_estimators=5"]),
    ("mirco", &["n_estimators=5", "max_depth=3"]),
    ("rcboost", &["max_depth=3", "max_rmp_calls=3"]),
    ("rux-rf", &["n_estimators=5"]),
    ("rux-ada", &["n_estimators=5"]),
    ("rug", &["max_rmp_calls=3"]),
    ("rug-t", &[]),
    ("lr1", &["n_thresholds=3"]),
    ("lrr", &["n_thresholds=3", "max_iterations=3"]),
    ("lr1n", &["n_thresholds=3"]),
    ("lrrn", &["n_thresholds=3", "max_iterations=3"]),
    ("linear-rule", &["n_thresholds=3", "max_iterations=3"]),
    ("rulefit", &["max_rules=40"]),
    ("rulefit-n", &["max_rules=40"]),
    ("gbt", &["n_estimators=5"]),
    ("nre", &["max_depth=2", "max_epochs=3"]),
    ("nre-deep", &["max_depth=2", "max_epochs=3"]),
    ("ann", &["hidden=8", "max_epochs=3"]),
];

#[test]
fn the_table_covers_every_tabular_method() {
    let mut ids: Vec<&str> = rulecover::methods()
        .iter()
        .filter(|m| !m.is_relational())
        .map(|m| m.spec().id)
        .collect();
    let mut listed: Vec<&str> = SMALL.iter().map(|(id, _)| *id).collect();
    ids.sort_unstable();
    listed.sort_unstable();
    assert_eq!(ids, listed);
}

/// Fits, prints rules and predicts each method of `ids` through the CLI.
fn round_trip(name: &str, ids: &[&str]) {
    let dir = Scratch::new(name);
    let train = generate::twonorm(120, 1);
    let test = generate::twonorm(40, 2);
    write_csv(&dir.path("train.csv"), &train);
    write_csv(&dir.path("test.csv"), &test);
    for &id in ids {
        let params = SMALL.iter().find(|(m, _)| *m == id).unwrap().1;
        let model = dir.arg(&format!("{id}.json"));
        let mut args = vec![
            "fit",
            "--data",
            "train.csv",
            "--target",
            "label",
            "--method",
            id,
            "--seed",
            "3",
            "--out",
            &model,
        ];
        for p in params {
            args.extend(["--param", p]);
        }
        let printed = ok_in(&dir.0, &args);
        let first = printed.lines().next().unwrap();
        assert!(first.starts_with(&format!("{id}: ")), "{id}: {first}");
        assert!(first.contains("training accuracy"), "{id}: {first}");
        let loaded = FittedModel::load(&model).unwrap();
        assert_eq!(loaded.kind(), id);

        // Rule models print their rules at fit; ensembles only on request.
        let n_rules = loaded.rule_set().map(|s| s.len());
        let printed_rules = printed.lines().count() - 1;
        match (id, n_rules) {
            ("rf" | "ada" | "gb" | "gbt", _) | ("ann", _) => assert_eq!(printed_rules, 0, "{id}"),
            (_, Some(n)) => assert_eq!(printed_rules, n, "{id}"),
            (_, None) => unreachable!("{id} has rules"),
        }

        if let Some(n) = n_rules {
            for format in ["text", "markdown", "json", "csv"] {
                let out = ok_in(&dir.0, &["rules", "--model", &model, "--format", format]);
                let lines = out.lines().count();
                match format {
                    "text" => assert_eq!(lines, n, "{id}"),
                    "markdown" => assert_eq!(lines, n + 2, "{id}"),
                    "csv" => assert!(lines > n, "{id}"),
                    _ => {
                        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
                        assert_eq!(v.as_array().unwrap().len(), n, "{id}");
                    }
                }
            }
        }

        // predict --proba to a file equals the library's predictions.
        let preds = dir.arg(&format!("{id}.csv"));
        ok_in(
            &dir.0,
            &[
                "predict", "--model", &model, "--data", "test.csv", "--proba", "--out", &preds,
            ],
        );
        let (header, rows) = parse_csv(&std::fs::read_to_string(&preds).unwrap());
        assert_eq!(header, ["label", "0", "1"], "{id}");
        assert_eq!(rows.len(), test.n_rows(), "{id}");
        let Predictions::Classes { n_classes, proba } = loaded.predict(&test).unwrap() else {
            panic!("{id}: classes expected");
        };
        let labels = loaded.predict(&test).unwrap().labels().unwrap();
        for (i, row) in rows.iter().enumerate() {
            assert_eq!(row[0], loaded.classes()[labels[i]], "{id} row {i}");
            for c in 0..n_classes {
                let written: f64 = row[1 + c].parse().unwrap();
                assert_eq!(
                    written.to_bits(),
                    proba[i * n_classes + c].to_bits(),
                    "{id} row {i} class {c}"
                );
            }
        }
        // Without --proba, to standard output: the labels only.
        let out = ok_in(
            &dir.0,
            &["predict", "--model", &model, "--data", "test.csv"],
        );
        let (header, plain) = parse_csv(&out);
        assert_eq!(header, ["label"]);
        let first_column: Vec<&String> = rows.iter().map(|r| &r[0]).collect();
        let plain: Vec<&String> = plain.iter().map(|r| &r[0]).collect();
        assert_eq!(plain, first_column, "{id}");
    }
    // Nothing but the inputs, models and predictions: no temporary file.
    assert!(dir.files().iter().all(|f| !f.ends_with(".tmp")));
}

#[test]
fn trees_and_ensembles() {
    round_trip("trees", &["dt", "rf", "ada", "gb", "gbt"]);
}

#[test]
fn covering_and_column_generation() {
    round_trip(
        "cover",
        &["mirco", "rcboost", "rux-rf", "rux-ada", "rug", "rug-t"],
    );
}

#[test]
fn linear_rule_models() {
    round_trip(
        "glm",
        &[
            "lr1",
            "lrr",
            "lr1n",
            "lrrn",
            "linear-rule",
            "rulefit",
            "rulefit-n",
        ],
    );
}

#[test]
fn neural_models() {
    round_trip("nre", &["nre", "nre-deep", "ann"]);
}

#[test]
fn regression_predictions_are_one_value_column() {
    let dir = Scratch::new("regression");
    // y = 2*x0 + x1 on a small grid.
    let text: String = std::iter::once("x0,x1,y\n".to_string())
        .chain((0..60).map(|i| {
            let (a, b) = ((i % 10) as f64, (i / 10) as f64);
            format!("{a},{b},{}\n", 2.0 * a + b + 0.5)
        }))
        .collect();
    std::fs::write(dir.path("r.csv"), text).unwrap();
    let model = dir.arg("m.json");
    let out = ok_in(
        &dir.0,
        &[
            "fit",
            "--data",
            "r.csv",
            "--target",
            "y",
            "--task",
            "regression",
            "--method",
            "dt",
            "--out",
            &model,
        ],
    );
    assert!(out.lines().next().unwrap().contains("training R²"), "{out}");
    let out = ok_in(
        &dir.0,
        &["predict", "--model", &model, "--data", "r.csv", "--proba"],
    );
    let (header, rows) = parse_csv(&out);
    assert_eq!(header, ["value"]);
    assert_eq!(rows.len(), 60);
    // A fully grown tree reproduces its training targets.
    assert_eq!(rows[13][0].parse::<f64>().unwrap(), 2.0 * 3.0 + 1.0 + 0.5);
}
