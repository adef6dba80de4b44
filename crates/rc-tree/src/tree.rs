//! The fitted tree: flat node arrays in scikit-learn's depth-first
//! preorder numbering (root 0, then the whole left subtree, then the right
//! subtree).

use serde::{Deserialize, Serialize};

use rulecover_core::Dataset;

use crate::data::{FeatureClass, Prepared, Rows};
use crate::error::Result;

/// A binary decision tree. Node ids are preorder, left child first
/// (scikit-learn's numbering), so the ids of the leaves increase from left
/// to right.
///
/// An internal node sends a row left when `x[feature] <= rule_threshold`
/// (see [`NodeSplit`]). Classification trees store at every node the
/// weighted class counts of the training rows that reached it; regression
/// trees store their weighted mean.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "TreeRepr")]
pub struct Tree {
    n_features: usize,
    /// Number of classes; 0 for a regression tree.
    n_classes: usize,
    /// What traversal needs, 16 bytes per node; the left child of an
    /// internal node `id` is `id + 1` (preorder).
    nav: Vec<Nav>,
    /// scikit-learn's thresholds (0 for leaves).
    threshold: Vec<f64>,
    impurity: Vec<f64>,
    n_node_samples: Vec<u32>,
    weighted_n_node_samples: Vec<f64>,
    depth: Vec<u32>,
    /// `n_nodes × max(n_classes, 1)` values.
    value: Vec<f64>,
}

/// The split of an internal node.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NodeSplit {
    /// Feature (column) tested.
    pub feature: usize,
    /// scikit-learn's threshold: the float64 midpoint of two consecutive
    /// distinct float32 values of the feature.
    pub threshold: f64,
    /// The equivalent threshold on raw `f64` values: `x <= rule_threshold`
    /// exactly when `f32(x) <= threshold`. Rules use it.
    pub rule_threshold: f64,
    /// Id of the left child (`x <= rule_threshold`).
    pub left: usize,
    /// Id of the right child (`x > rule_threshold`).
    pub right: usize,
}

/// A view of one node.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Node<'a> {
    /// Node id (preorder).
    pub id: usize,
    /// Depth (the root has depth 0).
    pub depth: usize,
    /// Impurity of the training rows at the node (weighted, under the
    /// tree's criterion).
    pub impurity: f64,
    /// Number of distinct training rows with positive weight at the node.
    pub n_samples: usize,
    /// Their total weight.
    pub weighted_n_samples: f64,
    /// Weighted class counts (classification) or the value the node
    /// predicts (regression; for gradient boosting the leaf's Newton step).
    pub value: &'a [f64],
    /// The split, or `None` for a leaf.
    pub split: Option<NodeSplit>,
}

/// The traversal data of one node.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
struct Nav {
    /// The rule threshold (raw `f64` comparison); 0 for leaves.
    t: f64,
    /// Feature tested; 0 for leaves.
    f: u32,
    /// Right child; 0 marks a leaf (the root is never a child).
    r: u32,
}

/// What the builder records for one node.
pub(crate) struct NodeRecord {
    pub impurity: f64,
    pub n_samples: u32,
    pub weight: f64,
    pub depth: u32,
}

impl Tree {
    pub(crate) fn empty(n_features: usize, n_classes: usize) -> Tree {
        Tree {
            n_features,
            n_classes,
            nav: Vec::new(),
            threshold: Vec::new(),
            impurity: Vec::new(),
            n_node_samples: Vec::new(),
            weighted_n_node_samples: Vec::new(),
            depth: Vec::new(),
            value: Vec::new(),
        }
    }

    /// Reserves room for `nodes` more nodes (the builder's estimate, so
    /// the node arrays are not copied as they grow).
    pub(crate) fn reserve(&mut self, nodes: usize) {
        self.nav.reserve(nodes);
        self.threshold.reserve(nodes);
        self.impurity.reserve(nodes);
        self.n_node_samples.reserve(nodes);
        self.weighted_n_node_samples.reserve(nodes);
        self.depth.reserve(nodes);
        self.value.reserve(nodes * self.n_values());
    }

