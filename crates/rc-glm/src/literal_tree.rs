//! RuleFit's small regression trees, grown directly on the binarizer's
//! primary literals over a boosting subsample.
//!
//! Each tree is a CART regression tree on the 0/1 indicator columns of
//! the literals restricted to the subsample, with the rules of rc-tree's
//! `DecisionTreeParams::regressor().max_depth(d)`: the same impurity
//! (weighted variance), the same proxy improvement `S_l²/W_l + S_r²/W_r`
//! (each literal's statistics taken on the node's rows holding its rarer
//! value on the subsample, the other side as the node's totals minus
//! them), the same stopping rules (depth, two rows, impurity ≤
//! `f64::EPSILON`, an impurity decrease below `−f64::EPSILON`), the first
//! literal winning ties, and nodes numbered in preorder (left child
//! first).
//!
//! The literals' per-node statistics come from histograms: the literals
//! of one feature share a group of bins (a row's bin is the first of the
//! group's literals holding it: `x <= t` thresholds are nested, levels
//! `c == a` disjoint), each node adds each of its rows into one bin per
//! group, and a literal's sums are then a prefix, a suffix or a single bin
//! of its group. That is one addition per row and feature instead of one
//! per row and literal holding its rarer value, but the sums are added in
//! another order than rc-tree's row by row. Where every sum is exact (e.g.
//! small dyadic targets and weights) the trees are rc-tree's bit for bit;
//! on general data a near-tie between two literals can go the other way,
//! and the test `literal_trees_are_cart_trees_on_the_literals` checks
//! every split against a brute-force computation of every literal's proxy
//! (best to within `1e-10 · Σ w y²` of the node). Growing from bins built
//! once per fit avoids the per-tree work of the general learner (copying
//! the subsample into a new data set, classifying and indexing every
//! column), and every buffer is reused from tree to tree.

use crate::bits::Bits;

/// The split of an inner node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Split {
    /// The primary literal tested (an index into the grower's literals).
    pub feature: usize,
    /// The child holding the rows outside the literal.
    pub left: usize,
    /// The child holding the rows of the literal.
    pub right: usize,
}

/// A grown tree: nodes in preorder (left child first), each with its
/// subsample positions.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LiteralTree {
    /// The split of each node (`None` for a leaf).
    pub splits: Vec<Option<Split>>,
    /// The subsample positions reaching each node.
    pub rows: Vec<Bits>,
}

impl LiteralTree {
    /// The leaves, with their subsample positions.
    pub fn leaves(&self) -> impl Iterator<Item = (usize, &Bits)> + '_ {
        self.splits
            .iter()
            .zip(&self.rows)
            .enumerate()
            .filter(|(_, (s, _))| s.is_none())
            .map(|(id, (_, rows))| (id, rows))
    }
}

/// Weighted totals of a node: `Σ w`, `Σ w·y`, `Σ (w·y)·y`.
#[derive(Debug, Clone, Copy)]
struct Totals {
    w: f64,
    s: f64,
    sq: f64,
}

impl Totals {
    /// Weighted variance (rc-tree's squared-error impurity).
    fn impurity(&self) -> f64 {
        if self.w <= 0.0 {
            return 0.0;
        }
        let mean = self.s / self.w;
        self.sq / self.w - mean * mean
    }
}

/// A node waiting to be grown.
struct Pending {
    rows: Bits,
    depth: usize,
    totals: Totals,
    /// Parent id and side; `usize::MAX` for the root.
    parent: usize,
    is_left: bool,
}

/// A run of literals sharing one set of bins: each training row falls in
/// exactly one bin of the group, and each literal of the group holds on a
/// contiguous range of its bins, `lo..=hi`, either a prefix (`lo` the
/// group's first bin: nested literals such as `x <= t₁ ⊆ x <= t₂ ⊆ …`) or
/// a single bin (disjoint literals such as `c == a`, `c == b`).
#[derive(Debug, Clone, Copy)]
struct Group {
    /// The group's first bin (global bin index).
    first: usize,
    /// One past the group's last bin.
    end: usize,
}

/// The bins of a literal: it holds on the rows in bins `lo..=hi` of its
/// group, where `lo == first` or `lo == hi`.
#[derive(Debug, Clone, Copy)]
struct Range {
    group: u32,
    lo: u32,
    hi: u32,
}

/// Per-bin statistics of a node: row counts, `Σ w`, `Σ w·y`, and their
/// prefix and suffix sums within each group.
#[derive(Debug, Default)]
struct Histogram {
    cnt: Vec<u32>,
    w: Vec<f64>,
    wy: Vec<f64>,
    pre_cnt: Vec<u32>,
    pre_w: Vec<f64>,
    pre_wy: Vec<f64>,
    suf_cnt: Vec<u32>,
    suf_w: Vec<f64>,
    suf_wy: Vec<f64>,
}

