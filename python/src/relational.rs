//! Relational learning: BoostSRL texts (background modes, facts, positive
//! and negative examples) → `rulecover::fit_relational` → an rc-logic
//! [`TreeEnsemble`], predicted on other data after
//! [`TreeEnsemble::rebind`], and compressed by CoTE (SCoTE, ECoTE) into
//! one [`DecisionList`].

use pyo3::exceptions::{PyIndexError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use rc_logic::cote::{ecote, scote, DecisionList, EcoteParams, ScoteParams, Status};
use rc_logic::{DuplicatePolicy, Problem, SplitText};
use rulecover::RelationalFit;

use crate::errors;

/// The texts of one split: facts, positive and negative examples.
type Texts = (String, String, String);

/// The problem with `split` as its only (training) split, and one warning
/// line per examples text with repeated examples (each kept once); under
/// `duplicates="error"` a repeat is a `ValueError` naming the first one.
fn problem(
    background: &str,
    target: &str,
    split: &Texts,
    duplicates: &str,
) -> PyResult<(Problem, Vec<String>)> {
    let policy = match duplicates {
        "warn" => DuplicatePolicy::Warn,
        "error" => DuplicatePolicy::Error,
        other => {
            return Err(PyValueError::new_err(format!(
                "duplicates={other:?}: expected \"warn\" or \"error\""
            )))
        }
    };
    let problem = Problem::from_texts(
        (background, "background"),
        target,
        SplitText {
            facts: (&split.0, "facts"),
            pos: (&split.1, "pos"),
            neg: (&split.2, "neg"),
        },
        None,
    )
    .map_err(errors::logic)?;
    let report = problem.load_report();
    report.check(policy).map_err(errors::logic)?;
    Ok((problem, report.warnings()))
}

/// What a relational model predicts: probabilities of the examples of
/// `split` (in the data's example order), their labels, and the loader's
/// warnings (repeated examples).
type Scored = (Vec<f64>, Vec<bool>, Vec<String>);

/// A fitted relational ensemble (RFGB or bagging, with its method,
/// parameters and seed) and the background and training texts it was
/// fitted on.
#[pyclass(frozen, module = "rulecover._native")]
struct RelationalModel {
    background: String,
    target: String,
    train: Texts,
    fitted: RelationalFit,
}

#[pymethods]
impl RelationalModel {
    /// Fits relational method `method` (`rfgb`, `bagging`) with registry
    /// parameters on the background text, target name and training
    /// texts; returns the model and the loader's warnings (repeated
    /// examples, or a `ValueError` under `duplicates="error"`). The GIL is
    /// released while fitting.
    #[staticmethod]
    #[pyo3(signature = (method, params, background, target, train, seed, n_jobs=None, duplicates="warn"))]
    #[allow(clippy::too_many_arguments)]
    fn fit(
        py: Python<'_>,
        method: &str,
        params: Vec<(String, String)>,
        background: String,
        target: String,
        train: Texts,
        seed: u64,
        n_jobs: Option<usize>,
        duplicates: &str,
    ) -> PyResult<(Self, Vec<String>)> {
        let method = method.to_string();
        let duplicates = duplicates.to_string();
        py.detach(move || {
            let (p, warnings) = problem(&background, &target, &train, &duplicates)?;
            let fitted = crate::with_threads(n_jobs, || {
                rulecover::fit_relational(&method, &params, &p, seed)
            })?
            .map_err(errors::registry)?;
            let model = RelationalModel {
                background,
                target,
                train,
                fitted,
            };
            Ok((model, warnings))
        })
    }

    /// Probabilities that the examples of `split` are positive, their
    /// labels, in the data's example order, and the loader's warnings.
    #[pyo3(signature = (split, duplicates="warn"))]
    fn predict_proba(&self, py: Python<'_>, split: Texts, duplicates: &str) -> PyResult<Scored> {
        py.detach(|| {
            let (p, warnings) = problem(&self.background, &self.target, &split, duplicates)?;
            let model = self
                .fitted
                .ensemble
                .rebind(&p.vocab)
                .map_err(errors::logic)?;
            Ok((
                model.predict_proba(&p.train),
                p.train.examples.labels.clone(),
                warnings,
            ))
        })
    }

    /// The trees, printed.
    fn render(&self) -> String {
        self.fitted.ensemble.render()
    }

    /// Tree `index` (0-based, `0..n_trees`) printed in the TILDE form;
    /// an `IndexError` outside that range.
    fn render_tree(&self, index: usize) -> PyResult<String> {
        match self.fitted.ensemble.trees.get(index) {
            Some(tree) => Ok(tree.render(&self.fitted.ensemble.vocab)),
            None => Err(PyIndexError::new_err(format!(
                "tree index {index} out of range ({} trees)",
                self.fitted.ensemble.trees.len()
            ))),
        }
    }

    /// Number of trees.
    #[getter]
    fn n_trees(&self) -> usize {
        self.fitted.ensemble.trees.len()
    }

    /// The model file's text (the envelope of every model file, with the
    /// method, parameters and seed).
    fn to_json(&self) -> PyResult<String> {
        self.fitted.to_json().map_err(errors::registry)
    }

    /// What a pickle carries: the background, target and training texts
    /// and the model file (method, parameters, seed and ensemble) ([`RelationalModel::from_state`]
    /// reads it back).
    fn state(&self) -> PyResult<(String, String, Texts, String)> {
        Ok((
            self.background.clone(),
            self.target.clone(),
            self.train.clone(),
            self.to_json()?,
        ))
    }

    /// The model of [`RelationalModel::state`]'s parts; a damaged model
    /// file is a `ValueError`.
    #[staticmethod]
    fn from_state(background: String, target: String, train: Texts, model: &str) -> PyResult<Self> {
        let fitted = RelationalFit::from_json(model).map_err(errors::registry)?;
        Ok(RelationalModel {
            background,
            target,
            train,
            fitted,
        })
    }

    /// Compresses the ensemble into one decision list: `"scote"`
    /// (logically equivalent) or `"ecote"` (equivalent on the training
    /// examples). The GIL is released while compressing.
    fn compress(&self, py: Python<'_>, method: &str) -> PyResult<RelationalList> {
        let method = method.to_ascii_lowercase();
        py.detach(|| {
            let outcome = match method.as_str() {
                "scote" => scote(&self.fitted.ensemble, &ScoteParams::default()),
                "ecote" => {
                    // Warnings were given when the model was fitted.
                    let (p, _) = problem(&self.background, &self.target, &self.train, "warn")?;
                    let ens = self
                        .fitted
                        .ensemble
                        .rebind(&p.vocab)
                        .map_err(errors::logic)?;
                    ecote(
                        &ens,
                        &p.train.facts,
                        &p.train.examples,
                        &EcoteParams::default(),
                    )
                }
                other => {
                    return Err(PyValueError::new_err(format!(
                        "compress('{other}'): expected 'scote' or 'ecote'"
                    )))
                }
            }
            .map_err(errors::logic)?;
            match (outcome.status, outcome.list) {
                (Status::Finished, Some(list)) => Ok(RelationalList {
                    background: self.background.clone(),
                    target: self.target.clone(),
                    list,
                }),
                (status, _) => Err(PyRuntimeError::new_err(format!(
                    "{method} stopped before the end ({status:?}) after merging {} trees",
                    outcome.trees_merged
                ))),
            }
        })
    }
}

/// A CoTE decision list: ordered clauses, the first that covers an
/// example gives its value.
#[pyclass(frozen, module = "rulecover._native")]
struct RelationalList {
    background: String,
    target: String,
    list: DecisionList,
}

#[pymethods]
impl RelationalList {
    /// Probabilities that the examples of `split` are positive, their
    /// labels, in the data's example order, and the loader's warnings.
    #[pyo3(signature = (split, duplicates="warn"))]
    fn predict_proba(&self, py: Python<'_>, split: Texts, duplicates: &str) -> PyResult<Scored> {
        py.detach(|| {
            let (p, warnings) = problem(&self.background, &self.target, &split, duplicates)?;
            let list = self.list.rebind(&p.vocab).map_err(errors::logic)?;
            Ok((
                list.predict_proba(&p.train),
                p.train.examples.labels.clone(),
                warnings,
            ))
        })
    }

    /// The list, printed one clause per line.
    fn render(&self) -> String {
        self.list.render()
    }

    /// Number of clauses.
    fn __len__(&self) -> usize {
        self.list.len()
    }

    /// Average clause length.
    #[getter]
    fn avg_length(&self) -> f64 {
        self.list.avg_length()
    }

    /// The list as rc-logic's model file (the envelope, kind `cote`).
    fn to_json(&self) -> PyResult<String> {
        self.list.to_json().map_err(errors::logic)
    }
}

/// BoostSRL's decision threshold for probabilities `proba` of examples
/// labelled `labels` (rc-logic's `metrics::best_f1_threshold`: the cut of
/// best F1, halfway between two probabilities; an example is positive
/// above it).
#[pyfunction]
fn best_f1_threshold(labels: Vec<bool>, proba: Vec<f64>) -> PyResult<f64> {
    let y: Vec<usize> = labels.iter().map(|&l| usize::from(l)).collect();
    rc_logic::metrics::best_f1_threshold(&y, &proba).map_err(errors::logic)
}

/// Adds the relational classes to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<RelationalModel>()?;
    m.add_class::<RelationalList>()?;
    m.add_function(wrap_pyfunction!(best_f1_threshold, m)?)?;
    Ok(())
}