    /// Appends a node (as a leaf) and returns its id.
    pub(crate) fn push_node(&mut self, rec: NodeRecord, value: &[f64]) -> usize {
        let id = self.nav.len();
        self.nav.push(Nav { t: 0.0, f: 0, r: 0 });
        self.threshold.push(0.0);
        self.impurity.push(rec.impurity);
        self.n_node_samples.push(rec.n_samples);
        self.weighted_n_node_samples.push(rec.weight);
        self.depth.push(rec.depth);
        self.value.extend_from_slice(value);
        id
    }

    /// Turns node `id` into a split node (children are linked later).
    pub(crate) fn set_split(&mut self, id: usize, feature: usize, threshold: f64) {
        self.nav[id].f = feature as u32;
        self.nav[id].t = crate::threshold::rule_threshold(threshold);
        self.threshold[id] = threshold;
    }

    /// Links a child; the builder creates nodes in preorder, so a left child
    /// always has id `parent + 1`.
    pub(crate) fn link_child(&mut self, parent: usize, is_left: bool, child: usize) {
        debug_assert!(!is_left || child == parent + 1);
        if !is_left {
            self.nav[parent].r = child as u32;
        }
    }

    /// Overwrites the value of a node (gradient boosting's leaf values).
    pub(crate) fn set_value(&mut self, id: usize, value: f64) {
        let k = self.n_values();
        self.value[id * k] = value;
    }

    /// Checks the invariants traversal relies on (array lengths, children
    /// after their parent and in range, features in range).
    fn check(&self) -> std::result::Result<(), String> {
        let n = self.nav.len();
        let lens = [
            self.threshold.len(),
            self.impurity.len(),
            self.n_node_samples.len(),
            self.weighted_n_node_samples.len(),
            self.depth.len(),
        ];
        if n == 0
            || lens.iter().any(|&l| l != n)
            || Some(self.value.len()) != n.checked_mul(self.n_values())
        {
            return Err(format!("tree: inconsistent node arrays for {n} nodes"));
        }
        for (id, nav) in self.nav.iter().enumerate() {
            let r = nav.r as usize;
            if r != 0 && (r <= id + 1 || r >= n || nav.f as usize >= self.n_features) {
                return Err(format!("tree: node {id} has an invalid split"));
            }
        }
        Ok(())
    }

    /// Number of features of the training data.
    pub fn n_features(&self) -> usize {
        self.n_features
    }

    /// Number of classes (0 for a regression tree).
    pub fn n_classes(&self) -> usize {
        self.n_classes
    }

    /// True for a classification tree.
    pub fn is_classifier(&self) -> bool {
        self.n_classes > 0
    }

    /// Values stored per node: the number of classes, or 1.
    pub fn n_values(&self) -> usize {
        self.n_classes.max(1)
    }

    /// Number of nodes.
    pub fn n_nodes(&self) -> usize {
        self.nav.len()
    }

    /// Number of leaves.
    pub fn n_leaves(&self) -> usize {
        self.nav.iter().filter(|n| n.r == 0).count()
    }

    /// Depth of the deepest leaf (0 for a single leaf).
    pub fn max_depth(&self) -> usize {
        self.depth.iter().copied().max().unwrap_or(0) as usize
    }

    /// Whether node `id` is a leaf (false for ids out of range).
    pub fn is_leaf(&self, id: usize) -> bool {
        self.nav.get(id).is_some_and(|n| n.r == 0)
    }

    /// Ids of the leaves, increasing.
    pub fn leaf_ids(&self) -> Vec<usize> {
        (0..self.n_nodes())
            .filter(|&id| self.nav[id].r == 0)
            .collect()
    }