/// Statistics of one side of a literal on a node: rows, `Σ w`, `Σ w·y`.
#[derive(Debug, Clone, Copy, Default)]
struct Side {
    cnt: u32,
    w: f64,
    wy: f64,
}

impl Histogram {
    fn reset(&mut self, bins: usize, weighted: bool) {
        for v in [&mut self.cnt, &mut self.pre_cnt, &mut self.suf_cnt] {
            v.clear();
            v.resize(bins, 0);
        }
        let float_bins = if weighted { bins } else { 0 };
        for v in [&mut self.w, &mut self.pre_w, &mut self.suf_w] {
            v.clear();
            v.resize(float_bins, 0.0);
        }
        for v in [&mut self.wy, &mut self.pre_wy, &mut self.suf_wy] {
            v.clear();
            v.resize(bins, 0.0);
        }
    }

    /// Prefix and suffix sums of every group, each summed bin by bin
    /// from the group's first (prefix) or last (suffix) bin.
    fn accumulate(&mut self, groups: &[Group]) {
        let weighted = !self.w.is_empty();
        for g in groups {
            let (mut c, mut w, mut wy) = (0u32, 0.0, 0.0);
            for h in g.first..g.end {
                c += self.cnt[h];
                wy += self.wy[h];
                self.pre_cnt[h] = c;
                self.pre_wy[h] = wy;
                if weighted {
                    w += self.w[h];
                    self.pre_w[h] = w;
                }
            }
            let (mut c, mut w, mut wy) = (0u32, 0.0, 0.0);
            for h in (g.first..g.end).rev() {
                c += self.cnt[h];
                wy += self.wy[h];
                self.suf_cnt[h] = c;
                self.suf_wy[h] = wy;
                if weighted {
                    w += self.w[h];
                    self.suf_w[h] = w;
                }
            }
        }
    }

    fn bin(&self, h: usize) -> Side {
        Side {
            cnt: self.cnt[h],
            w: self.w.get(h).copied().unwrap_or(0.0),
            wy: self.wy[h],
        }
    }

    fn prefix(&self, h: usize) -> Side {
        Side {
            cnt: self.pre_cnt[h],
            w: self.pre_w.get(h).copied().unwrap_or(0.0),
            wy: self.pre_wy[h],
        }
    }

    fn suffix(&self, h: usize) -> Side {
        Side {
            cnt: self.suf_cnt[h],
            w: self.suf_w.get(h).copied().unwrap_or(0.0),
            wy: self.suf_wy[h],
        }
    }

    /// The statistics of the node's rows inside (`inside`) or outside the
    /// literal with bins `r` (group `g`).
    fn side(&self, r: Range, g: Group, inside: bool) -> Side {
        let (lo, hi) = (r.lo as usize, r.hi as usize);
        let after = |h: usize| {
            if h < g.end {
                self.suffix(h)
            } else {
                Side::default()
            }
        };
        match (inside, lo == g.first) {
            (true, true) => self.prefix(hi),
            (true, false) => self.bin(hi),
            (false, true) => after(hi + 1),
            (false, false) => {
                let (a, b) = (self.prefix(lo - 1), after(hi + 1));
                Side {
                    cnt: a.cnt + b.cnt,
                    w: a.w + b.w,
                    wy: a.wy + b.wy,
                }
            }
        }
    }
}

/// Grows trees on the rows of a fixed set of literals, reusing its
/// buffers from tree to tree.
#[derive(Debug)]
pub(crate) struct LiteralTreeGrower {
    /// The literals' groups, in literal order.
    groups: Vec<Group>,
    /// The bins of each literal.
    ranges: Vec<Range>,
    /// Number of bins over all groups.
    bins: usize,
    /// Per training row, its bin in each group (`groups.len()` a row).
    row_bins: Vec<u32>,
    // Per-tree buffers.
    /// Features whose rarer value on the subsample is 0.
    flip: Vec<bool>,
    /// Features with both values on the subsample.
    varying: Vec<bool>,
    /// Per subsample position, its bin in each group.
    pos_bins: Vec<u32>,
    /// `w·y` of every position.
    wy: Vec<f64>,
    hist: Histogram,
}

