//! `cargo xtask scaling` end to end on tiny sizes: one child process per
//! point, records, `--resume`, the report and the SVG.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn scaling(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xtask"))
        .arg("scaling")
        .args(args)
        .output()
        .expect("xtask runs")
}

fn out_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xtask-scaling-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn records(dir: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(dir.join("results.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn smoke_then_resume_then_report() {
    let dir = out_dir("smoke");
    let d = dir.to_str().unwrap();
    let first = scaling(&[
        "--smoke",
        "--smoke-n",
        "300",
        "--learners",
        "dt,rfgb",
        "--out",
        d,
    ]);
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let rs = records(&dir);
    assert_eq!(rs.len(), 2);
    for r in &rs {
        assert_eq!(r["status"], "ok", "{r}");
        assert_eq!(r["n"], 300);
        assert!(r["fit_s"].as_f64().unwrap() >= 0.0);
        assert!(r["threads"].as_u64().unwrap() >= 1);
    }
    assert_eq!(rs[1]["generator"], "uwcse-like");
    // The tabular point is scored on n/4 held-out rows; the relational
    // one has no held-out split.
    assert_eq!(rs[0]["heldout_rows"], 75);
    let accuracy = rs[0]["heldout_accuracy"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&accuracy), "{accuracy}");
    assert!(rs[0]["rules"].as_u64().unwrap() >= 1);
    assert!(rs[1]["heldout_accuracy"].is_null());

    // The same folder again without --resume is refused.
    let again = scaling(&[
        "--smoke",
        "--smoke-n",
        "300",
        "--learners",
        "dt",
        "--out",
        d,
    ]);
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("--resume"));

    // --resume runs only the new point.
    let resumed = scaling(&[
        "--smoke",
        "--smoke-n",
        "300",
        "--learners",
        "dt,ada,rfgb",
        "--resume",
        "--out",
        d,
    ]);
    assert!(
        resumed.status.success(),
        "{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    let stdout = String::from_utf8_lossy(&resumed.stdout);
    assert_eq!(stdout.matches(" ok, fit ").count(), 1, "{stdout}");
    let rs = records(&dir);
    assert_eq!(rs.len(), 3);
    assert_eq!(rs[2]["learner"], "ada");

    let report = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(
        report.contains("#### ada") && report.contains("#### rfgb"),
        "{report}"
    );
    let svg = std::fs::read_to_string(dir.join("scaling.svg")).unwrap();
    assert!(svg.starts_with("<svg"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_old_results_file_without_heldout_scores_is_reported_and_resumed() {
    let dir = out_dir("old");
    std::fs::create_dir_all(&dir).unwrap();
    let d = dir.to_str().unwrap();
    // A record written before `cpu_s`, `rules` and `heldout_*` existed.
    let old = r#"{"learner":"dt","generator":"twonorm","n":300,"p":20,"status":"ok","fit_s":0.01,"peak_mib":12.5,"data_mib":3.0,"threads":2,"load_start":1.5,"load_end":1.75,"cap_s":600.0,"note":null}"#;
    std::fs::write(dir.join("results.jsonl"), format!("{old}\n")).unwrap();
    let report = scaling(&[
        "--smoke",
        "--smoke-n",
        "300",
        "--learners",
        "dt",
        "--report-only",
        "--out",
        d,
    ]);
    assert!(
        report.status.success(),
        "{}",
        String::from_utf8_lossy(&report.stderr)
    );
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(
        md.contains("| twonorm | 300 | 20 | 0.01 | – | 12 | 3 | – | – | ok |"),
        "{md}"
    );
    // --resume keeps the old record and runs nothing more.
    let resumed = scaling(&[
        "--smoke",
        "--smoke-n",
        "300",
        "--learners",
        "dt",
        "--resume",
        "--out",
        d,
    ]);
    assert!(
        resumed.status.success(),
        "{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    let rs = records(&dir);
    assert_eq!(rs.len(), 1);
    assert!(rs[0]["heldout_accuracy"].is_null());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_fit_over_the_cap_is_killed_and_bad_input_is_named() {
    let dir = out_dir("cap");
    let d = dir.to_str().unwrap();
    // RUG on 3,000 rows takes well over 0.05 s.
    let run = scaling(&[
        "--smoke",
        "--smoke-n",
        "3000",
        "--learners",
        "rug",
        "--cap-s",
        "0.05",
        "--out",
        d,
    ]);
    let rs = records(&dir);
    assert_eq!(
        rs[0]["status"],
        "timeout",
        "{}",
        String::from_utf8_lossy(&run.stdout)
    );
    assert_eq!(rs[0]["fit_s"], 0.05);
    // Nothing finished, so there is no curve to draw: a named error.
    assert!(!run.status.success());
    assert!(String::from_utf8_lossy(&run.stderr).contains("scaling.svg"));
    std::fs::remove_dir_all(&dir).unwrap();

    let bad = scaling(&["--learners", "dt,nope", "--out", d]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("'nope' is not in the grid"));
    let bad = scaling(&[
        "point",
        "--learner",
        "dt",
        "--generator",
        "iris",
        "--n",
        "10",
        "--p",
        "2",
    ]);
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--generator 'iris'"));
}
