//! §IV-A: every leaf of a fitted classification tree becomes a neural
//! rule.
//!
//! For the leaf's root-to-leaf path `n_1 … n_d` with splits `(f_j, t_j)`:
//! unit `j` has weight −1 on feature `f_j` and bias `+t_j` when the path
//! goes left (`x ≤ t`), weight +1 and bias `−t_j` when it goes right (Eq.
//! 4: `H(−x + t)` and `H(x − t)`), and weight 0 on every other feature the
//! tree uses. Features the tree never uses are not inputs at all. The
//! output weight `c_k` is the leaf's mean label on ±1 labels, `(n⁺ −
//! n⁻)/n`. The deep variant adds `V_k = I`, `b_k = 0`.
//!
//! The paper's prose gives the bias as `±|t|` (positive on a left branch);
//! that equals Eq. 4 only for `t ≥ 0`, and standardised thresholds are
//! often negative, so Eq. 4 is what is implemented: only it preserves the
//! leaf's support. `t` is rc-tree's `rule_threshold` (the float64
//! threshold with `x ≤ T` exactly when the tree sends `x` left).

use serde::{Deserialize, Serialize};

use rc_tree::Tree;

use crate::error::{invalid, Result};
use crate::network::NeuralRules;

/// One decision node on a rule's path.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PathStep {
    /// Tree node id.
    pub node: usize,
    /// Feature (column of the training data) it splits.
    pub feature: usize,
    /// The threshold `T` (`x ≤ T` goes left), on standardised values.
    pub threshold: f64,
    /// Whether the path goes to the left child.
    pub left: bool,
}

/// A tree encoded as neural rules, with where each rule came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Encoding {
    /// The network at initialisation.
    pub network: NeuralRules,
    /// The columns the tree splits on, increasing: the network's inputs
    /// `x_T`.
    pub inputs: Vec<usize>,
    /// Leaf node id of each rule (increasing).
    pub leaves: Vec<usize>,
    /// Root-first path of each rule.
    pub paths: Vec<Vec<PathStep>>,
}

/// Encodes the leaves of a binary classification tree (grown on
/// standardised data) as neural rules.
pub fn encode_tree(tree: &Tree, deep: bool) -> Result<Encoding> {
    if tree.n_classes() != 2 {
        return Err(invalid(
            "tree",
            format!("{} classes", tree.n_classes()),
            "NRE encodes binary classification trees",
        ));
    }
    let n = tree.n_nodes();
    if n == 0 {
        return Err(invalid("tree", "0 nodes", "the tree is empty"));
    }
    // Parent of each node and the branch taken to reach it.
    let mut parent: Vec<Option<(usize, bool)>> = vec![None; n];
    let mut used = std::collections::BTreeSet::new();
    for node in tree.nodes() {
        if let Some(s) = node.split {
            parent[s.left] = Some((node.id, true));
            parent[s.right] = Some((node.id, false));
            used.insert(s.feature);
        }
    }
    let inputs: Vec<usize> = used.into_iter().collect();
    let position = |f: usize| inputs.binary_search(&f).unwrap_or(0);
    let leaves = tree.leaf_ids();
    let mut paths = Vec::with_capacity(leaves.len());
    for &leaf in &leaves {
        let mut steps = Vec::new();
        let mut id = leaf;
        while let Some((p, left)) = parent[id] {
            if let Some(split) = tree.node(p).and_then(|nd| nd.split) {
                steps.push(PathStep {
                    node: p,
                    feature: split.feature,
                    threshold: split.rule_threshold,
                    left,
                });
            }
            id = p;
        }
        steps.reverse();
        paths.push(steps);
    }
    let units: Vec<usize> = paths.iter().map(Vec::len).collect();
    let mut network = NeuralRules::zeros(inputs.len(), units, deep);
    for (k, (path, &leaf)) in paths.iter().zip(&leaves).enumerate() {
        for (step, j) in path.iter().zip(network.rule_units(k)) {
            let col = position(step.feature);
            let (w, a) = if step.left {
                (-1.0, step.threshold)
            } else {
                (1.0, -step.threshold)
            };
            network.unit_weights_mut(j)[col] = w;
            network.set_unit_bias(j, a);
        }
        let v = tree.value(leaf);
        let total = v[0] + v[1];
        let c = if total > 0.0 {
            (v[1] - v[0]) / total
        } else {
            0.0
        };
        network.set_output_weight(k, c);
    }
    Ok(Encoding {
        network,
        inputs,
        leaves,
        paths,
    })
}
