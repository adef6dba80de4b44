//! Growing one tree depth-first, numbering nodes in preorder (left child
//! first) as scikit-learn's `DepthFirstTreeBuilder` does.

use crate::criterion::{self, EPSILON};
use crate::data::Prepared;
use crate::sklearn_random::Draws;
use crate::splitter::{Scratch, TargetRef, Totals, TreeConfig, Workspace};
use crate::tree::{NodeRecord, Tree};

struct Pending {
    start: usize,
    end: usize,
    depth: usize,
    /// Weighted totals of the node's rows (computed by the parent's split).
    totals: Totals,
    /// Bitset of the features known to be constant in the node (native
    /// draws).
    constants: Vec<u64>,
    /// How many features at the front of the splitter's feature array are
    /// known to be constant (scikit-learn's draws).
    n_constants: usize,
    /// Parent id and side; `usize::MAX` for the root.
    parent: usize,
    is_left: bool,
}

/// Grows a tree on the rows of `data` with positive weight.
///
/// `weights` has one entry per row of `data` (zero excludes the row, as in
/// scikit-learn). A tree without any positively weighted row is a single
/// empty leaf. `scratch` holds reusable buffers.
pub(crate) fn grow(
    data: &Prepared,
    target: TargetRef<'_>,
    weights: &[f64],
    cfg: &TreeConfig,
    draws: &mut Draws,
    scratch: &mut Scratch,
) -> Tree {
    let n_classes = match target {
        TargetRef::Classes { k, .. } => k,
        TargetRef::Values(_) => 0,
    };
    let mut ws = Workspace::new(data, target, weights, cfg, std::mem::take(scratch));
    let mut tree = Tree::empty(data.p, n_classes);
    let root = ws.totals(0, ws.m);
    let w_total = root.w;
    let min_weight_leaf = cfg.min_weight_fraction_leaf * w_total;
    let mut stack = vec![Pending {
        start: 0,
        end: ws.m,
        depth: 0,
        totals: root,
        constants: vec![0; data.p.div_ceil(64)],
        n_constants: 0,
        parent: usize::MAX,
        is_left: false,
    }];
    let mut value = Vec::new();
    while let Some(node) = stack.pop() {
        let tot = node.totals;
        let impurity = ws.impurity(&tot);
        let m_node = node.end - node.start;
        value.clear();
        match target {
            TargetRef::Classes { .. } => value.extend_from_slice(&tot.stats),
            TargetRef::Values(_) => value.push(if tot.w > 0.0 {
                tot.stats[0] / tot.w
            } else {
                0.0
            }),
        }
        let id = tree.push_node(
            NodeRecord {
                impurity,
                n_samples: m_node as u32,
                weight: tot.w,
                depth: node.depth as u32,
            },
            &value,
        );
        if node.parent != usize::MAX {
            tree.link_child(node.parent, node.is_left, id);
        }
        let is_leaf = node.depth >= cfg.max_depth
            || m_node < cfg.min_samples_split
            || m_node < 2 * cfg.min_samples_leaf
            || tot.w < 2.0 * min_weight_leaf
            || impurity <= EPSILON;
        if is_leaf {
            continue;
        }
        let mut constants = node.constants;
        let (found, n_constants) = match draws {
            Draws::Native(rng) => {
                let found = ws.best_split(
                    node.start,
                    node.end,
                    &tot,
                    min_weight_leaf,
                    rng,
                    &mut constants,
                );
                (found, 0)
            }
            Draws::Sklearn(rand_r) => ws.best_split_sklearn(
                node.start,
                node.end,
                &tot,
                min_weight_leaf,
                rand_r,
                node.n_constants,
            ),
        };
        let Some(best) = found else {
            continue;
        };
        let (n_left, left, right) = ws.mark(node.start, node.end, &best);
        if n_left == 0 || n_left == m_node {
            continue;
        }
        let improvement = improvement(&ws, w_total, &tot, impurity, &left);
        if improvement + EPSILON < cfg.min_impurity_decrease {
            continue;
        }
        tree.set_split(id, best.feature, best.threshold);
        ws.partition(node.start, node.end, best.feature);
        let mid = node.start + n_left;
        stack.push(Pending {
            start: mid,
            end: node.end,
            depth: node.depth + 1,
            totals: right,
            constants: constants.clone(),
            n_constants,
            parent: id,
            is_left: false,
        });
        stack.push(Pending {
            start: node.start,
            end: mid,
            depth: node.depth + 1,
            totals: left,
            constants,
            n_constants,
            parent: id,
            is_left: true,
        });
    }
    *scratch = ws.into_scratch();
    tree
}

/// scikit-learn's weighted impurity decrease of a split with the given
/// left totals (right = node − left).
fn improvement(
    ws: &Workspace<'_>,
    w_total: f64,
    tot: &Totals,
    impurity: f64,
    left: &Totals,
) -> f64 {
    let right = Totals {
        w: tot.w - left.w,
        stats: tot
            .stats
            .iter()
            .zip(&left.stats)
            .map(|(t, l)| t - l)
            .collect(),
        sq: tot.sq - left.sq,
    };
    let il = ws.impurity(left);
    let ir = ws.impurity(&right);
    criterion::impurity_improvement(w_total, tot.w, impurity, left.w, il, right.w, ir)
}

impl TreeConfig {
    /// Validates `params` and resolves them for data with `n_features`
    /// columns.
    pub(crate) fn from_params(
        params: &crate::params::DecisionTreeParams,
        n_features: usize,
    ) -> crate::error::Result<TreeConfig> {
        params.validate()?;
        Ok(TreeConfig {
            entropy: params.criterion == crate::params::Criterion::Entropy,
            max_depth: params.max_depth.unwrap_or(usize::MAX),
            min_samples_split: params.min_samples_split,
            min_samples_leaf: params.min_samples_leaf,
            min_weight_fraction_leaf: params.min_weight_fraction_leaf,
            max_features: params.max_features.resolve(n_features)?,
            min_impurity_decrease: params.min_impurity_decrease,
        })
    }
}