    /// Node `id`, or `None` when out of range.
    pub fn node(&self, id: usize) -> Option<Node<'_>> {
        if id >= self.n_nodes() {
            return None;
        }
        let k = self.n_values();
        let nav = self.nav[id];
        let split = (nav.r != 0).then(|| NodeSplit {
            feature: nav.f as usize,
            threshold: self.threshold[id],
            rule_threshold: nav.t,
            left: id + 1,
            right: nav.r as usize,
        });
        Some(Node {
            id,
            depth: self.depth[id] as usize,
            impurity: self.impurity[id],
            n_samples: self.n_node_samples[id] as usize,
            weighted_n_samples: self.weighted_n_node_samples[id],
            value: &self.value[id * k..(id + 1) * k],
            split,
        })
    }

    /// All nodes in id order.
    pub fn nodes(&self) -> impl Iterator<Item = Node<'_>> + '_ {
        (0..self.n_nodes()).filter_map(|id| self.node(id))
    }

    /// The stored values of node `id` (empty when out of range).
    pub fn value(&self, id: usize) -> &[f64] {
        let k = self.n_values();
        self.value.get(id * k..(id + 1) * k).unwrap_or(&[])
    }

    /// The leaves of rows `first..first + out.len()` of the columns `cols`
    /// (validated). Eight rows descend at a time with branch-free steps, so
    /// their memory accesses overlap; a lane that reaches its leaf takes
    /// the next row at once.
    pub(crate) fn leaves_into(&self, cols: &[&[f64]], first: usize, out: &mut [usize]) {
        const LANES: usize = 8;
        let nav = &self.nav;
        let len = out.len();
        let mut ids = [0usize; LANES];
        let mut rows = [usize::MAX; LANES];
        let mut next = 0;
        let mut active = 0;
        for lane in rows.iter_mut() {
            if next < len {
                *lane = next;
                next += 1;
                active += 1;
            }
        }
        while active > 0 {
            for j in 0..LANES {
                let r = rows[j];
                if r == usize::MAX {
                    continue;
                }
                let id = ids[j];
                let n = nav[id];
                if n.r == 0 {
                    out[r] = id;
                    ids[j] = 0;
                    if next < len {
                        rows[j] = next;
                        next += 1;
                    } else {
                        rows[j] = usize::MAX;
                        active -= 1;
                    }
                    continue;
                }
                let x = cols[n.f as usize][first + r];
                // Branch-free select: the comparison is unpredictable.
                let (left, right) = (id + 1, n.r as usize);
                let go_left = usize::from(x <= n.t).wrapping_neg();
                ids[j] = right ^ ((left ^ right) & go_left);
            }
        }
    }

    /// The leaf of training row `i` of a prepared matrix.
    #[inline]
    pub(crate) fn leaf_of_prepared(&self, data: &Prepared, i: usize) -> usize {
        let mut id = 0usize;
        loop {
            let n = self.nav[id];
            if n.r == 0 {
                return id;
            }
            let x = data.cols[n.f as usize][i] as f64;
            id = if x <= n.t { id + 1 } else { n.r as usize };
        }
    }

    /// How many rows of a prepared matrix reach each node (indexed by
    /// node id), whatever their weight.
    pub(crate) fn rows_reaching(&self, data: &Prepared) -> Vec<u32> {
        let mut count = vec![0u32; self.n_nodes()];
        let mut rows: Vec<u32> = (0..data.n as u32).collect();
        self.count_reaching(data, &mut rows, &mut count);
        count
    }

    /// [`Tree::rows_reaching`] for a tree just grown on `data` with
    /// `weights`: the rows with positive weight are those the builder
    /// partitioned, so a node's count is its `n_node_samples` plus the
    /// zero-weight rows (e.g. out of bag) reaching it, which alone are
    /// routed. `rows` is a reusable buffer.
    pub(crate) fn rows_reaching_grown(
        &self,
        data: &Prepared,
        weights: &[f64],
        rows: &mut Vec<u32>,
    ) -> Vec<u32> {
        let mut count = self.n_node_samples.clone();
        rows.clear();
        // The weights are checked finite and non-negative, so these are
        // exactly the rows the builder left out (it keeps `w > 0`).
        rows.extend((0..data.n as u32).filter(|&i| weights[i as usize] <= 0.0));
        self.count_reaching(data, rows, &mut count);
        count
    }

    /// Adds to `count[node]` how many of `rows` (row indices of `data`)
    /// reach each node. Routes the rows node by node, partitioning them in
    /// place (their order is lost), so each node reads one column for a
    /// contiguous block of rows instead of every row hopping across
    /// columns.
    fn count_reaching(&self, data: &Prepared, rows: &mut [u32], count: &mut [u32]) {
        let mut stack = vec![(0usize, 0usize, rows.len())];
        while let Some((id, start, end)) = stack.pop() {
            if start == end {
                continue;
            }
            count[id] += (end - start) as u32;
            let n = self.nav[id];
            if n.r == 0 {
                continue;
            }
            let (left, right) = (id + 1, n.r as usize);
            // With two leaves below, only the number going left matters.
            let leaves = self.nav[left].r == 0 && self.nav[right].r == 0;
            let seg = &mut rows[start..end];
            let t = n.t;
            // Each row's side is read from the builder's compact, cache-
            // resident copies where there is one (bitmasks of two-valued
            // columns, byte codes of binned ones), else from the column;
            // without branches, as the sides are unpredictable.
            let l = match data.class[n.f as usize] {
                FeatureClass::Binary {
                    slot,
                    lo,
                    hi,
                    bit_is_hi,
                } => {
                    let (marked, other) = if bit_is_hi { (hi, lo) } else { (lo, hi) };
                    let (if_bit, if_not) = ((marked as f64) <= t, (other as f64) <= t);
                    if if_bit == if_not {
                        if if_bit {
                            seg.len()
                        } else {
                            0
                        }
                    } else {
                        let col = data.col_bits_of(slot);
                        let side = |r: usize| ((col[r >> 6] >> (r & 63)) & 1 != 0) != if_not;
                        split_or_count(seg, leaves, side)
                    }
                }
                FeatureClass::Binned { slot } => {
                    // Codes are ranks of increasing values.
                    let n_le = data.code_values[slot]
                        .iter()
                        .filter(|&&v| (v as f64) <= t)
                        .count();
                    let codes = &data.codes[slot];
                    split_or_count(seg, leaves, |r| (codes[r] as usize) < n_le)
                }
                FeatureClass::Sorted { .. } | FeatureClass::Constant => {
                    let col = &data.cols[n.f as usize];
                    split_or_count(seg, leaves, |r| (col[r] as f64) <= t)
                }
            };
            if leaves {
                count[left] += l as u32;
                count[right] += (end - start - l) as u32;
                continue;
            }
            stack.push((right, start + l, end));
            stack.push((left, start, start + l));
        }
    }

    pub(crate) fn leaves_of_rows(&self, rows: &Rows<'_>) -> Vec<usize> {
        let mut out = vec![0; rows.n];
        self.leaves_into(&rows.columns(), 0, &mut out);
        out
    }

    /// The leaf node id of every row of `data` (scikit-learn's `apply`).
    ///
    /// Errors when `data` has a different number of features, a
    /// categorical feature or a missing value.
    pub fn apply(&self, data: &Dataset) -> Result<Vec<usize>> {
        let rows = Rows::new(data, self.n_features)?;
        Ok(self.leaves_of_rows(&rows))
    }

    /// Class probabilities of the rows reaching leaf `id`: its normalised
    /// weighted class counts (all zero for a leaf without weight).
    pub(crate) fn leaf_proba_into(&self, id: usize, out: &mut [f64]) {
        let v = self.value(id);
        let s: f64 = v.iter().sum();
        let norm = if s == 0.0 { 1.0 } else { s };
        for (o, x) in out.iter_mut().zip(v) {
            *o = x / norm;
        }
    }

    /// Feature importances: the total weighted impurity decrease of the
    /// splits on each feature, normalised to sum to 1 (all zero for a tree
    /// without splits), as scikit-learn's `feature_importances_`.
    pub fn feature_importances(&self) -> Vec<f64> {
        let mut imp = self.raw_importances();
        let s: f64 = imp.iter().sum();
        if s > 0.0 {
            for v in &mut imp {
                *v /= s;
            }
        }
        imp
    }

    /// Importances divided by the root weight but not normalised
    /// (scikit-learn's `compute_feature_importances(normalize=False)`).
    pub(crate) fn raw_importances(&self) -> Vec<f64> {
        let mut imp = vec![0.0; self.n_features];
        for id in 0..self.n_nodes() {
            let n = self.nav[id];
            if n.r == 0 {
                continue;
            }
            let (l, r) = (id + 1, n.r as usize);
            let w = &self.weighted_n_node_samples;
            let i = &self.impurity;
            imp[n.f as usize] += w[id] * i[id] - w[l] * i[l] - w[r] * i[r];
        }
        let root = self.weighted_n_node_samples.first().copied().unwrap_or(0.0);
        if root > 0.0 {
            for v in &mut imp {
                *v /= root;
            }
        }
        imp
    }

    /// Parent of every node (`usize::MAX` for the root).
    pub(crate) fn parents(&self) -> Vec<(usize, bool)> {
        let mut parent = vec![(usize::MAX, false); self.n_nodes()];
        for id in 0..self.n_nodes() {
            let r = self.nav[id].r as usize;
            if r != 0 {
                parent[id + 1] = (id, true);
                parent[r] = (id, false);
            }
        }
        parent
    }
}