impl LiteralTreeGrower {
    /// A grower for the literals `literals` (bitsets over the same `n`
    /// training rows). Consecutive literals with equal `keys` share bins
    /// when they are nested in their order (thresholds `x <= t` in
    /// increasing `t`) or pairwise disjoint (the levels `c == a` of a
    /// categorical feature); any other literal gets a group of its own.
    pub fn new<K: PartialEq>(literals: &[&Bits], keys: &[K], n: usize) -> Self {
        assert_eq!(literals.len(), keys.len(), "one key per literal");
        let mut groups = Vec::new();
        let mut ranges = Vec::with_capacity(literals.len());
        // (first literal, literal count, nested) of each group.
        let mut shapes: Vec<(usize, usize, bool)> = Vec::new();
        let mut start = 0;
        while start < literals.len() {
            let mut end = start + 1;
            while end < literals.len() && keys[end] == keys[start] {
                end += 1;
            }
            let run = &literals[start..end];
            let nested = run.windows(2).all(|p| p[0].and_not(p[1]).is_empty());
            let disjoint = || {
                let mut union = Bits::new(n);
                run.iter().all(|b| {
                    let apart = union.and(b).is_empty();
                    union = crate::bits::or(&union, b);
                    apart
                })
            };
            if nested || disjoint() {
                shapes.push((start, end - start, nested));
            } else {
                shapes.extend((start..end).map(|f| (f, 1, true)));
            }
            start = end;
        }
        let n_groups = shapes.len();
        let mut row_bins = vec![0u32; n * n_groups];
        let mut bins = 0usize;
        for (gi, &(first_lit, len, nested)) in shapes.iter().enumerate() {
            let g = Group {
                first: bins,
                end: bins + len + 1,
            };
            let run = &literals[first_lit..first_lit + len];
            // Bin of a row: the first literal holding it (`len` if none),
            // found 64 rows at a time (each row is assigned once).
            for i in 0..n {
                row_bins[i * n_groups + gi] = (g.first + len) as u32;
            }
            for q in 0..n.div_ceil(64) {
                let mut seen = 0u64;
                for (a, b) in run.iter().enumerate() {
                    let word = b.words()[q];
                    let mut new = word & !seen;
                    seen |= word;
                    while new != 0 {
                        let i = q * 64 + new.trailing_zeros() as usize;
                        row_bins[i * n_groups + gi] = (g.first + a) as u32;
                        new &= new - 1;
                    }
                }
            }
            for a in 0..len {
                let hi = (g.first + a) as u32;
                ranges.push(Range {
                    group: gi as u32,
                    lo: if nested { g.first as u32 } else { hi },
                    hi,
                });
            }
            groups.push(g);
            bins = g.end;
        }
        LiteralTreeGrower {
            groups,
            ranges,
            bins,
            row_bins,
            flip: Vec::new(),
            varying: Vec::new(),
            pos_bins: Vec::new(),
            wy: Vec::new(),
            hist: Histogram::default(),
        }
    }

    /// Whether subsample position `k` holds literal `f`.
    #[inline]
    fn holds(&self, k: usize, f: usize) -> bool {
        let r = self.ranges[f];
        let h = self.pos_bins[k * self.groups.len() + r.group as usize];
        r.lo <= h && h <= r.hi
    }

    /// Grows the tree of depth at most `max_depth` fitting `y` with
    /// weights `w` (both one per position of `inbag`, the increasing
    /// training rows of the subsample; every weight `> 0`). `unit_weights`
    /// says that every weight is exactly 1 (weight sums are then counts).
    pub fn grow(
        &mut self,
        inbag: &[usize],
        y: &[f64],
        w: &[f64],
        unit_weights: bool,
        max_depth: usize,
    ) -> LiteralTree {
        let m = inbag.len();
        self.prepare(inbag, y, w);
        let mut tree = LiteralTree {
            splits: Vec::new(),
            rows: Vec::new(),
        };
        if m == 0 {
            return tree;
        }
        let root = self.totals(&Bits::full(m), y, w);
        let w_total = root.w;
        let mut stack = vec![Pending {
            rows: Bits::full(m),
            depth: 0,
            totals: root,
            parent: usize::MAX,
            is_left: false,
        }];
        while let Some(node) = stack.pop() {
            let tot = node.totals;
            let impurity = tot.impurity();
            let m_node = node.rows.count();
            let id = tree.splits.len();
            tree.splits.push(None);
            if node.parent != usize::MAX {
                if let Some(s) = tree.splits[node.parent].as_mut() {
                    if node.is_left {
                        s.left = id;
                    } else {
                        s.right = id;
                    }
                }
            }
            let is_leaf = node.depth >= max_depth || m_node < 2 || impurity <= f64::EPSILON;
            let best = if is_leaf {
                None
            } else {
                self.best_split(&node.rows, &tot, (!unit_weights).then_some(w))
            };
            let Some(feature) = best else {
                tree.rows.push(node.rows);
                continue;
            };
            let (left_rows, right_rows, left, right) = self.sides(&node.rows, m, feature, y, w);
            let (il, ir) = (left.impurity(), right.impurity());
            let improvement =
                (tot.w / w_total) * (impurity - (right.w / tot.w) * ir - (left.w / tot.w) * il);
            if improvement + f64::EPSILON < 0.0 {
                tree.rows.push(node.rows);
                continue;
            }
            tree.splits[id] = Some(Split {
                feature,
                left: usize::MAX,
                right: usize::MAX,
            });
            tree.rows.push(node.rows);
            stack.push(Pending {
                rows: right_rows,
                depth: node.depth + 1,
                totals: right,
                parent: id,
                is_left: false,
            });
            stack.push(Pending {
                rows: left_rows,
                depth: node.depth + 1,
                totals: left,
                parent: id,
                is_left: true,
            });
        }
        tree
    }

