//! Gradient boosting with regression trees (scikit-learn semantics):
//! binomial and multinomial deviance, squared error.
//!
//! Differences from scikit-learn, by design:
//! - the trees split by plain squared error instead of `friedman_mse`. Both
//!   choose the same splits (their proxies differ by a per-node constant);
//!   only the scale of `min_impurity_decrease` differs: scikit-learn's
//!   Friedman improvement is not divided by the total weight;
//! - seeds come from `rulecover_core::Rng`, so subsamples differ from
//!   scikit-learn's for the same seed.

use serde::{Deserialize, Serialize};

use rulecover_core::rng::derive_seed;
use rulecover_core::{
    CheckParams, Checked, CoverageMatrix, Dataset, Encoder, Feature, Fit, Fitted, PoolRule,
    Predict, Predictions, RuleModel, RuleSet, RuleSource, Target,
};

use crate::build::grow;
use crate::data::{check_weight_values, Prepared, Rows};
use crate::decision_tree::fit_weights;
use crate::encode::{encode, fit_encoder};
use crate::error::{Error, Result};
use crate::forest::mean_importances;
use crate::params::{Criterion, GradientBoostingParams};
use crate::rules::{self, LeafStats};
use crate::sklearn_random::Draws;
use crate::splitter::{Scratch, TargetRef, TreeConfig};
use crate::tree::Tree;
use rulecover_core::Rng;

/// `np.finfo(np.float32).eps`: prior probabilities are clipped to
/// `[eps, 1 − eps]` before taking logs (scikit-learn).
const PRIOR_EPS: f64 = f32::EPSILON as f64;

/// The loss a gradient-boosting model minimises.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GbLoss {
    /// Two classes: log-loss on the log-odds of class 1; one tree per stage.
    BinomialDeviance,
    /// K > 2 classes: softmax log-loss; one tree per class per stage.
    MultinomialDeviance,
    /// Real target: squared error; one tree per stage.
    SquaredError,
}

/// A fitted gradient-boosting model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "GradientBoostingRepr")]
pub struct GradientBoosting {
    /// Stage-major: tree `s · trees_per_stage + k` fits class `k` in stage
    /// `s`.
    trees: Vec<Tree>,
    trees_per_stage: usize,
    init: Vec<f64>,
    learning_rate: f64,
    loss: GbLoss,
    train_loss: Vec<f64>,
    n_classes: usize,
    n_features: usize,
    encoder: Encoder,
    /// Training rows (of the whole data passed to fit, whatever their
    /// weight or bootstrap count) reaching each node, `[tree][node]`: the
    /// rules' coverage.
    coverage: Vec<Vec<u32>>,
}

