//! `evaluate`, `generate`, `methods`, and predicting a file whose columns
//! are in another order and that has no label.

mod cli_support;

use cli_support::{ok_in, parse_csv, run_in, write_csv, Scratch};
use rulecover_core::generate;

#[test]
fn columns_in_another_order_without_the_label_give_the_same_labels() {
    let dir = Scratch::new("order");
    write_csv(&dir.path("train.csv"), &generate::twonorm(150, 1));
    let test = generate::twonorm(40, 2);
    write_csv(&dir.path("test.csv"), &test);
    // The same rows: columns reversed, the label left out, an id column
    // added.
    let text = std::fs::read_to_string(dir.path("test.csv")).unwrap();
    let shuffled: String = text
        .lines()
        .enumerate()
        .map(|(i, l)| {
            let mut f: Vec<&str> = l.split(',').collect();
            f.pop(); // the label
            f.reverse();
            let id = if i == 0 {
                "id".to_string()
            } else {
                format!("r{i}")
            };
            format!("{id},{}\n", f.join(","))
        })
        .collect();
    std::fs::write(dir.path("shuffled.csv"), shuffled).unwrap();
    ok_in(
        &dir.0,
        &[
            "fit",
            "--data",
            "train.csv",
            "--target",
            "label",
            "--method",
            "rux-rf",
            "--param",
            "n_estimators=8",
            "--out",
            "m.json",
        ],
    );
    let a = ok_in(
        &dir.0,
        &[
            "predict", "--model", "m.json", "--data", "test.csv", "--proba",
        ],
    );
    let b = ok_in(
        &dir.0,
        &[
            "predict",
            "--model",
            "m.json",
            "--data",
            "shuffled.csv",
            "--proba",
        ],
    );
    assert_eq!(a, b);
    assert_eq!(a.lines().count(), 41);
}

#[test]
fn categorical_columns_in_another_order_without_the_label() {
    let dir = Scratch::new("order-categorical");
    ok_in(
        &dir.0,
        &[
            "generate",
            "tic-tac-toe",
            "--rows",
            "300",
            "--seed",
            "1",
            "--out",
            "t.csv",
        ],
    );
    let text = std::fs::read_to_string(dir.path("t.csv")).unwrap();
    let reordered: String = text
        .lines()
        .map(|l| {
            let mut f: Vec<&str> = l.split(',').collect();
            f.pop();
            f.rotate_left(4);
            f.join(";") + "\n"
        })
        .collect();
    std::fs::write(dir.path("r.csv"), reordered).unwrap();
    ok_in(
        &dir.0,
        &[
            "fit", "--data", "t.csv", "--target", "label", "--method", "dt", "--out", "m.json",
        ],
    );
    let a = ok_in(
        &dir.0,
        &["predict", "--model", "m.json", "--data", "t.csv", "--proba"],
    );
    let b = ok_in(
        &dir.0,
        &[
            "predict",
            "--model",
            "m.json",
            "--data",
            "r.csv",
            "--proba",
            "--delimiter",
            ";",
        ],
    );
    assert_eq!(a, b);
    assert_eq!(a.lines().next(), Some("label,negative,positive"));
}

#[test]
fn positive_class_and_weights_are_read() {
    let dir = Scratch::new("weights");
    let mut text = String::from("x,w,y\n");
    for i in 0..40 {
        let y = if i < 20 { "no" } else { "yes" };
        text.push_str(&format!("{i},{},{y}\n", 1 + i % 3));
    }
    std::fs::write(dir.path("d.csv"), &text).unwrap();
    let out = ok_in(
        &dir.0,
        &[
            "fit",
            "--data",
            "d.csv",
            "--target",
            "y",
            "--method",
            "dt",
            "--weights",
            "w",
            "--positive-class",
            "no",
            "--out",
            "m.json",
        ],
    );
    assert!(out.contains("training accuracy 1.0000"), "{out}");
    let model = rulecover::FittedModel::load(dir.path("m.json")).unwrap();
    // The weight column is not a feature; "no" is class 1.
    assert_eq!(model.schema().feature_names(), ["x"]);
    assert_eq!(model.classes(), ["yes", "no"]);
    // The same fit as the library's with the column's weights.
    let mut opts = rulecover::io::TableOptions::new("y");
    opts.weights = Some("w".into());
    opts.positive_class = Some("no".into());
    let (data, weights) = rulecover::io::read_training_table(&dir.path("d.csv"), &opts).unwrap();
    let weights = weights.unwrap();
    assert_eq!(&weights[..4], [1.0, 2.0, 3.0, 1.0]);
    let direct = rulecover::fit("dt", &[] as &[(&str, &str)], &data, Some(&weights), 0).unwrap();
    assert_eq!(direct.rule_set(), model.rule_set());
    let preds = ok_in(&dir.0, &["predict", "--model", "m.json", "--data", "d.csv"]);
    let (_, rows) = parse_csv(&preds);
    assert_eq!(rows[0][0], "no");
    assert_eq!(rows[39][0], "yes");
    // A negative weight is bad input, named.
    std::fs::write(dir.path("neg.csv"), text.replacen("0,1,no", "0,-1,no", 1)).unwrap();
    let o = cli_support::run_in(
        &dir.0,
        &[
            "fit",
            "--data",
            "neg.csv",
            "--target",
            "y",
            "--method",
            "dt",
            "--weights",
            "w",
            "--out",
            "n.json",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("-1"));
    assert!(!dir.path("n.json").exists());
}

fn metric_columns(json: &str) -> Vec<Vec<serde_json::Value>> {
    let v: serde_json::Value = serde_json::from_str(json).unwrap();
    v["methods"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            m["folds"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| serde_json::json!([f["metrics"], f["n_rules"], f["rule_length"]]))
                .collect()
        })
        .collect()
}

