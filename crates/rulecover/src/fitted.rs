//! Fitting by method id, and the fitted model that remembers its method,
//! schema, parameters and seed.

use std::collections::BTreeMap;

use rulecover_core::weights::check_sample_weights;
use rulecover_core::{Dataset, Predictions, RuleSet, Schema, UnseenLevel};

use crate::error::{Error, Result};
use crate::method::{Learner, Method, MethodSpec, TableJob, TableMethod, Task};
use crate::methods::method;
use crate::model::Model;
use crate::params::Args;
use crate::tuning::Tuning;

/// A fitted tabular model of any registered method, with what it was
/// fitted on and how: the method, the training data's [`Schema`], every
/// parameter's value (given or default, as canonical strings) and the
/// seed. It predicts from new data by column name, and saves to and loads
/// from the versioned model file ([`FittedModel::save`],
/// [`FittedModel::load`]).
#[derive(Debug, Clone)]
pub struct FittedModel {
    pub(crate) method: &'static dyn Method,
    pub(crate) schema: Schema,
    pub(crate) params: BTreeMap<String, String>,
    pub(crate) seed: u64,
    pub(crate) model: Model,
    pub(crate) tuning: Option<Tuning>,
}

/// Fits method `id` (or an alias) to `data`.
///
/// A method that learns two classes ([`MethodSpec::one_vs_rest`]) is
/// fitted on more classes one-vs-rest ([`rulecover_core::OneVsRest`]):
/// one binary model per class, with the seed `derive_seed(seed, k)` for
/// class `k`; on two classes the learner is fitted as it is.
///
/// `params` are `(name, value)` strings, each parsed by the type the
/// method declares ([`crate::MethodSpec::params`]); parameters not given
/// take their defaults. `weights`, when given, hold one non-negative
/// weight per row with replication semantics (an integer weight behaves
/// as that many copies of the row). `seed` drives every random choice, so
/// the same seed gives the same model.
///
/// # Errors
/// - [`Error::UnknownMethod`], [`Error::UnknownParameter`],
///   [`Error::BadValue`], [`Error::DuplicateParameter`] for a bad method
///   or parameter;
/// - [`Error::Relational`] for a relational method (see
///   [`crate::fit_relational`]);
/// - [`Error::NoTarget`], [`Error::UnsupportedTask`] when the data's target
///   does not suit the method;
/// - [`Error::Data`] for weights of the wrong length or with negative or
///   non-finite values;
/// - [`Error::Fit`] with the learner's own error (parameter ranges, solver
///   failures, bad data).
pub fn fit<K: AsRef<str>, V: AsRef<str>>(
    id: &str,
    params: &[(K, V)],
    data: &Dataset,
    weights: Option<&[f64]>,
    seed: u64,
) -> Result<FittedModel> {
    fit_given(id, &pairs(params), data, weights, Seed::Given(seed))
}

/// `(name, value)` pairs as owned strings.
pub(crate) fn pairs<K: AsRef<str>, V: AsRef<str>>(params: &[(K, V)]) -> Vec<(String, String)> {
    params
        .iter()
        .map(|(k, v)| (k.as_ref().to_string(), v.as_ref().to_string()))
        .collect()
}

/// Where a fit's seed comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Seed {
    /// Given by the caller: used as it is (a method that cannot take it
    /// fails with its own error).
    Given(u64),
    /// Derived by the registry from another seed (a fold's, by
    /// `evaluate`): brought into the range the method accepts
    /// ([`accepted_seed`]).
    Derived(u64),
}

/// The registry's one rule for derived seeds: a method whose random
/// streams are scikit-learn's (`random_stream = sklearn`, MIRCO's
/// default) takes a `random_state` below 2^32, so a derived seed keeps its
/// low 32 bits; every other method takes any `u64` as it is.
pub(crate) fn accepted_seed(args: &Args, seed: u64) -> Result<u64> {
    let sklearn = args.has("random_stream") && args.choice("random_stream")? == "sklearn";
    Ok(if sklearn {
        seed & u64::from(u32::MAX)
    } else {
        seed
    })
}

/// A tabular method of the registry, checked against the data and
/// weights: the item, its learner and the data's task.
pub(crate) fn table_method(
    id: &str,
    data: &Dataset,
    weights: Option<&[f64]>,
) -> Result<(&'static dyn Method, &'static dyn TableMethod, Task)> {
    let method = method(id)?;
    let spec = method.spec();
    let Learner::Table(learner) = method.learner() else {
        return Err(Error::Relational {
            method: spec.id.into(),
        });
    };
    let task = Task::of(data)?;
    if !spec.tasks.contains(&task) {
        return Err(Error::UnsupportedTask {
            method: spec.id.into(),
            task: task.name().into(),
            supported: spec.task_list(),
        });
    }
    if let Some(w) = weights {
        check_sample_weights(w, data.n_rows())?;
    }
    Ok((method, learner, task))
}

/// [`fit`] with owned parameters and a [`Seed`].
pub(crate) fn fit_given(
    id: &str,
    given: &[(String, String)],
    data: &Dataset,
    weights: Option<&[f64]>,
    seed: Seed,
) -> Result<FittedModel> {
    let spec = method(id)?.spec();
    let args = Args::resolve(spec.id, spec.params, given)?;
    let (method, learner, task) = table_method(id, data, weights)?;
    let seed = match seed {
        Seed::Given(s) => s,
        Seed::Derived(s) => accepted_seed(&args, s)?,
    };
    let model = learner.fit(&TableJob {
        spec,
        args: &args,
        task,
        data,
        weights,
        seed,
    })?;
    Ok(FittedModel {
        method,
        schema: Schema::of(data),
        params: args.strings(),
        seed,
        model,
        tuning: None,
    })
}