/// The serialized form of [`Tree`], checked on deserialization so a
/// corrupted or hand-edited model is an error rather than a panic later.
#[derive(Deserialize)]
struct TreeRepr {
    n_features: usize,
    n_classes: usize,
    nav: Vec<Nav>,
    threshold: Vec<f64>,
    impurity: Vec<f64>,
    n_node_samples: Vec<u32>,
    weighted_n_node_samples: Vec<f64>,
    depth: Vec<u32>,
    value: Vec<f64>,
}

impl TryFrom<TreeRepr> for Tree {
    type Error = String;

    fn try_from(r: TreeRepr) -> std::result::Result<Self, String> {
        let TreeRepr {
            n_features,
            n_classes,
            nav,
            threshold,
            impurity,
            n_node_samples,
            weighted_n_node_samples,
            depth,
            value,
        } = r;
        let model = Tree {
            n_features,
            n_classes,
            nav,
            threshold,
            impurity,
            n_node_samples,
            weighted_n_node_samples,
            depth,
            value,
        };
        model.check()?;
        Ok(model)
    }
}

/// The number of rows of `seg` with `goes_left(row)`, moved to its front
/// (in any order) unless `count_only`.
#[inline(always)]
fn split_or_count(seg: &mut [u32], count_only: bool, goes_left: impl Fn(usize) -> bool) -> usize {
    if count_only {
        seg.iter()
            .map(|&r| usize::from(goes_left(r as usize)))
            .sum()
    } else {
        lomuto(seg, goes_left)
    }
}

