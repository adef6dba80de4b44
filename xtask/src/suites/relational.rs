//! Suite `relational`: RFGB (20 boosted trees, BoostSRL's settings) and
//! bagging (20 large trees) on every target of the CoTE paper's Tables 1–2
//! that the shared data provide, per predefined fold: AUC-ROC, AUC-PR
//! (Davis–Goadrich, as BoostSRL prints it; the trapezoid value is
//! `auc_pr_trapezoid`), CLL, #paths, depth and learning time beside the
//! paper's "Original" columns.
//!
//! Targets: UW-CSE AdvisedBy, WebKB Faculty, IMDB WorkedUnder, ICML
//! CoAuthor and Cora SameAuthor/SameBib/SameTitle/SameVenue (the last
//! three with the modes of BoostSRL's Cora background added, as the
//! shared MANIFEST says). WebKB CourseProf/CourseTA and IMDB Genre have no
//! example files in the shared data.

use std::path::{Path, PathBuf};

use rc_logic::metrics::scores;
use rc_logic::{BaggingParams, BoostParams, Problem, TreeEnsemble};

use crate::data::DataSource;
use crate::records::Record;
use crate::suites::scoring::timed;
use crate::suites::suite::{CustomJob, FoldsFile, JobData, JobError, Suite};

/// One learning target of the shared relational data.
pub struct Target {
    /// Data set id in results (`uwcse_advisedby`, ...).
    pub id: &'static str,
    /// Manifest name of the data set (its folder under `relational/`).
    pub dataset: &'static str,
    /// The target predicate.
    pub target: &'static str,
    /// Mode declarations to add to the background.
    pub extra_modes: &'static [&'static str],
}

const CORA_EXTRA: &[&str] = &[
    "samebib(+paper,+paper).",
    "sametitle(+title,+title).",
    "samevenue(+venue,+venue).",
];

/// Every target of Tables 1–2 the shared data provide.
pub const TARGETS: &[Target] = &[
    Target {
        id: "cora_sameauthor",
        dataset: "cora",
        target: "sameauthor",
        extra_modes: CORA_EXTRA,
    },
    Target {
        id: "cora_samebib",
        dataset: "cora",
        target: "samebib",
        extra_modes: CORA_EXTRA,
    },
    Target {
        id: "cora_sametitle",
        dataset: "cora",
        target: "sametitle",
        extra_modes: CORA_EXTRA,
    },
    Target {
        id: "cora_samevenue",
        dataset: "cora",
        target: "samevenue",
        extra_modes: CORA_EXTRA,
    },
    Target {
        id: "webkb_faculty",
        dataset: "webkb",
        target: "faculty",
        extra_modes: &[],
    },
    Target {
        id: "uwcse_advisedby",
        dataset: "uwcse",
        target: "advisedby",
        extra_modes: &[],
    },
    Target {
        id: "imdb_workedunder",
        dataset: "imdb_workedunder",
        target: "workedunder",
        extra_modes: &[],
    },
    Target {
        id: "icml_coauthor",
        dataset: "icml",
        target: "coauthor",
        extra_modes: &[],
    },
];

/// The target with id `id`.
pub fn target(id: &str) -> Option<&'static Target> {
    TARGETS.iter().find(|t| t.id == id)
}

/// The data set's folder (`<root>/relational/<name>/<name>`).
fn dataset_dir(root: &Path, t: &Target) -> PathBuf {
    root.join("relational").join(t.dataset).join(t.dataset)
}

/// Whether the shared data hold the target.
pub fn available(id: &str, data: &DataSource) -> bool {
    let (Some(t), Some(s)) = (target(id), data.shared()) else {
        return false;
    };
    dataset_dir(s.root(), t).join("background.txt").is_file()
}

/// Folds of the target's data set: the manifest's `n_folds`, else the
/// `foldK` folders on disk, else 1 (a single train/test split).
pub fn folds(id: &str, data: &DataSource) -> usize {
    let (Some(t), Some(s)) = (target(id), data.shared()) else {
        return 1;
    };
    if let Some(n) = s.entry(t.dataset).ok().and_then(|e| e.n_folds) {
        return n;
    }
    let dir = dataset_dir(s.root(), t);
    let n = (1..=20)
        .take_while(|k| dir.join(format!("fold{k}")).is_dir())
        .count();
    n.max(1)
}

/// Loads fold `fold` (0-based) of a target with its test split (a warning
/// on stderr for each example file with repeated lines).
pub fn load(job: &CustomJob) -> Result<Problem, JobError> {
    let t = target(job.dataset)
        .ok_or_else(|| format!("unknown relational target '{}'", job.dataset))?;
    let root = job
        .data_root
        .ok_or("no data directory (pass --data-dir or set RC_DATA_DIR)")?;
    let dir = dataset_dir(root, t);
    let fold_dir = dir.join(format!("fold{}", job.fold + 1));
    let base = if fold_dir.is_dir() {
        fold_dir
    } else {
        dir.clone()
    };
    let problem = Problem::load(
        &dir.join("background.txt"),
        t.target,
        &base.join("train"),
        Some(&base.join("test")),
        t.extra_modes,
    )?;
    // Repeated example lines are kept once (as the CLI's default): said on
    // stderr, and counted in the record (`size.duplicate_examples`).
    for w in problem.load_report().warnings() {
        eprintln!("warning: {}/fold {}: {w}", job.dataset, job.fold + 1);
    }
    Ok(problem)
}

/// The boosting settings of the paper's Table 1 (BoostSRL defaults: 20
/// trees, BoostSRL `maxTreeDepth=3` (= 4 test levels, see
/// `rc_logic::TreeParams`), 2 literals per node, 2:1 negatives; `--quick`: 5 trees
/// on at most 1 500 examples each).
pub fn boost_params(job: &CustomJob) -> BoostParams {
    let p = BoostParams::default().seed(job.seed);
    if job.quick {
        p.n_trees(5).max_rows(Some(1500))
    } else {
        p
    }
}

