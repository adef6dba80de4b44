//! Best-split search of one node.
//!
//! Many-valued features keep their rows in presorted lists (sorted once per
//! fit, stably partitioned at every split), so a candidate feature is
//! scanned in `O(rows in node)` without sorting. Two-valued features (e.g.
//! one-hot indicators) are evaluated from per-node counts gathered in one
//! pass over a sparse row index. Split choices follow scikit-learn's
//! `BestSplitter`: candidate thresholds between consecutive distinct values
//! (values closer than 1e-7 count as equal), `min_samples_leaf` and
//! `min_weight_leaf` checked per candidate, the best proxy improvement wins
//! and the first one found wins ties.

use rulecover_core::Rng;

use crate::criterion::{self, FEATURE_THRESHOLD};
use crate::data::{FeatureClass, Prepared};
use crate::sklearn_random::RandR;
use crate::threshold::midpoint;

/// An entry of a presorted list: the feature's float32 value and the row.
pub(crate) type Entry = (f32, u32);

/// The target the builder fits, borrowed.
#[derive(Debug, Clone, Copy)]
pub(crate) enum TargetRef<'a> {
    /// Class codes `0..k`.
    Classes { y: &'a [u32], k: usize },
    /// Real values.
    Values(&'a [f64]),
}

/// Resolved tree-growing settings.
#[derive(Debug, Clone)]
pub(crate) struct TreeConfig {
    /// Entropy instead of Gini (classification only).
    pub entropy: bool,
    pub max_depth: usize,
    pub min_samples_split: usize,
    pub min_samples_leaf: usize,
    pub min_weight_fraction_leaf: f64,
    /// Features drawn per node (≥ p means all, scanned in column order).
    pub max_features: usize,
    pub min_impurity_decrease: f64,
}

/// Weighted totals of a set of rows: class counts, or sum and squared sum.
#[derive(Debug, Clone)]
pub(crate) struct Totals {
    pub w: f64,
    /// Class counts (classification) or `[Σ w y]` (regression).
    pub stats: Vec<f64>,
    /// `Σ w y²` (regression only).
    pub sq: f64,
}

/// The best split found so far.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Best {
    pub proxy: f64,
    pub feature: usize,
    pub threshold: f64,
    /// Rows going left.
    pub n_left: usize,
    /// For a binned feature: the largest code going left.
    pub code: usize,
    pub found: bool,
}

impl Best {
    fn new() -> Self {
        Best {
            proxy: f64::NEG_INFINITY,
            feature: 0,
            threshold: 0.0,
            n_left: 0,
            code: 0,
            found: false,
        }
    }

    #[inline]
    fn offer(&mut self, proxy: f64, feature: usize, lo: f32, hi: f32, n_left: usize) {
        if proxy > self.proxy {
            self.proxy = proxy;
            self.feature = feature;
            self.threshold = midpoint(lo, hi);
            self.n_left = n_left;
            self.found = true;
        }
    }
}

/// Buffers of one tree build, reused by every node.
pub(crate) struct Workspace<'a> {
    pub data: &'a Prepared,
    pub target: TargetRef<'a>,
    pub weights: &'a [f64],
    pub cfg: &'a TreeConfig,
    /// Rows with positive weight.
    pub m: usize,
    /// The rows of every node, contiguous per node (any order).
    pub samples: Vec<u32>,
    /// Per sorted slot, the rows ordered by value within every node.
    lists: Vec<Entry>,
    tmp: Vec<u32>,
    tmp_entries: Vec<Entry>,
    /// Per row `[w · [y = 0], w · [y = 1]]` (two classes) or `[w, w · y]`
    /// (regression): one load gives a sorted scan what it needs.
    pair: Vec<[f64; 2]>,
    goes_left: Vec<bool>,
    bin_stats: Vec<f64>,
    bin_n: Vec<u32>,
    /// Node stamp at which each binary slot's statistics were computed.
    bin_stamp: Vec<u32>,
    stamp: u32,
    /// Node-local row statistics for binary counting, valid at `loc_stamp`.
    loc: Vec<f64>,
    /// Node-local copies of the rows' binary bitmasks (`mw` words a row).
    loc_mask: Vec<u64>,
    loc_stamp: u32,
    mask_stamp: u32,
    /// Whether binary slots are counted from [`Workspace::scatter_bits`]
    /// (all slots' bits of a node at once, from the sparse row index)
    /// rather than packed slot by slot from `loc_mask`; both give the same
    /// words, so the choice (a cost model) never changes a tree.
    scatter: bool,
    /// Node-local bits, slot-major: word `slot · blocks + b` has bit `i`
    /// set when the node's row `64 b + i` holds the slot's marked value;
    /// valid at `bits_stamp`.
    loc_bits: Vec<u64>,
    bits_stamp: u32,
    /// One slot's node-local bit words, packed from `loc_mask`.
    slot_words: Vec<u64>,
    /// Binned features: full histogram, and compact statistics of the
    /// codes present in the node.
    hist: Vec<f64>,
    hist_n: Vec<u32>,
    present: Vec<u16>,
    pn: Vec<u32>,
    pstats: Vec<f64>,
    small: Vec<(u8, u32)>,
    all_features: bool,
    features: Vec<usize>,
    /// scikit-learn's `constant_features` array (its sampling mode only).
    constant_features: Vec<usize>,
    left: Vec<f64>,
    /// Width of a binary feature's statistics (k, or 2 for regression).
    d: usize,
    /// [`Scratch::rows`], kept for the next tree.
    spare_rows: Vec<u32>,
}

