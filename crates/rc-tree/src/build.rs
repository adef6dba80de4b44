//! Growing one tree depth-first, numbering nodes in preorder (left child
//! first) as scikit-learn's `DepthFirstTreeBuilder` does.

use crate::criterion::{self, EPSILON};
use crate::data::Prepared;
use crate::sklearn_random::Draws;
use crate::splitter::{Scratch, Stats, TargetRef, Totals, TreeConfig, Workspace, SMALL_NODE};
use crate::tree::{NodeRecord, Tree};

struct Pending {
    start: usize,
    end: usize,
    depth: usize,
    /// Weighted totals of the node's rows (computed by the parent's split).
    totals: Totals,
    /// How many features at the front of the splitter's feature array are
    /// known to be constant (scikit-learn's draws).
    n_constants: usize,
    /// Parent id and side; `usize::MAX` for the root.
    parent: usize,
    is_left: bool,
    /// Whether the presorted lists are in order in the node's rows (its
    /// parent partitioned them).
    lists_valid: bool,
    /// Which row buffer holds the node's rows
    /// ([`Workspace::rows_buffer`]).
    rows_buffer: bool,
}

/// Nodes of at most this many rows do not partition the presorted lists:
/// their descendants sort a sorted feature's rows by rank when it is drawn.
/// On adult (callgrind, 20 trees) fewer instructions the higher it is up
/// to 8,192 rows (256: −2.7 % in tree growth, 4,096: −5 %). Only when
/// sorted features are rare among the features ([`SORT_ON_DEMAND_SHARE`]):
/// where most features are sorted (magic), several are drawn per node and
/// sorting them costs more than partitioning the lists (+13 % on magic).
const PARTITION_LISTS_ABOVE: usize = 4096;

/// Sorting on demand applies when at most one feature in this many is a
/// sorted (many-valued) one.
const SORT_ON_DEMAND_SHARE: usize = 8;

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
    let nodes_hint = scratch.nodes_hint;
    let mut ws = Workspace::new(data, target, weights, cfg, std::mem::take(scratch));
    let mut tree = Tree::empty(data.p, n_classes);
    tree.reserve(nodes_hint + nodes_hint / 8);
    let root = ws.totals(0, ws.m);
    let w_total = root.w;
    let min_weight_leaf = cfg.min_weight_fraction_leaf * w_total;
    let partition_above = if data.orders.len() * SORT_ON_DEMAND_SHARE <= data.p {
        PARTITION_LISTS_ABOVE
    } else {
        0
    };
    // Whether a node with these totals is a leaf.
    let leaf = |depth: usize, m: usize, tot: &Totals, impurity: f64| {
        depth >= cfg.max_depth
            || m < cfg.min_samples_split
            || m < 2 * cfg.min_samples_leaf
            || tot.w < 2.0 * min_weight_leaf
            || impurity <= EPSILON
    };
    // Count blocks (see `Workspace::uses_blocks`) of the pending nodes of
    // more than `SMALL_NODE` rows, in stack order as `known` below.
    let blocks = ws.uses_blocks();
    if blocks && ws.m > SMALL_NODE {
        ws.count_block(0, 0, ws.m);
    }
    let mut stack = vec![Pending {
        start: 0,
        end: ws.m,
        depth: 0,
        totals: root,
        n_constants: 0,
        parent: usize::MAX,
        is_left: false,
        lists_valid: true,
        rows_buffer: ws.rows_buffer(),
    }];
    // Bitsets of the features known to be constant in each pending node
    // (native draws), `cw` words per node in stack order: the node at
    // stack position `i` owns `known[i · cw..(i + 1) · cw]`.
    let cw = data.p.div_ceil(64);
    let mut known = vec![0u64; cw];
    let mut constants = vec![0u64; cw];
    let mut value = Vec::new();
    while let Some(node) = stack.pop() {
        let at = stack.len() * cw;
        constants.copy_from_slice(&known[at..at + cw]);
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
        if leaf(node.depth, m_node, &tot, impurity) {
            continue;
        }
        ws.node_block = (blocks && m_node > SMALL_NODE).then_some(stack.len());
        ws.lists_valid = node.lists_valid;
        ws.use_rows_buffer(node.rows_buffer);
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
        let lists_valid = node.lists_valid && m_node > partition_above;
        let (n_left, left, right) = ws.mark(node.start, node.end, &best, &tot, lists_valid);
        if n_left == 0 || n_left == m_node {
            continue;
        }
        let improvement = improvement(&ws, w_total, &tot, impurity, &left);
        if improvement + EPSILON < cfg.min_impurity_decrease {
            continue;
        }
        tree.set_split(id, best.feature, best.threshold);
        if lists_valid {
            ws.partition_lists(node.start, node.end, best.feature);
        }
        let mid = node.start + n_left;
        if ws.node_block.is_some() {
            let wanted = |m: usize, t: &Totals| {
                m > SMALL_NODE && !leaf(node.depth + 1, m, t, ws.impurity(t))
            };
            let want_left = wanted(n_left, &left);
            let want_right = wanted(m_node - n_left, &right);
            let span = (node.start, mid, node.end);
            ws.split_block(stack.len(), span, want_left, want_right);
        }
        // The children take stack positions `at / cw` and the next one.
        if known.len() < at + 2 * cw {
            known.resize(at + 2 * cw, 0);
        }
        known[at..at + cw].copy_from_slice(&constants);
        known[at + cw..at + 2 * cw].copy_from_slice(&constants);
        stack.push(Pending {
            start: mid,
            end: node.end,
            depth: node.depth + 1,
            totals: right,
            n_constants,
            parent: id,
            is_left: false,
            lists_valid,
            rows_buffer: ws.rows_buffer(),
        });
        stack.push(Pending {
            start: node.start,
            end: mid,
            depth: node.depth + 1,
            totals: left,
            n_constants,
            parent: id,
            is_left: true,
            lists_valid,
            rows_buffer: ws.rows_buffer(),
        });
    }
    *scratch = ws.into_scratch();
    scratch.nodes_hint = tree.n_nodes();
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
    let mut stats = Stats::zeros(tot.stats.len());
    for ((s, t), l) in stats
        .iter_mut()
        .zip(tot.stats.iter())
        .zip(left.stats.iter())
    {
        *s = t - l;
    }
    let right = Totals {
        w: tot.w - left.w,
        stats,
        sq: tot.sq - left.sq,
    };
    let il = ws.impurity(left);
    let ir = ws.impurity(&right);
    criterion::impurity_improvement(w_total, tot.w, impurity, left.w, il, right.w, ir)
}

impl TreeConfig {
    /// Resolves checked `params` for data with `n_features` columns.
    pub(crate) fn from_params(
        params: rulecover_core::Checked<'_, crate::params::DecisionTreeParams>,
        n_features: usize,
    ) -> crate::error::Result<TreeConfig> {
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
