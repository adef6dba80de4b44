//! Bad input exits 2 with one line on standard error naming the problem,
//! and leaves no output file.

mod cli_support;

use cli_support::{ok_in, run_in, write_csv, Scratch};
use rulecover_core::generate;

/// Runs a failing command: exit code 2, one line on stderr containing
/// every word of `names`, and `out` not written.
fn fails(dir: &Scratch, args: &[&str], names: &[&str], out: &str) {
    let before = dir.files();
    let o = run_in(&dir.0, args);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
    for n in names {
        assert!(stderr.contains(n), "{args:?}: '{n}' not in: {stderr}");
    }
    assert!(!dir.path(out).exists(), "{args:?} left {out}");
    assert_eq!(dir.files(), before, "{args:?} left files behind");
}

fn setup(name: &str) -> Scratch {
    let dir = Scratch::new(name);
    write_csv(&dir.path("train.csv"), &generate::twonorm(80, 1));
    ok_in(
        &dir.0,
        &[
            "fit",
            "--data",
            "train.csv",
            "--target",
            "label",
            "--method",
            "dt",
            "--param",
            "max_depth=2",
            "--out",
            "model.json",
        ],
    );
    dir
}

#[test]
fn fit_errors_name_the_file_method_column_and_parameter() {
    let dir = setup("fit-errors");
    let fit = |extra: &[&'static str]| {
        let mut a = vec!["fit", "--out", "new.json"];
        a.extend_from_slice(extra);
        a
    };
    fails(
        &dir,
        &fit(&["--data", "nope.csv", "--target", "label", "--method", "dt"]),
        &["nope.csv"],
        "new.json",
    );
    fails(
        &dir,
        &fit(&[
            "--data",
            "train.csv",
            "--target",
            "label",
            "--method",
            "forest",
        ]),
        &["forest", "rux-rf"],
        "new.json",
    );
    fails(
        &dir,
        &fit(&[
            "--data",
            "train.csv",
            "--target",
            "colour",
            "--method",
            "dt",
        ]),
        &["colour", "train.csv"],
        "new.json",
    );
    fails(
        &dir,
        &fit(&[
            "--data",
            "train.csv",
            "--target",
            "label",
            "--method",
            "dt",
            "--param",
            "depth=3",
        ]),
        &["depth", "max_depth"],
        "new.json",
    );
    fails(
        &dir,
        &fit(&[
            "--data",
            "train.csv",
            "--target",
            "label",
            "--method",
            "dt",
            "--param",
            "max_depth=-1",
        ]),
        &["max_depth", "-1"],
        "new.json",
    );
    fails(
        &dir,
        &fit(&[
            "--data",
            "train.csv",
            "--target",
            "label",
            "--method",
            "dt",
            "--drop",
            "x99",
        ]),
        &["x99"],
        "new.json",
    );
    fails(
        &dir,
        &fit(&[
            "--data",
            "train.csv",
            "--target",
            "label",
            "--method",
            "dt",
            "--positive-class",
            "yes",
        ]),
        &["yes", "0, 1"],
        "new.json",
    );
    fails(
        &dir,
        &fit(&[
            "--data",
            "train.csv",
            "--target",
            "label",
            "--method",
            "rfgb",
        ]),
        &["rfgb", "relational"],
        "new.json",
    );
    // A usage error (clap's own) exits 2 as well.
    let o = run_in(&dir.0, &["fit", "--data", "train.csv"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn a_bad_row_is_named() {
    let dir = setup("bad-row");
    std::fs::write(dir.path("bad.csv"), "a,b,label\n1,2,x\n3,,y\n4,5,x\n").unwrap();
    fails(
        &dir,
        &[
            "fit", "--data", "bad.csv", "--target", "label", "--method", "dt", "--out", "new.json",
        ],
        &["bad.csv", "'b'", "row 2", "missing"],
        "new.json",
    );
}

#[test]
fn predict_errors_leave_no_output() {
    let dir = setup("predict-errors");
    std::fs::write(
        dir.path("broken.json"),
        "{\"format_version\": 1, \"kind\": ",
    )
    .unwrap();
    fails(
        &dir,
        &[
            "predict",
            "--model",
            "broken.json",
            "--data",
            "train.csv",
            "--out",
            "p.csv",
        ],
        &["broken.json", "line"],
        "p.csv",
    );
    fails(
        &dir,
        &[
            "predict",
            "--model",
            "missing.json",
            "--data",
            "train.csv",
            "--out",
            "p.csv",
        ],
        &["missing.json"],
        "p.csv",
    );
    // A test file without a column the model reads.
    let text = std::fs::read_to_string(dir.path("train.csv")).unwrap();
    let without_x3: String = text
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            let kept: Vec<&str> = f
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != 3)
                .map(|(_, v)| *v)
                .collect();
            kept.join(",") + "\n"
        })
        .collect();
    std::fs::write(dir.path("short.csv"), without_x3).unwrap();
    fails(
        &dir,
        &[
            "predict",
            "--model",
            "model.json",
            "--data",
            "short.csv",
            "--out",
            "p.csv",
        ],
        &["short.csv", "x3"],
        "p.csv",
    );
    fails(
        &dir,
        &[
            "predict",
            "--model",
            "model.json",
            "--data",
            "absent.csv",
            "--out",
            "p.csv",
        ],
        &["absent.csv"],
        "p.csv",
    );
    fails(
        &dir,
        &["rules", "--model", "broken.json"],
        &["broken.json"],
        "p.csv",
    );
}

#[test]
fn other_commands_report_bad_names() {
    let dir = setup("other-errors");
    fails(
        &dir,
        &["generate", "fournorm", "--out", "g.csv"],
        &["fournorm", "twonorm"],
        "g.csv",
    );
    fails(&dir, &["methods", "nope"], &["nope"], "g.csv");
    fails(
        &dir,
        &[
            "evaluate",
            "--data",
            "train.csv",
            "--target",
            "label",
            "--methods",
            "dt",
            "--param",
            "n_estimators=3",
        ],
        &["n_estimators"],
        "g.csv",
    );
    fails(
        &dir,
        &[
            "relational",
            "learn",
            "--train",
            "nowhere",
            "--target",
            "t",
            "--model-dir",
            "m",
        ],
        &["nowhere", "--background"],
        "m",
    );
}
