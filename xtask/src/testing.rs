//! Test helpers shared by the suites' tests: running a suite on a
//! `--folds-file` and checking that it follows it.

use std::path::{Path, PathBuf};

use crate::cli::BenchArgs;
use crate::data::DataSource;
use crate::harness;
use crate::records::{Meta, Record};
use crate::suites::suite::Suite;

/// Folds of a test run: fold 0 holds every 10th row, fold 1 three rows in
/// ten, fold 2 the rest — uneven, so that no two folds score alike.
pub fn uneven_fold_of(row: usize) -> usize {
    match row % 10 {
        0 => 0,
        1..=3 => 1,
        _ => 2,
    }
}

/// Writes the uneven folds of `n` rows (and, with `reversed`, the same
/// folds in reverse order) as a folds file; returns its path.
pub fn write_folds_file(name: &str, n: usize, reversed: bool) -> PathBuf {
    let mut folds = vec![Vec::new(); 3];
    for row in 0..n {
        folds[uneven_fold_of(row)].push(row);
    }
    if reversed {
        folds.reverse();
    }
    let path = std::env::temp_dir().join(format!(
        "xtask-folds-{name}-{}-{}.json",
        if reversed { "rev" } else { "fwd" },
        std::process::id()
    ));
    std::fs::write(&path, serde_json::to_string(&folds).unwrap()).unwrap();
    path
}

/// Metadata of test runs.
pub fn meta() -> Meta {
    Meta {
        git_commit: "test".into(),
        rustc_version: "test".into(),
        cores: 1,
        date: "today".into(),
        command_line: "test".into(),
        solvers: String::new(),
    }
}

/// Runs `methods` of `suite` on `dataset` with `--quick --folds-file F`.
fn run_with(
    suite: &dyn Suite,
    data: &DataSource,
    data_dir: Option<&Path>,
    dataset: &str,
    methods: &[&str],
    folds_file: &Path,
) -> Vec<Record> {
    let args = BenchArgs {
        suites: vec![suite.name().into()],
        quick: true,
        data_dir: data_dir.map(Path::to_path_buf),
        datasets: Some(vec![dataset.into()]),
        methods: Some(methods.iter().map(|m| m.to_string()).collect()),
        folds_file: Some(folds_file.to_path_buf()),
        seed: crate::cli::DEFAULT_SEED,
        jobs: Some(2),
        ..BenchArgs::default()
    };
    let suites: Vec<&dyn Suite> = vec![suite];
    let jobs = harness::plan(&suites, &args, data).unwrap();
    // One job per fold of the file, whatever the suite's own fold count.
    assert_eq!(jobs.len(), 3 * methods.len(), "{}: {jobs:?}", suite.name());
    assert!(jobs.iter().all(|j| j.n_folds == 3));
    let results = harness::run(&suites, &jobs, &args, data, meta(), None).unwrap();
    assert!(results.failures.is_empty(), "{:?}", results.failures);
    results.records
}

/// Checks that `suite` follows `--folds-file` on `dataset` (`labels`: its
/// class labels in row order): every record of fold `f` of a file is the
/// record of fold `2 − f` of the reversed file (time aside), ZeroR's
/// accuracy on fold `f` is the share of the fold's test rows in the
/// majority class of its training rows, and every record carries
/// `time_s.tune` and `time_s.fit`.
pub fn assert_follows_folds_file(
    suite: &dyn Suite,
    data: &DataSource,
    data_dir: Option<&Path>,
    dataset: &str,
    labels: &[usize],
    methods: &[&str],
) {
    assert!(methods.contains(&"ZeroR"));
    let name = format!("{}-{dataset}", suite.name());
    let forward = write_folds_file(&name, labels.len(), false);
    let reversed = write_folds_file(&name, labels.len(), true);
    let a = run_with(suite, data, data_dir, dataset, methods, &forward);
    let b = run_with(suite, data, data_dir, dataset, methods, &reversed);
    for r in &a {
        assert!(
            r.time_s.contains_key("tune") && r.time_s.contains_key("fit"),
            "{} {}: {:?}",
            suite.name(),
            r.method,
            r.time_s
        );
    }
    let strip = |r: &Record| {
        let mut r = r.clone();
        r.time_s.clear();
        r.fold = 0;
        r
    };
    for r in &a {
        let twin = b
            .iter()
            .find(|s| s.method == r.method && s.fold == 2 - r.fold)
            .unwrap_or_else(|| panic!("no record of {} fold {}", r.method, 2 - r.fold));
        assert_eq!(strip(r), strip(twin), "{} fold {}", r.method, r.fold);
    }
    let k = labels.iter().max().map_or(0, |&m| m + 1);
    for f in 0..3 {
        let mut counts = vec![0usize; k];
        for (row, &y) in labels.iter().enumerate() {
            if uneven_fold_of(row) != f {
                counts[y] += 1;
            }
        }
        let majority = (0..k).max_by_key(|&c| (counts[c], usize::MAX - c)).unwrap();
        let test: Vec<usize> = (0..labels.len())
            .filter(|&row| uneven_fold_of(row) == f)
            .map(|row| labels[row])
            .collect();
        let expected = test.iter().filter(|&&y| y == majority).count() as f64 / test.len() as f64;
        let zeror = a
            .iter()
            .find(|r| r.method == "ZeroR" && r.fold == f)
            .unwrap();
        assert!(
            (zeror.metrics["accuracy"] - expected).abs() < 1e-12,
            "{} fold {f}: ZeroR accuracy {} but the file's fold gives {expected}",
            suite.name(),
            zeror.metrics["accuracy"]
        );
    }
    std::fs::remove_file(forward).unwrap();
    std::fs::remove_file(reversed).unwrap();
}

/// [`assert_follows_folds_file`] on the generated `tictactoe` data (no
/// data directory), the set every tabular suite can read.
pub fn assert_follows_folds_file_on_tictactoe(suite: &dyn Suite, methods: &[&str]) {
    let data = DataSource::generated_only();
    let labels = crate::data::generate("tictactoe")
        .unwrap()
        .labels()
        .unwrap();
    assert_follows_folds_file(suite, &data, None, "tictactoe", &labels, methods);
}

/// Checks that `suite` refuses `--folds-file` with an error naming the
/// suite and the option.
pub fn assert_refuses_folds_file(suite: &dyn Suite) {
    let path = write_folds_file(suite.name(), 30, false);
    let args = BenchArgs {
        folds_file: Some(path.clone()),
        ..BenchArgs::default()
    };
    let suites: Vec<&dyn Suite> = vec![suite];
    let err = harness::check_folds_file(&suites, &args)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("--folds-file") && err.contains(suite.name()),
        "{err}"
    );
    let err = harness::plan(&suites, &args, &DataSource::generated_only())
        .unwrap_err()
        .to_string();
    assert!(err.contains(suite.name()), "{err}");
    std::fs::remove_file(path).unwrap();
}
