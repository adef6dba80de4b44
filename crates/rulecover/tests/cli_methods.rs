//! `rulecover fit` → `rules` → `predict` for every tabular method of the
//! registry, on small data with small parameters; the written
//! predictions equal the library's predictions of the saved model.

mod cli_support;

use cli_support::{ok_in, parse_csv, write_csv, Scratch};
use rulecover::FittedModel;
use rulecover_core::{generate, Predictions};

/// The tabular methods of the registry, in list order, split into
/// `parts` parts; part `k` of them.
fn tabular_part(k: usize, parts: usize) -> Vec<&'static str> {
    let ids: Vec<&str> = rulecover::methods()
        .iter()
        .filter(|m| !m.is_relational())
        .map(|m| m.spec().id)
        .collect();
    let size = ids.len().div_ceil(parts);
    ids.chunks(size).nth(k).unwrap_or_default().to_vec()
}

/// The `--param` arguments of a method's smoke-run parameters.
fn smoke_params(id: &str) -> Vec<String> {
    rulecover::method(id)
        .unwrap()
        .spec()
        .smoke
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect()
}

/// Fits, prints rules and predicts each method of `ids` through the CLI.
fn round_trip(name: &str, ids: &[&str]) {
    let dir = Scratch::new(name);
    let train = generate::twonorm(120, 1);
    let test = generate::twonorm(40, 2);
    write_csv(&dir.path("train.csv"), &train);
    write_csv(&dir.path("test.csv"), &test);
    for &id in ids {
        let params = smoke_params(id);
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
        for p in &params {
            args.extend(["--param", p]);
        }
        let printed = ok_in(&dir.0, &args);
        let first = printed.lines().next().unwrap();
        assert!(first.starts_with(&format!("{id}: ")), "{id}: {first}");
        assert!(first.contains("training accuracy"), "{id}: {first}");
        let loaded = FittedModel::load(&model).unwrap();
        assert_eq!(loaded.kind(), id);

        // A penalty chosen by `lambda0 = auto` is printed below the
        // summary, and above the rules of `rules` in text.
        let chosen = usize::from(!loaded.chosen_params().is_empty());
        if chosen == 1 {
            let line = printed.lines().nth(1).unwrap();
            assert!(
                line.starts_with("chosen by inner cross-validation: lambda0"),
                "{id}: {line}"
            );
        }
        // Rule models print their rules at fit; ensembles only on request.
        let n_rules = loaded.rule_set().map(|s| s.len());
        let printed_rules = printed.lines().count() - 1 - chosen;
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
                    "text" => assert_eq!(lines, n + chosen, "{id}"),
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

// Every tabular method of the registry, in four tests that run in
// parallel.

#[test]
fn tabular_methods_part_1() {
    round_trip("part-1", &tabular_part(0, 4));
}

#[test]
fn tabular_methods_part_2() {
    round_trip("part-2", &tabular_part(1, 4));
}

#[test]
fn tabular_methods_part_3() {
    round_trip("part-3", &tabular_part(2, 4));
}

#[test]
fn tabular_methods_part_4() {
    round_trip("part-4", &tabular_part(3, 4));
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
