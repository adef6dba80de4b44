//! `rulecover evaluate` over every tabular method of the registry, a
//! failing method that does not lose the other rows, and tuning with
//! `--tune` in `fit` and `evaluate`.

mod cli_support;

use cli_support::{ok_in, run_in, write_csv, Scratch};
use rulecover_core::generate;
use serde_json::Value;

/// The ids of every tabular method, and `ID.NAME=VALUE` parameters that
/// make each fit fast (its spec's smoke parameters).
fn tabular_ids_and_smoke() -> (Vec<&'static str>, Vec<String>) {
    let mut ids = Vec::new();
    let mut params = Vec::new();
    for m in rulecover::methods().iter().filter(|m| !m.is_relational()) {
        let spec = m.spec();
        ids.push(spec.id);
        for (name, value) in spec.smoke {
            params.push(format!("{}.{name}={value}", spec.id));
        }
    }
    (ids, params)
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

#[test]
fn evaluate_runs_every_tabular_method_whatever_the_seed() {
    let dir = Scratch::new("evaluate-all");
    write_csv(&dir.path("d.csv"), &generate::twonorm(120, 3));
    let (ids, smoke) = tabular_ids_and_smoke();
    let list = ids.join(",");
    // Seed 0 and another: every per-fold seed is a 64-bit hash, which
    // MIRCO's scikit-learn streams could not take before.
    for seed in ["0", "7"] {
        let mut args = vec![
            "evaluate",
            "--data",
            "d.csv",
            "--target",
            "label",
            "--methods",
            &list,
            "--folds",
            "2",
            "--seed",
            seed,
            "--format",
            "json",
        ];
        for p in &smoke {
            args.extend(["--param", p.as_str()]);
        }
        let report = json(&ok_in(&dir.0, &args));
        let methods = report["methods"].as_array().unwrap();
        assert_eq!(methods.len(), ids.len());
        for (m, id) in methods.iter().zip(&ids) {
            assert_eq!(m["method"], *id);
            assert!(m.get("error").is_none(), "{id}: {}", m["error"]);
            let folds = m["folds"].as_array().unwrap();
            assert_eq!(folds.len(), 2, "{id}");
            for f in folds {
                let acc = f["metrics"]["accuracy"].as_f64().unwrap();
                assert!((0.0..=1.0).contains(&acc), "{id}: {acc}");
                assert!(f.get("n_rules").is_some(), "{id}");
            }
            let summary = m["summary"].as_array().unwrap();
            assert_eq!(summary[0][0], "accuracy");
            assert!(summary[0][1]["mean"].as_f64().is_some(), "{id}");
        }
    }
    // The markdown table: one row per method, every metric filled in.
    let mut args = vec![
        "evaluate",
        "--data",
        "d.csv",
        "--target",
        "label",
        "--methods",
        "all",
        "--folds",
        "2",
    ];
    for p in &smoke {
        args.extend(["--param", p.as_str()]);
    }
    let md = ok_in(&dir.0, &args);
    let rows: Vec<&str> = md.lines().filter(|l| l.starts_with("| ")).skip(1).collect();
    assert_eq!(rows.len(), ids.len(), "{md}");
    for (row, id) in rows.iter().zip(&ids) {
        assert!(row.starts_with(&format!("| {id} | ")), "{row}");
        assert!(!row.contains("error"), "{row}");
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        assert!(cells[2].parse::<f64>().is_err()); // "mean (std)"
        assert!(cells[2].contains('('), "{row}");
    }
}

#[test]
fn a_failing_method_keeps_the_other_rows_and_fails_the_run() {
    let dir = Scratch::new("evaluate-fail");
    write_csv(&dir.path("d.csv"), &generate::twonorm(80, 5));
    // A negative penalty parses (a number) but the learner refuses it
    // when fitting.
    let base = [
        "evaluate",
        "--data",
        "d.csv",
        "--target",
        "label",
        "--methods",
        "dt,lrr,mirco",
        "--folds",
        "2",
        "--param",
        "lrr.lambda0=-1",
        "--param",
        "mirco.n_estimators=5",
    ];
    let out = run_in(&dir.0, &base);
    assert_eq!(out.status.code(), Some(1));
    let md = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("1 of 3 methods failed: lrr"), "{stderr}");
    let lines: Vec<&str> = md.lines().collect();
    assert!(lines[2].ends_with("| fit_s | error |"), "{md}");
    let dt = lines.iter().find(|l| l.starts_with("| dt |")).unwrap();
    let mirco = lines.iter().find(|l| l.starts_with("| mirco |")).unwrap();
    let lrr = lines.iter().find(|l| l.starts_with("| lrr |")).unwrap();
    for row in [dt, mirco] {
        assert!(row.contains('('), "{row}");
        assert!(row.ends_with("|  |"), "{row}");
    }
    assert!(lrr.contains("lambda0"), "{lrr}");
    assert!(lrr.starts_with("| lrr | – | – |"), "{lrr}");

    let mut args = base.to_vec();
    args.extend(["--format", "json"]);
    let out = run_in(&dir.0, &args);
    assert_eq!(out.status.code(), Some(1));
    let report = json(&String::from_utf8(out.stdout).unwrap());
    let methods = report["methods"].as_array().unwrap();
    assert!(methods[0].get("error").is_none());
    assert_eq!(methods[0]["folds"].as_array().unwrap().len(), 2);
    assert!(methods[2].get("error").is_none());
    assert_eq!(methods[2]["folds"].as_array().unwrap().len(), 2);
    let error = methods[1]["error"].as_str().unwrap();
    assert!(
        error.contains("lambda0") && error.starts_with("fold 1"),
        "{error}"
    );
    assert!(methods[1]["folds"].as_array().unwrap().is_empty());
    assert!(methods[1]["summary"][0][1].is_null());
}

