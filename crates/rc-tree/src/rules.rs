//! Rules out of trees: every leaf as the conjunction of the conditions on
//! its root-to-leaf path, leaf statistics computed on any dataset, rule
//! pools and their coverage for ensembles.

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use rulecover_core::{
    Antecedent, Condition, CoverageMatrix, Dataset, Feature, Outcome, PoolRule, Rule, RuleSet,
    Target, WeightedRule,
};

use crate::data::{check_weights, Prepared, Rows};
use crate::error::Result;
use crate::tree::Tree;

/// Statistics of the rows of a dataset that a tree routes into one leaf.
///
/// Computed on whatever data is passed (e.g. a whole training fold, not
/// only a tree's bootstrap sample). Impurities use the *unweighted* class
/// counts, as MIRCO and RCBoost do.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LeafStats {
    /// Index of the estimator (tree) in its ensemble (0 for a single tree).
    pub estimator: usize,
    /// Leaf node id.
    pub node: usize,
    /// Number of rows in the leaf.
    pub n_rows: usize,
    /// Their total weight (`n_rows` when no weights are given).
    pub weight: f64,
    /// Rows per class (empty for a real-valued target).
    pub class_counts: Vec<usize>,
    /// Weight per class (empty for a real-valued target).
    pub weighted_class_counts: Vec<f64>,
    /// Gini impurity `1 − Σ p_k²` of the unweighted class shares (0 for an
    /// empty leaf or a real target).
    pub gini: f64,
    /// Entropy `−Σ p_k log2 p_k` of the unweighted class shares, in bits.
    pub entropy: f64,
    /// Mean target value of the rows (class labels count as numbers for a
    /// class target; 0 for an empty leaf).
    pub mean: f64,
    /// Mean squared deviation of the target from `mean` (MIRCO's
    /// regression cost).
    pub mse: f64,
}

impl Tree {
    /// Every leaf as `(node id, rule)`, in increasing node id. A rule lists
    /// the conditions of the root-to-leaf path in order: `x <= t` for a
    /// left branch, `x > t` for a right branch, with `t` the node's
    /// `rule_threshold`. Repeated features are kept (nothing simplified).
    pub fn leaf_rules(&self) -> Vec<(usize, Rule)> {
        let parents = self.parents();
        let mut out = Vec::with_capacity(self.n_leaves());
        for leaf in self.leaf_ids() {
            let mut conds = Vec::new();
            let mut id = leaf;
            while parents[id].0 != usize::MAX {
                let (p, is_left) = parents[id];
                if let Some(split) = self.node(p).and_then(|n| n.split) {
                    conds.push(if is_left {
                        Condition::le(split.feature, split.rule_threshold)
                    } else {
                        Condition::gt(split.feature, split.rule_threshold)
                    });
                }
                id = p;
            }
            conds.reverse();
            out.push((leaf, Rule::new(conds)));
        }
        out
    }

    /// Statistics of the rows of `data` in every leaf (increasing node id),
    /// optionally with one weight per row.
    pub fn leaf_stats(&self, data: &Dataset, weights: Option<&[f64]>) -> Result<Vec<LeafStats>> {
        if let Some(w) = weights {
            check_weights(w, data.n_rows())?;
        }
        let rows = Rows::new(data, self.n_features())?;
        let leaves = self.leaves_of_rows(&rows);
        Ok(stats_of_leaves(self, 0, &leaves, data, weights))
    }
}

