//! `rulecover generate smokers`, then `relational learn` and `infer` in
//! separate processes through the saved model folder.

mod cli_support;

use cli_support::{ok_in, run_in, Scratch};

#[test]
fn learn_then_infer_in_two_processes() {
    let dir = Scratch::new("relational");
    ok_in(
        &dir.0,
        &[
            "generate", "smokers", "--rows", "50", "--seed", "2", "--out", "smk",
        ],
    );
    for f in [
        "train/train_pos.txt",
        "train/train_neg.txt",
        "train/train_facts.txt",
        "train/train_bk.txt",
        "test/test_pos.txt",
        "test/test_neg.txt",
        "test/test_facts.txt",
    ] {
        assert!(dir.path("smk").join(f).is_file(), "{f}");
    }
    let examples = |split: &str| {
        ["pos", "neg"]
            .iter()
            .map(|k| {
                std::fs::read_to_string(dir.path("smk").join(format!("{split}/{split}_{k}.txt")))
                    .unwrap()
                    .lines()
                    .count()
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(examples("train").iter().sum::<usize>(), 50);

    // BoostSRL's spellings.
    let learned = ok_in(
        &dir.0,
        &[
            "relational",
            "learn",
            "-train",
            "smk/train",
            "-target",
            "cancer",
            "-trees",
            "4",
            "-negPosRatio",
            "1",
            "-model",
            "m",
            "--compress",
            "scote",
            "--seed",
            "1",
        ],
    );
    assert!(learned.starts_with("rfgb: 4 trees"), "{learned}");
    assert!(learned.contains("SCoTE: finished"), "{learned}");
    for f in ["cancer.model.json", "cancer.list.json", "background.txt"] {
        assert!(dir.path("m").join(f).is_file(), "{f}");
    }

    // Inference: another process, the target read from the model folder.
    let inferred = ok_in(
        &dir.0,
        &[
            "relational",
            "infer",
            "--test",
            "smk/test",
            "--model-dir",
            "m",
        ],
    );
    let test = examples("test");
    assert!(
        inferred.starts_with(&format!("% Pos={} Neg={}", test[0], test[1])),
        "{inferred}"
    );
    let auc: f64 = inferred
        .lines()
        .find_map(|l| l.strip_prefix("%   AUC ROC   = "))
        .unwrap()
        .parse()
        .unwrap();
    assert!(auc > 0.6, "{inferred}");
    let results = std::fs::read_to_string(dir.path("m/results_cancer.db")).unwrap();
    assert_eq!(results.lines().count(), test[0] + test[1]);
    for line in results.lines() {
        let (atom, p) = line.rsplit_once(' ').unwrap();
        assert!(
            atom.trim_start_matches('!').starts_with("cancer(q"),
            "{line}"
        );
        let p: f64 = p.parse().unwrap();
        assert!((0.0..=1.0).contains(&p), "{line}");
    }

    // The model file is the envelope, with the fit's parameters and seed;
    // a file of rc-logic's layout before the envelope infers the same.
    let saved = std::fs::read_to_string(dir.path("m/cancer.model.json")).unwrap();
    let envelope: serde_json::Value = serde_json::from_str(&saved).unwrap();
    assert_eq!(envelope["format_version"], 1);
    assert_eq!(envelope["kind"], "rfgb");
    assert_eq!(envelope["target"], "cancer/1");
    assert_eq!(envelope["seed"], 1);
    assert_eq!(envelope["params"]["n_trees"], "4");
    let legacy = serde_json::json!({
        "format": "rc-logic-model",
        "version": 1,
        "kind": "boosted",
        "target": envelope["target"],
        "head_types": envelope["head_types"],
        "model": envelope["model"],
    });
    std::fs::create_dir_all(dir.path("old")).unwrap();
    std::fs::copy(dir.path("m/background.txt"), dir.path("old/background.txt")).unwrap();
    std::fs::write(dir.path("old/cancer.model.json"), legacy.to_string()).unwrap();
    let from_old = ok_in(
        &dir.0,
        &[
            "relational",
            "infer",
            "--test",
            "smk/test",
            "--model-dir",
            "old",
        ],
    );
    let scores_of = |s: &str| -> Vec<String> {
        s.lines()
            .filter(|l| l.contains(" = "))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(scores_of(&from_old), scores_of(&inferred));

    // SCoTE's list is logically equivalent: the same scores.
    let listed = ok_in(
        &dir.0,
        &[
            "relational",
            "infer",
            "--test",
            "smk/test",
            "--model-dir",
            "m",
            "--use-list",
        ],
    );
    let scores = |s: &str| -> Vec<String> {
        s.lines()
            .filter(|l| l.contains(" = "))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(scores(&listed), scores(&inferred));

    // The train folder's modes found two ways: train_bk.txt, or a
    // background.txt one folder up (the srlearn layout).
    std::fs::rename(
        dir.path("smk/train/train_bk.txt"),
        dir.path("smk/background.txt"),
    )
    .unwrap();
    ok_in(
        &dir.0,
        &[
            "relational",
            "learn",
            "--train",
            "smk/train",
            "--target",
            "cancer",
            "--trees",
            "2",
            "--model-dir",
            "m2",
        ],
    );
    std::fs::remove_file(dir.path("smk/background.txt")).unwrap();
    let o = run_in(
        &dir.0,
        &[
            "relational",
            "learn",
            "--train",
            "smk/train",
            "--target",
            "cancer",
            "--model-dir",
            "m3",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("train_bk.txt"));
    assert!(!dir.path("m3").exists());
    // Inference without test_bk.txt falls back to the model folder's modes.
    std::fs::remove_file(dir.path("smk/test/test_bk.txt")).unwrap();
    ok_in(
        &dir.0,
        &[
            "relational",
            "infer",
            "--test",
            "smk/test",
            "--model-dir",
            "m2",
        ],
    );
}

/// A repeated example line: a warning on stderr (count and first repeat)
/// by default, an error naming file, line and example with
/// `--duplicates error`; the same for `infer`.
#[test]
fn duplicate_examples_warn_or_fail() {
    let dir = Scratch::new("relational-duplicates");
    ok_in(
        &dir.0,
        &[
            "generate", "smokers", "--rows", "30", "--seed", "3", "--out", "smk",
        ],
    );
    let repeat = |file: &str| -> (String, usize) {
        let path = dir.path(file);
        let text = std::fs::read_to_string(&path).unwrap();
        let first = text.lines().next().unwrap().to_string();
        let lines = text.lines().count();
        std::fs::write(&path, format!("{text}{first}\n{first}\n")).unwrap();
        (first, lines + 1)
    };
    let (first, line) = repeat("smk/train/train_pos.txt");
    let example = first.trim_end_matches('.').replace(',', ", ");
    let learn = |extra: &[&str], model: &str| {
        let mut args = vec![
            "relational",
            "learn",
            "--train",
            "smk/train",
            "--target",
            "cancer",
            "--trees",
            "2",
            "--model-dir",
            model,
        ];
        args.extend_from_slice(extra);
        run_in(&dir.0, &args)
    };
    let warned = learn(&[], "m");
    assert!(warned.status.success(), "{warned:?}");
    let stderr = String::from_utf8_lossy(&warned.stderr);
    assert!(
        stderr.contains("warning: ")
            && stderr.contains("train_pos.txt: 2 duplicate example line(s) dropped")
            && stderr.contains(&format!("line {line}, {example}, repeats line 1")),
        "{stderr}"
    );
    let failed = learn(&["--duplicates", "error"], "m-strict");
    assert!(!failed.status.success());
    let stderr = String::from_utf8_lossy(&failed.stderr);
    assert!(
        stderr.contains(&format!(
            "train_pos.txt:{line}: example {example} repeats line 1"
        )),
        "{stderr}"
    );
    assert!(!dir.path("m-strict").exists());

    repeat("smk/test/test_neg.txt");
    let infer = |extra: &[&str]| {
        let mut args = vec![
            "relational",
            "infer",
            "--test",
            "smk/test",
            "--model-dir",
            "m",
        ];
        args.extend_from_slice(extra);
        run_in(&dir.0, &args)
    };
    let warned = infer(&[]);
    assert!(warned.status.success(), "{warned:?}");
    assert!(String::from_utf8_lossy(&warned.stderr).contains("test_neg.txt: 2 duplicate"));
    let failed = infer(&["--duplicates", "error"]);
    assert!(!failed.status.success());
    assert!(String::from_utf8_lossy(&failed.stderr).contains("test_neg.txt:"));
}
