//! `rulecover fit` → `rules` → `predict` on a four-class CSV with the
//! learners of two classes (LRR, NRE, the MLP), which the registry fits
//! one-vs-rest.

mod cli_support;

use cli_support::{ok_in, parse_csv, run_in, Scratch};
use rulecover::FittedModel;
use rulecover_core::csv::TaskKind;
use rulecover_core::Predictions;

/// Reads `file` of `dir` as the CLI does (the `label` column the target).
fn read(dir: &Scratch, file: &str) -> rulecover_core::Dataset {
    let opts = rulecover_core::csv::CsvOptions::default()
        .task(TaskKind::Classification)
        .target("label");
    rulecover_core::csv::read_csv(&dir.path(file), &opts).unwrap()
}

#[test]
fn learners_of_two_classes_fit_predict_and_print_four() {
    let dir = Scratch::new("one-vs-rest");
    for (file, seed) in [("train.csv", "1"), ("test.csv", "2")] {
        ok_in(
            &dir.0,
            &[
                "generate", "blobs", "--rows", "300", "--seed", seed, "--out", file,
            ],
        );
    }
    let test = read(&dir, "test.csv");
    let majority = *test.class_counts().iter().max().unwrap() as f64 / test.n_rows() as f64;

    let described = ok_in(&dir.0, &["methods", "nre"]);
    assert!(
        described
            .contains("tasks: binary classification, multi-class classification (one-vs-rest)"),
        "{described}"
    );

    for (id, params) in [
        ("lrr", &["max_iterations=3"][..]),
        ("nre", &["max_depth=3", "max_epochs=5"][..]),
        ("ann", &["hidden=8", "max_epochs=20"][..]),
    ] {
        let model = format!("{id}.json");
        let mut args = vec![
            "fit",
            "--data",
            "train.csv",
            "--target",
            "label",
            "--method",
            id,
            "--seed",
            "4",
            "--out",
            &model,
        ];
        for p in params {
            args.extend(["--param", p]);
        }
        let printed = ok_in(&dir.0, &args);
        let mut lines = printed.lines();
        let first = lines.next().unwrap();
        assert!(first.starts_with(&format!("{id}: ")), "{first}");
        assert!(first.contains("training accuracy"), "{first}");
        // Every printed rule names its class (below the penalties LRR's
        // `lambda0 = auto` chose, one per class).
        if id == "lrr" {
            let chosen = lines.next().unwrap();
            assert!(chosen.contains(" lambda0[3]="), "{chosen}");
        }
        assert!(lines.all(|l| l.contains(". class ")), "{printed}");
        let loaded = FittedModel::load(dir.path(&model)).unwrap();
        assert_eq!(loaded.classes(), ["0", "1", "2", "3"]);

        if id == "ann" {
            let out = run_in(&dir.0, &["rules", "--model", &model]);
            assert_eq!(out.status.code(), Some(2));
            assert!(String::from_utf8_lossy(&out.stderr).contains("has no rules"));
        } else {
            let csv = ok_in(&dir.0, &["rules", "--model", &model, "--format", "csv"]);
            let (header, rows) = parse_csv(&csv);
            assert_eq!(
                header,
                ["rank", "class", "rule", "outcome", "weight", "coverage", "length"]
            );
            for k in ["0", "1", "2", "3"] {
                assert!(rows.iter().any(|r| r[1] == k), "{id}: no rule of class {k}");
            }
            for r in &rows {
                assert!(
                    r[2].starts_with(&format!("class {}: ", r[1])),
                    "{id}: {r:?}"
                );
            }
            let json = ok_in(&dir.0, &["rules", "--model", &model, "--format", "json"]);
            let v: serde_json::Value = serde_json::from_str(&json).unwrap();
            let rules = v.as_array().unwrap();
            assert_eq!(rules.len(), rows.len());
            assert!(rules.iter().all(|r| r["class"].is_string()));
            let md = ok_in(
                &dir.0,
                &["rules", "--model", &model, "--format", "markdown"],
            );
            assert!(md.starts_with("| # | class | rule |"), "{md}");
        }

        let preds = format!("{id}.csv");
        ok_in(
            &dir.0,
            &[
                "predict", "--model", &model, "--data", "test.csv", "--proba", "--out", &preds,
            ],
        );
        let (header, rows) = parse_csv(&std::fs::read_to_string(dir.path(&preds)).unwrap());
        assert_eq!(header, ["label", "0", "1", "2", "3"]);
        assert_eq!(rows.len(), test.n_rows());
        let Predictions::Classes { proba, .. } = loaded.predict(&test).unwrap() else {
            panic!("{id}: classes expected")
        };
        let truth = test.labels().unwrap();
        let mut correct = 0;
        for (i, row) in rows.iter().enumerate() {
            let p: Vec<f64> = row[1..].iter().map(|v| v.parse().unwrap()).collect();
            let sum: f64 = p.iter().sum();
            assert!((sum - 1.0).abs() <= 1e-12, "{id} row {i}: {sum}");
            for (c, v) in p.iter().enumerate() {
                assert_eq!(v.to_bits(), proba[i * 4 + c].to_bits(), "{id} row {i}");
            }
            correct += usize::from(row[0] == test.class_names()[truth[i]]);
        }
        let acc = correct as f64 / rows.len() as f64;
        assert!(
            acc > majority,
            "{id}: accuracy {acc} <= majority rate {majority}"
        );
    }
}
