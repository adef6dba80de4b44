//! A single CART tree as a fitted model: fit, predict, rules.

use serde::{Deserialize, Serialize};

use rulecover_core::{
    CheckParams, Checked, CoverageMatrix, Dataset, Encoder, Feature, Fit, Fitted, PoolRule,
    Predict, Predictions, Rule, RuleModel, RuleSet, RuleSource,
};

use crate::build::grow;
use crate::data::{check_weight_sum, check_weight_values, labels_for, Labels, Prepared, Rows};
use crate::encode::{encode, fit_encoder};
use crate::error::{Error, Result};
use crate::params::{Criterion, DecisionTreeParams, RandomStream};
use crate::rules::{self, LeafStats};
use crate::sklearn_random::{Draws, RandR};
use crate::splitter::{Scratch, TargetRef, TreeConfig};
use crate::tree::Tree;
use rulecover_core::weights::rescaled_by_power_of_two;
use rulecover_core::Rng;
use std::borrow::Cow;

/// A fitted decision tree (classification or regression) with the
/// encoder of the data it was trained on: it reads new data by column
/// name and one-hot encodes categorical columns as at fit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "DecisionTreeRepr")]
pub struct DecisionTree {
    tree: Tree,
    criterion: Criterion,
    encoder: Encoder,
    /// Training rows (of the data passed to fit, whatever their weight)
    /// reaching each node: the rules' coverage.
    coverage: Vec<u32>,
}

impl Labels {
    pub(crate) fn as_target(&self) -> TargetRef<'_> {
        match self {
            Labels::Classes { y, k } => TargetRef::Classes { y, k: *k },
            Labels::Values(v) => TargetRef::Values(v),
        }
    }
}

/// Sample weights of a fit: the user's (checked by
/// [`Fit::check_weights`]) brought into a range where sums neither
/// underflow nor overflow, or all ones.
///
/// Only the ratios of the weights matter, and weights whose largest is in
/// `[2^-8, 2^8)` are used as they are (scikit-learn's computation). Beyond
/// that range, weights whose positive values are all equal become 1 (0
/// stays 0), so extreme uniform weights fit exactly the unweighted model;
/// other weights are multiplied by the power of two that brings the
/// largest into the range, which changes no ratio.
pub(crate) fn fit_weights(data: &Dataset, weights: Option<&[f64]>) -> Result<Vec<f64>> {
    let Some(w) = weights else {
        return Ok(vec![1.0; data.n_rows()]);
    };
    let rescaled = rescaled_by_power_of_two(w);
    let w = match rescaled {
        Cow::Borrowed(w) => w.to_vec(),
        Cow::Owned(r) if uniform_on_support(&r) => {
            r.iter().map(|&v| if v > 0.0 { 1.0 } else { 0.0 }).collect()
        }
        Cow::Owned(r) => r,
    };
    check_weight_sum(&w)?;
    Ok(w)
}

/// True when every positive weight has the same value.
fn uniform_on_support(w: &[f64]) -> bool {
    let mut positive = w.iter().filter(|&&v| v > 0.0);
    let first = positive.next();
    positive.all(|v| Some(v) == first)
}

impl CheckParams for DecisionTreeParams {
    type ParamError = Error;

    /// [`DecisionTreeParams::validate`].
    fn check_params(&self) -> Result<()> {
        self.validate()
    }
}

impl Fit for DecisionTreeParams {
    type Model = DecisionTree;
    type Error = Error;