/// Reusable buffers of tree building (kept between the trees an ensemble
/// grows on one thread, so large buffers are not reallocated per tree).
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    samples: Vec<u32>,
    lists: Vec<Entry>,
    tmp: Vec<u32>,
    tmp_entries: Vec<Entry>,
    /// Per row `[w · [y = 0], w · [y = 1]]` (two classes) or `[w, w · y]`
    /// (regression): one load gives a sorted scan what it needs.
    pair: Vec<[f64; 2]>,
    goes_left: Vec<bool>,
    bin_stats: Vec<f64>,
    bin_n: Vec<u32>,
    bin_stamp: Vec<u32>,
    loc: Vec<f64>,
    loc_mask: Vec<u64>,
    loc_bits: Vec<u64>,
    slot_words: Vec<u64>,
    hist: Vec<f64>,
    hist_n: Vec<u32>,
    present: Vec<u16>,
    pn: Vec<u32>,
    pstats: Vec<f64>,
    small: Vec<(u8, u32)>,
    features: Vec<usize>,
    left: Vec<f64>,
    /// Rows routed through a grown tree to count its coverage (ensembles).
    pub rows: Vec<u32>,
}

/// `v` cleared and filled with `len` copies of `x`, keeping its capacity.
fn refill<T: Clone>(mut v: Vec<T>, len: usize, x: T) -> Vec<T> {
    v.clear();
    v.resize(len, x);
    v
}

impl<'a> Workspace<'a> {
    pub fn new(
        data: &'a Prepared,
        target: TargetRef<'a>,
        weights: &'a [f64],
        cfg: &'a TreeConfig,
        scratch: Scratch,
    ) -> Self {
        let mut samples = scratch.samples;
        samples.clear();
        samples.extend((0..data.n as u32).filter(|&i| weights[i as usize] > 0.0));
        let m = samples.len();
        let mut lists = refill(scratch.lists, m * data.orders.len() + 1, (0.0, 0));
        for (s, order) in data.orders.iter().enumerate() {
            // Branch-free filter of the rows with positive weight.
            let out = &mut lists[s * m..s * m + m + 1];
            let mut k = 0;
            for &e in order {
                out[k] = e;
                k += usize::from(weights[e.1 as usize] > 0.0);
            }
        }
        lists.truncate(m * data.orders.len());
        let mut pair = scratch.pair;
        pair.clear();
        match target {
            TargetRef::Classes { y, k: 2 } => {
                pair.extend(
                    y.iter()
                        .zip(weights)
                        .map(|(&c, &w)| if c == 0 { [w, 0.0] } else { [0.0, w] }),
                )
            }
            TargetRef::Values(y) => pair.extend(y.iter().zip(weights).map(|(&v, &w)| [w, w * v])),
            TargetRef::Classes { .. } => {}
        }
        let d = match target {
            TargetRef::Classes { k, .. } => k,
            TargetRef::Values(_) => 2,
        };
        let mut features = scratch.features;
        features.clear();
        features.extend(0..data.p);
        Workspace {
            data,
            target,
            weights,
            cfg,
            m,
            samples,
            lists,
            tmp: refill(scratch.tmp, m, 0),
            tmp_entries: refill(scratch.tmp_entries, m, (0.0, 0)),
            pair,
            goes_left: refill(scratch.goes_left, data.n, false),
            bin_stats: refill(scratch.bin_stats, data.n_binary * d, 0.0),
            bin_n: refill(scratch.bin_n, data.n_binary, 0),
            bin_stamp: refill(scratch.bin_stamp, data.n_binary, 0),
            stamp: 0,
            loc: scratch.loc,
            loc_mask: scratch.loc_mask,
            loc_stamp: u32::MAX,
            mask_stamp: u32::MAX,
            scatter: scatter_pays(data, cfg),
            loc_bits: scratch.loc_bits,
            bits_stamp: u32::MAX,
            slot_words: scratch.slot_words,
            hist: scratch.hist,
            hist_n: scratch.hist_n,
            present: scratch.present,
            pn: scratch.pn,
            pstats: scratch.pstats,
            small: scratch.small,
            all_features: cfg.max_features >= data.p,
            features,
            constant_features: vec![0; data.p],
            left: refill(scratch.left, d, 0.0),
            d,
            spare_rows: scratch.rows,
        }
    }

    /// Gives the buffers back for the next tree.
    pub fn into_scratch(self) -> Scratch {
        Scratch {
            samples: self.samples,
            lists: self.lists,
            tmp: self.tmp,
            tmp_entries: self.tmp_entries,
            pair: self.pair,
            goes_left: self.goes_left,
            bin_stats: self.bin_stats,
            bin_n: self.bin_n,
            bin_stamp: self.bin_stamp,
            loc: self.loc,
            loc_mask: self.loc_mask,
            loc_bits: self.loc_bits,
            slot_words: self.slot_words,
            hist: self.hist,
            hist_n: self.hist_n,
            present: self.present,
            pn: self.pn,
            pstats: self.pstats,
            small: self.small,
            features: self.features,
            left: self.left,
            rows: self.spare_rows,
        }
    }

    /// Weighted totals of the rows `samples[start..end]`.
    pub fn totals(&self, start: usize, end: usize) -> Totals {
        let w = self.weights;
        match self.target {
            TargetRef::Classes { y, k } => {
                let mut stats = vec![0.0; k];
                let mut wt = 0.0;
                for &r in &self.samples[start..end] {
                    let r = r as usize;
                    stats[y[r] as usize] += w[r];
                    wt += w[r];
                }
                Totals {
                    w: wt,
                    stats,
                    sq: 0.0,
                }
            }
            TargetRef::Values(y) => {
                let (mut wt, mut s, mut sq) = (0.0, 0.0, 0.0);
                for &r in &self.samples[start..end] {
                    let r = r as usize;
                    let wy = w[r] * y[r];
                    wt += w[r];
                    s += wy;
                    sq += wy * y[r];
                }
                Totals {
                    w: wt,
                    stats: vec![s],
                    sq,
                }
            }
        }
    }