    /// Per subsample: each position's bins, and which value of each
    /// literal is the rarer one (the value whose statistics are summed).
    fn prepare(&mut self, inbag: &[usize], y: &[f64], w: &[f64]) {
        let (g, m) = (self.groups.len(), inbag.len());
        self.pos_bins.clear();
        for &i in inbag {
            self.pos_bins
                .extend_from_slice(&self.row_bins[i * g..(i + 1) * g]);
        }
        // Each literal's ones on the subsample, from the bins' counts.
        self.hist.reset(self.bins, false);
        for &h in &self.pos_bins {
            self.hist.cnt[h as usize] += 1;
        }
        self.hist.accumulate(&self.groups);
        self.flip.clear();
        self.varying.clear();
        for r in &self.ranges {
            let ones = self.hist.side(*r, self.groups[r.group as usize], true).cnt as usize;
            self.varying.push(ones != 0 && ones != m);
            // rc-tree marks the value 1 when it is held by at most half of
            // the rows, else the value 0.
            self.flip.push(2 * ones > m);
        }
        self.wy.clear();
        self.wy.extend(w.iter().zip(y).map(|(&w, &y)| w * y));
    }

    /// The totals of the positions `rows`, summed in increasing order.
    fn totals(&self, rows: &Bits, y: &[f64], w: &[f64]) -> Totals {
        let mut t = Totals {
            w: 0.0,
            s: 0.0,
            sq: 0.0,
        };
        for k in rows.iter() {
            let wy = self.wy[k];
            t.w += w[k];
            t.s += wy;
            t.sq += wy * y[k];
        }
        t
    }

    /// The first feature with the best proxy improvement on the node's
    /// positions `rows` (totals `tot`), if any feature varies there.
    /// `w`: the positions' weights, `None` when they are all 1.
    ///
    /// Each group's bins are summed over the node's rows (one addition a
    /// row and group), and a literal's statistics are then a prefix,
    /// suffix or single bin of its group.
    fn best_split(&mut self, rows: &Bits, tot: &Totals, w: Option<&[f64]>) -> Option<usize> {
        let g = self.groups.len();
        self.hist.reset(self.bins, w.is_some());
        let (pos_bins, wy) = (&self.pos_bins, &self.wy);
        let hist = &mut self.hist;
        let (cnt, sum_wy) = (&mut hist.cnt[..], &mut hist.wy[..]);
        match w {
            None => {
                for k in rows.iter() {
                    let wy = wy[k];
                    for &h in &pos_bins[k * g..(k + 1) * g] {
                        let h = h as usize;
                        cnt[h] += 1;
                        sum_wy[h] += wy;
                    }
                }
            }
            Some(w) => {
                let sum_w = &mut hist.w[..];
                for k in rows.iter() {
                    let (wy, wk) = (wy[k], w[k]);
                    for &h in &pos_bins[k * g..(k + 1) * g] {
                        let h = h as usize;
                        cnt[h] += 1;
                        sum_w[h] += wk;
                        sum_wy[h] += wy;
                    }
                }
            }
        }
        self.hist.accumulate(&self.groups);
        let m_node = rows.count();
        let mut best: Option<usize> = None;
        let mut best_proxy = f64::NEG_INFINITY;
        for (f, r) in self.ranges.iter().enumerate() {
            if !self.varying[f] {
                continue;
            }
            let flipped = self.flip[f];
            // The rarer value's rows of the node: outside the literal when
            // flipped.
            let rare = self.hist.side(*r, self.groups[r.group as usize], !flipped);
            let nb = rare.cnt as usize;
            if nb == 0 || nb == m_node {
                continue;
            }
            // A sum of ones is exact: the count is the weight sum.
            let bw = if w.is_none() { nb as f64 } else { rare.w };
            let bs = rare.wy;
            // The left child holds the rows outside the literal (value 0).
            let (wl, sl) = if flipped {
                (bw, bs)
            } else {
                (tot.w - bw, tot.s - bs)
            };
            let wr = tot.w - wl;
            if wl < 0.0 || wr < 0.0 {
                continue;
            }
            let sr = tot.s - sl;
            let proxy = sl * sl / wl + sr * sr / wr;
            if proxy > best_proxy {
                best_proxy = proxy;
                best = Some(f);
            }
        }
        best
    }

