//! `rulecover._native`: the Python extension over the rulecover registry
//! (`rulecover::fit`, `rulecover::FittedModel`, `rulecover::methods`) and
//! rc-logic's relational learners. The Python package `rulecover` wraps
//! it in scikit-learn estimators; everything that learns, encodes or
//! predicts runs here, in the Rust crates.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod data;
mod errors;
mod relational;
mod rules;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
use rulecover::FittedModel;
use rulecover_core::{FeatureKind, Predictions, UnseenLevel};

/// Runs `f` on a rayon pool of `n_jobs` threads (`None`: rayon's global
/// pool). Results do not depend on the number of threads.
pub(crate) fn with_threads<T: Send>(
    n_jobs: Option<usize>,
    f: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    match n_jobs {
        None => Ok(f()),
        Some(n) => {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(n.max(1))
                .build()
                .map_err(|e| PyValueError::new_err(format!("n_jobs={n}: {e}")))?;
            Ok(pool.install(f))
        }
    }
}

/// Reads the columns Python sent.
fn columns(names: &[String], cols: &[Bound<'_, PyAny>]) -> PyResult<Vec<data::Column>> {
    names
        .iter()
        .zip(cols)
        .map(|(n, c)| data::column(c, n))
        .collect()
}

/// What `predict` returns: the kind (`"classes"` or `"values"`), the
/// values as float64 bytes, the number of columns and the predicted class
/// indices.
type Predicted<'py> = (String, Bound<'py, PyBytes>, usize, Option<Vec<usize>>);

/// A fitted model of any tabular method (a `rulecover::FittedModel`).
#[pyclass(frozen, module = "rulecover._native", name = "FittedModel")]
struct PyFittedModel {
    inner: FittedModel,
}

#[pymethods]
impl PyFittedModel {
    /// Fits method `method` with `(name, value)` string parameters on the
    /// columns `names`/`cols` and the target (`y`: float64 bytes of class
    /// indices into `classes`, or of real values when `classes` is None),
    /// with optional float64 `weights`, `seed` and `n_jobs` threads. The
    /// GIL is released while fitting.
    #[staticmethod]
    #[pyo3(signature = (method, params, names, cols, y, classes, weights, seed, n_jobs=None))]
    #[allow(clippy::too_many_arguments)]
    fn fit(
        py: Python<'_>,
        method: &str,
        params: Vec<(String, String)>,
        names: Vec<String>,
        cols: Vec<Bound<'_, PyAny>>,
        y: &[u8],
        classes: Option<Vec<String>>,
        weights: Option<&[u8]>,
        seed: u64,
        n_jobs: Option<usize>,
    ) -> PyResult<Self> {
        let cols = columns(&names, &cols)?;
        let target = data::target(Some(y), classes)?;
        let weights = weights
            .map(|w| data::f64s(w, "sample_weight"))
            .transpose()?;
        let method = method.to_string();
        let fitted = py.detach(move || -> PyResult<FittedModel> {
            let data = data::dataset(names, cols, target)?;
            with_threads(n_jobs, || {
                rulecover::fit(&method, &params, &data, weights.as_deref(), seed)
            })?
            .map_err(errors::registry)
        })?;
        Ok(PyFittedModel { inner: fitted })
    }