    /// Impurity of a node with the given totals.
    pub fn impurity(&self, t: &Totals) -> f64 {
        match self.target {
            TargetRef::Classes { .. } => criterion::class_impurity(self.cfg.entropy, &t.stats, t.w),
            TargetRef::Values(_) => criterion::mse(t.stats[0], t.sq, t.w),
        }
    }

    /// The best split of the node `samples[start..end]`, if any.
    ///
    /// `constants` is a bitset of the features known to be constant in the
    /// node (found constant in an ancestor); they are skipped without a
    /// scan but still count as drawn, as in scikit-learn. Features found
    /// constant here are added, for the children.
    pub fn best_split(
        &mut self,
        start: usize,
        end: usize,
        tot: &Totals,
        min_weight_leaf: f64,
        rng: &mut Rng,
        constants: &mut [u64],
    ) -> Option<Best> {
        let mut best = Best::new();
        self.next_stamp();
        let known = |c: &[u64], f: usize| (c[f >> 6] >> (f & 63)) & 1 != 0;
        let p = self.data.p;
        if self.all_features {
            for f in 0..p {
                if !known(constants, f)
                    && !self.eval_feature(f, start, end, tot, min_weight_leaf, &mut best)
                {
                    constants[f >> 6] |= 1 << (f & 63);
                }
            }
        } else {
            let mut pool = p;
            let mut visited = 0;
            let mut non_constant = 0;
            while pool > 0 && (visited < self.cfg.max_features || non_constant == 0) {
                let j = crate::draw::below(rng, pool);
                pool -= 1;
                self.features.swap(j, pool);
                let f = self.features[pool];
                visited += 1;
                if known(constants, f) {
                    continue;
                }
                if self.eval_feature(f, start, end, tot, min_weight_leaf, &mut best) {
                    non_constant += 1;
                } else {
                    constants[f >> 6] |= 1 << (f & 63);
                }
            }
        }
        best.found.then_some(best)
    }

    /// A fresh stamp for the node about to be searched (invalidates the
    /// per-node caches of binary statistics).
    fn next_stamp(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 || self.stamp == u32::MAX {
            self.bin_stamp.iter_mut().for_each(|s| *s = u32::MAX);
            self.loc_stamp = u32::MAX;
            self.mask_stamp = u32::MAX;
            self.bits_stamp = u32::MAX;
            self.stamp = 1;
        }
    }

    /// The best split of the node `samples[start..end]` with
    /// scikit-learn's feature draws (`node_split_best`, Fisher–Yates on
    /// the `features` array that persists across the nodes of one tree).
    ///
    /// `n_known_constants` features, found constant by ancestors, sit at
    /// the front of that array. Returns the split, if any, and the number
    /// of constant features known to the children.
    pub fn best_split_sklearn(
        &mut self,
        start: usize,
        end: usize,
        tot: &Totals,
        min_weight_leaf: f64,
        rand_r: &mut RandR,
        n_known_constants: usize,
    ) -> (Option<Best>, usize) {
        let mut best = Best::new();
        self.next_stamp();
        let n_features = self.data.p;
        let max_features = self.cfg.max_features.min(n_features);
        let known = n_known_constants;
        let mut f_i = n_features;
        let mut visited = 0;
        let mut found = 0;
        let mut drawn = 0;
        let mut total = known;
        while f_i > total && (visited < max_features || visited <= found + drawn) {
            visited += 1;
            let mut f_j = rand_r.rand_int(drawn, f_i - found);
            if f_j < known {
                self.features.swap(drawn, f_j);
                drawn += 1;
                continue;
            }
            f_j += found;
            let f = self.features[f_j];
            if !self.eval_feature(f, start, end, tot, min_weight_leaf, &mut best) {
                self.features.swap(f_j, total);
                found += 1;
                total += 1;
                continue;
            }
            f_i -= 1;
            self.features.swap(f_i, f_j);
        }
        // scikit-learn's invariant: the known constants keep their order
        // for siblings and children; the new ones are recorded after them.
        self.features[..known].copy_from_slice(&self.constant_features[..known]);
        self.constant_features[known..total].copy_from_slice(&self.features[known..total]);
        (best.found.then_some(best), total)
    }

