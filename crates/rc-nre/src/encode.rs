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
//! leaf's support.
//!
//! The tree is grown on the raw features (CART's partition is invariant
//! under the affine standardisation, and growing it on raw values makes it
//! exactly the tree rc-tree grows for the same rows and seed) and each
//! threshold is mapped into standardised space for the network: `t =
//! (T − mean)/sd`, where `T` is rc-tree's `rule_threshold` (the float64
//! threshold with `x ≤ T` exactly when the tree sends `x` left).
//! Floating-point subtraction and division by a positive number are
//! monotone, so `x ≤ T` implies `z(x) ≤ t` and `x > T` implies `z(x) ≥ t`:
//! the untrained network covers each row with the rule of the tree's leaf
//! for it. The tree's left condition `x ≤ T` is closed while Eq. 4's
//! `H(−z + a)` (with `H(0) = 0`) is open, and standardisation can round a
//! row with `x ≤ T` onto `z(x) = t` exactly (a test value equal to a
//! midpoint at 0: `T − x` is then below float64 resolution of `x − mean`),
//! which would leave the row in no rule; so a left unit's bias is the next
//! float64 above `t`. Only a row with `x > T` that rounds onto `t` — a
//! value within float64 rounding of the threshold, which no finite-precision
//! data set exhibits — is routed differently from the tree (left instead of
//! right).

use serde::{Deserialize, Serialize};

use rc_tree::Tree;

use crate::data::Standardizer;
use crate::error::{invalid, Result};
use crate::loss::Loss;
use crate::network::NeuralRules;

/// One decision node on a rule's path.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PathStep {
    /// Tree node id.
    pub node: usize,
    /// Feature (column of the training data) it splits.
    pub feature: usize,
    /// The threshold `t` (`z ≤ t` goes left) on standardised values: the
    /// tree's raw threshold `T` mapped as `(T − mean)/sd`.
    pub threshold: f64,
    /// The tree's threshold `T` on raw values (`x ≤ T` goes left).
    #[serde(default)]
    pub raw_threshold: f64,
    /// Whether the path goes to the left child.
    pub left: bool,
}

/// A tree encoded as neural rules, with where each rule came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EncodedTree {
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

/// Encodes the leaves of a binary classification tree grown on the raw
/// features as neural rules over the features standardised by
/// `standardizer` (fitted on the same training data).
pub fn encode_tree(tree: &Tree, standardizer: &Standardizer, deep: bool) -> Result<EncodedTree> {
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
                let raw = split.rule_threshold;
                let threshold = standardizer.standardize(split.feature, raw)?;
                steps.push(PathStep {
                    node: p,
                    feature: split.feature,
                    threshold,
                    raw_threshold: raw,
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
                (-1.0, next_up(step.threshold))
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
    Ok(EncodedTree {
        network,
        inputs,
        leaves,
        paths,
    })
}

/// The clip applied to a leaf's class-1 share before its log-odds is
/// taken ([`calibrate`], logistic loss): a pure leaf starts at
/// `logit(1 − 10⁻⁴) ≈ 9.2` rather than infinity, a Brier score at most
/// `10⁻⁸` per row from the tree's.
pub const CALIBRATION_CLIP: f64 = 1e-4;

/// The calibrated copy of a tree's untrained network ([`encode_tree`]'s
/// `network`, whose rule `k` came from leaf `leaves[k]` of `tree`): the
/// same units, `c_k = 0`, and an offset `d_k` on each rule's support
/// ([`NeuralRules::with_offsets`]) set so that `loss.proba(d_k)` is the
/// leaf's (weighted) share of class 1, `p_k`, the tree's own probability.
/// It predicts every row with its leaf's class frequency, as the tree
/// does: `d_k = logit(p_k)` for the logistic loss (with `p_k` clipped to
/// `[10⁻⁴, 1 − 10⁻⁴]`, [`CALIBRATION_CLIP`]), `d_k = 2 p_k − 1` (the
/// leaf's mean ±1 label) for the hinge and squared losses, whose
/// probabilities are `(1 + f)/2`.
///
/// The paper's start (`c_k = (n⁺ − n⁻)/n`, no offset) scores a row by `c_k`
/// times its distance to the leaf's nearest boundary, which is a sign but
/// not a probability: near a boundary every row reads ½. NRE trains from
/// the paper's start (the calibrated copy trains worse: its offsets give
/// the supports no gradient) and keeps this copy as its untrained model,
/// epoch 0 of early stopping ([`crate::NreInit::Calibrated`]).
pub fn calibrate(
    network: &NeuralRules,
    leaves: &[usize],
    tree: &Tree,
    loss: Loss,
) -> Result<NeuralRules> {
    if tree.n_classes() != 2 {
        return Err(invalid(
            "tree",
            format!("{} classes", tree.n_classes()),
            "NRE calibrates binary classification trees",
        ));
    }
    if leaves.len() != network.n_rules() {
        return Err(invalid(
            "leaves",
            leaves.len(),
            format!("need one leaf per rule ({})", network.n_rules()),
        ));
    }
    let mut out = network.clone().with_offsets();
    for (k, &leaf) in leaves.iter().enumerate() {
        let v = tree.value(leaf);
        let total = v.iter().sum::<f64>();
        let p = if total > 0.0 { v[1] / total } else { 0.5 };
        let d = match loss {
            Loss::Logistic => {
                let p = p.clamp(CALIBRATION_CLIP, 1.0 - CALIBRATION_CLIP);
                (p / (1.0 - p)).ln()
            }
            Loss::Hinge | Loss::Squared => 2.0 * p - 1.0,
        };
        out.set_output_weight(k, 0.0);
        out.set_rule_offset(k, d);
    }
    Ok(out)
}

/// The smallest float64 above `x` (finite `x`; `f64::next_up` needs a newer
/// compiler than the workspace's minimum).
fn next_up(x: f64) -> f64 {
    if x.is_nan() || x == f64::INFINITY {
        return x;
    }
    if x == 0.0 {
        return f64::from_bits(1);
    }
    let b = x.to_bits();
    f64::from_bits(if x > 0.0 { b + 1 } else { b - 1 })
}

#[cfg(test)]
mod tests {
    use super::next_up;

    #[test]
    fn next_up_is_the_adjacent_float() {
        for x in [-3.5, -1e-300, -0.0, 0.0, 1e-300, 2.0, 1e300] {
            let y = next_up(x);
            assert!(y > x, "{x}");
            // Nothing lies strictly between x and y.
            assert!((x + y) / 2.0 == x || (x + y) / 2.0 == y, "{x}");
        }
        assert_eq!(next_up(1.0), 1.0 + f64::EPSILON);
    }
}
