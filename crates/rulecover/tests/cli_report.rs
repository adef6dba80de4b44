//! `rulecover report`: one self-contained HTML page of a saved model,
//! with and without labelled data, its error cases, and `rulecover
//! evaluate --plot`'s SVG.

mod cli_support;

use cli_support::{ok_in, run_in, Scratch};

/// A scratch folder with generated train and test tables and a rule
/// model fitted on the first.
fn fitted(name: &str, method: &[&str]) -> Scratch {
    let dir = Scratch::new(name);
    ok_in(
        &dir.0,
        &[
            "generate",
            "twonorm",
            "--rows",
            "300",
            "--seed",
            "1",
            "--out",
            "train.csv",
        ],
    );
    ok_in(
        &dir.0,
        &[
            "generate", "twonorm", "--rows", "200", "--seed", "2", "--out", "test.csv",
        ],
    );
    let mut args = vec![
        "fit",
        "--data",
        "train.csv",
        "--target",
        "label",
        "--out",
        "m.json",
    ];
    args.extend(method);
    ok_in(&dir.0, &args);
    dir
}

/// The rule column of `rulecover rules --format csv`: every rule as the
/// report's table prints it.
fn rules_of(dir: &Scratch) -> Vec<String> {
    let json = ok_in(&dir.0, &["rules", "--model", "m.json", "--format", "json"]);
    let rows: serde_json::Value = serde_json::from_str(&json).unwrap();
    rows.as_array()
        .unwrap()
        .iter()
        .map(|r| r["rule"].as_str().unwrap().to_string())
        .collect()
}

fn escaped(text: &str) -> String {
    rulecover::report::escape(text)
}

/// Nothing on the page loads from elsewhere.
fn assert_self_contained(html: &str) {
    for bad in ["http://", "https://", "<link", "src=", "@import", "url("] {
        assert!(!html.contains(bad), "the page holds '{bad}'");
    }
}

fn read(dir: &Scratch, name: &str) -> String {
    std::fs::read_to_string(dir.path(name)).unwrap()
}

#[test]
fn report_with_data_shows_rules_metrics_and_charts() {
    let dir = fitted(
        "report-data",
        &["--method", "rux-rf", "-p", "n_estimators=10"],
    );
    let out = ok_in(
        &dir.0,
        &[
            "report", "--model", "m.json", "--data", "test.csv", "--out", "r.html",
        ],
    );
    assert!(out.contains("r.html"), "{out}");
    let html = read(&dir, "r.html");
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.contains("<table id=\"rules\""));
    assert!(html.contains("id=\"rule-filter\""));
    assert!(html.contains("<script>"));
    let rules = rules_of(&dir);
    assert!(!rules.is_empty());
    let body = html.split("<tbody>\n").nth(1).unwrap();
    let table = body.split("</tbody>").next().unwrap();
    assert_eq!(table.matches("<tr>").count(), rules.len());
    for r in &rules {
        assert!(html.contains(&escaped(r)), "the table lacks rule '{r}'");
    }
    // The parameters, the metrics on the data, the class balance and the
    // per-rule bars.
    assert!(html.contains("n_estimators") && html.contains("rux-rf"));
    for metric in ["accuracy", "balanced accuracy", "AUC", "log-loss"] {
        assert!(
            html.contains(&format!("<span>{metric}</span>")),
            "no {metric}"
        );
    }
    assert!(html.contains("Class balance"));
    assert!(html.contains("<th>precision</th><th>support</th>"));
    assert!(html.contains("class=\"bar precision\""));
    assert!(html.contains("<svg") && html.contains("Contribution per rule"));
    assert_self_contained(&html);
    assert_eq!(dir.files(), ["m.json", "r.html", "test.csv", "train.csv"]);
}

#[test]
fn report_without_data_has_the_rules_and_training_coverage_only() {
    let dir = fitted("report-nodata", &["--method", "dt", "-p", "max_depth=3"]);
    ok_in(&dir.0, &["report", "--model", "m.json", "--out", "r.html"]);
    let html = read(&dir, "r.html");
    for r in rules_of(&dir) {
        assert!(html.contains(&escaped(&r)), "the table lacks rule '{r}'");
    }
    assert!(html.contains("<th>train coverage</th>"));
    assert!(!html.contains("<th>precision</th>"));
    assert!(!html.contains("<span>accuracy</span>"));
    assert!(html.contains("<svg"));
    assert_self_contained(&html);
}

#[test]
fn report_of_a_model_without_rules_says_so_with_the_metrics() {
    let dir = fitted(
        "report-ann",
        &["--method", "ann", "-p", "hidden=8", "-p", "max_epochs=20"],
    );
    ok_in(
        &dir.0,
        &[
            "report", "--model", "m.json", "--data", "test.csv", "--out", "r.html",
        ],
    );
    let html = read(&dir, "r.html");
    assert!(html.contains("has no rules"), "{html}");
    assert!(html.contains("<span>accuracy</span>"));
    assert!(!html.contains("<table id=\"rules\""));
    assert_self_contained(&html);
}