/// The bagging settings of Table 2 (20 trees of depth ≤ 6, ≤ 32 leaves;
/// `--quick`: 5 trees on at most 1 500 examples each).
pub fn bagging_params(job: &CustomJob) -> BaggingParams {
    let p = BaggingParams::default().seed(job.seed);
    if job.quick {
        p.n_trees(5).max_rows(Some(1500))
    } else {
        p
    }
}

/// Learns the job's ensemble (`RFGB` or `Bagging`) and returns it with its
/// learning time.
pub fn learn(
    method: &str,
    job: &CustomJob,
    problem: &Problem,
) -> Result<(TreeEnsemble, f64, serde_json::Value), JobError> {
    let (model, fit_s, p) = match method {
        "RFGB" => {
            let p = boost_params(job);
            let (m, s) = timed(|| p.fit(problem));
            (m?, s, serde_json::to_value(&p)?)
        }
        "Bagging" => {
            let p = bagging_params(job);
            let (m, s) = timed(|| p.fit(problem));
            (m?, s, serde_json::to_value(&p)?)
        }
        other => return Err(format!("unknown method '{other}'").into()),
    };
    Ok((model, fit_s, p))
}

/// Puts AUC-ROC, AUC-PR (Davis–Goadrich and trapezoid) and CLL of test
/// probabilities into a record.
pub fn put_scores(rec: &mut Record, labels: &[usize], proba: &[f64]) -> Result<(), JobError> {
    let s = scores(labels, proba)?;
    if let Some(v) = s.auc_roc {
        rec.metrics.insert("auc_roc".into(), v);
    }
    if let Some(v) = s.auc_pr {
        rec.metrics.insert("auc_pr".into(), v);
    }
    if let Some(v) = s.auc_pr_trapezoid {
        rec.metrics.insert("auc_pr_trapezoid".into(), v);
    }
    rec.metrics.insert("cll".into(), s.cll);
    Ok(())
}

/// Puts the ensemble's size into a record: `paths` (= clauses), `depth`
/// (most literals on a path, the paper's "depth"), `depth_nodes` (test
/// levels), `trees`, `avg_clause_length` (mean path length), and the
/// naive combination's `max_clauses` (Π paths) and `max_avg_length`.
pub fn put_size(rec: &mut Record, model: &TreeEnsemble) {
    use rulecover_core::RuleModel;
    rec.size.insert("paths".into(), model.n_paths() as f64);
    rec.size.insert("clauses".into(), model.n_paths() as f64);
    rec.size
        .insert("depth".into(), model.max_path_literals() as f64);
    rec.size
        .insert("depth_nodes".into(), model.max_depth() as f64);
    rec.size.insert("trees".into(), model.trees.len() as f64);
    rec.size
        .insert("avg_clause_length".into(), model.avg_rule_length());
    rec.size.insert("max_clauses".into(), model.naive_size());
    rec.size
        .insert("max_avg_length".into(), model.naive_avg_length());
}

/// The `relational` suite.
pub struct Relational;

impl Suite for Relational {
    fn name(&self) -> &'static str {
        "relational"
    }

    fn about(&self) -> &'static str {
        "RFGB and bagging of relational regression trees (CoTE paper's base models, Tables 1-2 'Original')"
    }

    fn datasets(&self, _data: &DataSource) -> Vec<String> {
        TARGETS.iter().map(|t| t.id.to_string()).collect()
    }

    fn methods(&self) -> Vec<&'static str> {
        vec!["RFGB", "Bagging"]
    }

    fn run(&self, _method: &str, _job: &JobData) -> Result<Vec<Record>, JobError> {
        Err("the relational suite reads its own data (custom jobs only)".into())
    }

    fn custom(&self) -> bool {
        true
    }

    fn available(&self, dataset: &str, data: &DataSource) -> bool {
        available(dataset, data)
    }

    fn folds_of(&self, dataset: &str, data: &DataSource) -> usize {
        folds(dataset, data)
    }

    fn folds_file(&self) -> FoldsFile {
        FoldsFile::Refused(
            "its folds are the relational data's own fold folders (foldK/train, foldK/test), \
             not rows of a table",
        )
    }

    fn run_custom(&self, method: &str, job: &CustomJob) -> Result<Vec<Record>, JobError> {
        let (problem, load_s) = timed(|| load(job));
        let problem = problem?;
        let test = problem.test.as_ref().ok_or("no test split")?;
        let (model, fit_s, p) = learn(method, job, &problem)?;
        let (proba, predict_s) = timed(|| model.predict_proba(test));
        let mut rec = job.record(method);
        put_scores(&mut rec, &test.examples.labels01(), &proba)?;
        put_size(&mut rec, &model);
        rec.size
            .insert("train_examples".into(), problem.train.examples.len() as f64);
        rec.size
            .insert("test_positives".into(), test.examples.n_pos() as f64);
        rec.size.insert(
            "duplicate_examples".into(),
            problem.load_report().n_duplicates() as f64,
        );
        rec.time_s.insert("load".into(), load_s);
        // BoostSRL's fixed settings: nothing is tuned.
        rec.put_times(0.0, fit_s);
        rec.time_s.insert("predict".into(), predict_s);
        rec.params.insert("learner".into(), p);
        rec.params.insert(
            "target".into(),
            serde_json::json!(problem.vocab.pred_name(problem.target)),
        );
        Ok(vec![rec])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relational_refuses_the_folds_file() {
        crate::testing::assert_refuses_folds_file(&Relational);
    }
}
