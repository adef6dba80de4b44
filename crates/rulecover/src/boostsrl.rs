//! BoostSRL's conventions for relational learning from folders: where the
//! mode declarations are found, what a model folder holds, the
//! `results_<target>.db` file of per-example probabilities, and the
//! scores BoostSRL prints after inference.
//!
//! A model folder written by [`save_model_dir`] holds
//! `<target>.model.json` (the fitted ensemble in the model file,
//! [`crate::file`]),
//! `background.txt` (the modes it was learned with, so that inference
//! needs no other background) and, after compression,
//! `<target>.list.json` (the CoTE decision list).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use rc_logic::cote::DecisionList;
use rc_logic::parser::ArgMode;
use rc_logic::symbols::{constant_text, Sym};
use rc_logic::{Problem, Split, TreeEnsemble};

use crate::error::{Error, Result};
use crate::generate::RelationalSet;
use crate::relational::RelationalFit;

/// The mode file of a data folder `dir` whose files start with `prefix`
/// (`train`, `test`): `explicit` when given; else the first of
/// `dir/<prefix>_bk.txt`, `dir/../background.txt`,
/// `dir/../../background.txt` that exists (BoostSRL's layout and the
/// shared data's srlearn layout `name/background.txt` +
/// `name/foldK/train/`); else `fallback` (a model folder's
/// `background.txt`) when it exists.
///
/// # Errors
/// [`Error::NoBackground`] listing the files looked for.
pub fn find_background(
    dir: &Path,
    prefix: &str,
    explicit: Option<&Path>,
    fallback: Option<&Path>,
) -> Result<PathBuf> {
    if let Some(p) = explicit {
        return Ok(p.to_path_buf());
    }
    let mut tried = vec![dir.join(format!("{prefix}_bk.txt"))];
    if let Some(up) = dir.parent() {
        tried.push(up.join("background.txt"));
        if let Some(up2) = up.parent() {
            tried.push(up2.join("background.txt"));
        }
    }
    tried.extend(fallback.map(Path::to_path_buf));
    tried
        .iter()
        .find(|p| p.is_file())
        .cloned()
        .ok_or_else(|| Error::NoBackground {
            dir: dir.to_path_buf(),
            tried: tried
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", "),
        })
}

fn marker(mode: ArgMode) -> char {
    match mode {
        ArgMode::Input => '+',
        ArgMode::Output => '-',
        ArgMode::Constant => '#',
        ArgMode::Backtick => '`',
        ArgMode::Any => '&',
    }
}

/// The problem's mode declarations as a background file's text, one per
/// line (`friends(+person,-person).`).
pub fn modes_text(problem: &Problem) -> String {
    let mut out = String::new();
    for m in &problem.background.modes {
        let args: Vec<String> = m
            .args
            .iter()
            .map(|&(mode, ty)| format!("{}{}", marker(mode), problem.vocab.name(ty)))
            .collect();
        let _ = writeln!(
            out,
            "{}({}).",
            problem.vocab.pred_name(m.pred),
            args.join(",")
        );
    }
    out
}

/// `dir/<target>.model.json`.
pub fn model_path(dir: &Path, target: &str) -> PathBuf {
    dir.join(format!("{target}.model.json"))
}

/// `dir/<target>.list.json`.
pub fn list_path(dir: &Path, target: &str) -> PathBuf {
    dir.join(format!("{target}.list.json"))
}

/// `dir/background.txt`.
pub fn background_path(dir: &Path) -> PathBuf {
    dir.join("background.txt")
}

/// Writes a fitted ensemble (with its method, parameters and seed) and
/// the problem's modes into model folder `dir` (created if needed).
///
/// # Errors
/// [`Error::Io`] or [`Error::Logic`] naming the file.
pub fn save_model_dir(dir: &Path, problem: &Problem, fit: &RelationalFit) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(|source| Error::Io {
        action: "create",
        path: dir.to_path_buf(),
        source,
    })?;
    let target = problem.vocab.pred_name(problem.target).to_string();
    crate::io::write_atomically(&background_path(dir), modes_text(problem).as_bytes())?;
    fit.save(model_path(dir, &target))
}