    /// Scans feature `f`; returns false when it is constant in the node.
    fn eval_feature(
        &mut self,
        f: usize,
        start: usize,
        end: usize,
        tot: &Totals,
        mwl: f64,
        best: &mut Best,
    ) -> bool {
        let msl = self.cfg.min_samples_leaf;
        match self.data.class[f] {
            FeatureClass::Constant => false,
            FeatureClass::Binary {
                slot,
                lo,
                hi,
                bit_is_hi,
            } => {
                if self.bin_stamp[slot] != self.stamp {
                    if self.all_features {
                        self.binary_counts(start, end);
                    } else {
                        self.binary_count(slot, start, end);
                    }
                }
                let m_node = end - start;
                let nb = self.bin_n[slot] as usize;
                if nb == 0 || nb == m_node {
                    return false;
                }
                let n_left = if bit_is_hi { m_node - nb } else { nb };
                if n_left < msl || m_node - n_left < msl {
                    return true;
                }
                let d = self.d;
                let bit = &self.bin_stats[slot * d..(slot + 1) * d];
                match self.target {
                    TargetRef::Classes { .. } => {
                        let mut wl = 0.0;
                        for ((l, &b), &t) in self.left.iter_mut().zip(bit).zip(&tot.stats) {
                            *l = if bit_is_hi { t - b } else { b };
                            wl += *l;
                        }
                        let wr = tot.w - wl;
                        if wl < mwl || wr < mwl {
                            return true;
                        }
                        let proxy = class_proxy(self.cfg.entropy, &self.left, &tot.stats, wl, wr);
                        best.offer(proxy, f, lo, hi, n_left);
                    }
                    TargetRef::Values(_) => {
                        let (bw, bs) = (bit[0], bit[1]);
                        let (wl, sl) = if bit_is_hi {
                            (tot.w - bw, tot.stats[0] - bs)
                        } else {
                            (bw, bs)
                        };
                        let wr = tot.w - wl;
                        if wl < mwl || wr < mwl {
                            return true;
                        }
                        let sr = tot.stats[0] - sl;
                        best.offer(sl * sl / wl + sr * sr / wr, f, lo, hi, n_left);
                    }
                }
                true
            }
            FeatureClass::Binned { slot } => self.eval_binned(f, slot, start, end, tot, mwl, best),
            FeatureClass::Sorted { slot } => {
                let base = slot * self.m;
                let seg = &self.lists[base + start..base + end];
                let first = seg[0].0 as f64;
                let last = seg[seg.len() - 1].0 as f64;
                if last <= first + FEATURE_THRESHOLD {
                    return false;
                }
                let w = self.weights;
                match self.target {
                    TargetRef::Classes { k: 2, .. } if !self.cfg.entropy => {
                        scan_gini2(seg, &self.pair, tot, msl, mwl, best, f)
                    }
                    TargetRef::Classes { y, .. } => {
                        let ent = self.cfg.entropy;
                        scan_class(seg, y, w, tot, ent, msl, mwl, &mut self.left, best, f)
                    }
                    TargetRef::Values(_) => scan_values(seg, &self.pair, tot, msl, mwl, best, f),
                }
                true
            }
        }
    }

    /// Per binary feature, the weighted statistics and the count of the
    /// node's rows holding the marked value.
    fn binary_counts(&mut self, start: usize, end: usize) {
        self.bin_stats.iter_mut().for_each(|v| *v = 0.0);
        self.bin_n.iter_mut().for_each(|v| *v = 0);
        let stamp = self.stamp;
        self.bin_stamp.iter_mut().for_each(|s| *s = stamp);
        let (ptr, idx) = (&self.data.bin_ptr, &self.data.bin_idx);
        let w = self.weights;
        let d = self.d;
        match self.target {
            TargetRef::Classes { y, .. } => {
                for &r in &self.samples[start..end] {
                    let r = r as usize;
                    let (c, wr) = (y[r] as usize, w[r]);
                    for &b in &idx[ptr[r] as usize..ptr[r + 1] as usize] {
                        let b = b as usize;
                        self.bin_stats[b * d + c] += wr;
                        self.bin_n[b] += 1;
                    }
                }
            }
            TargetRef::Values(y) => {
                for &r in &self.samples[start..end] {
                    let r = r as usize;
                    let (wr, wy) = (w[r], w[r] * y[r]);
                    for &b in &idx[ptr[r] as usize..ptr[r + 1] as usize] {
                        let b = b as usize;
                        self.bin_stats[2 * b] += wr;
                        self.bin_stats[2 * b + 1] += wy;
                        self.bin_n[b] += 1;
                    }
                }
            }
        }
    }

    /// The weighted statistics and the count of the node's rows holding
    /// the marked value of one binary slot, from the slot's node-local bit
    /// words (64 rows a word): popcounts, and the statistics of the set
    /// rows summed in row order.
    fn binary_count(&mut self, slot: usize, start: usize, end: usize) {
        self.bin_stamp[slot] = self.stamp;
        let len = end - start;
        self.ensure_local(start, end);
        let blocks = len.div_ceil(64);
        if self.scatter {
            if self.bits_stamp != self.stamp {
                self.scatter_bits(start, end);
                self.bits_stamp = self.stamp;
            }
        } else {
            if self.mask_stamp != self.stamp {
                self.gather_masks(start, end);
                self.mask_stamp = self.stamp;
            }
            self.pack_slot(slot, len);
        }
        let words = if self.scatter {
            &self.loc_bits[slot * blocks..(slot + 1) * blocks]
        } else {
            &self.slot_words[..blocks]
        };
        let d = self.d;
        let stats = &mut self.bin_stats[slot * d..(slot + 1) * d];
        let mut n = 0u32;
        if d == 2 {
            let (v0, v1) = self.loc[..2 * len].split_at(len);
            let (mut s0, mut s1) = (0.0f64, 0.0f64);
            for (b, &w) in words.iter().enumerate() {
                let mut word = w;
                n += word.count_ones();
                while word != 0 {
                    let i = 64 * b + word.trailing_zeros() as usize;
                    word &= word - 1;
                    s0 += v0[i];
                    s1 += v1[i];
                }
            }
            stats[0] = s0;
            stats[1] = s1;
        } else {
            stats.iter_mut().for_each(|v| *v = 0.0);
            for (b, &w) in words.iter().enumerate() {
                let mut word = w;
                n += word.count_ones();
                while word != 0 {
                    let i = 64 * b + word.trailing_zeros() as usize;
                    word &= word - 1;
                    for (j, s) in stats.iter_mut().enumerate() {
                        *s += self.loc[j * len + i];
                    }
                }
            }
        }
        self.bin_n[slot] = n;
    }

