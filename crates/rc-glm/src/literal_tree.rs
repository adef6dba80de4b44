//! RuleFit's small regression trees, grown directly on the binarizer's
//! primary literals over a boosting subsample.
//!
//! Each tree is the CART regression tree that rc-tree's
//! `DecisionTreeParams::regressor().max_depth(d)` grows on the 0/1
//! indicator columns of the literals restricted to the subsample, bit for
//! bit: the same impurity (weighted variance), the same proxy improvement
//! `S_l²/W_l + S_r²/W_r` computed from the same sums in the same order
//! (each feature's statistics summed over the node's rows holding the
//! feature's rarer value on the subsample, in increasing row order), the
//! same stopping rules (depth, two rows, impurity ≤ `f64::EPSILON`, an
//! impurity decrease below `−f64::EPSILON`), the first feature winning
//! ties, and nodes numbered in preorder (left child first). Growing from a
//! row-major bitmask of the literals built once per fit avoids the
//! per-tree work of the general learner (copying the subsample into a new
//! data set, classifying and indexing every column), and every buffer is
//! reused from tree to tree.

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

/// Per bit of `words` 64-bit words, how many of the vectors added have it
/// set, bit-sliced: plane `b` holds bit `b` of every count, and adding a
/// vector is a ripple-carry increment of the planes, one word of 64
/// counters at a time (the carry dies out after two planes on average).
#[derive(Debug, Default)]
struct BitCounts {
    words: usize,
    /// `planes[b * words + q]`: bit `b` of the counts of word `q`.
    planes: Vec<u64>,
}

impl BitCounts {
    /// All counts 0, for `words` words and counts up to `max`.
    fn reset(&mut self, words: usize, max: usize) {
        let levels = (usize::BITS - max.leading_zeros()).max(1) as usize;
        self.words = words;
        self.planes.clear();
        self.planes.resize(levels * words, 0);
    }

    /// Adds one vector (its `words` words).
    #[inline]
    fn add(&mut self, vector: impl Iterator<Item = u64>) {
        let words = self.words;
        for (q, mut carry) in vector.enumerate() {
            let mut at = q;
            while carry != 0 {
                let plane = &mut self.planes[at];
                let next = *plane & carry;
                *plane ^= carry;
                carry = next;
                at += words;
            }
        }
    }

    /// The count of bit `f`.
    fn get(&self, f: usize) -> u32 {
        let (q, bit) = (f >> 6, f & 63);
        self.planes
            .chunks_exact(self.words)
            .enumerate()
            .map(|(b, plane)| (((plane[q] >> bit) & 1) as u32) << b)
            .sum()
    }
}

/// Grows trees on the rows of a fixed set of literals, reusing its
/// buffers from tree to tree.
#[derive(Debug)]
pub(crate) struct LiteralTreeGrower {
    /// Number of literals (features of the trees).
    p: usize,
    /// Words per row of `row_words`.
    mw: usize,
    /// Row-major literal bits of every training row (`mw` words a row).
    row_words: Vec<u64>,
    // Per-tree buffers.
    ones: Vec<u32>,
    /// Features whose rarer value on the subsample is 0 (bit set).
    flip: Vec<u64>,
    /// Features with both values on the subsample (bit set).
    varying: Vec<u64>,
    /// Per subsample position, the varying features holding their rarer
    /// value there: `idx[ptr[k]..ptr[k + 1]]`.
    ptr: Vec<u32>,
    idx: Vec<u32>,
    /// `w·y` of every position.
    wy: Vec<f64>,
    cnt: Vec<u32>,
    /// Bit-sliced counts of literals over the subsample's rows.
    counts: BitCounts,
    sum_w: Vec<f64>,
    sum_wy: Vec<f64>,
}

impl LiteralTreeGrower {
    /// A grower for the literals `literals` (bitsets over the same `n`
    /// training rows).
    pub fn new(literals: &[&Bits], n: usize) -> Self {
        let p = literals.len();
        let mw = p.div_ceil(64).max(1);
        let mut row_words = vec![0u64; n * mw];
        for (f, bits) in literals.iter().enumerate() {
            let (q, bit) = (f >> 6, 1u64 << (f & 63));
            for i in bits.iter() {
                row_words[i * mw + q] |= bit;
            }
        }
        LiteralTreeGrower {
            p,
            mw,
            row_words,
            ones: Vec::new(),
            flip: Vec::new(),
            varying: Vec::new(),
            ptr: Vec::new(),
            idx: Vec::new(),
            wy: Vec::new(),
            cnt: Vec::new(),
            counts: BitCounts::default(),
            sum_w: Vec::new(),
            sum_wy: Vec::new(),
        }
    }