#[test]
fn fit_tune_prints_and_stores_the_chosen_parameters() {
    let dir = Scratch::new("fit-tune");
    write_csv(&dir.path("d.csv"), &generate::twonorm(120, 6));
    let text = ok_in(
        &dir.0,
        &[
            "fit",
            "--data",
            "d.csv",
            "--target",
            "label",
            "--method",
            "rf",
            "--param",
            "n_estimators=5",
            "--tune",
            "--tune-folds",
            "2",
            "--out",
            "m.json",
        ],
    );
    assert!(
        text.starts_with("tuned by inner 2-fold cross-validation (accuracy) over 3 grid points"),
        "{text}"
    );
    let file = json(&std::fs::read_to_string(dir.path("m.json")).unwrap());
    let tuned = &file["tuned"];
    assert_eq!(tuned["metric"], "accuracy");
    assert_eq!(tuned["grid"].as_array().unwrap().len(), 3);
    let depth = tuned["chosen"]["max_depth"].as_str().unwrap();
    assert!(["5", "10", "20"].contains(&depth));
    assert_eq!(file["params"]["max_depth"], depth);
    assert_eq!(file["params"]["n_estimators"], "5");
    assert!(text.contains(&format!("max_depth={depth}")), "{text}");
    // The file loads back with its tuning record, and predicts.
    ok_in(&dir.0, &["predict", "--model", "m.json", "--data", "d.csv"]);

    // A metric of the other task is refused before any fit.
    let out = run_in(
        &dir.0,
        &[
            "fit",
            "--data",
            "d.csv",
            "--target",
            "label",
            "--method",
            "dt",
            "--tune",
            "--tune-metric",
            "mse",
            "--out",
            "x.json",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("tune_metric"), "{stderr}");
    assert!(!dir.path("x.json").exists());
    // --tune-metric without --tune is a usage error.
    let out = run_in(
        &dir.0,
        &[
            "fit",
            "--data",
            "d.csv",
            "--target",
            "label",
            "--method",
            "dt",
            "--tune-metric",
            "auc",
            "--out",
            "x.json",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn evaluate_tune_nests_the_search_in_every_fold() {
    let dir = Scratch::new("evaluate-tune");
    write_csv(&dir.path("d.csv"), &generate::twonorm(120, 8));
    let base = [
        "evaluate",
        "--data",
        "d.csv",
        "--target",
        "label",
        "--methods",
        "dt,lr1",
        "--folds",
        "2",
        "--tune",
        "--tune-metric",
        "auc",
        "--one-se",
    ];
    let mut args = base.to_vec();
    args.extend(["--format", "json"]);
    let report = json(&ok_in(&dir.0, &args));
    assert_eq!(report["tune"]["metric"], "auc");
    assert_eq!(report["tune"]["one_se"], true);
    for m in report["methods"].as_array().unwrap() {
        for f in m["folds"].as_array().unwrap() {
            assert!(f["tune_seconds"].as_f64().unwrap() > 0.0);
            assert!(f["tuned"].as_object().is_some_and(|t| !t.is_empty()), "{f}");
        }
    }
    let lr1 = &report["methods"][1]["folds"][0]["tuned"];
    assert!(
        lr1["lambda0"].is_string() && lr1["lambda1"].is_string(),
        "{lr1}"
    );
    let md = ok_in(&dir.0, &base);
    assert!(md.contains("| tune_s | fit_s |"), "{md}");
    assert!(
        md.contains(
            "parameters chosen by inner 3-fold cross-validation (auc, one-standard-error rule)"
        ),
        "{md}"
    );
    assert!(md.contains("- dt: max_depth="), "{md}");
}