    /// Packs one binary slot's bits of the node's `len` rows from the
    /// gathered row masks into `slot_words`.
    fn pack_slot(&mut self, slot: usize, len: usize) {
        let mw = self.data.mw;
        let (q, sh) = (slot >> 6, slot & 63);
        let masks = &self.loc_mask[..len * mw];
        self.slot_words.clear();
        for base in (0..len).step_by(64) {
            let top = (base + 64).min(len);
            let mut word = 0u64;
            for (b, m) in masks[base * mw..top * mw].chunks_exact(mw).enumerate() {
                word |= ((m[q] >> sh) & 1) << b;
            }
            self.slot_words.push(word);
        }
    }

    /// Sets every binary slot's node-local bits (`loc_bits`) in one pass
    /// over the node's rows and their marked slots in the sparse row
    /// index.
    fn scatter_bits(&mut self, start: usize, end: usize) {
        let len = end - start;
        let blocks = len.div_ceil(64);
        self.loc_bits.clear();
        self.loc_bits.resize(self.data.n_binary * blocks, 0);
        let (ptr, idx) = (&self.data.bin_ptr, &self.data.bin_idx);
        for (i, &r) in self.samples[start..end].iter().enumerate() {
            let r = r as usize;
            let (b, bit) = (i >> 6, 1u64 << (i & 63));
            for &s in &idx[ptr[r] as usize..ptr[r + 1] as usize] {
                self.loc_bits[s as usize * blocks + b] |= bit;
            }
        }
    }

    /// Makes the node-local statistics of [`Workspace::gather_local`]
    /// current.
    fn ensure_local(&mut self, start: usize, end: usize) {
        if self.loc_stamp != self.stamp {
            self.gather_local(start, end);
            self.loc_stamp = self.stamp;
        }
    }

    /// Gathers the node's per-row statistics contiguously: `loc[j · len +
    /// i]` is `w · [y = j]` (classes) or `w`, `w · y`, `w · y²`
    /// (regression) of the node's `i`-th row.
    fn gather_local(&mut self, start: usize, end: usize) {
        let len = end - start;
        let rows = match self.target {
            TargetRef::Classes { k, .. } => k,
            TargetRef::Values(_) => 3,
        };
        self.loc.clear();
        self.loc.resize(rows * len, 0.0);
        let w = self.weights;
        match self.target {
            TargetRef::Classes { y, .. } => {
                for (i, &r) in self.samples[start..end].iter().enumerate() {
                    let r = r as usize;
                    self.loc[y[r] as usize * len + i] = w[r];
                }
            }
            TargetRef::Values(y) => {
                for (i, &r) in self.samples[start..end].iter().enumerate() {
                    let r = r as usize;
                    let wy = w[r] * y[r];
                    self.loc[i] = w[r];
                    self.loc[len + i] = wy;
                    self.loc[2 * len + i] = wy * y[r];
                }
            }
        }
    }

    /// Gathers the node's rows' binary bitmasks contiguously.
    fn gather_masks(&mut self, start: usize, end: usize) {
        let mw = self.data.mw;
        let len = end - start;
        self.loc_mask.clear();
        self.loc_mask.resize(len * mw, 0);
        let row_bits = &self.data.row_bits;
        let samples = &self.samples[start..end];
        for (dst, &r) in self.loc_mask.chunks_exact_mut(mw).zip(samples) {
            let r = r as usize;
            for (q, d) in dst.iter_mut().enumerate() {
                *d = row_bits[r * mw + q];
            }
        }
    }

    /// Evaluates a binned feature from the node's histogram over its codes
    /// (or, for nodes much smaller than the number of codes, from the
    /// node's codes sorted); returns false when it is constant in the node.
    #[allow(clippy::too_many_arguments)]
    fn eval_binned(
        &mut self,
        f: usize,
        slot: usize,
        start: usize,
        end: usize,
        tot: &Totals,
        mwl: f64,
        best: &mut Best,
    ) -> bool {
        let len = end - start;
        self.ensure_local(start, end);
        let d = self.d;
        let data = self.data;
        let codes = &data.codes[slot];
        let values = &data.code_values[slot];
        let nc = values.len();
        let samples = &self.samples[start..end];
        // Compact per-code statistics of the codes present, increasing.
        self.present.clear();
        self.pn.clear();
        self.pstats.clear();
        if len * 8 < nc {
            self.small.clear();
            self.small.extend(
                samples
                    .iter()
                    .enumerate()
                    .map(|(i, &r)| (codes[r as usize], i as u32)),
            );
            self.small.sort_unstable();
            for &(c, i) in &self.small {
                if self.present.last() != Some(&(c as u16)) {
                    self.present.push(c as u16);
                    self.pn.push(0);
                    self.pstats.extend(std::iter::repeat_n(0.0, d));
                }
                let t = self.present.len() - 1;
                self.pn[t] += 1;
                for j in 0..d {
                    self.pstats[t * d + j] += self.loc[j * len + i as usize];
                }
            }
        } else {
            self.hist.clear();
            self.hist.resize(nc * d, 0.0);
            self.hist_n.clear();
            self.hist_n.resize(nc, 0);
            if d == 2 {
                let (v0, v1) = self.loc[..2 * len].split_at(len);
                for ((&r, &a), &b) in samples.iter().zip(v0).zip(v1) {
                    let c = codes[r as usize] as usize;
                    self.hist_n[c] += 1;
                    self.hist[2 * c] += a;
                    self.hist[2 * c + 1] += b;
                }
            } else {
                for (i, &r) in samples.iter().enumerate() {
                    let c = codes[r as usize] as usize;
                    self.hist_n[c] += 1;
                    for j in 0..d {
                        self.hist[c * d + j] += self.loc[j * len + i];
                    }
                }
            }
            for c in 0..nc {
                if self.hist_n[c] > 0 {
                    self.present.push(c as u16);
                    self.pn.push(self.hist_n[c]);
                    self.pstats
                        .extend_from_slice(&self.hist[c * d..(c + 1) * d]);
                }
            }
        }
        let (Some(&lo), Some(&hi)) = (self.present.first(), self.present.last()) else {
            return false;
        };
        if (values[hi as usize] as f64) <= (values[lo as usize] as f64) + FEATURE_THRESHOLD {
            return false;
        }
        let msl = self.cfg.min_samples_leaf;
        self.left.iter_mut().for_each(|v| *v = 0.0);
        let mut nl = 0usize;
        for t in 0..self.present.len() {
            if t > 0 {
                let (pc, c) = (self.present[t - 1] as usize, self.present[t] as usize);
                let (a, b) = (values[pc], values[c]);
                if (b as f64) > (a as f64) + FEATURE_THRESHOLD && nl >= msl && len - nl >= msl {
                    if let Some(proxy) = self.proxy_of_left(tot, mwl) {
                        if proxy > best.proxy {
                            best.offer(proxy, f, a, b, nl);
                            best.code = pc;
                        }
                    }
                }
            }
            nl += self.pn[t] as usize;
            for j in 0..d {
                self.left[j] += self.pstats[t * d + j];
            }
        }
        true
    }