/// Every parameter of method `id` (tabular or relational) as a fit would
/// resolve them: the given `(name, value)` strings parsed and checked
/// against the method's declarations, the others at their defaults, as
/// canonical strings (a model file's `params`). Nothing is fitted: the
/// command line's parameter checks without data.
///
/// ```
/// let p = rulecover::resolve_params("rux-rf", &[("n_estimators", "10")])?;
/// assert_eq!(p["n_estimators"], "10");
/// assert_eq!(p["max_depth"], "2"); // the paper's default
/// assert!(rulecover::resolve_params("rux-rf", &[("n_estimators", "ten")]).is_err());
/// assert!(rulecover::resolve_params("rux-rf", &[("no_such", "1")]).is_err());
/// # Ok::<(), rulecover::Error>(())
/// ```
///
/// # Errors
/// [`Error::UnknownMethod`], [`Error::UnknownParameter`],
/// [`Error::BadValue`], [`Error::DuplicateParameter`].
pub fn resolve_params<K: AsRef<str>, V: AsRef<str>>(
    id: &str,
    params: &[(K, V)],
) -> Result<BTreeMap<String, String>> {
    let spec = method(id)?.spec();
    let given: Vec<(String, String)> = params
        .iter()
        .map(|(k, v)| (k.as_ref().to_string(), v.as_ref().to_string()))
        .collect();
    Ok(Args::resolve(spec.id, spec.params, &given)?.strings())
}

impl PartialEq for FittedModel {
    /// The same method, schema, parameters, seed and model.
    fn eq(&self, other: &FittedModel) -> bool {
        self.kind() == other.kind()
            && self.schema == other.schema
            && self.params == other.params
            && self.seed == other.seed
            && self.model == other.model
            && self.tuning == other.tuning
    }
}

impl FittedModel {
    /// The method id (a model file's `kind`).
    pub fn kind(&self) -> &'static str {
        self.spec().id
    }

    /// The method's registry item.
    pub fn method(&self) -> &'static dyn Method {
        self.method
    }

    /// The method's spec (parameters, capabilities).
    pub fn spec(&self) -> &'static MethodSpec {
        self.method.spec()
    }

    /// The raw input columns and target of the training data.
    pub fn schema(&self) -> &Schema {
        &self.schema
    }

    /// Every parameter's value, given or default, as canonical strings
    /// that parse back to the same values.
    pub fn params(&self) -> &BTreeMap<String, String> {
        &self.params
    }

    /// The seed of the fit.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Class names in class order (empty for regression): column `c` of
    /// [`Predictions::Classes`] is class `classes()[c]`.
    pub fn classes(&self) -> &[String] {
        self.schema.classes()
    }

    /// How the parameters were chosen, when they were tuned
    /// ([`crate::fit_tuned`]): the metric, the inner folds, every grid
    /// point's mean score and the chosen point.
    pub fn tuning(&self) -> Option<&Tuning> {
        self.tuning.as_ref()
    }

    /// The parameters the fit chose itself (`lambda0 = auto`'s penalties;
    /// `name[class]` per class of a one-vs-rest model), empty when none.
    pub fn chosen_params(&self) -> Vec<(String, f64)> {
        self.model.chosen_params()
    }

    /// The fitted model itself.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// The fitted model, consuming the wrapper.
    pub fn into_model(self) -> Model {
        self.model
    }

    /// Predicts every row of `data`, reading its columns by name (any
    /// order, extra columns ignored); a categorical level not seen at fit
    /// is an error.
    ///
    /// # Errors
    /// [`Error::Data`] when `data` lacks a training column or holds an
    /// unseen level or class ([`rulecover_core::Error::MissingColumn`],
    /// `UnseenLevel`, ...); [`Error::Predict`] with the model's own error.
    pub fn predict(&self, data: &Dataset) -> Result<Predictions> {
        self.predict_with(data, UnseenLevel::Error)
    }

    /// Predicts like [`FittedModel::predict`], with a choice of what an
    /// unseen categorical level means. With [`UnseenLevel::Missing`] the
    /// level reads as a missing value; the GLRM family (`lr1` … `rulefit`)
    /// then evaluates it as its literals do (`x == v` false for every
    /// level, `x != v` true: what an unseen level is; a linear term gives
    /// 0; [`rc_glm::UnseenMissing::AsLiterals`]), where by default a
    /// missing value in a column that had none at fit is an error. Tree
    /// learners without missing-value support still refuse it.
    ///
    /// # Errors
    /// As [`FittedModel::predict`].
    pub fn predict_with(&self, data: &Dataset, unseen: UnseenLevel) -> Result<Predictions> {
        let aligned = self.schema.align(data, unseen)?;
        if unseen == UnseenLevel::Missing {
            if let Some(lenient) = self.model.reading_missing_as_literals() {
                return lenient.predict(self.kind(), &aligned);
            }
        }
        self.model.predict(self.kind(), &aligned)
    }

    /// The rules with their outcomes, weights and training coverage, or
    /// `None` for a model without rules (`ann`).
    pub fn rule_set(&self) -> Option<RuleSet> {
        self.model.rule_set()
    }

    /// Number of rules, or `None` for a model without rules (`ann`).
    pub fn n_rules(&self) -> Option<usize> {
        self.model.n_rules()
    }

    /// The rules printed one per line, or `None` for a model without rules.
    pub fn render_rules(&self) -> Option<String> {
        self.model.render_rules()
    }
}
