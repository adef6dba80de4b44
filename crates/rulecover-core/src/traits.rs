//! Traits through which the crates compose: fitting, predicting, exposing
//! rules, and handing out pools of rules.

use serde::{Deserialize, Serialize};

use crate::coverage::CoverageMatrix;
use crate::dataset::Dataset;
use crate::error::Result;
use crate::params::{CheckParams, Checked};
use crate::predictions::Predictions;
use crate::rule::Rule;
use crate::ruleset::RuleSet;
use crate::schema::{Encoder, Schema};
use crate::weights::check_sample_weights;

/// Learning parameters that can fit a model to a dataset.
///
/// Learners take raw columns — numeric and categorical — and apply their
/// own encoding, fitted at training time and stored in the model
/// ([`crate::schema::Encoder`]).
///
/// A learner implements one method, [`Fit::fit_checked`], which gets
/// parameters already validated ([`Checked`], built from
/// [`CheckParams::check_params`]) and sample weights already checked
/// ([`Fit::check_weights`]). Every fit goes through
/// [`Fit::fit_with_weights`], which checks both once
/// ([`Fit::check_inputs`]); [`Fit::fit`] and
/// [`Fit::fit_weighted`] are that path without and with weights.
///
/// ```
/// use rulecover_core::{generate, Fit, ZeroR};
///
/// let data = generate::twonorm(50, 1);
/// let plain = ZeroR.fit(&data)?;
/// let ones = ZeroR.fit_weighted(&data, &vec![1.0; 50])?;
/// assert_eq!(plain, ones);
/// // Bad weights are refused before the learner runs.
/// assert!(ZeroR.fit_weighted(&data, &[1.0; 3]).is_err());
/// # Ok::<(), rulecover_core::Error>(())
/// ```
pub trait Fit: CheckParams {
    /// The fitted model.
    type Model;
    /// What can go wrong (invalid parameters, bad data, solver failure).
    type Error: std::error::Error
        + From<crate::Error>
        + From<<Self as CheckParams>::ParamError>
        + Send
        + Sync
        + 'static;

    /// Fits a model to `data` with valid parameters and, when given, one
    /// checked weight per row of `data` (`None`: unit weights).
    ///
    /// This is the one method a learner implements; call it through
    /// [`Fit::fit_with_weights`] (or [`Fit::fit`], [`Fit::fit_weighted`]),
    /// which checks the parameters and the weights first. Weights have
    /// replication semantics: an integer weight behaves as that many copies
    /// of the row (exactly so for the deterministic learners; each learner
    /// documents how close its randomised parts come), a weight of 0 as no
    /// row.
    fn fit_checked(
        params: Checked<'_, Self>,
        data: &Dataset,
        weights: Option<&[f64]>,
    ) -> std::result::Result<Self::Model, Self::Error>;

    /// Checks sample weights for `data`: one finite, non-negative weight
    /// per row, not all zero ([`crate::weights::check_sample_weights`]).
    /// A learner with typed weight errors of its own overrides it with the
    /// same checks.
    fn check_weights(
        &self,
        data: &Dataset,
        weights: &[f64],
    ) -> std::result::Result<(), Self::Error> {
        Ok(check_sample_weights(weights, data.n_rows())?)
    }

    /// Validates the parameters and, when given, checks the weights for
    /// `data`: what every fit checks, once, before any work. Learners'
    /// other entry points that take parameters and weights (fits from a
    /// given ensemble or oracle) check them here too.
    fn check_inputs(
        &self,
        data: &Dataset,
        weights: Option<&[f64]>,
    ) -> std::result::Result<Checked<'_, Self>, Self::Error> {
        let params = Checked::new(self)?;
        if let Some(w) = weights {
            self.check_weights(data, w)?;
        }
        Ok(params)
    }

    /// Checks the inputs ([`Fit::check_inputs`]) and fits: the one fit path
    /// every other fit method takes.
    fn fit_with_weights(
        &self,
        data: &Dataset,
        weights: Option<&[f64]>,
    ) -> std::result::Result<Self::Model, Self::Error> {
        Self::fit_checked(self.check_inputs(data, weights)?, data, weights)
    }

    /// Validates the parameters and fits a model to `data` (unit weights).
    fn fit(&self, data: &Dataset) -> std::result::Result<Self::Model, Self::Error> {
        self.fit_with_weights(data, None)
    }

    /// Fits with one non-negative weight per row of `data` (see
    /// [`Fit::fit_checked`] for their meaning and [`Fit::check_weights`]
    /// for how they are checked).
    fn fit_weighted(
        &self,
        data: &Dataset,
        weights: &[f64],
    ) -> std::result::Result<Self::Model, Self::Error> {
        self.fit_with_weights(data, Some(weights))
    }
}