    /// The proxy improvement of sending the rows summarised in `self.left`
    /// (class weights, or `[Σw, Σwy]`) left, if both sides keep enough
    /// weight.
    #[inline]
    fn proxy_of_left(&self, tot: &Totals, mwl: f64) -> Option<f64> {
        match self.target {
            TargetRef::Classes { .. } => {
                let wl: f64 = self.left.iter().sum();
                let wr = tot.w - wl;
                if wl < mwl || wr < mwl {
                    return None;
                }
                Some(class_proxy(
                    self.cfg.entropy,
                    &self.left,
                    &tot.stats,
                    wl,
                    wr,
                ))
            }
            TargetRef::Values(_) => {
                let (wl, sl) = (self.left[0], self.left[1]);
                let wr = tot.w - wl;
                if wl < mwl || wr < mwl {
                    return None;
                }
                let sr = tot.stats[0] - sl;
                Some(sl * sl / wl + sr * sr / wr)
            }
        }
    }

    /// Marks which rows of the node go left under `best` and returns their
    /// number and the weighted totals of both sides (summed afresh, in
    /// order of the rows' lists).
    pub fn mark(&mut self, start: usize, end: usize, best: &Best) -> (usize, Totals, Totals) {
        let data = self.data;
        let samples = &self.samples[start..end];
        let mut n_left = 0;
        match data.class[best.feature] {
            FeatureClass::Sorted { slot } => {
                // The split is a prefix of the feature's sorted rows.
                let base = slot * self.m;
                let seg = &self.lists[base + start..base + end];
                for (i, &(_, r)) in seg.iter().enumerate() {
                    self.goes_left[r as usize] = i < best.n_left;
                }
                n_left = best.n_left;
            }
            FeatureClass::Binary {
                slot, bit_is_hi, ..
            } => {
                let mw = data.mw;
                let (q, sh) = (slot >> 6, slot & 63);
                if self.bits_stamp == self.stamp {
                    let blocks = samples.len().div_ceil(64);
                    let words = &self.loc_bits[slot * blocks..(slot + 1) * blocks];
                    for (i, &r) in samples.iter().enumerate() {
                        let gl = ((words[i >> 6] >> (i & 63)) & 1 != 0) != bit_is_hi;
                        self.goes_left[r as usize] = gl;
                        n_left += usize::from(gl);
                    }
                } else if self.mask_stamp == self.stamp {
                    for (&r, m) in samples.iter().zip(self.loc_mask.chunks_exact(mw)) {
                        let gl = ((m[q] >> sh) & 1 != 0) != bit_is_hi;
                        self.goes_left[r as usize] = gl;
                        n_left += usize::from(gl);
                    }
                } else {
                    for &r in samples {
                        let gl = data.bit(slot, r as usize) != bit_is_hi;
                        self.goes_left[r as usize] = gl;
                        n_left += usize::from(gl);
                    }
                }
            }
            FeatureClass::Binned { slot } => {
                let codes = &data.codes[slot];
                for &r in samples {
                    let gl = (codes[r as usize] as usize) <= best.code;
                    self.goes_left[r as usize] = gl;
                    n_left += usize::from(gl);
                }
            }
            FeatureClass::Constant => {
                let x = &data.cols[best.feature];
                for &r in samples {
                    let gl = (x[r as usize] as f64) <= best.threshold;
                    self.goes_left[r as usize] = gl;
                    n_left += usize::from(gl);
                }
            }
        }
        debug_assert!(self.samples[start..end].iter().all(|&r| {
            let r = r as usize;
            self.goes_left[r] == ((data.cols[best.feature][r] as f64) <= best.threshold)
        }));
        let (left, right) = self.side_totals(start, end);
        (n_left, left, right)
    }

