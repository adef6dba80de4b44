//! Random forests: bootstrap samples as integer weights, one seeded tree
//! per index grown in parallel with rayon and collected in order, so the
//! forest is identical for any number of threads.

use std::sync::Mutex;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use rulecover_core::rng::derive_seed;
use rulecover_core::{
    CheckParams, Checked, CoverageMatrix, Dataset, Encoder, Feature, Fit, Fitted, PoolRule,
    Predict, Predictions, RuleModel, RuleSet, RuleSource,
};

use crate::build::grow;
use crate::data::{check_weight_values, labels_for, Prepared, Rows};
use crate::decision_tree::fit_weights;
use crate::encode::{encode, fit_encoder};
use crate::error::{invalid, Error, Result};
use crate::params::{RandomForestParams, RandomStream};
use crate::rules::{self, LeafStats};
use crate::sklearn_random::{bootstrap_counts, estimator_seeds, Draws, RandR};
use crate::splitter::{Scratch, TreeConfig};
use crate::tree::Tree;
use rulecover_core::Rng;

/// Rows predicted per parallel task.
const CHUNK: usize = 256;

/// A fitted random forest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "RandomForestRepr")]
pub struct RandomForest {
    trees: Vec<Tree>,
    n_features: usize,
    encoder: Encoder,
    /// Training rows (of the whole data passed to fit, whatever their
    /// weight or bootstrap count) reaching each node, `[tree][node]`: the
    /// rules' coverage.
    coverage: Vec<Vec<u32>>,
}

impl CheckParams for RandomForestParams {
    type ParamError = Error;

    /// [`RandomForestParams::validate`].
    fn check_params(&self) -> Result<()> {
        self.validate()
    }
}

impl Fit for RandomForestParams {
    type Model = RandomForest;
    type Error = Error;

