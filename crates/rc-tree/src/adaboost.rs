//! AdaBoost with decision-tree base estimators, SAMME and SAMME.R, with
//! scikit-learn 0.22's semantics (the version the papers used).

use serde::{Deserialize, Serialize};

use rulecover_core::rng::derive_seed;
use rulecover_core::{
    CheckParams, Checked, CoverageMatrix, Dataset, Encoder, Feature, Fit, Fitted, PoolRule,
    Predict, Predictions, RuleModel, RuleSet, RuleSource,
};

use crate::build::grow;
use crate::data::{check_weight_values, class_labels, Labels, Prepared, Rows};
use crate::decision_tree::fit_weights;
use crate::encode::{encode, fit_encoder};
use crate::error::{Error, Result};
use crate::params::{AdaBoostAlgorithm, AdaBoostParams, RandomStream};
use crate::rules::{self, LeafStats};
use crate::sklearn_random::{estimator_seeds, Draws, RandR};
use crate::splitter::{Scratch, TreeConfig};
use crate::tree::Tree;
use rulecover_core::Rng;

/// `np.finfo(np.float64).eps`, the floor probabilities are clipped to.
pub(crate) const PROBA_EPS: f64 = f64::EPSILON;

/// A fitted AdaBoost classifier.
///
/// Boosting stops early when a tree fits the weighted training data
/// perfectly (that tree is kept with weight 1) and, for SAMME, when a tree
/// is no better than random guessing (that tree is discarded), as
/// scikit-learn does, so there may be fewer trees than `n_estimators`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "AdaBoostRepr")]
pub struct AdaBoost {
    trees: Vec<Tree>,
    estimator_weights: Vec<f64>,
    estimator_errors: Vec<f64>,
    algorithm: AdaBoostAlgorithm,
    learning_rate: f64,
    n_classes: usize,
    n_features: usize,
    encoder: Encoder,
    /// Training rows (of the whole data passed to fit, whatever their
    /// weight or bootstrap count) reaching each node, `[tree][node]`: the
    /// rules' coverage.
    coverage: Vec<Vec<u32>>,
}

impl CheckParams for AdaBoostParams {
    type ParamError = Error;

    /// [`AdaBoostParams::validate`].
    fn check_params(&self) -> Result<()> {
        self.validate()
    }
}

impl Fit for AdaBoostParams {
    type Model = AdaBoost;
    type Error = Error;