    /// Weighted totals of the rows marked left and of the others, each
    /// summed in row-list order (`v · 0.0` adds an exact zero).
    fn side_totals(&mut self, start: usize, end: usize) -> (Totals, Totals) {
        self.ensure_local(start, end);
        let len = end - start;
        let samples = &self.samples[start..end];
        let gl = &self.goes_left;
        let loc = &self.loc;
        match self.target {
            TargetRef::Classes { k: 2, .. } => {
                let (v0, v1) = loc[..2 * len].split_at(len);
                let (mut l0, mut l1, mut r0, mut r1) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
                for ((&r, &a), &b) in samples.iter().zip(v0).zip(v1) {
                    let g = f64::from(u8::from(gl[r as usize]));
                    let h = 1.0 - g;
                    l0 += a * g;
                    l1 += b * g;
                    r0 += a * h;
                    r1 += b * h;
                }
                (
                    Totals {
                        w: l0 + l1,
                        stats: vec![l0, l1],
                        sq: 0.0,
                    },
                    Totals {
                        w: r0 + r1,
                        stats: vec![r0, r1],
                        sq: 0.0,
                    },
                )
            }
            TargetRef::Classes { k, .. } => {
                let mut sides = [vec![0.0; k], vec![0.0; k]];
                for (i, &r) in samples.iter().enumerate() {
                    let side = &mut sides[usize::from(!gl[r as usize])];
                    for (j, s) in side.iter_mut().enumerate() {
                        *s += loc[j * len + i];
                    }
                }
                let [l, r] = sides;
                (
                    Totals {
                        w: l.iter().sum(),
                        stats: l,
                        sq: 0.0,
                    },
                    Totals {
                        w: r.iter().sum(),
                        stats: r,
                        sq: 0.0,
                    },
                )
            }
            TargetRef::Values(_) => {
                let mut acc = [0.0f64; 6];
                for (i, &r) in samples.iter().enumerate() {
                    let g = f64::from(u8::from(gl[r as usize]));
                    let h = 1.0 - g;
                    let (w, wy, wyy) = (loc[i], loc[len + i], loc[2 * len + i]);
                    acc[0] += w * g;
                    acc[1] += wy * g;
                    acc[2] += wyy * g;
                    acc[3] += w * h;
                    acc[4] += wy * h;
                    acc[5] += wyy * h;
                }
                (
                    Totals {
                        w: acc[0],
                        stats: vec![acc[1]],
                        sq: acc[2],
                    },
                    Totals {
                        w: acc[3],
                        stats: vec![acc[4]],
                        sq: acc[5],
                    },
                )
            }
        }
    }

    /// Stably partitions every row list of the node by the marks of the
    /// last [`Workspace::mark`]; the list of the split feature is already
    /// partitioned.
    pub fn partition(&mut self, start: usize, end: usize, feature: usize) {
        let skip = match self.data.class[feature] {
            FeatureClass::Sorted { slot } => Some(slot),
            _ => None,
        };
        stable_partition(
            &mut self.samples[start..end],
            &self.goes_left,
            &mut self.tmp,
        );
        for slot in 0..self.data.orders.len() {
            if Some(slot) == skip {
                continue;
            }
            let base = slot * self.m;
            stable_partition(
                &mut self.lists[base + start..base + end],
                &self.goes_left,
                &mut self.tmp_entries,
            );
        }
    }
}

/// Whether scattering all binary slots' node bits from the sparse row
/// index ([`Workspace::scatter_bits`]: one write per marked slot of a row,
/// plus zeroing `n_binary / 64` words a row) costs less than packing the
/// drawn slots one by one from the gathered row masks (a gather of `mw`
/// words a row, then about four operations a row per drawn binary slot).
/// Used only when features are drawn (with every feature, all binary
/// slots are counted from the sparse index directly).
fn scatter_pays(data: &Prepared, cfg: &TreeConfig) -> bool {
    if data.n_binary == 0 {
        return false;
    }
    let n = data.n.max(1) as f64;
    let marked = data.bin_idx.len() as f64 / n;
    let zeroing = data.n_binary as f64 / 64.0;
    let drawn = cfg.max_features.min(data.p) as f64 * data.n_binary as f64 / data.p as f64;
    marked + zeroing <= 4.0 * drawn + data.mw as f64
}

/// The row an entry of a row list refers to.
trait RowOf {
    fn row(&self) -> usize;
}

impl RowOf for u32 {
    #[inline]
    fn row(&self) -> usize {
        *self as usize
    }
}

impl RowOf for Entry {
    #[inline]
    fn row(&self) -> usize {
        self.1 as usize
    }
}

/// Moves the rows marked left to the front, keeping the order on both
/// sides.
fn stable_partition<T: Copy + RowOf>(seg: &mut [T], goes_left: &[bool], tmp: &mut [T]) {
    let mut l = 0;
    let mut r = 0;
    for i in 0..seg.len() {
        let s = seg[i];
        let gl = goes_left[s.row()];
        seg[l] = s;
        tmp[r] = s;
        l += gl as usize;
        r += (!gl) as usize;
    }
    seg[l..].copy_from_slice(&tmp[..r]);
}

/// scikit-learn's proxy improvement `−W_r·imp_r − W_l·imp_l` for class
/// counts.
#[inline]
fn class_proxy(entropy: bool, left: &[f64], tot: &[f64], wl: f64, wr: f64) -> f64 {
    if entropy {
        let mut hl = 0.0;
        let mut hr = 0.0;
        for (&l, &t) in left.iter().zip(tot) {
            let pl = l / wl;
            if pl > 0.0 {
                hl -= pl * pl.log2();
            }
            let pr = (t - l) / wr;
            if pr > 0.0 {
                hr -= pr * pr.log2();
            }
        }
        -wr * hr - wl * hl
    } else {
        let mut sql = 0.0;
        let mut sqr = 0.0;
        for (&l, &t) in left.iter().zip(tot) {
            sql += l * l;
            let r = t - l;
            sqr += r * r;
        }
        -wr * (1.0 - sqr / (wr * wr)) - wl * (1.0 - sql / (wl * wl))
    }
}