/// The target of the only `*.model.json` in model folder `dir`.
///
/// # Errors
/// [`Error::ModelDir`] when the folder holds none, or several (then name
/// one with `--target`).
pub fn only_target(dir: &Path) -> Result<String> {
    let entries = std::fs::read_dir(dir).map_err(|source| Error::Io {
        action: "read",
        path: dir.to_path_buf(),
        source,
    })?;
    let mut targets: Vec<String> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            e.file_name()
                .to_str()
                .and_then(|n| n.strip_suffix(".model.json"))
                .map(str::to_string)
        })
        .collect();
    targets.sort();
    match targets.len() {
        1 => Ok(targets.remove(0)),
        0 => Err(Error::ModelDir {
            dir: dir.to_path_buf(),
            message: "no <target>.model.json in it (learn one with `rulecover relational learn`)"
                .into(),
        }),
        _ => Err(Error::ModelDir {
            dir: dir.to_path_buf(),
            message: format!(
                "it holds models of several targets ({}): choose one with --target",
                targets.join(", ")
            ),
        }),
    }
}

/// Loads model folder `dir`'s ensemble of `target` (a model file of
/// either layout, [`RelationalFit::load`]) and rebinds it onto
/// `problem`'s symbols.
///
/// # Errors
/// [`Error::Io`] for a missing file; as [`RelationalFit::load`];
/// [`Error::Logic`] for a target the data lacks.
pub fn load_ensemble(dir: &Path, target: &str, problem: &Problem) -> Result<TreeEnsemble> {
    Ok(RelationalFit::load(model_path(dir, target))?
        .ensemble
        .rebind(&problem.vocab)?)
}

/// Loads model folder `dir`'s decision list of `target` and rebinds it.
///
/// # Errors
/// [`Error::ModelDir`] when the folder has no list (learn with
/// `--compress`); else as [`load_ensemble`].
pub fn load_list(dir: &Path, target: &str, problem: &Problem) -> Result<DecisionList> {
    let path = list_path(dir, target);
    if !path.is_file() {
        return Err(Error::ModelDir {
            dir: dir.to_path_buf(),
            message: format!(
                "no decision list {} (learn with --compress scote|ecote)",
                path.display()
            ),
        });
    }
    Ok(DecisionList::load(path)?.rebind(&problem.vocab)?)
}

/// The `results_<target>.db` text: one line per example, in file order
/// (positives, then negatives), as BoostSRL writes it: a positive example
/// and its probability of being true (`cancer(q3) 0.83`), a negative
/// example prefixed by `!` and its probability of being false
/// (`!cancer(q7) 0.9`).
pub fn results_db(problem: &Problem, split: &Split, proba: &[f64]) -> String {
    let target = problem.vocab.pred_name(problem.target);
    let ex = &split.examples;
    let mut out = String::new();
    for (i, (&label, &p)) in ex.labels.iter().zip(proba).enumerate() {
        let args: Vec<String> = ex
            .get(i)
            .iter()
            .map(|&s| constant_text(problem.vocab.name(Sym(s))))
            .collect();
        let (bang, shown) = if label { ("", p) } else { ("!", 1.0 - p) };
        let _ = writeln!(out, "{bang}{target}({}) {shown}", args.join(","));
    }
    out
}

/// The scores BoostSRL prints after inference.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct InferenceScores {
    /// Area under the ROC curve (`None` with one class only).
    pub auc_roc: Option<f64>,
    /// Area under the PR curve, Davis–Goadrich (`None` without
    /// positives).
    pub auc_pr: Option<f64>,
    /// Conditional log-likelihood.
    pub cll: f64,
    /// Precision at `threshold`.
    pub precision: f64,
    /// Recall at `threshold`.
    pub recall: f64,
    /// F1 at `threshold`.
    pub f1: f64,
    /// The probability at or above which an example is predicted true.
    pub threshold: f64,
    /// Positive examples.
    pub n_pos: usize,
    /// Negative examples.
    pub n_neg: usize,
}