/// Moves the rows with `goes_left(row)` to the front of `seg` (in any
/// order) and returns their number: a branch-free Lomuto pass (always
/// swap, advance on the left side; when the row goes right, `seg[l..=i]`
/// all go right). The sides of a block of rows are read first, so their
/// loads overlap instead of each waiting on the last swap (the pass leaves
/// `seg[i..]` untouched until step `i`).
fn lomuto(seg: &mut [u32], goes_left: impl Fn(usize) -> bool) -> usize {
    let mut l = 0;
    let mut sides = [false; 64];
    for base in (0..seg.len()).step_by(sides.len()) {
        let top = (base + sides.len()).min(seg.len());
        for (s, &r) in sides.iter_mut().zip(&seg[base..top]) {
            *s = goes_left(r as usize);
        }
        for (i, &left) in (base..top).zip(&sides) {
            seg.swap(i, l);
            l += usize::from(left);
        }
    }
    l
}

impl rulecover_core::Validate for Tree {
    /// The node arrays agree in length (`value` holding `n_values` per
    /// node); a split's right child comes after its left child (`id + 1`,
    /// preorder), so the tree is acyclic; the features split are in range;
    /// thresholds and values are numbers (not NaN).
    fn validate(&self) -> rulecover_core::validate::Validity {
        use rulecover_core::validate::{not_nan, InvalidModel};
        self.check().map_err(|e| InvalidModel::new("nav", e))?;
        for (id, nav) in self.nav.iter().enumerate() {
            not_nan(|| format!("nav[{id}].t"), nav.t)?;
        }
        match self.value.iter().position(|v| v.is_nan()) {
            Some(i) => Err(InvalidModel::new(
                format!("value[{i}]"),
                "NaN where a number is needed",
            )),
            None => Ok(()),
        }
    }
}

/// Checks the trees of an ensemble ([`rulecover_core::Validate`] of each,
/// at `trees[i]`).
pub(crate) fn check_trees(trees: &[Tree]) -> rulecover_core::validate::Validity {
    use rulecover_core::Validate;
    for (i, t) in trees.iter().enumerate() {
        t.validate().map_err(|e| e.within(&format!("trees[{i}]")))?;
    }
    Ok(())
}