    /// Splits the positions `rows` (of `m`) on `feature`: the positions
    /// outside and inside the literal, with their totals (each summed in
    /// increasing order).
    fn sides(
        &self,
        rows: &Bits,
        m: usize,
        feature: usize,
        y: &[f64],
        w: &[f64],
    ) -> (Bits, Bits, Totals, Totals) {
        let mut left_rows = Bits::new(m);
        let mut right_rows = Bits::new(m);
        for k in rows.iter() {
            if self.holds(k, feature) {
                right_rows.insert(k);
            } else {
                left_rows.insert(k);
            }
        }
        let left = self.totals(&left_rows, y, w);
        let right = self.totals(&right_rows, y, w);
        (left_rows, right_rows, left, right)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Literal bitsets over `n` rows from a membership test.
    fn literal(n: usize, holds: impl Fn(usize) -> bool) -> Bits {
        let mut b = Bits::new(n);
        (0..n).filter(|&i| holds(i)).for_each(|i| b.insert(i));
        b
    }

    #[test]
    fn splits_on_the_literal_that_explains_the_target_and_stops_at_depth() {
        let n = 64;
        let lits = [
            literal(n, |i| i % 2 == 0),
            literal(n, |i| i < 40),
            literal(n, |i| i % 3 == 0),
        ];
        let refs: Vec<&Bits> = lits.iter().collect();
        let mut grower = LiteralTreeGrower::new(&refs, &(0..refs.len()).collect::<Vec<_>>(), n);
        // y = 5 on the rows of literal 1, with a small effect of literal 0.
        let inbag: Vec<usize> = (0..n).collect();
        let y: Vec<f64> = (0..n)
            .map(|i| 5.0 * f64::from(u8::from(i < 40)) + 0.1 * f64::from(u8::from(i % 2 == 0)))
            .collect();
        let w = vec![1.0; n];
        let stump = grower.grow(&inbag, &y, &w, true, 1);
        assert_eq!(stump.splits.len(), 3);
        let root = stump.splits[0].expect("the root splits");
        assert_eq!((root.feature, root.left, root.right), (1, 1, 2));
        assert_eq!(stump.rows[root.right], literal(n, |i| i < 40));
        assert_eq!(stump.leaves().count(), 2);
        // Depth 2: each side then splits on literal 0 (preorder ids).
        let tree = grower.grow(&inbag, &y, &w, true, 2);
        assert_eq!(tree.splits.len(), 7);
        assert_eq!(
            tree.splits[1].map(|s| (s.feature, s.left, s.right)),
            Some((0, 2, 3))
        );
        assert_eq!(
            tree.splits[4].map(|s| (s.feature, s.left, s.right)),
            Some((0, 5, 6))
        );
        // The leaves partition the subsample.
        let mut seen = Bits::new(n);
        for (_, rows) in tree.leaves() {
            assert!(rows.and(&seen).is_empty());
            seen = crate::bits::or(&seen, rows);
        }
        assert_eq!(seen, Bits::full(n));
    }

    #[test]
    fn a_constant_target_or_a_single_row_is_a_leaf() {
        let n = 10;
        let lits = [literal(n, |i| i < 5)];
        let refs: Vec<&Bits> = lits.iter().collect();
        let mut grower = LiteralTreeGrower::new(&refs, &(0..refs.len()).collect::<Vec<_>>(), n);
        let inbag: Vec<usize> = (0..n).collect();
        let tree = grower.grow(&inbag, &[2.5; 10], &[1.0; 10], true, 3);
        assert_eq!(tree.splits, vec![None]);
        let one = grower.grow(&[7], &[1.0], &[1.0], true, 3);
        assert_eq!(one.splits, vec![None]);
        // A literal constant on the subsample cannot split it.
        let tree = grower.grow(&[0, 1, 2], &[0.0, 1.0, 5.0], &[1.0; 3], true, 3);
        assert_eq!(tree.splits, vec![None]);
    }
}