    /// Fits a forest, with one sample weight per row when given (finite,
    /// `>= 0`, not all zero): each tree's weights are the bootstrap counts
    /// times these.
    fn fit_checked(
        params: Checked<'_, Self>,
        data: &Dataset,
        weights: Option<&[f64]>,
    ) -> Result<RandomForest> {
        let (encoder, encoded) = fit_encoder(data, params.tree.encoding)?;
        let data = &encoded;
        let prep = Prepared::new(data)?;
        let labels = labels_for(data, params.tree.criterion)?;
        let user_w = fit_weights(data, weights)?;
        let cfg = TreeConfig::from_params(Checked::new(&params.tree)?, prep.p)?;
        let n = prep.n;
        let draws = params.max_samples.unwrap_or(n);
        if draws > n {
            return Err(invalid(
                "max_samples",
                draws,
                format!("the data has only {n} rows"),
            ));
        }
        let target = labels.as_target();
        let sklearn = params.tree.random_stream == RandomStream::Sklearn;
        // `validate` checked that a scikit-learn seed fits in 32 bits.
        let sk_seeds = if sklearn {
            estimator_seeds(params.seed as u32, params.n_estimators)
        } else {
            Vec::new()
        };
        // One job per tree, so a thread that runs out of trees steals a
        // single tree rather than waiting on a run of them queued behind the
        // other thread (rayon's default splitting leaves runs of about
        // n / (2 · threads) trees that cannot be stolen once started); the
        // buffers stay per thread, in a slot per pool thread (reused
        // capacity only: a tree does not depend on which buffers it gets).
        let pool: Vec<Mutex<Scratch>> = (0..rayon::current_num_threads().max(1))
            .map(|_| Mutex::default())
            .collect();
        let (trees, coverage): (Vec<Tree>, Vec<Vec<u32>>) = (0..params.n_estimators)
            .into_par_iter()
            .with_max_len(1)
            .map(|t| {
                let slot = rayon::current_thread_index().unwrap_or(0) % pool.len();
                // A busy slot (a job nested on the same thread) gets its own.
                let mut own = None;
                let mut guard = pool[slot].try_lock().ok();
                let scratch = match guard.as_deref_mut() {
                    Some(s) => s,
                    None => own.insert(Scratch::default()),
                };
                let (counts, mut draws) = if sklearn {
                    let seed = sk_seeds[t];
                    let counts = params.bootstrap.then(|| bootstrap_counts(seed, n, draws));
                    (counts, Draws::Sklearn(RandR::for_tree(seed)))
                } else {
                    let mut rng = Rng::new(derive_seed(params.seed, t as u64));
                    let counts = params.bootstrap.then(|| {
                        let mut counts = vec![0u32; n];
                        for _ in 0..draws {
                            counts[crate::draw::below(&mut rng, n)] += 1;
                        }
                        counts
                    });
                    (counts, Draws::Native(rng))
                };
                let w = match counts {
                    Some(counts) => counts
                        .iter()
                        .zip(&user_w)
                        .map(|(&c, &w)| c as f64 * w)
                        .collect(),
                    None => user_w.clone(),
                };
                let tree = grow(&prep, target, &w, &cfg, &mut draws, scratch);
                let coverage = tree.rows_reaching_grown(&prep, &w, &mut scratch.rows);
                (tree, coverage)
            })
            .unzip();
        Ok(RandomForest {
            trees,
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

impl Fitted for RandomForest {
    fn encoder(&self) -> &Encoder {
        &self.encoder
    }
}

impl RandomForest {
    /// The trees, in estimator order.
    pub fn trees(&self) -> &[Tree] {
        &self.trees
    }

    /// Number of trees.
    pub fn n_estimators(&self) -> usize {
        self.trees.len()
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

    /// Number of classes (0 for regression).
    pub fn n_classes(&self) -> usize {
        self.trees.first().map_or(0, Tree::n_classes)
    }

    /// Total number of leaves over all trees.
    pub fn n_leaves(&self) -> usize {
        self.trees.iter().map(Tree::n_leaves).sum()
    }

    /// Class probabilities, row-major `n × k`: the mean over trees of each
    /// tree's leaf class distribution (scikit-learn's `predict_proba`).
    pub fn predict_proba(&self, data: &Dataset) -> Result<Vec<f64>> {
        let k = self.n_classes();
        if k == 0 {
            return Err(Error::TargetKind(
                "predict_proba needs a classification forest; use predict_values".into(),
            ));
        }
        let data = encode(&self.encoder, data)?;
        let rows = Rows::new(&data, self.n_features)?;
        let mut out = vec![0.0; rows.n * k];
        let scale = 1.0 / self.trees.len() as f64;
        let cols = rows.columns();
        out.par_chunks_mut(CHUNK * k)
            .enumerate()
            .for_each(|(c, chunk)| {
                // Tree by tree over a block of rows: one tree's nodes stay in
                // cache; every row still sums the trees in order.
                let first = c * CHUNK;
                let mut leaves = vec![0usize; chunk.len() / k];
                let mut p = vec![0.0; k];
                for t in &self.trees {
                    t.leaves_into(&cols, first, &mut leaves);
                    for (o, &leaf) in chunk.chunks_mut(k).zip(&leaves) {
                        t.leaf_proba_into(leaf, &mut p);
                        for (a, b) in o.iter_mut().zip(&p) {
                            *a += b;
                        }
                    }
                }
                chunk.iter_mut().for_each(|v| *v *= scale);
            });
        Ok(out)
    }

    /// Predicted class of every row (ties to the lowest class).
    pub fn predict_labels(&self, data: &Dataset) -> Result<Vec<usize>> {
        let k = self.n_classes();
        Ok(self
            .predict_proba(data)?
            .chunks(k)
            .map(rulecover_core::metrics::argmax)
            .collect())
    }

    /// Mean prediction of the trees (regression forests).
    pub fn predict_values(&self, data: &Dataset) -> Result<Vec<f64>> {
        if self.n_classes() > 0 {
            return Err(Error::TargetKind(
                "predict_values needs a regression forest; use predict_proba".into(),
            ));
        }
        let data = encode(&self.encoder, data)?;
        let rows = Rows::new(&data, self.n_features)?;
        let scale = 1.0 / self.trees.len() as f64;
        let mut out = vec![0.0; rows.n];
        let cols = rows.columns();
        out.par_chunks_mut(CHUNK)
            .enumerate()
            .for_each(|(c, chunk)| {
                let first = c * CHUNK;
                let mut leaves = vec![0usize; chunk.len()];
                for t in &self.trees {
                    t.leaves_into(&cols, first, &mut leaves);
                    for (o, &leaf) in chunk.iter_mut().zip(&leaves) {
                        *o += t.value(leaf)[0];
                    }
                }
                chunk.iter_mut().for_each(|v| *v *= scale);
            });
        Ok(out)
    }

    /// The leaf of every row in every tree: `apply(data)?[tree][row]`.
    pub fn apply(&self, data: &Dataset) -> Result<Vec<Vec<usize>>> {
        rules::apply_trees(&self.trees, &encode(&self.encoder, data)?, self.n_features)
    }

    /// Statistics of the rows of `data` in every leaf of every tree, in
    /// [`RuleSource::rule_pool`] order (tree, then increasing leaf id).
    pub fn leaf_stats(&self, data: &Dataset, weights: Option<&[f64]>) -> Result<Vec<LeafStats>> {
        let data = encode(&self.encoder, data)?;
        rules::ensemble_leaf_stats(&self.trees, &data, self.n_features, weights)
    }

    /// Mean over trees (with at least one split) of the normalised
    /// impurity-decrease importances, normalised again (scikit-learn).
    pub fn feature_importances(&self) -> Vec<f64> {
        mean_importances(&self.trees, self.n_features, |t| t.feature_importances())
    }

    /// All leaves as a rule set: outcome = the leaf's class probabilities
    /// (or value), weight = 1 / number of trees, so the weighted sum of the
    /// rules a row satisfies is the forest's prediction.
    fn to_rule_set(&self) -> RuleSet {
        let w = 1.0 / self.trees.len() as f64;
        rules::rule_set_of(
            &self.trees,
            &self.coverage,
            self.features(),
            self.class_names(),
            rules::leaf_proba_outcome,
            |_| w,
        )
    }
}

/// Mean of per-tree importances over trees with a split, normalised to sum
/// to 1 (zeros when no tree has a split).
pub(crate) fn mean_importances(
    trees: &[Tree],
    p: usize,
    per_tree: impl Fn(&Tree) -> Vec<f64>,
) -> Vec<f64> {
    let mut acc = vec![0.0; p];
    let mut count = 0usize;
    for t in trees.iter().filter(|t| t.n_nodes() > 1) {
        for (a, v) in acc.iter_mut().zip(per_tree(t)) {
            *a += v;
        }
        count += 1;
    }
    if count == 0 {
        return acc;
    }
    let s: f64 = acc.iter().sum();
    if s > 0.0 {
        acc.iter_mut().for_each(|v| *v /= s);
    }
    acc
}

impl Predict for RandomForest {
    type Error = Error;

    /// Class probabilities for a classification forest, values for a
    /// regression forest.
    fn predict(&self, data: &Dataset) -> Result<Predictions> {
        if self.n_classes() > 0 {
            Ok(Predictions::Classes {
                n_classes: self.n_classes(),
                proba: self.predict_proba(data)?,
            })
        } else {
            Ok(Predictions::Values(self.predict_values(data)?))
        }
    }
}

impl RuleModel for RandomForest {
    /// All leaves of all trees.
    fn n_rules(&self) -> usize {
        self.n_leaves()
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

impl RuleSource for RandomForest {
    /// All leaves: trees in order, leaves by increasing node id; estimator
    /// weight 1.
    fn rule_pool(&self) -> Vec<PoolRule> {
        rules::pool_of(&self.trees, |_| 1.0)
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

/// The serialized form of [`RandomForest`], checked on deserialization so a
/// corrupted or hand-edited model is an error rather than a panic later.
#[derive(Deserialize)]
struct RandomForestRepr {
    trees: Vec<Tree>,
    n_features: usize,
    encoder: Encoder,
    coverage: Vec<Vec<u32>>,
}

impl TryFrom<RandomForestRepr> for RandomForest {
    type Error = String;

    fn try_from(r: RandomForestRepr) -> std::result::Result<Self, String> {
        let RandomForestRepr {
            trees,
            n_features,
            encoder,
            coverage,
        } = r;
        let model = RandomForest {
            trees,
            n_features,
            encoder,
            coverage,
        };
        rules::check_coverage(&model.trees, &model.coverage)?;
        let k = model.trees.first().map(Tree::n_classes);
        if model.trees.is_empty()
            || model
                .trees
                .iter()
                .any(|t| t.n_features() != model.n_features || Some(t.n_classes()) != k)
        {
            return Err("random forest: no trees, or trees disagree on features or classes".into());
        }
        if model.features().len() != model.n_features
            || model.class_names().len() != model.n_classes()
        {
            return Err(
                "random forest: the encoder disagrees with the trees on features or classes".into(),
            );
        }
        Ok(model)
    }
}