/// A fitted model that knows the data it was fitted on.
pub trait Fitted {
    /// The fitted input encoding: the training schema and how raw columns
    /// become the numbers the model reads.
    fn encoder(&self) -> &Encoder;

    /// The raw input columns and the target of the training data.
    fn schema(&self) -> &Schema {
        self.encoder().schema()
    }

    /// Feature names in training order.
    fn feature_names(&self) -> Vec<&str> {
        self.schema().feature_names()
    }

    /// Class names in class order (empty for regression).
    fn classes(&self) -> &[String] {
        self.schema().classes()
    }
}

/// A fitted model that predicts from features. Every such model knows its
/// training schema ([`Fitted`]) and reads new data by column name.
pub trait Predict: Fitted {
    /// What can go wrong (e.g. the data lacks a feature).
    type Error: std::error::Error + From<crate::Error> + Send + Sync + 'static;

    /// Predicts every row of `data`.
    fn predict(&self, data: &Dataset) -> std::result::Result<Predictions, Self::Error>;
}

/// A model made of rules: reports how many it uses and how long they are,
/// and prints them.
pub trait RuleModel {
    /// Number of rules the model uses to predict.
    fn n_rules(&self) -> usize;

    /// Length of each rule as the papers count it (raw conditions on the
    /// path, or literals of a clause).
    fn rule_lengths(&self) -> Vec<usize>;

    /// Mean rule length (0 for a model without rules).
    fn avg_rule_length(&self) -> f64 {
        let l = self.rule_lengths();
        if l.is_empty() {
            0.0
        } else {
            l.iter().sum::<usize>() as f64 / l.len() as f64
        }
    }

    /// The rules, one per line, with feature names.
    fn render_rules(&self) -> String;

    /// The rules with what each concludes, its weight or value and its
    /// training coverage, in the order the papers print them.
    fn rule_set(&self) -> RuleSet;
}

/// One rule of a pool and where it came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PoolRule {
    /// The conjunction (a root-to-leaf path for tree ensembles).
    pub rule: Rule,
    /// Index of the estimator (tree) it came from.
    pub estimator: usize,
    /// Node id of the leaf within that tree (preorder, as scikit-learn).
    pub node: usize,
    /// Weight of that estimator in its ensemble (AdaBoost's α; 1 for
    /// forests).
    pub estimator_weight: f64,
}

/// Anything that can hand out a pool of rules and compute which rows each
/// covers: a forest, a boosted ensemble, a previous rule set.
pub trait RuleSource {
    /// The rules, in a fixed canonical order (estimators in order, leaves
    /// by increasing node id).
    fn rule_pool(&self) -> Vec<PoolRule>;

    /// Which rows of `data` each rule of [`RuleSource::rule_pool`] covers,
    /// in the same order. The default evaluates every rule on every row;
    /// tree ensembles override it with a faster traversal.
    fn pool_coverage(&self, data: &Dataset) -> Result<CoverageMatrix> {
        let pool = self.rule_pool();
        Ok(CoverageMatrix::from_rules(
            pool.iter().map(|p| &p.rule),
            data,
        ))
    }

    /// The class each rule of [`RuleSource::rule_pool`] predicts in its own
    /// estimator, in the same order: for a classification tree the argmax
    /// of its leaf's stored class weights (under the sample, bootstrap or
    /// boosting weights the tree was grown with; ties to the lowest
    /// class), as the estimator itself predicts. `None` (the default) when
    /// the rules carry no class of their own (hand-written rules, gradient
    /// boosting's regression trees); RUX then labels them by the training
    /// rows they cover.
    fn pool_classes(&self) -> Option<Vec<usize>> {
        None
    }
}

/// Learning parameters whose random choices follow one seed, so that a
/// wrapper fitting several models from the same parameters (one model per
/// class, [`crate::OneVsRest`]) can give each model a seed of its own,
/// derived from this one with [`crate::rng::derive_seed`].
pub trait Reseed: Sized {
    /// The seed the random choices follow, or `None` for a learner
    /// without random choices.
    fn random_seed(&self) -> Option<u64>;

    /// The same parameters with `seed` in place of their seed (unchanged
    /// for a learner without random choices).
    fn with_random_seed(&self, seed: u64) -> Self;
}