#[inline]
fn expit(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// `ln(1 + e^x)` without overflow.
#[inline]
fn softplus(x: f64) -> f64 {
    x.max(0.0) + (-x.abs()).exp().ln_1p()
}

/// Softmax of `raw` into `out`.
fn softmax(raw: &[f64], out: &mut [f64]) {
    let m = raw.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut s = 0.0;
    for (o, &r) in out.iter_mut().zip(raw) {
        *o = (r - m).exp();
        s += *o;
    }
    out.iter_mut().for_each(|o| *o /= s);
}

fn log_sum_exp(raw: &[f64]) -> f64 {
    let m = raw.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    m + raw.iter().map(|r| (r - m).exp()).sum::<f64>().ln()
}

impl CheckParams for GradientBoostingParams {
    type ParamError = Error;

    /// [`GradientBoostingParams::validate`].
    fn check_params(&self) -> Result<()> {
        self.validate()
    }
}

impl Fit for GradientBoostingParams {
    type Model = GradientBoosting;
    type Error = Error;

    /// Fits with one sample weight per row when given (finite, `>= 0`, not
    /// all zero), else unit weights.
    fn fit_checked(
        params: Checked<'_, Self>,
        data: &Dataset,
        weights: Option<&[f64]>,
    ) -> Result<GradientBoosting> {
        let (encoder, encoded) = fit_encoder(data, params.tree.encoding)?;
        let data = &encoded;
        let prep = Prepared::new(data)?;
        let sw = fit_weights(data, weights)?;
        let tree_params = params.tree.clone().criterion(Criterion::SquaredError);
        let cfg = TreeConfig::from_params(Checked::new(&tree_params)?, prep.p)?;
        let n = prep.n;
        let w_sum: f64 = sw.iter().sum();

        // Targets and the loss.
        let (loss, n_classes, labels, values) = match data.target_storage() {
            Target::Classes { .. } => {
                let k = data.n_classes();
                if k < 2 {
                    return Err(Error::TargetKind(format!(
                        "gradient boosting needs at least two classes; dataset '{}' has {k}",
                        data.name()
                    )));
                }
                let y: Vec<usize> = data.labels()?;
                let loss = if k == 2 {
                    GbLoss::BinomialDeviance
                } else {
                    GbLoss::MultinomialDeviance
                };
                (loss, k, y, Vec::new())
            }
            Target::Real(_) => (GbLoss::SquaredError, 0, Vec::new(), data.target_values()),
            Target::None => {
                return Err(Error::TargetKind(format!(
                    "dataset '{}' has no target to learn from",
                    data.name()
                )))
            }
        };
        let kk = if loss == GbLoss::MultinomialDeviance {
            n_classes
        } else {
            1
        };

        // Initial raw predictions.
        let init: Vec<f64> = match loss {
            GbLoss::SquaredError => {
                vec![sw.iter().zip(&values).map(|(w, y)| w * y).sum::<f64>() / w_sum]
            }
            GbLoss::BinomialDeviance => {
                let pos: f64 = sw
                    .iter()
                    .zip(&labels)
                    .filter(|(_, &y)| y == 1)
                    .map(|(w, _)| w)
                    .sum();
                let p = (pos / w_sum).clamp(PRIOR_EPS, 1.0 - PRIOR_EPS);
                vec![(p / (1.0 - p)).ln()]
            }
            GbLoss::MultinomialDeviance => {
                let mut pk = vec![0.0; n_classes];
                for (w, &y) in sw.iter().zip(&labels) {
                    pk[y] += w;
                }
                pk.iter()
                    .map(|p| (p / w_sum).clamp(PRIOR_EPS, 1.0 - PRIOR_EPS).ln())
                    .collect()
            }
        };
        let mut raw: Vec<f64> = (0..n).flat_map(|_| init.iter().copied()).collect();

        let mut rng = Rng::new(params.seed);
        let n_inbag = ((params.subsample * n as f64) as usize).max(1);
        let mut trees = Vec::with_capacity(params.n_estimators * kk);
        let mut train_loss = Vec::with_capacity(params.n_estimators);
        let mut in_bag = vec![true; n];
        let mut tree_w = sw.clone();
        let mut residual = vec![0.0; n];
        let mut prob = vec![0.0; n_classes.max(1)];
        let mut leaves = vec![0usize; n];
        let mut scratch = Scratch::default();
        let kf = n_classes as f64;
        for stage in 0..params.n_estimators {
            if n_inbag < n {
                in_bag.iter_mut().for_each(|b| *b = false);
                for i in rng.sample_indices(n, n_inbag) {
                    in_bag[i] = true;
                }
                for ((tw, &w), &b) in tree_w.iter_mut().zip(&sw).zip(&in_bag) {
                    *tw = if b { w } else { 0.0 };
                }
            }
            let raw_before = raw.clone();
            for k in 0..kk {
                // Negative gradient at the stage's starting point.
                for i in 0..n {
                    let r = &raw_before[i * kk..(i + 1) * kk];
                    residual[i] = match loss {
                        GbLoss::SquaredError => values[i] - r[0],
                        GbLoss::BinomialDeviance => labels[i] as f64 - expit(r[0]),
                        GbLoss::MultinomialDeviance => {
                            softmax(r, &mut prob);
                            f64::from(u8::from(labels[i] == k)) - prob[k]
                        }
                    };
                }
                let index = (stage * kk + k) as u64;
                let mut tree_draws = Draws::Native(Rng::new(derive_seed(params.seed, index)));
                let mut tree = grow(
                    &prep,
                    TargetRef::Values(&residual),
                    &tree_w,
                    &cfg,
                    &mut tree_draws,
                    &mut scratch,
                );
                for (i, l) in leaves.iter_mut().enumerate() {
                    *l = tree.leaf_of_prepared(&prep, i);
                }
                if loss != GbLoss::SquaredError {
                    // One Newton step per leaf on the in-bag rows.
                    let mut num = vec![0.0; tree.n_nodes()];
                    let mut den = vec![0.0; tree.n_nodes()];
                    for i in 0..n {
                        if !in_bag[i] {
                            continue;
                        }
                        let (r, w) = (residual[i], sw[i]);
                        let y = match loss {
                            GbLoss::BinomialDeviance => labels[i] as f64,
                            _ => f64::from(u8::from(labels[i] == k)),
                        };
                        num[leaves[i]] += w * r;
                        den[leaves[i]] += w * (y - r) * (1.0 - y + r);
                    }
                    for leaf in tree.leaf_ids() {
                        let mut nu = num[leaf];
                        if loss == GbLoss::MultinomialDeviance {
                            nu *= (kf - 1.0) / kf;
                        }
                        let d = den[leaf];
                        tree.set_value(leaf, if d.abs() < 1e-150 { 0.0 } else { nu / d });
                    }
                }
                for i in 0..n {
                    raw[i * kk + k] += params.learning_rate * tree.value(leaves[i])[0];
                }
                trees.push(tree);
            }
            // Weighted training loss on the in-bag rows.
            let (mut l, mut wsum) = (0.0, 0.0);
            for i in 0..n {
                if !in_bag[i] {
                    continue;
                }
                let r = &raw[i * kk..(i + 1) * kk];
                let li = match loss {
                    GbLoss::SquaredError => (values[i] - r[0]).powi(2),
                    GbLoss::BinomialDeviance => softplus(r[0]) - labels[i] as f64 * r[0],
                    GbLoss::MultinomialDeviance => log_sum_exp(r) - r[labels[i]],
                };
                l += sw[i] * li;
                wsum += sw[i];
            }
            train_loss.push(if wsum > 0.0 { l / wsum } else { 0.0 });
        }
        let coverage = rules::training_coverage(&trees, &prep);
        Ok(GradientBoosting {
            trees,
            trees_per_stage: kk,
            init,
            learning_rate: params.learning_rate,
            loss,
            train_loss,
            n_classes,
            n_features: prep.p,
            encoder,
            coverage,
        })
    }

    /// rc-tree's typed weight checks (as
    /// [`crate::DecisionTreeParams`]'s).
    fn check_weights(&self, data: &Dataset, weights: &[f64]) -> Result<()> {
        check_weight_values(weights, data.n_rows())
    }
}

impl Fitted for GradientBoosting {
    fn encoder(&self) -> &Encoder {
        &self.encoder
    }
}

impl GradientBoosting {
    /// The regression trees, stage-major (`trees_per_stage` per stage).
    pub fn trees(&self) -> &[Tree] {
        &self.trees
    }

    /// Trees per stage: the number of classes for multinomial deviance,
    /// otherwise 1.
    pub fn trees_per_stage(&self) -> usize {
        self.trees_per_stage
    }

    /// Number of stages.
    pub fn n_stages(&self) -> usize {
        self.trees.len() / self.trees_per_stage.max(1)
    }

    /// The initial raw prediction (log-odds, log priors, or mean).
    pub fn init(&self) -> &[f64] {
        &self.init
    }

    /// The learning rate (every tree's estimator weight).
    pub fn learning_rate(&self) -> f64 {
        self.learning_rate
    }

    /// The loss minimised.
    pub fn loss(&self) -> GbLoss {
        self.loss
    }

    /// Weighted training loss after each stage, on the stage's in-bag
    /// rows: mean negative log-likelihood for the deviances, mean squared
    /// error for regression.
    pub fn train_loss(&self) -> &[f64] {
        &self.train_loss
    }

    /// Number of classes (0 for regression).
    pub fn n_classes(&self) -> usize {
        self.n_classes
    }

    /// The features the trees split (the encoded training features: one
    /// indicator per level of a categorical column); the rules index
    /// them.
    pub fn features(&self) -> &[Feature] {
        self.encoder.encoded_features()
    }

    /// Class names (empty for regression).
    pub fn class_names(&self) -> &[String] {
        self.encoder.schema().classes()
    }

    /// Raw scores, row-major `n × trees_per_stage`: `init + lr · Σ tree
    /// values` (log-odds for binomial, per-class scores for multinomial,
    /// predictions for regression).
    pub fn decision_function(&self, data: &Dataset) -> Result<Vec<f64>> {
        let data = encode(&self.encoder, data)?;
        let rows = Rows::new(&data, self.n_features)?;
        let kk = self.trees_per_stage;
        let mut out: Vec<f64> = (0..rows.n)
            .flat_map(|_| self.init.iter().copied())
            .collect();
        for (j, t) in self.trees.iter().enumerate() {
            let leaves = t.leaves_of_rows(&rows);
            for (o, &leaf) in out.chunks_mut(kk).zip(&leaves) {
                o[j % kk] += self.learning_rate * t.value(leaf)[0];
            }
        }
        Ok(out)
    }

    /// Class probabilities, row-major `n × k` (classification only).
    pub fn predict_proba(&self, data: &Dataset) -> Result<Vec<f64>> {
        let raw = self.decision_function(data)?;
        match self.loss {
            GbLoss::BinomialDeviance => Ok(raw
                .iter()
                .flat_map(|&r| {
                    let p = expit(r);
                    [1.0 - p, p]
                })
                .collect()),
            GbLoss::MultinomialDeviance => {
                let k = self.n_classes;
                let mut out = vec![0.0; raw.len()];
                for (o, r) in out.chunks_mut(k).zip(raw.chunks(k)) {
                    softmax(r, o);
                }
                Ok(out)
            }
            GbLoss::SquaredError => Err(Error::TargetKind(
                "predict_proba needs a classifier; use predict_values".into(),
            )),
        }
    }

    /// Predicted class of every row (ties to the lowest class).
    pub fn predict_labels(&self, data: &Dataset) -> Result<Vec<usize>> {
        let k = self.n_classes;
        Ok(self
            .predict_proba(data)?
            .chunks(k)
            .map(rulecover_core::metrics::argmax)
            .collect())
    }

    /// Predicted values (regression only).
    pub fn predict_values(&self, data: &Dataset) -> Result<Vec<f64>> {
        if self.loss != GbLoss::SquaredError {
            return Err(Error::TargetKind(
                "predict_values needs a regressor; use predict_proba".into(),
            ));
        }
        self.decision_function(data)
    }

    /// The leaf of every row in every tree: `apply(data)?[tree][row]`.
    pub fn apply(&self, data: &Dataset) -> Result<Vec<Vec<usize>>> {
        rules::apply_trees(&self.trees, &encode(&self.encoder, data)?, self.n_features)
    }

    /// Statistics of the rows of `data` in every leaf, in pool order.
    pub fn leaf_stats(&self, data: &Dataset, weights: Option<&[f64]>) -> Result<Vec<LeafStats>> {
        let data = encode(&self.encoder, data)?;
        rules::ensemble_leaf_stats(&self.trees, &data, self.n_features, weights)
    }

    /// Mean over trees of the (root-weight scaled) impurity decreases,
    /// normalised to sum to 1 (scikit-learn).
    pub fn feature_importances(&self) -> Vec<f64> {
        mean_importances(&self.trees, self.n_features, Tree::raw_importances)
    }

    /// All leaves as a rule set: outcome = the leaf value (Newton step or
    /// mean residual), weight = the learning rate. The raw score of a row
    /// is `init` plus the weighted values of the rules it satisfies (per
    /// class for multinomial deviance: tree `j` scores class
    /// `j % trees_per_stage`).
    fn to_rule_set(&self) -> RuleSet {
        rules::rule_set_of(
            &self.trees,
            &self.coverage,
            self.features(),
            self.class_names(),
            rules::leaf_outcome,
            |_| self.learning_rate,
        )
    }
}

impl Predict for GradientBoosting {
    type Error = Error;

    /// Class probabilities for classification, values for regression.
    fn predict(&self, data: &Dataset) -> Result<Predictions> {
        if self.loss == GbLoss::SquaredError {
            Ok(Predictions::Values(self.predict_values(data)?))
        } else {
            Ok(Predictions::Classes {
                n_classes: self.n_classes,
                proba: self.predict_proba(data)?,
            })
        }
    }
}

impl RuleModel for GradientBoosting {
    /// All leaves of all trees.
    fn n_rules(&self) -> usize {
        self.trees.iter().map(Tree::n_leaves).sum()
    }

    fn rule_lengths(&self) -> Vec<usize> {
        rules::leaf_depths(&self.trees)
    }

    fn render_rules(&self) -> String {
        self.to_rule_set().to_string()
    }

    fn rule_set(&self) -> RuleSet {
        self.to_rule_set()
    }
}

impl RuleSource for GradientBoosting {
    /// All leaves of the regression trees: trees in stage-major order,
    /// leaves by increasing node id; estimator weight = learning rate.
    fn rule_pool(&self) -> Vec<PoolRule> {
        rules::pool_of(&self.trees, |_| self.learning_rate)
    }

    /// Coverage by routing the rows through the trees.
    fn pool_coverage(&self, data: &Dataset) -> rulecover_core::Result<CoverageMatrix> {
        let data = encode(&self.encoder, data)?;
        rules::coverage_of(&self.trees, &data, self.n_features)
    }
}

/// The serialized form of [`GradientBoosting`], checked on deserialization so a
/// corrupted or hand-edited model is an error rather than a panic later.
#[derive(Deserialize)]
struct GradientBoostingRepr {
    trees: Vec<Tree>,
    trees_per_stage: usize,
    init: Vec<f64>,
    learning_rate: f64,
    loss: GbLoss,
    train_loss: Vec<f64>,
    n_classes: usize,
    n_features: usize,
    encoder: Encoder,
    coverage: Vec<Vec<u32>>,
}

impl TryFrom<GradientBoostingRepr> for GradientBoosting {
    type Error = String;

    fn try_from(r: GradientBoostingRepr) -> std::result::Result<Self, String> {
        let GradientBoostingRepr {
            trees,
            trees_per_stage,
            init,
            learning_rate,
            loss,
            train_loss,
            n_classes,
            n_features,
            encoder,
            coverage,
        } = r;
        let model = GradientBoosting {
            trees,
            trees_per_stage,
            init,
            learning_rate,
            loss,
            train_loss,
            n_classes,
            n_features,
            encoder,
            coverage,
        };
        rules::check_coverage(&model.trees, &model.coverage)?;
        let kk = model.trees_per_stage;
        let consistent_loss = match model.loss {
            GbLoss::BinomialDeviance => kk == 1 && model.n_classes == 2,
            GbLoss::MultinomialDeviance => kk == model.n_classes && kk > 2,
            GbLoss::SquaredError => kk == 1 && model.n_classes == 0,
        };
        if !consistent_loss
            || model.init.len() != kk
            || model.trees.len() % kk != 0
            || model
                .trees
                .iter()
                .any(|t| t.n_features() != model.n_features || t.is_classifier())
        {
            return Err("gradient boosting: inconsistent loss, classes, init or trees".into());
        }
        if model.features().len() != model.n_features
            || model.class_names().len() != model.n_classes
        {
            return Err(
                "gradient boosting: the encoder disagrees with the trees on features or classes"
                    .into(),
            );
        }
        Ok(model)
    }
}