/// Leaf statistics of one tree given the leaf of every row.
pub(crate) fn stats_of_leaves(
    tree: &Tree,
    estimator: usize,
    leaf_of_row: &[usize],
    data: &Dataset,
    weights: Option<&[f64]>,
) -> Vec<LeafStats> {
    let leaf_ids = tree.leaf_ids();
    let mut slot = vec![usize::MAX; tree.n_nodes()];
    for (s, &id) in leaf_ids.iter().enumerate() {
        slot[id] = s;
    }
    let k = data.n_classes();
    let classes = matches!(data.target_storage(), Target::Classes { .. });
    let mut stats: Vec<LeafStats> = leaf_ids
        .iter()
        .map(|&node| LeafStats {
            estimator,
            node,
            n_rows: 0,
            weight: 0.0,
            class_counts: vec![0; if classes { k } else { 0 }],
            weighted_class_counts: vec![0.0; if classes { k } else { 0 }],
            gini: 0.0,
            entropy: 0.0,
            mean: 0.0,
            mse: 0.0,
        })
        .collect();
    let y = data.target_values();
    for (i, &leaf) in leaf_of_row.iter().enumerate() {
        let s = &mut stats[slot[leaf]];
        let w = weights.map_or(1.0, |w| w[i]);
        s.n_rows += 1;
        s.weight += w;
        s.mean += y[i];
        if classes {
            let c = data.label(i);
            s.class_counts[c] += 1;
            s.weighted_class_counts[c] += w;
        }
    }
    for s in &mut stats {
        if s.n_rows > 0 {
            s.mean /= s.n_rows as f64;
        }
    }
    for (i, &leaf) in leaf_of_row.iter().enumerate() {
        let s = &mut stats[slot[leaf]];
        let d = y[i] - s.mean;
        s.mse += d * d;
    }
    for s in &mut stats {
        if s.n_rows > 0 {
            let n = s.n_rows as f64;
            s.mse /= n;
            if classes {
                let mut sq = 0.0;
                let mut h = 0.0;
                for &c in &s.class_counts {
                    let p = c as f64 / n;
                    sq += p * p;
                    if p > 0.0 {
                        h -= p * p.log2();
                    }
                }
                s.gini = 1.0 - sq;
                s.entropy = h;
            }
        }
    }
    stats
}

/// The leaf of every row for every tree: `out[t][i]`.
pub(crate) fn apply_trees(
    trees: &[Tree],
    data: &Dataset,
    n_features: usize,
) -> Result<Vec<Vec<usize>>> {
    let rows = Rows::new(data, n_features)?;
    Ok(trees.par_iter().map(|t| t.leaves_of_rows(&rows)).collect())
}

/// Leaf statistics of all trees, in pool order (tree, increasing leaf id).
pub(crate) fn ensemble_leaf_stats(
    trees: &[Tree],
    data: &Dataset,
    n_features: usize,
    weights: Option<&[f64]>,
) -> Result<Vec<LeafStats>> {
    if let Some(w) = weights {
        check_weights(w, data.n_rows())?;
    }
    let leaves = apply_trees(trees, data, n_features)?;
    Ok(trees
        .par_iter()
        .zip(&leaves)
        .enumerate()
        .map(|(e, (t, l))| stats_of_leaves(t, e, l, data, weights))
        .collect::<Vec<_>>()
        .into_iter()
        .flatten()
        .collect())
}

/// Every leaf of every tree as a pool rule: trees in order, leaves by
/// increasing node id.
pub(crate) fn pool_of(trees: &[Tree], estimator_weight: impl Fn(usize) -> f64) -> Vec<PoolRule> {
    let mut pool = Vec::new();
    for (e, t) in trees.iter().enumerate() {
        let w = estimator_weight(e);
        for (node, rule) in t.leaf_rules() {
            pool.push(PoolRule {
                rule,
                estimator: e,
                node,
                estimator_weight: w,
            });
        }
    }
    pool
}

/// The class each leaf of [`pool_of`] predicts in its own tree (the argmax
/// of its stored class weights, ties to the lowest class), in the same
/// order; `None` when a tree is a regression tree.
pub(crate) fn pool_classes_of(trees: &[Tree]) -> Option<Vec<usize>> {
    if !trees.iter().all(Tree::is_classifier) {
        return None;
    }
    Some(
        trees
            .iter()
            .flat_map(|t| {
                t.leaf_ids()
                    .into_iter()
                    .map(move |id| rulecover_core::metrics::argmax(t.value(id)))
            })
            .collect(),
    )
}