    /// Fits a tree, with one sample weight per row of `data` when given
    /// (finite, `>= 0`, not all zero). Rows with weight 0 are ignored; a
    /// weight of 2 has the same effect as the row appearing twice; only
    /// ratios matter (extreme weights are rescaled exactly, see the crate
    /// docs).
    fn fit_checked(
        params: Checked<'_, Self>,
        data: &Dataset,
        weights: Option<&[f64]>,
    ) -> Result<DecisionTree> {
        let (encoder, encoded) = fit_encoder(data, params.encoding)?;
        let data = &encoded;
        let prep = Prepared::new(data)?;
        let labels = labels_for(data, params.criterion)?;
        let w = fit_weights(data, weights)?;
        let cfg = TreeConfig::from_params(params, prep.p)?;
        let mut draws = match params.random_stream {
            RandomStream::Native => Draws::Native(Rng::new(params.seed)),
            // `validate` checked that the seed fits in 32 bits.
            RandomStream::Sklearn => Draws::Sklearn(RandR::for_tree(params.seed as u32)),
        };
        let tree = grow(
            &prep,
            labels.as_target(),
            &w,
            &cfg,
            &mut draws,
            &mut Scratch::default(),
        );
        let coverage = tree.rows_reaching(&prep);
        Ok(DecisionTree {
            tree,
            criterion: params.criterion,
            encoder,
            coverage,
        })
    }

    /// rc-tree's weight checks, with typed errors
    /// ([`Error::WeightCount`], [`Error::InvalidWeight`],
    /// [`Error::ZeroWeights`]).
    fn check_weights(&self, data: &Dataset, weights: &[f64]) -> Result<()> {
        check_weight_values(weights, data.n_rows())
    }
}

impl Fitted for DecisionTree {
    fn encoder(&self) -> &Encoder {
        &self.encoder
    }
}

impl DecisionTree {
    /// The tree structure.
    pub fn tree(&self) -> &Tree {
        &self.tree
    }

    /// The criterion it was grown with.
    pub fn criterion(&self) -> Criterion {
        self.criterion
    }

    /// The features the tree splits (the encoded training features: one
    /// indicator per level of a categorical column); its rules index
    /// them.
    pub fn features(&self) -> &[Feature] {
        self.encoder.encoded_features()
    }

    /// Class names (empty for regression).
    pub fn class_names(&self) -> &[String] {
        self.encoder.schema().classes()
    }

    /// Number of classes (0 for regression).
    pub fn n_classes(&self) -> usize {
        self.tree.n_classes()
    }

    /// Class probabilities, row-major `n × k`: the normalised weighted
    /// class counts of each row's leaf (scikit-learn's `predict_proba`).
    pub fn predict_proba(&self, data: &Dataset) -> Result<Vec<f64>> {
        if !self.tree.is_classifier() {
            return Err(Error::TargetKind(
                "predict_proba needs a classification tree; use predict_values".into(),
            ));
        }
        let data = encode(&self.encoder, data)?;
        let rows = Rows::new(&data, self.tree.n_features())?;
        let k = self.tree.n_classes();
        let mut out = vec![0.0; rows.n * k];
        let leaves = self.tree.leaves_of_rows(&rows);
        for (o, &leaf) in out.chunks_mut(k).zip(&leaves) {
            self.tree.leaf_proba_into(leaf, o);
        }
        Ok(out)
    }

    /// Predicted class of every row (the most probable; ties to the lowest
    /// class, as scikit-learn).
    pub fn predict_labels(&self, data: &Dataset) -> Result<Vec<usize>> {
        let k = self.tree.n_classes();
        Ok(self
            .predict_proba(data)?
            .chunks(k)
            .map(rulecover_core::metrics::argmax)
            .collect())
    }

    /// Predicted value of every row (regression trees: the leaf's weighted
    /// mean).
    pub fn predict_values(&self, data: &Dataset) -> Result<Vec<f64>> {
        if self.tree.is_classifier() {
            return Err(Error::TargetKind(
                "predict_values needs a regression tree; use predict_proba or predict_labels"
                    .into(),
            ));
        }
        let data = encode(&self.encoder, data)?;
        let rows = Rows::new(&data, self.tree.n_features())?;
        Ok(self
            .tree
            .leaves_of_rows(&rows)
            .into_iter()
            .map(|leaf| self.tree.value(leaf)[0])
            .collect())
    }

    /// The leaf node id of every row of `data`.
    pub fn apply(&self, data: &Dataset) -> Result<Vec<usize>> {
        self.tree.apply(&encode(&self.encoder, data)?)
    }

    /// Every leaf as `(node id, rule)`, increasing node id.
    pub fn leaf_rules(&self) -> Vec<(usize, Rule)> {
        self.tree.leaf_rules()
    }