/// The scores of probabilities `proba` for labels `labels`.
///
/// # Errors
/// [`Error::Logic`] for probabilities that are not finite or lengths
/// that differ.
pub fn inference_scores(labels: &[bool], proba: &[f64], threshold: f64) -> Result<InferenceScores> {
    let y: Vec<usize> = labels.iter().map(|&l| usize::from(l)).collect();
    let s = rc_logic::metrics::scores(&y, proba)?;
    let (mut tp, mut fp, mut fneg) = (0usize, 0usize, 0usize);
    for (&l, &p) in labels.iter().zip(proba) {
        match (l, p >= threshold) {
            (true, true) => tp += 1,
            (false, true) => fp += 1,
            (true, false) => fneg += 1,
            (false, false) => {}
        }
    }
    let ratio = |a: usize, b: usize| if b == 0 { 0.0 } else { a as f64 / b as f64 };
    let precision = ratio(tp, tp + fp);
    let recall = ratio(tp, tp + fneg);
    let f1 = if precision + recall > 0.0 {
        2.0 * precision * recall / (precision + recall)
    } else {
        0.0
    };
    let n_pos = labels.iter().filter(|&&l| l).count();
    Ok(InferenceScores {
        auc_roc: s.auc_roc,
        auc_pr: s.auc_pr,
        cll: s.cll,
        precision,
        recall,
        f1,
        threshold,
        n_pos,
        n_neg: labels.len() - n_pos,
    })
}

impl InferenceScores {
    /// The scores as BoostSRL prints them:
    ///
    /// ```text
    /// %   AUC ROC   = 0.981
    /// %   AUC PR    = 0.962
    /// %   CLL       = -0.213
    /// %   Precision = 0.9 at threshold = 0.5
    /// %   Recall    = 0.857143
    /// %   F1        = 0.878049
    /// ```
    ///
    /// (six decimals, trailing zeros dropped; `NaN` where a score is
    /// undefined).
    pub fn report(&self) -> String {
        let num = |v: f64| {
            let s = format!("{v:.6}");
            let s = s.trim_end_matches('0').trim_end_matches('.');
            if s == "-0" {
                "0".to_string()
            } else {
                s.to_string()
            }
        };
        let opt = |v: Option<f64>| v.map_or_else(|| "NaN".to_string(), num);
        format!(
            "%   AUC ROC   = {}\n%   AUC PR    = {}\n%   CLL       = {}\n\
             %   Precision = {} at threshold = {}\n%   Recall    = {}\n%   F1        = {}\n",
            opt(self.auc_roc),
            opt(self.auc_pr),
            num(self.cll),
            num(self.precision),
            num(self.threshold),
            num(self.recall),
            num(self.f1)
        )
    }
}

/// Writes `set` in BoostSRL's layout under `dir`:
/// `dir/train/train_{pos,neg,facts,bk}.txt` and
/// `dir/test/test_{pos,neg,facts,bk}.txt`. Each file is written whole
/// (temporary file, then renamed); if one fails, the files already
/// written are removed.
///
/// # Errors
/// [`Error::Io`] naming the file or folder.
pub fn write_relational_set(dir: &Path, set: &RelationalSet) -> Result<()> {
    let mut written: Vec<PathBuf> = Vec::new();
    let result = (|| {
        for (prefix, split) in [("train", &set.train), ("test", &set.test)] {
            let sub = dir.join(prefix);
            std::fs::create_dir_all(&sub).map_err(|source| Error::Io {
                action: "create",
                path: sub.clone(),
                source,
            })?;
            for (kind, text) in [
                ("pos", &split.pos),
                ("neg", &split.neg),
                ("facts", &split.facts),
                ("bk", &set.background),
            ] {
                let path = sub.join(format!("{prefix}_{kind}.txt"));
                crate::io::write_atomically(&path, text.as_bytes())?;
                written.push(path);
            }
        }
        Ok(())
    })();
    if result.is_err() {
        for p in &written {
            let _ = std::fs::remove_file(p);
        }
    }
    result
}