    /// Fits with initial sample weights when given (finite, `>= 0`, not
    /// all zero; normalised to sum to 1), else uniform ones.
    fn fit_checked(
        params: Checked<'_, Self>,
        data: &Dataset,
        weights: Option<&[f64]>,
    ) -> Result<AdaBoost> {
        let (encoder, encoded) = fit_encoder(data, params.tree.encoding)?;
        let data = &encoded;
        let prep = Prepared::new(data)?;
        let labels = class_labels(data)?;
        let Labels::Classes { y, k } = &labels else {
            return Err(Error::TargetKind("AdaBoost needs class labels".into()));
        };
        let k = *k;
        let mut sw = fit_weights(data, weights)?;
        let total: f64 = sw.iter().sum();
        sw.iter_mut().for_each(|w| *w /= total);
        let cfg = TreeConfig::from_params(Checked::new(&params.tree)?, prep.p)?;
        let n = prep.n;
        let kf = k as f64;
        let mut trees = Vec::new();
        let mut est_w = Vec::new();
        let mut est_err = Vec::new();
        let mut row_proba = vec![0.0; n * k];
        // `validate` checked that a scikit-learn seed fits in 32 bits.
        let sk_seeds = if params.tree.random_stream == RandomStream::Sklearn {
            estimator_seeds(params.seed as u32, params.n_estimators)
        } else {
            Vec::new()
        };
        let mut scratch = Scratch::default();
        for m in 0..params.n_estimators {
            let mut draws = if sk_seeds.is_empty() {
                Draws::Native(Rng::new(derive_seed(params.seed, m as u64)))
            } else {
                Draws::Sklearn(RandR::for_tree(sk_seeds[m]))
            };
            let tree = grow(
                &prep,
                labels.as_target(),
                &sw,
                &cfg,
                &mut draws,
                &mut scratch,
            );
            let mut incorrect = vec![false; n];
            for (i, pr) in row_proba.chunks_mut(k).enumerate() {
                tree.leaf_proba_into(tree.leaf_of_prepared(&prep, i), pr);
                incorrect[i] = rulecover_core::metrics::argmax(pr) != y[i] as usize;
            }
            let sw_sum: f64 = sw.iter().sum();
            let err: f64 = sw
                .iter()
                .zip(&incorrect)
                .filter(|(_, &bad)| bad)
                .map(|(w, _)| w)
                .sum::<f64>()
                / sw_sum;
            let last = m + 1 == params.n_estimators;
            if err <= 0.0 {
                trees.push(tree);
                est_w.push(1.0);
                est_err.push(0.0);
                break;
            }
            match params.algorithm {
                AdaBoostAlgorithm::SammeR => {
                    if !last {
                        let factor = -params.learning_rate * (kf - 1.0) / kf;
                        for (i, pr) in row_proba.chunks(k).enumerate() {
                            // Σ_c coding_c · ln p_c with coding 1 for the true
                            // class and −1/(K−1) for the others.
                            let mut s = 0.0;
                            for (c, &p) in pr.iter().enumerate() {
                                let lp = p.max(PROBA_EPS).ln();
                                s += if c == y[i] as usize {
                                    lp
                                } else {
                                    -lp / (kf - 1.0)
                                };
                            }
                            let e = factor * s;
                            if sw[i] > 0.0 || e < 0.0 {
                                sw[i] *= e.exp();
                            }
                        }
                    }
                    trees.push(tree);
                    est_w.push(1.0);
                    est_err.push(err);
                }
                AdaBoostAlgorithm::Samme => {
                    if err >= 1.0 - 1.0 / kf {
                        if trees.is_empty() {
                            return Err(Error::WorseThanRandom {
                                error: err,
                                n_classes: k,
                            });
                        }
                        break;
                    }
                    let alpha = params.learning_rate * (((1.0 - err) / err).ln() + (kf - 1.0).ln());
                    if !last {
                        for (w, &bad) in sw.iter_mut().zip(&incorrect) {
                            if bad && *w > 0.0 {
                                *w *= alpha.exp();
                            }
                        }
                    }
                    trees.push(tree);
                    est_w.push(alpha);
                    est_err.push(err);
                }
            }
            let s: f64 = sw.iter().sum();
            if !(s > 0.0 && s.is_finite()) {
                break;
            }
            if !last {
                sw.iter_mut().for_each(|w| *w /= s);
            }
        }
        let coverage = rules::training_coverage(&trees, &prep);
        Ok(AdaBoost {
            trees,
            estimator_weights: est_w,
            estimator_errors: est_err,
            algorithm: params.algorithm,
            learning_rate: params.learning_rate,
            n_classes: k,
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

impl Fitted for AdaBoost {
    fn encoder(&self) -> &Encoder {
        &self.encoder
    }
}

impl AdaBoost {
    /// The fitted trees, in boosting order.
    pub fn trees(&self) -> &[Tree] {
        &self.trees
    }

    /// Number of fitted trees.
    pub fn n_estimators(&self) -> usize {
        self.trees.len()
    }

    /// The weight α_m of each fitted tree (SAMME:
    /// `lr · (ln((1 − err)/err) + ln(K − 1))`; SAMME.R: 1; a tree that fit
    /// perfectly: 1). RUX uses these.
    pub fn estimator_weights(&self) -> &[f64] {
        &self.estimator_weights
    }

    /// The weighted training error of each fitted tree.
    pub fn estimator_errors(&self) -> &[f64] {
        &self.estimator_errors
    }

    /// SAMME or SAMME.R.
    pub fn algorithm(&self) -> AdaBoostAlgorithm {
        self.algorithm
    }

    /// Number of classes.
    pub fn n_classes(&self) -> usize {
        self.n_classes
    }

    /// The features the trees split (the encoded training features: one
    /// indicator per level of a categorical column); the rules index
    /// them.
    pub fn features(&self) -> &[Feature] {
        self.encoder.encoded_features()
    }

    /// Class names.
    pub fn class_names(&self) -> &[String] {
        self.encoder.schema().classes()
    }

    /// scikit-learn 0.22's `decision_function` before the binary collapse,
    /// row-major `n × k`: SAMME.R sums `(K−1)(ln p_c − mean_j ln p_j)` over
    /// trees, SAMME sums `α_m · [tree m predicts c]`; both divided by the
    /// sum of the estimator weights. The predicted class is the argmax.
    pub fn decision_scores(&self, data: &Dataset) -> Result<Vec<f64>> {
        let data = encode(&self.encoder, data)?;
        let rows = Rows::new(&data, self.n_features)?;
        let k = self.n_classes;
        let kf = k as f64;
        let mut out = vec![0.0; rows.n * k];
        let mut p = vec![0.0; k];
        let norm: f64 = self.estimator_weights.iter().sum();
        for (t, &alpha) in self.trees.iter().zip(&self.estimator_weights) {
            let leaves = t.leaves_of_rows(&rows);
            for (o, &leaf) in out.chunks_mut(k).zip(&leaves) {
                t.leaf_proba_into(leaf, &mut p);
                match self.algorithm {
                    AdaBoostAlgorithm::SammeR => {
                        if k > 1 {
                            p.iter_mut().for_each(|v| *v = v.max(PROBA_EPS).ln());
                            let mean = p.iter().sum::<f64>() / kf;
                            for (a, &lp) in o.iter_mut().zip(&p) {
                                *a += (kf - 1.0) * (lp - mean);
                            }
                        }
                    }
                    AdaBoostAlgorithm::Samme => {
                        o[rulecover_core::metrics::argmax(&p)] += alpha;
                    }
                }
            }
        }
        if norm > 0.0 {
            out.iter_mut().for_each(|v| *v /= norm);
        }
        Ok(out)
    }

    /// scikit-learn 0.22's `predict_proba`, row-major `n × k`: the
    /// (SAMME: α-weighted tree probabilities, SAMME.R: decision scores)
    /// averaged, then `exp(· / (K − 1))` normalised per row.
    pub fn predict_proba(&self, data: &Dataset) -> Result<Vec<f64>> {
        let k = self.n_classes;
        if k == 1 {
            let data = encode(&self.encoder, data)?;
            let rows = Rows::new(&data, self.n_features)?;
            return Ok(vec![1.0; rows.n]);
        }
        let kf = k as f64;
        let mut proba = match self.algorithm {
            AdaBoostAlgorithm::SammeR => self.decision_scores(data)?,
            AdaBoostAlgorithm::Samme => {
                let data = encode(&self.encoder, data)?;
                let rows = Rows::new(&data, self.n_features)?;
                let norm: f64 = self.estimator_weights.iter().sum();
                let mut out = vec![0.0; rows.n * k];
                let mut p = vec![0.0; k];
                for (t, &alpha) in self.trees.iter().zip(&self.estimator_weights) {
                    let leaves = t.leaves_of_rows(&rows);
                    for (o, &leaf) in out.chunks_mut(k).zip(&leaves) {
                        t.leaf_proba_into(leaf, &mut p);
                        for (a, &v) in o.iter_mut().zip(&p) {
                            *a += alpha * v;
                        }
                    }
                }
                out.iter_mut().for_each(|v| *v /= norm);
                out
            }
        };
        for o in proba.chunks_mut(k) {
            o.iter_mut().for_each(|v| *v = (*v / (kf - 1.0)).exp());
            let s: f64 = o.iter().sum();
            let s = if s == 0.0 { 1.0 } else { s };
            o.iter_mut().for_each(|v| *v /= s);
        }
        Ok(proba)
    }

    /// Predicted class of every row (scikit-learn's `predict`: the argmax
    /// of the decision scores, ties to the lowest class).
    pub fn predict_labels(&self, data: &Dataset) -> Result<Vec<usize>> {
        let k = self.n_classes;
        Ok(self
            .decision_scores(data)?
            .chunks(k)
            .map(rulecover_core::metrics::argmax)
            .collect())
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

    /// Estimator-weighted mean of the trees' normalised importances
    /// (scikit-learn).
    pub fn feature_importances(&self) -> Vec<f64> {
        let mut acc = vec![0.0; self.n_features];
        let norm: f64 = self.estimator_weights.iter().sum();
        for (t, &w) in self.trees.iter().zip(&self.estimator_weights) {
            for (a, v) in acc.iter_mut().zip(t.feature_importances()) {
                *a += w * v;
            }
        }
        if norm > 0.0 {
            acc.iter_mut().for_each(|v| *v /= norm);
        }
        acc
    }

    /// All leaves as a rule set: outcome = the leaf's class probabilities,
    /// weight = the tree's estimator weight.
    fn to_rule_set(&self) -> RuleSet {
        rules::rule_set_of(
            &self.trees,
            &self.coverage,
            self.features(),
            self.class_names(),
            rules::leaf_proba_outcome,
            |e| self.estimator_weights[e],
        )
    }
}

impl Predict for AdaBoost {
    type Error = Error;

    /// Per-row class scores whose argmax is scikit-learn's `predict`: for
    /// SAMME.R the `predict_proba` probabilities; for SAMME the normalised
    /// α-weighted votes (scikit-learn's SAMME `predict_proba` averages tree
    /// probabilities instead and can disagree with its own `predict`; it is
    /// available as [`AdaBoost::predict_proba`]).
    fn predict(&self, data: &Dataset) -> Result<Predictions> {
        let proba = match self.algorithm {
            AdaBoostAlgorithm::SammeR => self.predict_proba(data)?,
            AdaBoostAlgorithm::Samme => self.decision_scores(data)?,
        };
        Ok(Predictions::Classes {
            n_classes: self.n_classes,
            proba,
        })
    }
}

impl RuleModel for AdaBoost {
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

impl RuleSource for AdaBoost {
    /// All leaves: trees in boosting order, leaves by increasing node id;
    /// estimator weight α_m.
    fn rule_pool(&self) -> Vec<PoolRule> {
        rules::pool_of(&self.trees, |e| self.estimator_weights[e])
    }

    /// The argmax of each leaf's stored class weights (what the tree
    /// predicts there); `None` for a regression tree.
    fn pool_classes(&self) -> Option<Vec<usize>> {
        rules::pool_classes_of(&self.trees)
    }

    /// Coverage by routing the rows through the trees.
    fn pool_coverage(&self, data: &Dataset) -> rulecover_core::Result<CoverageMatrix> {
        let data = encode(&self.encoder, data)?;
        rules::coverage_of(&self.trees, &data, self.n_features)
    }
}

/// The serialized form of [`AdaBoost`], checked on deserialization so a
/// corrupted or hand-edited model is an error rather than a panic later.
#[derive(Deserialize)]
struct AdaBoostRepr {
    trees: Vec<Tree>,
    estimator_weights: Vec<f64>,
    estimator_errors: Vec<f64>,
    algorithm: AdaBoostAlgorithm,
    learning_rate: f64,
    n_classes: usize,
    n_features: usize,
    encoder: Encoder,
    coverage: Vec<Vec<u32>>,
}

impl TryFrom<AdaBoostRepr> for AdaBoost {
    type Error = String;

    fn try_from(r: AdaBoostRepr) -> std::result::Result<Self, String> {
        let AdaBoostRepr {
            trees,
            estimator_weights,
            estimator_errors,
            algorithm,
            learning_rate,
            n_classes,
            n_features,
            encoder,
            coverage,
        } = r;
        let model = AdaBoost {
            trees,
            estimator_weights,
            estimator_errors,
            algorithm,
            learning_rate,
            n_classes,
            n_features,
            encoder,
            coverage,
        };
        rules::check_coverage(&model.trees, &model.coverage)?;
        let m = model.trees.len();
        if m == 0
            || model.n_classes == 0
            || model.estimator_weights.len() != m
            || model.estimator_errors.len() != m
            || model
                .trees
                .iter()
                .any(|t| t.n_features() != model.n_features || t.n_classes() != model.n_classes)
        {
            return Err("AdaBoost: inconsistent trees, classes or estimator weights".into());
        }
        if model.features().len() != model.n_features
            || model.class_names().len() != model.n_classes
        {
            return Err(
                "AdaBoost: the encoder disagrees with the trees on features or classes".into(),
            );
        }
        Ok(model)
    }
}

impl rulecover_core::Validate for AdaBoost {
    /// The encoder and every tree hold together; the estimator weights
    /// and the learning rate are finite.
    fn validate(&self) -> rulecover_core::validate::Validity {
        use rulecover_core::validate::{all_finite, finite};
        self.encoder.validate().map_err(|e| e.within("encoder"))?;
        crate::tree::check_trees(&self.trees)?;
        all_finite("estimator_weights", &self.estimator_weights)?;
        finite(|| "learning_rate".into(), self.learning_rate)
    }
}