    /// Predicts the rows of the columns `names`/`cols` (read by name, any
    /// order). Returns `("classes", proba bytes, n_classes, labels)` or
    /// `("values", bytes, 1, None)`; `labels` are the predicted class
    /// indices. With `unseen="missing"` an unseen categorical level reads
    /// as missing instead of raising. The GIL is released while predicting.
    #[pyo3(signature = (names, cols, unseen="error", n_jobs=None))]
    fn predict<'py>(
        &self,
        py: Python<'py>,
        names: Vec<String>,
        cols: Vec<Bound<'py, PyAny>>,
        unseen: &str,
        n_jobs: Option<usize>,
    ) -> PyResult<Predicted<'py>> {
        let unseen = match unseen {
            "error" => UnseenLevel::Error,
            "missing" => UnseenLevel::Missing,
            other => {
                return Err(PyValueError::new_err(format!(
                    "unseen='{other}': expected 'error' or 'missing'"
                )))
            }
        };
        let cols = columns(&names, &cols)?;
        let model = &self.inner;
        let predictions = py.detach(move || -> PyResult<Predictions> {
            let data = data::dataset(names, cols, rulecover_core::Target::None)?;
            with_threads(n_jobs, || model.predict_with(&data, unseen))?.map_err(errors::registry)
        })?;
        Ok(match predictions {
            Predictions::Classes { n_classes, proba } => {
                let labels = Predictions::Classes {
                    n_classes,
                    proba: proba.clone(),
                }
                .labels();
                (
                    "classes".into(),
                    data::f64_bytes(py, &proba),
                    n_classes,
                    labels,
                )
            }
            Predictions::Values(v) => ("values".into(), data::f64_bytes(py, &v), 1, None),
        })
    }

    /// The method id (the model file's `kind`).
    #[getter]
    fn kind(&self) -> &'static str {
        self.inner.kind()
    }

    /// The fit's seed.
    #[getter]
    fn seed(&self) -> u64 {
        self.inner.seed()
    }

    /// Every parameter's value, given or default, as strings.
    #[getter]
    fn params<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in self.inner.params() {
            d.set_item(k, v)?;
        }
        Ok(d)
    }

    /// The parameters the fit chose itself (`lambda0 = auto`'s
    /// penalties), as `(name, value)`; `name[class]` per class of a
    /// one-vs-rest model. Empty when it chose none.
    #[getter]
    fn chosen_params(&self) -> Vec<(String, f64)> {
        self.inner.chosen_params()
    }

    /// Class names in class order (empty for regression).
    #[getter]
    fn classes(&self) -> Vec<String> {
        self.inner.classes().to_vec()
    }

    /// The training columns: `(name, "numeric" | "categorical", levels)`.
    #[getter]
    fn features(&self) -> Vec<(String, &'static str, Option<Vec<String>>)> {
        self.inner
            .schema()
            .features
            .iter()
            .map(|f| match &f.kind {
                FeatureKind::Categorical { levels } => {
                    (f.name.clone(), "categorical", Some(levels.clone()))
                }
                FeatureKind::Numeric => (f.name.clone(), "numeric", None),
                FeatureKind::Indicator { .. } => (f.name.clone(), "indicator", None),
            })
            .collect()
    }

    /// The rules as dicts (see the package docs), or `None` for a model
    /// without rules.
    fn rules<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyList>>> {
        self.inner
            .rule_set()
            .map(|set| rules::to_py(py, &set))
            .transpose()
    }

    /// The rules printed one per line, or `None`.
    fn render_rules(&self) -> Option<String> {
        self.inner.render_rules()
    }

    /// The model as one SQL query over `table` (`rulecover export
    /// --format sql`): `dialect` is sqlite, duckdb or postgres; `keep`
    /// columns pass through; `unseen` is null or missing.
    fn to_sql(
        &self,
        dialect: &str,
        table: &str,
        keep: Vec<String>,
        unseen: &str,
    ) -> PyResult<String> {
        use rulecover::export::{Dialect, SqlOptions, Unseen};
        let dialect = Dialect::parse(dialect).ok_or_else(|| {
            PyValueError::new_err(format!(
                "dialect '{dialect}' is not one of sqlite, duckdb, postgres"
            ))
        })?;
        let unseen = match unseen {
            "null" => Unseen::Null,
            "missing" => Unseen::Missing,
            other => {
                return Err(PyValueError::new_err(format!(
                    "unseen '{other}' is not one of null, missing"
                )))
            }
        };
        let options = SqlOptions {
            keep,
            unseen,
            ..SqlOptions::new(dialect, table)
        };
        self.inner.to_sql(&options).map_err(errors::registry)
    }

    /// The model as one dependency-free Python module (`rulecover export
    /// --format python`).
    fn to_python(&self) -> PyResult<String> {
        self.inner.to_python().map_err(errors::registry)
    }

    /// The report page (`rulecover::report::html`): the columns
    /// `names`/`cols` (read by name) with the target `y` (as `fit` takes
    /// it: class indices into `classes`, or real values) when given; the
    /// page without data when `names` is None. `top` rules get a bar each
    /// in the contribution chart. The GIL is released while scoring.
    #[pyo3(signature = (names=None, cols=None, y=None, classes=None, top=20))]
    fn report(
        &self,
        py: Python<'_>,
        names: Option<Vec<String>>,
        cols: Option<Vec<Bound<'_, PyAny>>>,
        y: Option<&[u8]>,
        classes: Option<Vec<String>>,
        top: usize,
    ) -> PyResult<String> {
        let data = match (names, cols) {
            (Some(names), Some(cols)) => Some((columns(&names, &cols)?, names)),
            _ => None,
        };
        let target = data::target(y, classes)?;
        let model = &self.inner;
        py.detach(move || -> PyResult<String> {
            let data = data
                .map(|(cols, names)| data::dataset(names, cols, target))
                .transpose()?;
            let opts = rulecover::report::ReportOptions {
                top,
                ..Default::default()
            };
            rulecover::report::html(model, data.as_ref(), &opts).map_err(errors::registry)
        })
    }

    /// The compact HTML of the rules table (`rulecover::report::rules_html`),
    /// for a notebook's `_repr_html_`.
    fn rules_html(&self) -> String {
        rulecover::report::rules_html(&self.inner)
    }

    /// The model file's text.
    fn to_json(&self) -> PyResult<String> {
        self.inner.to_json().map_err(errors::registry)
    }

    /// Reads a model file's text.
    #[staticmethod]
    fn from_json(text: &str) -> PyResult<Self> {
        FittedModel::from_json(text)
            .map(|inner| PyFittedModel { inner })
            .map_err(errors::registry)
    }

    /// Writes the model file.
    fn save(&self, path: std::path::PathBuf) -> PyResult<()> {
        self.inner.save(path).map_err(errors::registry)
    }

    /// Reads a model file.
    #[staticmethod]
    fn load(path: std::path::PathBuf) -> PyResult<Self> {
        FittedModel::load(path)
            .map(|inner| PyFittedModel { inner })
            .map_err(errors::registry)
    }
}