/// Scan of a sorted feature for two classes under Gini.
#[allow(clippy::too_many_arguments)]
fn scan_gini2(
    seg: &[Entry],
    pair: &[[f64; 2]],
    tot: &Totals,
    msl: usize,
    mwl: f64,
    best: &mut Best,
    f: usize,
) {
    let m = seg.len();
    let (t0, t1) = (tot.stats[0], tot.stats[1]);
    // Per-class sums; `pair[r]` holds `w` in the row's class and an exact
    // zero in the other, so the sums equal per-class accumulation and
    // `a + b` is `w` exactly.
    let (mut l0, mut l1) = (0.0f64, 0.0f64);
    let mut wl = 0.0;
    // Division-free screen: proxy = S − (W_l + W_r) with S = sql/wl +
    // sqr/wr, so a candidate can beat the best only if S · wl · wr ≥
    // (best + W − margin) · wl · wr; the margin (1e-12 · W) dwarfs the
    // rounding of either side, and survivors are compared with
    // scikit-learn's exact proxy.
    let margin = 1e-12 * tot.w;
    let mut floor = best.proxy + tot.w - margin;
    for i in 0..m - 1 {
        let (cur, r) = seg[i];
        let [a, b] = pair[r as usize];
        l0 += a;
        l1 += b;
        wl += a + b;
        let xn = seg[i + 1].0;
        let nl = i + 1;
        if nl < msl {
            continue;
        }
        if m - nl < msl {
            break;
        }
        if (xn as f64) <= (cur as f64) + FEATURE_THRESHOLD {
            continue;
        }
        let wr = tot.w - wl;
        if wl < mwl || wr < mwl {
            continue;
        }
        let (r0, r1) = (t0 - l0, t1 - l1);
        let sql = l0 * l0 + l1 * l1;
        let sqr = r0 * r0 + r1 * r1;
        if sql * wr + sqr * wl < floor * (wl * wr) {
            continue;
        }
        let proxy = -wr * (1.0 - sqr / (wr * wr)) - wl * (1.0 - sql / (wl * wl));
        if proxy > best.proxy {
            best.offer(proxy, f, cur, xn, nl);
            floor = best.proxy + tot.w - margin;
        }
    }
}

/// Scan of a sorted feature for any number of classes.
#[allow(clippy::too_many_arguments)]
fn scan_class(
    seg: &[Entry],
    y: &[u32],
    w: &[f64],
    tot: &Totals,
    entropy: bool,
    msl: usize,
    mwl: f64,
    left: &mut [f64],
    best: &mut Best,
    f: usize,
) {
    let m = seg.len();
    left.iter_mut().for_each(|v| *v = 0.0);
    let mut wl = 0.0;
    for i in 0..m - 1 {
        let (cur, r) = seg[i];
        let r = r as usize;
        let wi = w[r];
        left[y[r] as usize] += wi;
        wl += wi;
        let xn = seg[i + 1].0;
        let nl = i + 1;
        if nl < msl {
            continue;
        }
        if m - nl < msl {
            break;
        }
        if (xn as f64) <= (cur as f64) + FEATURE_THRESHOLD {
            continue;
        }
        let wr = tot.w - wl;
        if wl < mwl || wr < mwl {
            continue;
        }
        let proxy = class_proxy(entropy, left, &tot.stats, wl, wr);
        best.offer(proxy, f, cur, xn, nl);
    }
}

/// Scan of a sorted feature for a real target (squared error).
#[allow(clippy::too_many_arguments)]
fn scan_values(
    seg: &[Entry],
    pair: &[[f64; 2]],
    tot: &Totals,
    msl: usize,
    mwl: f64,
    best: &mut Best,
    f: usize,
) {
    let m = seg.len();
    let s_tot = tot.stats[0];
    let mut sl = 0.0;
    let mut wl = 0.0;
    // Division-free screen as in `scan_gini2`: a candidate can beat the
    // best proxy P only if sl² · wr + sr² · wl ≥ (P − margin) · wl · wr.
    let screen = |p: f64| p - (1e-12 * p.abs() + 1e-300);
    let mut floor = screen(best.proxy);
    for i in 0..m - 1 {
        let (cur, r) = seg[i];
        let [wi, wy] = pair[r as usize];
        sl += wy;
        wl += wi;
        let xn = seg[i + 1].0;
        let nl = i + 1;
        if nl < msl {
            continue;
        }
        if m - nl < msl {
            break;
        }
        if (xn as f64) <= (cur as f64) + FEATURE_THRESHOLD {
            continue;
        }
        let wr = tot.w - wl;
        if wl < mwl || wr < mwl {
            continue;
        }
        let sr = s_tot - sl;
        if sl * sl * wr + sr * sr * wl < floor * (wl * wr) {
            continue;
        }
        let proxy = sl * sl / wl + sr * sr / wr;
        if proxy > best.proxy {
            best.offer(proxy, f, cur, xn, nl);
            floor = screen(best.proxy);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stable_partition_keeps_order() {
        let mut seg: Vec<u32> = vec![5, 1, 4, 2, 3, 0];
        let marks = [true, false, true, false, true, false];
        let mut tmp = vec![0u32; 6];
        stable_partition(&mut seg, &marks, &mut tmp);
        assert_eq!(seg, vec![4, 2, 0, 5, 1, 3]);
    }
}
