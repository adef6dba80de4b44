//! The command-line tour of the root README runs as written: every line
//! of the `sh` block under its "The command line" heading, in order, in
//! one folder (the crate's README shows the same block).

mod cli_support;

use cli_support::{ok_in, Scratch};

/// The command lines of the first fenced `sh` block after the heading.
fn tour_commands() -> Vec<Vec<String>> {
    let readme = include_str!("../../../README.md");
    let text = &readme[readme.find("## The command line").expect("the CLI tour")..];
    let crate_readme = include_str!("../README.md");
    let block = |t: &str| {
        t[t.find("```sh\n").unwrap()..]
            .split("```\n")
            .next()
            .map(str::to_string)
    };
    assert_eq!(
        block(text),
        block(&crate_readme[crate_readme.find("## The command line").unwrap()..]),
        "the root README and the crate README show the same tour"
    );
    cli_support::sh_commands(readme, "## The command line")
}

#[test]
fn the_tour_runs_verbatim() {
    let commands = tour_commands();
    assert!(commands.len() >= 8, "{commands:?}");
    let dir = Scratch::new("tour");
    let mut outputs = Vec::new();
    for words in &commands {
        assert_eq!(words[0], "rulecover", "{words:?}");
        let args: Vec<&str> = words[1..].iter().map(String::as_str).collect();
        outputs.push(ok_in(&dir.0, &args));
    }
    // What the tour promises is there.
    let predictions = std::fs::read_to_string(dir.path("predictions.csv")).unwrap();
    assert_eq!(predictions.lines().next(), Some("label,0,1"));
    assert_eq!(predictions.lines().count(), 201);
    assert!(outputs[2].starts_with("rux-rf: "));
    assert!(outputs[3].starts_with("| # | rule |"));
    let sql = std::fs::read_to_string(dir.path("model.sql")).unwrap();
    assert!(sql.contains("FROM \"patients\""), "{sql}");
    assert!(sql.contains("AS \"label\""), "{sql}");
    let python = std::fs::read_to_string(dir.path("model.py")).unwrap();
    assert!(python.contains("def predict_proba(row):"), "{python}");
    assert!(outputs[7].contains("| rux-rf |"));
    let infer = outputs.last().unwrap();
    for key in ["AUC ROC", "AUC PR", "CLL", "Precision", "Recall", "F1"] {
        assert!(infer.contains(key), "{infer}");
    }
    assert!(dir.path("smokers-model/results_cancer.db").is_file());
    assert!(dir.path("smokers-model/cancer.list.json").is_file());
}