#[test]
fn report_escapes_column_names_and_levels() {
    let dir = Scratch::new("report-escape");
    let mut csv = String::from("<b>size</b>,\"col\"\"or\",label\n");
    for i in 0..60 {
        let level = ["<red>", "a&b", "x'y"][i % 3];
        let class = if i % 3 == 0 { "<yes>" } else { "no&" };
        csv.push_str(&format!("{},{level},{class}\n", i % 7));
    }
    std::fs::write(dir.path("d.csv"), csv).unwrap();
    ok_in(
        &dir.0,
        &[
            "fit", "--data", "d.csv", "--target", "label", "--method", "dt", "--out", "m.json",
        ],
    );
    ok_in(
        &dir.0,
        &[
            "report", "--model", "m.json", "--data", "d.csv", "--out", "r.html",
        ],
    );
    let html = read(&dir, "r.html");
    for raw in ["<b>size</b>", "<red>", "<yes>", "a&b"] {
        assert!(!html.contains(raw), "'{raw}' is not escaped");
    }
    assert!(html.contains("&lt;b&gt;size&lt;/b&gt;"));
    assert!(html.contains("&lt;yes&gt;"));
}

#[test]
fn report_errors_name_the_file_and_exit_2() {
    let dir = fitted("report-errors", &["--method", "dt", "-p", "max_depth=2"]);
    let out = run_in(
        &dir.0,
        &["report", "--model", "nope.json", "--out", "r.html"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("nope.json"));

    // The test table without its label column.
    let text = read(&dir, "test.csv");
    let unlabelled: String = text
        .lines()
        .map(|l| l.rsplit_once(',').unwrap().0.to_string() + "\n")
        .collect();
    std::fs::write(dir.path("nolabel.csv"), unlabelled).unwrap();
    let out = run_in(
        &dir.0,
        &[
            "report",
            "--model",
            "m.json",
            "--data",
            "nolabel.csv",
            "--out",
            "r.html",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("nolabel.csv") && err.contains("label"),
        "{err}"
    );
    assert!(!dir.path("r.html").exists(), "a failed run left its output");
}

#[test]
fn evaluate_plot_writes_an_svg_with_axes_and_one_entry_per_method() {
    let dir = Scratch::new("evaluate-plot");
    ok_in(
        &dir.0,
        &[
            "generate", "twonorm", "--rows", "200", "--seed", "3", "--out", "d.csv",
        ],
    );
    let methods = ["dt", "rux-rf", "ann"];
    ok_in(
        &dir.0,
        &[
            "evaluate",
            "--data",
            "d.csv",
            "--target",
            "label",
            "--methods",
            &methods.join(","),
            "--folds",
            "3",
            "-p",
            "rux-rf.n_estimators=5",
            "-p",
            "ann.max_epochs=20",
            "--plot",
            "p.svg",
        ],
    );
    let svg = read(&dir, "p.svg");
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(svg.trim_end().ends_with("</svg>"));
    assert!(svg.contains("class=\"axis-title\"") && svg.contains(">number of rules"));
    assert!(svg.contains(">accuracy (test folds; mean ± 1 std)</text>"));
    for m in methods {
        assert_eq!(
            svg.matches(&format!("class=\"legend-entry\" data-method=\"{m}\""))
                .count(),
            1,
            "{m}"
        );
        assert!(svg.contains(&format!("class=\"series\" data-method=\"{m}\"")));
    }
    // A point per fold for the rule models, a dashed line for the MLP.
    assert_eq!(svg.matches("class=\"fold\"").count(), 6);
    assert!(svg.contains("class=\"no-rules\""));
    // Balanced tags: every opened element is closed (the Python tests
    // parse it with an XML parser).
    assert_eq!(svg.matches("<g").count(), svg.matches("</g>").count());
}

/// The command lines of the `sh` block under the root README's "Report"
/// heading.
fn readme_commands() -> Vec<Vec<String>> {
    cli_support::sh_commands(include_str!("../../../README.md"), "## Report")
}

#[test]
fn the_readme_report_commands_run_verbatim() {
    let commands = readme_commands();
    assert!(commands.iter().any(|c| c[1] == "report"));
    let dir = Scratch::new("report-readme");
    for words in &commands {
        assert_eq!(words[0], "rulecover", "{words:?}");
        let args: Vec<&str> = words[1..].iter().map(String::as_str).collect();
        ok_in(&dir.0, &args);
    }
    let html = read(&dir, "report.html");
    assert!(html.contains("<span>accuracy</span>") && html.contains("<table id=\"rules\""));
    assert_self_contained(&html);
    let svg = read(&dir, "evaluate.svg");
    for m in ["dt", "rux-rf", "rf"] {
        assert!(svg.contains(&format!("class=\"legend-entry\" data-method=\"{m}\"")));
    }
}

#[test]
fn report_of_a_regression_model_has_r2_rmse_and_mean_targets() {
    let dir = Scratch::new("report-regression");
    let mut csv = String::from("a,b,y\n");
    for i in 0..120 {
        let (a, b) = ((i * 37 % 100) as f64 / 100.0, (i * 53 % 100) as f64 / 100.0);
        let y = 3.0 * f64::from(u8::from(a > 0.5)) + b;
        csv.push_str(&format!("{a},{b},{y}\n"));
    }
    std::fs::write(dir.path("r.csv"), csv).unwrap();
    ok_in(
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
            "-p",
            "max_depth=3",
            "--out",
            "m.json",
        ],
    );
    ok_in(
        &dir.0,
        &[
            "report", "--model", "m.json", "--data", "r.csv", "--target", "y", "--out", "r.html",
        ],
    );
    let html = read(&dir, "r.html");
    for needle in [
        "<span>R²</span>",
        "<span>RMSE</span>",
        "<th>mean target</th>",
    ] {
        assert!(html.contains(needle), "no {needle}");
    }
    assert!(!html.contains("Class balance"));
    assert_self_contained(&html);
}