    /// Whether training row `i` holds literal `f`.
    #[inline]
    fn bit(&self, i: usize, f: usize) -> bool {
        (self.row_words[i * self.mw + (f >> 6)] >> (f & 63)) & 1 != 0
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
            let (left_rows, right_rows, left, right) = self.sides(&node.rows, inbag, feature, y, w);
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

    /// Per subsample: which value of each literal is the rarer one (the
    /// value whose statistics are summed), and the row-wise index of the
    /// varying literals holding it.
    fn prepare(&mut self, inbag: &[usize], y: &[f64], w: &[f64]) {
        let (p, mw, m) = (self.p, self.mw, inbag.len());
        // Each literal's ones on the subsample: the subsample's rows added
        // up bit-sliced, a row's words at a time.
        self.counts.reset(mw, m);
        for &i in inbag {
            self.counts
                .add(self.row_words[i * mw..(i + 1) * mw].iter().copied());
        }
        self.ones.clear();
        self.ones.extend((0..p).map(|f| self.counts.get(f)));
        self.flip.clear();
        self.flip.resize(mw, 0);
        self.varying.clear();
        self.varying.resize(mw, 0);
        for (f, &ones) in self.ones.iter().enumerate() {
            let ones = ones as usize;
            if ones == 0 || ones == m {
                continue;
            }
            let bit = 1u64 << (f & 63);
            self.varying[f >> 6] |= bit;
            // rc-tree marks the value 1 when it is held by at most half of
            // the rows, else the value 0.
            if 2 * ones > m {
                self.flip[f >> 6] |= bit;
            }
        }
        let (ptr, idx) = (&mut self.ptr, &mut self.idx);
        let (flip, varying) = (&self.flip[..mw], &self.varying[..mw]);
        ptr.clear();
        idx.clear();
        ptr.push(0);
        for &i in inbag {
            let row = &self.row_words[i * mw..(i + 1) * mw];
            for (q, ((&word, &f), &v)) in row.iter().zip(flip).zip(varying).enumerate() {
                let mut word = (word ^ f) & v;
                while word != 0 {
                    idx.push((q * 64) as u32 + word.trailing_zeros());
                    word &= word - 1;
                }
            }
            ptr.push(idx.len() as u32);
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
    fn best_split(&mut self, rows: &Bits, tot: &Totals, w: Option<&[f64]>) -> Option<usize> {
        let p = self.p;
        self.cnt.clear();
        self.cnt.resize(p, 0);
        self.sum_wy.clear();
        self.sum_wy.resize(p, 0.0);
        let (idx, ptr, wy) = (&self.idx, &self.ptr, &self.wy);
        let (cnt, sum_wy) = (&mut self.cnt[..p], &mut self.sum_wy[..p]);
        if w.is_none() {
            for k in rows.iter() {
                let wy = wy[k];
                for &f in &idx[ptr[k] as usize..ptr[k + 1] as usize] {
                    let f = f as usize;
                    cnt[f] += 1;
                    sum_wy[f] += wy;
                }
            }
        } else {
            self.sum_w.clear();
            self.sum_w.resize(p, 0.0);
            let sum_w = &mut self.sum_w[..p];
            let w = w.unwrap_or(&[]);
            for k in rows.iter() {
                let wy = wy[k];
                let wk = w[k];
                for &f in &idx[ptr[k] as usize..ptr[k + 1] as usize] {
                    let f = f as usize;
                    cnt[f] += 1;
                    sum_w[f] += wk;
                    sum_wy[f] += wy;
                }
            }
        }
        let m_node = rows.count();
        let mut best: Option<usize> = None;
        let mut best_proxy = f64::NEG_INFINITY;
        for f in 0..p {
            if (self.varying[f >> 6] >> (f & 63)) & 1 == 0 {
                continue;
            }
            let nb = self.cnt[f] as usize;
            if nb == 0 || nb == m_node {
                continue;
            }
            // A sum of ones is exact: the count is the weight sum.
            let bw = if w.is_none() {
                nb as f64
            } else {
                self.sum_w[f]
            };
            let bs = self.sum_wy[f];
            let flipped = (self.flip[f >> 6] >> (f & 63)) & 1 != 0;
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

    /// Splits the positions `rows` on `feature`: the positions outside and
    /// inside the literal, with their totals (each summed in increasing
    /// order).
    fn sides(
        &self,
        rows: &Bits,
        inbag: &[usize],
        feature: usize,
        y: &[f64],
        w: &[f64],
    ) -> (Bits, Bits, Totals, Totals) {
        let m = inbag.len();
        let mut left_rows = Bits::new(m);
        let mut right_rows = Bits::new(m);
        for k in rows.iter() {
            if self.bit(inbag[k], feature) {
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
        let mut grower = LiteralTreeGrower::new(&refs, n);
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
        let mut grower = LiteralTreeGrower::new(&refs, n);
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