/// The LP and MIP backends of this build, as `rc_lp::default_lp_solver`
/// and `default_mip_solver` pick them.
#[pyfunction]
fn backends<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let highs = cfg!(feature = "highs");
    d.set_item("lp", if highs { "highs" } else { "minilp" })?;
    d.set_item("mip", if highs { "highs" } else { "minilp" })?;
    let mut available = vec!["minilp"];
    if highs {
        available.push("highs");
    }
    d.set_item("available", available)?;
    Ok(d)
}

/// Every registered method: `id`, `aliases`, `summary`, `tasks`,
/// `params` (dicts of `name`, `type`, `allowed`, `default`, `doc`) and
/// `grid`, its tuning grid (dicts of `param`, `values` as strings and
/// `scaled`: `(name, factor)` of a parameter set to `factor × value`, or
/// None).
#[pyfunction]
fn methods<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
    let out = PyList::empty(py);
    for m in rulecover::methods().iter().map(|m| m.spec()) {
        let d = PyDict::new(py);
        d.set_item("id", m.id)?;
        d.set_item("aliases", m.aliases.to_vec())?;
        d.set_item("summary", m.summary)?;
        d.set_item(
            "tasks",
            m.tasks.iter().map(|t| t.name()).collect::<Vec<_>>(),
        )?;
        let params = PyList::empty(py);
        for p in m.params {
            let pd = PyDict::new(py);
            pd.set_item("name", p.name)?;
            pd.set_item("type", p.kind.type_name())?;
            pd.set_item("allowed", p.kind.allowed())?;
            pd.set_item("default", p.default)?;
            pd.set_item("doc", p.doc)?;
            params.append(pd)?;
        }
        d.set_item("params", params)?;
        let grid = PyList::empty(py);
        for a in m.grid {
            let ad = PyDict::new(py);
            ad.set_item("param", a.param)?;
            ad.set_item("values", a.values.to_vec())?;
            ad.set_item("scaled", a.scaled)?;
            grid.append(ad)?;
        }
        d.set_item("grid", grid)?;
        out.append(d)?;
    }
    Ok(out)
}

/// The extension module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyFittedModel>()?;
    m.add_function(wrap_pyfunction!(backends, m)?)?;
    m.add_function(wrap_pyfunction!(methods, m)?)?;
    m.add("FORMAT_VERSION", rulecover::FORMAT_VERSION)?;
    relational::register(m)?;
    Ok(())
}