/// Which rows of `data` each pool rule covers, computed by routing the
/// rows through the trees (equal to evaluating the rules).
pub(crate) fn coverage_of(
    trees: &[Tree],
    data: &Dataset,
    n_features: usize,
) -> rulecover_core::Result<CoverageMatrix> {
    let leaves = apply_trees(trees, data, n_features)?;
    let n = data.n_rows();
    let columns: Vec<Vec<Vec<u32>>> = trees
        .par_iter()
        .zip(&leaves)
        .map(|(t, l)| {
            let ids = t.leaf_ids();
            let mut slot = vec![usize::MAX; t.n_nodes()];
            for (s, &id) in ids.iter().enumerate() {
                slot[id] = s;
            }
            let mut cols = vec![Vec::new(); ids.len()];
            for (i, &leaf) in l.iter().enumerate() {
                cols[slot[leaf]].push(i as u32);
            }
            cols
        })
        .collect();
    Ok(CoverageMatrix::from_columns(
        n,
        columns.into_iter().flatten().collect(),
    ))
}

/// How many rows of the training matrix reach each node of each tree
/// (`out[tree][node]`): the rules' training coverage, recorded at fit.
pub(crate) fn training_coverage(trees: &[Tree], data: &Prepared) -> Vec<Vec<u32>> {
    trees.par_iter().map(|t| t.rows_reaching(data)).collect()
}

/// Checks (on deserialization) that there is one training count per node
/// of every tree.
pub(crate) fn check_coverage(trees: &[Tree], coverage: &[Vec<u32>]) -> Result<(), String> {
    if coverage.len() != trees.len()
        || trees
            .iter()
            .zip(coverage)
            .any(|(t, c)| c.len() != t.n_nodes())
    {
        return Err("the training coverage does not have one count per node of every tree".into());
    }
    Ok(())
}

/// A rule set of the leaves of `trees` with the given outcome and weight
/// per leaf; a rule's coverage is the number of training rows that reach
/// its leaf (`coverage[tree][node]`, from [`training_coverage`]).
pub(crate) fn rule_set_of(
    trees: &[Tree],
    coverage: &[Vec<u32>],
    features: &[Feature],
    class_names: &[String],
    outcome: impl Fn(&Tree, usize) -> Outcome,
    weight: impl Fn(usize) -> f64,
) -> RuleSet {
    let mut rules = Vec::new();
    for (e, t) in trees.iter().enumerate() {
        for (node, rule) in t.leaf_rules() {
            rules.push(WeightedRule {
                antecedent: Antecedent::Conjunction(rule),
                outcome: outcome(t, node),
                weight: weight(e),
                coverage: coverage[e][node] as usize,
                for_class: None,
            });
        }
    }
    RuleSet {
        features: features.to_vec(),
        class_names: class_names.to_vec(),
        rules,
    }
}

/// A leaf's outcome: its weighted class counts, or its value.
pub(crate) fn leaf_outcome(t: &Tree, node: usize) -> Outcome {
    if t.is_classifier() {
        Outcome::ClassCounts(t.value(node).to_vec())
    } else {
        Outcome::Value(t.value(node).first().copied().unwrap_or(0.0))
    }
}

/// A leaf's outcome as normalised class probabilities (or its value).
pub(crate) fn leaf_proba_outcome(t: &Tree, node: usize) -> Outcome {
    if t.is_classifier() {
        let mut p = vec![0.0; t.n_classes()];
        t.leaf_proba_into(node, &mut p);
        Outcome::ClassCounts(p)
    } else {
        leaf_outcome(t, node)
    }
}

/// Lengths (path conditions) of all leaves of all trees.
pub(crate) fn leaf_depths(trees: &[Tree]) -> Vec<usize> {
    trees
        .iter()
        .flat_map(|t| {
            t.leaf_ids()
                .into_iter()
                .map(move |id| t.node(id).map_or(0, |n| n.depth))
        })
        .collect()
}