    /// Statistics of the rows of `data` in every leaf (increasing node id).
    pub fn leaf_stats(&self, data: &Dataset, weights: Option<&[f64]>) -> Result<Vec<LeafStats>> {
        self.tree.leaf_stats(&encode(&self.encoder, data)?, weights)
    }

    /// Normalised impurity-decrease feature importances.
    pub fn feature_importances(&self) -> Vec<f64> {
        self.tree.feature_importances()
    }

    /// The tree as a rule set: one rule per leaf (increasing node id) with
    /// the leaf's weighted class counts ([`rulecover_core::Outcome::ClassCounts`])
    /// or value ([`rulecover_core::Outcome::Value`]), weight 1.
    fn to_rule_set(&self) -> RuleSet {
        rules::rule_set_of(
            std::slice::from_ref(&self.tree),
            std::slice::from_ref(&self.coverage),
            self.features(),
            self.class_names(),
            rules::leaf_outcome,
            |_| 1.0,
        )
    }
}

impl Predict for DecisionTree {
    type Error = Error;

    /// Class probabilities for a classification tree, values for a
    /// regression tree.
    fn predict(&self, data: &Dataset) -> Result<Predictions> {
        if self.tree.is_classifier() {
            Ok(Predictions::Classes {
                n_classes: self.tree.n_classes(),
                proba: self.predict_proba(data)?,
            })
        } else {
            Ok(Predictions::Values(self.predict_values(data)?))
        }
    }
}

impl RuleModel for DecisionTree {
    fn n_rules(&self) -> usize {
        self.tree.n_leaves()
    }

    fn rule_lengths(&self) -> Vec<usize> {
        rules::leaf_depths(std::slice::from_ref(&self.tree))
    }

    fn render_rules(&self) -> String {
        self.to_rule_set().to_string()
    }

    fn rule_set(&self) -> RuleSet {
        self.to_rule_set()
    }
}

impl RuleSource for DecisionTree {
    /// The leaves in increasing node id (estimator 0, weight 1).
    fn rule_pool(&self) -> Vec<PoolRule> {
        rules::pool_of(std::slice::from_ref(&self.tree), |_| 1.0)
    }

    /// The argmax of each leaf's stored class weights (what the tree
    /// predicts there); `None` for a regression tree.
    fn pool_classes(&self) -> Option<Vec<usize>> {
        rules::pool_classes_of(std::slice::from_ref(&self.tree))
    }

    /// Coverage by routing the rows through the tree.
    fn pool_coverage(&self, data: &Dataset) -> rulecover_core::Result<CoverageMatrix> {
        let data = encode(&self.encoder, data)?;
        rules::coverage_of(
            std::slice::from_ref(&self.tree),
            &data,
            self.tree.n_features(),
        )
    }
}

/// The serialized form of [`DecisionTree`], checked on deserialization so a
/// corrupted or hand-edited model is an error rather than a panic later.
#[derive(Deserialize)]
struct DecisionTreeRepr {
    tree: Tree,
    criterion: Criterion,
    encoder: Encoder,
    /// Training rows (of the data passed to fit, whatever their weight)
    /// reaching each node: the rules' coverage.
    coverage: Vec<u32>,
}

impl TryFrom<DecisionTreeRepr> for DecisionTree {
    type Error = String;

    fn try_from(r: DecisionTreeRepr) -> std::result::Result<Self, String> {
        let DecisionTreeRepr {
            tree,
            criterion,
            encoder,
            coverage,
        } = r;
        let model = DecisionTree {
            tree,
            criterion,
            encoder,
            coverage,
        };
        rules::check_coverage(
            std::slice::from_ref(&model.tree),
            std::slice::from_ref(&model.coverage),
        )?;
        if model.features().len() != model.tree.n_features() {
            return Err(format!(
                "decision tree: {} encoded features for a tree on {} features",
                model.features().len(),
                model.tree.n_features()
            ));
        }
        if model.tree.is_classifier() && model.class_names().len() != model.tree.n_classes() {
            return Err(format!(
                "decision tree: {} class names for a tree on {} classes",
                model.class_names().len(),
                model.tree.n_classes()
            ));
        }
        Ok(model)
    }
}