#[test]
fn evaluate_is_the_same_whatever_the_jobs() {
    let dir = Scratch::new("evaluate");
    write_csv(&dir.path("d.csv"), &generate::twonorm(90, 4));
    let base = [
        "evaluate",
        "--data",
        "d.csv",
        "--target",
        "label",
        "--methods",
        "dt,rux-rf",
        "--folds",
        "3",
        "--seed",
        "5",
        "--param",
        "max_depth=2",
        "--param",
        "rux-rf.n_estimators=4",
    ];
    let mut one = base.to_vec();
    one.extend(["--jobs", "1", "--format", "json"]);
    let mut two = base.to_vec();
    two.extend(["--jobs", "2", "--format", "json"]);
    let a = ok_in(&dir.0, &one);
    let b = ok_in(&dir.0, &two);
    let (ma, mb) = (metric_columns(&a), metric_columns(&b));
    assert_eq!(ma.len(), 2);
    assert_eq!(ma[0].len(), 3);
    assert_eq!(ma, mb);
    let v: serde_json::Value = serde_json::from_str(&a).unwrap();
    assert_eq!(v["methods"][1]["params"][0][1], "2");
    assert_eq!(v["methods"][1]["params"][1][0], "n_estimators");
    let acc = v["methods"][0]["folds"][0]["metrics"]["accuracy"]
        .as_f64()
        .unwrap();
    assert!((0.5..=1.0).contains(&acc), "{acc}");

    let md = ok_in(&dir.0, &base);
    let lines: Vec<&str> = md.lines().collect();
    assert!(lines[2].starts_with("| method | accuracy | balanced_accuracy | auc |"));
    assert!(lines[4].starts_with("| dt | "));
    assert!(lines[5].starts_with("| rux-rf | "));
}

#[test]
fn generate_writes_each_table() {
    let dir = Scratch::new("generate");
    for (name, rows, features) in [
        ("twonorm", 50, 20),
        ("ringnorm", 30, 20),
        ("xor", 25, 2),
        ("blobs", 40, 4),
        ("tic-tac-toe", 100, 9),
    ] {
        let file = format!("{name}.csv");
        let n = rows.to_string();
        ok_in(
            &dir.0,
            &[
                "generate", name, "--rows", &n, "--seed", "7", "--out", &file,
            ],
        );
        let (header, body) = parse_csv(&std::fs::read_to_string(dir.path(&file)).unwrap());
        assert_eq!(header.len(), features + 1, "{name}");
        assert_eq!(header.last().unwrap(), "label");
        assert_eq!(body.len(), rows, "{name}");
        // The same seed writes the same file.
        ok_in(
            &dir.0,
            &[
                "generate",
                name,
                "--rows",
                &n,
                "--seed",
                "7",
                "--out",
                "again.csv",
            ],
        );
        assert_eq!(
            std::fs::read(dir.path(&file)).unwrap(),
            std::fs::read(dir.path("again.csv")).unwrap()
        );
    }
    let (header, body) = parse_csv(&std::fs::read_to_string(dir.path("tic-tac-toe.csv")).unwrap());
    assert_eq!(header[0], "top_left_square");
    assert!(body
        .iter()
        .all(|r| ["x", "o", "b"].contains(&r[0].as_str())));
    // The xor label is the sign agreement of x0 and x1.
    let (_, body) = parse_csv(&std::fs::read_to_string(dir.path("xor.csv")).unwrap());
    for r in body {
        let (a, b): (f64, f64) = (r[0].parse().unwrap(), r[1].parse().unwrap());
        assert_eq!(r[2], if a * b > 0.0 { "1" } else { "0" });
    }
}

/// `--majority` thins the other classes: 98/2 from twonorm, and an error
/// for a share class 0 already exceeds or a relational set.
#[test]
fn generate_majority_makes_imbalanced_tables() {
    let dir = Scratch::new("generate-majority");
    let args = |share: &'static str, out: &'static str| {
        [
            "generate",
            "twonorm",
            "--rows",
            "5000",
            "--majority",
            share,
            "--seed",
            "2",
            "--out",
            out,
        ]
    };
    ok_in(&dir.0, &args("0.98", "thin.csv"));
    let (_, body) = parse_csv(&std::fs::read_to_string(dir.path("thin.csv")).unwrap());
    let ones = body.iter().filter(|r| r[20] == "1").count();
    let zeros = body.len() - ones;
    let share = zeros as f64 / body.len() as f64;
    assert!((share - 0.98).abs() < 0.006, "{zeros} zeros, {ones} ones");
    let out = run_in(&dir.0, &args("0.2", "bad.csv"));
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--majority") && err.contains("class 0 already holds"),
        "{err}"
    );
    assert!(!dir.path("bad.csv").exists());
    let out = run_in(
        &dir.0,
        &["generate", "smokers", "--majority", "0.9", "--out", "rel"],
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn methods_lists_parameters_and_defaults() {
    let dir = Scratch::new("methods");
    let all = ok_in(&dir.0, &["methods"]);
    for m in rulecover::methods().iter().map(|m| m.spec()) {
        assert!(all.contains(&format!("{} — ", m.id)), "{}", m.id);
    }
    let one = ok_in(&dir.0, &["methods", "RF+RUX"]);
    assert!(one.starts_with("rux-rf — "));
    assert!(one.contains("max_depth"));
    assert!(one.contains("int|none = 2"));
}
